// The start page: the two games and the editor, each with the player's place in it, and
// the progress file (export, import). Reads saved state only; Python is not needed here.
import { minesRunOpen } from "../store.js";
import { download, el } from "./dom.js";

/** The player's place in the snakes main line, in words. */
function snakesPlace(progress) {
  const done = Object.keys(progress.snakes.done).length;
  const current = progress.snakes.current;
  if (current) return `Level ${current.level} is waiting where you left it · ${done} done`;
  if (done === 0) return "Start with level 1";
  return `Level ${progress.snakes.open} is next · ${done} done`;
}

function minesPlace(mines) {
  const summary = mines.summary;
  if (!mines.run) return "No run in progress";
  if (!summary) return "A run is in progress";
  const of = `battle ${summary.battle} of ${summary.battles}`;
  if (summary.status === "won") return `Last run won: all ${summary.battles} battles`;
  if (summary.status === "lost") return `Last run lost in ${of}`;
  return `A run is in progress: ${of}`;
}

export const screen = {
  id: "home",
  title: "Home",
  mount(root, app) {
    const progress = app.store.progress();
    const drafts = app.store.drafts();
    const current = progress.snakes.current;
    const snakesLink = current ? `#snakes/level/${current.level}` : "#snakes";
    const fileInput = el("input", { type: "file", accept: ".json,application/json",
      "data-testid": "progress-import-file", class: "visually-hidden" });
    fileInput.style.display = "none";
    fileInput.addEventListener("change", async () => {
      const file = fileInput.files && fileInput.files[0];
      fileInput.value = "";
      if (!file) return;
      try {
        app.store.importProgress(await file.text());
        app.navigate("#home", { replace: true, message: "Progress imported.", kind: "success" });
      } catch (error) {
        app.message(`${error.message} Nothing was changed.`, "error");
      }
    });
    root.append(el("section", { class: "home", "data-testid": "home" },
      el("div", { class: "home-cards" },
        el("article", { class: "card", "data-testid": "home-snakes" },
          el("h2", {}, "Snakes"),
          el("p", {}, "Slide each body, head or tail first, into a hole of its colour."),
          el("p", { class: "place", "data-testid": "home-snakes-place" }, snakesPlace(progress)),
          el("a", { class: "go", href: snakesLink, "data-testid": "home-snakes-go" },
            current ? "Continue" : "Play")),
        el("article", { class: "card", "data-testid": "home-mines" },
          el("h2", {}, "Mines"),
          el("p", {}, "A roguelike minesweeper: five battles, action points, no guessing."),
          el("p", { class: "place", "data-testid": "home-mines-place" }, minesPlace(progress.mines)),
          el("a", { class: "go", href: "#mines", "data-testid": "home-mines-go" },
            minesRunOpen(progress.mines) ? "Resume" : progress.mines.run ? "New run" : "Play")),
        el("article", { class: "card", "data-testid": "home-editor" },
          el("h2", {}, "Level editor"),
          el("p", {}, "Build a snakes level, prove it solvable, share it."),
          el("p", { class: "place", "data-testid": "home-editor-place" },
            drafts.length ? `${drafts.length} draft${drafts.length === 1 ? "" : "s"} saved` : "No drafts yet"),
          el("a", { class: "go", href: "#editor", "data-testid": "home-editor-go" }, "Open"))),
      el("div", { class: "progress-io" },
        el("span", {}, "Your progress lives in this browser."),
        el("button", { type: "button", "data-testid": "progress-export",
          onclick: () => download("gridforge-progress.json", app.store.exportProgress()) },
        "Export progress"),
        el("button", { type: "button", "data-testid": "progress-import",
          onclick: () => fileInput.click() }, "Import progress…"),
        fileInput)));
  },
};
