// Routes: the URL fragment names the screen (spec/web.md, "Screens and routes"). parse()
// never throws: a bad fragment becomes the nearest sensible screen plus a message saying
// what was wrong, so a link can never show a blank page. The main line's last level number
// is Python's (levels/index.json, which the build writes): the shell passes it in.

import { t } from "./i18n.js";

export const SCREENS = ["home", "snakes", "mines", "editor", "rules", "settings", "console"];

const LEVEL = /^[1-9][0-9]{0,5}$/;

/**
 * Parse a fragment ("#snakes/level/3", "snakes/level/3" or "") into
 * `{screen, params, hash, problem}`: `problem` is null or the player-facing reason why the
 * fragment was not taken as written. `levels`: the main line's last level number, or null
 * when it could not be read (then the level's screen says whether it is there).
 */
export function parse(fragment, levels = null) {
  const { text, parts } = fragmentParts(fragment);
  const route = (screen, params = {}, problem = null) =>
    ({ screen, params, hash: format(screen, params), problem });
  if (parts.length === 0) return route("home");
  const [head, ...rest] = parts;
  if (["home", "console", "mines", "rules", "settings"].includes(head)) {
    if (rest.length) return route(head, {}, t("route.no-page", { page: text, screen: title(head) }));
    return route(head);
  }
  if (head === "snakes" || head === "editor") {
    if (rest.length === 0) return route(head);
    if (rest[0] === "level" && rest.length === 2) return levelRoute(route, head, rest[1], levels);
    if (head === "editor" && rest[0] === "share" && rest.length === 2 && rest[1]) {
      return route(head, { share: rest[1] });
    }
    return route(head, {}, t("route.no-page", { page: text, screen: title(head) }));
  }
  return route("home", {}, t("route.no-page", { page: text, screen: title("home") }));
}

/** A fragment's text (decoded, "#" dropped) and its non-empty parts between slashes. */
function fragmentParts(fragment) {
  const raw = String(fragment ?? "").replace(/^#/, "");
  let text = raw;
  try { text = decodeURIComponent(raw); } catch { /* keep it raw; reported if unknown */ }
  return { text, parts: text.split("/").filter((part) => part !== "") };
}

/** The route of level `text` on `screen` (snakes or editor), or the screen with why not. */
function levelRoute(route, screen, text, levels) {
  if (!LEVEL.test(text)) {
    return route(screen, {}, levels ? t("route.not-level-range", { text, levels })
      : t("route.not-level", { text }));
  }
  const level = Number(text);
  if (levels && level > levels) return route(screen, {}, t("route.no-level", { level, levels }));
  return route(screen, { level });
}

/** The fragment (with "#") of a screen and its params; the inverse of parse(). */
export function format(screen, params = {}) {
  if (screen === "home") return "#home";
  if (params.level !== undefined) return `#${screen}/level/${params.level}`;
  if (params.share !== undefined) return `#${screen}/share/${encodeURIComponent(params.share)}`;
  return `#${screen}`;
}

/** A screen's name as the player reads it. */
export function title(screen) {
  return SCREENS.includes(screen) ? t(`route.screen.${screen}`) : screen;
}
