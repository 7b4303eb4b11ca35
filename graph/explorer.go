package graph

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"io/fs"
	"net/http"

	"github.com/99designs/gqlgen/graphql/playground"
)

// explorerPath is where the explorer's assets are served, beside /graphql.
const explorerPath = "/graphql/explorer/"

// vendored holds GraphiQL and React as npm builds them (explorer/vendor.mjs
// copies them), so the explorer works offline and trusts no CDN.
//
//go:embed explorer/vendor
var vendored embed.FS

// newExplorer serves GraphiQL at /graphql and its assets under explorerPath.
func newExplorer() http.Handler {
	assets, err := fs.Sub(vendored, "explorer/vendor")
	if err != nil {
		panic(err)
	}
	page := playground.Handler("clausewatch GraphQL", "/graphql",
		playground.WithGraphiqlVersion(explorerPath+"graphiql.min.js", explorerPath+"graphiql.min.css",
			integrity(assets, "graphiql.min.js"), integrity(assets, "graphiql.min.css")),
		playground.WithGraphiqlReactVersion(explorerPath+"react.production.min.js", explorerPath+"react-dom.production.min.js",
			integrity(assets, "react.production.min.js"), integrity(assets, "react-dom.production.min.js")))
	files := http.StripPrefix(explorerPath, http.FileServerFS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/graphql" {
			page(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}

// integrity is the subresource-integrity hash of an embedded asset, so the
// page's integrity attributes always match the files served beside it.
func integrity(assets fs.FS, name string) string {
	b, err := fs.ReadFile(assets, name)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
