// The snakes win panel: the player's steps against the level's best known solution, in
// words, and the ways on (next level, play again, the map).
import { t } from "../i18n.js";
import { el } from "./dom.js";

/**
 * The win panel of a level: `certificate` (its steps and whether they are proven; null for
 * a draft), `levelNumber` (null for a draft), `onNext` and `onMap` (buttons, absent when
 * null) and `replay()`. Returns `{element, show(steps), hide()}`.
 */
export function winPanel(app, { levelNumber, certificate, onNext, onMap, replay }) {
  const certified = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
  const text = el("p", { "data-testid": "snakes-win-steps" });
  const element = el("div", { class: "snakes-win", "data-testid": "snakes-win", hidden: true,
    role: "dialog", "aria-label": t("snakes.win.title") },
  el("h2", {}, t("snakes.win.title")), text,
  el("div", { class: "win-buttons" },
    onNext ? el("button", { type: "button", class: "primary", "data-testid": "snakes-next", onclick: () => onNext() }, t("snakes.win.next")) : null,
    el("button", { type: "button", "data-testid": "snakes-replay-level", onclick: () => replay() }, t("snakes.win.replay")),
    onMap ? el("button", { type: "button", "data-testid": "snakes-map", onclick: () => onMap() }, t("snakes.win.map")) : null));

  /** The player's steps against the level's best known solution, in words. */
  function bestWords(steps) {
    if (certified === null) return "";
    const params = { best: certified, save: steps - certified };
    const proven = Boolean(certificate.optimal);
    if (steps < certified) return t("snakes.win.shorter", params);
    if (steps === certified) return t(proven ? "snakes.win.fewest" : "snakes.win.matches", params);
    return t(proven ? "snakes.win.can-save" : "snakes.win.best-takes", params);
  }

  return {
    element,
    show(steps) {
      text.textContent = t(steps === 1 ? "snakes.win.solved-one" : "snakes.win.solved",
        { steps, best: bestWords(steps) });
      element.hidden = false;
      app.message(t(levelNumber === null ? "snakes.win.message-draft" : "snakes.win.message",
        { level: levelNumber, steps }), "success");
      const next = element.querySelector('[data-testid="snakes-next"]') ||
        element.querySelector('[data-testid="snakes-replay-level"]');
      next.focus();
    },
    hide() { element.hidden = true; },
  };
}
