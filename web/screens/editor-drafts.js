// The editor's drafts (used by editor.js): the levels kept in gridforge.drafts ({id, name,
// level, certificate, origin, saved}), saved after every edit (an unedited main-line or
// shared copy only on "Save draft"), listed newest first to open or delete.

import { el } from "./dom.js";

/** The drafts panel of the editor `ed`: {element, list(), readable(), save(explicit),
 * render(), setCurrent(id, name)}. */
export function draftsPanel(ed) {
  const store = ed.app.store;
  const nameInput = el("input", { type: "text", "data-testid": "editor-draft-name", "aria-label": "Draft name", maxlength: "80" });
  const listElement = el("ul", { class: "editor-drafts", "data-testid": "editor-drafts" });
  const element = el("section", {}, el("h3", {}, "Drafts"),
    el("div", { class: "editor-row" }, el("label", {}, "Name ", nameInput),
      el("button", { type: "button", "data-testid": "editor-save-draft", onclick: () => save(true) }, "Save draft")),
    listElement);

  /** The stored drafts list as it is (entries this editor cannot read are kept). */
  function list() {
    const stored = store.drafts();
    return Array.isArray(stored) ? stored : [];
  }

  /** The entries that are drafts: {id, name, level, ...}; newest first. */
  function readable() {
    return list().filter((d) => d && typeof d === "object" && typeof d.id === "string"
      && d.level && typeof d.level === "object")
      .sort((a, b) => String(b.saved).localeCompare(String(a.saved)));
  }

  /** The board is now draft `id` (null: not saved yet) named `name`. */
  function setCurrent(id, name) {
    ed.draftId = id;
    ed.draftName = name;
    nameInput.value = name;
  }

  function save(explicit) {
    if (!ed.answer) return;
    if (!ed.draftId && !explicit && !ed.history.canUndo) return;  // untouched copies stay unsaved
    const entries = list();
    if (!ed.draftId) {
      ed.draftId = `d${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
      if (!ed.draftName) ed.draftName = nameInput.value.trim() || `Draft ${entries.length + 1}`;
      nameInput.value = ed.draftName;
    }
    if (explicit) ed.draftName = nameInput.value.trim() || ed.draftName;
    const entry = { id: ed.draftId, name: ed.draftName, level: ed.answer.level, certificate: ed.certificate(),
      origin: String(ed.origin), saved: new Date().toISOString() };
    const at = entries.findIndex((d) => d && d.id === ed.draftId);
    if (at >= 0) entries[at] = entry; else entries.push(entry);
    try {
      store.setDrafts(entries);
    } catch (error) {
      ed.say(`The draft could not be saved: ${error.message}`, "error");
      return;
    }
    render();
    if (explicit) ed.say(`Draft "${ed.draftName}" saved.`, "success");
  }

  function render() {
    const entries = readable();
    listElement.replaceChildren(...entries.map((d) => el("li", { "data-testid": "editor-draft", "data-id": d.id,
      "data-name": d.name, "aria-current": d.id === ed.draftId ? "true" : "false" },
    el("span", {}, `${d.name}${d.certificate && d.certificate.status === "verified" ? " ✓" : ""}`),
    el("button", { type: "button", "data-testid": "editor-draft-open", onclick: () => openDraft(d.id) }, "Open"),
    el("button", { type: "button", "data-testid": "editor-draft-delete", onclick: () => deleteDraft(d.id) }, "Delete"))));
    if (!entries.length) listElement.append(el("li", {}, "No drafts yet: the first edit saves one."));
  }

  /** Open the stored draft `entry` on the board (rejects when Python refuses its level). */
  async function openEntry(entry) {
    await ed.open(entry.level, { id: entry.id, name: entry.name, cert: entry.certificate,
      from: /^\d+$/.test(entry.origin || "") ? Number(entry.origin) : "draft" });
    render();
    ed.say(`Draft "${entry.name}" opened.`);
  }

  async function openDraft(id) {
    const entry = readable().find((d) => d.id === id);
    if (!entry) return;
    try {
      await openEntry(entry);
    } catch (error) { ed.refusal(error, `Draft "${entry.name}" cannot be opened`); }
  }

  function deleteDraft(id) {
    store.setDrafts(list().filter((d) => !(d && d.id === id)));
    if (id === ed.draftId) ed.draftId = null;
    render();
    ed.say("Draft deleted.");
  }
  nameInput.addEventListener("change", () => { if (ed.draftId) save(true); });

  return { element, list, readable, save, render, setCurrent, openEntry };
}
