// The start page: the two games and the editor, each with the player's place in it and a
// picture of the game drawn from a real board (snakes: the level the player is on, from the
// main line's blocks; mines: the corner of a board Python's rules answer draws), and the
// progress file (export, import). The cards need no Python; the mines picture comes when
// Python is ready.
import { progressFileIssues } from "../progress-check.js";
import { minesRunOpen } from "../store.js";
import { t } from "../i18n.js";
import { download, el } from "./dom.js";
import { mainlineLevel, shippedCount } from "./levels.js";
import { minesPicture } from "./rules.js";
import { nextLevel } from "./snakes-map.js";
import { levelPicture } from "./snakes-picture.js";

/** The player's place in the snakes main line, in words. */
function snakesPlace(progress) {
  const done = Object.keys(progress.snakes.done).length;
  const current = progress.snakes.current;
  if (current) return t("home.snakes.waiting", { level: current.level, done });
  if (done === 0) return t("home.snakes.start");
  return t("home.snakes.next", { level: progress.snakes.open, done });
}

function minesPlace(mines) {
  const summary = mines.summary;
  if (!mines.run) return t("home.mines.none");
  if (!summary) return t("home.mines.running");
  const where = { battle: summary.battle, battles: summary.battles };
  if (summary.status === "won") return t("home.mines.won", where);
  if (summary.status === "lost") return t("home.mines.lost", where);
  return t("home.mines.running-at", where);
}

/** The mines card's history (the last runs, newest first) and the day's run with its best. */
function minesRuns(app) {
  const log = app.store.minesLog();
  const today = new Date().toISOString().slice(0, 10);
  const best = log.daily[today];
  const result = (r) => t(`home.mines.result.${r.result}`);
  const runs = log.runs.slice(0, 5);
  return el("div", { class: "mines-runs" },
    el("button", { type: "button", class: "go", "data-testid": "mines-daily",
      onclick: () => { app.askMinesDaily(); app.navigate("#mines"); } }, t("home.mines.daily")),
    el("p", { class: "place", "data-testid": "mines-daily-best" }, best
      ? t("home.mines.daily-best", { result: result(best), battle: best.battle }) : t("home.mines.daily-none")),
    runs.length ? el("details", { class: "mines-history", "data-testid": "mines-history", open: true },
      el("summary", {}, t("home.mines.history")),
      el("ol", {}, ...runs.map((r) => el("li", { "data-testid": "mines-history-run", "data-result": r.result,
        "data-battle": String(r.battle), "data-seed": String(r.seed) },
      t("home.mines.history-run", { date: r.date, result: result(r), battle: r.battle, seed: r.seed })))))
      : null);
}

export const screen = {
  id: "home",
  title: "Home",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app) {
    const progress = app.store.progress();
    const drafts = app.store.drafts();
    const current = progress.snakes.current;
    // Play opens the level to play now (issue 52): the one waiting, else the next unsolved.
    const snakesLink = `#snakes/level/${current ? current.level : nextLevel(progress, progress.snakes.open)}`;
    let live = true;
    const snakesGo = el("a", { class: "go", href: snakesLink, "data-testid": "home-snakes-go" },
      current ? t("home.continue") : t("home.play"));
    const snakesBox = el("div", { class: "home-picture", "data-testid": "home-snakes-picture" });
    const minesBox = el("div", { class: "home-picture", "data-testid": "home-mines-picture" });
    (async () => {
      const count = await shippedCount();
      const n = current && current.level <= count ? current.level : nextLevel(progress, count);
      const loaded = await mainlineLevel(n);
      if (live) snakesGo.href = `#snakes/level/${n}`;  // within what this build ships
      if (live && loaded) {
        snakesBox.dataset.level = String(n);
        snakesBox.append(levelPicture(loaded.level, t("home.snakes.picture", { level: n })));
      }
    })().catch((error) => console.error(error));  // the card reads well without its picture
    app.python.mines.rules().then((rules) => {
      if (!live || !rules || !rules.picture) return;
      const picture = minesPicture(rules.picture);
      picture.setAttribute("aria-label", t("home.mines.picture"));
      minesBox.append(picture);
    }).catch((error) => console.error(error));
    const fileInput = el("input", { type: "file", accept: ".json,application/json",
      "data-testid": "progress-import-file", class: "visually-hidden" });
    fileInput.style.display = "none";
    fileInput.addEventListener("change", async () => {
      const file = fileInput.files && fileInput.files[0];
      fileInput.value = "";
      if (!file) return;
      const section = /** @type {HTMLElement | null} */ (root.querySelector("[data-testid=home]"));
      if (section) section.dataset.busy = "1";  // Python checks the file: a moment
      try {
        // Checked as deeply as the screens would use it before anything is replaced.
        await app.store.importProgress(await file.text(), (progress) => progressFileIssues(app, progress));
        app.navigate("#home", { replace: true, message: t("home.imported"), kind: "success" });
      } catch (error) {
        app.message(t("home.import-failed", { reason: error.message }), "error");
      } finally {
        if (section) delete section.dataset.busy;
      }
    });
    root.append(el("section", { class: "home", "data-testid": "home" },
      el("div", { class: "home-cards" },
        el("article", { class: "card", "data-testid": "home-snakes" },
          snakesBox,
          el("h2", {}, t("home.snakes.title")),
          el("p", {}, t("home.snakes.about")),
          el("p", { class: "place", "data-testid": "home-snakes-place" }, snakesPlace(progress)),
          snakesGo),
        el("article", { class: "card", "data-testid": "home-mines" },
          minesBox,
          el("h2", {}, t("home.mines.title")),
          el("p", {}, t("home.mines.about")),
          el("p", { class: "place", "data-testid": "home-mines-place" }, minesPlace(progress.mines)),
          el("a", { class: "go", href: "#mines", "data-testid": "home-mines-go" },
            minesRunOpen(progress.mines) ? t("home.resume") : progress.mines.run ? t("home.new-run") : t("home.play")),
          minesRuns(app)),
        el("article", { class: "card", "data-testid": "home-editor" },
          el("h2", {}, t("home.editor.title")),
          el("p", {}, t("home.editor.about")),
          el("p", { class: "place", "data-testid": "home-editor-place" },
            drafts.length ? t(drafts.length === 1 ? "home.editor.draft" : "home.editor.drafts", { count: drafts.length })
              : t("home.editor.no-drafts")),
          el("a", { class: "go", href: "#editor", "data-testid": "home-editor-go" }, t("home.open")))),
      el("div", { class: "progress-io" },
        el("span", {}, t("home.progress.where")),
        el("button", { type: "button", "data-testid": "progress-export",
          onclick: () => download("gridforge-progress.json", app.store.exportProgress()) },
        t("home.progress.export")),
        el("button", { type: "button", "data-testid": "progress-import",
          onclick: () => fileInput.click() }, t("home.progress.import")),
        fileInput)));
    return { unmount() { live = false; } };
  },
};
