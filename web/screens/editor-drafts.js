// The editor's drafts (used by editor.js): the levels kept in gridforge.drafts ({id, name,
// level, certificate, origin, saved, rev}). Nothing is lost (issue 23): every edit, every
// designed or imported level is written at once (an unedited main-line or shared copy only
// on "Save draft"), and a name typed is kept from the first keystroke. The list renames,
// duplicates and deletes (a delete can be undone).
//
// Two tabs: each save reads the stored list afresh and writes only its own draft (merge by
// draft: another tab's drafts are never overwritten). Each draft carries a revision; a save
// whose draft another tab has changed since this tab last read it is not written over that
// change: this tab's level is kept as a new draft and the message says why. When another tab
// changes the draft on the board (a "storage" event), this tab takes that version.

import { t } from "../i18n.js";
import { el } from "./dom.js";

// The panel's words, from the catalogue (editor.drafts.*), looked up when said.
export const DRAFT_WORDS = {
  title: () => t("editor.drafts.title"), name: () => `${t("editor.drafts.name")} `,
  nameLabel: () => t("editor.drafts.name-label"), save: () => t("editor.drafts.save"),
  open: () => t("editor.drafts.open"), rename: () => t("editor.drafts.rename"),
  duplicate: () => t("editor.drafts.duplicate"), delete: () => t("editor.drafts.delete"),
  undoDelete: () => t("editor.drafts.undo-delete"), none: () => t("editor.drafts.none"),
  auto: (n) => t("editor.drafts.auto", { number: n }), copy: (name) => t("editor.drafts.copy", { name }),
  thisTab: (name) => t("editor.drafts.this-tab", { name }),
  saved: (name) => t("editor.drafts.saved", { name }), opened: (name) => t("editor.drafts.opened", { name }),
  deleted: (name) => t("editor.drafts.deleted", { name }), restored: (name) => t("editor.drafts.restored", { name }),
  duplicated: (name) => t("editor.drafts.duplicated", { name }), renamed: (name) => t("editor.drafts.renamed", { name }),
  forked: (name) => t("editor.drafts.forked", { name }),
  gone: (name) => t("editor.drafts.gone", { name }),
  updated: (name) => t("editor.drafts.updated", { name }),
  failed: (why) => t("editor.drafts.failed", { why }),
  cannotOpen: (name) => t("editor.drafts.cannot-open", { name }),
};

const newId = () => `d${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;

/** The drafts panel of the editor `ed`: {element, list(), readable(), save(explicit),
 * render(), setCurrent(id, name, rev), openEntry(entry), add(entries), detach()}. */
export function draftsPanel(ed) {
  const store = ed.app.store;
  const nameInput = el("input", { type: "text", "data-testid": "editor-draft-name", "aria-label": DRAFT_WORDS.nameLabel(), maxlength: "80" });
  const listElement = el("ul", { class: "editor-drafts", "data-testid": "editor-drafts" });
  const undoDelete = el("button", { type: "button", "data-testid": "editor-draft-undo-delete", hidden: "" }, DRAFT_WORDS.undoDelete());
  const element = el("section", {}, el("h3", {}, DRAFT_WORDS.title()),
    el("div", { class: "editor-row" }, el("label", {}, DRAFT_WORDS.name(), nameInput),
      el("button", { type: "button", "data-testid": "editor-save-draft", onclick: () => save(true) }, DRAFT_WORDS.save()),
      undoDelete),
    listElement);
  let baseRev = 0;  // the revision of the current draft this tab last wrote or read
  let lastDeleted = null;  // {entry, at}

  /** The stored drafts list as it is now (read afresh: another tab may have written). */
  function list() {
    store.reloadDrafts();
    const stored = store.drafts();
    return Array.isArray(stored) ? stored : [];
  }

  /** The entries that are drafts: {id, name, level, ...}; newest first. */
  function readable() {
    return list().filter((d) => d && typeof d === "object" && typeof d.id === "string"
      && d.level && typeof d.level === "object")
      .sort((a, b) => String(b.saved).localeCompare(String(a.saved)));
  }

  function write(entries) {
    try {
      store.setDrafts(entries);
      return true;
    } catch (error) {
      ed.say(DRAFT_WORDS.failed(error.message), "error");
      return false;
    }
  }

  /** The board is now draft `id` (null: not saved yet) named `name`, at revision `rev`. */
  function setCurrent(id, name, rev = 0) {
    ed.draftId = id;
    ed.draftName = name;
    nameInput.value = name;
    baseRev = rev;
  }

  function entryNow(id, name, rev) {
    return { id, name, level: ed.answer.level, certificate: ed.certificate(), origin: String(ed.origin),
      saved: new Date().toISOString(), rev };
  }

  function save(explicit) {
    if (!ed.answer) return;
    if (!ed.draftId && !explicit && !ed.history.canUndo) return;  // untouched copies stay unsaved
    const entries = list();
    if (explicit) ed.draftName = nameInput.value.trim() || ed.draftName;
    let note = null;
    if (!ed.draftId) {
      ed.draftId = newId();
      ed.draftName = ed.draftName || nameInput.value.trim() || DRAFT_WORDS.auto(entries.length + 1);
      baseRev = 0;
    } else {
      const stored = entries.find((d) => d && d.id === ed.draftId);
      const storedRev = stored ? Number(stored.rev) || 0 : null;
      if (storedRev === null && baseRev > 0 || storedRev !== null && storedRev !== baseRev) {
        // Another tab changed or deleted this draft since we last wrote it: keep both.
        const name = DRAFT_WORDS.thisTab(ed.draftName);
        note = storedRev === null ? DRAFT_WORDS.gone(name) : DRAFT_WORDS.forked(name);
        ed.draftId = newId();
        ed.draftName = name;
        baseRev = 0;
      }
    }
    nameInput.value = ed.draftName;
    const entry = entryNow(ed.draftId, ed.draftName, baseRev + 1);
    const at = entries.findIndex((d) => d && d.id === ed.draftId);
    if (at >= 0) entries[at] = entry; else entries.push(entry);
    if (!write(entries)) return;
    baseRev = entry.rev;
    render();
    if (note) ed.say(note, "error");
    else if (explicit) ed.say(DRAFT_WORDS.saved(ed.draftName), "success");
  }

  /** Add whole entries ({name, level, certificate, origin}) as new drafts; answers them with
   * their ids (a designed or imported batch is kept at once). */
  function add(items) {
    const entries = list();
    const stamp = new Date().toISOString();
    const added = items.map((item, i) => ({ id: `${newId()}i${i}`, origin: "draft", certificate: null,
      ...item, saved: stamp, rev: 1 }));
    if (!write([...entries, ...added])) return [];
    render();
    return added;
  }

  function render() {
    const entries = readable();
    listElement.replaceChildren(...entries.map((d) => {
      const label = el("span", { "data-testid": "editor-draft-label" }, `${d.name}${d.certificate && d.certificate.status === "verified" ? " ✓" : ""}`);
      const button = (testid, text, onclick) => el("button", { type: "button", "data-testid": testid, onclick }, text);
      const item = el("li", { "data-testid": "editor-draft", "data-id": d.id, "data-name": d.name,
        "aria-current": d.id === ed.draftId ? "true" : "false" }, label,
      button("editor-draft-open", DRAFT_WORDS.open(), () => openDraft(d.id)),
      button("editor-draft-rename", DRAFT_WORDS.rename(), () => startRename(item, label, d)),
      button("editor-draft-duplicate", DRAFT_WORDS.duplicate(), () => duplicate(d.id)),
      button("editor-draft-delete", DRAFT_WORDS.delete(), () => deleteDraft(d.id)));
      return item;
    }));
    if (!entries.length) listElement.append(el("li", {}, DRAFT_WORDS.none()));
  }

  /** Open the stored draft `entry` on the board (rejects when Python refuses its level). */
  async function openEntry(entry) {
    await ed.open(entry.level, { id: entry.id, name: entry.name, cert: entry.certificate, rev: Number(entry.rev) || 0,
      from: /^\d+$/.test(entry.origin || "") ? Number(entry.origin) : "draft" });
    render();
    ed.say(DRAFT_WORDS.opened(entry.name));
  }

  async function openDraft(id) {
    const entry = readable().find((d) => d.id === id);
    if (!entry) return;
    try {
      await openEntry(entry);
    } catch (error) { ed.refusal(error, DRAFT_WORDS.cannotOpen(entry.name)); }
  }

  /** Change one stored entry by id (read afresh, written at once); false when it is gone. */
  function change(id, update) {
    const entries = list();
    const at = entries.findIndex((d) => d && d.id === id);
    if (at < 0) return false;
    entries[at] = { ...entries[at], ...update(entries[at]), rev: (Number(entries[at].rev) || 0) + 1 };
    if (!write(entries)) return false;
    if (id === ed.draftId) baseRev = entries[at].rev;
    return true;
  }

  function rename(id, name) {
    const clean = name.trim();
    if (!clean || !change(id, () => ({ name: clean }))) return;
    if (id === ed.draftId) { ed.draftName = clean; nameInput.value = clean; }
    render();
    ed.say(DRAFT_WORDS.renamed(clean));
  }

  function startRename(item, label, entry) {
    const input = el("input", { type: "text", value: entry.name, maxlength: "80", "data-testid": "editor-draft-rename-input",
      "aria-label": DRAFT_WORDS.nameLabel() });
    let done = false;
    const finish = (keep) => { if (done) return; done = true; if (keep) rename(entry.id, input.value); else render(); };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") finish(true);
      else if (event.key === "Escape") finish(false);
    });
    input.addEventListener("blur", () => finish(true));
    label.replaceWith(input);
    input.select();
    input.focus();
  }

  function duplicate(id) {
    const entry = list().find((d) => d && d.id === id);
    if (!entry) return;
    const [copy] = add([{ name: DRAFT_WORDS.copy(entry.name), level: entry.level, certificate: entry.certificate, origin: entry.origin }]);
    if (copy) ed.say(DRAFT_WORDS.duplicated(copy.name), "success");
  }

  function deleteDraft(id) {
    const entries = list();
    const at = entries.findIndex((d) => d && d.id === id);
    if (at < 0) return;
    const [entry] = entries.splice(at, 1);
    if (!write(entries)) return;
    lastDeleted = { entry, at };
    undoDelete.hidden = false;
    if (id === ed.draftId) { ed.draftId = null; baseRev = 0; }
    render();
    ed.say(DRAFT_WORDS.deleted(entry.name));
  }

  undoDelete.addEventListener("click", () => {
    if (!lastDeleted) return;
    const { entry, at } = lastDeleted;
    const entries = list();
    if (!entries.some((d) => d && d.id === entry.id)) entries.splice(Math.min(at, entries.length), 0, entry);
    if (!write(entries)) return;
    lastDeleted = null;
    undoDelete.hidden = true;
    render();
    ed.say(DRAFT_WORDS.restored(entry.name), "success");
  });

  // A name typed is the draft's name at once (before any save, it names the first one).
  nameInput.addEventListener("input", () => { ed.draftName = nameInput.value.trim(); });
  nameInput.addEventListener("change", () => { if (ed.draftId) save(true); });

  // Another tab wrote the drafts: list them again; take its version of the draft on the board.
  async function storage(event) {
    if (event.key !== null && event.key !== "gridforge.drafts") return;
    const entries = list();
    render();
    if (!ed.alive || !ed.draftId || ed.tryPlay) return;
    const stored = entries.find((d) => d && d.id === ed.draftId);
    if (!stored || (Number(stored.rev) || 0) <= baseRev) return;
    await ed.queued(async () => {
      await ed.open(stored.level, { id: stored.id, name: stored.name, cert: stored.certificate, rev: Number(stored.rev) || 0,
        from: /^\d+$/.test(stored.origin || "") ? Number(stored.origin) : "draft" });
      render();
      ed.say(DRAFT_WORDS.updated(stored.name));
    });
  }
  window.addEventListener("storage", storage);

  return { element, list, readable, save, render, setCurrent, openEntry, add,
    detach() { window.removeEventListener("storage", storage); } };
}
