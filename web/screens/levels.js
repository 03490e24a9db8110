// The main line as the page reads it: levels/index.json gives the main line's size (its last
// level number, which build.py takes from Python) and lists the block files ({format,
// levels, blocks: [{file, first, last, sha256}]}, 25 levels each) laid out beside the wheel; a block is
// fetched when first needed (the map asks as blocks come into view), checked against its
// SHA-256, and kept. Data only: what a level is and whether a move is legal is Python's.

import { t } from "../i18n.js";

let indexPromise = null;
const blocks = new Map();  // file -> Promise of {levels, certificates}

async function fetchJson(path) {
  const response = await fetch(new URL(`../${path}`, import.meta.url));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The index as {levels, blocks} (blocks sorted by first level); rejects when it cannot be read. */
function readIndex() {
  if (!indexPromise) {
    indexPromise = fetchJson("levels/index.json")
      .then((response) => response.json())
      .then((index) => {
        // build.py writes {"format": "gridforge.levels-index/1", "levels": N, "blocks": [...]}
        if (index?.format !== "gridforge.levels-index/1" || !Array.isArray(index.blocks) ||
            !Number.isInteger(index.levels) || index.levels < 1) {
          throw new Error(t("shell.levels.bad-index", { file: "levels/index.json", format: "gridforge.levels-index/1" }));
        }
        return { levels: index.levels, blocks: [...index.blocks].sort((a, b) => a.first - b.first) };
      });
    indexPromise.catch(() => { indexPromise = null; });  // a later visit may try again
  }
  return indexPromise;
}

/** The list of blocks (sorted by first level); rejects when the index cannot be read. */
export async function mainlineIndex() {
  return (await readIndex()).blocks;
}

/** The main line's last level number (Python's, as the build published it; the site may
 * ship fewer: shippedCount). Rejects when the index cannot be read. */
export async function mainlineSize() {
  return (await readIndex()).levels;
}

/** The number of main-line levels this site ships (levels 1..count). */
export async function shippedCount() {
  const index = await mainlineIndex();
  let count = 0;
  for (const entry of index) {
    if (entry.first !== count + 1) break;  // levels must follow on without a gap
    count = entry.last;
  }
  return count;
}

/** One block's {levels, certificates}, fetched once and checked against the index. */
export function loadBlock(entry) {
  if (!blocks.has(entry.file)) {
    const promise = (async () => {
      const response = await fetchJson(`levels/${entry.file}`);
      const bytes = await response.arrayBuffer();
      const hex = await sha256Hex(bytes);
      if (hex !== entry.sha256) throw new Error(t("shell.levels.bad-sha", { file: `levels/${entry.file}` }));
      const batch = JSON.parse(new TextDecoder().decode(bytes));
      const count = entry.last - entry.first + 1;
      if (!Array.isArray(batch.levels) || batch.levels.length !== count ||
          !Array.isArray(batch.certificates) || batch.certificates.length !== count) {
        throw new Error(t("shell.levels.bad-range", { file: `levels/${entry.file}`, first: entry.first, last: entry.last }));
      }
      return { levels: batch.levels, certificates: batch.certificates };
    })();
    promise.catch(() => blocks.delete(entry.file));
    blocks.set(entry.file, promise);
  }
  return blocks.get(entry.file);
}

/** Main-line level `n` as {level, certificate}, or null when this site does not ship it. */
/** @returns {Promise<{level: import("../types/bridge").LevelJson, certificate: import("../types/bridge").Certificate} | null>} */
export async function mainlineLevel(/** @type {number} */ n) {
  const index = await mainlineIndex();
  const entry = index.find((e) => e.first <= n && n <= e.last);
  if (!entry) return null;
  const block = await loadBlock(entry);
  return { level: block.levels[n - entry.first], certificate: block.certificates[n - entry.first] };
}
