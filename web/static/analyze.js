// Analyze: paste text, give a URL, or a batch of up to five URLs; see the
// grade and why, and the findings one card per sentence, grouped by severity
// (neutral ones folded), narrowed by severity, category and words; each quote
// highlighted in the document text by its offsets. On a narrow screen the
// findings and the document take turns. Exported as JSON (the API's shape),
// a Markdown report, or printed. Earlier analyses reopen at #analyze/<id>,
// which opens on the analysis itself.
import { gql } from "./api.js";
import { h, heading, when, number, counted, errorBox, busy, toast } from "./ui.js";

const analysisFields = `id grade score createdAt text disclaimer guidance coverage confidence
  source { url title documentType language wordCount contentHash }
  readability { fleschKincaidGrade readingMinutes }
  basis { good neutral bad blocker balance } why
  cases { title rating category }
  ai { summary model quotes } aiError
  findings { category severity title explanation guidance quote start end confidence case }`;

// withAnalysis runs a query built around the analysis fields.
function withAnalysis(build, variables) {
  return gql(build(analysisFields), variables);
}

const severities = [
  ["blocker", "Blockers", "Clauses that take away a right outright."],
  ["bad", "Bad", "Clauses that work against you."],
  ["neutral", "Neutral", "Worth knowing, neither good nor bad."],
  ["good", "Good", "Commitments in your favour."],
];
const rank = Object.fromEntries(severities.map(([s], i) => [s, i]));
const catName = (c) => c.replaceAll("_", " ");

let mode = "text";

// On paper every group is unfolded, however printing was started.
addEventListener("beforeprint", () => {
  for (const d of document.querySelectorAll(".analysis details")) {
    d.open = true;
    showAll(d);
  }
});

export async function render(main, { arg }) {
  const result = h("div", { id: "result" });
  const past = h("section", { class: "card no-print", "aria-labelledby": "history-title" },
    h("h2", { id: "history-title" }, "Earlier analyses"), h("div", { class: "history-list" }));
  const f = form(result);
  // A permalink opens on the analysis: the form waits folded above it.
  const top = arg
    ? h("details", { class: "card another no-print" }, h("summary", {}, "Analyze another document"), f)
    : f;
  main.replaceChildren(
    heading("Analyze a document", h("p", { class: "lead" }, "Risky clauses quoted and explained. Informational only; not legal advice.")),
    top, result, past);
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
  const f = h("form", { class: "card analyze-form no-print", "aria-label": "Analyze", onsubmit: submit },
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
          { items: urls.map((url) => ({ url, documentType })) }), `Analyzing ${urls.length} document${urls.length > 1 ? "s" : ""}`);
        if (!result.isConnected) return toast("The batch is analyzed: see Earlier analyses on the Analyze page.");
        batchResults(result, analyzeBatch.results, urls);
      } else {
        const input = mode === "text"
          ? { text: el.text.value, title: el.title.value.trim() || null, documentType }
          : { url: el.url.value.trim(), documentType };
        const { analyze } = await busy(f, () => withAnalysis((fields) => `mutation ($in: AnalyzeInput!) { analyze(input: $in) { ${fields} } }`, { in: input }),
          mode === "url" ? "Fetching and analyzing" : "Analyzing");
        // Left for another page meanwhile: say it is done, and where.
        if (!result.isConnected) {
          return toast(h("span", {}, `Analyzed: grade ${analyze.grade}. `, h("a", { href: "#analyze/" + analyze.id }, "Open the analysis")));
        }
        history.replaceState(null, "", "#analyze/" + analyze.id);
        showAnalysis(result, analyze);
        loadHistory(document.querySelector(".history-list"));
      }
    } catch (err) {
      if (!f.isConnected) return toast(`Not analyzed: ${err.message}`);
      f.querySelector(".actions").before(errorBox(err, "Not analyzed."));
    }
  }
  return f;
}

async function open(result, id) {
  try {
    const { analysis } = await withAnalysis((fields) => `query ($id: ID!) { analysis(id: $id) { ${fields} } }`, { id });
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

// cardsOf puts findings on one card per quoted passage: a sentence that is
// several cases at once is one card listing them, filed under its worst.
function cardsOf(findings) {
  const byRange = new Map();
  for (const f of findings) {
    const key = `${f.start}:${f.end}`;
    if (!byRange.has(key)) byRange.set(key, { quote: f.quote, start: f.start, end: f.end, findings: [] });
    byRange.get(key).findings.push(f);
  }
  return [...byRange.values()].map((c) => {
    c.findings.sort((x, y) => rank[x.severity] - rank[y.severity]);
    c.severity = c.findings[0].severity;
    c.id = c.findings[0].i;
    c.words = [c.quote, ...c.findings.flatMap((f) => [f.title, f.explanation, f.guidance, catName(f.category), f.case ?? ""])].join(" ").toLowerCase();
    return c;
  });
}

// showAnalysis renders one analysis: the summary with why this grade, the
// findings by severity with their filters, and the text with every quote
// highlighted. A finding and its highlight link to each other both ways.
function showAnalysis(result, a) {
  const chars = Array.from(a.text); // offsets count code points, not UTF-16 units
  const findings = a.findings.map((f, i) => ({ ...f, i }));
  const cards = cardsOf(findings);
  const cardOf = new Map(cards.flatMap((c) => c.findings.map((f) => [f.i, c])));
  const doc = h("div", { class: "doc", id: "doc-text-view", tabindex: "0", "aria-label": "Document text with highlighted clauses" });
  if (chars.length === 0) doc.append(h("p", { class: "muted" }, "This analysis was stored without its text, so nothing can be highlighted."));
  const shown = highlight(doc, chars, findings.filter((f) => f.start < f.end && f.end <= chars.length), (i) => reveal(cardOf.get(i)));

  const split = h("div", { class: "split", "data-view": "findings" });
  // On a narrow screen one pane at a time: the findings or the document.
  const setView = (v) => {
    split.dataset.view = v;
    for (const b of viewSwitch.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.value === v));
  };
  const viewSwitch = h("div", { class: "view-switch", role: "group", "aria-label": "Show" },
    h("button", { type: "button", value: "findings", "aria-pressed": "true", onclick: () => setView("findings") }, `Findings (${cards.length})`),
    h("button", { type: "button", value: "document", "aria-pressed": "false", onclick: () => setView("document") }, "Document"));

  const cardEl = (c, repeat) => {
    const el = h("article", { class: `finding sev-${c.severity}${repeat ? " repeat" : ""}`, id: `f-${c.id}`, tabindex: "-1", "data-quote": c.quote, "data-severities": [...new Set(c.findings.map((f) => f.severity))].join(" "),
      "data-categories": [...new Set(c.findings.map((f) => f.category))].join(" ") },
      h("blockquote", {}, c.quote.length > 280 ? c.quote.slice(0, 280) + "…" : c.quote),
      c.findings.length > 1 ? h("p", { class: "muted cases-count" }, `${c.findings.length} findings in this passage:`) : null,
      h("ul", { class: "cases" }, c.findings.map((f) => h("li", { class: `sev-${f.severity}` },
        h("h4", {}, h("span", { class: `sev-tag sev-${f.severity}` }, f.severity), " ", f.title, " ", h("span", { class: "badge" }, catName(f.category))),
        h("p", {}, f.explanation),
        h("p", { class: "guidance" }, h("strong", {}, "What to check: "), f.guidance)))),
      shown.has(c.id) ? h("button", { type: "button", class: "link no-print", onclick: () => { setView("document"); jump(firstMark(c.id)); } }, "Show in the text") : null);
    c.el = el;
    return el;
  };

  const groups = severities.map(([sev, label, blurb]) => {
    const cs = cards.filter((c) => c.severity === sev);
    if (!cs.length) return null;
    const count = h("span", { class: "count-of" }, `(${cs.length})`);
    const entries = entriesOf(cs);
    // A long group shows its first few entries; the rest wait behind a button.
    const later = entries.length - firstEntries;
    const g = h("details", { class: `group sev-${sev}`, open: sev !== "neutral", "data-severity": sev },
      h("summary", {}, h("h3", {}, `${label} `, count, h("span", { class: "muted" }, " — " + blurb))),
      entries.map((list, k) => entryEl(list, k >= firstEntries)),
      later > 0 ? h("button", { type: "button", class: "secondary small show-later no-print", onclick: () => showAll(g) },
        `Show ${later} more (${counted(entries.slice(firstEntries).flat().length, "passage")})`) : null);
    g.count = count;
    g.total = cs.length;
    return g;
  }).filter(Boolean);

  const toolbar = findings.length ? filters(findings, cards, groups) : null;

  // entryEl is one case's passages: the first card, and the others behind
  // "×N, show all" (a long terms of service repeats a case card after card).
  function entryEl(list, isLater) {
    const [first, ...rest] = list;
    const entry = h("div", { class: `entry${isLater ? " later" : ""}` }, cardEl(first));
    if (rest.length) {
      const toggle = h("button", { type: "button", class: "link repeats no-print", "aria-expanded": "false", onclick: () => {
        const open = entry.classList.toggle("open");
        toggle.setAttribute("aria-expanded", String(open));
        toggle.textContent = open ? "Show only the first" : `×${list.length}, show all`;
      } }, `×${list.length}, show all`);
      entry.append(toggle, ...rest.map((c) => cardEl(c, true)));
    }
    return entry;
  }

  // reveal brings a finding's card into view: its group opened and
  // unfolded, the filters cleared if they hide it, the findings pane shown.
  function reveal(c) {
    if (!c) return;
    if (c.el.hidden) toolbar?.reset();
    c.el.closest("details").open = true;
    showAll(c.el.closest("details"));
    setView("findings");
    jump(c.el);
  }

  const s = a.source;
  result.replaceChildren(h("section", { class: "analysis", "aria-labelledby": "analysis-title" },
    h("div", { class: "card summary" },
      grade(a.grade),
      h("div", { class: "summary-body" },
        h("h2", { id: "analysis-title", tabindex: "-1" }, s.title || s.url || "Pasted text"),
        h("p", { class: "score" }, h("strong", {}, `Score ${a.score}/100`), ` · ${counted(cards.length, "passage")}, ${counted(a.findings.length, "finding")} · ${s.documentType || "document"} · ${number(s.wordCount)} words · ${Math.ceil(a.readability.readingMinutes)} min read`),
        s.url ? h("p", {}, h("a", { href: s.url, rel: "noopener noreferrer", target: "_blank" }, s.url)) : null,
        why(a, findings, cards, (i) => { setView("document"); jump(firstMark(i)); }, shown),
        exports(a),
        h("p", { class: "muted" }, `Analyzed ${when(a.createdAt)}. ${a.disclaimer}`))),
    a.guidance.length ? h("div", { class: "card" }, h("h3", {}, "Guidance"), h("ul", { class: "checklist" }, a.guidance.map((g) => h("li", {}, g)))) : null,
    viewSwitch,
    split));
  split.append(
    h("div", { class: "findings" }, h("h3", { class: "sr-only" }, "Findings"),
      findings.length ? [toolbar.el, ...groups] : h("p", { class: "empty" }, "No clauses worth flagging were found.")),
    h("div", { class: "doc-wrap" }, h("h3", {}, "Document"), doc));
  result.querySelector("#analysis-title").focus();
  result.querySelector(".analysis").scrollIntoView({ block: "start" });
}

// firstEntries is how many entries a group shows before "Show N more".
const firstEntries = 5;

// entriesOf puts a group's cards into entries, one per case (or, without a
// case, per finding title), in the order their first passage comes.
function entriesOf(cards) {
  const byCase = new Map();
  for (const c of cards) {
    const key = c.findings[0].case || c.findings[0].title;
    if (!byCase.has(key)) byCase.set(key, []);
    byCase.get(key).push(c);
  }
  return [...byCase.values()];
}

// showAll unfolds a group: every entry and every repeated passage.
function showAll(group) {
  if (!group) return;
  group.querySelector(".show-later")?.remove();
  for (const e of group.querySelectorAll(".entry.later")) e.classList.remove("later");
  for (const e of group.querySelectorAll(".entry:not(.open)")) e.querySelector(".repeats")?.click();
}

// whyCases lists the cases that move the grade (good, bad, blocker), each
// with the passage that states it; a passage that is several cases is
// listed once, with all of them.
export function whyCases(a, findings) {
  const counted = (a.cases ?? []).filter((c) => c.rating !== "neutral");
  const passages = new Map();
  for (const c of counted) {
    const f = findings.find((f) => f.case === c.title) ??
      findings.find((f) => f.category === c.category && f.severity === c.rating);
    const key = f ? `${f.start}:${f.end}` : `case:${c.title}`;
    if (!passages.has(key)) passages.set(key, { finding: f, cases: [] });
    passages.get(key).cases.push(c);
  }
  return [...passages.values()].sort((x, y) =>
    rank[x.cases[0].rating] - rank[y.cases[0].rating] || (x.finding?.start ?? 1e12) - (y.finding?.start ?? 1e12));
}

function why(a, findings, cards, toText, shown) {
  const passages = whyCases(a, findings);
  // How many passages of the findings list state a case: the grade counts a
  // case once, the list shows every passage of it.
  const passagesOf = (c) => cards.filter((k) => k.findings.some((f) => f.case === c.title)).length;
  const neutral = (a.cases ?? []).filter((c) => c.rating === "neutral").length;
  return h("section", { class: "why", "aria-labelledby": "why-title" },
    h("h3", { id: "why-title" }, "Why this grade"),
    a.why ? h("p", { class: "rule" }, a.why) : h("p", { class: "muted" }, "This analysis was graded before the current rule, so its rule is not restated."),
    passages.length
      ? h("ul", { class: "why-cases" }, passages.map((p) => h("li", {},
        p.cases.map((c) => h("div", { class: "why-case" }, h("span", { class: `sev-tag sev-${c.rating}` }, c.rating), " ", c.title,
          passagesOf(c) > 1 ? h("span", { class: "muted" }, ` (one case, stated in ${passagesOf(c)} passages)`) : null)),
        p.finding
          ? (shown.has(p.finding.i)
            ? h("button", { type: "button", class: "quote-link", title: "Show in the text", onclick: () => toText(p.finding.i) }, `“${excerpt(p.finding.quote, 220)}”`)
            : h("q", {}, excerpt(p.finding.quote, 220)))
          : null)))
      : h("p", { class: "muted" }, "No case that moves the grade was found."),
    neutral ? h("p", { class: "muted" }, `${neutral} neutral case${neutral > 1 ? "s" : ""} found too; neutral cases do not move the grade.`) : null,
    confidenceLine(a));
}

function confidenceLine(a) {
  if (!a.confidence && a.coverage == null) return null;
  const parts = [];
  if (a.confidence) parts.push(h("strong", {}, `Confidence: ${a.confidence}`));
  if (a.coverage != null && a.coverage > 0) parts.push(`${Math.round(a.coverage * 100)}% of the text was read as clauses`);
  if (!parts.length) return null;
  const note = { low: "a short text, a document that is neither terms nor a privacy policy, or little of it read as clauses: take the grade as a rough sign.",
    medium: "the grade is a fair summary; read the findings before relying on it.", high: "" }[a.confidence] ?? "";
  return h("p", { class: `confidence confidence-${a.confidence || "unknown"}` }, parts.flatMap((p, i) => (i ? [" · ", p] : [p])), note ? ` — ${note}` : "");
}

const excerpt = (s, n) => (s.length > n ? s.slice(0, n) + "…" : s);

// filters narrows the cards by severity, category and words; a group's
// count says how many it shows of how many.
function filters(findings, cards, groups) {
  // A passage is filed under its worst severity, in the chips as in the
  // groups, so each chip counts the cards of its group.
  const sevBoxes = severities.filter(([s]) => cards.some((c) => c.severity === s)).map(([s, label]) =>
    h("label", { class: `chip sev-${s}` }, h("input", { type: "checkbox", name: "severity", value: s, checked: true, onchange: apply }),
      ` ${label} (${cards.filter((c) => c.severity === s).length})`));
  const cats = [...new Set(findings.map((f) => f.category))].sort();
  const cat = h("select", { id: "filter-category", onchange: apply },
    h("option", { value: "" }, `All categories (${cats.length})`),
    cats.map((c) => h("option", { value: c }, `${catName(c)} (${cards.filter((k) => k.findings.some((f) => f.category === c)).length})`)));
  const search = h("input", { id: "filter-search", type: "search", placeholder: "e.g. arbitration, cookies", oninput: apply, autocomplete: "off" });
  const status = h("p", { class: "filter-status muted", role: "status", "aria-live": "polite" });
  const el = h("div", { class: "filters no-print", role: "search", "aria-label": "Filter findings" },
    h("fieldset", { class: "chips" }, h("legend", {}, "Severity"), sevBoxes),
    h("div", { class: "filter-row" },
      h("div", {}, h("label", { for: "filter-category" }, "Category"), cat),
      h("div", {}, h("label", { for: "filter-search" }, "Search"), search)),
    status);

  function apply() {
    const sevs = new Set(sevBoxes.map((l) => l.firstChild).filter((b) => b.checked).map((b) => b.value));
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let n = 0;
    for (const c of cards) {
      const ok = sevs.has(c.severity) && (!cat.value || c.findings.some((f) => f.category === cat.value)) &&
        words.every((w) => c.words.includes(w));
      c.el.hidden = !ok;
      if (ok) n++;
    }
    const narrowed = n < cards.length;
    for (const g of groups) {
      const visible = [...g.querySelectorAll("article.finding")].filter((e) => !e.hidden).length;
      g.hidden = visible === 0;
      g.count.textContent = visible === g.total ? `(${g.total})` : `(${visible} of ${g.total})`;
      if (narrowed && visible) { g.open = true; showAll(g); } // what was asked for is shown
    }
    status.textContent = narrowed ? `Showing ${n} of ${cards.length} passages.` : "";
  }
  function reset() {
    sevBoxes.forEach((l) => (l.firstChild.checked = true));
    cat.value = "";
    search.value = "";
    apply();
  }
  return { el, reset };
}

// highlight writes the text into doc with every finding's quote marked.
// Quotes may overlap (one sentence can hold two clauses), so the text is cut
// at every start and end, and each piece covered by findings becomes a <mark>
// listing them all (data-findings) in the colour of the worst; a finding's
// highlight is then exactly the marks that list it. Returns the findings shown.
function highlight(doc, chars, findings, open) {
  const cuts = [...new Set([0, chars.length, ...findings.flatMap((f) => [f.start, f.end])])].sort((x, y) => x - y);
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [from, to] = [cuts[k], cuts[k + 1]];
    const text = chars.slice(from, to).join("");
    const over = findings.filter((f) => f.start <= from && to <= f.end).sort((x, y) => rank[x.severity] - rank[y.severity]);
    if (!over.length) {
      doc.append(text);
      continue;
    }
    doc.append(h("mark", { class: `sev-${over[0].severity}`, "data-findings": over.map((f) => f.i).join(" "),
      title: over.map((f) => f.title).join("; "), onclick: () => open(over[0].i) }, text));
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

// exports offers the analysis as JSON (the API's shape), a Markdown report,
// or on paper (the print stylesheet keeps the report and drops the rest).
function exports(a) {
  const base = (a.source.title || a.source.url || "analysis").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").slice(0, 60).toLowerCase() || "analysis";
  return h("div", { class: "exports no-print", role: "group", "aria-label": "Export" },
    h("button", { type: "button", class: "secondary small", onclick: () => download(`${base}.json`, "application/json", JSON.stringify(apiShape(a), null, 2) + "\n") }, "Download JSON"),
    h("button", { type: "button", class: "secondary small", onclick: () => download(`${base}.md`, "text/markdown", markdown(a)) }, "Download Markdown report"),
    h("button", { type: "button", class: "secondary small", onclick: () => { for (const d of document.querySelectorAll(".analysis details")) d.open = true; print(); } }, "Print"));
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// apiShape is the analysis as GET /api/analyze answers it (rest/analysis.go,
// openapi.json): the same keys in the same order, optional ones left out
// when empty as the API leaves them out.
export function apiShape(a) {
  const omit = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const s = a.source;
  return omit({
    id: a.id,
    source: omit({ url: s.url || undefined, title: s.title, documentType: s.documentType, language: s.language, wordCount: s.wordCount, contentHash: s.contentHash }),
    grade: a.grade,
    score: a.score,
    basis: a.basis ?? null,
    why: a.why ?? "",
    cases: (a.cases ?? []).map((c) => omit({ title: c.title, rating: c.rating, category: c.category || undefined })),
    findings: a.findings.map((f) => omit({ category: f.category, severity: f.severity, title: f.title, explanation: f.explanation, guidance: f.guidance,
      quote: f.quote, start: f.start, end: f.end, confidence: f.confidence, case: f.case || undefined })),
    guidance: a.guidance,
    readability: { fleschKincaidGrade: a.readability.fleschKincaidGrade, readingMinutes: a.readability.readingMinutes },
    coverage: a.coverage,
    confidence: a.confidence,
    ai: a.ai ?? null,
    aiError: a.aiError || undefined,
    disclaimer: a.disclaimer,
    createdAt: new Date(a.createdAt).toISOString(),
    text: a.text,
  });
}

// markdown is the report a person can send on: the grade and why, the
// guidance, and every finding with its quote, worst first, one entry per
// passage.
export function markdown(a) {
  const s = a.source;
  const findings = a.findings.map((f, i) => ({ ...f, i }));
  const quote = (q) => q.split("\n").map((l) => `> ${l}`).join("\n");
  const lines = [`# ${s.title || s.url || "Pasted text"}: grade ${a.grade}`, ""];
  if (s.url) lines.push(`Source: <${s.url}>`, "");
  lines.push(`**Grade ${a.grade}**, score ${a.score}/100 · ${s.documentType || "document"} · ${s.wordCount} words · analyzed ${new Date(a.createdAt).toISOString().slice(0, 10)}`, "");
  lines.push("## Why this grade", "");
  if (a.why) lines.push(a.why, "");
  for (const p of whyCases(a, findings)) {
    lines.push(`- ${p.cases.map((c) => `**${c.rating}**: ${c.title}`).join("; ")}`);
    if (p.finding) lines.push("", quote(p.finding.quote).replace(/^/gm, "  "), "");
  }
  if (a.confidence) lines.push("", `Confidence: ${a.confidence}${a.coverage ? ` (${Math.round(a.coverage * 100)}% of the text read as clauses)` : ""}.`);
  lines.push("");
  if (a.guidance.length) lines.push("## What to check", "", ...a.guidance.map((g) => `- ${g}`), "");
  lines.push("## Findings", "");
  const cards = cardsOf(findings);
  for (const [sev, label] of severities) {
    const cs = cards.filter((c) => c.severity === sev);
    if (!cs.length) continue;
    lines.push(`### ${label} (${cs.length})`, "");
    for (const c of cs) {
      lines.push(quote(c.quote), "");
      for (const f of c.findings) lines.push(`- **${f.title}** (${f.severity}, ${catName(f.category)}): ${f.explanation} *What to check:* ${f.guidance}`);
      lines.push("");
    }
  }
  lines.push("---", "", `*${a.disclaimer}*`, "");
  return lines.join("\n");
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
