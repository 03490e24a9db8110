// The page's look, set before anything is drawn: its theme (light, dark, or the system's
// prefers-color-scheme) and its motion (reduced when the system prefers it or the player
// says so), as the saved settings say ("theme": "system", "light" or "dark"; "motion":
// "system" or "reduce", in gridforge.settings). A classic script in <head>, so a dark page
// never flashes light. It sets <html data-theme="light|dark" data-theme-choice="…"
// data-motion="reduce|full">, the colour scheme of the browser's own controls and
// <meta name="theme-color"> (the top bar's colour, which the browser and an installed app's
// title bar take); it follows the system while a choice is "system", and says
// "gridforge-motion" on document when the motion changes (motion.js). settings.js calls
// gridforgeTheme.apply(theme, motion) when the player changes them. The stored value is only
// read here: store.js judges it (and keeps a damaged one aside).
(() => {
  const THEMES = ["system", "light", "dark"];
  const MOTIONS = ["system", "reduce"];
  // The top bar's colour in each theme (--topbar in theme.css; tests/test_theme.py checks).
  const BAR = { light: "#ffffff", dark: "#1d2027" };
  const darkSystem = window.matchMedia("(prefers-color-scheme: dark)");
  const stillSystem = window.matchMedia("(prefers-reduced-motion: reduce)");
  let choice = "system";
  let motion = "system";
  try {
    const saved = JSON.parse(window.localStorage.getItem("gridforge.settings") ?? "null");
    if (saved && THEMES.includes(saved.theme)) choice = saved.theme;
    if (saved && MOTIONS.includes(saved.motion)) motion = saved.motion;
  } catch { /* no storage, or a damaged value: the system's look */ }

  function apply(nextTheme, nextMotion) {
    if (THEMES.includes(nextTheme)) choice = nextTheme;
    if (MOTIONS.includes(nextMotion)) motion = nextMotion;
    const theme = choice === "system" ? (darkSystem.matches ? "dark" : "light") : choice;
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.themeChoice = choice;
    for (const [name, value] of [["theme-color", BAR[theme]], ["color-scheme", theme]]) {
      const meta = document.querySelector(`meta[name="${name}"]`);
      if (meta) meta.setAttribute("content", value);
    }
    const still = motion === "reduce" || stillSystem.matches ? "reduce" : "full";
    if (root.dataset.motion !== still) {
      root.dataset.motion = still;
      document.dispatchEvent(new Event("gridforge-motion"));
    }
    return theme;
  }

  darkSystem.addEventListener("change", () => apply());
  stillSystem.addEventListener("change", () => apply());
  apply();
  /** @type {any} */ (window).gridforgeTheme = {
    apply,
    get choice() { return choice; },
    get theme() { return document.documentElement.dataset.theme; },
  };
})();
