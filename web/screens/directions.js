// The four directions of the grid, once for every screen: the file format's letter (a
// snakes step's "U" | "D" | "L" | "R"), the cell step [dx, dy] (y grows downwards), the
// arrow key that moves that way and the editor's word for it (editor.transform.move.*).

/** @typedef {"U" | "D" | "L" | "R"} Letter */
/** @typedef {{letter: Letter, step: [number, number], key: string, word: string}} Direction */

/** @type {readonly Direction[]} */
export const DIRECTIONS = Object.freeze([
  { letter: "U", step: [0, -1], key: "ArrowUp", word: "up" },
  { letter: "D", step: [0, 1], key: "ArrowDown", word: "down" },
  { letter: "L", step: [-1, 0], key: "ArrowLeft", word: "left" },
  { letter: "R", step: [1, 0], key: "ArrowRight", word: "right" },
]);

/** @type {(name: (d: Direction) => string, value: (d: Direction) => any, order?: Letter[]) => Record<string, any>} */
const table = (name, value, order = ["U", "D", "L", "R"]) => Object.freeze(Object.fromEntries(
  order.map((letter) => DIRECTIONS.find((d) => d.letter === letter))
    .map((d) => [name(/** @type {Direction} */ (d)), value(/** @type {Direction} */ (d))])));

/** A step's letter -> [dx, dy] (U, D, L, R in that order). */
export const STEPS = /** @type {Record<string, [number, number]>} */ (table((d) => d.letter, (d) => d.step));
/** An arrow key -> [dx, dy]. */
export const ARROW_STEPS = /** @type {Record<string, [number, number]>} */ (table((d) => d.key, (d) => d.step));
/** An arrow key -> the step's letter. */
export const ARROW_LETTERS = /** @type {Record<string, Letter>} */ (table((d) => d.key, (d) => d.letter));
/** The editor's word -> [dx, dy], in the order its buttons stand (left, up, right, down). */
export const WORD_STEPS = /** @type {Record<string, [number, number]>} */ (
  table((d) => d.word, (d) => d.step, ["L", "U", "R", "D"]));
