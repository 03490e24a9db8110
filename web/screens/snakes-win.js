// The snakes win panel: the stars (Python counts them against the certificate's steps, the
// par), the player's steps against the level's best known solution in words, and the ways
// on (next level, play again, the map). It appears in place over the board (no layout
// moves under a finger) and its first button takes the focus without scrolling, so Next
// works at the first tap whenever the panel is shown.
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
  const starBox = el("div", { class: "win-stars", "data-testid": "snakes-stars", role: "img" });
  if (certified !== null) {
    starBox.dataset.par = String(certified);
    starBox.dataset.parProven = certificate.optimal ? "true" : "false";
  }
  const parWords = el("p", { class: "win-par", "data-testid": "snakes-stars-par" },
    certified === null ? "" : t(certificate.optimal ? "snakes.stars.par-proven" : "snakes.stars.par", { par: certified }));
  const element = el("div", { class: "snakes-win", "data-testid": "snakes-win", hidden: true,
    role: "dialog", "aria-label": t("snakes.win.title") },
  el("h2", {}, t("snakes.win.title")), starBox, text, parWords,
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
    /** Show the panel for a win in `steps` worth `stars` (1..3, Python's count). */
    show(steps, stars = 1) {
      starBox.dataset.stars = String(stars);
      starBox.setAttribute("aria-label", t("snakes.stars.label", { stars }));
      starBox.replaceChildren(...[1, 2, 3].map((k) => el("span", {
        class: `win-star${k <= stars ? " on" : ""}`, style: `--k: ${k}`, "aria-hidden": "true" }, "★")));
      text.textContent = t(steps === 1 ? "snakes.win.solved-one" : "snakes.win.solved",
        { steps, best: bestWords(steps) });
      element.hidden = false;
      app.message(t(levelNumber === null ? "snakes.win.message-draft" : "snakes.win.message",
        { level: levelNumber, steps }), "success");
      const next = element.querySelector('[data-testid="snakes-next"]') ||
        element.querySelector('[data-testid="snakes-replay-level"]');
      next.focus({ preventScroll: true });
    },
    hide() { element.hidden = true; },
  };
}
