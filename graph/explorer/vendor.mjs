// Copies GraphiQL's and React's browser builds from node_modules into vendor/,
// where they are committed and embedded (graph/explorer.go): the explorer is
// served without Node.js and loads nothing from a CDN, so it works offline.
// Run after changing a version in package.json: npm install && npm run vendor.
import { copyFileSync, mkdirSync } from "node:fs";

const out = new URL("./vendor/", import.meta.url);
mkdirSync(out, { recursive: true });
for (const [from, to] of [
  ["graphiql/graphiql.min.js", "graphiql.min.js"],
  ["graphiql/graphiql.min.css", "graphiql.min.css"],
  ["graphiql/LICENSE", "graphiql.LICENSE"],
  ["react/umd/react.production.min.js", "react.production.min.js"],
  ["react/LICENSE", "react.LICENSE"],
  ["react-dom/umd/react-dom.production.min.js", "react-dom.production.min.js"],
  ["react-dom/LICENSE", "react-dom.LICENSE"],
]) {
  copyFileSync(new URL(`./node_modules/${from}`, import.meta.url), new URL(to, out));
}
