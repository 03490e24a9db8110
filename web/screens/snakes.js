// The snakes screen: the main-line map (#snakes) and play of level N (#snakes/level/N).
// A level not shipped in this build, or still locked, lands on the map with a message.
import { t } from "../i18n.js";
import { el } from "./dom.js";
import { mainlineLevel, shippedCount } from "./levels.js";
import { mountMap, tileState } from "./snakes-map.js";
import { mountPlay } from "./snakes-play.js";
import { mountTelemetryPanel } from "./snakes-telemetry.js";

/** A level whose block cannot be had (offline before it was saved, or a server error):
 * said in words, with the ways back. Never a blank screen. */
function unavailable(root, app, n, error) {
  const offline = navigator.onLine === false || /fetch|network/i.test(String(error && error.message));
  const retry = el("button", { type: "button", "data-testid": "snakes-retry",
    onclick: () => app.navigate(`#snakes/level/${n}`, { replace: true }) }, t("snakes.unavailable.retry"));
  root.append(el("section", { class: "snakes-unavailable", "data-testid": "snakes-unavailable",
    role: "alert" },
  el("h2", {}, t("snakes.unavailable.title", { level: n })),
  el("p", {}, t(offline ? "snakes.unavailable.offline" : "snakes.unavailable.online")),
  el("div", { class: "win-buttons" },
    retry,
    el("a", { class: "go", href: "#snakes", "data-testid": "snakes-unavailable-map" }, t("snakes.back-to-map")),
    el("a", { href: "#home", "data-testid": "snakes-unavailable-home" }, t("nav.home")))));
  app.message(t(offline ? "snakes.unavailable.message-offline" : "snakes.unavailable.message-online", { level: n }), "error");
}

async function openLevel(root, app, n, handle) {
  let count;
  try {
    count = await shippedCount();
  } catch (error) {
    app.message(t("snakes.list-failed", { reason: error.message }), "error");
    return;
  }
  if (handle.gone) return;
  if (n > count) {
    app.navigate("#snakes", { replace: true, kind: "error",
      message: t("snakes.not-built", { level: n, count }) });
    return;
  }
  const progress = app.store.progress();
  if (tileState(progress, n) === "locked") {
    app.navigate("#snakes", { replace: true, kind: "error",
      message: t("snakes.locked", { level: n, open: progress.snakes.open }) });
    return;
  }
  let loaded;
  try {
    loaded = await mainlineLevel(n);
  } catch (error) {
    if (!handle.gone) unavailable(root, app, n, error);
    return;
  }
  if (handle.gone) return;
  // Shipped: n is within the count checked above.
  const { level, certificate } = /** @type {NonNullable<typeof loaded>} */ (loaded);
  // The level's title and the way back sit with the controls (beside the board on a wide
  // screen, under it on a phone): nothing but the shell's one-row header above the board.
  const head = el("div", { class: "play-head" },
    el("a", { href: "#snakes", class: "back", "data-testid": "snakes-back" }, t("snakes.back")),
    el("h2", { "data-testid": "snakes-title" }, t("snakes.level", { level: n })));
  handle.play = mountPlay(root, app, {
    level, certificate, levelNumber: n, saveProgress: true, lessons: true, head,
    onNext: () => {
      if (n + 1 <= count) app.navigate(`#snakes/level/${n + 1}`);
      else app.navigate("#snakes", { message: t("snakes.last-level", { level: count }), kind: "success" });
    },
    onMap: () => app.navigate("#snakes"),
  });
}

export const screen = {
  id: "snakes",
  title: "Snakes",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app, params) {
    if (params.level === undefined) {
      const map = mountMap(root, app);
      const panel = mountTelemetryPanel(root, app);  // the settings screen may take it over
      return { unmount() { map.unmount(); panel.unmount(); } };
    }
    /** @type {{gone: boolean, play: {unmount(): void} | null}} */
    const handle = { gone: false, play: null };
    openLevel(root, app, params.level, handle).catch((error) => {
      if (!handle.gone) app.message(t("snakes.open-failed", { level: params.level, reason: error.message }), "error");
    });
    return {
      unmount() {
        handle.gone = true;
        if (handle.play) handle.play.unmount();
      },
    };
  },
};
