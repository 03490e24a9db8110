// The page's theme: light, dark, or the system's (prefers-color-scheme), as the saved
// settings say ("theme" in gridforge.settings: "system", "light" or "dark"). A classic script
// in <head>, run before anything is drawn, so a dark page never flashes light; it sets
// <html data-theme="light|dark" data-theme-choice="…">, the colour scheme of the browser's
// own controls and <meta name="theme-color"> (the top bar's colour, which the browser and
// an installed app's title bar take), and follows the system while the choice is "system".
// settings.js calls gridforgeTheme.apply(choice) when the player changes it. The stored
// value is only read here: store.js judges it (and keeps a damaged one aside).
(() => {
  const CHOICES = ["system", "light", "dark"];
  // The top bar's colour in each theme (--topbar in style.css; tests/test_theme.py checks).
  const BAR = { light: "#ffffff", dark: "#1d2027" };
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  let choice = "system";
  try {
    const saved = JSON.parse(window.localStorage.getItem("gridforge.settings"));
    if (saved && CHOICES.includes(saved.theme)) choice = saved.theme;
  } catch { /* no storage, or a damaged value: the system's theme */ }

  function apply(next) {
    if (CHOICES.includes(next)) choice = next;
    const theme = choice === "system" ? (system.matches ? "dark" : "light") : choice;
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.dataset.themeChoice = choice;
    for (const [name, value] of [["theme-color", BAR[theme]], ["color-scheme", theme]]) {
      const meta = document.querySelector(`meta[name="${name}"]`);
      if (meta) meta.setAttribute("content", value);
    }
    return theme;
  }

  system.addEventListener("change", () => apply());
  apply();
  window.gridforgeTheme = {
    apply,
    get choice() { return choice; },
    get theme() { return document.documentElement.dataset.theme; },
  };
})();
