// The battle on the mines screen (used by mines.js): the player's figure and the enemy's,
// each with an HP bar. A bar draws Python's numbers (state.enemy / state.player): the HP
// left, the damage the round so far will settle (`pending`, striped) and, on the player's,
// the enemy's strike to come (`strike`, hatched). When a round is settled the HP lost
// drains away and the damage floats up from the bar (the settlement's own figures); a hit
// that adds pending damage makes the bar and the figure flinch. The animations are brief,
// never hold input back and are skipped under reduced motion (motion.js).

import { drawEnemy } from "./mines-enemies.js";
import { t } from "../i18n.js";
import { el, svg } from "./dom.js";

/** The avatar: a small miner with a helmet and a pickaxe (the board draws it too). */
export function avatarFigure(extra = "") {
  const icon = svg("svg", { viewBox: "0 0 24 32", class: `figure avatar-figure ${extra}`.trim(),
    "aria-hidden": "true", "data-testid": "mines-avatar" });
  const parts = [
    ["path", { d: "M16.6 10.5 L20.8 28", stroke: "#6e4520", "stroke-width": "1.9", "stroke-linecap": "round" }],
    ["path", { d: "M12.6 12.2 Q16.4 7.2 21.8 9.4", fill: "none", stroke: "#56606b", "stroke-width": "2.2",
      "stroke-linecap": "round" }],
    ["rect", { x: "7.6", y: "22", width: "3.4", height: "8.6", rx: "1.5", fill: "#3b2a1a" }],
    ["rect", { x: "13", y: "22", width: "3.4", height: "8.6", rx: "1.5", fill: "#3b2a1a" }],
    ["path", { d: "M6 23.5 L7.6 14 Q12 11.6 16.4 14 L18 23.5 Z", fill: "#e07b00", stroke: "#5a2f00",
      "stroke-width": "1" }],
    ["path", { d: "M15.6 15.6 L18.6 19.6", stroke: "#e07b00", "stroke-width": "2.6", "stroke-linecap": "round" }],
    ["circle", { cx: "12", cy: "8.6", r: "4.3", fill: "#f2c9a0", stroke: "#5a2f00", "stroke-width": "1" }],
    ["path", { d: "M7.4 8.2 A4.6 4.6 0 0 1 16.6 8.2 Z", fill: "#f5c518", stroke: "#5a2f00", "stroke-width": "1" }],
    ["circle", { cx: "12", cy: "5.5", r: "1.2", fill: "#fff7c0", stroke: "#5a2f00", "stroke-width": ".6" }],
  ];
  for (const [tag, attrs] of parts) icon.append(svg(tag, attrs));
  return icon;
}

/** The enemy: a horned creature of the deep (one figure for every enemy; its name says who). */
function enemyFigure() {
  const icon = svg("svg", { viewBox: "0 0 32 32", class: "figure enemy-figure", "aria-hidden": "true",
    "data-testid": "mines-enemy-figure" });
  const parts = [
    ["path", { d: "M8 11 L5 3 L12 8 Z M24 11 L27 3 L20 8 Z", fill: "#e9dcc3", stroke: "#2d1b3d", "stroke-width": "1" }],
    ["path", { d: "M4 29 Q3 9 16 7.5 Q29 9 28 29 Q22 26.5 16 29 Q10 26.5 4 29 Z", fill: "#6b3fa0",
      stroke: "#2d1b3d", "stroke-width": "1.2" }],
    ["ellipse", { cx: "11.5", cy: "16", rx: "3", ry: "3.4", fill: "#fff" }],
    ["ellipse", { cx: "20.5", cy: "16", rx: "3", ry: "3.4", fill: "#fff" }],
    ["circle", { cx: "12.3", cy: "16.8", r: "1.5", fill: "#c81e1e" }],
    ["circle", { cx: "19.7", cy: "16.8", r: "1.5", fill: "#c81e1e" }],
    ["path", { d: "M10 22.5 Q16 26 22 22.5 L20.5 24.6 L19 23.4 L17.5 25 L16 23.6 L14.5 25 L13 23.4 L11.5 24.6 Z",
      fill: "#fff", stroke: "#2d1b3d", "stroke-width": ".7" }],
  ];
  for (const [tag, attrs] of parts) icon.append(svg(tag, attrs));
  return icon;
}

const percent = (value, max) => `${max > 0 ? (100 * Math.max(0, value)) / max : 0}%`;

/** One HP bar: `{element, draw(side), settle(before, after, damage, motion)}`. */
function hpBar(testid, label, withStrike) {
  const fill = el("div", { class: "hp-fill" });
  const pending = el("div", { class: "hp-pending", title: t("mines.hp.pending-title") });
  const strike = withStrike
    ? el("div", { class: "hp-strike", title: t("mines.hp.strike-title") }) : null;
  const loss = el("div", { class: "hp-loss" });
  const float = el("div", { class: "hp-float", "aria-hidden": "true" });
  const element = el("div", { class: "hp-bar", "data-testid": testid, role: "meter",
    "aria-label": label, "aria-valuemin": "0" }, fill, strike, pending, loss, float);
  let drawn = null;  // the last figures drawn: a new hit flinches the bar

  function draw(side) {
    const { hp, max_hp: max } = side;
    const due = side.pending || 0;
    const coming = side.strike || 0;
    element.dataset.hp = String(hp);
    element.dataset.max = String(max);
    element.dataset.pending = String(due);
    element.setAttribute("aria-valuemax", String(max));
    element.setAttribute("aria-valuenow", String(hp));
    element.setAttribute("aria-valuetext", t("mines.hp.value", { hp, max }) +
      (due ? t("mines.hp.due", { due }) : "") + (coming ? t("mines.hp.strike", { coming }) : ""));
    fill.style.width = percent(hp, max);
    pending.style.left = percent(hp - due, max);
    pending.style.width = percent(due, max);
    pending.hidden = due === 0;
    if (strike) {
      element.dataset.strike = String(coming);
      strike.style.left = percent(hp - due - coming, max);
      strike.style.width = percent(coming, max);
      strike.hidden = coming === 0;
    }
    const hit = drawn !== null && drawn.hp === hp && due > drawn.due;
    drawn = { hp, due };
    return hit;
  }

  /** The settled damage: the HP lost drains away and the damage floats up. */
  function settle(before, after, max, damage, motion) {
    element.dataset.settled = String(damage);
    if (!motion || damage <= 0) return false;
    loss.style.left = percent(after, max);
    loss.style.width = percent(before - after, max);
    float.textContent = `−${damage}`;
    restart(loss, "draining");
    restart(float, "rising");
    return true;
  }

  /** Words floated up from the bar (a strike's damage). */
  function floatUp(words) {
    float.textContent = words;
    restart(float, "rising");
  }

  return { element, draw, settle, pending, float: floatUp };
}

/** Restart a CSS animation named by `name` on `node` (removed again when it ends). */
function restart(node, name) {
  node.classList.remove(name);
  node.getBoundingClientRect();  // a style flush: the animation starts again
  node.classList.add(name);
}

/**
 * The battle bar: `{element, draw(state, motion), settle(settlement, state, motion)}`;
 * `term(word, name)` makes a term's explaining button (mines-panels.js).
 */
export function fightBar(term) {
  const player = hpBar("mines-player-hp", t("mines.hp.you"), true);
  const enemy = hpBar("mines-enemy-hp", t("mines.hp.enemy"), false);
  const playerFigure = avatarFigure("portrait");
  const foe = enemyFigure();
  const playerLabel = el("span", { class: "fighter-label", "data-testid": "mines-player" });
  const enemyLabel = el("span", { class: "fighter-label", "data-testid": "mines-enemy" });
  const battle = el("span", { class: "fight-battle", "data-testid": "mines-battle" });
  const element = el("div", { class: "mines-fight", "data-testid": "mines-fight" },
    battle,
    el("div", { class: "fighter you", "data-testid": "mines-fighter-player" },
      el("div", { class: "figure-box" }, playerFigure), playerLabel, player.element),
    el("div", { class: "fighter foe", "data-testid": "mines-fighter-enemy" },
      el("div", { class: "figure-box" }, foe), enemyLabel, enemy.element));
  for (const node of [...element.querySelectorAll(".figure, .hp-pending, .hp-loss, .hp-float"), enemyLabel]) {
    node.addEventListener("animationend", (event) => {
      if (event.target === node) node.classList.remove("flinch", "pulse", "draining", "rising", "lunge");
    });
  }

  function labels(e, p, attack) {
    playerLabel.replaceChildren(t("mines.you-hp", { hp: p.hp, max: p.max_hp }), term(t("mines.word.hp"), "HP"));
    enemyLabel.replaceChildren(`${e.name} ${e.hp}/${e.max_hp} `, term(t("mines.word.hp"), "HP"),
      " · ", term(t("mines.word.attack"), "attack"), " ", el("span", { class: "attack-value",
        "data-testid": "mines-enemy-attack" }, String(attack)));
  }

  function draw(state, motion) {
    const e = state.enemy;
    const p = state.player;
    battle.textContent = t("mines.battle", { battle: state.battle, battles: state.battles });
    drawEnemy(foe, e.id || "");
    labels(e, p, e.attack);
    const enemyHit = enemy.draw(e);
    const playerHit = player.draw(p);
    if (!motion) return;
    if (enemyHit) { restart(enemy.pending, "pulse"); restart(foe, "flinch"); }
    if (playerHit) { restart(player.pending, "pulse"); restart(playerFigure, "flinch"); }
  }

  /** A round's settlement (Python's figures) drawn on the bars once the state is drawn. */
  function settle(result, state, motion) {
    if (enemy.settle(result.enemy_hp_before, result.enemy_hp, state.enemy.max_hp,
      result.enemy_damage, motion)) restart(foe, "flinch");
    if (player.settle(result.player_hp_before, result.player_hp, state.player.max_hp,
      result.player_damage, motion)) restart(playerFigure, "flinch");
  }

  /** One step of a round's end played out (mines-sequence.js): both sides as Python's
   *  settlement line says they stand after it, and who was hit (`"enemy"`, `"player"`,
   *  `"weaken"`) with the words floated over that side. */
  function stage(state, step, hit, words) {
    const e = { ...state.enemy, hp: step.enemy_hp_after, pending: 0 };
    const p = { ...state.player, hp: step.player_hp_after, pending: 0, strike: 0 };
    labels(e, p, step.attack_after);
    enemy.draw(e);
    player.draw(p);
    if (hit === "enemy") { enemy.float(words); restart(foe, "flinch"); }
    else if (hit === "player") { player.float(words); restart(playerFigure, "flinch"); restart(foe, "lunge"); }
    else if (hit === "weaken") { enemy.float(words); restart(enemyLabel, "pulse"); }
  }

  /** The sides as they stood before a round's end (the settlement's "before" figures). */
  function before(state, result) {
    stage(state, { enemy_hp_after: result.enemy_hp_before, player_hp_after: result.player_hp_before,
      attack_after: state.enemy.attack }, null, "");
  }

  /** A round's end is over: its floating figures go (they would linger half faded). */
  function calm() {
    for (const node of element.querySelectorAll(".hp-float")) {
      node.classList.remove("rising");
      node.textContent = "";
    }
  }

  return { element, draw, settle, stage, before, calm };
}
