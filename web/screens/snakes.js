// Snakes: play a level and edit one (seed 004, section 6). The page keeps the level JSON
// and the play session; Python validates, plays, verifies, scores and designs
// (gridforge.snakes.play / editor / generate). Editing here only changes data: every rule
// and every verdict comes back from Python.

import { el } from "./dom.js";

const PALETTE = ["#e5484d", "#3e63dd", "#30a46c", "#f5d90a", "#8e4ec6", "#f76b15", "#12a594",
  "#d6409f", "#6e56cf", "#ad7f58", "#0090ff", "#46a758", "#ffc53d", "#e54666", "#8d8d8d"];
const SIZE = 34;
const DIRS = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const centre = (c) => [c[0] * SIZE + SIZE / 2, c[1] * SIZE + SIZE / 2];

export const snakesScreen = {
  id: "snakes",
  title: "Snakes",
  mount(root, gridforge) {
    let level = null;        // the level dict being played or edited
    let session = null;      // {level, steps, redo} from gridforge.snakes.play
    let view = null;         // the current state's view
    let mode = "play";       // play | edit
    let tool = "stone";      // stone | hole | body | erase | select
    let selected = null;     // {kind: "body" | "hole", index}
    let certificate = null;  // the certificate of `level` as it is now (null after an edit)
    let drag = null;         // {body, end, cells} while dragging
    let hintStep = null;
    let color = 0;

    const message = el("div", { class: "snakes-message", "data-testid": "snakes-message", "aria-live": "polite" });
    const counter = el("span", { "data-testid": "snakes-steps" });
    const board = svg("svg", { class: "snakes-board", "data-testid": "snakes-board" });
    const sampleSelect = el("select", { "data-testid": "snakes-sample" });
    const topologySelect = el("select", { "data-testid": "snakes-topology" });
    const targetInput = el("input", { type: "number", value: "40", min: "0", max: "100", "data-testid": "snakes-target" });
    const seedInput = el("input", { type: "number", value: "1", "data-testid": "snakes-design-seed" });
    const issues = el("ul", { class: "snakes-issues", "data-testid": "snakes-issues" });
    const certPanel = el("section", { class: "snakes-cert", "data-testid": "snakes-certificate", hidden: "" });
    const props = el("section", { class: "snakes-props", "data-testid": "snakes-props" });
    const importText = el("textarea", { rows: "4", "data-testid": "snakes-import-text", placeholder: "Paste level JSON here" });
    const colsInput = el("input", { type: "number", min: "2", max: "18", "data-testid": "snakes-cols" });
    const rowsInput = el("input", { type: "number", min: "2", max: "24", "data-testid": "snakes-rows" });
    const colorSelect = el("select", { "data-testid": "snakes-color" },
      ...PALETTE.map((_, i) => el("option", { value: String(i) }, `colour ${i}`)));
    const toolButtons = ["stone", "hole", "body", "erase", "select"].map((name) =>
      el("button", { type: "button", "data-tool": name, "data-testid": `snakes-tool-${name}`,
        onclick: () => { tool = name; renderTools(); } }, name));
    const playBar = el("div", { class: "snakes-bar", "data-testid": "snakes-play-bar" },
      el("button", { type: "button", "data-testid": "snakes-undo", onclick: () => call("undo") }, "Undo"),
      el("button", { type: "button", "data-testid": "snakes-redo", onclick: () => call("redo") }, "Redo"),
      el("button", { type: "button", "data-testid": "snakes-restart", onclick: () => restart() }, "Restart"),
      el("button", { type: "button", "data-testid": "snakes-hint", onclick: () => hint() }, "Hint"),
      counter);
    const editBar = el("div", { class: "snakes-bar", "data-testid": "snakes-edit-bar", hidden: "" },
      ...toolButtons, colorSelect,
      el("label", {}, "cols ", colsInput), el("label", {}, "rows ", rowsInput),
      el("button", { type: "button", "data-testid": "snakes-resize", onclick: () => resize() }, "Resize"));
    const modeButton = el("button", { type: "button", "data-testid": "snakes-mode", onclick: () => setMode(mode === "play" ? "edit" : "play") }, "Edit level");

    const section = el("section", { class: "snakes" });
    root.append(section);
    section.append(
      el("div", { class: "snakes-bar" },
        el("label", {}, "Level ", sampleSelect),
        el("button", { type: "button", "data-testid": "snakes-load", onclick: () => loadSample() }, "Load"),
        modeButton,
        el("button", { type: "button", "data-testid": "snakes-verify", onclick: () => verify() }, "Verify"),
        el("button", { type: "button", "data-testid": "snakes-export", onclick: () => exportLevel() }, "Export")),
      el("div", { class: "snakes-bar" },
        el("label", {}, "Design: template ", topologySelect), el("label", {}, "target ", targetInput),
        el("label", {}, "seed ", seedInput),
        el("button", { type: "button", "data-testid": "snakes-design", onclick: () => design() }, "Design")),
      playBar, editBar, message,
      el("div", { class: "snakes-main" }, board,
        el("div", { class: "snakes-side" }, props, issues, certPanel,
          el("details", {}, el("summary", {}, "Import JSON"), importText,
            el("button", { type: "button", "data-testid": "snakes-import", onclick: () => importLevel() }, "Import")))),
    );

    function say(text, kind = "info") {
      message.textContent = text;
      message.dataset.kind = kind;
    }

    // ------------------------------------------------------------------ loading
    async function load(newLevel, cert = null) {
      level = structuredClone(newLevel);
      certificate = cert;
      selected = null;
      hintStep = null;
      colsInput.value = level.cols;
      rowsInput.value = level.rows;
      await validate();
      renderCertificate();
      if (mode === "play") await restart(); else draw();
      // Tests and tools wait for this: the level is loaded and drawn.
      section.dataset.level = (level.meta && level.meta.id) || "custom";
    }

    async function restart() {
      try {
        const answer = await gridforge.call("gridforge.snakes.page.start", level);
        session = answer.session;
        view = answer.view;
        hintStep = null;
        updateCounter(answer);
        say(level.meta && level.meta.title ? level.meta.title : "Drag a head or a tail into a hole of its colour.");
      } catch (error) {
        session = null;
        view = null;
      }
      draw();
    }

    async function loadSample() {
      const index = Number(sampleSelect.value);
      await load(samples[index]);
    }

    async function importLevel() {
      let parsed;
      try { parsed = JSON.parse(importText.value); } catch (error) {
        say(`Import: not valid JSON (${error.message})`, "bad");
        return;
      }
      if (parsed && parsed.level && parsed.certificate) await load(parsed.level, parsed.certificate);
      else await load(parsed);
    }

    // ------------------------------------------------------------------ play
    function updateCounter(answer) {
      counter.textContent = `Steps: ${answer.step_count}`;
      if (answer.view.complete) say(`Complete in ${answer.step_count} steps!`, "good");
    }

    async function call(name, ...args) {
      if (!session) return;
      try {
        const answer = await gridforge.call(`gridforge.snakes.page.${name}`, session, ...args);
        session = answer.session;
        view = answer.view;
        hintStep = null;
        if (answer.refused) say(`Refused: ${answer.refused.message}`, "bad");
        else if (!answer.view.complete) say("");
        updateCounter(answer);
      } catch (error) { /* the error banner shows it */ }
      draw();
    }

    async function hint() {
      if (!session) return;
      say("Searching for a hint…");
      try {
        const answer = await gridforge.call("gridforge.snakes.page.hint", session);
        hintStep = answer.step;
        say(answer.step ? `Hint: move body ${answer.step[0] + 1}'s ${answer.step[1]} ${answer.step[2]}` +
          (answer.remaining !== null ? ` (${answer.remaining} steps to go from here)` : "")
          : `No hint: ${answer.status}`, answer.step ? "info" : "bad");
      } catch (error) { /* shown by the banner */ }
      draw();
    }

    // ------------------------------------------------------------------ edit
    function edited() {
      certificate = null;  // any edit invalidates the certificate (seed section 5)
      renderCertificate();
      validate();
      draw();
      renderProps();
    }

    async function validate() {
      const answer = await gridforge.call("gridforge.snakes.page.validate", level);
      issues.replaceChildren(...answer.issues.map((issue) =>
        el("li", { "data-testid": "snakes-issue" }, `${issue.path}: ${issue.message}`)));
      return answer.ok;
    }

    function objectAt(cell) {
      const stone = level.stones.findIndex((s) => same(s, cell));
      const hole = level.holes.findIndex((h) => same(h.cell, cell));
      const body = level.bodies.findIndex((b) => b.cells.some((c) => same(c, cell)));
      return { stone, hole, body };
    }

    function editCell(cell) {
      const at = objectAt(cell);
      if (tool === "stone") {
        if (at.stone >= 0) level.stones.splice(at.stone, 1);
        else if (at.hole < 0 && at.body < 0) level.stones.push(cell);
      } else if (tool === "hole") {
        if (at.hole >= 0) level.holes[at.hole].color = color;
        else if (at.stone < 0 && at.body < 0) level.holes.push({ cell, color });
      } else if (tool === "erase") {
        if (at.stone >= 0) level.stones.splice(at.stone, 1);
        else if (at.hole >= 0) level.holes.splice(at.hole, 1);
        else if (at.body >= 0) level.bodies.splice(at.body, 1);
        selected = null;
      } else if (tool === "select") {
        selected = at.body >= 0 ? { kind: "body", index: at.body } : at.hole >= 0 ? { kind: "hole", index: at.hole } : null;
      }
      edited();
    }

    function resize() {
      const cols = Number(colsInput.value);
      const rows = Number(rowsInput.value);
      level.cols = cols;
      level.rows = rows;
      edited();
    }

    function field(label, value, onchange, testid) {
      const input = el("input", { value: value ?? "", "data-testid": testid });
      input.addEventListener("change", () => { onchange(input.value.trim()); edited(); });
      return el("label", {}, `${label} `, input);
    }

    function renderProps() {
      props.replaceChildren();
      if (mode !== "edit" || !selected) return;
      if (selected.kind === "body") {
        const body = level.bodies[selected.index];
        if (!body) return;
        props.append(el("h3", {}, `Body ${selected.index + 1}`),
          field("colours (outer first)", body.colors.join(","), (v) => {
            body.colors = v.split(",").map((s) => Number(s.trim()));
          }, "snakes-prop-colors"),
          field("frozen until layers out", body.frozen, (v) => {
            if (v === "") delete body.frozen; else body.frozen = Number(v);
          }, "snakes-prop-frozen"),
          field("lock (id:silver|gold)", body.lock ? `${body.lock.id}:${body.lock.kind}` : "", (v) => {
            if (v === "") delete body.lock; else { const [id, kind] = v.split(":"); body.lock = { id, kind }; }
          }, "snakes-prop-lock"),
          field("carries key for", body.key, (v) => {
            if (v === "") delete body.key; else body.key = v;
          }, "snakes-prop-key"));
      } else {
        const hole = level.holes[selected.index];
        if (!hole) return;
        props.append(el("h3", {}, `Hole at ${hole.cell}`),
          field("colour", hole.color, (v) => { hole.color = Number(v); }, "snakes-prop-hole-color"),
          field("frozen until layers out", hole.frozen, (v) => {
            if (v === "") delete hole.frozen; else hole.frozen = Number(v);
          }, "snakes-prop-hole-frozen"));
      }
    }

    function setMode(next) {
      mode = next;
      playBar.hidden = mode !== "play";
      editBar.hidden = mode !== "edit";
      modeButton.textContent = mode === "play" ? "Edit level" : "Play level";
      selected = null;
      renderProps();
      renderTools();
      if (mode === "play" && level) restart(); else draw();
    }

    function renderTools() {
      for (const button of toolButtons) button.setAttribute("aria-pressed", String(button.dataset.tool === tool));
    }

    // ------------------------------------------------------------------ verify, design, export
    function renderCertificate() {
      if (!certificate) { certPanel.hidden = true; return; }
      const c = certificate;
      const steps = c.optimal ? `${c.steps} steps, proven minimum`
        : c.steps !== null && c.steps !== undefined
          ? `${c.steps} steps; minimum unproven (lower bound ${c.lower_bound})` : `lower bound ${c.lower_bound}`;
      const rows = [];
      if (c.score) {
        for (const [name, value] of Object.entries(c.score.contributions)) {
          rows.push(el("tr", { "data-testid": "snakes-score-term" }, el("td", {}, name), el("td", {}, Number(value).toFixed(1))));
        }
      }
      const diag = c.score ? c.score.diagnostics : {};
      certPanel.replaceChildren(
        el("h3", { "data-testid": "snakes-cert-status" }, `Certificate: ${c.status}`),
        el("p", {}, steps),
        c.score ? el("p", { "data-testid": "snakes-score" }, `Design score ${c.score.total}`) : "",
        el("table", {}, ...rows),
        el("details", {}, el("summary", {}, "Diagnostics"),
          el("pre", {}, JSON.stringify(diag, null, 1))),
        c.solution ? el("button", { type: "button", "data-testid": "snakes-replay", onclick: () => replay() }, "Replay solution") : "",
      );
      certPanel.hidden = false;
    }

    async function verify() {
      if (!level) return;
      say("Verifying…");
      try {
        certificate = await gridforge.call("gridforge.snakes.page.verify", level);
        say(`Verified: ${certificate.status}`, certificate.status === "verified" ? "good" : "bad");
      } catch (error) { certificate = null; }
      renderCertificate();
    }

    async function replay() {
      if (!certificate || !certificate.solution) return;
      if (mode !== "play") setMode("play");
      await restart();
      for (const step of certificate.solution) {
        await call("step", step);
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    }

    async function design() {
      const request = {
        target: Number(targetInput.value), count: 1, seed: Number(seedInput.value),
        topology: topologySelect.value,
      };
      say("Designing… (progress above; Cancel stops it)");
      try {
        const batch = await gridforge.call("gridforge.snakes.page.design_levels", request);
        if (!batch.levels.length) {
          say(`No level within the budget: ${JSON.stringify(batch.report.shortfall)}`, "bad");
          return;
        }
        await load(batch.levels[0], batch.certificates[0]);
        say(`Designed: score ${batch.certificates[0].score.total}, template ${batch.levels[0].meta.template}`, "good");
      } catch (error) { /* the banner says why */ }
    }

    async function exportLevel() {
      if (!certificate) { say("Verify the level before exporting it.", "bad"); return; }
      try {
        const text = await gridforge.call("gridforge.snakes.page.export", level, certificate);
        const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })),
          download: `${(level.meta && level.meta.id) || "level"}.certified.json`, "data-testid": "snakes-download" });
        link.click();
        say("Exported the certified level.", "good");
      } catch (error) { /* the banner says why */ }
    }

    // ------------------------------------------------------------------ drawing
    function draw() {
      board.replaceChildren();
      if (!level) return;
      const cols = Math.max(1, Number(level.cols) || 1);
      const rows = Math.max(1, Number(level.rows) || 1);
      board.setAttribute("viewBox", `-4 -4 ${cols * SIZE + 8} ${rows * SIZE + 8}`);
      board.setAttribute("width", String(cols * SIZE + 8));
      board.setAttribute("height", String(rows * SIZE + 8));
      board.append(svg("rect", { x: -4, y: -4, width: cols * SIZE + 8, height: rows * SIZE + 8, class: "wall" }));
      for (let y = 0; y < rows; y++) {
        for (let x = 0; x < cols; x++) {
          board.append(svg("rect", { x: x * SIZE, y: y * SIZE, width: SIZE, height: SIZE, class: "floor",
            "data-x": x, "data-y": y, "data-testid": "snakes-cell" }));
        }
      }
      for (const [x, y] of level.stones) {
        board.append(svg("rect", { x: x * SIZE + 1, y: y * SIZE + 1, width: SIZE - 2, height: SIZE - 2, class: "stone", "pointer-events": "none" }));
      }
      const used = mode === "play" && view ? view.holes_used : [];
      level.holes.forEach((hole, i) => {
        if (used[i]) return;
        const [x, y] = hole.cell;
        board.append(svg("rect", { x: x * SIZE + 4, y: y * SIZE + 4, width: SIZE - 8, height: SIZE - 8, rx: 6,
          fill: "#fff", stroke: PALETTE[hole.color] || "#000", "stroke-width": 4, "pointer-events": "none",
          "data-testid": "snakes-hole" }));
        if (hole.frozen) label([x, y], `❄${hole.frozen}`, "#2b6cb0");
      });
      const bodies = mode === "play" && view ? view.bodies : level.bodies.map((b) => ({ cells: b.cells, color: b.colors[0], shed: 0 }));
      bodies.forEach((body, b) => {
        if (!body.cells.length) return;
        const spec = level.bodies[b] || { colors: [body.color] };
        const colour = PALETTE[body.color] || "#000";
        const points = body.cells.map(centre).map((p) => p.join(",")).join(" ");
        const isSelected = selected && selected.kind === "body" && selected.index === b;
        board.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": SIZE * 0.56,
          "stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none",
          class: isSelected ? "selected" : "", "data-testid": "snakes-body" }));
        const layersLeft = spec.colors.length - body.shed;
        if (layersLeft > 1) {
          spec.colors.slice(body.shed + 1).forEach((inner, k) => {
            board.append(svg("polyline", { points, fill: "none", stroke: PALETTE[inner], "stroke-width": Math.max(3, SIZE * 0.2 - k * 4),
              "stroke-linecap": "round", "stroke-linejoin": "round", "pointer-events": "none", opacity: 0.9 }));
          });
        }
        const [hx, hy] = centre(body.cells[0]);
        board.append(svg("circle", { cx: hx, cy: hy, r: SIZE * 0.34, fill: colour, stroke: "#222", "stroke-width": 2, "pointer-events": "none" }));
        board.append(svg("circle", { cx: hx - 4, cy: hy - 3, r: 2.5, fill: "#fff", "pointer-events": "none" }));
        board.append(svg("circle", { cx: hx + 4, cy: hy - 3, r: 2.5, fill: "#fff", "pointer-events": "none" }));
        const middle = body.cells[Math.floor(body.cells.length / 2)];
        if (spec.frozen) label(body.cells[body.cells.length - 1], `❄${spec.frozen}`, "#2b6cb0");
        // Lock and key badges: letters, since a page may have no emoji font.
        if (spec.lock) label(body.cells[0], `${spec.lock.kind === "gold" ? "G" : "S"}:${spec.lock.id}`, spec.lock.kind === "gold" ? "#975a16" : "#2d3748");
        if (spec.key) label(middle, `K:${spec.key}`, "#975a16");
      });
      if (hintStep && view) {
        const body = view.bodies[hintStep[0]];
        const from = hintStep[1] === "head" ? body.cells[0] : body.cells[body.cells.length - 1];
        const [dx, dy] = DIRS[hintStep[2]];
        const [x1, y1] = centre(from);
        board.append(svg("line", { x1, y1, x2: x1 + dx * SIZE * 0.9, y2: y1 + dy * SIZE * 0.9, class: "hint",
          "data-testid": "snakes-hint-arrow", "pointer-events": "none" }));
      }
      if (drag) {
        board.append(svg("polyline", { points: drag.cells.map(centre).map((p) => p.join(",")).join(" "),
          class: "drag", fill: "none", "pointer-events": "none" }));
      }
    }

    function label(cell, text, colour) {
      const [x, y] = centre(cell);
      const node = svg("text", { x: x + SIZE * 0.18, y: y + SIZE * 0.42, fill: colour, class: "badge", "pointer-events": "none" });
      node.textContent = text;
      board.append(node);
    }

    // ------------------------------------------------------------------ pointer input
    function cellOf(event) {
      const target = event.target.closest ? event.target.closest("[data-x]") : null;
      return target ? [Number(target.dataset.x), Number(target.dataset.y)] : null;
    }

    board.addEventListener("pointerdown", (event) => {
      const cell = cellOf(event);
      if (!cell || !level) return;
      if (mode === "edit") {
        if (tool === "body") { drag = { body: -1, end: "head", cells: [cell] }; draw(); }
        else editCell(cell);
        return;
      }
      if (!view) return;
      view.bodies.forEach((body, b) => {
        if (!body.cells.length) return;
        if (same(body.cells[0], cell)) drag = { body: b, end: "head", cells: [] , from: cell };
        else if (same(body.cells[body.cells.length - 1], cell)) drag = { body: b, end: "tail", cells: [], from: cell };
      });
      if (!drag) say("Grab a body by its head or its tail.");
    });
    board.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const cell = cellOf(event);
      if (!cell) return;
      const last = drag.cells.length ? drag.cells[drag.cells.length - 1] : drag.from;
      if (same(cell, last)) return;
      const back = drag.cells.length > 1 ? drag.cells[drag.cells.length - 2] : null;
      if (back && same(back, cell)) drag.cells.pop();
      else if (Math.abs(cell[0] - last[0]) + Math.abs(cell[1] - last[1]) === 1) drag.cells.push(cell);
      draw();
    });
    window.addEventListener("pointerup", async () => {
      if (!drag) return;
      const done = drag;
      drag = null;
      if (mode === "edit") {
        if (done.cells.length >= 2) {
          level.bodies.push({ cells: done.cells, colors: [color] });
          selected = { kind: "body", index: level.bodies.length - 1 };
          edited();
        } else draw();
        return;
      }
      if (done.cells.length) await call("drag", done.body, done.end, done.cells);
      else draw();
    });
    colorSelect.addEventListener("change", () => { color = Number(colorSelect.value); });

    // ------------------------------------------------------------------ start
    let samples = [];
    gridforge.ready.then(async () => {
      samples = await gridforge.call("gridforge.snakes.page.sample_levels");
      sampleSelect.replaceChildren(...samples.map((lv, i) =>
        el("option", { value: String(i) }, (lv.meta && lv.meta.title) || `Sample ${i + 1}`)));
      const names = await gridforge.call("gridforge.snakes.page.topologies");
      topologySelect.replaceChildren(...names.map((name) => el("option", { value: name }, name)));
      renderTools();
      await load(samples[0]);
    }, () => {});
  },
};
