// A batch at a glance (issue 23; used by editor.js): a designed batch, an imported one or a
// range of the main line, each level a thumbnail with its score, status, steps and template
// (all read from its certificate, Python's); sorted and filtered here (ordering what Python
// said, no rule), one opened to edit, and the selection exported as one batch file whose
// bytes Python writes (a whole designed batch: exactly the bytes design-levels --out writes).

import { t } from "../i18n.js";
import { download, el, svg } from "./dom.js";
import { templateName } from "./editor-design.js";
import { mainlineLevel, shippedCount } from "./levels.js";

/** The most main-line levels opened as one batch. */
export const RANGE_MAX = 50;

// The panel's words, from the catalogue (editor.batch.*), looked up when said.
const SORTS = ["order", "score", "steps", "status", "template"];
const FILTERS = ["all", "verified", "other"];
const STATUSES = ["verified", "out_of_range", "unsolvable", "undetermined", "none"];
export const BATCH_WORDS = {
  title: () => t("editor.batch.title"), none: "—",
  status: (status) => (STATUSES.includes(status) ? t(`editor.batch.status.${status}`) : status),
  caption: (i) => t("editor.batch.caption", { score: i.score ?? "—", status: i.statusWords, steps: i.steps ?? "—",
    template: templateName(i.template) }),
  heading: (title, n) => t(n === 1 ? "editor.batch.heading.one" : "editor.batch.heading", { title, count: n }),
  rangeBad: (hi, max) => t("editor.batch.range-bad", { highest: hi, max }),
  exported: (n, file) => t(n === 1 ? "editor.batch.exported.one" : "editor.batch.exported", { count: n, file }),
  mainline: (n) => t("editor.batch.mainline", { number: n }),
};
const label = (key, ...children) => el("label", {}, `${t(key)} `, ...children);

/** A small drawing of `level` (no rule: where things are, in their colours). */
function thumbnail(level, palette) {
  const S = 10;
  const pic = svg("svg", { viewBox: `0 0 ${level.cols * S} ${level.rows * S}`, class: "editor-thumb", "aria-hidden": "true" });
  pic.append(svg("rect", { x: 0, y: 0, width: level.cols * S, height: level.rows * S, class: "editor-floor" }));
  for (const [x, y] of level.stones) pic.append(svg("rect", { x: x * S, y: y * S, width: S, height: S, class: "editor-stone" }));
  for (const hole of level.holes) {
    pic.append(svg("rect", { x: hole.cell[0] * S + 2, y: hole.cell[1] * S + 2, width: S - 4, height: S - 4,
      class: "editor-hole", stroke: palette[hole.color] || "#000", "stroke-width": 2 }));
  }
  for (const body of level.bodies) {
    pic.append(svg("polyline", { points: body.cells.map(([x, y]) => `${x * S + S / 2},${y * S + S / 2}`).join(" "),
      fill: "none", stroke: palette[body.colors[0]] || "#000", "stroke-width": 6, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  }
  return pic;
}

/** What a batch item's tile tells and is sorted and filtered by. */
function facts(item) {
  const cert = item.certificate;
  const status = cert && cert.status ? cert.status : "none";
  return { score: cert && cert.score ? cert.score.total : null, status, statusWords: BATCH_WORDS.status(status),
    steps: cert && Number.isInteger(cert.steps) ? cert.steps : null,
    template: (item.level.meta && item.level.meta.template) || BATCH_WORDS.none };
}

/** The items of panel `bp`'s batch as shown: filtered, then sorted. */
function shown(bp) {
  let items = bp.batch.items.map((item, index) => ({ item, index, ...facts(item) }));
  if (bp.filter.value === "verified") items = items.filter((i) => i.status === "verified");
  else if (bp.filter.value === "other") items = items.filter((i) => i.status !== "verified");
  if (bp.template.value) items = items.filter((i) => i.template === bp.template.value);
  const key = bp.sort.value;
  const by = {
    score: (a, b) => (b.score ?? -1) - (a.score ?? -1),
    steps: (a, b) => (b.steps ?? -1) - (a.steps ?? -1),
    status: (a, b) => a.status.localeCompare(b.status),
    template: (a, b) => a.template.localeCompare(b.template),
  }[key];
  return by ? items.sort((a, b) => by(a, b) || a.index - b.index) : items;
}

/** One shown item's tile: thumbnail, name, caption, pick box, open button. */
function tile(bp, i) {
  const { picked } = bp;
  const check = el("input", { type: "checkbox", "data-testid": "editor-batch-pick", "aria-label": t("editor.batch.pick", { name: i.item.name }) });
  check.checked = picked.has(i.index);
  check.addEventListener("change", () => { if (check.checked) picked.add(i.index); else picked.delete(i.index); });
  return el("li", { class: "editor-batch-tile", "data-testid": "editor-batch-tile", "data-index": String(i.index),
    "data-score": i.score ?? "", "data-status": i.status, "data-steps": i.steps ?? "", "data-template": i.template },
  thumbnail(i.item.level, bp.ed.palette),
  el("span", { class: "editor-batch-name" }, i.item.name),
  el("span", { class: "editor-batch-caption" }, BATCH_WORDS.caption(i)),
  el("span", { class: "editor-row" }, el("label", {}, check),
    el("button", { type: "button", "data-testid": "editor-batch-open", onclick: () => openItem(bp.ed, i.item) }, t("editor.drafts.open"))));
}

function render(bp) {
  if (!bp.batch) return;
  const items = shown(bp);
  bp.heading.textContent = BATCH_WORDS.heading(bp.batch.title, bp.batch.items.length);
  bp.tiles.replaceChildren(...items.map((i) => tile(bp, i)));
  bp.pickAll.checked = items.length > 0 && items.every((i) => bp.picked.has(i.index));
}

function show(bp, next) {
  bp.batch = next;
  bp.picked.clear();
  const templates = [...new Set(next.items.map((item) => facts(item).template))].sort();
  bp.template.replaceChildren(el("option", { value: "" }, t("editor.batch.any-template")),
    ...templates.map((name) => el("option", { value: name }, templateName(name))));
  bp.body.hidden = false;
  render(bp);
}

function hide(bp) {
  bp.batch = null;
  bp.body.hidden = true;
  bp.tiles.replaceChildren();
  bp.heading.textContent = BATCH_WORDS.title();
}

async function openItem(ed, item) {
  await ed.queued(async () => {
    try {
      if (item.draftId) {
        const entry = ed.drafts.readable().find((d) => d.id === item.draftId);
        if (entry) { await ed.drafts.openEntry(entry); return; }
      }
      await ed.open(item.level, { from: item.number ?? "draft", name: item.name, cert: item.certificate });
      ed.say(t("editor.batch.opened", { name: item.name }));
    } catch (error) { ed.refusal(error, t("editor.batch.cannot-open", { name: item.name })); }
  });
}

async function openRange(bp) {
  const { ed } = bp;
  const [a, b, highest] = [Number(bp.from.value), Number(bp.to.value), await shippedCount()];
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < a || b > highest || b - a + 1 > RANGE_MAX) {
    ed.say(BATCH_WORDS.rangeBad(highest, RANGE_MAX), "error");
    return;
  }
  const numbers = Array.from({ length: b - a + 1 }, (_, k) => a + k);
  // Every number is shipped (checked against the highest above).
  const found = /** @type {{level: any, certificate: any}[]} */ (
    await Promise.all(numbers.map((n) => mainlineLevel(n))));
  show(bp, { title: t("editor.batch.mainline-range", { from: a, to: b }), request: null, text: null,
    items: found.map((f, k) => ({ name: BATCH_WORDS.mainline(numbers[k]), level: f.level, certificate: f.certificate, number: numbers[k] })) });
}

async function exportPicked(bp) {
  const { ed, batch, picked } = bp;
  if (!batch || !picked.size) { ed.say(t("editor.batch.nothing"), "error"); return; }
  const indices = [...picked].sort((a, b) => a - b);
  const file = "batch.json";
  try {
    // The whole of a designed batch: the very bytes Python wrote for it (design-levels --out).
    const text = batch.text && indices.length === batch.items.length ? batch.text
      : await ed.python.exportBatch(indices.map((i) => ({ level: batch.items[i].level, certificate: batch.items[i].certificate })), batch.request);
    download(file, text);
    ed.say(BATCH_WORDS.exported(indices.length, file), "success");
  } catch (error) { ed.refusal(error, t("editor.export.refused")); }
}

/** The batch panel of the editor `ed`: {element, show(batch), hide()}. A batch is {title,
 * items: [{name, level, certificate, draftId?, number?}], request, text}. */
export function batchPanel(ed) {
  const bp = { ed, batch: null, picked: new Set() };
  const sort = bp.sort = el("select", { "data-testid": "editor-batch-sort", "aria-label": t("editor.batch.sort") },
    ...SORTS.map((value) => el("option", { value }, t(`editor.batch.sort.${value}`))));
  const filter = bp.filter = el("select", { "data-testid": "editor-batch-filter", "aria-label": t("editor.batch.filter") },
    ...FILTERS.map((value) => el("option", { value }, t(`editor.batch.filter.${value}`))));
  const template = bp.template = el("select", { "data-testid": "editor-batch-template", "aria-label": t("editor.design.template") });
  const pickAll = bp.pickAll = el("input", { type: "checkbox", "data-testid": "editor-batch-pick-all" });
  bp.heading = el("h3", { "data-testid": "editor-batch-title" }, BATCH_WORDS.title());
  bp.tiles = el("ul", { class: "editor-batch-tiles", "data-testid": "editor-batch-tiles" });
  bp.from = el("input", { type: "number", min: "1", value: "1", "data-testid": "editor-range-from", "aria-label": t("editor.batch.first") });
  bp.to = el("input", { type: "number", min: "1", value: "10", "data-testid": "editor-range-to", "aria-label": t("editor.batch.last") });
  bp.body = el("div", { class: "editor-batch-body", hidden: "" },
    el("div", { class: "editor-row" }, label("editor.batch.sort", sort), label("editor.batch.filter", filter),
      label("editor.design.template", template), el("label", {}, pickAll, ` ${t("editor.batch.pick-all")}`)),
    bp.tiles,
    el("div", { class: "editor-row" },
      el("button", { type: "button", "data-testid": "editor-batch-export", onclick: () => exportPicked(bp) }, t("editor.batch.export")),
      el("button", { type: "button", "data-testid": "editor-batch-close", onclick: () => hide(bp) }, t("editor.batch.close"))));
  const element = el("section", { class: "editor-batch", "data-testid": "editor-batch" }, bp.heading,
    el("div", { class: "editor-row" }, label("editor.batch.range", bp.from), label("editor.batch.to", bp.to),
      el("button", { type: "button", "data-testid": "editor-range-open", onclick: () => openRange(bp) }, t("editor.batch.open-range"))),
    bp.body);

  for (const select of [sort, filter, template]) select.addEventListener("change", () => render(bp));
  pickAll.addEventListener("change", () => {
    for (const i of bp.batch ? shown(bp) : []) { if (pickAll.checked) bp.picked.add(i.index); else bp.picked.delete(i.index); }
    render(bp);
  });

  return { element, show: (next) => show(bp, next), hide: () => hide(bp) };
}
