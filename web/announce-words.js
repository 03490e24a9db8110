// The words of the boards' live regions (what each action did, for screen readers) and of
// the sound and vibration settings (issue 22): one keyed table of English templates with
// {placeholders}, used only through `words(key, values)`. Every value put into a template
// comes from Python's answer (a colour index, a direction, a count, Python's own sentence);
// nothing here decides what happened. A catalogue per language can take this table over
// key for key.

export const WORDS = Object.freeze({
  // The live region of each board.
  "live.label": "What your last actions did",

  // Snakes: the colours by palette index (palette.js), the ends, directions and metals.
  "colour.0": "red", "colour.1": "blue", "colour.2": "green", "colour.3": "yellow",
  "colour.4": "violet", "colour.5": "orange", "colour.6": "cyan", "colour.7": "pink",
  "colour.8": "brown", "colour.9": "black", "colour.10": "grey", "colour.11": "olive",
  "colour.12": "pale cyan", "colour.13": "salmon", "colour.14": "pale blue",
  "colour.other": "other-coloured",
  "end.head": "head", "end.tail": "tail",
  "direction.U": "up", "direction.D": "down", "direction.L": "left", "direction.R": "right",
  "metal.silver": "silver", "metal.gold": "gold",
  "snakes.steps": "{count} steps",
  "snakes.steps.one": "1 step",
  "snakes.focus": "Picked the {colour} body's {end}.",
  "snakes.step": "The {colour} body's {end} moved {direction}; {steps}.",
  "snakes.exit": "A {colour} layer went into its hole; {count} layers left on that body.",
  "snakes.exit.one": "A {colour} layer went into its hole; 1 layer left on that body.",
  "snakes.exitLast": "The {colour} body went into its hole and left the board.",
  "snakes.thawBody": "The frozen {colour} body has thawed: it can move now.",
  "snakes.thawHole": "The frozen {colour} hole has thawed: it takes a layer now.",
  "snakes.unlock": "The {metal} lock of the {colour} body is open: it can move now.",
  "snakes.won": "Level complete in {steps}.",
  "snakes.refused": "Refused: {why}.",
  "snakes.undo": "Undone; {steps}.",
  "snakes.restart": "Restarted from the beginning; {steps}.",

  // Mines: what a dig found, the chain, flags, moves, stops, refusals, the round's end.
  "mines.dig": "Dug: {count} mines around.",
  "mines.dig.one": "Dug: 1 mine around.",
  "mines.digNone": "Dug: no mines around.",
  "mines.digFog": "Dug a cell in fog: its number stays hidden.",
  "mines.digMine": "Dug a mine!",
  "mines.chain": "The chain opened {count} more cells.",
  "mines.chain.one": "The chain opened 1 more cell.",
  "mines.move": "Moved.",
  "mines.flag": "Flag placed.",
  "mines.unflag": "Flag pulled.",
  "mines.stop": "You stopped.",
  "mines.refused": "Refused: {why}",
  "mines.roundEnd": "Round over: {title}",

  // The settings screen's sound and vibration group.
  "settings.soundNote": "Short sounds and vibrations follow what happens in the games: digs, " +
    "chains, mines, flags and round ends in mines; steps, exits, thaws, unlocks and wins in " +
    "snakes. Sound starts with your first tap, click or key.",
  "settings.vibrationStill": "With reduced motion, a vibration is one short pulse.",
});

/**
 * The words of `key` with each {name} replaced by `values[name]`. With a number in
 * `values.count` of 1 the key's ".one" form is used where there is one. An unknown key
 * gives the key itself (a test checks every key used exists).
 */
export function words(key, values = {}) {
  const one = values.count === 1 && Object.hasOwn(WORDS, `${key}.one`);
  const template = WORDS[one ? `${key}.one` : key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole);
}
