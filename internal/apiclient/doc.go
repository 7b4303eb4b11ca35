// Package apiclient is a Go client of the REST API generated, unmodified,
// by oapi-codegen from rest/openapi.json (what GET /openapi.json serves). It
// exists to prove the document generates a working client: its test drives a
// live server through it, and checks that the committed code is what the
// generator makes of the served document today.
package apiclient

//go:generate go tool oapi-codegen -generate types,client -package apiclient -o client.gen.go ../../rest/openapi.json
