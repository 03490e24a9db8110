// What each action did, told two ways once the board shows it (issue 22): a line in the
// board's polite live region (data-testid "app-live", for screen readers; visually hidden)
// and a cue for the page's sounds and vibrations (feel.js). Both are read off Python's
// answer: the snakes step answer's `events` and `refused`, the mines answer's events
// (channels dig and chain, kind mine, round_end), outcomes, messages and settlement, and
// for mines what Python's offer said the click would do (dig, move, flag...). Nothing here
// works out a rule; the words come from announce-words.js.

import { words } from "../announce-words.js";
import { el } from "./dom.js";

export const LIVE_LINES = 5;  // lines a live region keeps (the newest last)

/** A board's feedback: `{element, report({lines, cues})}`; put `element` beside the board. */
export function boardFeedback(app) {
  const element = el("div", { class: "visually-hidden", "data-testid": "app-live",
    role: "log", "aria-live": "polite", "aria-label": words("live.label") });
  return {
    element,
    /** Say `lines` (newest last, at most LIVE_LINES kept) and play `cues` ([kind, size]). */
    report({ lines = [], cues = [] }) {
      for (const text of lines) element.append(el("p", {}, text));
      while (element.childElementCount > LIVE_LINES) element.firstElementChild.remove();
      for (const [kind, size] of cues) app.feel.cue(kind, { size });
    },
  };
}

const colourOf = (index) => words(Number.isInteger(index) && index >= 0 && index < 15
  ? `colour.${index}` : "colour.other");

/**
 * Snakes: what `answer` (a step, undo, redo or restart answer of gridforge.snakes.page)
 * did; `verb` is the call ("step", "undo", "redo", "restart").
 */
export function snakesReport(answer, verb) {
  const steps = words("snakes.steps", { count: answer.step_count });
  if (answer.refused) {
    return { lines: [words("snakes.refused", { why: answer.refused.message })], cues: [] };
  }
  if (verb === "undo") return { lines: [words("snakes.undo", { steps })], cues: [] };
  if (verb === "restart") return { lines: [words("snakes.restart", { steps })], cues: [] };
  const lines = [];
  const cues = [];
  const bodies = answer.view.bodies;
  for (const event of answer.events || []) {
    if (event.type === "step") {
      lines.push(words("snakes.step", { colour: colourOf(event.color), end: words(`end.${event.end}`),
        direction: words(`direction.${event.direction}`), steps }));
      cues.push(["step"]);
    } else if (event.type === "exit") {
      lines.push(event.layers_left === 0
        ? words("snakes.exitLast", { colour: colourOf(event.color) })
        : words("snakes.exit", { colour: colourOf(event.color), count: event.layers_left }));
      cues.push(["exit"]);
    } else if (event.type === "thaw") {
      lines.push(event.hole !== undefined
        ? words("snakes.thawHole", { colour: colourOf(event.color) })
        : words("snakes.thawBody", { colour: colourOf(bodies[event.body].color) }));
      cues.push(["thaw"]);
    } else if (event.type === "unlock") {
      lines.push(words("snakes.unlock", { metal: words(`metal.${event.metal}`),
        colour: colourOf(bodies[event.body].color) }));
      cues.push(["unlock"]);
    } else if (event.type === "won") {
      lines.push(words("snakes.won", { steps }));
      cues.push(["won"]);
    }
  }
  return { lines, cues };
}

/** Snakes: the end the keyboard picked (N or P), `focus` "b:head" or "b:tail" of `view`. */
export function focusReport(view, focus) {
  if (!focus) return {};
  const [body, end] = focus.split(":");
  return { lines: [words("snakes.focus", { colour: colourOf(view.bodies[Number(body)].color),
    end: words(`end.${end}`) })] };
}

/**
 * Mines: what `answer` (an answer of gridforge.mines.page's primary, secondary or act) did;
 * `did` is what Python's offer said the input would do: "dig", "reach", "move",
 * "flag_place", "flag_pull" or "stop" (null when the offer had nothing there).
 */
export function minesReport(answer, did) {
  const lines = [];
  const cues = [];
  const outcomes = answer.outcomes || [];
  if (outcomes.some((o) => o.outcome !== "executed")) {
    for (const message of answer.messages || []) {
      if (message.kind === "error" && message.text !== answer.settlement?.title) {
        lines.push(words("mines.refused", { why: message.text }));
      }
    }
  }
  const events = answer.events || [];
  const dug = events.find((e) => e.type === "cell_revealed" && e.channel === "dig");
  const chain = events.filter((e) => e.type === "cell_revealed" && e.channel === "chain").length;
  const executed = outcomes.length > 0 && outcomes.every((o) => o.outcome === "executed");
  if (dug && dug.kind === "mine") {
    lines.push(words("mines.digMine"));
    cues.push(["mine"]);
  } else if (dug) {
    lines.push(dug.digit === undefined ? words("mines.digFog")
      : dug.digit === 0 ? words("mines.digNone") : words("mines.dig", { count: dug.digit }));
    cues.push(["dig"]);
  } else if (executed && did === "move") {
    lines.push(words("mines.move"));
  } else if (executed && (did === "flag_place" || did === "flag_pull")) {
    lines.push(words(did === "flag_place" ? "mines.flag" : "mines.unflag"));
    cues.push(["flag"]);
  } else if (executed && did === "stop") {
    lines.push(words("mines.stop"));
  }
  if (chain > 0) {
    lines.push(words("mines.chain", { count: chain }));
    cues.push(["chain", chain]);
  }
  if (events.some((e) => e.type === "round_end")) cues.push(["round_end"]);
  if (answer.settlement) lines.push(words("mines.roundEnd", { title: answer.settlement.title }));
  return { lines, cues };
}
