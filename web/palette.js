// Body and hole colours, and the letter drawn on each for colour-blind players.
// All fifteen may appear together in a designed level: every pair of them is at least 20
// apart in CIEDE2000, each stands apart from the board's floor, holes and stones in both
// themes, and each reads at least 3:1 against the floor (WCAG 1.4.11) - tests/test_palette.py and
// tests/test_theme.py compute it from this file. The first ten are the main line's (it uses no others). Issue 44
// moved the fifteen (bench/palette_contrast.py, seeded annealing) as little as those bounds
// allowed: yellow, orange, cyan and green darkened; mint and periwinkle, which could not
// reach 3:1 and stay apart, became sage and lavender. The dark theme's board has a dark
// floor and its own fifteen (DARK_PALETTE, issue 52).

export const PALETTE = [
  "#d72129", // 0 red
  "#1a5fd8", // 1 blue
  "#1c981c", // 2 green
  "#9a8200", // 3 yellow
  "#9a38d6", // 4 violet
  "#d16401", // 5 orange
  "#0691a0", // 6 cyan
  "#e33e99", // 7 pink
  "#78491e", // 8 brown
  "#1a1a1b", // 9 black
  "#006655", // 10 teal
  "#7a856f", // 11 sage
  "#000077", // 12 navy
  "#837ca6", // 13 lavender
  "#670022", // 14 wine
];

/** The same fifteen on the dark theme's board (issue 52): its floor is dark, so each colour is
 * a lighter shade of its light-theme self, reading at least 3:1 on that floor, every pair
 * still 20 apart in CIEDE2000 (bench/palette_dark.py found them; tests/test_palette.py). */
export const DARK_PALETTE = [
  "#ff4a45", // 0 red
  "#1e9fff", // 1 blue
  "#1a971b", // 2 green
  "#a68d15", // 3 yellow
  "#b14bea", // 4 violet
  "#f9852d", // 5 orange
  "#3aabba", // 6 cyan
  "#ff5ab1", // 7 pink
  "#986539", // 8 brown
  "#e8e9eb", // 9 black (a chalk white on the dark board)
  "#287e6c", // 10 teal
  "#8f9a84", // 11 sage
  "#1964f9", // 12 navy
  "#b7acd9", // 13 lavender
  "#a55967", // 14 wine
];

/** One letter per colour (same order), drawn on bodies and holes when the setting is on. */
export const LETTERS = ["R", "B", "G", "Y", "V", "O", "C", "P", "N", "K", "T", "S", "D", "L", "W"];

/** How many leading colours the designer may use in one level (all of them). */
export const DESIGNER_COLOURS = 15;

/** The luminance above which a letter on a colour is drawn black. */
export const INK_SWITCH = 0.179;

/** The colour of index `i` on the board of the theme in use (a visible fallback for an index
 * past the palette). A theme change redraws what is on screen (the screens mount again). */
export function colour(i) {
  const dark = typeof document !== "undefined" && document.documentElement.dataset.theme === "dark";
  return (dark ? DARK_PALETTE : PALETTE)[i] ?? "#888888";
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
