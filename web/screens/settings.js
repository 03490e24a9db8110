// Settings (#settings): sound and its volume, vibration, the theme (light, dark or the
// system's), motion (the system's, or always reduced), letters on colours, developer tools,
// the play records (forgotten on demand) and clearing the saved data (after a confirmation).
// Every change is saved in gridforge.settings at once and applied at once on every screen
// (app.settings, settings.js); nothing here needs Python.
import { words } from "../announce-words.js";
import { DESIGNER_COLOURS } from "../palette.js";
import { clearTelemetry, readTelemetry } from "../telemetry-store.js";
import { el } from "./dom.js";

const THEME_CHOICES = [
  ["system", "Follow the system", "Light or dark as your device is set"],
  ["light", "Light", ""],
  ["dark", "Dark", ""],
];
const MOTION_CHOICES = [
  ["system", "Follow the system", "Brief animations, unless your device asks for less"],
  ["reduce", "Reduce motion", "No animations"],
];

/** A checkbox with its label and a line saying what it does. */
function toggle(testid, label, note) {
  const box = el("input", { type: "checkbox", "data-testid": testid, id: testid,
    "aria-describedby": note ? `${testid}-note` : null });
  const row = el("div", { class: "setting-row" },
    el("label", { class: "setting-label", for: testid }, box, el("span", {}, label)),
    note ? el("p", { class: "setting-note", id: `${testid}-note` }, note) : null);
  return { box, row };
}

export const screen = {
  id: "settings",
  title: "Settings",
  mount(root, app) {
    const { palette, settings } = app;

    const sound = toggle("setting-sound", "Sound effects");
    const volume = el("input", { type: "range", min: "0", max: "100", step: "5", id: "setting-volume",
      "data-testid": "setting-volume" });
    const volumeShown = el("output", { for: "setting-volume", class: "setting-volume-value",
      "data-testid": "setting-volume-value" });
    const vibration = toggle("setting-vibration", "Vibration", "Short vibrations on phones that have them.");
    /** A group of radio buttons for the setting `key`: [[value, radio, label], ...]. */
    const radios = (key, choices) => choices.map(([value, label, note]) => {
      const radio = el("input", { type: "radio", name: `setting-${key}`, value,
        id: `setting-${key}-${value}`, "data-testid": `setting-${key}-${value}` });
      radio.addEventListener("change", () => { if (radio.checked) settings[key] = value; });
      return [value, radio, el("label", { class: "setting-label", for: radio.id }, radio,
        el("span", {}, label), note ? el("span", { class: "setting-note-inline" }, note) : null)];
    });
    const themeBoxes = radios("theme", THEME_CHOICES);
    const motionBoxes = radios("motion", MOTION_CHOICES);
    const letters = toggle("setting-colour-letters", "Letters on colours",
      "A letter on each body and hole colour, for players who tell colours apart with difficulty.");
    const preview = el("div", { class: "letters-preview", "data-testid": "settings-letters-preview",
      "aria-hidden": "true" });
    const developer = toggle("setting-developer", "Developer tools",
      "Adds the Python console to the navigation and shows the version numbers at the foot of the page.");

    const records = el("p", { class: "setting-note", "data-testid": "settings-telemetry-count" });
    const forget = el("button", { type: "button", "data-testid": "settings-telemetry-clear" },
      "Forget my play records");
    const clear = el("button", { type: "button", "data-testid": "settings-clear" }, "Clear saved data…");
    const keep = el("button", { type: "button", "data-testid": "settings-clear-cancel" }, "Keep my data");
    const confirm = el("button", { type: "button", class: "danger", "data-testid": "settings-clear-confirm" },
      "Clear everything");
    const confirmation = el("div", { class: "settings-confirm", role: "alertdialog", hidden: true,
      "aria-labelledby": "settings-clear-title", "aria-describedby": "settings-clear-words",
      "data-testid": "settings-clear-panel" },
    el("h3", { id: "settings-clear-title" }, "Clear everything gridforge saved in this browser?"),
    el("p", { id: "settings-clear-words" }, "Your snakes progress and best steps, the mines run in " +
      "progress, your editor drafts, these settings and any copies of damaged saves are removed. " +
      "This cannot be undone: export your progress from the start page first if you may want it back."),
    el("div", { class: "settings-buttons" }, confirm, keep));

    root.append(el("section", { class: "settings", "data-testid": "settings", "aria-labelledby": "settings-title" },
      el("h1", { id: "settings-title" }, "Settings"),
      el("section", { class: "settings-group", "aria-labelledby": "settings-sound-title" },
        el("h2", { id: "settings-sound-title" }, "Sound and touch"),
        sound.row,
        el("div", { class: "setting-row setting-volume" },
          el("label", { for: "setting-volume" }, "Volume"), volume, volumeShown),
        vibration.row,
        el("p", { class: "setting-note", "data-testid": "settings-sound-note" }, words("settings.soundNote"),
          " ", words("settings.vibrationStill"))),
      el("section", { class: "settings-group", "aria-labelledby": "settings-look-title" },
        el("h2", { id: "settings-look-title" }, "Look"),
        el("fieldset", { class: "setting-choices", "data-testid": "setting-theme" },
          el("legend", {}, "Theme"), ...themeBoxes.map(([, , label]) => label)),
        el("fieldset", { class: "setting-choices", "data-testid": "setting-motion" },
          el("legend", {}, "Motion"), ...motionBoxes.map(([, , label]) => label)),
        letters.row, preview),
      el("section", { class: "settings-group", "aria-labelledby": "settings-developer-title" },
        el("h2", { id: "settings-developer-title" }, "For developers"),
        developer.row),
      el("section", { class: "settings-group", "aria-labelledby": "settings-records-title" },
        el("h2", { id: "settings-records-title" }, "Play records"),
        el("p", { class: "setting-note" }, "How each snakes level went (time, undos, restarts, " +
          "hints) is kept on this device only, to tune the levels' difficulty; it leaves the " +
          "device only if you export it from the snakes map."),
        records, el("div", { class: "settings-buttons" }, forget)),
      el("section", { class: "settings-group", "aria-labelledby": "settings-data-title" },
        el("h2", { id: "settings-data-title" }, "Saved data"),
        el("p", { class: "setting-note" }, "Your progress, drafts and settings live in this browser " +
          "only, on this device."),
        el("div", { class: "settings-buttons" }, clear), confirmation)));

    function drawPreview(on) {
      preview.replaceChildren(...Array.from({ length: DESIGNER_COLOURS }, (_, i) =>
        el("span", { class: "swatch", style: `background:${palette.colour(i)};color:${palette.inkOn(i)}` },
          on ? palette.letter(i) : "")));
    }

    /** Draw every control as the settings are now (after a change here, or elsewhere). */
    function sync() {
      sound.box.checked = settings.sound;
      volume.value = String(settings.volume);
      volume.disabled = !settings.sound;
      volumeShown.value = `${settings.volume}%`;
      vibration.box.checked = settings.vibration;
      for (const [value, radio] of themeBoxes) radio.checked = settings.theme === value;
      for (const [value, radio] of motionBoxes) radio.checked = settings.motion === value;
      letters.box.checked = settings.colourLetters;
      developer.box.checked = settings.developer;
      drawPreview(settings.colourLetters);
      drawRecords();
    }

    function drawRecords() {
      const count = readTelemetry(app.store).attempts.length;
      records.dataset.attempts = String(count);
      records.textContent = count === 0 ? "No play records kept."
        : `${count} ${count === 1 ? "attempt" : "attempts"} recorded.`;
      forget.disabled = count === 0;
    }

    sound.box.addEventListener("change", () => { settings.sound = sound.box.checked; });
    volume.addEventListener("input", () => { volumeShown.value = `${volume.value}%`; });
    volume.addEventListener("change", () => { settings.volume = Number(volume.value); });
    vibration.box.addEventListener("change", () => { settings.vibration = vibration.box.checked; });
    letters.box.addEventListener("change", () => { settings.colourLetters = letters.box.checked; });
    developer.box.addEventListener("change", () => { settings.developer = developer.box.checked; });

    forget.addEventListener("click", () => {
      clearTelemetry(app.store);
      drawRecords();
      app.message("Your play records were forgotten.", "success");
    });
    clear.addEventListener("click", () => {
      confirmation.hidden = false;
      clear.setAttribute("aria-expanded", "true");
      keep.focus();  // the safe choice first
    });
    const closeConfirmation = () => {
      confirmation.hidden = true;
      clear.setAttribute("aria-expanded", "false");
      clear.focus();
    };
    keep.addEventListener("click", closeConfirmation);
    confirmation.addEventListener("keydown", (event) => {
      if (event.key === "Escape") closeConfirmation();
    });
    confirm.addEventListener("click", () => {
      app.store.clearAll();
      clearTelemetry(app.store);  // its cached copy too
      settings.reset();
      closeConfirmation();
      app.message("Everything gridforge had saved in this browser was removed.", "success");
    });

    app.addEventListener("settings", sync);
    sync();
    return { unmount() { app.removeEventListener("settings", sync); } };
  },
};
