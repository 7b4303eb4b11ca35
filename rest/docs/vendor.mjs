// Copies Redoc's standalone browser build from node_modules into vendor/,
// where it is committed and embedded (rest/docs.go): the reference page at
// /docs is served without Node.js and loads nothing from a CDN, so it works
// offline. Run after changing the version in package.json:
// npm install && npm run vendor.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";

const out = new URL("./vendor/", import.meta.url);
mkdirSync(out, { recursive: true });
for (const [from, to] of [
  ["redoc/bundles/redoc.standalone.js", "redoc.standalone.js"],
  ["redoc/LICENSE", "redoc.LICENSE"],
]) {
  copyFileSync(new URL(`./node_modules/${from}`, import.meta.url), new URL(to, out));
}

// Redoc draws its maker's logo from cdn.redoc.ly beside "API docs by
// Redocly": an empty inline image instead, so the page asks no other host
// (its Content-Security-Policy, rest/docs.go, would refuse it anyway).
const js = new URL("redoc.standalone.js", out);
const cdnLogo = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const text = readFileSync(js, "utf8");
if (!text.includes(cdnLogo)) throw new Error("redoc.standalone.js: the CDN logo moved; find what loads it now");
writeFileSync(js, text.replace(cdnLogo, 'src:"data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E"'));
