// A main-line lesson on the play screen (issue 21): its words in a panel beside the board
// and its demonstration drawn on the board, both from Python (snakes.page.lesson: the words,
// and the demonstration's steps with each moving body's cells before and after). The page
// only draws them, under the pieces (it never hides them): a faint ghost body glides along
// the steps and a soft disc shows where the finger goes (never dashed like the focus ring); under reduced motion (motion.js) the ends' paths are drawn as still arrows. The
// panel can be put away ("Got it", remembered per lesson in the settings) and shown again.
import { t } from "../i18n.js";
import { onMotionChange, reducedMotion } from "../motion.js";
import { colour } from "../palette.js";
import { el, svg } from "./dom.js";

const STEP_MS = 450;       // one step of the ghost
const EXIT_MS = 550;       // an exit: the end slides in and the body fades or sheds its coat
const START_MS = 500;      // the ghost waits a moment before it moves
const PAUSE_MS = 1200;     // and rests at the end before it starts again

const centre = (c) => [c[0] + 0.5, c[1] + 0.5];
const points = (cells) => cells.map((c) => centre(c).join(",")).join(" ");
const endOf = (cells, end) => (end === "head" ? cells[0] : cells[cells.length - 1]);

/**
 * Mount `lesson` (Python's answer) into `slot`. Options: `board()` (the board's svg now),
 * `relayout()` (the panel changed height), `atStart` (no step taken yet: a resumed level
 * opens with the words but without the ghost). Returns `{stepped(), stop()}`: `stepped`
 * hides the demonstration once the player has moved (the ghost starts from the level's
 * start); "Show the lesson" brings it back.
 */
export function mountLesson(slot, app, lesson, { board, relayout = () => {}, atStart = true }) {
  const demo = lesson.demo && lesson.demo.moves.length ? lesson.demo : null;
  let showing = !app.settings.lessonDismissed(lesson.key);
  let demoOn = showing && atStart;
  // A strip: a tap on the title folds its words away (the title and its buttons on one
  // line) and back; the board takes the room either way (snakes-layout.js).
  let folded = false;

  const toggle = el("button", { type: "button", class: "lesson-toggle", "data-testid": "snakes-lesson-toggle",
    "aria-expanded": "true", onclick: () => { folded = !folded; draw(); relayout(); } },
  el("span", { "data-testid": "snakes-lesson-title" }, lesson.title));
  const watch = demo ? el("p", { class: "lesson-watch" }, lesson.watch) : null;
  const text = el("div", { class: "lesson-text", "data-testid": "snakes-lesson-text" },
    ...lesson.text.map((sentence) => el("p", {}, sentence)));
  const panel = el("section", { class: "snakes-lesson", "data-testid": "snakes-lesson",
    "data-lesson": lesson.key, "aria-label": t("lesson.label", { title: lesson.title }) },
  el("h3", {}, toggle),
  text,
  watch,
  el("div", { class: "lesson-buttons" },
    el("button", { type: "button", class: "primary", "data-testid": "snakes-lesson-dismiss",
      onclick: () => dismiss() }, t("lesson.got-it")),
    el("a", { href: "#rules", "data-testid": "snakes-lesson-rules" }, t("lesson.all-rules"))));
  const show = el("button", { type: "button", class: "lesson-show", "data-testid": "snakes-lesson-show",
    onclick: () => replay() }, t("lesson.show", { title: lesson.title }));
  slot.replaceChildren(panel, show);

  function draw() {
    panel.hidden = !showing;
    show.hidden = showing;
    panel.dataset.folded = folded ? "1" : "0";
    toggle.setAttribute("aria-expanded", String(!folded));
    text.hidden = folded;
    if (watch) watch.hidden = folded;
    const node = board();
    const layer = node && node.querySelector(".demo-layer");
    const top = node && node.querySelector(".demo-top-layer");
    const drawn = demo && demoOn ? drawDemo(lesson.key, demo) : null;
    if (top) top.replaceChildren(...(drawn ? [drawn.numbers] : []));
    if (layer) layer.replaceChildren(...(drawn ? [drawn.group] : []));
    if (layer) for (const anim of layer.querySelectorAll("animate")) anim.beginElement();
  }

  function dismiss() {
    showing = false;
    demoOn = false;
    app.settings.setLessonDismissed(lesson.key, true);
    draw();
    relayout();
    show.focus();
  }

  function replay() {
    showing = true;
    demoOn = true;
    app.settings.setLessonDismissed(lesson.key, false);
    draw();
    relayout();
    panel.querySelector('[data-testid="snakes-lesson-dismiss"]').focus();
  }

  const stopWatching = onMotionChange(() => draw());
  draw();
  relayout();

  return {
    /** The player moved: the ghost (drawn from the level's start) leaves the board. */
    stepped() {
      if (!demoOn) return;
      demoOn = false;
      draw();
    },
    /** The level is won: the words and the ghost leave (not remembered as dismissed). */
    close() {
      showing = false;
      demoOn = false;
      draw();
    },
    stop() { stopWatching(); },
  };
}

/** The demonstration as SVG: `group`, arrows along each run of one end and, unless motion
 * is reduced, ghost bodies gliding along the steps (drawn under the pieces); `numbers`, the
 * runs' numbers when there are several (drawn above the pieces). */
function drawDemo(key, demo) {
  const still = reducedMotion();
  const group = svg("g", { class: `demo ${still ? "demo-still" : "demo-moving"}`, "data-testid": "snakes-demo",
    "data-lesson": key, "data-steps": demo.moves.length, "data-motion": still ? "static" : "animated",
    "aria-hidden": "true" });
  const runs = [];
  for (const move of demo.moves) {
    const last = runs[runs.length - 1];
    const cell = endOf(move.to, move.end);
    if (last && last.body === move.body && last.end === move.end && !last.exit) {
      last.path.push(cell);
      last.exit = move.exit;
    } else {
      runs.push({ body: move.body, end: move.end, exit: move.exit, color: move.color,
        path: [endOf(move.cells, move.end), cell] });
    }
  }
  if (!still) group.append(...ghosts(demo.moves));
  // Runs that start on one cell (a coat shed, then the next layer) number side by side.
  const numbers = svg("g", { class: "demo-numbers", "data-testid": "snakes-demo-numbers", "aria-hidden": "true" });
  const starts = new Map();
  runs.forEach((run, k) => {
    const at = run.path[0].join(",");
    const before = starts.get(at) ?? 0;
    starts.set(at, before + 1);
    group.append(arrow(run));
    if (runs.length > 1) numbers.append(runNumber(run, k + 1, before));
  });
  return { group, numbers };
}

/** The number of `run` on the first cell its end enters (moved aside by `shift` numbers
 * already there; the start is under the end itself). */
function runNumber(run, number, shift) {
  const node = svg("g", { class: "demo-number-badge", "data-body": run.body, "data-end": run.end });
  const pts = run.path.map(centre);
  const [sx, sy] = [pts[1][0] - 0.22 + shift * 0.44, pts[1][1] - 0.22];
  node.append(svg("circle", { cx: sx, cy: sy, r: 0.2, class: "demo-number-disc" }));
  const label = svg("text", { x: sx, y: sy + 0.01, class: "demo-number", "text-anchor": "middle",
    "dominant-baseline": "middle" });
  label.textContent = String(number);
  node.append(label);
  return node;
}

/** A still arrow along `run.path` (cell centres). */
function arrow(run) {
  const node = svg("g", { class: "demo-path", "data-testid": "snakes-demo-path", "data-body": run.body,
    "data-end": run.end });
  const pts = run.path.map(centre);
  const [x2, y2] = pts[pts.length - 1];
  const [x1, y1] = pts[pts.length - 2];
  const [dx, dy] = [Math.sign(x2 - x1), Math.sign(y2 - y1)];
  const tip = [x2 - dx * 0.12, y2 - dy * 0.12];
  const line = pts.slice(0, -1).concat([[tip[0] - dx * 0.2, tip[1] - dy * 0.2]]);
  node.append(svg("polyline", { points: line.map((p) => p.join(",")).join(" "), class: "demo-line",
    stroke: colour(run.color) }));
  const [px, py] = [-dy, dx];
  node.append(svg("polygon", { class: "demo-head", fill: colour(run.color), points: [tip,
    [tip[0] - dx * 0.32 + px * 0.22, tip[1] - dy * 0.32 + py * 0.22],
    [tip[0] - dx * 0.32 - px * 0.22, tip[1] - dy * 0.32 - py * 0.22]].map((p) => p.join(",")).join(" ") }));
  return node;
}

/**
 * Ghost bodies (one per body that moves) and a finger ring, animated with SMIL on one
 * shared, repeating timeline: each body's points, colour and opacity change only on its own
 * steps and hold in between; an exit slides the end into its hole, then the body fades out
 * (its last layer) or stands where it was in its next colour (a coat shed).
 */
function ghosts(moves) {
  const spans = [];
  let t = START_MS;
  // A long demonstration (up to an event far into the level) plays faster, down to half pace.
  const pace = Math.max(0.5, Math.min(1, 10 / moves.length));
  for (const move of moves) {
    const length = (move.exit ? EXIT_MS : STEP_MS) * pace;
    spans.push([t, t + length]);
    t += length;
  }
  const total = t + PAUSE_MS;
  const at = (ms) => (ms / total).toFixed(4);
  const bodies = [...new Set(moves.map((m) => m.body))];
  const nodes = [];
  for (const body of bodies) {
    const own = moves.map((m, i) => [m, spans[i]]).filter(([m]) => m.body === body);
    const first = own[0][0];
    // Keyframes: [time, cells, colour, opacity]; a jump is two keyframes at one time.
    const keys = [[0, first.cells, first.color, 0.85]];
    for (const [m, [t0, t1]] of own) {
      const [, , col, op] = keys[keys.length - 1];
      keys.push([t0, m.cells, col, op]);
      if (m.exit && m.next === null) {
        keys.push([t1, m.to, col, 0]);
      } else if (m.exit) {
        keys.push([t1 - 1, m.to, col, op]);
        keys.push([t1, m.cells, m.next, op]);
      } else {
        keys.push([t1, m.to, col, op]);
      }
    }
    const last = keys[keys.length - 1];
    keys.push([total, last[1], last[2], last[3]]);
    const times = keys.map(([ms]) => at(ms)).join(";");
    const animate = (attributeName, values, calcMode = "linear") => svg("animate", { attributeName,
      values: values.join(";"), keyTimes: times, dur: `${total}ms`, repeatCount: "indefinite",
      begin: "indefinite", calcMode });
    const moving = keys.map(([, cells]) => points(cells));
    // A light halo under a beaded line in the body's colour: a ghost, not a body.
    const halo = svg("polyline", { points: points(first.cells), class: "demo-halo" });
    const line = svg("polyline", { points: points(first.cells), class: "demo-ghost", stroke: colour(first.color) });
    halo.append(animate("points", moving));
    line.append(animate("points", moving), animate("stroke", keys.map(([, , c]) => colour(c)), "discrete"));
    const ghost = svg("g", { class: "demo-body", "data-testid": "snakes-demo-ghost", "data-body": body });
    ghost.append(halo, line, animate("opacity", keys.map(([, , , o]) => o)));
    nodes.push(ghost);
  }
  // The finger: a ring on the end that moves, from its cell to the next, step by step.
  const keys = [[0, endOf(moves[0].cells, moves[0].end)]];
  moves.forEach((m, i) => {
    keys.push([spans[i][0], endOf(m.cells, m.end)], [spans[i][1], endOf(m.to, m.end)]);
  });
  keys.push([total, keys[keys.length - 1][1]]);
  const times = keys.map(([ms]) => at(ms)).join(";");
  const [cx, cy] = centre(keys[0][1]);
  const ring = svg("circle", { cx, cy, r: 0.42, class: "demo-finger", "data-testid": "snakes-demo-finger" });
  for (const [name, k] of [["cx", 0], ["cy", 1]]) {
    ring.append(svg("animate", { attributeName: name, values: keys.map(([, c]) => c[k] + 0.5).join(";"),
      keyTimes: times, dur: `${total}ms`, repeatCount: "indefinite", begin: "indefinite" }));
  }
  nodes.push(ring);
  return nodes;
}
