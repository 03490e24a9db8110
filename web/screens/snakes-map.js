// The main-line map (#snakes): the line in chapters of CHAPTER levels, each with a name and a
// small picture; the page shows one chapter's tiles at a time (never more than CHAPTER
// level tiles), opening on the chapter of the level the player is on. Each tile is locked
// (a lock drawn), open or done (its stars against the certificate's steps, counted by
// Python from the best steps progress keeps). `map-jump` opens a level by number. The
// tiles' states come from saved progress alone; the stars need the chapter's blocks.
import { t } from "../i18n.js";
import { colour } from "../palette.js";
import { el, svg } from "./dom.js";
import { loadBlock, mainlineIndex, shippedCount } from "./levels.js";

export const CHAPTER = 100;  // levels per chapter (issue 44: at most 100)
const CHAPTER_NAMES = 20;    // chapters with a name of their own in the catalogue

/** The state of level `n` for `progress`: "done", "open" or "locked". */
export function tileState(progress, n) {
  if (progress.snakes.done[String(n)] !== undefined) return "done";
  return n <= progress.snakes.open ? "open" : "locked";
}

/** The level the player should play next: the first open one not done, else the last open. */
export function nextLevel(progress, count) {
  for (let n = 1; n <= Math.min(progress.snakes.open, count); n++) {
    if (progress.snakes.done[String(n)] === undefined) return n;
  }
  return Math.min(progress.snakes.open, count);
}

/** The chapter (1..) of level `n`. */
export const chapterOf = (n) => Math.floor((n - 1) / CHAPTER) + 1;

/** Chapter `c`'s name in the page's language. */
export function chapterName(c) {
  return c <= CHAPTER_NAMES ? t(`snakes.chapter.${c}`) : t("snakes.chapter.n", { chapter: c });
}

/** A chapter's small picture: a coiled body in the chapter's colour heading for its hole. */
function chapterPicture(c) {
  const tint = colour((c - 1) % 10);
  const node = svg("svg", { viewBox: "0 0 4 3", class: "chapter-picture", "aria-hidden": "true" });
  node.append(svg("rect", { x: 0, y: 0, width: 4, height: 3, rx: 0.3, class: "chapter-floor" }));
  node.append(svg("rect", { x: 3.1, y: 0.35, width: 0.6, height: 0.6, rx: 0.15, class: "chapter-hole", stroke: tint }));
  const turns = [[0.6, 2.4], [0.6, 1.5], [1.5 + (c % 3) * 0.3, 1.5], [1.5 + (c % 3) * 0.3, 0.65], [2.6, 0.65]];
  node.append(svg("polyline", { points: turns.map((p) => p.join(",")).join(" "), class: "chapter-body", stroke: tint }));
  node.append(svg("circle", { cx: 2.6, cy: 0.65, r: 0.3, fill: tint, class: "chapter-head" }));
  return node;
}

/** A padlock drawn on a locked tile. */
function lockGlyph() {
  const node = svg("svg", { viewBox: "0 0 10 12", class: "tile-lock", "data-testid": "level-lock",
    "aria-hidden": "true" });
  node.append(svg("path", { d: "M2.6 5.5V3.8a2.4 2.4 0 0 1 4.8 0v1.7", class: "tile-lock-shackle" }));
  node.append(svg("rect", { x: 1.2, y: 5.2, width: 7.6, height: 6, rx: 1.2, class: "tile-lock-body" }));
  return node;
}

/** Stars as drawn on a done tile (filled and empty). */
function starRow(count) {
  // Three stars: the certificate's steps reached (the hook level-par stays for tools).
  return el("span", { class: "stars", "aria-hidden": "true", "data-testid": count === 3 ? "level-par" : "level-stars" },
    "★".repeat(count), el("span", { class: "star-off" }, "★".repeat(3 - count)));
}

/** Open the level typed in `map-jump`: an open one plays; a locked one, or a number
 * out of the line, is said in words and nothing opens. */
function jump(mp) {
  const { app, count, jumpInput, jumpNote } = mp;
  const text = jumpInput.value.trim();
  const n = Number(text);
  const progress = app.store.progress();
  let words = null;
  if (!/^\d+$/.test(text) || n < 1 || n > count) {
    words = t("snakes.map.jump-range", { value: text || "—", count });
  } else if (tileState(progress, n) === "locked") {
    words = t("snakes.locked", { level: n, open: nextLevel(progress, count) });
  }
  if (words) {
    jumpNote.textContent = words;
    jumpNote.dataset.kind = "error";
    jumpInput.setAttribute("aria-invalid", "true");
    app.message(words, "error");
    if (Number.isInteger(n) && n >= 1 && n <= count) show(mp, chapterOf(n));
    return;
  }
  jumpInput.removeAttribute("aria-invalid");
  app.navigate(`#snakes/level/${n}`);
}

/** Chapter `c`'s button in the list of chapters: picture, name, range, levels done. */
function chapterButton(mp, progress, c) {
  const first = (c - 1) * CHAPTER + 1;
  const last = Math.min(mp.count, c * CHAPTER);
  let doneHere = 0;
  for (let n = first; n <= last; n++) if (progress.snakes.done[String(n)] !== undefined) doneHere++;
  const locked = first > progress.snakes.open;
  return el("button", { type: "button", class: `map-chapter${locked ? " locked" : ""}`,
    "data-testid": "map-chapter", "data-chapter": c, "data-first": first, "data-last": last,
    "aria-pressed": "false", onclick: () => show(mp, c) },
  chapterPicture(c),
  el("span", { class: "chapter-name", "data-testid": "map-chapter-name" }, chapterName(c)),
  el("span", { class: "chapter-range" }, t("snakes.map.block", { first, last })),
  el("span", { class: "chapter-done" }, locked ? t("snakes.map.chapter-locked")
    : t("snakes.map.chapter-done", { done: doneHere, count: last - first + 1 })));
}

/** The map once the index is read: its head (summary, continue, jump), the chapters, and
 * the chapter of the level to play next. */
async function drawMap(mp) {
  const { app, section, jumpInput } = mp;
  try {
    mp.index = await mainlineIndex();
    mp.count = await shippedCount();
  } catch (error) {
    if (mp.live) app.message(t("snakes.list-failed", { reason: error.message }), "error");
    return;
  }
  if (!mp.live) return;
  const { count } = mp;
  const progress = app.store.progress();
  const done = Object.keys(progress.snakes.done).length;
  const next = count ? nextLevel(progress, count) : null;
  const current = progress.snakes.current;
  const go = current && current.level <= count ? current.level : next;
  jumpInput.max = String(count);
  section.append(el("div", { class: "map-head" },
    el("h2", {}, t("snakes.map.title")),
    el("p", { "data-testid": "snakes-map-summary" }, t("snakes.map.done", { done, count })),
    go ? el("a", { class: "go primary-link", href: `#snakes/level/${go}`, "data-testid": "snakes-continue" },
      t(current && current.level === go ? "snakes.map.continue" : "snakes.map.play", { level: go })) : null,
    mp.jumpForm), mp.jumpNote, mp.chapterList, mp.chapterBox);
  const chapters = Math.ceil(count / CHAPTER);
  for (let c = 1; c <= chapters; c++) mp.chapterList.append(chapterButton(mp, progress, c));
  if (go) show(mp, chapterOf(go));
}

/** Level `n`'s tile: a link when open or done (its best steps), a lock when locked. */
function levelTile(progress, n) {
  const state = tileState(progress, n);
  const best = progress.snakes.done[String(n)];
  const attrs = { class: `level-tile ${state}`, "data-testid": "level-tile", "data-level": n,
    "data-state": state };
  if (best !== undefined) attrs["data-best"] = best;
  else attrs["data-stars"] = 0;
  const label = [el("span", { class: "n" }, String(n)),
    best !== undefined ? el("span", { class: "best" }, `${best}`) : null,
    state === "locked" ? lockGlyph() : null];
  return state === "locked"
    ? el("span", { ...attrs, "aria-disabled": "true", title: t("snakes.map.locked", { level: n }),
      role: "img", "aria-label": t("snakes.map.locked", { level: n }) }, ...label)
    : el("a", { ...attrs, href: `#snakes/level/${n}`, title: best !== undefined
      ? t("snakes.map.tile-done", { level: n, steps: best }) : t("snakes.level", { level: n }) }, ...label);
}

/** Show chapter `c`'s tiles (replacing the last chapter's), then its stars. */
function show(mp, c) {
  const { app, chapterBox } = mp;
  if (mp.selected === c) return;
  mp.selected = c;
  const progress = app.store.progress();
  for (const button of mp.chapterList.children) {
    const on = Number(button.dataset.chapter) === c;
    button.setAttribute("aria-pressed", String(on));
    if (on) button.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  const first = (c - 1) * CHAPTER + 1;
  const last = Math.min(mp.count, c * CHAPTER);
  const blockNodes = [];
  for (const block of mp.index) {
    if (block.last < first || block.first > last) continue;
    const tiles = [];
    for (let n = Math.max(first, block.first); n <= Math.min(last, block.last); n++) tiles.push(levelTile(progress, n));
    const node = el("section", { class: "level-block", "data-testid": "level-block",
      "data-first": block.first, "data-last": block.last },
    el("div", { class: "tiles" }, ...tiles));
    node.gridforgeBlock = block;
    blockNodes.push(node);
  }
  chapterBox.dataset.chapter = String(c);
  delete chapterBox.dataset.stars;
  chapterBox.replaceChildren(el("h3", { class: "chapter-title", "data-testid": "map-chapter-title" },
    t("snakes.map.chapter-title", { chapter: c, name: chapterName(c), first, last })),
  el("div", { class: "chapter-tiles" }, ...blockNodes));
  markChapter(mp, c, blockNodes).catch((error) => {
    if (mp.live && mp.selected === c) {
      app.message(t("snakes.map.block-failed", { first, last, reason: error.message }), "error");
    }
  });
}

/** A record of fewer steps than the level's proven minimum (a tampered save): the part to
 * set aside, with its field path and why, and its tile. */
function belowMinimum(tile, best, steps) {
  const path = `snakes.done.${tile.dataset.level}`;
  return [{ part: path, issues: [{ path, message: t("store.issue.below-minimum", { best, steps }) }] }, tile];
}

/** The chapter's certificates (its blocks) and, from Python, the stars of its won levels. */
async function markChapter(mp, c, nodes) {
  const pars = {};
  const done = {};
  const impossible = [];  // bests below the proven minimum: set aside (issue 54)
  const progress = mp.app.store.progress();
  for (const node of nodes) {
    const data = await loadBlock(node.gridforgeBlock);
    if (!mp.live || mp.selected !== c) return;
    const first = Number(node.dataset.first);
    for (const tile of node.querySelectorAll('[data-testid="level-tile"]')) {
      const certificate = data.certificates[Number(tile.dataset.level) - first];
      const best = progress.snakes.done[tile.dataset.level];
      const below = markTile(tile, certificate, best);
      if (below) impossible.push(below);
      else if (best !== undefined) {
        pars[tile.dataset.level] = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
        done[tile.dataset.level] = best;
      }
    }
    node.dataset.loaded = "1";
  }
  if (impossible.length && !await setAsideImpossible(mp, c, impossible)) return;
  const stars = Object.keys(done).length ? await mp.app.python.snakes.starsOf(done, pars) : {};
  if (!mp.live || mp.selected !== c) return;
  showStars(mp, stars);
}

/** Set aside the bests below a proven minimum and draw their tiles again; answers whether
 * the chapter is still the one shown. */
async function setAsideImpossible(mp, c, impossible) {
  const kept = await mp.app.store.setAsideProgressIssues(impossible.flatMap(([found]) => found.issues));
  if (!mp.live || mp.selected !== c) return false;
  for (const [, tile] of impossible) tile.replaceWith(levelTile(kept, Number(tile.dataset.level)));
  return true;
}

/** A level's tile with its par (the certificate's steps) and its best's words; answers
 * the part to set aside (belowMinimum) when the best is below a proven minimum. */
function markTile(tile, certificate, best) {
  const steps = certificate && Number.isInteger(certificate.steps) ? certificate.steps : null;
  if (steps !== null) tile.dataset.par = String(steps);
  if (best !== undefined && steps !== null && certificate.optimal && best < steps) {
    return belowMinimum(tile, best, steps);
  }
  if (best !== undefined && steps !== null && best <= steps) {
    tile.title = t(certificate.optimal ? "snakes.map.tile-fewest" : "snakes.map.tile-best",
      { level: tile.dataset.level, steps: best });
  }
  return null;
}

/** Python's stars ({level: count}) on the chapter's tiles. */
function showStars(mp, stars) {
  for (const [n, count] of Object.entries(stars)) {
    const tile = mp.chapterBox.querySelector(`[data-testid="level-tile"][data-level="${n}"]`);
    if (!tile) continue;
    tile.dataset.stars = String(count);
    tile.setAttribute("aria-label", `${tile.title}. ${t("snakes.stars.label", { stars: count })}`);
    tile.append(starRow(count));
  }
  mp.chapterBox.dataset.stars = "ready";
}

export function mountMap(root, app) {
  const mp = {
    app,
    live: true,
    selected: null,   // the chapter shown
    index: null,
    count: 0,
  };
  mp.section = el("section", { class: "snakes-map", "data-testid": "snakes-map" });
  mp.chapterList = el("div", { class: "map-chapters", role: "group", "data-testid": "map-chapters" });
  mp.chapterBox = el("section", { class: "map-chapter-levels", "data-testid": "map-levels" });
  mp.jumpInput = el("input", { type: "number", inputmode: "numeric", min: 1, id: "map-jump",
    "data-testid": "map-jump", class: "map-jump-input", enterkeyhint: "go" });
  mp.jumpNote = el("p", { class: "map-jump-note", "data-testid": "map-jump-message", role: "status" });
  mp.jumpForm = el("form", { class: "map-jump", "data-testid": "map-jump-form", novalidate: true },
    el("label", { for: "map-jump" }, t("snakes.map.jump")), mp.jumpInput,
    el("button", { type: "submit", "data-testid": "map-jump-go" }, t("snakes.map.jump-go")));
  mp.jumpForm.addEventListener("submit", (event) => { event.preventDefault(); jump(mp); });
  root.append(mp.section);
  drawMap(mp);

  return {
    unmount() {
      mp.live = false;
    },
  };
}
