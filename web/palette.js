// Body and hole colours, and the letter drawn on each for colour-blind players.
// The first ten are the ones the designer places in a level: every pair of them is at least
// 20 apart in CIEDE2000 (tests/test_palette.py computes it from this file), so colours that
// appear together are told apart at a glance. The last five exist for older levels only.

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
  "#7f7f7f", // 10 grey
  "#bcbd22", // 11 olive
  "#9edae5", // 12 pale cyan
  "#ff9896", // 13 salmon
  "#aec7e8", // 14 pale blue
];

/** One letter per colour (same order), drawn on bodies and holes when the setting is on. */
export const LETTERS = ["R", "B", "G", "Y", "V", "O", "C", "P", "N", "K", "A", "L", "I", "S", "U"];

/** How many leading colours the designer may use in one level. */
export const DESIGNER_COLOURS = 10;

/** The colour of index `i` (a visible fallback for an index past the palette). */
export function colour(i) {
  return PALETTE[i] ?? "#444444";
}

/** The letter of colour `i` ("?" past the palette). */
export function letter(i) {
  return LETTERS[i] ?? "?";
}

/** Black or white, whichever reads better on colour `i` (WCAG relative luminance). */
export function inkOn(i) {
  const hex = colour(i);
  const channel = (offset) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.3 ? "#111111" : "#ffffff";
}
