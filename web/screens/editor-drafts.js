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
import { draftNamed, draftSet } from "./editor-state.js";

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

/** The stored drafts list as it is now (read afresh: another tab may have written). */
function list(dp) {
  dp.store.reloadDrafts();
  const stored = dp.store.drafts();
  return Array.isArray(stored) ? stored : [];
}

/** The entries that are drafts: {id, name, level, ...}; newest first. */
function readable(dp) {
  return list(dp).filter((d) => d && typeof d === "object" && typeof d.id === "string"
    && d.level && typeof d.level === "object")
    .sort((a, b) => String(b.saved).localeCompare(String(a.saved)));
}

/** The entries that name a draft but hold no level to open (never listed; named when the
 * editor starts, issue 54). */
function broken(dp) {
  return list(dp).filter((d) => d && typeof d === "object" && typeof d.id === "string"
    && !(d.level && typeof d.level === "object"));
}

function write(dp, entries) {
  try {
    dp.store.setDrafts(entries);
    return true;
  } catch (error) {
    dp.ed.say(DRAFT_WORDS.failed(error.message), "error");
    return false;
  }
}

/** The board is now draft `id` (null: not saved yet) named `name`, at revision `rev`. */
function setCurrent(dp, id, name, rev = 0) {
  draftSet(dp.ed, id, name);
  dp.nameInput.value = name;
  dp.baseRev = rev;
}

function entryNow(ed, id, name, rev) {
  return { id, name, level: ed.answer.level, certificate: ed.certificate(), origin: String(ed.origin),
    saved: new Date().toISOString(), rev };
}

/** The draft this board saves to: a new one the first time; a new one too when another tab
 * changed or deleted it since this tab last wrote it (both are kept: the note says so). */
function draftSlot(dp, entries) {
  const { ed, nameInput } = dp;
  if (!ed.draftId) {
    draftSet(ed, newId(), ed.draftName || nameInput.value.trim() || DRAFT_WORDS.auto(entries.length + 1));
    dp.baseRev = 0;
    return null;
  }
  const stored = entries.find((d) => d && d.id === ed.draftId);
  const storedRev = stored ? Number(stored.rev) || 0 : null;
  if (storedRev === null && dp.baseRev > 0 || storedRev !== null && storedRev !== dp.baseRev) {
    // Another tab changed or deleted this draft since we last wrote it: keep both.
    const name = DRAFT_WORDS.thisTab(ed.draftName);
    draftSet(ed, newId(), name);
    dp.baseRev = 0;
    return storedRev === null ? DRAFT_WORDS.gone(name) : DRAFT_WORDS.forked(name);
  }
  return null;
}

function save(dp, explicit) {
  const { ed, nameInput } = dp;
  if (!ed.answer) return;
  if (!ed.draftId && !explicit && !ed.history.canUndo) return;  // untouched copies stay unsaved
  const entries = list(dp);
  if (explicit) draftNamed(ed, nameInput.value.trim() || ed.draftName);
  const note = draftSlot(dp, entries);
  nameInput.value = ed.draftName;
  const entry = entryNow(ed, ed.draftId, ed.draftName, dp.baseRev + 1);
  const at = entries.findIndex((d) => d && d.id === ed.draftId);
  if (at >= 0) entries[at] = entry; else entries.push(entry);
  if (!write(dp, entries)) return;
  dp.baseRev = entry.rev;
  render(dp);
  if (note) ed.say(note, "error");
  else if (explicit) ed.say(DRAFT_WORDS.saved(ed.draftName), "success");
}

/** Add whole entries ({name, level, certificate, origin}) as new drafts; answers them with
 * their ids (a designed or imported batch is kept at once). */
function add(dp, items) {
  const entries = list(dp);
  const stamp = new Date().toISOString();
  const added = items.map((item, i) => ({ id: `${newId()}i${i}`, origin: "draft", certificate: null,
    ...item, saved: stamp, rev: 1 }));
  if (!write(dp, [...entries, ...added])) return [];
  render(dp);
  return added;
}

function render(dp) {
  const entries = readable(dp);
  dp.listElement.replaceChildren(...entries.map((d) => {
    const label = el("span", { "data-testid": "editor-draft-label" }, `${d.name}${d.certificate && d.certificate.status === "verified" ? " ✓" : ""}`);
    const button = (testid, text, onclick) => el("button", { type: "button", "data-testid": testid, onclick }, text);
    const item = el("li", { "data-testid": "editor-draft", "data-id": d.id, "data-name": d.name,
      "aria-current": d.id === dp.ed.draftId ? "true" : "false" }, label,
    button("editor-draft-open", DRAFT_WORDS.open(), () => openDraft(dp, d.id)),
    button("editor-draft-rename", DRAFT_WORDS.rename(), () => startRename(dp, item, label, d)),
    button("editor-draft-duplicate", DRAFT_WORDS.duplicate(), () => duplicate(dp, d.id)),
    button("editor-draft-delete", DRAFT_WORDS.delete(), () => deleteDraft(dp, d.id)));
    return item;
  }));
  if (!entries.length) dp.listElement.append(el("li", {}, DRAFT_WORDS.none()));
}

/** Open the stored draft `entry` on the board (rejects when Python refuses its level). */
async function openEntry(dp, entry) {
  await dp.ed.open(entry.level, { id: entry.id, name: entry.name, cert: entry.certificate, rev: Number(entry.rev) || 0,
    from: /^\d+$/.test(entry.origin || "") ? Number(entry.origin) : "draft" });
  render(dp);
  dp.ed.say(DRAFT_WORDS.opened(entry.name));
}

async function openDraft(dp, id) {
  const entry = readable(dp).find((d) => d.id === id);
  if (!entry) return;
  try {
    await openEntry(dp, entry);
  } catch (error) { dp.ed.refusal(error, DRAFT_WORDS.cannotOpen(entry.name)); }
}

/** Change one stored entry by id (read afresh, written at once); false when it is gone. */
function change(dp, id, update) {
  const entries = list(dp);
  const at = entries.findIndex((d) => d && d.id === id);
  if (at < 0) return false;
  entries[at] = { ...entries[at], ...update(entries[at]), rev: (Number(entries[at].rev) || 0) + 1 };
  if (!write(dp, entries)) return false;
  if (id === dp.ed.draftId) dp.baseRev = entries[at].rev;
  return true;
}

function rename(dp, id, name) {
  const { ed } = dp;
  const clean = name.trim();
  if (!clean || !change(dp, id, () => ({ name: clean }))) return;
  if (id === ed.draftId) { draftNamed(ed, clean); dp.nameInput.value = clean; }
  render(dp);
  ed.say(DRAFT_WORDS.renamed(clean));
}

function startRename(dp, item, label, entry) {
  const input = el("input", { type: "text", value: entry.name, maxlength: "80", "data-testid": "editor-draft-rename-input",
    "aria-label": DRAFT_WORDS.nameLabel() });
  let done = false;
  const finish = (keep) => { if (done) return; done = true; if (keep) rename(dp, entry.id, input.value); else render(dp); };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") finish(true);
    else if (event.key === "Escape") finish(false);
  });
  input.addEventListener("blur", () => finish(true));
  label.replaceWith(input);
  input.select();
  input.focus();
}

function duplicate(dp, id) {
  const entry = list(dp).find((d) => d && d.id === id);
  if (!entry) return;
  const [copy] = add(dp, [{ name: DRAFT_WORDS.copy(entry.name), level: entry.level, certificate: entry.certificate, origin: entry.origin }]);
  if (copy) dp.ed.say(DRAFT_WORDS.duplicated(copy.name), "success");
}

function deleteDraft(dp, id) {
  const { ed } = dp;
  const entries = list(dp);
  const at = entries.findIndex((d) => d && d.id === id);
  if (at < 0) return;
  const [entry] = entries.splice(at, 1);
  if (!write(dp, entries)) return;
  dp.lastDeleted = { entry, at };
  dp.undoDelete.hidden = false;
  if (id === ed.draftId) { draftSet(ed, null, ed.draftName); dp.baseRev = 0; }
  render(dp);
  ed.say(DRAFT_WORDS.deleted(entry.name));
}

function undoDeleteDraft(dp) {
  if (!dp.lastDeleted) return;
  const { entry, at } = dp.lastDeleted;
  const entries = list(dp);
  if (!entries.some((d) => d && d.id === entry.id)) entries.splice(Math.min(at, entries.length), 0, entry);
  if (!write(dp, entries)) return;
  dp.lastDeleted = null;
  dp.undoDelete.hidden = true;
  render(dp);
  dp.ed.say(DRAFT_WORDS.restored(entry.name), "success");
}

/** Another tab wrote the drafts: list them again; take its version of the draft on the board. */
async function storage(dp, event) {
  const { ed } = dp;
  if (event.key !== null && event.key !== "gridforge.drafts") return;
  const entries = list(dp);
  render(dp);
  if (!ed.alive || !ed.draftId || ed.tryPlay) return;
  const stored = entries.find((d) => d && d.id === ed.draftId);
  if (!stored || (Number(stored.rev) || 0) <= dp.baseRev) return;
  await ed.queued(async () => {
    await ed.open(stored.level, { id: stored.id, name: stored.name, cert: stored.certificate, rev: Number(stored.rev) || 0,
      from: /^\d+$/.test(stored.origin || "") ? Number(stored.origin) : "draft" });
    render(dp);
    ed.say(DRAFT_WORDS.updated(stored.name));
  });
}

/** The drafts panel of the editor `ed`: {element, list(), readable(), broken(), save(explicit),
 * render(), setCurrent(id, name, rev), openEntry(entry), add(entries), detach()}. */
export function draftsPanel(ed) {
  const dp = { ed, store: ed.app.store,
    baseRev: 0,          // the revision of the current draft this tab last wrote or read
    lastDeleted: null,   // {entry, at}
  };
  const nameInput = dp.nameInput = el("input", { type: "text", "data-testid": "editor-draft-name", "aria-label": DRAFT_WORDS.nameLabel(), maxlength: "80" });
  dp.listElement = el("ul", { class: "editor-drafts", "data-testid": "editor-drafts" });
  dp.undoDelete = el("button", { type: "button", "data-testid": "editor-draft-undo-delete", hidden: "" }, DRAFT_WORDS.undoDelete());
  const element = el("section", {}, el("h3", {}, DRAFT_WORDS.title()),
    el("div", { class: "editor-row" }, el("label", {}, DRAFT_WORDS.name(), nameInput),
      el("button", { type: "button", "data-testid": "editor-save-draft", onclick: () => save(dp, true) }, DRAFT_WORDS.save()),
      dp.undoDelete),
    dp.listElement);
  dp.undoDelete.addEventListener("click", () => undoDeleteDraft(dp));

  // A name typed is the draft's name at once (before any save, it names the first one).
  nameInput.addEventListener("input", () => { draftNamed(ed, nameInput.value.trim()); });
  nameInput.addEventListener("change", () => { if (ed.draftId) save(dp, true); });
  const onStorage = (event) => storage(dp, event);
  window.addEventListener("storage", onStorage);

  return { element,
    list: () => list(dp),
    readable: () => readable(dp),
    broken: () => broken(dp),
    save: (explicit) => save(dp, explicit),
    render: () => render(dp),
    setCurrent: (...args) => setCurrent(dp, ...args),
    openEntry: (entry) => openEntry(dp, entry),
    add: (items) => add(dp, items),
    detach() { window.removeEventListener("storage", onStorage); } };
}
