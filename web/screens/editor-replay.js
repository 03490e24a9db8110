// The editor's solution replay and try-play (used by editor.js). The replay steps through
// the certificate's solution on the editor's board (a slider and play/pause), each position
// being Python's view of the solution's first k steps. Try-play mounts the game's own play
// view (snakes-play.js, saveProgress false) over the editor: its moves are not edits and
// never write gridforge.progress.

import { t } from "../i18n.js";
import { el } from "./dom.js";
import { drafted, issueText, selectedSet, tryPlaySet } from "./editor-state.js";

const REPLAY_MS = 350;
// Replay speeds offered (times the normal pace) and the words of this module's new controls.
export const REPLAY_SPEEDS = [0.5, 1, 2, 4];
export const REPLAY_WORDS = {
  speed: () => `${t("editor.replay.speed")} `, editHere: () => t("editor.replay.edit-here"),
  editedHere: (n) => t(n === 1 ? "editor.replay.edited-here.one" : "editor.replay.edited-here", { count: n }),
  name: (name, n) => t("editor.replay.name", { name: name || t("editor.replay.level"), step: n }),
};

/** The replay bar of the editor `ed`: {element, show(solution | null), stop()}. The shown
 * position is `ed.replay` ({step, view}), which the board draws. */
export function solutionReplay(ed) {
  const replay = ed.replay;
  let playing = false;
  let timer = null;
  const slider = el("input", { type: "range", min: "0", max: "0", value: "0", "data-testid": "editor-replay-step", "aria-label": t("editor.replay.step-label") });
  const playButton = el("button", { type: "button", "data-testid": "editor-replay-play", onclick: () => togglePlay() }, t("editor.replay.play"));
  const stepLabel = el("span", { "data-testid": "editor-replay-label" }, "");
  const speed = el("select", { "data-testid": "editor-replay-speed", "aria-label": t("editor.replay.speed-label") },
    ...REPLAY_SPEEDS.map((x) => el("option", { value: String(x), selected: x === 1 ? "" : null }, `${x}×`)));
  const element = el("div", { class: "editor-replay", hidden: "" }, el("span", {}, `${t("editor.replay.solution")} `), slider, playButton, stepLabel,
    el("label", {}, REPLAY_WORDS.speed(), speed));

  const solution = () => {
    const cert = ed.certificate();
    return cert && cert.solution ? cert.solution : null;
  };

  async function showStep(k) {
    const steps = solution();
    if (!steps) return;
    const step = Math.max(0, Math.min(steps.length, k));
    const level = ed.answer.level;
    if (step > 0) {
      const answerView = await ed.python.position(level, steps.slice(0, step));
      if (ed.answer.level !== level) return;  // edited meanwhile
      replay.view = answerView.view;
    } else replay.view = null;
    replay.step = step;
    slider.value = String(step);
    stepLabel.textContent = t("editor.replay.step", { step, total: steps.length });
    ed.redraw();
  }

  function stop() {
    playing = false;
    clearTimeout(timer);
    replay.step = 0;
    replay.view = null;
    playButton.textContent = t("editor.replay.play");
  }

  async function togglePlay() {
    const steps = solution();
    if (!steps) return;
    if (playing) {
      playing = false;
      clearTimeout(timer);
      playButton.textContent = t("editor.replay.play");
      return;
    }
    playing = true;
    playButton.textContent = t("editor.replay.pause");
    if (replay.step >= steps.length) await showStep(0);
    const tick = async () => {
      if (!playing || !ed.alive) return;
      await showStep(replay.step + 1);
      if (replay.step >= steps.length) {
        playing = false;
        playButton.textContent = t("editor.replay.play");
        return;
      }
      timer = setTimeout(tick, REPLAY_MS / (Number(speed.value) || 1));
    };
    tick();
  }
  slider.addEventListener("input", () => {
    playing = false;
    playButton.textContent = t("editor.replay.play");
    showStep(Number(slider.value));
  });

  /** Offer the replay of `steps` (the certificate's solution), or hide it (null). */
  function show(steps) {
    element.hidden = !steps;
    if (!steps) return;
    slider.max = String(steps.length);
    slider.value = String(replay.step);
    stepLabel.textContent = t("editor.replay.step", { step: replay.step, total: steps.length });
  }

  return { element, show, stop };
}

/** Try-play for the editor `ed`, over `workspace` (hidden meanwhile); back to the editor
 * calls `focusBoard()`. Returns {element, start(), end()}. */
export function tryPlayView(ed, workspace, focusBoard, verify) {
  const element = el("section", { class: "editor-try", "data-testid": "editor-try-view", hidden: "" });

  async function start() {
    const { answer } = ed;
    if (!answer.ok) { ed.say(t("editor.try.not-ready", { issues: answer.issues.map(issueText).join("; ") }), "error"); return; }
    // A level without its certificate is verified first (the busy state shows it), so a win
    // at the proven minimum earns its three stars (issue 52).
    if (!ed.certificate()) await verify();
    if (ed.answer !== answer) return;  // edited meanwhile: the player starts again
    let play;
    try {
      play = await import("./snakes-play.js");
    } catch {
      ed.say(t("editor.try.missing"), "error");
      return;
    }
    workspace.hidden = true;
    element.hidden = false;
    const back = el("button", { type: "button", "data-testid": "editor-try-back", onclick: () => end() }, t("editor.try.back"));
    const here = el("button", { type: "button", "data-testid": "editor-try-edit-here", onclick: () => editHere(answer) }, REPLAY_WORDS.editHere());
    const playRoot = el("div", { class: "editor-try-play" });
    element.replaceChildren(el("div", { class: "editor-row" }, back, here,
      el("span", {}, t("editor.try.note"))), playRoot);
    const mounted = play.mountPlay(playRoot, ed.app, {
      level: structuredClone(answer.level), levelNumber: null, saveProgress: false,
      sha: answer.sha256, certificate: ed.certificate(),
      onWin: () => ed.say(t("editor.try.won"), "success"),
    });
    tryPlaySet(ed, mounted || {});
    back.focus();
  }

  /** Leave try-play with the position reached as a new draft (one edit: undo goes back). */
  async function editHere(answer) {
    const mounted = ed.tryPlay;
    if (!mounted || typeof mounted.steps !== "function") return;
    const steps = await mounted.steps();
    end();
    await ed.queued(async () => {
      try {
        const next = await ed.python.levelAt(answer.level, steps);
        ed.history.record();
        drafted(ed);
        ed.setDraft(null, REPLAY_WORDS.name(ed.draftName, steps.length));
        selectedSet(ed, null);
        ed.show(next);
        ed.saveDraft(false);
        ed.say(REPLAY_WORDS.editedHere(steps.length), "success");
      } catch (error) { ed.refusal(error, t("editor.replay.edit-refused")); }
    });
  }

  function end() {
    if (!ed.tryPlay) return;
    if (typeof ed.tryPlay.unmount === "function") ed.tryPlay.unmount();
    tryPlaySet(ed, null);
    element.replaceChildren();
    element.hidden = true;
    workspace.hidden = false;
    focusBoard();
  }

  return { element, start, end };
}
