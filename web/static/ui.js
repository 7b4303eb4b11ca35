// Small helpers every page uses: building elements, dates in the viewer's
// time zone, errors in words, a confirmation dialog and the copy button.

// h builds an element: h("p", {class: "x", onclick: f}, "text", child, ...).
// Text is always set as text, never parsed as HTML.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v === true) el.setAttribute(k, ""); // an attribute, so that form.reset() comes back to it
    else if (typeof v === "string") el.setAttribute(k, v);
    else el[k] = v;
  }
  el.append(...children.flat().filter((c) => c != null && c !== false));
  return el;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const zone = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" })
  .formatToParts(new Date()).find((p) => p.type === "timeZoneName")?.value ?? "";

// when shows an instant (ISO string or Unix ms) in the viewer's time zone.
export function when(t, withZone = false) {
  if (t == null || t === "") return "—";
  const s = dateTime.format(new Date(t));
  return withZone ? `${s} ${zone}` : s;
}

export function timeEl(t) {
  return t ? h("time", { datetime: new Date(t).toISOString() }, when(t)) : "never";
}

export const number = (n) => new Intl.NumberFormat().format(n);

// counted is a number with its noun, singular for one: "1 request", "3 requests".
export const counted = (n, noun, nouns = noun + "s") => `${number(n)} ${n === 1 ? noun : nouns}`;

// sentence ends a message with a full stop unless it has its own ending:
// the contract's limit messages have none ("API key limit reached for this plan").
export const sentence = (s) => (/[.!?…:]$/.test(s) ? s : s + ".");

// withCode shows `quoted` parts of the server's words as code, not as
// backticks: its hints name commands that way.
export function withCode(s) {
  return s.split(/`([^`]+)`/).map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

// errorBox says what went wrong; a limit also says what the limit is, what
// is used and what to do about it.
export function errorBox(err, lead) {
  return h("div", { class: "error-box", role: "alert" }, lead ? h("strong", {}, lead + " ") : null, sentence(err.message ?? String(err)),
    limitFacts(err.extensions));
}

const utcMidnight = "UTC midnight";

// limitFacts reads a refusal's extensions: the contract's own fields
// (scansLimit, aiLimit, keyLimit, monitorLimit with their remainders and
// resets) and the generic limit, used and hint, at the top or in details.
export function limitFacts(x) {
  if (!x) return null;
  const generic = [x, ...(Array.isArray(x.details) ? x.details : [])].find((d) => d && (d.limit != null || d.hint));
  let limit, used, todo, resets;
  if (x.scansLimit != null) {
    limit = `${number(x.scansLimit)} scans a day`;
    if (x.scansRemaining != null) used = `${number(x.scansLimit - x.scansRemaining)} of ${number(x.scansLimit)} (${number(x.scansRemaining)} left)`;
    resets = x.scansResetsAt;
    todo = "Wait for the reset, ask for fewer items at once, or move to a larger plan (Usage shows what each plan gives).";
  } else if (x.aiLimit != null) {
    limit = `${number(x.aiLimit)} AI summaries a month`;
    if (x.aiRemaining != null) used = `${number(x.aiLimit - x.aiRemaining)} of ${number(x.aiLimit)}`;
    resets = x.aiResetsAt;
    todo = "Analyze without the AI summary, wait for the new month, or move to a larger plan.";
  } else if (x.keyLimit != null) {
    limit = `${number(x.keyLimit)} active API keys on this plan`;
    used = `${number(x.keyLimit)} of ${number(x.keyLimit)}`;
    todo = "Revoke a key you no longer use (revoked keys don't count), or move to a larger plan.";
  } else if (x.monitorLimit != null) {
    limit = `${number(x.monitorLimit)} active monitors on this plan`;
    used = `${number(x.monitorLimit)} of ${number(x.monitorLimit)}`;
    todo = "Delete a monitor you no longer need, or move to a larger plan.";
  }
  if (generic) {
    // The contract's own fields, read above, say what the number counts; the
    // generic limit and used fill in only where they are missing.
    if (limit == null && generic.limit != null) limit = typeof generic.limit === "number" ? number(generic.limit) : String(generic.limit);
    if (used == null && generic.used != null) used = typeof generic.used === "number" ? number(generic.used) : String(generic.used);
    if (generic.hint) todo = generic.hint; // the server's own words win
    resets ??= generic.resetsAt;
  }
  if (limit == null && todo == null) return null;
  const row = (k, v) => (v == null ? null : [h("dt", {}, k), h("dd", {}, v)]);
  return h("dl", { class: "limit-facts" },
    row("Limit", limit),
    row("Used", used),
    row("Resets", resets ? `${when(resets, true)} (${utcMidnight})` : null),
    row("What to do", todo == null ? null : withCode(todo)));
}

// heading makes the page's h1, focused after navigation so a screen reader
// announces the new page.
export function heading(text, ...rest) {
  return h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, text), ...rest);
}

// toast shows a short message (text, or an element such as a link).
export function toast(msg) {
  const t = document.getElementById("toast");
  t.replaceChildren(msg);
  t.classList.add("on");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("on"), 4000);
}

// confirmDialog asks before something that cannot be undone; a modal <dialog>
// keeps the keyboard inside it and Escape cancels.
export function confirmDialog({ title, body, confirm }) {
  return new Promise((resolve) => {
    const d = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" },
      h("h2", { id: "confirm-title" }, title),
      h("p", {}, body),
      h("form", { method: "dialog", class: "actions" },
        h("button", { value: "cancel", class: "secondary", autofocus: true }, "Cancel"),
        h("button", { value: "ok", class: "danger" }, confirm)));
    d.addEventListener("close", () => {
      d.remove();
      resolve(d.returnValue === "ok");
    });
    document.body.append(d);
    d.showModal();
  });
}

export async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the clipboard API (plain http on another host name), select it for Ctrl+C.
    const input = button.parentElement.querySelector("input");
    input?.select();
    toast("Press Ctrl+C (⌘C) to copy the selected key.");
    return;
  }
  const label = button.textContent;
  button.textContent = "Copied";
  toast("Copied to the clipboard.");
  setTimeout(() => (button.textContent = label), 2000);
}

// busy disables a form's controls while a request runs and, after a moment,
// says beside its buttons what is happening, for how long, and that the
// person may leave: the work carries on without the page (the server does
// it), and what finishes while they are elsewhere is announced in a toast.
export async function busy(form, f, what = "Working") {
  const controls = [...form.querySelectorAll("button, input, textarea, select")];
  controls.forEach((c) => (c.disabled = true));
  form.setAttribute("aria-busy", "true");
  const line = progressLine(what);
  const shown = setTimeout(() => (form.querySelector(".actions") ?? form).append(line.el), 400);
  try {
    return await f();
  } finally {
    clearTimeout(shown);
    line.stop();
    controls.forEach((c) => (c.disabled = false));
    form.removeAttribute("aria-busy");
  }
}

// progressLine is "Analyzing… 12 s" with a spinner, counting while shown,
// and where to go meanwhile.
export function progressLine(what) {
  const started = Date.now();
  const secs = h("span", { class: "elapsed" }, "0 s");
  const el = h("span", { class: "progress", role: "status" },
    h("span", { class: "spinner", "aria-hidden": "true" }), `${what}… `, secs,
    h("span", { class: "leave" }, " · You can leave this page: it carries on, and you'll be told when it is done."));
  const tick = setInterval(() => (secs.textContent = `${Math.floor((Date.now() - started) / 1000)} s`), 1000);
  return { el, stop: () => { clearInterval(tick); el.remove(); } };
}

// cssVar reads a colour of the current theme (the chart draws with them).
export function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
