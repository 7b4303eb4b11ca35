// Package paritytest holds the parity table: every operation run through
// REST and through GraphQL (and, for MCP's tools, every one of which has a
// case, MCP) on the same kind of fresh service, compared on outcome (ok, or
// the app code behind the status or extensions.code), budget effect and
// RateLimit headers, and for MCP on the shape of its output, which is
// REST's body. It has no code of its own; it is the one place that imports
// the transports together besides cmd.
package paritytest
