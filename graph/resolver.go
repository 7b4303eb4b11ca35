// Package graph serves clausewatch's GraphQL API over the service layer. It is
// a thin transport: each resolver maps its arguments to one app call and maps
// the result back; validation, authorization and budgets live in app.
package graph

//go:generate sh -c "cd .. && go tool gqlgen generate"

import (
	"github.com/clausewatch/clausewatch/internal/app"
	"github.com/clausewatch/clausewatch/internal/monitor"
)

// Resolver is the root resolver; it holds the services the fields call.
type Resolver struct {
	Service    *app.Service
	Monitoring *monitor.Service
}
