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

export function errorBox(err, lead) {
  return h("div", { class: "error-box", role: "alert" }, lead ? h("strong", {}, lead + " ") : null, err.message ?? String(err));
}

// heading makes the page's h1, focused after navigation so a screen reader
// announces the new page.
export function heading(text, ...rest) {
  return h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, text), ...rest);
}

export function toast(msg) {
  const t = document.getElementById("toast");
  t.textContent = msg;
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

// busy disables a form's controls while a request runs.
export async function busy(form, f) {
  const controls = [...form.querySelectorAll("button, input, textarea, select")];
  controls.forEach((c) => (c.disabled = true));
  form.setAttribute("aria-busy", "true");
  try {
    return await f();
  } finally {
    controls.forEach((c) => (c.disabled = false));
    form.removeAttribute("aria-busy");
  }
}
