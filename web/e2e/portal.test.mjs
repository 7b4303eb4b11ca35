// The portal as a new user meets it, in Debian's Chromium: the sign-in link
// that `clausewatch serve` printed, a key created and seen once, used, then
// revoked; a pasted policy analyzed with its quotes highlighted; the usage
// chart with today's count; a page of its own watched, changed and checked
// now, its alert read; a sign-in link for another account refused unless
// confirmed; sign-out, after which the old cookie is dead. Around the
// analysis: findings grouped, filtered, searched and folded, one card per
// passage, why this grade, the narrow screen's findings/document switch, a
// permalink, JSON and Markdown exports and print; progress with elapsed time
// on long work; limits that say what they are and what to do. Screenshots of
// every page at 1280 and 390 px, light and dark, go to $ARTIFACTS. scripts/e2e.sh starts the server on loopback with a fresh
// SQLite and passes its sign-in link in $PORTAL_LINK and the address the test
// serves its page on (which the server may fetch) in $FIXTURE_ADDR, and the
// server's session secret file in $SESSION_KEY (to sign in another account).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const link = process.env.PORTAL_LINK;
const artifacts = process.env.ARTIFACTS ?? "/tmp/clausewatch-portal-e2e";
if (!link?.startsWith("http://127.0.0.1:")) throw new Error(`PORTAL_LINK must be the loopback sign-in link, got ${link}`);
const base = new URL(link).origin;
mkdirSync(artifacts, { recursive: true });

// mint signs an hour's session for a local account, as the server signs the owner's.
function mint(email) {
  const secret = readFileSync(process.env.SESSION_KEY, "utf8").trim();
  const part = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const signed = part({ alg: "HS256", typ: "JWT" }) + "." + part({ sub: "local:" + email, email, iat: now, exp: now + 3600 });
  return signed + "." + createHmac("sha256", secret).update(signed).digest("base64url");
}

const sessionCookie = async () => (await context.cookies()).find((c) => c.name === "clausewatch_session")?.value;

// A policy with a few risky clauses. The emoji and curly quotes come before
// the clauses, so highlighting by UTF-16 offsets instead of code points would
// cut every quote wrong.
const policy = `Acme Cloud 🙂 Terms of Service

By using Acme Cloud you agree to these terms; if you don’t, don’t use it.

Any dispute arising from these terms will be resolved by binding arbitration, and you waive any right to a class action or a jury trial.

We may suspend or terminate your account at any time, for any reason, without notice.

We may change these terms at any time without notice, and your continued use means you accept the changes.

To the maximum extent permitted by law, Acme is not liable for any indirect, incidental or consequential damages or lost profits.

We may remove any content you post at our sole discretion.

These terms are governed by the laws of the State of Delaware.`;

// A URL of 300 characters with no place to break it: it must wrap, not widen the page.
const longURL = "https://example.com/legal/" + "termsofservicequestions".repeat(12);

// The page the monitor watches, served by the test on $FIXTURE_ADDR (the
// server's fetcher is allowed to reach it); the test changes it at will.
const arbitration = "Any dispute arising from these terms shall be resolved by binding arbitration, and you waive any right to a class action.";
const fixturePage = (...extra) => `<!doctype html><html><head><title>Fixture Terms of Service</title></head><body><main>
<h1>Terms of Service</h1>
<p>By using the service you agree to these terms.</p>
<p>We will tell you by email before these terms change.</p>
${extra.map((p) => `<p>${p}</p>`).join("\n")}
<p>You may close your account whenever you like.</p>
<p>Questions go to ${longURL}, which answers within a week.</p>
</main></body></html>`;
const fixture = { status: 200, body: fixturePage(), delay: 0 };
const fixtureAddr = process.env.FIXTURE_ADDR;
if (!fixtureAddr?.startsWith("127.0.0.1:")) throw new Error(`FIXTURE_ADDR must be a loopback host:port, got ${fixtureAddr}`);
const fixtureURL = `http://${fixtureAddr}/terms`;
let fixtureServer;

let browser, context, page;

before(async () => {
  fixtureServer = createServer(async (req, res) => {
    if (fixture.delay) await sleep(fixture.delay); // long work, to see its progress
    res.writeHead(fixture.status, { "Content-Type": "text/html; charset=utf-8" });
    res.end(fixture.status === 200 ? fixture.body : "unavailable");
  });
  const [host, port] = fixtureAddr.split(":");
  await new Promise((ok) => fixtureServer.listen(Number(port), host, ok));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  // Nothing may leave the machine: any request off our server fails the test.
  await context.route((url) => url.origin !== base, (route) => {
    offsite.push(route.request().url());
    return route.abort();
  });
  await openPage();
});

async function openPage() {
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("pageerror", (err) => pageErrors.push(err.message));
  page.on("response", (r) => { if (r.url() === base + "/graphql" && r.status() === 200) graphqlCalls++; });
}

after(async () => {
  await browser?.close();
  fixtureServer?.close();
});

const offsite = [];
const pageErrors = [];
let graphqlCalls = 0;

// shoot takes the page at 1280, 768 and 390 px, in the light and the dark
// theme (the system setting the portal follows), and on paper; at each, no
// part of the page may be wider than the screen (long quotes, URLs and
// diffs wrap). A page that must not be scrolled forever on a phone says so:
// maxHeight390. The usage page is no report and is not checked on paper
// (its chart keeps its screen width): paper: false.
async function shoot(name, { maxHeight390, paper = true } = {}) {
  await page.evaluate(() => { document.activeElement?.blur(); document.getElementById("toast").classList.remove("on"); });
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForTimeout(150); // the chart redraws at the new width
      await assertFits(`${name}, ${theme}, ${width} px`);
      await page.screenshot({ path: `${artifacts}/${name}-${theme}-${width}.png`, fullPage: true });
      if (maxHeight390 && width === 390) {
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        assert.ok(height <= maxHeight390, `${name} at 390 px is ${height} px tall, want at most ${maxHeight390}`);
      }
    }
  }
  // On paper: an A4 page's width at 96 dpi. The screen comes back even when
  // the check fails, so the tests after it meet the page as they expect.
  if (paper) {
    await page.emulateMedia({ media: "print", colorScheme: "light" });
    await page.setViewportSize({ width: 794, height: 1123 });
  }
  try {
    if (paper) await assertFits(`${name}, printed`);
  } finally {
    await page.emulateMedia({ media: "screen", colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForTimeout(100);
  }
}

// assertFits fails when the page scrolls sideways.
async function assertFits(what) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }));
  assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide, wider than the screen`);
}

const h1 = () => page.locator("main h1");

test("a missing session shows the sign-in page", async () => {
  await page.goto(base + "/");
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  const bytes = await page.evaluate(() => performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource"))
    .reduce((n, e) => n + e.transferSize, 0));
  console.log(`first page: ${bytes} bytes transferred`);
  assert.ok(bytes > 0 && bytes < 200_000, `first page transferred ${bytes} bytes`);
  await shoot("signin");
});

test("an expired or forged session shows the sign-in page, not an error", async () => {
  await context.addCookies([{ name: "clausewatch_session", value: "e30.e30.x", url: base }]);
  await page.goto(base + "/#usage");
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  assert.equal(await page.locator(".error-box").count(), 0);
  await context.clearCookies();
});

let rawKey;

test("the printed link signs in and leaves the address bar", async () => {
  // In a new tab, as when the link is clicked in a terminal.
  await page.close();
  await openPage();
  await page.goto(link);
  // A person signs in to analyze: that is the first page.
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#analyze", "the token is out of the address bar");
  const token = decodeURIComponent(new URL(link).hash.slice("#signin=".length));
  const [cookie] = (await context.cookies()).filter((c) => c.name === "clausewatch_session");
  assert.equal(cookie.value, token);
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, "Strict");
  assert.equal(await page.evaluate(() => document.cookie), "", "scripts cannot read the session");
  assert.match(await page.locator("#who-email").innerText(), /owner@localhost/);
  // The keyboard starts at "Skip to content", then the navigation.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Skip to content");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "main");
  // The link's entry in the history was replaced: forward from before it is #analyze.
  await page.goBack();
  assert.equal(page.url(), "about:blank");
  await page.goForward();
  assert.equal(new URL(page.url()).hash, "#analyze");
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  // The keys are one click away.
  await page.getByRole("link", { name: "API keys" }).click();
  await h1().filter({ hasText: "API keys" }).waitFor();
});

test("a key is created, shown once with a copy button, and gone after a reload", async () => {
  await page.getByLabel("Name").fill("e2e crawler");
  const monitor = page.getByRole("checkbox", { name: /for automated monitoring/ });
  assert.equal(await monitor.isChecked(), false, "monitor is not a default scope");
  await page.getByRole("button", { name: "Create key" }).click();
  const raw = page.locator("#raw-key");
  await raw.waitFor();
  rawKey = await raw.inputValue();
  assert.match(rawKey, /^cwsk_[A-Za-z0-9_-]{48}$/);
  await page.getByText("you won't see this key again").waitFor();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), rawKey);
  const row = page.locator("tr", { hasText: "e2e crawler" });
  assert.match(await row.innerText(), new RegExp(rawKey.slice(0, 12)));
  assert.match(await row.innerText(), /extract/);
  assert.equal(await page.getByRole("checkbox", { name: /^Analyze/ }).isChecked(), true, "the form is back to the default scopes");
  await shoot("keys-created");

  await page.reload();
  await h1().filter({ hasText: "API keys" }).waitFor();
  await page.locator("tr", { hasText: "e2e crawler" }).waitFor();
  assert.equal(await page.locator("#raw-key").count(), 0);
  assert.equal((await page.content()).includes(rawKey), false, "the raw key is never shown again");
});

test("a pasted policy is analyzed and every highlight is its finding's quote", async () => {
  await page.getByRole("link", { name: "Analyze" }).click();
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  await page.getByLabel("Title").fill("Acme Cloud terms");
  await page.getByLabel("Document text").fill(policy);
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  await page.locator(".summary .grade").waitFor();
  // A finding's highlight is the marks that list it (quotes may overlap).
  const pairs = await page.$$eval("article.finding", (els) => els.map((a) => ({
    quote: a.dataset.quote,
    mark: [...document.querySelectorAll(`mark[data-findings~="${a.id.slice(2)}"]`)].map((m) => m.textContent).join(""),
  })));
  assert.ok(pairs.length >= 3, `findings: ${pairs.length}`);
  for (const p of pairs) assert.equal(p.mark, p.quote);
  // Binding arbitration is ToS;DR's case, which ToS;DR rates bad.
  assert.match(await page.locator(".group.sev-bad").innerText(), /arbitration/i);

  // A finding leads to its highlight and the highlight back to the finding.
  const first = page.locator("article.finding").first();
  const id = (await first.getAttribute("id")).slice(2);
  await first.getByRole("button", { name: "Show in the text" }).click();
  const focused = () => page.evaluate(() => ({ id: document.activeElement.id, findings: document.activeElement.dataset.findings }));
  assert.equal((await focused()).findings?.split(" ")[0], id);
  await page.locator(`mark[data-findings~="${id}"]`).first().click();
  assert.equal((await focused()).id, "f-" + id);
  assert.match(new URL(page.url()).hash, /^#analyze\/.+/);
  analysisId = new URL(page.url()).hash.slice("#analyze/".length);
  await shoot("analyze");

  // Refusals come back in words, naming the field (loopback URLs are refused
  // before any connection).
  await page.getByText("Several URLs").click();
  await page.getByLabel("Up to five public URLs, one a line").fill("http://127.0.0.1:1/terms\nhttp://127.0.0.1:1/privacy");
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  assert.match(await page.locator("form .error-box").innerText(), /Not analyzed\. items\[0\]\.url: port 1 is not allowed/);

  // Reopened from the list of earlier analyses.
  await page.goto(base + "/#analyze");
  await page.locator(".history a", { hasText: "Acme Cloud terms" }).click();
  await page.locator("#analysis-title", { hasText: "Acme Cloud terms" }).waitFor();
});

let analysisId;

test("findings are grouped with counts, one card per passage, neutral ones folded", async () => {
  await page.goto(base + "/#analyze/" + analysisId);
  await page.locator(".summary .grade").waitFor();
  // One card per quoted passage: no quote twice.
  const quotes = await page.$$eval("article.finding", (els) => els.map((e) => e.dataset.quote));
  assert.equal(new Set(quotes).size, quotes.length, "a passage has one card");
  // Each group's count is its cards.
  for (const g of await page.locator("details.group").all()) {
    const n = await g.locator("article.finding").count();
    assert.match(await g.locator("summary").innerText(), new RegExp(`\\(${n}\\)`));
  }
  const neutral = page.locator("details.group.sev-neutral");
  if (await neutral.count()) {
    assert.equal(await neutral.evaluate((d) => d.open), false, "neutral findings start folded");
    assert.equal(await neutral.locator("article.finding").first().isVisible(), false);
    await neutral.locator("summary").click();
    assert.equal(await neutral.locator("article.finding").first().isVisible(), true);
  }
  for (const sev of ["blocker", "bad", "good"]) {
    const g = page.locator(`details.group.sev-${sev}`);
    if (await g.count()) assert.equal(await g.evaluate((d) => d.open), true, `${sev} starts open`);
  }
});

test("findings are narrowed by severity, category and words", async () => {
  const cards = page.locator("article.finding");
  const total = await cards.count();
  const visible = async () => (await cards.evaluateAll((els) => els.filter((e) => !e.hidden && e.closest("details.group:not([hidden])")).map((e) => ({
    sevs: e.dataset.severities.split(" "), cats: e.dataset.categories.split(" "), text: e.innerText.toLowerCase() }))));
  // Severity: only the blockers and bad ones.
  for (const sev of ["neutral", "good"]) {
    const box = page.locator(`.filters input[value="${sev}"]`);
    if (await box.count()) await box.uncheck();
  }
  let shown = await visible();
  assert.ok(shown.length > 0 && shown.length < total, `severity filter: ${shown.length} of ${total}`);
  for (const c of shown) assert.ok(c.sevs.some((x) => x === "blocker" || x === "bad"), `shown: ${c.sevs}`);
  assert.match(await page.locator(".filter-status").innerText(), new RegExp(`Showing ${shown.length} of ${total} passages`));
  await shoot("analyze-filtered");
  // Category: arbitration alone.
  await page.selectOption("#filter-category", "arbitration");
  shown = await visible();
  assert.ok(shown.length >= 1);
  for (const c of shown) assert.ok(c.cats.includes("arbitration"));
  // Words, over everything.
  await page.selectOption("#filter-category", "");
  for (const box of await page.locator(".filters input[type=checkbox]").all()) await box.check();
  await page.fill("#filter-search", "delaware");
  shown = await visible();
  assert.equal(shown.length, 1, "one passage names Delaware");
  assert.match(shown[0].text, /delaware/);
  // A highlight of a hidden card brings it back.
  await page.locator("mark", { hasText: "binding arbitration" }).first().click();
  assert.match(await page.evaluate(() => document.activeElement.dataset.quote ?? ""), /binding arbitration/);
  assert.equal(await page.inputValue("#filter-search"), "", "the filters were cleared to show it");
});

test("why this grade: the cases that count with their quotes, the rule, no sentence twice", async () => {
  const why = page.locator(".why");
  const text = await why.innerText();
  assert.match(text, /Why this grade/);
  // the server's why (analyze.Explain), not the portal's own: the clauses
  // that decided the letter first, the rule last
  assert.match(text, /[A-E]: (\d+ cases? against the reader, weighing [\d.]+ in all|no clause against the reader was found)/);
  assert.match(text, /The rule: .*This document's balance is [+-]?[\d.]+: E below -?[\d.]+, D below/);
  const links = page.locator(".why .quote-link");
  const n = await links.count();
  assert.ok(n >= 2, `quotes under the grade: ${n}`);
  const said = await links.allInnerTexts();
  assert.equal(new Set(said).size, said.length, "the same sentence is never listed twice");
  // A quote leads to its place in the text.
  await links.first().click();
  const focused = await page.evaluate(() => ({ tag: document.activeElement.tagName, text: document.activeElement.textContent }));
  assert.equal(focused.tag, "MARK");
  assert.ok(said[0].includes(focused.text.slice(0, 30)), `${said[0]} / ${focused.text}`);
});

test("a permalink opens on the analysis, the form folded above it", async () => {
  await page.close();
  await openPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(base + "/#analyze/" + analysisId);
  const title = page.locator("#analysis-title");
  await title.waitFor();
  const box = await title.boundingBox();
  const y = await page.evaluate(() => window.scrollY);
  assert.ok(box.y >= 0 && box.y < 844, `the analysis title is on screen (y ${box.y}, scrolled ${y})`);
  assert.equal(await page.locator("details.another").evaluate((d) => d.open), false);
  // On a phone the findings and the document take turns; neither is below the other.
  const sw = page.locator(".view-switch");
  assert.equal(await sw.isVisible(), true);
  assert.equal(await page.locator(".doc-wrap").isVisible(), false);
  await sw.getByRole("button", { name: "Document" }).click();
  assert.equal(await page.locator(".doc-wrap").isVisible(), true);
  assert.equal(await page.locator(".findings").isVisible(), false);
  await page.locator("mark").first().click();
  assert.equal(await page.locator(".findings").isVisible(), true, "a highlight leads back to its finding");
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 8000, `the page at 390 px is ${height} px tall`);
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.equal(await sw.isVisible(), false, "side by side on a wide screen");
  await page.locator(".doc-wrap").waitFor();
});

test("an analysis exports as the API's JSON, a Markdown report, and prints as a report", async () => {
  const saved = async (name) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name }).click()]);
    return { file: download.suggestedFilename(), text: readFileSync(await download.path(), "utf8") };
  };
  const json = await saved("Download JSON");
  assert.match(json.file, /^acme-cloud-terms\.json$/);
  const exported = JSON.parse(json.text);
  // The same shape as the API's answer to the same text.
  const res = await page.request.post(base + "/api/analyze", { headers: { Authorization: "Bearer " + rawKey }, data: { text: policy, title: "Acme Cloud terms" } });
  assert.equal(res.status(), 200);
  const api = await res.json();
  assert.deepEqual(Object.keys(exported), Object.keys(api));
  assert.deepEqual(Object.keys(exported.source), Object.keys(api.source));
  assert.deepEqual(Object.keys(exported.findings[0]).filter((k) => k !== "case"), Object.keys(api.findings[0]).filter((k) => k !== "case"));
  assert.equal(exported.id, analysisId);
  assert.equal(exported.grade, api.grade);
  assert.deepEqual(exported.findings.map((f) => f.quote), api.findings.map((f) => f.quote));
  assert.equal(exported.text, policy);

  const md = await saved("Download Markdown report");
  assert.match(md.file, /^acme-cloud-terms\.md$/);
  assert.match(md.text, new RegExp(`^# Acme Cloud terms: grade ${api.grade}`));
  assert.match(md.text, new RegExp(`## Why this grade\\n\\n${api.grade}: \\d+ cases? against the reader`));
  assert.match(md.text, /## Findings/);
  assert.match(md.text, /> Any dispute arising from these terms will be resolved by binding arbitration/);
  assert.match(md.text, /Informational only/i);

  await page.emulateMedia({ media: "print" });
  for (const sel of [".top", ".filters", ".analyze-form, details.another", ".doc-wrap", ".exports"]) {
    assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} is not printed`);
  }
  assert.equal(await page.locator(".why").isVisible(), true);
  await page.screenshot({ path: `${artifacts}/analyze-print.png`, fullPage: true });
  await page.emulateMedia({ media: "screen" });
});

test("the dark theme follows the system setting", async () => {
  const colours = async () => page.evaluate(() => ({
    bg: getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor,
    root: getComputedStyle(document.documentElement).backgroundColor,
    card: getComputedStyle(document.querySelector(".card")).backgroundColor,
    fg: getComputedStyle(document.querySelector(".card")).color,
  }));
  await page.emulateMedia({ colorScheme: "light" });
  const light = await colours();
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await colours();
  await page.emulateMedia({ colorScheme: "light" });
  assert.equal(light.root, "rgb(246, 247, 249)");
  assert.equal(dark.root, "rgb(11, 17, 32)");
  assert.equal(dark.card, "rgb(19, 27, 46)");
  assert.equal(dark.fg, "rgb(229, 231, 235)");
});

test("long work shows its progress with elapsed time, and may be left", async () => {
  await page.goto(base + "/#analyze");
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  await page.getByText("A URL", { exact: true }).click();
  await page.getByLabel("Public URL of the document").fill(fixtureURL);
  fixture.delay = 8000; // long enough to see it count and to leave before it ends, under the fetcher's 15 s
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  const progress = page.locator("form .progress");
  await progress.waitFor();
  assert.match(await progress.innerText(), /Fetching and analyzing…\s*\d+ s/);
  assert.match(await progress.innerText(), /You can leave this page/);
  await page.waitForFunction(() => /[1-9]\d* s/.test(document.querySelector("form .progress .elapsed")?.textContent ?? ""));
  // One quick picture in each theme (shoot's eight would outlast the work).
  await page.screenshot({ path: `${artifacts}/analyze-progress-light-1280.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${artifacts}/analyze-progress-dark-1280.png` });
  await page.emulateMedia({ colorScheme: "light" });
  // Leave for another page: the work goes on and says when it is done.
  await page.getByRole("link", { name: "Usage" }).click();
  await page.locator("#usage-body").waitFor();
  await page.locator("#toast.on", { hasText: "Analyzed: grade" }).waitFor({ timeout: 20_000 });
  await page.locator("#toast a", { hasText: "Open the analysis" }).click();
  await page.locator("#analysis-title", { hasText: "Fixture Terms of Service" }).waitFor();
  fixture.delay = 0;
});

test("the usage chart shows today's calls and the key's budget", async () => {
  // Two calls with the new key, as a program would make them.
  for (let i = 0; i < 2; i++) {
    const res = await page.request.post(base + "/api/analyze", {
      headers: { Authorization: "Bearer " + rawKey }, data: { text: "We may terminate your account at any time." },
    });
    assert.equal(res.status(), 200, await res.text());
  }
  const before = graphqlCalls;
  await page.waitForTimeout(1300); // the usage log is written at least every second
  await page.getByRole("link", { name: "Usage" }).click();
  const fig = page.locator("figure.chart");
  await fig.locator("canvas").waitFor();
  const today = Number(await fig.getAttribute("data-today"));
  // The key's two calls and the portal's own GraphQL requests are all counted.
  assert.ok(today >= 2 + before, `today's count ${today}, want at least ${2 + before}`);
  assert.match(await fig.innerText(), new RegExp(`Today \\(UTC\\): ${today}`));
  const painted = await fig.locator("canvas").evaluate((c) => {
    const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let blue = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i + 2] > 150 && px[i] < 120) blue++;
    return blue;
  });
  assert.ok(painted > 50, "today's bar is drawn");
  const budget = page.locator(".budgets li", { hasText: "e2e crawler" });
  assert.match(await budget.innerText(), /Scans today: 3 of 5 used/);
  // The portal's own pool, beside the keys': what was analyzed here, signed in.
  const portalPool = page.locator("#portal-pool");
  assert.match(await portalPool.innerText(), /This portal/);
  assert.match(await portalPool.innerText(), /Scans today: 2 of 5 used/);
  assert.match(await page.locator(".plan").innerText(), /Base gives each key \(and this portal\) 25 scans a day/);
  await page.locator("label", { hasText: "7 days" }).click();
  await page.locator(".tile-sub", { hasText: "last 7 days" }).waitFor();
  await shoot("usage", { paper: false });
});

test("a key is revoked after a confirmation", async () => {
  await page.getByRole("link", { name: "API keys" }).click();
  const row = page.locator("tr", { hasText: "e2e crawler" });
  await row.getByRole("button", { name: "Revoke e2e crawler" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("stop working at once").waitFor();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await row.waitFor({ state: "detached" });
  await page.getByLabel("Show revoked keys").check();
  await page.locator("tr.revoked", { hasText: "e2e crawler" }).waitFor();
  const res = await page.request.post(base + "/api/analyze", {
    headers: { Authorization: "Bearer " + rawKey }, data: { text: "x" },
  });
  assert.equal(res.status(), 401, "a revoked key no longer authenticates");
});

test("the monitors page answers in words", async () => {
  await page.getByRole("link", { name: "Monitors" }).click();
  await h1().filter({ hasText: "Monitors" }).waitFor();
  await page.locator("#monitor-list > *").first().waitFor();
  const text = await page.locator("#monitor-list").innerText();
  assert.ok(text.trim().length > 0);
  await shoot("monitors");
});

// The real thing: a monitor on the fixture page, the page gains an
// arbitration clause, "Check now" raises the alert with its diff in colour
// and the finding added, which is marked read; then the page breaks and the
// next check says why.
test("a watched page changes: the alert shows the diff in colour and the finding added", async () => {
  await page.getByLabel("Public URL").fill(fixtureURL);
  await page.getByLabel(/^Name/).fill("Fixture terms");
  // The first fetch is slow: the form shows how long it has been working.
  fixture.delay = 2500;
  await page.getByRole("button", { name: "Start watching" }).click();
  const creating = page.locator("form .progress");
  await creating.waitFor();
  assert.match(await creating.innerText(), /Working…\s*\d+ s/);
  const card = page.locator(".monitors li", { hasText: "Fixture terms" });
  await card.waitFor({ timeout: 15_000 });
  fixture.delay = 0;
  assert.match(await card.innerText(), /active/);
  assert.match(await page.locator("#alert-list").innerText(), /No alerts yet/);

  fixture.body = fixturePage(arbitration);
  await card.getByRole("button", { name: "Check now" }).click();
  await page.locator(".alert.unread").waitFor();
  // The badge comes from its own request, after the list's: wait for it.
  await page.waitForFunction(() => document.querySelector("#unread-count")?.textContent.trim() === "1");
  const alert = page.locator(".alert", { hasText: "Fixture terms" });
  assert.match(await alert.innerText(), /1 paragraph changed; added: .*arbitration.*\(bad\)/);
  assert.match(await alert.locator("ul.changes li.sev-bad").first().innerText(), /binding arbitration/);
  await alert.getByText("Show the changes").click();
  const lines = async (sel) => (await page.locator(sel).allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(await lines("pre.diff ins"), ["+" + arbitration]);
  assert.deepEqual(await lines("pre.diff del"), []);
  assert.equal(await page.locator("pre.diff ins").first().evaluate((e) => getComputedStyle(e).backgroundColor), "rgb(220, 252, 231)");
  await shoot("monitors-alerts");

  await page.getByRole("button", { name: "Mark read" }).click();
  await page.getByRole("button", { name: "Mark unread" }).waitFor();
  await page.locator("#unread-count").waitFor({ state: "hidden" }); // its own request, after the list's

  fixture.status = 503;
  await card.getByRole("button", { name: "Check now" }).click();
  await card.locator(".badge.bad", { hasText: "failing" }).waitFor();
  assert.match(await card.innerText(), /Last check failed: .*503/);
});

test("check now shows its progress in the bar while the page is fetched", async () => {
  fixture.status = 200;
  fixture.delay = 2500;
  const card = page.locator(".monitors li", { hasText: "Fixture terms" });
  await card.getByRole("button", { name: "Check now" }).click();
  const bar = page.locator("#activity .progress");
  await bar.waitFor();
  assert.match(await bar.innerText(), /Checking the page now…\s*\d+ s/);
  await page.screenshot({ path: `${artifacts}/monitors-progress-1280.png` });
  await bar.waitFor({ state: "detached", timeout: 15_000 });
  assert.equal(await page.locator("#activity").isVisible(), false);
  fixture.delay = 0;
  await card.locator(".badge.ok", { hasText: "active" }).waitFor();
});

// Refusals for a limit say the limit, what is used and what to do.
test("limits say what they are, what is used and what to do", async () => {
  // The portal's own pool (5 scans a day on Free), spent to the end.
  for (let i = 0; i < 6; i++) {
    const res = await page.request.post(base + "/graphql", { data: { query: `mutation { analyze(input: {text: "We may sell your data."}) { id } }` } });
    const body = await res.json();
    if (body.errors?.[0]?.extensions?.code === "RATE_LIMITED") break;
    assert.ok(body.data?.analyze?.id, JSON.stringify(body));
  }
  await page.getByRole("link", { name: "Analyze" }).click();
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  await page.getByText("Paste text", { exact: true }).click();
  await page.getByLabel("Document text").fill("We may terminate your account at any time.");
  await page.getByRole("button", { name: "Analyze", exact: true }).click();
  const refused = page.locator("form .error-box");
  await refused.waitFor();
  const said = await refused.innerText();
  assert.match(said, /Daily scan limit reached for this account/);
  assert.match(said, /Limit\s+5 scans a day/);
  assert.match(said, /Used\s+5 of 5 \(0 left\)/);
  assert.match(said, /Resets\s+.+UTC midnight/);
  // The server's hint is what to do: the numbers, the reset and the way up.
  assert.match(said, /What to do\s+5 of 5 scans a day used .*UTC midnight.*upgrade/s);
  await shoot("limit-scans");

  // The portal's pool shows it on the usage page, beside the keys'.
  await page.getByRole("link", { name: "Usage" }).click();
  await page.locator("#portal-pool").waitFor();
  assert.match(await page.locator("#portal-pool").innerText(), /Scans today: 5 of 5 used/);

  // Keys: three active on Free; the fourth says to revoke one.
  await page.getByRole("link", { name: "API keys" }).click();
  await h1().filter({ hasText: "API keys" }).waitFor();
  let message = "";
  for (let i = 1; i <= 4 && !message; i++) {
    await page.getByLabel("Name").fill(`limit ${i}`);
    await page.getByRole("button", { name: "Create key" }).click();
    const outcome = await Promise.race([
      page.locator("tr", { hasText: `limit ${i}` }).waitFor().then(() => ""),
      page.locator("form .error-box").waitFor().then(() => page.locator("form .error-box").innerText()),
    ]);
    message = outcome;
  }
  assert.match(message, /API key limit reached for this plan/);
  assert.match(message, /Limit\s+3 active API keys on this plan/);
  assert.match(message, /What to do\s+3 of 3 active API keys on the free plan\. Revoke a key you no longer use/);
  await shoot("limit-keys");
});

test("a session lost while in use leads to the sign-in page, saying so", async () => {
  await page.goto(base + "/#keys");
  await h1().filter({ hasText: "API keys" }).waitFor();
  const saved = await context.cookies();
  await context.clearCookies();
  await page.getByRole("link", { name: "Usage" }).click();
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  assert.match(await page.locator("main").innerText(), /Your session has expired or was signed out/);
  await context.addCookies(saved);
  await page.reload();
  await h1().filter({ hasText: "Usage" }).waitFor();
});

test("a sign-in link put into an open page is ignored", async () => {
  const calls = [];
  const seen = (r) => { if (new URL(r.url()).pathname === "/session") calls.push(r.method()); };
  page.on("request", seen);
  // What any page holding this window can do: change its fragment.
  await page.evaluate((t) => { location.hash = "#signin=" + t; }, mint("mallory@localhost"));
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  page.off("request", seen);
  assert.equal(new URL(page.url()).hash, "#analyze", "the token is out of the address bar");
  assert.deepEqual(calls, [], "nothing was sent to /session");
  assert.match(await page.locator("#who-email").innerText(), /owner@localhost/);
});

test("a sign-in link for another account asks first, naming both", async () => {
  const owner = await sessionCookie();
  const other = mint("other@localhost");
  // A fresh load in a new tab, as a link from elsewhere opens.
  const openLink = async () => {
    await page.close();
    await openPage();
    await page.goto(base + "/#signin=" + encodeURIComponent(other));
    const dialog = page.getByRole("dialog", { name: "Switch account?" });
    await dialog.waitFor();
    return dialog;
  };
  let dialog = await openLink();
  const text = await dialog.innerText();
  assert.match(text, /owner@localhost/);
  assert.match(text, /other@localhost/);
  assert.equal(new URL(page.url()).hash, "#analyze", "the token is out of the address bar while asking");
  await page.screenshot({ path: `${artifacts}/switch-account-1280.png` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await h1().filter({ hasText: "Analyze a document" }).waitFor();
  assert.match(await page.locator("#who-email").innerText(), /owner@localhost/);
  assert.equal(await sessionCookie(), owner, "declined: the session is the owner's still");

  dialog = await openLink();
  await dialog.getByRole("button", { name: "Switch to other@localhost" }).click();
  await page.locator("#who-email").filter({ hasText: "other@localhost" }).waitFor();
  assert.equal(await sessionCookie(), other);
});

test("sign out ends the session on the server", async () => {
  const saved = await context.cookies();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  assert.equal(await sessionCookie(), undefined);
  await page.reload();
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  // The cookie kept from before is refused: the token itself was revoked.
  await context.addCookies(saved);
  await page.reload();
  await page.getByRole("heading", { name: "Sign in to the developer portal" }).waitFor();
  assert.doesNotMatch(await page.locator("main").innerText(), /other@localhost/);
});

test("nothing was requested off the server, and no script failed", () => {
  assert.deepEqual(offsite, []);
  assert.deepEqual(pageErrors, []);
});
