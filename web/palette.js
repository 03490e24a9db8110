// Body and hole colours, and the letter drawn on each for colour-blind players.
// All fifteen may appear together in a designed level: every pair of them is at least 20
// apart in CIEDE2000, and each stands apart from the board's floor, holes and stones in both
// themes (tests/test_palette.py and tests/test_theme.py compute it from this file). The first
// ten are the main line's (it uses no others); the last five were found by
// bench/palette_search.py (seeded) around them, replacing five that stood too close.

export const PALETTE = [
  "#d62728", // 0 red
  "#1f5fd6", // 1 blue
  "#2ca02c", // 2 green
  "#f2c600", // 3 yellow
  "#a040d0", // 4 violet
  "#ff7f0e", // 5 orange
  "#17becf", // 6 cyan
  "#f07ac8", // 7 pink
  "#7a4a1e", // 8 brown
  "#1a1a1a", // 9 black
  "#006655", // 10 teal
  "#ccffbb", // 11 mint
  "#000077", // 12 navy
  "#99aaee", // 13 periwinkle
  "#660022", // 14 wine
];

/** One letter per colour (same order), drawn on bodies and holes when the setting is on. */
export const LETTERS = ["R", "B", "G", "Y", "V", "O", "C", "P", "N", "K", "T", "M", "D", "L", "W"];

/** How many leading colours the designer may use in one level (all of them). */
export const DESIGNER_COLOURS = 15;

/** The luminance above which a letter on a colour is drawn black. */
export const INK_SWITCH = 0.179;

/** The colour of index `i` (a visible fallback for an index past the palette). */
export function colour(i) {
  return PALETTE[i] ?? "#444444";
}

/** The letter of colour `i` ("?" past the palette). */
export function letter(i) {
  return LETTERS[i] ?? "?";
}

/** Black or white, whichever reads better on colour `i` (WCAG relative luminance): the two
 * contrasts are equal at a luminance of 0.179, where both are 4.58:1, so the letter drawn on
 * any colour reads at least 4.5:1. */
export function inkOn(i) {
  const hex = colour(i);
  const channel = (offset) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > INK_SWITCH ? "#000000" : "#ffffff";
}
