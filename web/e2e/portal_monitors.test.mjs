// The monitors page's own journey (web/static/monitors.js), beside the
// portal's (portal.test.mjs, whose fixture port this file shares: it binds
// it once that file has let it go). A fresh account watches the fixture
// page with a 20 s interval, sees the alert's grade move and a diff without
// ---/+++/@@ headers, compares two versions in the history, makes a feed
// URL that serves Atom with an ETag, rotates it (the old URL is refused) and
// opens an alert by its feed link.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const link = process.env.PORTAL_LINK;
const artifacts = process.env.ARTIFACTS ?? "test-artifacts/portal";
if (!link?.startsWith("http://127.0.0.1:")) throw new Error(`PORTAL_LINK must be the loopback sign-in link, got ${link}`);
const base = new URL(link).origin;
mkdirSync(artifacts, { recursive: true });
const fixtureAddr = process.env.FIXTURE_ADDR;
if (!fixtureAddr?.startsWith("127.0.0.1:")) throw new Error(`FIXTURE_ADDR must be a loopback host:port, got ${fixtureAddr}`);
const fixtureURL = `http://${fixtureAddr}/monitored`;

function mint(email) {
  const secret = readFileSync(process.env.SESSION_KEY, "utf8").trim();
  const part = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const signed = part({ alg: "HS256", typ: "JWT" }) + "." + part({ sub: "local:" + email, email, iat: now, exp: now + 3600 });
  return signed + "." + createHmac("sha256", secret).update(signed).digest("base64url");
}

const arbitration = "Any dispute arising from these terms shall be resolved by binding arbitration, and you waive any right to a class action.";
const fixturePage = (...extra) => `<!doctype html><html><head><title>Watched Terms of Service</title></head><body><main>
<h1>Terms of Service</h1>
<p>By using the service you agree to these terms.</p>
<p>We will tell you by email before these terms change.</p>
${extra.map((p) => `<p>${p}</p>`).join("\n")}
<p>You may close your account whenever you like.</p>
</main></body></html>`;
const fixture = { body: fixturePage() };
let fixtureServer, browser, context, page;
const pageErrors = [];

// listen binds the shared fixture port, waiting while portal.test.mjs holds it.
async function listen(server) {
  const [host, port] = fixtureAddr.split(":");
  for (let i = 0; ; i++) {
    try {
      await new Promise((ok, fail) => { server.once("error", fail); server.listen(Number(port), host, () => { server.off("error", fail); ok(); }); });
      return;
    } catch (err) {
      if (err.code !== "EADDRINUSE" || i >= 600) throw err;
      await new Promise((ok) => setTimeout(ok, 500));
    }
  }
}

before(async () => {
  fixtureServer = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(fixture.body);
  });
  await listen(fixtureServer);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await context.route((url) => url.origin !== base, (route) => route.abort());
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("pageerror", (err) => pageErrors.push(err.message));
  await page.goto(`${base}/#signin=${mint("monitors-page@example.com")}`);
  await page.locator("#who-email").filter({ hasText: "monitors-page@example.com" }).waitFor();
});

after(async () => {
  await browser?.close();
  fixtureServer?.close();
});

const gql = (query, variables = {}) => page.evaluate(async ([query, variables]) => {
  const res = await fetch("/graphql", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
  return res.json();
}, [query, variables]);

test("the monitors page: wording, a 20 s interval, alertOn", async () => {
  await page.goto(base + "/#monitors");
  await page.locator("main h1", { hasText: "Monitors" }).waitFor();
  const form = await page.locator("form", { hasText: "Watch a document" }).innerText();
  assert.match(form, /scheduled checks are free/);
  assert.doesNotMatch(form, /Each check is one scan/);
  // The form offers hours and more; a 20 s monitor comes from the API.
  const made = await gql(`mutation ($u: String!) { createMonitor(input: {url: $u, name: "Fast terms", intervalSeconds: 20, alertOn: "risk"}) { id } }`, { u: fixtureURL });
  assert.ok(made.data?.createMonitor?.id, JSON.stringify(made));
  await page.reload();
  const fast = page.locator(".monitors li", { hasText: "Fast terms" });
  await fast.waitFor();
  const text = await fast.innerText();
  assert.match(text, /Every 20 seconds/);
  assert.doesNotMatch(text, /Every 0 minutes/);
  const alertOn = fast.getByLabel("Alerts on");
  assert.equal(await alertOn.inputValue(), "risk");
  // Switched on the card, it is the monitor's from then on.
  await alertOn.selectOption("any");
  await page.getByText("Alerts changed").waitFor();
  const after = await gql(`query { monitors { id alertOn } }`);
  assert.equal(after.data.monitors.find((m) => m.id === made.data.createMonitor.id).alertOn, "any");
  await fast.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Stop watching" }).click();
  await fast.waitFor({ state: "detached" });
});

let alertLink;

test("an alert reads as a person reads it, and the history compares versions", async () => {
  await page.getByLabel("Public URL").fill(fixtureURL);
  await page.getByLabel(/^Name/).fill("Watched terms");
  await page.getByRole("button", { name: "Start watching" }).click();
  const card = page.locator(".monitors li", { hasText: "Watched terms" });
  await card.waitFor();
  assert.equal(await card.getByLabel("Alerts on").inputValue(), "any");

  fixture.body = fixturePage(arbitration);
  await card.getByRole("button", { name: "Check now" }).click();
  const alert = page.locator(".alert", { hasText: "Watched terms" });
  await alert.waitFor();
  assert.match(await alert.innerText(), /Grade\s*[A-E]\s*(→\s*[A-E]\.|\(unchanged\)\.)/);
  await alert.getByText("Show the changes").click();
  const diffText = await alert.locator("pre.diff").innerText();
  assert.doesNotMatch(diffText, /^(---|\+\+\+|@@)/m, diffText);
  assert.deepEqual((await alert.locator("pre.diff ins").allInnerTexts()).map((t) => t.trim()), ["+" + arbitration]);

  await card.getByRole("button", { name: "History" }).click();
  const items = card.locator(".timeline li");
  await items.nth(1).waitFor();
  assert.equal(await items.count(), 2);
  for (const t of await items.allInnerTexts()) assert.match(t, /^[A-E]\s*Version \d/);
  await card.getByRole("button", { name: "Compare" }).click();
  await card.locator(".version-diff h4", { hasText: "Version 1 → version 2" }).waitFor();
  assert.match(await card.locator(".version-diff").innerText(), /binding arbitration/);
  assert.doesNotMatch(await card.innerText(), /\bnull\b/, "an absent part was written out as null");
  await page.screenshot({ path: `${artifacts}/monitors-history-1280.png`, fullPage: true });
});

test("a feed URL serves Atom with an ETag; a new one refuses the old; an entry's link opens its alert", async () => {
  await page.getByRole("button", { name: "Make a feed URL" }).click();
  const all = page.locator("#feed-all");
  await all.waitFor();
  const url = await all.inputValue();
  assert.match(url, new RegExp(`^${base}/feeds/cwfd_[A-Za-z0-9_-]{43}/alerts$`));
  const res = await context.request.get(url);
  assert.equal(res.status(), 200);
  assert.equal(res.headers()["content-type"], "application/atom+xml; charset=utf-8");
  const xml = await res.text();
  assert.match(xml, /<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
  alertLink = /<link rel="alternate" type="text\/html" href="([^"]+\/#monitors\/alert\/[^"]+)">/.exec(xml)?.[1];
  assert.ok(alertLink?.startsWith(base), xml);
  const again = await context.request.get(url, { headers: { "If-None-Match": res.headers().etag } });
  assert.equal(again.status(), 304);

  await page.getByRole("button", { name: "Make a new feed URL" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Make a new one" }).click();
  await page.waitForFunction((old) => document.querySelector("#feed-all")?.value && document.querySelector("#feed-all").value !== old, url);
  assert.equal((await context.request.get(url)).status(), 401, "the old feed URL is refused at once");
  assert.equal((await context.request.get(await page.locator("#feed-all").inputValue())).status(), 200);

  await page.goto(alertLink);
  const opened = page.locator(".alert.flash");
  await opened.waitFor();
  assert.equal(await opened.locator("details").getAttribute("open"), "");
  assert.deepEqual(pageErrors, []);
});
