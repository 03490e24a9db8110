// The snakes win panel: the stars (Python counts them against the certificate's steps, the
// par), the player's steps against the level's best known solution in words, and the ways
// on (next level, play again, the map). It appears in place over the board (no layout
// moves under a finger) and its first button takes the focus without scrolling, so Next
// works at the first tap whenever the panel is shown.
import { t } from "../i18n.js";
import { reducedMotion } from "../motion.js";
import { el } from "./dom.js";

const SPARKS = 18;  // the celebration's pieces

/**
 * The win's small celebration (issue 52): sparks in the level's star colours bursting from
 * the stars and falling away, removed when the last one lands. None under reduced motion.
 * Its sound is the "won" cue (feedback.js), silent when sound is off.
 */
function celebrate(panel) {
  panel.querySelector(".win-celebrate")?.remove();
  if (reducedMotion()) return;
  const burst = el("div", { class: "win-celebrate", "data-testid": "snakes-celebrate", "aria-hidden": "true" });
  for (let k = 0; k < SPARKS; k++) {
    // A fixed fan of directions (no randomness: the same win looks the same).
    const angle = (k / SPARKS) * 2 * Math.PI;
    const reach = 70 + (k % 3) * 28;
    const spark = el("span", { class: "win-spark" });
    spark.style.setProperty("--dx", `${(Math.cos(angle) * reach).toFixed(1)}px`);
    spark.style.setProperty("--dy", `${(Math.sin(angle) * reach * 0.8 - 20).toFixed(1)}px`);
    spark.style.setProperty("--k", String(k % 4));
    burst.append(spark);
  }
  let landed = 0;
  burst.addEventListener("animationend", () => { if (++landed === SPARKS) burst.remove(); });
  panel.prepend(burst);
}

/**
 * A button that acts at the first tap. A finger's tap just after a quick flick (the drag
 * that won the level) can reach Chrome while the flick still counts as a fling: the browser
 * then takes the tap as the fling's stop and sends no click. So a touch or a pen acts on its
 * own pointerup over the button it pressed; the click that may follow is not acted on twice.
 * The mouse and the keyboard act on click as ever.
 */
function tapButton(attrs, label, action) {
  let pressed = null;     // the touch or pen pressing the button
  let tapped = -Infinity; // when a touch last acted (its own click, if any, comes soon after)
  const button = el("button", { type: "button", ...attrs }, label);
  button.addEventListener("pointerdown", (event) => {
    pressed = event.pointerType === "mouse" ? null : event.pointerId;
  });
  button.addEventListener("pointerup", (event) => {
    if (event.pointerId !== pressed) return;
    pressed = null;
    // A finger that slid off the button before lifting (touch keeps the pointer captured
    // on the button) does not press it.
    const box = button.getBoundingClientRect();
    if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top ||
        event.clientY > box.bottom) return;
    tapped = event.timeStamp;
    action();
  });
  button.addEventListener("pointercancel", () => { pressed = null; });
  button.addEventListener("click", (event) => {
    if (event.timeStamp - tapped < 1000) return;
    action();
  });
  return button;
}

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
    onNext ? tapButton({ class: "primary", "data-testid": "snakes-next" }, t("snakes.win.next"), onNext) : null,
    tapButton({ "data-testid": "snakes-replay-level" }, t("snakes.win.replay"), replay),
    onMap ? tapButton({ "data-testid": "snakes-map" }, t("snakes.win.map"), onMap) : null));

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
      celebrate(element);
      app.message(t(levelNumber === null ? "snakes.win.message-draft" : "snakes.win.message",
        { level: levelNumber, steps }), "success");
      const next = element.querySelector('[data-testid="snakes-next"]') ||
        element.querySelector('[data-testid="snakes-replay-level"]');
      next.focus({ preventScroll: true });
    },
    hide() {
      element.hidden = true;
      element.querySelector(".win-celebrate")?.remove();
    },
  };
}
