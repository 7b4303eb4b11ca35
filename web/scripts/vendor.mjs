// Copies the chart library's built files from node_modules into static/vendor,
// where they are committed and embedded: the portal is served without Node.js
// and loads nothing from a CDN. Run after changing its version: npm run vendor.
import { copyFileSync, mkdirSync } from "node:fs";

const out = new URL("../static/vendor/", import.meta.url);
mkdirSync(out, { recursive: true });
for (const [from, to] of [
  ["uplot/dist/uPlot.iife.min.js", "uPlot.iife.min.js"],
  ["uplot/dist/uPlot.min.css", "uPlot.min.css"],
  ["uplot/LICENSE", "uPlot.LICENSE"],
]) {
  copyFileSync(new URL(`../node_modules/${from}`, import.meta.url), new URL(to, out));
}
