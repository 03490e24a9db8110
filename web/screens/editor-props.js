// The editor's property panel (used by editor.js): the selected body's colours, frozen
// count, lock and key, or the selected hole's colour and frozen count. Apply sends one edit
// to Python; a refusal's field paths are written beside the fields they name.

import { t } from "../i18n.js";
import { el } from "./dom.js";
import { cellWords, colourName, issueText, issueWords } from "./editor-state.js";

/** A typed number as Python should judge it: blank is null (none), a whole number is that
 * number, anything else goes as typed so that Python refuses it naming the field ("abc" in
 * Frozen is never silently no freeze). */
export function typed(text) {
  const clean = String(text).trim();
  if (clean === "") return null;
  return /^-?\d+$/.test(clean) ? Number(clean) : clean;
}

function propField(label, value, testid, path, attrs = {}) {
  const input = el("input", { type: "text", value: value ?? "", "data-testid": testid, ...attrs });
  const error = el("span", { class: "editor-field-error", "data-path": path, "data-testid": "editor-field-error" });
  return { input, error, row: el("label", { class: "editor-field" }, `${label} `, input, error) };
}

/** The fields of body `index` of `level`: {fields, rows, build()} (build() is the edit). */
function bodyFields(level, index) {
  const body = level.bodies[index];
  const colours = propField(t("editor.props.colours"), body.colors.join(", "), "editor-prop-colors", "edit.colors");
  // The layers' colours by name as they are typed, outer first (issue 52).
  const named = el("span", { class: "editor-field-names", "data-testid": "editor-prop-colour-names" });
  const nameColours = () => {
    named.textContent = colours.input.value.split(",").map((part) => part.trim()).filter((part) => /^\d+$/.test(part))
      .map((part) => colourName(Number(part))).join(" · ");
  };
  colours.input.addEventListener("input", nameColours);
  nameColours();
  colours.row.append(named);
  const frozen = propField(t("editor.props.frozen"), body.frozen, "editor-prop-frozen", "edit.frozen", { inputmode: "numeric" });
  const lockId = propField(t("editor.props.lock-id"), body.lock ? body.lock.id : "", "editor-prop-lock-id", "edit.lock");
  const kind = el("select", { "data-testid": "editor-prop-lock-kind", "aria-label": t("editor.props.lock-kind") },
    ...["silver", "gold"].map((k) => el("option", { value: k }, t(`editor.lock.${k}`))));
  if (body.lock) kind.value = body.lock.kind;
  const key = propField(t("editor.props.key"), body.key, "editor-prop-key", "edit.key");
  return {
    fields: [colours, frozen, lockId, key],
    rows: [el("p", { "data-testid": "editor-prop-title" }, t("editor.props.body", { number: index + 1, cells: body.cells.length })),
      colours.row, frozen.row, lockId.row, el("label", { class: "editor-field" }, `${t("editor.props.lock-kind")} `, kind), key.row],
    build: () => ({
      tool: "body_props", index,
      colors: colours.input.value.split(",").map((s) => s.trim()).filter((s) => s !== "").map(typed),
      frozen: typed(frozen.input.value),
      lock: lockId.input.value.trim() === "" ? null : { id: lockId.input.value.trim(), kind: kind.value },
      key: key.input.value.trim() === "" ? null : key.input.value.trim(),
    }),
  };
}

/** A hole's colour, picked by name (issue 52: never a number to type). */
function colourField(value) {
  const count = Math.max(15, value + 1);
  const input = el("select", { "data-testid": "editor-prop-hole-color" },
    ...Array.from({ length: count }, (_, i) => el("option", { value: String(i) }, colourName(i))));
  input.value = String(value);
  const error = el("span", { class: "editor-field-error", "data-path": "edit.color", "data-testid": "editor-field-error" });
  return { input, error, row: el("label", { class: "editor-field" }, `${t("editor.colour")} `, input, error) };
}

/** The fields of hole `index` of `level`: {fields, rows, build()}. */
function holeFields(level, index) {
  const hole = level.holes[index];
  const colour = colourField(hole.color);
  const frozen = propField(t("editor.props.frozen"), hole.frozen, "editor-prop-hole-frozen", "edit.frozen", { inputmode: "numeric" });
  return {
    fields: [colour, frozen],
    rows: [el("p", { "data-testid": "editor-prop-title" }, t("editor.props.hole", { number: index + 1, cell: cellWords(hole.cell) })),
      colour.row, frozen.row],
    build: () => ({
      tool: "hole_props", index, color: typed(colour.input.value),
      frozen: typed(frozen.input.value),
    }),
  };
}

/** The property panel of the editor `ed`: {element, render()} (render after every change). */
export function propsPanel(ed) {
  const element = el("section", { class: "editor-props", "data-testid": "editor-props", "aria-label": t("editor.props.title") });

  function render() {
    element.replaceChildren(el("h3", {}, t("editor.props.title")));
    const { answer, selected } = ed;
    if (!answer || !selected) {
      element.append(el("p", {}, t("editor.props.hint")));
      return;
    }
    const { fields, rows, build } = (selected.kind === "body" ? bodyFields : holeFields)(answer.level, selected.index);
    element.append(...rows);
    const apply = () => ed.queued(async () => {
      for (const f of fields) f.error.textContent = "";
      const { kind, index } = ed.selected;
      try {
        await ed.applyEdit(build(), { select: () => ({ kind, index }) });
        ed.say(t("editor.props.changed"));
      } catch (error) {
        const issues = error.issues || [];
        const unplaced = [];
        for (const issue of issues) {
          const slot = fields.find((f) => issue.path === f.error.dataset.path || issue.path.startsWith(`${f.error.dataset.path}[`));
          if (slot) slot.error.textContent = issueWords(issue); else unplaced.push(issue);
        }
        ed.say(t("editor.refusal", { what: t("editor.refused"),
          detail: unplaced.length ? unplaced.map(issueText).join("; ") : t("editor.props.see-fields") }), "error");
      }
    });
    element.append(el("button", { type: "button", "data-testid": "editor-prop-apply", onclick: apply }, t("editor.props.apply")));
  }

  return { element, render };
}
