// A long real terms of service in the portal, as a person on any screen
// meets it: a fresh account pastes one from the corpus (with a 300-character
// URL added, which nothing can break), and at 390, 768 and 1280 px, in both
// themes and on paper, no part of the page is wider than the screen; the
// same case's passages are one entry ("×N, show all"), long groups show
// their first few entries; every count on the page agrees with the findings
// list. Then /docs, the API reference: it loads nothing from another host,
// runs under its Content-Security-Policy, and the site has a favicon.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { createHmac } from "node:crypto";
import { chromium } from "playwright-core";

const link = process.env.PORTAL_LINK;
const artifacts = process.env.ARTIFACTS ?? "/tmp/clausewatch-portal-e2e";
if (!link?.startsWith("http://127.0.0.1:")) throw new Error(`PORTAL_LINK must be the loopback sign-in link, got ${link}`);
const base = new URL(link).origin;
mkdirSync(artifacts, { recursive: true });

function mint(email) {
  const secret = readFileSync(process.env.SESSION_KEY, "utf8").trim();
  const part = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const signed = part({ alg: "HS256", typ: "JWT" }) + "." + part({ sub: "local:" + email, email, iat: now, exp: now + 3600 });
  return signed + "." + createHmac("sha256", secret).update(signed).digest("base64url");
}

// The first terms of service of 6,000 to 12,000 words in the corpus
// (../shared/data/corpus, the same one the evals read), in its order.
function longTerms() {
  const corpus = new URL("../../../shared/data/corpus/documents.jsonl.gz", import.meta.url);
  for (const line of gunzipSync(readFileSync(corpus)).toString("utf8").split("\n")) {
    if (!line) continue;
    const d = JSON.parse(line);
    const words = d.text.split(/\s+/).length;
    if (d.type === "Terms of Service" && words >= 6000 && words <= 12000) return d;
  }
  throw new Error("no terms of service of 6,000 to 12,000 words in the corpus");
}
const longURL = "https://example.com/legal/" + "termsofservicequestions".repeat(12);

let browser, context, page;
const offsite = [];
const pageErrors = [];

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route((url) => url.origin !== base, (route) => {
    offsite.push(route.request().url());
    return route.abort();
  });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on("pageerror", (err) => pageErrors.push(err.message));
  await page.goto(`${base}/#signin=${mint("long-terms@example.com")}`);
  await page.locator("#who-email").filter({ hasText: "long-terms@example.com" }).waitFor();
});

after(async () => {
  await browser?.close();
});

// fits asserts at every width, in both themes and on paper, that the page
// does not scroll sideways, and keeps a screenshot of each.
async function fits(name) {
  const widths = [];
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ media: "screen", colorScheme: theme });
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForTimeout(150);
      widths.push([`${theme} ${width} px`, await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth])]);
      await page.screenshot({ path: `${artifacts}/${name}-${theme}-${width}.png` });
    }
  }
  await page.emulateMedia({ media: "print", colorScheme: "light" });
  await page.setViewportSize({ width: 794, height: 1123 }); // A4 at 96 dpi
  widths.push(["printed", await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth])]);
  await page.emulateMedia({ media: "screen", colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [what, [scrollWidth, innerWidth]] of widths) {
    assert.ok(scrollWidth <= innerWidth, `${name}, ${what}: the page is ${scrollWidth} px wide on a ${innerWidth} px screen`);
  }
}

test("a signed-in person lands on Analyze, with the keys one click away", async () => {
  await page.locator("main h1", { hasText: "Analyze a document" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#analyze");
  await page.getByRole("link", { name: "API keys" }).click();
  await page.locator("main h1", { hasText: "API keys" }).waitFor();
  await fits("fits-keys");
});

test("a long terms of service fits every screen, its repeated cases grouped and long groups folded", async () => {
  const doc = longTerms();
  await page.getByRole("link", { name: "Analyze" }).click();
  await page.getByLabel("Title").fill(doc.service + " " + doc.type);
  await page.getByLabel("Document text").fill(`${doc.text}\n\nWe may terminate your account at any time, for any reason; ask why at ${longURL}.`);
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  await page.locator(".summary .grade").waitFor({ timeout: 120_000 });
  await fits("fits-analysis");

  // One case's passages are one entry: the first shown, the rest behind "×N, show all".
  const repeats = page.locator("button.repeats").first();
  assert.ok(await page.locator("button.repeats").count() > 0, "a long terms of service repeats a case");
  const entry = repeats.locator("xpath=..");
  const n = Number((await repeats.innerText()).match(/×(\d+), show all/)[1]);
  const passages = entry.locator("article.finding");
  assert.equal(await passages.count(), n);
  assert.equal((await passages.evaluateAll((els) => els.filter((e) => e.offsetParent !== null))).length, 1, "folded: the first passage shown");
  await repeats.click();
  assert.equal((await passages.evaluateAll((els) => els.filter((e) => e.offsetParent !== null))).length, n, "unfolded: all of them");

  // Every count agrees with the findings list: a chip counts its group's
  // cards, a group's heading its cards, the summary all of them.
  const cards = await page.locator("article.finding").count();
  for (const g of await page.locator("details.group").all()) {
    const sev = await g.getAttribute("data-severity");
    const inGroup = await g.locator("article.finding").count();
    assert.match(await g.locator("summary").innerText(), new RegExp(`\\(${inGroup}\\)`), `${sev} heading`);
    assert.match(await page.locator(`label.chip.sev-${sev}`).innerText(), new RegExp(`\\(${inGroup}\\)`), `${sev} chip`);
  }
  assert.match(await page.locator(".summary .score").innerText(), new RegExp(`${cards.toLocaleString()} passages`));
  // A case the grade counts once but the list shows in several passages says so.
  for (const line of await page.locator(".why-case").all()) {
    const said = (await line.innerText()).match(/stated in (\d+) passages/);
    if (!said) continue;
    const title = await line.evaluate((e) => e.childNodes[2].textContent);
    const listed = await page.locator("article.finding").evaluateAll((els, t) =>
      els.filter((e) => [...e.querySelectorAll(".cases h4")].some((h) => h.textContent.includes(t))).length, title);
    assert.equal(Number(said[1]), listed, `why: ${title}`);
  }

  // A long group shows its first five entries, then a button for the rest.
  const later = page.locator("button.show-later").first();
  if (await later.count()) {
    // By its severity: the button goes once clicked, and "first" would then be another group's.
    const sev = await later.evaluate((b) => b.closest("details.group").dataset.severity);
    const group = page.locator(`details.group[data-severity="${sev}"]`);
    const shown = async () => group.locator(".entry").evaluateAll((els) => els.filter((e) => e.offsetParent !== null).length);
    assert.equal(await shown(), 5);
    await later.click();
    assert.ok(await shown() > 5);
  }
  await fits("fits-analysis-unfolded");
});

test("/docs loads nothing from another host, under its Content-Security-Policy, and the site has a favicon", async () => {
  const violations = [];
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  const res = await page.goto(base + "/docs");
  assert.match(res.headers()["content-security-policy"] ?? "", /default-src 'none'/);
  await page.getByText("clausewatch", { exact: false }).first().waitFor();
  await page.locator("redoc h1, [role=navigation], .menu-content").first().waitFor();
  assert.deepEqual(violations, []);
  const icon = await page.request.get(base + "/favicon.ico");
  assert.equal(icon.status(), 200);
  assert.equal(icon.headers()["content-type"], "image/svg+xml");
});

test("nothing was requested off the server, and no script failed", () => {
  assert.deepEqual(offsite, []);
  assert.deepEqual(pageErrors, []);
});
