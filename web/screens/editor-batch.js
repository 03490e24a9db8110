// A batch at a glance (issue 23; used by editor.js): a designed batch, an imported one or a
// range of the main line, each level a thumbnail with its score, status, steps and template
// (all read from its certificate, Python's); sorted and filtered here (ordering what Python
// said, no rule), one opened to edit, and the selection exported as one batch file whose
// bytes Python writes (a whole designed batch: exactly the bytes design-levels --out writes).

import { download, el, svg } from "./dom.js";
import { mainlineLevel, shippedCount } from "./levels.js";

/** The most main-line levels opened as one batch. */
export const RANGE_MAX = 50;

// The panel's words, in one table (for the language catalogue).
export const BATCH_WORDS = {
  title: "Batch", range: "Main line from ", to: " to ", openRange: "Open range",
  sort: "Sort ", filter: "Show ", template: "Template ", export: "Export selection", close: "Close",
  pickAll: "Select all shown", open: "Open", none: "—",
  sorts: { order: "as made", score: "score, highest first", steps: "steps, most first", status: "status", template: "template" },
  filters: { all: "all", verified: "verified only", other: "not verified" },
  anyTemplate: "any",
  statuses: { verified: "verified", out_of_range: "outside request", unsolvable: "not solvable", undetermined: "not settled", none: "not verified" },
  caption: (i) => `score ${i.score ?? "—"} · ${i.statusWords} · ${i.steps ?? "—"} steps · ${i.template}`,
  heading: (title, n) => `${title}: ${n} level${n === 1 ? "" : "s"}`,
  rangeBad: (hi, max) => `A range is 1–${hi}, at most ${max} levels.`,
  exported: (n, file) => `Exported ${n} level${n === 1 ? "" : "s"} as ${file}.`,
  nothing: "Select at least one level to export.",
  mainline: (n) => `Main line ${n}`,
};

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

/** The batch panel of the editor `ed`: {element, show(batch), hide()}. A batch is {title,
 * items: [{name, level, certificate, draftId?, number?}], request, text}. */
export function batchPanel(ed) {
  let batch = null;
  const picked = new Set();
  const sort = el("select", { "data-testid": "editor-batch-sort", "aria-label": "Sort" },
    ...Object.entries(BATCH_WORDS.sorts).map(([value, label]) => el("option", { value }, label)));
  const filter = el("select", { "data-testid": "editor-batch-filter", "aria-label": "Show" },
    ...Object.entries(BATCH_WORDS.filters).map(([value, label]) => el("option", { value }, label)));
  const template = el("select", { "data-testid": "editor-batch-template", "aria-label": "Template" });
  const pickAll = el("input", { type: "checkbox", "data-testid": "editor-batch-pick-all" });
  const heading = el("h3", { "data-testid": "editor-batch-title" }, BATCH_WORDS.title);
  const tiles = el("ul", { class: "editor-batch-tiles", "data-testid": "editor-batch-tiles" });
  const from = el("input", { type: "number", min: "1", value: "1", "data-testid": "editor-range-from", "aria-label": "First level" });
  const to = el("input", { type: "number", min: "1", value: "10", "data-testid": "editor-range-to", "aria-label": "Last level" });
  const body = el("div", { class: "editor-batch-body", hidden: "" },
    el("div", { class: "editor-row" }, el("label", {}, BATCH_WORDS.sort, sort), el("label", {}, BATCH_WORDS.filter, filter),
      el("label", {}, BATCH_WORDS.template, template), el("label", {}, pickAll, ` ${BATCH_WORDS.pickAll}`)),
    tiles,
    el("div", { class: "editor-row" },
      el("button", { type: "button", "data-testid": "editor-batch-export", onclick: () => exportPicked() }, BATCH_WORDS.export),
      el("button", { type: "button", "data-testid": "editor-batch-close", onclick: () => hide() }, BATCH_WORDS.close)));
  const element = el("section", { class: "editor-batch", "data-testid": "editor-batch" }, heading,
    el("div", { class: "editor-row" }, el("label", {}, BATCH_WORDS.range, from), el("label", {}, BATCH_WORDS.to, to),
      el("button", { type: "button", "data-testid": "editor-range-open", onclick: () => openRange() }, BATCH_WORDS.openRange)),
    body);

  const facts = (item) => {
    const cert = item.certificate;
    const status = cert && cert.status ? cert.status : "none";
    return { score: cert && cert.score ? cert.score.total : null, status, statusWords: BATCH_WORDS.statuses[status] || status,
      steps: cert && Number.isInteger(cert.steps) ? cert.steps : null,
      template: (item.level.meta && item.level.meta.template) || BATCH_WORDS.none };
  };

  function shown() {
    let items = batch.items.map((item, index) => ({ item, index, ...facts(item) }));
    if (filter.value === "verified") items = items.filter((i) => i.status === "verified");
    else if (filter.value === "other") items = items.filter((i) => i.status !== "verified");
    if (template.value) items = items.filter((i) => i.template === template.value);
    const key = sort.value;
    const by = {
      score: (a, b) => (b.score ?? -1) - (a.score ?? -1),
      steps: (a, b) => (b.steps ?? -1) - (a.steps ?? -1),
      status: (a, b) => a.status.localeCompare(b.status),
      template: (a, b) => a.template.localeCompare(b.template),
    }[key];
    return by ? items.sort((a, b) => by(a, b) || a.index - b.index) : items;
  }

  function render() {
    if (!batch) return;
    const items = shown();
    heading.textContent = BATCH_WORDS.heading(batch.title, batch.items.length);
    tiles.replaceChildren(...items.map((i) => {
      const check = el("input", { type: "checkbox", "data-testid": "editor-batch-pick", "aria-label": `Select ${i.item.name}` });
      check.checked = picked.has(i.index);
      check.addEventListener("change", () => { if (check.checked) picked.add(i.index); else picked.delete(i.index); });
      return el("li", { class: "editor-batch-tile", "data-testid": "editor-batch-tile", "data-index": String(i.index),
        "data-score": i.score ?? "", "data-status": i.status, "data-steps": i.steps ?? "", "data-template": i.template },
      thumbnail(i.item.level, ed.palette),
      el("span", { class: "editor-batch-name" }, i.item.name),
      el("span", { class: "editor-batch-caption" }, BATCH_WORDS.caption(i)),
      el("span", { class: "editor-row" }, el("label", {}, check),
        el("button", { type: "button", "data-testid": "editor-batch-open", onclick: () => openItem(i.item) }, BATCH_WORDS.open)));
    }));
    pickAll.checked = items.length > 0 && items.every((i) => picked.has(i.index));
  }

  function show(next) {
    batch = next;
    picked.clear();
    const templates = [...new Set(next.items.map((item) => facts(item).template))].sort();
    template.replaceChildren(el("option", { value: "" }, BATCH_WORDS.anyTemplate),
      ...templates.map((name) => el("option", { value: name }, name)));
    body.hidden = false;
    render();
  }

  function hide() {
    batch = null;
    body.hidden = true;
    tiles.replaceChildren();
    heading.textContent = BATCH_WORDS.title;
  }

  async function openItem(item) {
    await ed.queued(async () => {
      try {
        if (item.draftId) {
          const entry = ed.drafts.readable().find((d) => d.id === item.draftId);
          if (entry) { await ed.drafts.openEntry(entry); return; }
        }
        await ed.open(item.level, { from: item.number ?? "draft", name: item.name, cert: item.certificate });
        ed.say(`${item.name} opened.`);
      } catch (error) { ed.refusal(error, `${item.name} cannot be opened`); }
    });
  }

  async function openRange() {
    const [a, b, highest] = [Number(from.value), Number(to.value), await shippedCount()];
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 1 || b < a || b > highest || b - a + 1 > RANGE_MAX) {
      ed.say(BATCH_WORDS.rangeBad(highest, RANGE_MAX), "error");
      return;
    }
    const numbers = Array.from({ length: b - a + 1 }, (_, k) => a + k);
    const found = await Promise.all(numbers.map((n) => mainlineLevel(n)));
    show({ title: `${BATCH_WORDS.mainline(a)}–${b}`, request: null, text: null,
      items: found.map((f, k) => ({ name: BATCH_WORDS.mainline(numbers[k]), level: f.level, certificate: f.certificate, number: numbers[k] })) });
  }

  async function exportPicked() {
    if (!batch || !picked.size) { ed.say(BATCH_WORDS.nothing, "error"); return; }
    const indices = [...picked].sort((a, b) => a - b);
    const file = "batch.json";
    try {
      // The whole of a designed batch: the very bytes Python wrote for it (design-levels --out).
      const text = batch.text && indices.length === batch.items.length ? batch.text
        : await ed.python.exportBatch(indices.map((i) => ({ level: batch.items[i].level, certificate: batch.items[i].certificate })), batch.request);
      download(file, text);
      ed.say(BATCH_WORDS.exported(indices.length, file), "success");
    } catch (error) { ed.refusal(error, "Export refused"); }
  }

  sort.addEventListener("change", render);
  filter.addEventListener("change", render);
  template.addEventListener("change", render);
  pickAll.addEventListener("change", () => {
    for (const i of batch ? shown() : []) { if (pickAll.checked) picked.add(i.index); else picked.delete(i.index); }
    render();
  });

  return { element, show, hide };
}
