// Analyze: paste text, give a URL, or a batch of up to five URLs; see the
// grade, the score and the findings grouped by severity, each quote
// highlighted in the document text by its offsets. Earlier analyses are listed
// and reopen at #analyze/<id>.
import { gql } from "./api.js";
import { h, heading, when, number, errorBox, busy } from "./ui.js";

const analysisFields = `id grade score createdAt text disclaimer guidance
  source { url title documentType language wordCount }
  readability { readingMinutes }
  findings { category severity title explanation guidance quote start end confidence }`;

const severities = [
  ["blocker", "Blockers", "Clauses that take away a right outright."],
  ["bad", "Bad", "Clauses that work against you."],
  ["neutral", "Neutral", "Worth knowing, neither good nor bad."],
  ["good", "Good", "Commitments in your favour."],
];

let mode = "text";

export async function render(main, { arg }) {
  const result = h("div", { id: "result" });
  const past = h("section", { class: "card", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "Earlier analyses"), h("div", { class: "history-list" }));
  main.replaceChildren(
    heading("Analyze a document", h("p", { class: "lead" }, "Risky clauses quoted and explained. Informational only; not legal advice.")),
    form(result), result, past);
  await Promise.all([arg ? open(result, arg) : null, loadHistory(past.lastChild)]);
}

function form(result) {
  const panes = {
    text: h("div", {},
      h("label", { for: "doc-title" }, "Title ", h("span", { class: "muted" }, "(optional)")),
      h("input", { id: "doc-title", name: "title", autocomplete: "off" }),
      h("label", { for: "doc-text" }, "Document text"),
      h("textarea", { id: "doc-text", name: "text", rows: 10, placeholder: "Paste terms of service or a privacy policy…" })),
    url: h("div", {},
      h("label", { for: "doc-url" }, "Public URL of the document"),
      h("input", { id: "doc-url", name: "url", type: "url", placeholder: "https://example.com/terms", autocomplete: "url" })),
    batch: h("div", {},
      h("label", { for: "doc-urls" }, "Up to five public URLs, one a line"),
      h("textarea", { id: "doc-urls", name: "urls", rows: 5, placeholder: "https://example.com/terms\nhttps://example.com/privacy" })),
  };
  const showPane = () => Object.entries(panes).forEach(([k, p]) => (p.hidden = k !== mode));
  const f = h("form", { class: "card", "aria-label": "Analyze", onsubmit: submit },
    h("fieldset", { class: "segmented" }, h("legend", {}, "What to analyze"),
      [["text", "Paste text"], ["url", "A URL"], ["batch", "Several URLs"]].map(([v, label]) => h("label", {},
        h("input", { type: "radio", name: "mode", value: v, checked: mode === v, onchange: () => { mode = v; showPane(); } }),
        h("span", {}, label)))),
    Object.values(panes),
    h("label", { for: "doc-type" }, "Document type"),
    h("select", { id: "doc-type", name: "documentType" },
      h("option", { value: "" }, "Detect"), h("option", { value: "terms" }, "Terms of service"), h("option", { value: "privacy" }, "Privacy policy")),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Analyze"), h("span", { class: "muted" }, "One scan per document.")));
  showPane();

  async function submit(ev) {
    ev.preventDefault();
    f.querySelector(".error-box")?.remove();
    const el = f.elements;
    const documentType = el.documentType.value || null;
    try {
      if (mode === "batch") {
        const urls = el.urls.value.split("\n").map((s) => s.trim()).filter(Boolean);
        if (urls.length < 1 || urls.length > 5) throw new Error("Give one to five URLs, one a line.");
        const { analyzeBatch } = await busy(f, () => gql(
          `mutation ($items: [AnalyzeInput!]!) { analyzeBatch(items: $items) { results { index ok
            analysis { id grade score source { url title } } error { code message } } } }`,
          { items: urls.map((url) => ({ url, documentType })) }));
        batchResults(result, analyzeBatch.results, urls);
      } else {
        const input = mode === "text"
          ? { text: el.text.value, title: el.title.value.trim() || null, documentType }
          : { url: el.url.value.trim(), documentType };
        const { analyze } = await busy(f, () => gql(`mutation ($in: AnalyzeInput!) { analyze(input: $in) { ${analysisFields} } }`, { in: input }));
        history.replaceState(null, "", "#analyze/" + analyze.id);
        showAnalysis(result, analyze);
        loadHistory(document.querySelector(".history-list"));
      }
    } catch (err) {
      f.querySelector(".actions").before(errorBox(err, "Not analyzed."));
    }
  }
  return f;
}

async function open(result, id) {
  try {
    const { analysis } = await gql(`query ($id: ID!) { analysis(id: $id) { ${analysisFields} } }`, { id });
    showAnalysis(result, analysis);
  } catch (err) {
    result.replaceChildren(errorBox(err, "This analysis could not be opened."));
  }
}

function batchResults(result, items, urls) {
  result.replaceChildren(h("section", { class: "card", "aria-labelledby": "batch-title" },
    h("h2", { id: "batch-title", tabindex: "-1" }, "Batch results"),
    h("ol", { class: "batch" }, items.map((it) => h("li", {},
      it.ok
        ? h("a", { href: "#analyze/" + it.analysis.id }, grade(it.analysis.grade, true), " ", it.analysis.source.title || it.analysis.source.url, h("span", { class: "muted" }, ` · score ${it.analysis.score}`))
        : h("span", {}, h("code", {}, urls[it.index]), ": ", h("span", { class: "error-text" }, it.error.message)))))));
  result.querySelector("h2").focus();
  loadHistory(document.querySelector(".history-list"));
}

function grade(g, small) {
  return h("span", { class: `grade grade-${g}${small ? " small" : ""}`, "aria-label": `Grade ${g}` }, g);
}

// showAnalysis renders one analysis: the summary, the findings by severity, and the
// text with every quote highlighted. A finding and its highlight link to each
// other both ways.
function showAnalysis(result, a) {
  const chars = Array.from(a.text); // offsets count code points, not UTF-16 units
  const findings = a.findings.map((f, i) => ({ ...f, i }));
  const doc = h("div", { class: "doc", id: "doc-text-view", tabindex: "0", "aria-label": "Document text with highlighted clauses" });
  if (chars.length === 0) doc.append(h("p", { class: "muted" }, "This analysis was stored without its text, so nothing can be highlighted."));
  const shown = highlight(doc, chars, findings.filter((f) => f.start < f.end && f.end <= chars.length));

  const groups = severities.map(([sev, label, blurb]) => {
    const fs = findings.filter((f) => f.severity === sev);
    if (!fs.length) return null;
    return h("section", { class: `group sev-${sev}`, "aria-label": label },
      h("h3", {}, `${label} (${fs.length})`, h("span", { class: "muted" }, " — " + blurb)),
      fs.map((f) => h("article", { class: "finding", id: `f-${f.i}`, tabindex: "-1", "data-quote": f.quote },
        h("h4", {}, f.title, " ", h("span", { class: "badge" }, f.category.replaceAll("_", " "))),
        h("blockquote", {}, f.quote.length > 280 ? f.quote.slice(0, 280) + "…" : f.quote),
        h("p", {}, f.explanation),
        h("p", { class: "guidance" }, h("strong", {}, "What to check: "), f.guidance),
        shown.has(f.i) ? h("button", { type: "button", class: "link", onclick: () => jump(firstMark(f.i)) }, "Show in the text") : null)));
  });

  const s = a.source;
  result.replaceChildren(h("section", { class: "analysis", "aria-labelledby": "analysis-title" },
    h("div", { class: "card summary" },
      grade(a.grade),
      h("div", {},
        h("h2", { id: "analysis-title", tabindex: "-1" }, s.title || s.url || "Pasted text"),
        h("p", { class: "score" }, h("strong", {}, `Score ${a.score}/100`), ` · ${a.findings.length} findings · ${s.documentType || "document"} · ${number(s.wordCount)} words · ${Math.ceil(a.readability.readingMinutes)} min read`),
        s.url ? h("p", {}, h("a", { href: s.url, rel: "noopener noreferrer", target: "_blank" }, s.url)) : null,
        h("p", { class: "muted" }, `Analyzed ${when(a.createdAt)}. ${a.disclaimer}`))),
    a.guidance.length ? h("div", { class: "card" }, h("h3", {}, "Guidance"), h("ul", {}, a.guidance.map((g) => h("li", {}, g)))) : null,
    h("div", { class: "split" },
      h("div", { class: "findings" }, h("h3", { class: "sr-only" }, "Findings"),
        findings.length ? groups : h("p", { class: "empty" }, "No clauses worth flagging were found.")),
      h("div", { class: "doc-wrap" }, h("h3", {}, "Document"), doc))));
  result.querySelector("#analysis-title").focus();
}

// highlight writes the text into doc with every finding's quote marked.
// Quotes may overlap (one sentence can hold two clauses), so the text is cut
// at every start and end, and each piece covered by findings becomes a <mark>
// listing them all (data-findings) in the colour of the worst; a finding's
// highlight is then exactly the marks that list it. Returns the findings shown.
function highlight(doc, chars, findings) {
  const cuts = [...new Set([0, chars.length, ...findings.flatMap((f) => [f.start, f.end])])].sort((x, y) => x - y);
  const rank = Object.fromEntries(severities.map(([s], i) => [s, i]));
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [from, to] = [cuts[k], cuts[k + 1]];
    const text = chars.slice(from, to).join("");
    const over = findings.filter((f) => f.start <= from && to <= f.end).sort((x, y) => rank[x.severity] - rank[y.severity]);
    if (!over.length) {
      doc.append(text);
      continue;
    }
    doc.append(h("mark", { class: `sev-${over[0].severity}`, "data-findings": over.map((f) => f.i).join(" "),
      title: over.map((f) => f.title).join("; "), onclick: () => jump(document.getElementById(`f-${over[0].i}`)) }, text));
  }
  return new Set(findings.map((f) => f.i));
}

function firstMark(i) {
  return document.querySelector(`mark[data-findings~="${i}"]`);
}

// jump scrolls to a finding or a highlight and moves focus there, flashing it.
function jump(el) {
  if (!el) return;
  el.scrollIntoView({ behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth", block: "center" });
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus({ preventScroll: true });
  el.classList.remove("flash");
  void el.offsetWidth;
  el.classList.add("flash");
}

async function loadHistory(box, cursor = null) {
  if (!box) return;
  try {
    const { analyses } = await gql(`query ($c: String) { analyses(limit: 10, cursor: $c) {
      analyses { id grade score createdAt source { url title documentType } } nextCursor } }`, { c: cursor });
    const items = analyses.analyses.map((a) => h("li", {},
      h("a", { href: "#analyze/" + a.id }, grade(a.grade, true), " ", a.source.title || a.source.url || "Pasted text"),
      h("span", { class: "muted" }, ` · score ${a.score} · ${when(a.createdAt)}`)));
    const list = cursor ? box.querySelector("ul") : h("ul", { class: "history" });
    list.append(...items);
    const more = analyses.nextCursor
      ? h("button", { type: "button", class: "secondary", onclick: () => loadHistory(box, analyses.nextCursor) }, "Show older")
      : null;
    if (!cursor && !items.length) return box.replaceChildren(h("p", { class: "empty" }, "Nothing analyzed yet."));
    box.replaceChildren(list, more ?? "");
  } catch (err) {
    box.replaceChildren(errorBox(err, "Earlier analyses could not be loaded."));
  }
}
