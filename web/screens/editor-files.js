// The editor's files and links (used by editor.js): import a level, an exported {level,
// certificate} or a batch (a file, a drop anywhere on the editor, the paste box, or a paste
// anywhere on the editor outside a text field), through Python's bounded reader; export the
// certified level on the board or every certified draft as one batch file, after Python
// replayed each certificate again; and share the level by link (editor-share.js).

import { t } from "../i18n.js";
import { download, el } from "./dom.js";
import { encodeShare, SHARE_MAX_CODE } from "./editor-share.js";
import { issueText } from "./editor-state.js";

function slug(text) {
  return (text || "level").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "level";
}

/** Import `text` (named `what` in the messages) through Python's reader: one level onto
 * the board as an edit, a batch as drafts shown at a glance. */
async function importFrom(fp, text, what) {
  const { ed, drafts, importIssues } = fp;
  importIssues.replaceChildren();
  if (!text || !text.trim()) { ed.say(t("editor.import.nothing"), "error"); return; }
  let read;
  try {
    read = await ed.python.import(text);
  } catch (error) {
    const issues = error.issues || [];
    importIssues.replaceChildren(...(issues.length ? issues : [{ path: "", message: error.message }]).map((issue) =>
      el("li", { "data-testid": "editor-import-issue" }, issueText(issue))));
    const count = issues.length || 1;
    ed.say(t(count === 1 ? "editor.import.refused.one" : "editor.import.refused", { what, count }), "error");
    return;
  }
  const name = (lv, i) => (lv.meta && (lv.meta.title || lv.meta.id)) || t("editor.import.name", { number: i + 1 });
  if (read.kind === "batch") {
    // A batch becomes one draft per level at once, is shown at a glance (editor-batch.js)
    // and opens its first level (a new history).
    const added = drafts.add(read.levels.map((lv, i) => ({ name: name(lv, i), level: lv, certificate: read.certificates[i] })));
    ed.showBatch({ title: t("editor.import.batch", { what }), request: null, text: null,
      items: read.levels.map((lv, i) => ({ name: name(lv, i), level: lv, certificate: read.certificates[i],
        draftId: added[i] ? added[i].id : null })) });
    const first = added[0];
    if (first) await ed.open(first.level, { id: first.id, name: first.name, cert: first.certificate, rev: first.rev });
  } else {
    ed.history.record();  // importing one level is an edit of the board: it can be undone
    await ed.open(read.levels[0], { name: name(read.levels[0], 0), cert: read.certificates[0], keepHistory: true });
    drafts.save(false);  // kept at once (issue 23: nothing lost)
  }
  drafts.render();
  const notes = read.notes.length ? ` ${read.notes.join(" ")}` : "";
  const count = read.levels.length;
  ed.say(t(count === 1 ? "editor.import.done.one" : "editor.import.done", { count, what, notes }), "success");
}

async function importFromFile(fp, file) {
  if (!file) return;
  if (file.size > fp.importMaxBytes) {
    fp.importIssues.replaceChildren(el("li", { "data-testid": "editor-import-issue" }, t("editor.import.too-large-issue", { file: file.name, size: file.size, limit: fp.importMaxBytes })));
    fp.ed.say(t("editor.import.too-large", { file: file.name }), "error");
    return;
  }
  await importFrom(fp, await file.text(), file.name);
}

/** Listen for drops on the editor's `section` and pastes on the page; returns the detach. */
function attach(fp, section) {
  const { ed } = fp;
  section.addEventListener("dragover", (event) => { event.preventDefault(); section.classList.add("editor-dropping"); });
  section.addEventListener("dragleave", () => section.classList.remove("editor-dropping"));
  section.addEventListener("drop", async (event) => {
    event.preventDefault();
    section.classList.remove("editor-dropping");
    const file = event.dataTransfer.files && event.dataTransfer.files[0];
    if (file) await importFromFile(fp, file);
    else await importFrom(fp, event.dataTransfer.getData("text/plain"), t("editor.import.the-dropped-text"));
  });
  // Pasting anywhere on the editor but into a text field imports what was pasted.
  function paste(event) {
    if (!ed.alive || ed.tryPlay || !section.contains(event.target) && event.target !== document.body) return;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) return;
    const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
    if (!text.trim()) return;
    event.preventDefault();
    importFrom(fp, text, t("editor.import.the-pasted-text"));
  }
  document.addEventListener("paste", paste);
  return () => document.removeEventListener("paste", paste);
}

async function exportBatch(ed, items, file) {
  try {
    const text = await ed.python.exportBatch(items, null);
    download(file, text);
    ed.say(t(items.length === 1 ? "editor.export.done.one" : "editor.export.done", { count: items.length, file }), "success");
  } catch (error) { ed.refusal(error, t("editor.export.refused")); }
}

function exportCurrent(ed) {
  const cert = ed.certificate();
  if (!cert || cert.status !== "verified") { ed.say(t("editor.export.verify-first"), "error"); return; }
  const { level } = ed.answer;
  exportBatch(ed, [{ level, certificate: cert }], `${slug(ed.draftName || (level.meta && level.meta.id))}.batch.json`);
}

function exportAll(ed, drafts) {
  const items = drafts.readable().filter((d) => d.certificate && d.certificate.status === "verified")
    .map((d) => ({ level: d.level, certificate: d.certificate }));
  if (!items.length) { ed.say(t("editor.export.none-certified"), "error"); return; }
  exportBatch(ed, items, "drafts.batch.json");
}

async function share(ed, shareLink) {
  if (!ed.answer.sha256) { ed.say(t("editor.share.whole-only"), "error"); return; }
  try {
    const text = await ed.python.shareText(ed.answer.level);
    const code = await encodeShare(text);
    if (code.length > SHARE_MAX_CODE) { ed.say(t("editor.share.too-big"), "error"); return; }
    shareLink.value = `${location.origin}${location.pathname}#editor/share/${code}`;
    shareLink.select();
    if (navigator.clipboard) navigator.clipboard.writeText(shareLink.value).catch(() => {});
    ed.say(t("editor.share.ready", { length: shareLink.value.length }), "success");
  } catch (error) { ed.refusal(error, t("editor.share.cannot")); }
}

/**
 * Import, export and share for the editor `ed`, whose drafts are `drafts` (editor-drafts.js).
 * Returns {importSection, shareLink, exportCurrent(), exportAll(), share(), limits(facts),
 * attach(section) -> detach()}: attach listens for drops on the editor's section and
 * pastes on the page.
 */
export function editorFiles(ed, drafts) {
  const fp = { ed, drafts,
    importMaxBytes: Infinity,  // Python's limit (facts); Python checks it again
  };
  const importFile = el("input", { type: "file", accept: ".json,application/json", "data-testid": "editor-import-file", "aria-label": t("editor.import.file-label") });
  const importText = el("textarea", { rows: "3", "data-testid": "editor-import-text", placeholder: t("editor.import.text-placeholder"),
    "aria-label": t("editor.import.text-label") });
  fp.importIssues = el("ul", { class: "editor-issues", "data-testid": "editor-import-issues" });
  const shareLink = el("input", { type: "text", readonly: "", "data-testid": "editor-share-link", "aria-label": t("editor.share"),
    placeholder: t("editor.share.placeholder") });
  // The browser's own file button speaks the browser's language ("Choose File / No file
  // chosen"): it stays for the keyboard and tests, out of sight, behind a label in ours.
  importFile.classList.add("visually-hidden");
  importFile.id = "editor-import-file";
  const chosen = el("span", { class: "editor-file-name", "data-testid": "editor-import-file-name" }, t("editor.import.no-file"));
  const chooser = el("div", { class: "editor-row editor-file-chooser" }, importFile,
    el("label", { for: "editor-import-file", class: "button-like", "data-testid": "editor-import-choose" }, t("editor.import.choose")), chosen);
  const importSection = el("section", { class: "editor-files" }, el("h3", {}, t("editor.import.title")), chooser, importText,
    el("button", { type: "button", "data-testid": "editor-import-paste", onclick: () => importFrom(fp, importText.value, t("editor.import.pasted-text")) },
      t("editor.import.paste")),
    fp.importIssues);
  importFile.addEventListener("change", async () => {
    chosen.textContent = importFile.files[0] ? importFile.files[0].name : t("editor.import.no-file");
    await importFromFile(fp, importFile.files[0]);
    importFile.value = "";
  });

  return {
    importSection, shareLink,
    exportCurrent: () => exportCurrent(ed),
    exportAll: () => exportAll(ed, drafts),
    share: () => share(ed, shareLink),
    attach: (section) => attach(fp, section),
    /** The import limit from Python's facts. */
    limits(facts) { fp.importMaxBytes = facts.import_max_bytes; },
  };
}
