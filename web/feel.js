// Sound and touch feel (issue 22): short sounds synthesised with Web Audio (no sound files)
// and short vibrations, for what Python's answers say happened. Mines: a dig, a chain (the
// larger, the longer), a dug mine, a flag, the round's end (the seed's D4: dig, chain, mine
// and round end hang on the event channels; a flag on the call's answer). Snakes: a step,
// an exit, a thaw, an unlock, a level won (the step answer's events).
//
// The screens call `cue(kind, {size})` once the answer is drawn; the cue runs in a task of
// its own (setTimeout 0), so a sound or a vibration never holds up input or drawing, and
// nothing awaits audio. Both follow the settings at the moment they play (sound, volume,
// vibration: app.settings), so a change applies at once. No AudioContext exists before the
// page's first user gesture (browsers require one): cues before it are silent, and the
// context is made by the first cue after it. With reduced motion a vibration is one short
// pulse rather than a pattern.
//
// Test hook (window.gridforge.sound): `contexts` (AudioContexts made), `nodes` (audio
// nodes made, all kinds), `counts` ({kind: nodes made for that kind}), `log` ([{kind,
// nodes, size}], the last 100 sounds), `vibrations` ([{kind, pattern}], the last 100),
// `gestured` (whether the page has had a user gesture).

import { reducedMotion } from "./motion.js";

// Each kind: its notes [start s, length s, from Hz, to Hz, wave, level 0..1]; a chain is
// made for its size. Levels are relative to the volume setting.
const NOTES = {
  dig: [[0, 0.07, 240, 150, "triangle", 0.7]],
  mine: [[0, 0.32, 130, 45, "sawtooth", 0.5], [0, 0.2, 70, 40, "sine", 0.8]],
  flag: [[0, 0.045, 1250, 1150, "square", 0.18], [0.05, 0.04, 1500, 1500, "square", 0.14]],
  round_end: [[0, 0.14, 392, 392, "triangle", 0.5], [0.13, 0.2, 523, 523, "triangle", 0.5]],
  step: [[0, 0.045, 520, 600, "sine", 0.35]],
  exit: [[0, 0.16, 700, 260, "sine", 0.6]],
  thaw: [[0, 0.07, 1320, 1500, "triangle", 0.3], [0.07, 0.09, 1760, 1980, "triangle", 0.3]],
  unlock: [[0, 0.05, 620, 620, "square", 0.2], [0.07, 0.06, 930, 930, "square", 0.2]],
  won: [[0, 0.11, 523, 523, "triangle", 0.5], [0.1, 0.11, 659, 659, "triangle", 0.5],
    [0.2, 0.11, 784, 784, "triangle", 0.5], [0.3, 0.3, 1047, 1047, "triangle", 0.5]],
};
const CHAIN_MAX_TICKS = 16;
const BUZZ = {
  dig: [12], mine: [70, 40, 70], flag: [15], round_end: [30, 60, 30], step: [8],
  exit: [25], thaw: [10, 40, 10], unlock: [15, 40, 15], won: [40, 60, 40, 60, 80],
};
const KEEP = 100;  // entries kept in the hook's logs

/** A chain's notes: one rising tick per opened cell, up to a limit (longer when larger). */
function chainNotes(size) {
  const ticks = Math.max(1, Math.min(CHAIN_MAX_TICKS, size));
  return Array.from({ length: ticks }, (_, i) =>
    [i * 0.03, 0.04, 660 * 2 ** (i / 12), 660 * 2 ** (i / 12), "sine", 0.25]);
}

/**
 * The page's feel over `settings` (app.settings: sound, volume, vibration). Returns
 * `{cue(kind, {size}), touch(), hook}`.
 */
export function makeFeel(settings) {
  let context = null;
  let master = null;
  let gestured = Boolean(navigator.userActivation && navigator.userActivation.hasBeenActive);
  /** @type {{contexts: number, nodes: number, counts: Record<string, number>,
   *   log: {kind: string, nodes: number, size: number | null}[],
   *   vibrations: {kind: string, pattern: number[]}[], readonly gestured: boolean}} */
  const hook = { contexts: 0, nodes: 0, counts: {}, log: [], vibrations: [],
    get gestured() { return gestured; } };

  // The first gesture: a pointer pressed, a key pressed, a touch ended (the events that
  // count as user activation; a script's made-up event is none). A context made before
  // and left suspended resumes here.
  const onGesture = (event) => {
    if (!event.isTrusted) return;
    gestured = true;
    if (context && context.state === "suspended") context.resume().catch(() => {});
  };
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    window.addEventListener(type, onGesture, { capture: true, passive: true });
  }

  function audio() {
    if (context) return context;
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    context = new Context();
    hook.contexts += 1;
    master = context.createGain();
    master.connect(context.destination);
    return context;
  }

  function sound(kind, size) {
    const notes = kind === "chain" ? chainNotes(size) : NOTES[kind];
    if (!notes || !settings.sound || settings.volume <= 0 || !gestured) return;
    const ctx = audio();
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    master.gain.value = (settings.volume / 100) ** 2 * 0.6;  // loudness grows as its square
    const now = ctx.currentTime + 0.005;
    for (const [start, length, from, to, wave, level] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = wave;
      osc.frequency.setValueAtTime(from, now + start);
      if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, now + start + length);
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(level, now + start + 0.008);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(master);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
      osc.onended = () => gain.disconnect();
    }
    const made = notes.length * 2;
    hook.nodes += made;
    hook.counts[kind] = (hook.counts[kind] || 0) + made;
    hook.log.push({ kind, nodes: made, size: size ?? null });
    if (hook.log.length > KEEP) hook.log.shift();
  }

  function buzz(kind, size) {
    if (!settings.vibration || !gestured || typeof navigator.vibrate !== "function") return;
    let pattern = kind === "chain" ? [10 + Math.min(CHAIN_MAX_TICKS, size) * 4] : BUZZ[kind];
    if (!pattern) return;
    if (reducedMotion()) pattern = [Math.min(20, pattern[0])];
    navigator.vibrate(pattern);
    hook.vibrations.push({ kind, pattern });
    if (hook.vibrations.length > KEEP) hook.vibrations.shift();
  }

  return {
    hook,
    /** What happened (`kind`: dig, chain, mine, flag, round_end, step, exit, thaw, unlock,
     * won; `size`: a chain's cells), heard and felt once the current work is done. */
    cue(kind, { size = null } = {}) {
      if (!settings.sound && !settings.vibration) return;
      setTimeout(() => {
        try { sound(kind, size); buzz(kind, size); } catch (error) { console.error(error); }
      }, 0);
    },
    /** A press held long enough to act (mines' long press): a short pulse, at once. */
    touch() {
      if (settings.vibration && typeof navigator.vibrate === "function") navigator.vibrate(15);
    },
  };
}
