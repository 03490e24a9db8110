// The main-line map (#snakes): every shipped level as a tile in blocks of 25, each tile
// locked, open or done (with the best steps and a mark when the certificate's steps were
// reached), the next open level one tap away. Blocks are fetched as they come into view,
// for their certificates' steps; the tiles' states come from saved progress alone.
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { loadBlock, mainlineIndex, shippedCount } from "./levels.js";

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

export function mountMap(root, app) {
  let live = true;
  let observer = null;
  const section = el("section", { class: "snakes-map", "data-testid": "snakes-map" });
  root.append(section);

  (async () => {
    let index;
    let count;
    try {
      index = await mainlineIndex();
      count = await shippedCount();
    } catch (error) {
      if (live) app.message(t("snakes.list-failed", { reason: error.message }), "error");
      return;
    }
    if (!live) return;
    const progress = app.store.progress();
    const done = Object.keys(progress.snakes.done).length;
    const next = count ? nextLevel(progress, count) : null;
    const current = progress.snakes.current;
    const go = current && current.level <= count ? current.level : next;
    section.append(el("div", { class: "map-head" },
      el("h2", {}, t("snakes.map.title")),
      el("p", { "data-testid": "snakes-map-summary" },
        t("snakes.map.done", { done, count })),
      go ? el("a", { class: "go primary-link", href: `#snakes/level/${go}`, "data-testid": "snakes-continue" },
        t(current && current.level === go ? "snakes.map.continue" : "snakes.map.play", { level: go })) : null));
    observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        markBlock(entry.target);
      }
    }, { rootMargin: "200px" });
    for (const block of index) {
      if (block.first > count) break;
      const tiles = [];
      for (let n = block.first; n <= block.last; n++) {
        const state = tileState(progress, n);
        const best = progress.snakes.done[String(n)];
        const attrs = { class: `level-tile ${state}`, "data-testid": "level-tile", "data-level": n,
          "data-state": state };
        if (best !== undefined) attrs["data-best"] = best;
        const label = [el("span", { class: "n" }, String(n)),
          best !== undefined ? el("span", { class: "best" }, `${best}`) : null];
        tiles.push(state === "locked"
          ? el("span", { ...attrs, "aria-disabled": "true", title: t("snakes.map.locked", { level: n }) }, ...label)
          : el("a", { ...attrs, href: `#snakes/level/${n}`, title: best !== undefined
            ? t("snakes.map.tile-done", { level: n, steps: best }) : t("snakes.level", { level: n }) }, ...label));
      }
      const blockNode = el("section", { class: "level-block", "data-testid": "level-block",
        "data-first": block.first, "data-last": block.last },
      el("h3", {}, t("snakes.map.block", { first: block.first, last: block.last })),
      el("div", { class: "tiles" }, ...tiles));
      blockNode.gridforgeBlock = block;
      section.append(blockNode);
      observer.observe(blockNode);
    }
  })();

  /** Add the certificate's steps to a block's tiles once its file is fetched. */
  async function markBlock(node) {
    let data;
    try {
      data = await loadBlock(node.gridforgeBlock);
    } catch (error) {
      if (live) app.message(t("snakes.map.block-failed", { first: node.dataset.first, last: node.dataset.last, reason: error.message }), "error");
      return;
    }
    if (!live) return;
    const first = Number(node.dataset.first);
    for (const tile of node.querySelectorAll('[data-testid="level-tile"]')) {
      const certificate = data.certificates[Number(tile.dataset.level) - first];
      if (!certificate || !Number.isInteger(certificate.steps)) continue;
      tile.dataset.certSteps = certificate.steps;
      if (tile.dataset.best !== undefined && Number(tile.dataset.best) <= certificate.steps) {
        tile.dataset.par = certificate.optimal ? "minimum" : "certificate";
        tile.title = t(certificate.optimal ? "snakes.map.tile-fewest" : "snakes.map.tile-best",
          { level: tile.dataset.level, steps: tile.dataset.best });
        tile.append(el("span", { class: "mark", "data-testid": "level-par", "aria-hidden": "true" }, "★"));
      }
    }
    node.dataset.loaded = "1";
  }

  return {
    unmount() {
      live = false;
      if (observer) observer.disconnect();
    },
  };
}
