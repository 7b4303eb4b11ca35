// Package paritytest holds the parity table: every operation run through
// REST and through GraphQL (and, for the tools it has, MCP) on the same kind
// of fresh service, compared on
// outcome (ok, or the app code behind the status or extensions.code), budget
// effect and RateLimit headers. It has no code of its own; it is the one
// place that imports the transports together besides cmd.
package paritytest
