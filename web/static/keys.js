// Keys: list (revoked ones behind a toggle), create with scopes, the raw key
// shown once with a copy button, revoke after a confirmation.
import { gql } from "./api.js";
import { h, heading, timeEl, number, errorBox, confirmDialog, copy, busy, toast } from "./ui.js";

const keyFields = "id name keyPrefix scopes requestCount lastUsedAt createdAt revokedAt";

const scopes = [
  ["extract", "Extract: fetch a public document and return its readable text."],
  ["analyze", "Analyze: grade a document and quote its risky clauses."],
  ["monitor", "Monitor: for automated monitoring. Only keys that manage monitors and read alerts need it."],
];

let showRevoked = false;

export async function render(main) {
  const list = h("div", { id: "key-list" });
  const created = h("div", { id: "new-key" });
  main.replaceChildren(
    heading("API keys", h("p", { class: "lead" }, "Programs call the API with a key. Each key has its own daily scan and monthly AI budget.")),
    created,
    createForm(created, list),
    h("section", { "aria-labelledby": "keys-title" },
      h("div", { class: "section-head" },
        h("h2", { id: "keys-title" }, "Your keys"),
        h("label", { class: "toggle" },
          h("input", { type: "checkbox", checked: showRevoked, onchange: (e) => { showRevoked = e.target.checked; load(list); } }),
          " Show revoked keys")),
      list));
  await load(list);
}

async function load(list) {
  try {
    const { apiKeys } = await gql(`query ($r: Boolean) { apiKeys(includeRevoked: $r) { ${keyFields} } }`, { r: showRevoked });
    list.replaceChildren(table(apiKeys, list));
  } catch (err) {
    list.replaceChildren(errorBox(err, "The keys could not be loaded."));
  }
}

function table(keys, list) {
  if (!keys.length) return h("p", { class: "empty" }, "No keys yet. Create one above to call the API.");
  return h("table", { class: "cards" },
    h("thead", {}, h("tr", {}, ["Name", "Prefix", "Scopes", "Requests", "Last used", "Created", ""].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, keys.map((k) => h("tr", { class: k.revokedAt ? "revoked" : null, "data-key-id": k.id },
      h("td", { "data-label": "Name" }, k.name, k.revokedAt ? h("span", { class: "badge muted" }, "revoked") : null),
      h("td", { "data-label": "Prefix" }, h("code", {}, k.keyPrefix + "…")),
      h("td", { "data-label": "Scopes" }, k.scopes.map((s) => h("span", { class: "badge" }, s))),
      h("td", { "data-label": "Requests", class: "num" }, number(k.requestCount)),
      h("td", { "data-label": "Last used" }, timeEl(k.lastUsedAt)),
      h("td", { "data-label": "Created" }, timeEl(k.createdAt)),
      h("td", { class: "row-actions" }, k.revokedAt
        ? h("span", { class: "muted" }, "Revoked ", timeEl(k.revokedAt))
        : h("button", { type: "button", class: "danger small", onclick: () => revoke(k, list), "aria-label": `Revoke ${k.name}` }, "Revoke"))))));
}

async function revoke(k, list) {
  const ok = await confirmDialog({
    title: `Revoke “${k.name}”?`,
    body: `Programs using ${k.keyPrefix}… stop working at once. A revoked key cannot be restored.`,
    confirm: "Revoke key",
  });
  if (!ok) return;
  try {
    await gql("mutation ($id: ID!) { revokeApiKey(id: $id) { id } }", { id: k.id });
    toast(`“${k.name}” is revoked.`);
    await load(list);
  } catch (err) {
    list.prepend(errorBox(err, "The key was not revoked."));
  }
}

function createForm(created, list) {
  const form = h("form", { class: "card", "aria-labelledby": "create-title", onsubmit: submit },
    h("h2", { id: "create-title" }, "Create a key"),
    h("label", { for: "key-name" }, "Name"),
    h("input", { id: "key-name", name: "name", required: true, maxlength: "100", placeholder: "e.g. production crawler", autocomplete: "off" }),
    h("fieldset", {}, h("legend", {}, "Scopes"),
      scopes.map(([s, text]) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: "scope", value: s, checked: s !== "monitor" }), " ", text))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create key")),
    h("details", { class: "rotation" },
      h("summary", {}, "Rotating a key"),
      h("ol", {},
        h("li", {}, "Create a new key with the same scopes."),
        h("li", {}, "Put the new key in your program's secret store."),
        h("li", {}, "Check that a test request with the new key succeeds."),
        h("li", {}, "Revoke the old key.")),
      h("p", {}, "Both keys work until the old one is revoked; there is no one-step rotate.")));

  async function submit(ev) {
    ev.preventDefault();
    form.querySelector(".error-box")?.remove();
    const name = form.elements.name.value.trim();
    const chosen = [...form.querySelectorAll("input[name=scope]:checked")].map((c) => c.value);
    try {
      const { createApiKey } = await busy(form, () => gql(
        `mutation ($n: String!, $s: [String!]) { createApiKey(name: $n, scopes: $s) { rawKey key { ${keyFields} } } }`,
        { n: name, s: chosen }));
      form.reset();
      showOnce(created, createApiKey);
      await load(list);
    } catch (err) {
      form.querySelector(".actions").before(errorBox(err, "The key was not created."));
    }
  }
  return form;
}

// showOnce shows the raw key. It lives only in this page's memory: a reload
// or another page forgets it, as the server already has.
function showOnce(box, { rawKey, key }) {
  const button = h("button", { type: "button", onclick: (e) => copy(rawKey, e.target) }, "Copy");
  box.replaceChildren(h("section", { class: "card once", "aria-labelledby": "once-title" },
    h("h2", { id: "once-title" }, `Your new key “${key.name}”`),
    h("p", { class: "warn" }, h("strong", {}, "Copy it now: you won't see this key again."), " Only its prefix is kept in the list."),
    h("div", { class: "copy-row" },
      h("label", { for: "raw-key", class: "sr-only" }, "New API key"),
      h("input", { id: "raw-key", readonly: true, value: rawKey, spellcheck: "false", onfocus: (e) => e.target.select() }),
      button),
    h("p", { class: "hint" }, "Use it as ", h("code", {}, "Authorization: Bearer " + key.keyPrefix + "…"), "."),
    h("div", { class: "actions" }, h("button", { type: "button", class: "secondary", onclick: () => box.replaceChildren() }, "I have stored it"))));
  button.focus();
}
