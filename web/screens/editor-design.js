// The editor's design form (used by editor.js): a template, a target, a tolerance and a
// seed, and, with "recommended size" off, every field of the designer's request (spec
// section 8) by its field path, so that a refusal from Python lands beside the field it
// names. The request goes to Python's designer as written; progress and cancel through the
// shell. Every level designed is kept in the drafts at once (issue 23), the batch is shown at
// a glance (editor-batch.js) with the bytes Python wrote for it, and the first level goes on
// the board, verified, as one step of the edit history. The budgets are fields with Python's
// limits (facts).

import { el } from "./dom.js";
import { issueText, issueWords } from "./editor-state.js";

// Each input is one field of the request: [legend, group path, [[path, label, min, max]]].
const FIXED_GROUPS = [
  ["Size", "size", [["size.cols", "Columns", 2, 18], ["size.rows", "Rows", 2, 24],
    ["size.cells", "Effective cells", 4, 400]]],
  ["Bodies", "bodies", [["bodies.count", "Bodies", 1, 16], ["bodies.min_length", "Shortest", 2, 40],
    ["bodies.max_length", "Longest", 2, 40], ["bodies.total", "Total cells", 2, 350]]],
  ["Colours and mechanisms", null, [["colors", "Outer colours", 1, 15], ["coats", "Coats", 0, 48],
    ["frozen", "Frozen bodies", 0, 16], ["frozen_holes", "Frozen holes", 0, 64],
    ["locks", "Locks", 0, 8], ["gold", "of which gold", 0, 8]]],
  ["Steps", "steps", [["steps.min", "Fewest steps", 0, 1000000], ["steps.max", "Most steps", 0, 1000000]]],
];

/** The design form of the editor `ed`: {element (a <details>), limits(facts)}. */
export function designForm(ed) {
  const topology = el("select", { "data-testid": "editor-design-template", "aria-label": "Template" });
  const num = (testid, value, attrs = {}) => el("input", { type: "number", value, "data-testid": testid, ...attrs });
  const target = num("editor-design-target", "30", { min: "0", max: "100", step: "any" });
  const tolerance = num("editor-design-tolerance", "7", { min: "0", max: "100", step: "any" });
  const seed = num("editor-design-seed", "1", { min: "0" });
  const count = num("editor-design-count", "1", { min: "1", max: "50" });
  const budgetInputs = new Map();
  const budgetFields = el("fieldset", { "data-path": "budgets", "data-testid": "editor-design-budgets" }, el("legend", {}, "Budgets"));
  const auto = el("input", { type: "checkbox", checked: "", "data-testid": "editor-design-auto" });
  const errors = new Map();
  const slot = (path) => {
    const span = el("span", { class: "editor-field-error", "data-path": path, "data-testid": "editor-field-error" });
    errors.set(path, span);
    return span;
  };
  const inputs = new Map();
  const groups = FIXED_GROUPS.map(([legend, path, fields]) => el("fieldset", { "data-path": path ?? "" },
    el("legend", {}, legend), path ? slot(path) : null,
    ...fields.map(([fieldPath, label, min, max]) => {
      const input = num(`editor-design-${fieldPath.replace(".", "-").replace("_", "-")}`, "", { min: String(min), max: String(max), placeholder: "free" });
      inputs.set(fieldPath, input);
      return el("label", { class: "editor-field" }, `${label} `, input, slot(fieldPath));
    })));
  const fixed = el("div", { class: "editor-fixed", "data-testid": "editor-design-fixed", hidden: "" },
    el("p", {}, "Every field you fill is fixed: the designer never relaxes it."), ...groups);
  const progressLine = el("p", { class: "editor-design-progress", "data-testid": "editor-design-progress", "aria-live": "polite" }, "");
  const general = el("ul", { class: "editor-issues", "data-testid": "editor-design-issues" });
  const go = el("button", { type: "button", class: "primary", "data-testid": "editor-design-go" }, "Design");
  const cancel = el("button", { type: "button", "data-testid": "editor-design-cancel", disabled: "" }, "Cancel");
  const targetError = slot("target");
  const toleranceError = slot("tolerance");
  let cancelled = false;
  auto.addEventListener("change", () => { fixed.hidden = auto.checked; });

  // A blank field goes as null: Python names it (a blank target is never taken as 0).
  const value = (input) => (input.value.trim() === "" ? null : Number(input.value));

  function request() {
    const req = { topology: topology.value, target: value(target), tolerance: Number(tolerance.value),
      seed: Number(seed.value), count: value(count) ?? 1 };
    const budgets = {};
    for (const [name, input] of budgetInputs) if (input.value.trim() !== "") budgets[name] = Number(input.value);
    if (Object.keys(budgets).length) req.budgets = budgets;
    if (auto.checked) return req;
    const put = (path, value) => {
      const [head, tail] = path.split(".");
      if (!tail) req[head] = value;
      else req[head] = { ...(req[head] || {}), [tail]: value };
    };
    put("size.auto", false);
    for (const [path, input] of inputs) if (input.value.trim() !== "") put(path, Number(input.value));
    return req;
  }

  /** Keep every level of the designed `batch` as a draft at once, show the batch, and put
   * the first level with its certificate on the board, as an edit. */
  async function place(batch, text) {
    const name = (level, cert) => `Designed ${level.meta ? level.meta.template : ""} ${cert.score ? cert.score.total : ""}`.trim();
    const added = ed.drafts.add(batch.levels.map((level, i) => ({ name: name(level, batch.certificates[i]), level,
      certificate: batch.certificates[i] })));
    ed.showBatch({ title: "Designed", request: batch.request, text,
      items: batch.levels.map((level, i) => ({ name: name(level, batch.certificates[i]), level,
        certificate: batch.certificates[i], draftId: added[i] ? added[i].id : null })) });
    const [level, cert, first] = [batch.levels[0], batch.certificates[0], added[0]];
    ed.history.record();
    await ed.open(level, { name: name(level, cert), cert, keepHistory: true, id: first ? first.id : null, rev: first ? first.rev : 0 });
    ed.drafts.render();
  }

  function refused(error) {
    progressLine.dataset.state = "refused";
    progressLine.textContent = "";
    const issues = error.issues || [];
    for (const issue of issues) {
      const span = errors.get(issue.path) || (issue.path === "target" ? targetError : issue.path === "tolerance" ? toleranceError : null);
      if (span) span.textContent = issueWords(issue);
      else general.append(el("li", { "data-testid": "editor-design-issue" }, issueText(issue)));
    }
    ed.say(`The request was refused: ${issues.length ? "see the marked fields" : error.message}`, "error");
  }

  go.addEventListener("click", async () => {
    for (const span of errors.values()) span.textContent = "";
    general.replaceChildren();
    const req = request();
    cancelled = false;
    go.disabled = true;
    cancel.disabled = false;
    progressLine.dataset.state = "running";
    progressLine.textContent = "Stage: starting…";
    let best = null;
    try {
      const { batch, text } = await ed.python.designBatch([req], (p) => {
        // The designer's last report says "done" with the whole budget as its count: the
        // candidates really tried are in the batch's report, said once it is done.
        if (p.label === "done") return;
        const found = /best(?: score)?\s*([\d.]+)/i.exec(p.label || "");
        if (found) best = found[1];
        if (p.best !== undefined && p.best !== null) best = p.best;
        progressLine.textContent = `Candidates ${p.done} of ${p.total} · best score so far ${best ?? "—"} · stage: ${p.label || "searching"}`;
      });
      if (!batch.levels.length) {
        const s = batch.report.shortfall || {};
        progressLine.dataset.state = "failed";
        progressLine.textContent = `No level within the budget after ${s.candidates ?? "all"} candidates (stopped by ${s.stopped_by ?? "budget"}; scores seen ${s.lowest_score ?? "—"}..${s.highest_score ?? "—"}).`;
        ed.say("The designer found no level inside the request: loosen a fixed field or the tolerance.", "error");
        return;
      }
      const level = batch.levels[0];
      const cert = batch.certificates[0];
      await place(batch, text);
      const tried = ((batch.report && batch.report.levels) || []).reduce((sum, r) => sum + (r.candidates || 0), 0);
      progressLine.dataset.state = "done";
      progressLine.textContent = `Done after ${tried} candidates: ${batch.levels.length} level${batch.levels.length > 1 ? "s" : ""}; the first scores ${cert.score ? cert.score.total : "?"}, ${cert.steps} steps, template ${level.meta ? level.meta.template : "?"}.`;
      ed.say(`Designed ${batch.levels.length} level${batch.levels.length > 1 ? "s" : ""}: kept in the drafts; the first is on the board, verified.`, "success");
    } catch (error) {
      if (cancelled || error.type === "Cancelled") {
        progressLine.dataset.state = "cancelled";
        progressLine.textContent = "Design cancelled: the board is as it was.";
        ed.say("Design cancelled.");
        return;
      }
      refused(error);
    } finally {
      go.disabled = false;
      cancel.disabled = true;
    }
  });
  cancel.addEventListener("click", () => { cancelled = true; ed.app.cancel(); });

  /** The budget fields, with Python's limits and defaults (facts.budgets). */
  function limits(facts) {
    budgetFields.replaceChildren(el("legend", {}, "Budgets"), slot("budgets"));
    for (const [name, [min, max, fallback]] of Object.entries(facts.budgets || {})) {
      const input = num(`editor-budget-${name.replace("_", "-")}`, "", { min: String(min), max: String(max), placeholder: String(fallback) });
      budgetInputs.set(name, input);
      budgetFields.append(el("label", { class: "editor-field" }, `${name.replace("_", " ")} (${min}–${max}) `, input, slot(`budgets.${name}`)));
    }
  }

  ed.python.topologies().then((names) => {
    topology.replaceChildren(...names.map((name) => el("option", { value: name }, name)));
  }, () => {});
  const element = el("details", { class: "editor-design", "data-testid": "editor-design" },
    el("summary", {}, "Design levels"),
    el("div", { class: "editor-row" },
      el("label", {}, "Template ", topology),
      el("label", {}, "Target ", target, targetError),
      el("label", {}, "± ", tolerance, toleranceError),
      el("label", {}, "Seed ", seed),
      el("label", {}, "Levels ", count, slot("count"))),
    el("label", { class: "editor-switch" }, auto, " Recommended size (off: fix every parameter below)"),
    fixed, budgetFields, el("div", { class: "editor-row" }, go, cancel), progressLine, general);
  return { element, limits };
}
