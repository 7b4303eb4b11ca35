// Copies Redoc's standalone browser build from node_modules into vendor/,
// where it is committed and embedded (rest/docs.go): the reference page at
// /docs is served without Node.js and loads nothing from a CDN, so it works
// offline. Run after changing the version in package.json:
// npm install && npm run vendor.
import { copyFileSync, mkdirSync } from "node:fs";

const out = new URL("./vendor/", import.meta.url);
mkdirSync(out, { recursive: true });
for (const [from, to] of [
  ["redoc/bundles/redoc.standalone.js", "redoc.standalone.js"],
  ["redoc/LICENSE", "redoc.LICENSE"],
]) {
  copyFileSync(new URL(`./node_modules/${from}`, import.meta.url), new URL(to, out));
}
