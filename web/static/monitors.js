// Monitors and alerts: list, create (with what to alert on), delete, check
// now; each monitor's history as a timeline with the grade at each version
// and the diff between any two; alerts with their grade move, findings
// added and removed, and the changes paragraph by paragraph; the feed token
// for the Atom feeds; and the unread count in the header. Fields as
// graph/schema/monitor.graphqls, version.graphqls and feed.graphqls.
import { gql } from "./api.js";
import { h, heading, when, timeEl, counted, errorBox, confirmDialog, busy, toast, copy } from "./ui.js";

const monitorFields = `id url name intervalSeconds alertOn status createdAt lastCheckedAt nextCheckAt
  lastChangedAt lastError lastErrorCode blockedBy consecutiveFailures`;
const findingFields = "category severity title quote";
const alertFields = `id monitorId url detectedAt read summary diff added removed gradeBefore gradeAfter
  findingsAdded { ${findingFields} } findingsRemoved { ${findingFields} } findingsAddedOmitted findingsRemovedOmitted`;

const intervals = [[3600, "Every hour"], [21600, "Every 6 hours"], [86400, "Every day"], [604800, "Every week"]];
const alertOns = [["any", "Any change of the text"], ["risk", "Only changes that matter: a bad or blocker finding, or the grade"]];
// A card's switch says the same in fewer words.
const cardAlertOns = [["any", "Any change"], ["risk", "Changes that matter"]];

let unreadOnly = false;
// The feed token shown after a rotation: the server keeps only its hash, so
// it lives in this page's memory until a reload.
let feedToken = null;

export async function render(main, { arg } = {}) {
  const monitors = h("div", { id: "monitor-list" });
  const alerts = h("div", { id: "alert-list" });
  const feeds = h("div", { id: "feed-box" });
  main.replaceChildren(
    heading("Monitors", h("p", { class: "lead" }, "Watch a public policy and get an alert, with the changes, when it changes.")),
    createForm(monitors, alerts),
    h("section", { "aria-labelledby": "monitors-title" }, h("h2", { id: "monitors-title" }, "Watched documents"), monitors),
    h("section", { "aria-labelledby": "alerts-title" },
      h("div", { class: "section-head" }, h("h2", { id: "alerts-title" }, "Alerts"),
        h("label", { class: "toggle" },
          h("input", { type: "checkbox", checked: unreadOnly, onchange: (e) => { unreadOnly = e.target.checked; load(monitors, alerts); } }),
          " Unread only")),
      alerts),
    feeds);
  await load(monitors, alerts);
  loadFeed(feeds, monitors);
  // #monitors/alert/<id>: a feed entry's link opens on its alert.
  const m = /^alert\/(.+)$/.exec(arg ?? "");
  if (m) showAlert(alerts, m[1]);
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

function showAlert(alertBox, id) {
  const el = alertBox.querySelector(`[data-alert-id="${CSS.escape(id)}"]`);
  if (!el) {
    alertBox.prepend(h("p", { class: "empty" }, "That alert is not among the 50 newest shown here."));
    return;
  }
  el.querySelector("details")?.setAttribute("open", "");
  el.classList.add("flash");
  // After the shell has focused the page's heading (it does so once render
  // returns), so the alert stays in view.
  requestAnimationFrame(() => {
    el.querySelector("h3")?.focus();
    el.scrollIntoView({ block: "start" });
  });
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
    h("label", { for: "mon-alert-on" }, "Alert on"),
    h("select", { id: "mon-alert-on", name: "alertOn" }, alertOns.map(([v, label]) => h("option", { value: v, selected: v === "any" }, label))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Start watching"),
      h("span", { class: "muted" }, "Starting to watch and “Check now” take one scan each; scheduled checks are free.")));

  async function submit(ev) {
    ev.preventDefault();
    f.querySelector(".error-box")?.remove();
    const el = f.elements;
    try {
      await busy(f, () => gql(`mutation ($in: CreateMonitorInput!) { createMonitor(input: $in) { id } }`,
        { in: { url: el.url.value.trim(), name: el.name.value.trim() || null, intervalSeconds: Number(el.interval.value), alertOn: el.alertOn.value } }));
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
  return h("ul", { class: "monitors" }, monitors.map((m) => {
    const history = h("div", { class: "history-box" });
    return h("li", { class: "card", "data-monitor-id": m.id },
      h("div", { class: "monitor-head" },
        h("h3", {}, m.name || m.url),
        h("span", { class: `badge ${m.status === "failing" ? "bad" : "ok"}` }, m.status)),
      h("p", {}, h("a", { href: m.url, rel: "noopener noreferrer", target: "_blank" }, m.url)),
      h("dl", { class: "facts" },
        h("dt", {}, "Checked"), h("dd", {}, every(m.intervalSeconds)),
        h("dt", {}, h("label", { for: `alert-on-${m.id}` }, "Alerts on")),
        h("dd", {}, h("select", { id: `alert-on-${m.id}`, class: "small", onchange: (e) => act(e.target, "Alerts changed; from the next check.", () =>
          gql("mutation ($id: ID!, $in: UpdateMonitorInput!) { updateMonitor(id: $id, input: $in) { id alertOn } }", { id: m.id, in: { alertOn: e.target.value } })) },
        cardAlertOns.map(([v, label]) => h("option", { value: v, selected: v === m.alertOn }, label)))),
        h("dt", {}, "Last checked"), h("dd", {}, timeEl(m.lastCheckedAt)),
        h("dt", {}, "Next check"), h("dd", {}, timeEl(m.nextCheckAt), firstCheckNote(m)),
        h("dt", {}, "Last changed"), h("dd", {}, timeEl(m.lastChangedAt))),
      failure(m),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary small", onclick: (e) => act(e.target, "Checked.", () => gql("mutation ($id: ID!) { checkMonitor(id: $id) { id } }", { id: m.id })) }, "Check now"),
        h("button", { type: "button", class: "secondary small", "aria-expanded": "false", onclick: (e) => toggleHistory(e.target, history, m) }, "History"),
        h("button", { type: "button", class: "danger small", onclick: async (e) => {
          const ok = await confirmDialog({ title: `Stop watching “${m.name || m.url}”?`, body: "Its alerts stay readable; no new ones will come.", confirm: "Stop watching" });
          if (ok) act(e.target, "No longer watched.", () => gql("mutation ($id: ID!) { deleteMonitor(id: $id) { deleted } }", { id: m.id }));
        } }, "Delete")),
      history);
  }));
}

// firstCheckNote explains a next check further off than the interval: a new
// monitor's first check comes up to a tenth of the interval later (so many
// monitors made at once do not all ask at once); "Every day" beside a check
// 26 hours away would otherwise read as a mistake.
function firstCheckNote(m) {
  const since = Date.parse(m.lastCheckedAt ?? m.createdAt);
  if (!m.nextCheckAt || Date.parse(m.nextCheckAt) - since <= m.intervalSeconds * 1000) return null;
  return h("span", { class: "muted" }, " (the first check comes up to a tenth of the interval later, to spread checks out)");
}

// failure says why the latest checks failed.
function failure(m) {
  if (!m.lastError) return null;
  const times = m.consecutiveFailures > 1 ? ` (${m.consecutiveFailures} times in a row)` : "";
  // The code says what kind of failure it is (README: failure codes); a
  // bot protection is named, since the fix is on the site's side.
  const kind = m.lastErrorCode === "blocked" ? `blocked by ${m.blockedBy || "bot protection"}` : m.lastErrorCode;
  const code = kind ? ` [${kind.replaceAll("_", " ")}]` : "";
  return h("p", { class: "error-text" }, `Last check failed${times}: ${m.lastError}${code}`);
}

// every is an interval in words: "every 20 seconds", "every 90 minutes",
// "every day"; never "every 0 minutes".
export function every(s) {
  const named = intervals.find(([v]) => v === s);
  if (named) return named[1];
  const units = [[604800, "week"], [86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
  for (const [size, unit] of units) {
    if (s >= size && s % size === 0) {
      const n = s / size;
      return n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
    }
  }
  return `Every ${s} seconds`;
}

// History: the versions newest first, each with its grade; pick two and
// see the diff between them.
async function toggleHistory(button, box, m) {
  if (button.getAttribute("aria-expanded") === "true") {
    button.setAttribute("aria-expanded", "false");
    box.replaceChildren();
    return;
  }
  button.setAttribute("aria-expanded", "true");
  box.replaceChildren(h("p", { class: "loading" }, "Loading the history…"));
  let page;
  try {
    page = (await gql(`query ($id: ID!) { monitor(id: $id) { versions(limit: 50) {
      versions { contentHash firstSeenAt lastSeenAt wordCount grade } nextCursor } } }`, { id: m.id })).monitor.versions;
  } catch (err) {
    box.replaceChildren(errorBox(err, "The history could not be loaded."));
    return;
  }
  const vs = page.versions;
  const n = vs.length;
  const result = h("div", { class: "version-diff", "aria-live": "polite" });
  const pick = (name, i) => h("input", { type: "radio", name: `${name}-${m.id}`, value: String(i), checked: name === "from" ? i === n - 1 : i === 0,
    "aria-label": `${name === "from" ? "Compare from" : "Compare to"} version ${n - i}` });
  const list = h("ol", { class: "timeline", reversed: true }, vs.map((v, i) => h("li", {},
    v.grade ? h("span", { class: `grade small grade-${v.grade}`, title: `Grade ${v.grade}` }, v.grade)
      : h("span", { class: "grade small grade-none", title: "No grade: not a legal document" }, "–"),
    h("span", { class: "version-meta" }, h("strong", {}, `Version ${n - i}`), " · ", when(v.firstSeenAt),
      i === 0 ? " · current" : ` · last seen ${when(v.lastSeenAt)}`, ` · ${counted(v.wordCount, "word")}`),
    h("span", { class: "version-pick" }, h("label", {}, pick("from", i), " from"), h("label", {}, pick("to", i), " to")))));
  const compare = h("button", { type: "button", class: "secondary small", onclick: async () => {
    const from = box.querySelector(`input[name="from-${m.id}"]:checked`)?.value;
    const to = box.querySelector(`input[name="to-${m.id}"]:checked`)?.value;
    if (from == null || to == null || from === to) {
      result.replaceChildren(h("p", { class: "muted" }, "Pick two different versions."));
      return;
    }
    result.replaceChildren(h("p", { class: "loading" }, "Comparing…"));
    try {
      const { monitorVersionDiff: d } = await gql(`query ($id: ID!, $a: String!, $b: String!) { monitorVersionDiff(monitorId: $id, from: $a, to: $b) {
        diff added removed changed summarised gradeBefore gradeAfter findingsAdded { ${findingFields} } findingsRemoved { ${findingFields} } findingsAddedOmitted findingsRemovedOmitted } }`,
      { id: m.id, a: vs[Number(from)].contentHash, b: vs[Number(to)].contentHash });
      fill(result,
        h("h4", {}, `Version ${n - Number(from)} → version ${n - Number(to)}`),
        h("p", {}, gradeMove(d.gradeBefore, d.gradeAfter), " ", `${d.changed} paragraph${d.changed === 1 ? "" : "s"} changed `,
          h("span", { class: "ins" }, `+${d.added}`), " ", h("span", { class: "del" }, `−${d.removed}`)),
        findingChanges("New findings", d.findingsAdded, d.findingsAddedOmitted),
        findingChanges("Findings gone", d.findingsRemoved, d.findingsRemovedOmitted),
        d.summarised ? h("p", { class: "muted" }, "Too many differences to show paragraph by paragraph.") : diff(d.diff));
    } catch (err) {
      result.replaceChildren(errorBox(err, "The versions could not be compared."));
    }
  } }, "Compare");
  fill(box, h("h4", {}, "History"),
    n < 2 ? h("p", { class: "empty" }, "One version so far: nothing has changed since watching began.") : null,
    list, page.nextCursor ? h("p", { class: "muted" }, "The 50 newest versions are shown.") : null,
    n >= 2 ? h("div", { class: "actions" }, compare) : null, result);
}

// fill replaces el's children with those given, leaving out the absent
// (null) ones, which replaceChildren would write as the text "null".
function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c != null && c !== false));
}

function gradeMove(before, after) {
  if (!before || !after) return null;
  if (before === after) return h("span", { class: "grade-move" }, "Grade ", h("span", { class: `grade small grade-${after}` }, after), " (unchanged).");
  return h("span", { class: "grade-move" }, "Grade ", h("span", { class: `grade small grade-${before}` }, before), " → ",
    h("span", { class: `grade small grade-${after}` }, after), ".");
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
  return h("ul", { class: "alerts" }, alerts.map((a) => h("li", { class: `card alert${a.read ? "" : " unread"}`, id: `alert-${a.id}`, "data-alert-id": a.id },
    h("div", { class: "monitor-head" },
      h("h3", { tabindex: "-1" }, a.read ? null : h("span", { class: "dot", "aria-label": "unread" }), names[a.monitorId] ?? a.url),
      h("span", { class: "muted" }, timeEl(a.detectedAt))),
    h("p", {}, gradeMove(a.gradeBefore, a.gradeAfter), " ", a.summary, " ", h("span", { class: "ins" }, `+${a.added}`), " ", h("span", { class: "del" }, `−${a.removed}`)),
    findingChanges("New findings", a.findingsAdded, a.findingsAddedOmitted),
    findingChanges("Findings gone", a.findingsRemoved, a.findingsRemovedOmitted),
    h("details", {}, h("summary", {}, "Show the changes"), diff(a.diff)),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary small", onclick: (e) => mark(a, e.target) }, a.read ? "Mark unread" : "Mark read")))));
}

// findingChanges lists a change's findings, most severe first, and says how
// many less severe ones the server left out (at most 100 are kept).
function findingChanges(label, findings, omitted) {
  if (!findings.length) return null;
  return h("div", {}, h("h4", {}, label),
    h("ul", { class: "changes" }, findings.map((f) => h("li", { class: `sev-${f.severity}` },
      h("strong", {}, f.title), " ", h("span", { class: "badge" }, f.severity), h("blockquote", {}, f.quote)))),
    omitted ? h("p", { class: "muted" }, `… and ${omitted} more, less severe, not shown.`) : null);
}

// diff shows a unified diff as a person reads it: the ---/+++ file headers
// dropped, each @@ hunk header a gap marker between the changed stretches,
// added paragraphs green and removed ones red, their +/− in a gutter.
export function diff(text) {
  if (!text) return h("p", { class: "muted" }, "No paragraph-by-paragraph changes to show.");
  const out = [];
  let first = true;
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("--- ") || line.startsWith("+++ ")) continue;
    if (line.startsWith("@@")) {
      if (!first) out.push(h("span", { class: "gap", title: "unchanged paragraphs left out" }, "⋯\n"));
      first = false;
      continue;
    }
    if (line.startsWith("... ")) { out.push(h("span", { class: "gap" }, line.slice(4) + "\n")); continue; }
    const body = line.slice(1) + "\n";
    if (line[0] === "+") out.push(h("ins", {}, h("span", { class: "sign" }, "+"), body));
    else if (line[0] === "-") out.push(h("del", {}, h("span", { class: "sign" }, "-"), body));
    else out.push(h("span", { class: "same" }, h("span", { class: "sign" }, " "), body));
  }
  return h("pre", { class: "diff" }, out);
}

// Feeds: the Atom feed URLs, read with a feed token (read-only, separate
// from API keys). The token is shown once, when made or rotated.
async function loadFeed(box, monitorBox) {
  let token;
  try {
    token = (await gql("{ feedToken { prefix createdAt } }")).feedToken;
  } catch (err) {
    box.replaceChildren(errorBox(err, "The feed settings could not be loaded."));
    return;
  }
  const rotate = h("button", { type: "button", class: token ? "secondary" : "", onclick: async (e) => {
    if (token && !(await confirmDialog({ title: "Make a new feed URL?", body: "The current feed URLs stop working at once, in every feed reader that uses them.", confirm: "Make a new one" }))) return;
    try {
      e.target.disabled = true;
      feedToken = (await gql("mutation { rotateFeedToken { token prefix createdAt } }")).rotateFeedToken;
      // No toast: it would cover the URLs; the first one takes the focus
      // (and is selected, ready to copy) instead.
      await loadFeed(box, monitorBox);
      document.getElementById("feed-all")?.focus();
    } catch (err) {
      e.target.after(errorBox(err));
      e.target.disabled = false;
    }
  } }, token ? "Make a new feed URL" : "Make a feed URL");
  const url = (path) => `${location.origin}/feeds/${feedToken.token}${path}`;
  const shown = feedToken && token && feedToken.prefix === token.prefix;
  fill(box, h("section", { class: "card feeds", "aria-labelledby": "feeds-title" },
    h("h2", { id: "feeds-title" }, "Feeds"),
    h("p", {}, "Follow your alerts in a feed reader: an Atom feed of all of them, or of one document. The feed URL holds a read-only token, separate from your API keys; make a new one to cut off the old."),
    shown ? [
      h("p", { class: "warn" }, h("strong", {}, "Copy the URLs now: the token is not shown again.")),
      copyRow("feed-all", "All alerts", url("/alerts")),
      h("ul", { class: "feed-list" }, [...monitorBox.querySelectorAll("[data-monitor-id]")].map((li) =>
        h("li", {}, copyRow(`feed-${li.dataset.monitorId}`, li.querySelector("h3").textContent, url(`/monitors/${li.dataset.monitorId}`))))),
    ] : token ? h("p", { class: "muted" }, `A feed URL exists (token ${token.prefix}…, made ${when(token.createdAt)}). It is shown only when made.`) : null,
    h("div", { class: "actions" }, rotate)));
}

function copyRow(id, label, value) {
  return h("div", {}, h("label", { for: id }, label),
    h("div", { class: "copy-row" },
      h("input", { id, readonly: true, value, spellcheck: "false", onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "secondary small", onclick: (e) => copy(value, e.target) }, "Copy")));
}
