// The editor's verification (used by editor.js): Verify asks Python for a certificate of the
// level on the board (progress and cancel through the shell), and the read-out draws it:
// the status line, the search's lower bound and whether the minimum is proven, the space
// analysis (wall-aware and Manhattan bounds, the largest free area, narrow points, regions)
// and the seven score terms as a chart. Every figure is Python's.

import { t } from "../i18n.js";
import { el } from "./dom.js";
import { freeAreaFound, issueText } from "./editor-state.js";

// The certificate's status (data-status keeps Python's value) in a designer's words
// (editor.status.<status>), and the score terms in the seed's order (editor.term.<name>).
const STATUSES = ["verified", "out_of_range", "unsolvable", "undetermined"];
const TERMS = ["occupancy", "body_scale", "steps", "blocking", "mechanics", "shuffling", "space"];

const typedBudget = (input) => (input.value.trim() === "" ? null : input.validity.badInput ? input.value : Number(input.value));

/** Ask Python for a certificate of the level on the board, keep it, draw it and say it. */
async function verify(vp) {
  const { ed } = vp;
  const { answer } = ed;
  if (!answer.ok) {
    ed.say(t("editor.verify.fix-first", { issues: answer.issues.map(issueText).join("; ") }), "error");
    return;
  }
  const level = answer.level;
  // Verify keeps what it is given (spec section 5b): the solution of the certificate
  // Python gave for exactly this level goes back with it, so Python may only shorten it.
  const held = ed.certificate();
  const solution = held && held.level_sha256 === answer.sha256 && Array.isArray(held.solution)
    && (held.status === "verified" || held.status === "out_of_range") ? held.solution : null;
  ed.say(t("editor.verify.running"));
  try {
    // null budgets: Python's defaults (the bridge passes arguments by position).
    const { certificate: cert, reason } = await ed.python.verify([level, typedBudget(vp.states), typedBudget(vp.seconds), solution]);
    ed.certificates.set(cert.level_sha256, cert);
    if (cert.level_sha256 === ed.answer.sha256 && cert.score) {
      freeAreaFound(ed, cert.level_sha256, await ed.python.freeArea(level));
    }
    ed.saveDraft(false);
    render(vp);
    ed.redraw();
    const why = reason && cert.status !== "verified";
    ed.say(t(why ? "editor.verify.done-why" : "editor.verify.done", { status: vp.status.textContent, reason }),
      cert.status === "verified" ? "success" : "error");
  } catch (error) {
    ed.refusal(error, t(error.type === "Cancelled" ? "editor.verify.cancelled" : "editor.verify.failed"));
  }
}

function drawChart(vp, score) {
  const { chart } = vp;
  const { contributions, weights, total } = score;
  // The terms in the seed's order, wherever the certificate came from (its keys' order
  // depends on who wrote it).
  const names = [...TERMS.filter((n) => n in contributions),
    ...Object.keys(contributions).filter((n) => !TERMS.includes(n))];
  chart.append(el("p", { "data-testid": "editor-score" }, t("editor.verify.score", { total })), ...(vp.ed.app.snakesPrediction?.({ score }) ?? []));
  for (const name of names) {
    const value = contributions[name];
    const share = total > 0 ? (100 * value) / total : 0;
    const weight = weights[name] || 1;
    chart.append(el("div", { class: "editor-chart-term", role: "listitem", "data-testid": "editor-chart-term",
      "data-term": name, "data-value": String(value), "data-share": share.toFixed(1) },
    el("span", { class: "editor-chart-name" }, TERMS.includes(name) ? t(`editor.term.${name}`) : name),
    el("span", { class: "editor-chart-bar", "aria-hidden": "true" },
      el("span", { style: `width:${Math.max(0, Math.min(100, (100 * value) / weight)).toFixed(1)}%` })),
    el("span", { class: "editor-chart-value" }, `${Number(value).toFixed(1)}/${weight} · ${share.toFixed(0)}%`)));
  }
}

/** The analysis's facts of certificate `cert`: [term, value] pairs. */
function factsOf(ed, cert) {
  const space = cert.score ? cert.score.diagnostics.space : null;
  const facts = [
    [t("editor.fact.lower-bound"), cert.lower_bound ?? t("editor.none")],
    [t("editor.fact.proven"), t(cert.optimal ? "editor.yes" : "editor.no")],
  ];
  if (space) {
    facts.push(
      [t("editor.fact.wall-bound"), t("editor.fact.wall-bound.value", { wall: space.wall_bound, manhattan: space.manhattan_bound })],
      [t("editor.fact.free-area"), t(ed.freeArea && ed.freeArea.sha === cert.level_sha256 ? "editor.fact.free-area.outlined" : "editor.fact.free-area.value",
        { area: space.largest_free_area, free: space.free_cells })],
      [t("editor.fact.narrow"), space.narrow_points.length
        ? t("editor.fact.narrow.value", { count: space.narrow_points.length, load: space.max_narrow_load }) : t("editor.none")],
      [t("editor.fact.regions"), `${space.component_count}, ${space.cycle_rank}`],
    );
  }
  return facts;
}

/** Draw the certificate of the level on the board (or say it has none). */
function render(vp) {
  const { ed, status } = vp;
  const cert = ed.certificate();
  vp.chart.replaceChildren();
  vp.analysis.replaceChildren();
  if (!cert) {
    status.dataset.status = "none";
    delete status.dataset.steps;
    delete status.dataset.optimal;
    status.textContent = ed.answer && ed.answer.ok ? t("editor.verify.not-since-edit") : t("editor.verify.not");
    ed.showSolution(null);
    return;
  }
  status.dataset.status = cert.status;
  status.dataset.steps = cert.steps ?? "";
  status.dataset.optimal = String(Boolean(cert.optimal));
  const steps = cert.steps === null || cert.steps === undefined ? t("editor.verify.steps.none")
    : t(cert.optimal ? "editor.verify.steps.proven" : "editor.verify.steps.unproven", { steps: cert.steps, bound: cert.lower_bound });
  const said = t(STATUSES.includes(cert.status) ? `editor.status.${cert.status}` : "editor.status.none");
  status.textContent = t("editor.verify.status-line", { status: said, steps });
  for (const [term, value] of factsOf(ed, cert)) vp.analysis.append(el("dt", {}, term), el("dd", {}, String(value)));
  if (cert.score) drawChart(vp, cert.score);
  ed.showSolution(Array.isArray(cert.solution) && cert.solution.length ? cert.solution : null);
}

/** The verification panel of the editor `ed`: {element, verify(), render()}. */
export function verifyPanel(ed) {
  const vp = { ed };
  vp.status = el("div", { class: "editor-status", "data-testid": "editor-status", "data-status": "none" }, t("editor.verify.not-yet"));
  vp.analysis = el("dl", { class: "editor-analysis", "data-testid": "editor-analysis" });
  vp.chart = el("div", { class: "editor-chart", "data-testid": "editor-chart", role: "list", "aria-label": t("editor.verify.chart-label") });
  // The search's budget: blank is Python's default; the limits are Python's (facts.verify).
  const states = vp.states = el("input", { type: "number", "data-testid": "editor-verify-states", "aria-label": t("editor.verify.states-label") });
  const seconds = vp.seconds = el("input", { type: "number", step: "any", "data-testid": "editor-verify-seconds", "aria-label": t("editor.verify.seconds-label") });
  const budget = el("div", { class: "editor-row", "data-testid": "editor-verify-budget" },
    el("label", {}, `${t("editor.verify.states")} `, states), el("label", {}, `${t("editor.verify.seconds")} `, seconds));
  // The solver's own figures (its budget, bounds, narrow points) fold under "Advanced": the
  // panel speaks of the level first.
  const advanced = el("details", { class: "editor-advanced", "data-testid": "editor-verify-advanced" },
    el("summary", {}, t("editor.advanced")), budget, vp.analysis);
  const element = el("section", { class: "editor-verify-panel" }, el("h3", {}, t("editor.verify.title")), vp.status, vp.chart, advanced);

  return {
    element,
    verify: () => verify(vp),
    render: () => render(vp),
    /** The budget fields' limits and defaults from Python's facts. */
    limits(facts) {
      const { states: [sMin, sMax, sDefault], seconds: [tMin, tMax, tDefault] } = facts.verify;
      Object.assign(states, { min: String(sMin), max: String(sMax), placeholder: String(sDefault) });
      Object.assign(seconds, { min: String(tMin), max: String(tMax), placeholder: String(tDefault) });
    },
  };
}
