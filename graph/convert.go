package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
)

// deref returns *p, or the zero value for an absent argument (app applies
// its defaults to zero values).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// pointers maps a slice of values to pointers into it, as gqlgen's lists want.
func pointers[T any](in []T) []*T {
	out := make([]*T, len(in))
	for i := range in {
		out[i] = &in[i]
	}
	return out
}

// selects reports whether the current field's selection reaches the field
// path (fragments included), so a resolver reads only what was asked for.
func selects(ctx context.Context, path ...string) bool {
	op := graphql.GetOperationContext(ctx)
	fields := graphql.CollectFieldsCtx(ctx, nil)
	for i, name := range path {
		var next []graphql.CollectedField
		for _, f := range fields {
			if f.Name == name {
				if i == len(path)-1 {
					return true
				}
				next = append(next, graphql.CollectFields(op, f.Selections, nil)...)
			}
		}
		fields = next
	}
	return false
}

// nonEmpty is s, or null for "" (a string the schema makes optional).
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
