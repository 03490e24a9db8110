// Rewards and items on the mines screen (issue 51; used by mines.js): the items the player
// holds (one button each: a click uses it, or, for an item used on a cell, arms it for the
// next click or `I` on the board), the sparks, the offers between battles, the question New
// run asks while a run is in progress, the seed in a details panel, and the first-time
// lessons of rewards and items. Every number, name and effect comes from Python's view.

import { t } from "../i18n.js";
import { el } from "./dom.js";

/** The item bar: `{element, draw(state), aiming, disarm()}`; `on.use(item)`. */
export function itemBar(on) {
  const sparks = el("span", { class: "chip sparks", "data-testid": "mines-sparks" });
  const list = el("div", { class: "mines-items", role: "group", "aria-label": t("mines.items") });
  const element = el("div", { class: "mines-item-bar" }, sparks, list);
  let aiming = null;  // the item waiting for its cell
  function draw(s) {
    sparks.textContent = t("mines.sparks", { sparks: s.sparks ?? 0 });
    sparks.title = t("mines.sparks-title", { price: (s.items && s.items[0]?.spark_price) || 0 });
    const playing = s.status === "playing";
    if (!playing) aiming = null;
    list.replaceChildren(...(s.items || []).map((item) => {
      const button = el("button", { type: "button", class: "item", "data-testid": "mines-item",
        "data-item": item.id, "data-charges": String(item.charges),
        "aria-pressed": String(aiming === item.id), title: item.effect,
        onclick: () => on.use(item) },
      el("span", { class: `item-icon item-${item.id}`, "aria-hidden": "true" }),
      `${item.name} `, el("span", { class: "charges" }, item.charges > 0 ? `×${item.charges}`
        : t("mines.item.by-sparks", { price: item.spark_price })));
      button.disabled = !item.can_use;
      return button;
    }));
    element.dataset.aiming = aiming || "";
  }
  return {
    element,
    draw,
    get aiming() { return aiming; },
    aim(id) { aiming = aiming === id ? null : id; },
    disarm() { aiming = null; },
  };
}

/** The offers between battles, in the settlement panel: one button each. */
export function offerList(offers, pick) {
  return el("div", { class: "mines-offers", role: "group", "data-testid": "mines-offers",
    "aria-label": t("mines.offers") },
  el("h4", {}, t("mines.offers")),
  ...offers.map((offer) => el("button", { type: "button", class: "offer", "data-testid": "mines-offer",
    "data-offer": offer.id, onclick: () => pick(offer.id) },
  el("strong", {}, offer.name), el("span", { class: "effect" }, offer.effect))));
}

/** The question New run asks while a run is in progress: `{element, open(), close()}`;
 *  `on`: `{confirm(), cancel()}`. Focus goes to Keep playing, the safe answer. */
export function newRunAsk(on) {
  const text = el("p", { id: "mines-new-run-ask-text" });
  const cancel = el("button", { type: "button", class: "primary", "data-testid": "mines-new-run-cancel",
    onclick: () => on.cancel() }, t("mines.new-run-cancel"));
  const confirm = el("button", { type: "button", class: "danger", "data-testid": "mines-new-run-confirm",
    onclick: () => on.confirm() }, t("mines.new-run-confirm"));
  const element = el("div", { class: "mines-stop-ask", role: "alertdialog", hidden: true,
    "data-testid": "mines-new-run-ask", "aria-labelledby": "mines-new-run-ask-text" }, text,
  el("div", { class: "ask-actions" }, confirm, cancel));
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); on.cancel(); }
  });
  return {
    element,
    open(state, words = "mines.new-run-ask") {
      text.textContent = t(words, { battle: state.battle, battles: state.battles });
      element.hidden = false;
      cancel.focus();
    },
    close() { element.hidden = true; },
  };
}

/** The run's seed, in a details panel (not the message line). */
export function seedDetails() {
  const value = el("code", { "data-testid": "mines-run-seed" });
  const element = el("details", { class: "mines-seed-details", "data-testid": "mines-seed-details" },
    el("summary", {}, t("mines.seed-details")), el("p", {}, t("mines.seed-is"), " ", value));
  return { element, draw(s) { value.textContent = String(s.seed); } };
}

// What is taught the first time it shows (the player's store remembers what was taught).
/** @type {[string, (state: any) => boolean][]} */
const LESSONS = [
  ["sparks", (s) => (s.sparks ?? 0) > 0],
  ["items", (s) => s.status === "playing" && (s.items || []).some((i) => i.charges > 0)],
  ["offers", (s) => (s.offers || []).length > 0],
  ["overflow", (s) => (s.last_settlement?.show || []).some((l) => l.cause === "overflow")],
];

/** The lesson to show now, if any is due: its key (marked taught in `store`). */
export function lessonDue(store, state) {
  const taught = store.minesTaught();
  for (const [name, shows] of LESSONS) {
    if (!taught.includes(name) && shows(state)) {
      store.markMinesTaught(name);
      return name;
    }
  }
  return null;
}
