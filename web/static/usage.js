// Usage: daily requests over 7/30/90 days (uPlot, vendored), success and
// error rates, recent errors, each key's budgets with their resets in the
// viewer's time zone, and what the next plan gives.
import { gql } from "./api.js";
import { h, heading, when, number, counted, errorBox, cssVar } from "./ui.js";

// The plans of interface.md §8, per key.
const plans = [
  { tier: "free", name: "Free", scans: 5, ai: 5 },
  { tier: "base", name: "Base", scans: 25, ai: 30 },
  { tier: "advanced", name: "Advanced", scans: 100, ai: -1 },
];

const query = `query ($days: Int) {
  usage(days: $days) { totalRequests successCount errorCount successRate errorRate
    dailyRequests { date count } recentErrors { at keyPrefix method path status error } }
  keyLimits { tier keys { keyId keyPrefix scopes status {
    scans { remaining limit resetsAt } ai { remaining limit resetsAt } } }
    account { scans { remaining limit resetsAt } ai { remaining limit resetsAt } credits } }
  apiKeys { id name }
}`;

let days = 30;

export async function render(main) {
  const body = h("div", { id: "usage-body" }, h("p", { class: "loading" }, "Loading…"));
  const picker = h("fieldset", { class: "segmented" }, h("legend", { class: "sr-only" }, "Period"),
    [7, 30, 90].map((d) => h("label", {},
      h("input", { type: "radio", name: "days", value: String(d), checked: d === days, onchange: () => { days = d; load(body); } }),
      h("span", {}, `${d} days`))));
  main.replaceChildren(heading("Usage", picker), body);
  await load(body);
}

async function load(body) {
  let data;
  try {
    data = await gql(query, { days });
  } catch (err) {
    body.replaceChildren(errorBox(err, "Usage could not be loaded."));
    return;
  }
  const { usage: u, keyLimits, apiKeys } = data;
  const names = Object.fromEntries(apiKeys.map((k) => [k.id, k.name]));
  body.replaceChildren(
    h("div", { class: "tiles" },
      tile("Requests", number(u.totalRequests), `last ${days} days`),
      tile("Succeeded", `${u.successRate}%`, counted(u.successCount, "request")),
      tile("Failed", `${u.errorRate}%`, counted(u.errorCount, "request"))),
    chart(u.dailyRequests),
    budgets(keyLimits, names),
    plan(keyLimits.tier),
    recentErrors(u.recentErrors));
}

function tile(label, value, sub) {
  return h("div", { class: "tile" }, h("div", { class: "tile-label" }, label), h("div", { class: "tile-value" }, value), h("div", { class: "tile-sub" }, sub));
}

function chart(daily) {
  const today = daily.at(-1);
  const plot = h("div", { class: "plot" });
  const fig = h("figure", { class: "card chart", "data-today": String(today?.count ?? 0) },
    h("figcaption", {}, h("h2", {}, "Requests per day"),
      h("span", { class: "muted" }, `Today (UTC): ${number(today?.count ?? 0)} · dates are UTC days`)),
    plot,
    h("details", {}, h("summary", {}, "Show as a table"),
      h("table", { class: "compact" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Date"), h("th", { scope: "col" }, "Requests"))),
        h("tbody", {}, daily.slice().reverse().map((d) => h("tr", {}, h("td", {}, d.date), h("td", { class: "num" }, number(d.count))))))));
  plot.setAttribute("role", "img");
  plot.setAttribute("aria-label", `Bar chart of requests per day over the last ${daily.length} days; today ${today?.count ?? 0}.`);
  // Drawn once the figure is in the page and has a width.
  requestAnimationFrame(() => draw(plot, daily));
  return fig;
}

function draw(el, daily) {
  if (!window.uPlot) {
    el.replaceChildren(errorBox(new Error("The chart library did not load; the table below has the same numbers.")));
    return;
  }
  const xs = daily.map((d) => Date.parse(d.date + "T00:00:00Z") / 1000);
  const ys = daily.map((d) => d.count);
  const size = () => ({ width: Math.max(el.clientWidth, 280), height: el.clientWidth < 500 ? 180 : 240 });
  const u = new uPlot({
    ...size(),
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
    legend: { show: false },
    cursor: { y: false, points: { show: false } },
    scales: {
      x: { time: true, range: (_, min, max) => [min - 43200, max + 43200] }, // half a day each side: whole bars
      y: { range: (_, __, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
    },
    axes: [
      { stroke: cssVar("--chart-axis"), grid: { show: false }, ticks: { stroke: cssVar("--chart-grid") }, space: 56,
        incrs: [1, 2, 7, 14, 28].map((d) => d * 86400), values: (_, ticks) => ticks.map(day) },
      { stroke: cssVar("--chart-axis"), grid: { stroke: cssVar("--chart-grid") }, ticks: { show: false }, size: 44,
        values: (_, ticks) => ticks.map((t) => (Number.isInteger(t) ? number(t) : "")) },
    ],
    series: [{}, {
      label: "Requests", stroke: cssVar("--chart-bar"), fill: cssVar("--chart-fill"), width: 0,
      paths: uPlot.paths.bars({ size: [0.7, 48], align: 0 }), points: { show: false },
    }],
  }, [xs, ys], el);
  const resized = new ResizeObserver(() => u.setSize(size()));
  resized.observe(el);
  // The colours are the theme's: drawn again when the system setting changes.
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    resized.disconnect();
    u.destroy();
    if (el.isConnected) draw(el, daily);
  }, { once: true });
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const day = (t) => dayFormat.format(new Date(t * 1000));

// budgets shows every pool: the portal's own (what is analyzed or watched
// here, signed in) beside each key's; none draws on another.
function budgets(limits, names) {
  const resets = (b) => `resets ${when(b.resetsAt, true)}`;
  const acct = limits.account;
  const pool = acct && h("li", { class: "pool", id: "portal-pool" },
    h("div", { class: "budget-key" }, h("strong", {}, "This portal"), " ", h("span", { class: "muted" }, "(you, signed in)")),
    bar("Scans today", acct.scans, resets(acct.scans)),
    bar("AI this month", acct.ai, resets(acct.ai)),
    h("p", { class: "muted pool-note" }, acct.credits > 0
      ? `${number(acct.credits)} purchased scans left, used once today's are spent.`
      : "What you analyze or watch here counts here, not against your keys."));
  return h("section", { class: "card", "aria-labelledby": "budgets-title" },
    h("h2", { id: "budgets-title" }, "Budgets: this portal and each key"),
    h("ul", { class: "budgets" }, pool,
      limits.keys.map((k) => h("li", {},
        h("div", { class: "budget-key" }, h("strong", {}, names[k.keyId] ?? "key"), " ", h("code", {}, k.keyPrefix + "…")),
        bar("Scans today", k.status.scans, resets(k.status.scans)),
        bar("AI this month", k.status.ai, resets(k.status.ai))))),
    limits.keys.length === 0 ? h("p", { class: "empty" }, "No active keys. Each key gets its own budgets: create one on the Keys page.") : null);
}

function bar(label, b, reset) {
  if (b.limit < 0) return h("div", { class: "bar" }, h("span", { class: "bar-label" }, `${label}: unlimited`));
  const used = b.limit - b.remaining;
  const id = "b" + Math.random().toString(36).slice(2);
  return h("div", { class: "bar" + (b.remaining === 0 ? " spent" : "") },
    h("label", { class: "bar-label", for: id }, `${label}: ${number(used)} of ${number(b.limit)} used`),
    h("progress", { id, max: b.limit, value: used }, `${used} of ${b.limit}`),
    h("span", { class: "muted" }, reset));
}

function plan(tier) {
  const i = plans.findIndex((p) => p.tier === tier);
  const cur = plans[i] ?? plans[0];
  const next = plans[i + 1];
  const ai = (p) => (p.ai < 0 ? "unlimited AI summaries" : `${p.ai} AI summaries a month`);
  return h("section", { class: "card plan", "aria-labelledby": "plan-title" },
    h("h2", { id: "plan-title" }, `Plan: ${cur.name}`),
    h("p", {}, `This portal and each key get ${cur.scans} scans a day and ${ai(cur)} apiece. Days and months are UTC.`),
    next
      ? h("p", {}, h("strong", {}, `${next.name}`), ` gives each key (and this portal) ${next.scans} scans a day and ${ai(next)}.`)
      : h("p", {}, "This is the largest plan."));
}

function recentErrors(errors) {
  return h("section", { class: "card", "aria-labelledby": "errors-title" },
    h("h2", { id: "errors-title" }, "Recent errors"),
    errors.length === 0
      ? h("p", { class: "empty" }, "No failed requests in this period.")
      : h("table", { class: "cards" },
        h("thead", {}, h("tr", {}, ["When", "Key", "Request", "Status", "Error"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, errors.map((e) => h("tr", {},
          h("td", { "data-label": "When" }, when(e.at)),
          h("td", { "data-label": "Key" }, e.keyPrefix ? h("code", {}, e.keyPrefix + "…") : "session"),
          h("td", { "data-label": "Request" }, h("code", {}, `${e.method} ${e.path}`)),
          h("td", { "data-label": "Status", class: "num" }, String(e.status)),
          h("td", { "data-label": "Error" }, e.error || "—"))))));
}
