// Monitors and alerts: list, create, delete, check now; alerts with their
// diff (added green, removed red), findings added and removed, read/unread,
// and the unread count in the header. Fields as graph/schema/monitor.graphqls.
import { gql } from "./api.js";
import { h, heading, when, timeEl, errorBox, confirmDialog, busy, toast } from "./ui.js";

const monitorFields = `id url name intervalSeconds status createdAt lastCheckedAt nextCheckAt
  lastChangedAt lastError consecutiveFailures`;
const findingFields = "category severity title quote";
const alertFields = `id monitorId url detectedAt read summary diff added removed
  findingsAdded { ${findingFields} } findingsRemoved { ${findingFields} }`;

const intervals = [[3600, "Every hour"], [21600, "Every 6 hours"], [86400, "Every day"], [604800, "Every week"]];

let unreadOnly = false;

export async function render(main) {
  const monitors = h("div", { id: "monitor-list" });
  const alerts = h("div", { id: "alert-list" });
  main.replaceChildren(
    heading("Monitors", h("p", { class: "lead" }, "Watch a public policy and get an alert, with the diff, when it changes.")),
    createForm(monitors, alerts),
    h("section", { "aria-labelledby": "monitors-title" }, h("h2", { id: "monitors-title" }, "Watched documents"), monitors),
    h("section", { "aria-labelledby": "alerts-title" },
      h("div", { class: "section-head" }, h("h2", { id: "alerts-title" }, "Alerts"),
        h("label", { class: "toggle" },
          h("input", { type: "checkbox", checked: unreadOnly, onchange: (e) => { unreadOnly = e.target.checked; load(monitors, alerts); } }),
          " Unread only")),
      alerts));
  await load(monitors, alerts);
}

async function load(monitorBox, alertBox) {
  let data;
  try {
    data = await gql(`query ($u: Boolean) { monitors { ${monitorFields} }
      alerts(unread: $u, limit: 50) { alerts { ${alertFields} } nextCursor } }`, { u: unreadOnly || null });
  } catch (err) {
    monitorBox.replaceChildren(errorBox(err, "Monitors could not be loaded."));
    alertBox.replaceChildren();
    return;
  }
  const names = Object.fromEntries(data.monitors.map((m) => [m.id, m.name || m.url]));
  monitorBox.replaceChildren(monitorList(data.monitors, monitorBox, alertBox));
  alertBox.replaceChildren(alertList(data.alerts.alerts, names, monitorBox, alertBox));
  refreshUnread();
}

// refreshUnread puts the number of unread alerts beside "Monitors" in the header.
export async function refreshUnread() {
  const badge = document.getElementById("unread-count");
  try {
    const { alerts } = await gql("{ alerts(unread: true, limit: 100) { alerts { id } nextCursor } }");
    const n = alerts.alerts.length;
    badge.textContent = n === 0 ? "" : alerts.nextCursor ? `${n}+` : String(n);
    badge.setAttribute("aria-label", `${badge.textContent} unread alerts`);
    badge.hidden = n === 0;
  } catch {
    badge.hidden = true; // the monitors page says why
  }
}

function createForm(monitors, alerts) {
  const f = h("form", { class: "card", "aria-labelledby": "new-monitor-title", onsubmit: submit },
    h("h2", { id: "new-monitor-title" }, "Watch a document"),
    h("label", { for: "mon-url" }, "Public URL"),
    h("input", { id: "mon-url", name: "url", type: "url", required: true, placeholder: "https://example.com/privacy" }),
    h("div", { class: "row" },
      h("div", {}, h("label", { for: "mon-name" }, "Name ", h("span", { class: "muted" }, "(optional)")),
        h("input", { id: "mon-name", name: "name", autocomplete: "off" })),
      h("div", {}, h("label", { for: "mon-interval" }, "Check"),
        h("select", { id: "mon-interval", name: "interval" },
          intervals.map(([s, label]) => h("option", { value: String(s), selected: s === 86400 }, label))))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Start watching"), h("span", { class: "muted" }, "Each check is one scan.")));

  async function submit(ev) {
    ev.preventDefault();
    f.querySelector(".error-box")?.remove();
    const el = f.elements;
    try {
      await busy(f, () => gql(`mutation ($in: CreateMonitorInput!) { createMonitor(input: $in) { id } }`,
        { in: { url: el.url.value.trim(), name: el.name.value.trim() || null, intervalSeconds: Number(el.interval.value) } }));
      f.reset();
      toast("Watching it now.");
      await load(monitors, alerts);
    } catch (err) {
      f.querySelector(".actions").before(errorBox(err, "Not created."));
    }
  }
  return f;
}

function monitorList(monitors, monitorBox, alertBox) {
  if (!monitors.length) return h("p", { class: "empty" }, "Nothing watched yet.");
  const act = async (button, what, f) => {
    const row = button.closest("li");
    row.querySelector(".error-box")?.remove();
    try {
      button.disabled = true;
      await f();
      toast(what);
      await load(monitorBox, alertBox);
    } catch (err) {
      row.append(errorBox(err));
      button.disabled = false;
    }
  };
  return h("ul", { class: "monitors" }, monitors.map((m) => h("li", { class: "card" },
    h("div", { class: "monitor-head" },
      h("h3", {}, m.name || m.url),
      h("span", { class: `badge ${m.status === "failing" ? "bad" : "ok"}` }, m.status)),
    h("p", {}, h("a", { href: m.url, rel: "noopener noreferrer", target: "_blank" }, m.url)),
    h("dl", { class: "facts" },
      h("dt", {}, "Every"), h("dd", {}, interval(m.intervalSeconds)),
      h("dt", {}, "Last checked"), h("dd", {}, timeEl(m.lastCheckedAt)),
      h("dt", {}, "Next check"), h("dd", {}, timeEl(m.nextCheckAt)),
      h("dt", {}, "Last changed"), h("dd", {}, timeEl(m.lastChangedAt))),
    m.lastError ? h("p", { class: "error-text" }, `Last check failed${m.consecutiveFailures > 1 ? ` (${m.consecutiveFailures} times in a row)` : ""}: ${m.lastError}`) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary small", onclick: (e) => act(e.target, "Checked.", () => gql("mutation ($id: ID!) { checkMonitor(id: $id) { id } }", { id: m.id })) }, "Check now"),
      h("button", { type: "button", class: "danger small", onclick: async (e) => {
        const ok = await confirmDialog({ title: `Stop watching “${m.name || m.url}”?`, body: "Its alerts stay readable; no new ones will come.", confirm: "Stop watching" });
        if (ok) act(e.target, "No longer watched.", () => gql("mutation ($id: ID!) { deleteMonitor(id: $id) { deleted } }", { id: m.id }));
      } }, "Delete")))));
}

function interval(s) {
  return intervals.find(([v]) => v === s)?.[1].replace("Every ", "") ?? `${Math.round(s / 60)} minutes`;
}

function alertList(alerts, names, monitorBox, alertBox) {
  if (!alerts.length) return h("p", { class: "empty" }, unreadOnly ? "No unread alerts." : "No alerts yet: nothing watched has changed.");
  const mark = async (a, button) => {
    try {
      button.disabled = true;
      await gql("mutation ($ids: [ID!]!, $r: Boolean!) { updateAlerts(ids: $ids, read: $r) { updated } }", { ids: [a.id], r: !a.read });
      await load(monitorBox, alertBox);
    } catch (err) {
      button.after(errorBox(err));
      button.disabled = false;
    }
  };
  return h("ul", { class: "alerts" }, alerts.map((a) => h("li", { class: `card alert${a.read ? "" : " unread"}` },
    h("div", { class: "monitor-head" },
      h("h3", {}, a.read ? null : h("span", { class: "dot", "aria-label": "unread" }), names[a.monitorId] ?? a.url),
      h("span", { class: "muted" }, timeEl(a.detectedAt))),
    h("p", {}, a.summary, " ", h("span", { class: "ins" }, `+${a.added}`), " ", h("span", { class: "del" }, `−${a.removed}`)),
    findingChanges("New findings", a.findingsAdded),
    findingChanges("Findings gone", a.findingsRemoved),
    h("details", {}, h("summary", {}, "Show the changes"), diff(a.diff)),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary small", onclick: (e) => mark(a, e.target) }, a.read ? "Mark unread" : "Mark read")))));
}

function findingChanges(label, findings) {
  if (!findings.length) return null;
  return h("div", {}, h("h4", {}, label),
    h("ul", { class: "changes" }, findings.map((f) => h("li", { class: `sev-${f.severity}` },
      h("strong", {}, f.title), " ", h("span", { class: "badge" }, f.severity), h("blockquote", {}, f.quote)))));
}

// diff renders a unified diff line by line: additions green, removals red.
function diff(text) {
  return h("pre", { class: "diff" }, text.split("\n").map((line) => {
    if (line.startsWith("+++") || line.startsWith("---")) return h("span", { class: "hunk" }, line + "\n");
    if (line.startsWith("@@")) return h("span", { class: "hunk" }, line + "\n");
    if (line.startsWith("+")) return h("ins", {}, line + "\n");
    if (line.startsWith("-")) return h("del", {}, line + "\n");
    return line + "\n";
  }));
}
