package rest

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
)

// docsAssets holds Redoc's standalone build as npm ships it (docs/vendor.mjs
// copies it), so the reference page at /docs renders /openapi.json offline
// and trusts no CDN, as the GraphQL explorer does.
//
//go:embed docs/vendor
var docsAssets embed.FS

// docsCSP holds the reference page to its own origin, as the portal's csp
// does. Redoc injects its styles (styled-components) and runs its search in a
// worker made from a blob: URL; it reads the spec from /openapi.json.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; worker-src blob:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// docsPage renders openapi.json with the vendored Redoc; the script's
// integrity hash is computed from the file served beside it.
func docsPage() (page []byte, assets http.Handler) {
	sub, err := fs.Sub(docsAssets, "docs/vendor")
	if err != nil {
		panic(err)
	}
	js, err := fs.ReadFile(sub, "redoc.standalone.js")
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(js)
	page = fmt.Appendf(nil, `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clausewatch API reference</title>
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/openapi.json" hide-download-button="false" disable-search="false"></redoc>
<script src="/docs/assets/redoc.standalone.js" integrity="sha256-%s"></script>
</body>
</html>
`, base64.StdEncoding.EncodeToString(sum[:]))
	return page, http.StripPrefix("/docs/assets/", http.FileServerFS(sub))
}
