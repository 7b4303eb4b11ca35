package rest

import _ "embed"

// openAPI is the REST contract served at /openapi.json.
//
//go:embed openapi.json
var openAPI []byte
