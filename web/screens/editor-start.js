// The editor's start (editor.js): the route's level opened on the board: a main-line
// level's copy (#editor/level/N), a shared link's level (#editor/share/...), else the
// newest draft or an empty board. Every function takes the editor's object `e`.
import { t } from "../i18n.js";
import { DRAFT_WORDS } from "./editor-drafts.js";
import { decodeShare, ShareError } from "./editor-share.js";
import { issueText } from "./editor-state.js";
import { open, say, show } from "./editor-flow.js";
import { mainlineLevel, shippedCount } from "./levels.js";

/** Main-line level N (from the site's levels/ blocks, as the map reads them) and the
 * highest level shipped; `level` is null when N is not shipped. */
async function fetchMainline(number) {
  const [found, highest] = await Promise.all([mainlineLevel(number), shippedCount()]);
  return { level: found ? found.level : null, highest };
}

/** The route could not be honoured (`text` says why): the nearest sensible place is the
 * editor on the current draft, with the reason on the page's message line. Without a
 * reason: the newest draft, else an empty board. */
async function fallback(e, text) {
  if (text) {
    e.app.navigate("#editor", { replace: true, message: text, kind: "error" });
    return;
  }
  // The newest draft that opens; each one before it that no longer opens (a level this
  // build refuses) is named with the reason, in a notice that stays until read.
  const refused = e.drafts.broken().map((entry) => t("editor.refusal",
    { what: DRAFT_WORDS.cannotOpen(String(entry.name)), detail: t("editor.drafts.no-level") }));
  for (const entry of e.drafts.readable()) {
    try {
      await e.drafts.openEntry(entry);
      break;
    } catch (error) {
      const issues = error.issues || [];
      refused.push(t("editor.refusal", { what: DRAFT_WORDS.cannotOpen(entry.name),
        detail: issues.length ? issues.map(issueText).slice(0, 3).join("; ") : error.message }));
    }
  }
  if (!e.ed.answer) {
    show(e, await e.python.blank(7, 7));
    say(e, t("editor.empty-board"));
  }
  if (refused.length) {
    const told = refused.join(" ");  // one notice, however many
    e.app.store.notice(told);
    say(e, told, "error");
  }
}

async function openShared(e, code) {
  let text;
  try {
    text = await decodeShare(String(code));
  } catch (error) {
    await fallback(e, t("editor.share-refused", { why: error instanceof ShareError ? error.message : t("editor.share-undecodable") }));
    return;
  }
  let read;
  try {
    read = await e.python.import(text);
  } catch (error) {
    await fallback(e, t("editor.shared-level-refused", { why: (error.issues || []).map(issueText).join("; ") || error.message }));
    return;
  }
  await open(e, read.levels[0], { name: t("editor.shared-name") });
  say(e, t("editor.shared-opened"));
  // A shared level arrives verified (issue 52): the page verifies it on open, busy state and
  // cancel as for the Verify button, so its status and try-play's stars are true at once.
  await e.verification.verify();
}

/** Open the level the route `params` names (a failure said on the message line). */
export async function start(e, params) {
  e.tools.setTool(e.ed.tool);
  e.tools.setColour(0);
  e.drafts.render();
  try {
    if (params.level !== undefined && params.level !== null) {
      const number = Number(params.level);
      const { level, highest } = await fetchMainline(number);
      if (!level) {
        await fallback(e, t("editor.not-shipped", { level: number, highest }));
        return;
      }
      await open(e, level, { from: number, name: t("editor.copy-name", { level: number }) });
      say(e, t("editor.copy-opened", { level: number }));
    } else if (params.share !== undefined && params.share !== null) {
      await openShared(e, params.share);
    } else {
      await fallback(e, null);
    }
  } catch (error) {
    say(e, t("editor.start-failed", { detail: error.message }), "error");
  }
}
