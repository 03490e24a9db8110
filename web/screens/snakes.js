// The snakes screen: the main-line map (#snakes) and play of level N (#snakes/level/N).
// A level not shipped in this build, or still locked, lands on the map with a message.
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
    onclick: () => app.navigate(`#snakes/level/${n}`, { replace: true }) }, "Try again");
  root.append(el("section", { class: "snakes-unavailable", "data-testid": "snakes-unavailable",
    role: "alert" },
  el("h2", {}, `Level ${n} is not on this device yet`),
  el("p", {}, offline
    ? "It has not been saved for offline play, and there is no connection to fetch it. " +
      "Levels you have already played, and every level once the page has saved them all " +
      "(the line at the foot of the page says how far it is), open without a connection."
    : "It could not be fetched from the site just now. Check your connection and try again."),
  el("div", { class: "win-buttons" },
    retry,
    el("a", { class: "go", href: "#snakes", "data-testid": "snakes-unavailable-map" }, "Back to the map"),
    el("a", { href: "#home", "data-testid": "snakes-unavailable-home" }, "Home"))));
  app.message(`Level ${n} could not be opened: ${offline ? "no connection, and it is not saved offline yet" : "the site did not answer"}.`, "error");
}

async function openLevel(root, app, n, handle) {
  let count;
  try {
    count = await shippedCount();
  } catch (error) {
    app.message(`The level list could not be loaded (${error.message}). Reloading may help.`, "error");
    return;
  }
  if (handle.gone) return;
  if (n > count) {
    app.navigate("#snakes", { replace: true, kind: "error",
      message: `Level ${n} is not in this build yet: levels 1–${count} are.` });
    return;
  }
  const progress = app.store.progress();
  if (tileState(progress, n) === "locked") {
    app.navigate("#snakes", { replace: true, kind: "error",
      message: `Level ${n} is locked: finish level ${progress.snakes.open} first.` });
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
  const { level, certificate } = loaded;
  const head = el("div", { class: "play-head" },
    el("a", { href: "#snakes", class: "back", "data-testid": "snakes-back" }, "← Map"),
    el("h2", { "data-testid": "snakes-title" }, `Level ${n}`));
  root.append(head);
  handle.play = mountPlay(root, app, {
    level, certificate, levelNumber: n, saveProgress: true, lessons: true,
    onNext: () => {
      if (n + 1 <= count) app.navigate(`#snakes/level/${n + 1}`);
      else app.navigate("#snakes", { message: `That was level ${count}, the last one in this build.`, kind: "success" });
    },
    onMap: () => app.navigate("#snakes"),
  });
}

export const screen = {
  id: "snakes",
  title: "Snakes",
  mount(root, app, params) {
    if (params.level === undefined) {
      const map = mountMap(root, app);
      const panel = mountTelemetryPanel(root, app);  // the settings screen may take it over
      return { unmount() { map.unmount(); panel.unmount(); } };
    }
    const handle = { gone: false, play: null };
    openLevel(root, app, params.level, handle).catch((error) => {
      if (!handle.gone) app.message(`Level ${params.level} could not be opened (${error.message}).`, "error");
    });
    return {
      unmount() {
        handle.gone = true;
        if (handle.play) handle.play.unmount();
      },
    };
  },
};
