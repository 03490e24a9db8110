// The editor's design form (used by editor.js): a template, a target, a tolerance and a
// seed, and, with "recommended size" off, every field of the designer's request (spec
// section 8) by its field path, so that a refusal from Python lands beside the field it
// names. The request goes to Python's designer as written; progress and cancel through the
// shell. Every level designed is kept in the drafts at once (issue 23), the batch is shown at
// a glance (editor-batch.js) with the bytes Python wrote for it, and the first level goes on
// the board, verified, as one step of the edit history. The search's budgets are fields with
// Python's limits (facts), folded under "Advanced"; templates are named in words.

import { has, t } from "../i18n.js";
import { el } from "./dom.js";
import { issueText, issueWords } from "./editor-state.js";

// Each input is one field of the request: [group, group path, [[path, min, max]]]; the
// group's legend is editor.design.group.<group>, a field's label editor.design.field.<path>.
/** @type {[string, string | null, [string, number, number][]][]} */
const FIXED_GROUPS = [
  ["size", "size", [["size.cols", 2, 18], ["size.rows", 2, 24], ["size.cells", 4, 400]]],
  ["bodies", "bodies", [["bodies.count", 1, 16], ["bodies.min_length", 2, 40],
    ["bodies.max_length", 2, 40], ["bodies.total", 2, 350]]],
  ["mechanisms", null, [["colors", 1, 15], ["coats", 0, 48], ["frozen", 0, 16],
    ["frozen_holes", 0, 64], ["locks", 0, 8], ["gold", 0, 8]]],
  ["terrain", null, [["paths", 0, 8], ["bridges", 0, 8]]],
  ["steps", "steps", [["steps.min", 0, 1000000], ["steps.max", 0, 1000000]]],
];
/** A template's name in words (its id stays the option's value). */
export const templateName = (name) => (has(`editor.template.${name}`) ? t(`editor.template.${name}`) : name);
const budgetName = (name) => (has(`editor.design.budget.${name}`) ? t(`editor.design.budget.${name}`) : name.replace("_", " "));

const num = (testid, value, attrs = {}) => el("input", { type: "number", value, "data-testid": testid, ...attrs });
// A blank field goes as null: Python names it (a blank target is never taken as 0).
const value = (input) => (input.value.trim() === "" ? null : Number(input.value));

/** An error slot beside the field of `path`, kept in `df.errors`. */
function slot(df, path) {
  const span = el("span", { class: "editor-field-error", "data-path": path, "data-testid": "editor-field-error" });
  df.errors.set(path, span);
  return span;
}

/** The fields fixed by hand when "auto" is off: one fieldset per group of FIXED_GROUPS. */
function fixedFields(df) {
  const groups = FIXED_GROUPS.map(([group, path, fields]) => el("fieldset", { "data-path": path ?? "" },
    el("legend", {}, t(`editor.design.group.${group}`)), path ? slot(df, path) : null,
    ...fields.map(([fieldPath, min, max]) => {
      const input = num(`editor-design-${fieldPath.replace(".", "-").replace("_", "-")}`, "", { min: String(min), max: String(max), placeholder: t("editor.design.free") });
      df.inputs.set(fieldPath, input);
      return el("label", { class: "editor-field" }, `${t(`editor.design.field.${fieldPath}`)} `, input, slot(df, fieldPath));
    })));
  return el("div", { class: "editor-fixed", "data-testid": "editor-design-fixed", hidden: "" },
    el("p", {}, t("editor.design.fixed-note")), ...groups);
}

/** The design request the form says. */
function request(df) {
  const req = { topology: df.topology.value, target: value(df.target), tolerance: Number(df.tolerance.value),
    seed: Number(df.seed.value), count: value(df.count) ?? 1 };
  const budgets = {};
  for (const [name, input] of df.budgetInputs) if (input.value.trim() !== "") budgets[name] = Number(input.value);
  if (Object.keys(budgets).length) req.budgets = budgets;
  if (df.auto.checked) return req;
  const put = (path, value) => {
    const [head, tail] = path.split(".");
    if (!tail) req[head] = value;
    else req[head] = { ...(req[head] || {}), [tail]: value };
  };
  put("size.auto", false);
  for (const [path, input] of df.inputs) if (input.value.trim() !== "") put(path, Number(input.value));
  return req;
}

/** Keep every level of the designed `batch` as a draft at once, show the batch, and put
 * the first level with its certificate on the board, as an edit. */
async function place(ed, batch, text) {
  const name = (level, cert) => t("editor.design.name", { template: level.meta ? templateName(level.meta.template) : "",
    score: cert.score ? cert.score.total : "" }).replace(/\s+/g, " ").trim();
  const added = ed.drafts.add(batch.levels.map((level, i) => ({ name: name(level, batch.certificates[i]), level,
    certificate: batch.certificates[i] })));
  ed.showBatch({ title: t("editor.design.batch"), request: batch.request, text,
    items: batch.levels.map((level, i) => ({ name: name(level, batch.certificates[i]), level,
      certificate: batch.certificates[i], draftId: added[i] ? added[i].id : null })) });
  const [level, cert, first] = [batch.levels[0], batch.certificates[0], added[0]];
  ed.history.record();
  await ed.open(level, { name: name(level, cert), cert, keepHistory: true, id: first ? first.id : null, rev: first ? first.rev : 0 });
  ed.drafts.render();
}

function refused(df, error) {
  const { progressLine } = df;
  progressLine.dataset.state = "refused";
  progressLine.textContent = "";
  const issues = error.issues || [];
  for (const issue of issues) {
    const span = df.errors.get(issue.path) || (issue.path === "target" ? df.targetError : issue.path === "tolerance" ? df.toleranceError : null);
    if (span) span.textContent = issueWords(issue);
    else df.general.append(el("li", { "data-testid": "editor-design-issue" }, issueText(issue)));
  }
  df.ed.say(t("editor.design.refused", { why: issues.length ? t("editor.design.see-fields") : error.message }), "error");
}

/** The designer made no level: what it tried and why it stopped.
 * @param {any} df @param {import("../types/bridge").DesignedBatch} batch */
function designedNone(df, batch) {
  /** @type {Partial<import("../types/bridge").Shortfall>} */
  const s = batch.report.shortfall || {};
  df.progressLine.dataset.state = "failed";
  df.progressLine.textContent = t("editor.design.none", { candidates: s.candidates ?? t("editor.design.all"),
    stopped: s.stopped_by ?? t("editor.design.budget"), low: s.lowest_score ?? "—", high: s.highest_score ?? "—" });
  df.ed.say(t("editor.design.none-hint"), "error");
}

/** The designer made levels (on the board now): how many, from how many candidates.
 * @param {any} df @param {import("../types/bridge").DesignedBatch} batch */
function designedSome(df, batch) {
  const level = batch.levels[0];
  const cert = batch.certificates[0];
  const tried = ((batch.report && batch.report.levels) || []).reduce((sum, r) => sum + (r.candidates || 0), 0);
  df.progressLine.dataset.state = "done";
  const count = batch.levels.length;
  df.progressLine.textContent = t(count === 1 ? "editor.design.done.one" : "editor.design.done", { tried, count,
    score: cert.score ? cert.score.total : "?", steps: cert.steps, template: level.meta ? templateName(level.meta.template) : "?" });
  df.ed.say(t(count === 1 ? "editor.design.designed.one" : "editor.design.designed", { count }), "success");
}

/** Design the batch the form asks for, its progress said as Python reports it. */
async function design(df) {
  const { ed, progressLine } = df;
  for (const span of df.errors.values()) span.textContent = "";
  df.general.replaceChildren();
  const req = request(df);
  df.cancelled = false;
  df.go.disabled = true;
  df.cancel.disabled = false;
  progressLine.dataset.state = "running";
  progressLine.textContent = t("editor.design.starting");
  let best = null;
  try {
    const { batch, text } = await ed.python.designBatch([req], (p) => {
      // The designer's last report (finished) has the whole budget as its count: the
      // candidates really tried are in the batch's report, said once it is done.
      const figures = p.figures || {};
      if (figures.finished) return;
      if (figures.best !== undefined) best = figures.best;
      progressLine.textContent = t("editor.design.progress", { done: p.done, total: p.total, best: best ?? "—",
        stage: figures.level ? t("editor.design.stage", { level: figures.level, levels: figures.levels })
          : t("editor.design.searching") });
    });
    if (!batch.levels.length) {
      designedNone(df, batch);
      return;
    }
    await place(ed, batch, text);
    designedSome(df, batch);
  } catch (error) {
    if (df.cancelled || error.type === "Cancelled") {
      progressLine.dataset.state = "cancelled";
      progressLine.textContent = t("editor.design.cancelled");
      ed.say(t("editor.design.cancelled-short"));
      return;
    }
    refused(df, error);
  } finally {
    df.go.disabled = false;
    df.cancel.disabled = true;
  }
}

/** The budget fields, with Python's limits and defaults (facts.budgets). */
function limits(df, facts) {
  const { budgetFields } = df;
  budgetFields.replaceChildren(el("legend", {}, t("editor.design.budgets")), slot(df, "budgets"));
  for (const [name, [min, max, fallback]] of Object.entries(facts.budgets || {})) {
    const input = num(`editor-budget-${name.replace("_", "-")}`, "", { min: String(min), max: String(max), placeholder: String(fallback) });
    df.budgetInputs.set(name, input);
    budgetFields.append(el("label", { class: "editor-field" }, `${budgetName(name)} (${min}–${max}) `, input, slot(df, `budgets.${name}`)));
  }
}

/** The design form of the editor `ed`: {element (a <details>), limits(facts)}. */
export function designForm(ed) {
  const df = { ed, budgetInputs: new Map(), errors: new Map(), inputs: new Map(), cancelled: false };
  const topology = df.topology = el("select", { "data-testid": "editor-design-template", "aria-label": t("editor.design.template") });
  df.target = num("editor-design-target", "30", { min: "0", max: "100", step: "any" });
  df.tolerance = num("editor-design-tolerance", "7", { min: "0", max: "100", step: "any" });
  df.seed = num("editor-design-seed", "1", { min: "0" });
  df.count = num("editor-design-count", "1", { min: "1", max: "50" });
  df.budgetFields = el("fieldset", { "data-path": "budgets", "data-testid": "editor-design-budgets" }, el("legend", {}, t("editor.design.budgets")));
  const auto = df.auto = el("input", { type: "checkbox", checked: "", "data-testid": "editor-design-auto" });
  const fixed = fixedFields(df);
  df.progressLine = el("p", { class: "editor-design-progress", "data-testid": "editor-design-progress", "aria-live": "polite" }, "");
  df.general = el("ul", { class: "editor-issues", "data-testid": "editor-design-issues" });
  df.go = el("button", { type: "button", class: "primary", "data-testid": "editor-design-go" }, t("editor.design.go"));
  df.cancel = el("button", { type: "button", "data-testid": "editor-design-cancel", disabled: "" }, t("shell.cancel"));
  df.targetError = slot(df, "target");
  df.toleranceError = slot(df, "tolerance");
  auto.addEventListener("change", () => { fixed.hidden = auto.checked; });
  df.go.addEventListener("click", () => design(df));
  df.cancel.addEventListener("click", () => { df.cancelled = true; ed.app.cancel(); });

  ed.python.topologies().then((names) => {
    topology.replaceChildren(...names.map((name) => el("option", { value: name }, templateName(name))));
  }, () => {});
  const element = el("details", { class: "editor-design", "data-testid": "editor-design" },
    el("summary", {}, t("editor.design.title")),
    el("div", { class: "editor-row" },
      el("label", {}, `${t("editor.design.template")} `, topology),
      el("label", {}, `${t("editor.design.target")} `, df.target, df.targetError),
      el("label", {}, "± ", df.tolerance, df.toleranceError),
      el("label", {}, `${t("editor.design.seed")} `, df.seed),
      el("label", {}, `${t("editor.design.count")} `, df.count, slot(df, "count"))),
    el("label", { class: "editor-switch" }, auto, ` ${t("editor.design.auto")}`),
    fixed, el("details", { class: "editor-advanced", "data-testid": "editor-design-advanced" },
      el("summary", {}, t("editor.advanced")), df.budgetFields),
    el("div", { class: "editor-row" }, df.go, df.cancel), df.progressLine, df.general);
  return { element, limits: (facts) => limits(df, facts) };
}
