// Settings (#settings): the language, sound and its volume, vibration, the theme (light, dark or the
// system's), motion (the system's, or always reduced), letters on colours, developer tools,
// the play records (forgotten on demand) and clearing the saved data (after a confirmation).
// Every change is saved in gridforge.settings at once and applied at once on every screen
// (app.settings, settings.js); nothing here needs Python.
import { DESIGNER_COLOURS } from "../palette.js";
import { clearTelemetry, readTelemetry } from "../telemetry-store.js";
import { t } from "../i18n.js";
import { el } from "./dom.js";

// [value, label key, note key]: the words come from the catalogue when the screen is drawn.
const THEME_CHOICES = [
  ["system", "settings.theme.system", "settings.theme.system-note"],
  ["light", "settings.theme.light", ""],
  ["dark", "settings.theme.dark", ""],
];
const MOTION_CHOICES = [
  ["system", "settings.motion.system", "settings.motion.system-note"],
  ["reduce", "settings.motion.reduce", "settings.motion.reduce-note"],
];
// Each language is named in its own words, so a player who cannot read the other one still
// finds theirs.
const LANGUAGE_CHOICES = [
  ["system", "settings.language.system", "settings.language.system-note"],
  ["en", "settings.language.en", ""],
  ["zh-CN", "settings.language.zh-CN", ""],
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

/** A group of radio buttons for the setting `key`: [[value, radio, label], ...]. */
function radios(settings, key, choices) {
  return choices.map(([value, label, note]) => {
    const radio = el("input", { type: "radio", name: `setting-${key}`, value,
      id: `setting-${key}-${value}`, "data-testid": `setting-${key}-${value}` });
    radio.addEventListener("change", () => { if (radio.checked) settings[key] = value; });
    return [value, radio, el("label", { class: "setting-label", for: radio.id }, radio,
      el("span", {}, t(label)), note ? el("span", { class: "setting-note-inline" }, t(note)) : null)];
  });
}

/** The screen's controls, each made once: {sound, volume, ..., confirmation}. */
function controls(settings) {
  const c = {};
  c.sound = toggle("setting-sound", t("settings.sound"));
  c.volume = el("input", { type: "range", min: "0", max: "100", step: "5", id: "setting-volume",
    "data-testid": "setting-volume" });
  c.volumeShown = el("output", { for: "setting-volume", class: "setting-volume-value",
    "data-testid": "setting-volume-value" });
  c.vibration = toggle("setting-vibration", t("settings.vibration"), t("settings.vibration-note"));
  c.themeBoxes = radios(settings, "theme", THEME_CHOICES);
  c.motionBoxes = radios(settings, "motion", MOTION_CHOICES);
  c.languageBoxes = radios(settings, "language", LANGUAGE_CHOICES);
  c.letters = toggle("setting-colour-letters", t("settings.letters"), t("settings.letters-note"));
  c.preview = el("div", { class: "letters-preview", "data-testid": "settings-letters-preview",
    "aria-hidden": "true" });
  c.developer = toggle("setting-developer", t("settings.developer"), t("settings.developer-note"));

  c.records = el("p", { class: "setting-note", "data-testid": "settings-telemetry-count" });
  c.forget = el("button", { type: "button", "data-testid": "settings-telemetry-clear" },
    t("settings.records.forget"));
  c.clear = el("button", { type: "button", "data-testid": "settings-clear" }, t("settings.clear"));
  c.keep = el("button", { type: "button", "data-testid": "settings-clear-cancel" }, t("settings.clear.keep"));
  c.confirm = el("button", { type: "button", class: "danger", "data-testid": "settings-clear-confirm" },
    t("settings.clear.confirm"));
  c.confirmation = el("div", { class: "settings-confirm", role: "alertdialog", hidden: true,
    "aria-labelledby": "settings-clear-title", "aria-describedby": "settings-clear-words",
    "data-testid": "settings-clear-panel" },
  el("h3", { id: "settings-clear-title" }, t("settings.clear.title")),
  el("p", { id: "settings-clear-words" }, t("settings.clear.words")),
  el("div", { class: "settings-buttons" }, c.confirm, c.keep));
  return c;
}

/** A titled group of the page. */
const group = (name, title, ...children) => el("section", { class: "settings-group", "aria-labelledby": `settings-${name}-title` },
  el("h2", { id: `settings-${name}-title` }, title), ...children);

/** The page of controls `c`, in its groups. */
function settingsPage(c) {
  return el("section", { class: "settings", "data-testid": "settings", "aria-labelledby": "settings-title" },
    el("h1", { id: "settings-title" }, t("settings.title")),
    group("language", t("settings.language"),
      el("fieldset", { class: "setting-choices", "data-testid": "setting-language" },
        el("legend", {}, t("settings.language")), ...c.languageBoxes.map(([, , label]) => label))),
    group("sound", t("settings.sound-title"),
      c.sound.row,
      el("div", { class: "setting-row setting-volume" },
        el("label", { for: "setting-volume" }, t("settings.volume")), c.volume, c.volumeShown),
      c.vibration.row,
      el("p", { class: "setting-note", "data-testid": "settings-sound-note" }, t("settings.sound-note"),
        " ", t("settings.vibration-reduced"))),
    group("look", t("settings.look"),
      el("fieldset", { class: "setting-choices", "data-testid": "setting-theme" },
        el("legend", {}, t("settings.theme")), ...c.themeBoxes.map(([, , label]) => label)),
      el("fieldset", { class: "setting-choices", "data-testid": "setting-motion" },
        el("legend", {}, t("settings.motion")), ...c.motionBoxes.map(([, , label]) => label)),
      c.letters.row, c.preview),
    group("developer", t("settings.developers"),
      c.developer.row),
    group("records", t("settings.records"),
      el("p", { class: "setting-note" }, t("settings.records-note")),
      c.records, el("div", { class: "settings-buttons" }, c.forget)),
    group("data", t("settings.data"),
      el("p", { class: "setting-note" }, t("settings.data-note")),
      el("div", { class: "settings-buttons" }, c.clear), c.confirmation));
}

function drawPreview(palette, c, on) {
  c.preview.replaceChildren(...Array.from({ length: DESIGNER_COLOURS }, (_, i) =>
    el("span", { class: "swatch", style: `background:${palette.colour(i)};color:${palette.inkOn(i)}` },
      on ? palette.letter(i) : "")));
}

function drawRecords(app, c) {
  const count = readTelemetry(app.store).attempts.length;
  c.records.dataset.attempts = String(count);
  c.records.textContent = count === 0 ? t("settings.records.none")
    : t(count === 1 ? "settings.records.one" : "settings.records.many", { count });
  c.forget.disabled = count === 0;
}

/** Draw every control as the settings are now (after a change here, or elsewhere). */
function sync(app, c) {
  const { settings } = app;
  c.sound.box.checked = settings.sound;
  c.volume.value = String(settings.volume);
  c.volume.disabled = !settings.sound;
  c.volumeShown.value = `${settings.volume}%`;
  c.vibration.box.checked = settings.vibration;
  for (const [value, radio] of c.themeBoxes) radio.checked = settings.theme === value;
  for (const [value, radio] of c.motionBoxes) radio.checked = settings.motion === value;
  for (const [value, radio] of c.languageBoxes) radio.checked = settings.language === value;
  c.letters.box.checked = settings.colourLetters;
  c.developer.box.checked = settings.developer;
  drawPreview(app.palette, c, settings.colourLetters);
  drawRecords(app, c);
}

/** Each control changes its setting at once; forgetting records; clearing after a confirmation. */
function wire(app, c) {
  const { settings } = app;
  const { sound, volume, volumeShown, vibration, letters, developer, clear, confirmation } = c;
  sound.box.addEventListener("change", () => { settings.sound = sound.box.checked; });
  volume.addEventListener("input", () => { volumeShown.value = `${volume.value}%`; });
  volume.addEventListener("change", () => { settings.volume = Number(volume.value); });
  vibration.box.addEventListener("change", () => { settings.vibration = vibration.box.checked; });
  letters.box.addEventListener("change", () => { settings.colourLetters = letters.box.checked; });
  developer.box.addEventListener("change", () => { settings.developer = developer.box.checked; });

  c.forget.addEventListener("click", () => {
    clearTelemetry(app.store);
    drawRecords(app, c);
    app.message(t("settings.records.forgotten"), "success");
  });
  clear.addEventListener("click", () => {
    confirmation.hidden = false;
    clear.setAttribute("aria-expanded", "true");
    c.keep.focus();  // the safe choice first
  });
  const closeConfirmation = () => {
    confirmation.hidden = true;
    clear.setAttribute("aria-expanded", "false");
    clear.focus();
  };
  c.keep.addEventListener("click", closeConfirmation);
  confirmation.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeConfirmation();
  });
  c.confirm.addEventListener("click", () => {
    app.store.clearAll();
    clearTelemetry(app.store);  // its cached copy too
    settings.reset();
    closeConfirmation();
    app.message(t("settings.cleared"), "success");
  });
}

export const screen = {
  id: "settings",
  title: "Settings",  // i18n-ok: the screen's name for tools (the page says route.screen.*)
  /** @param {HTMLElement} root @param {import("../app.js").App} app */
  mount(root, app) {
    const c = controls(app.settings);
    root.append(settingsPage(c));
    wire(app, c);
    const onSettings = () => sync(app, c);
    app.addEventListener("settings", onSettings);
    onSettings();
    return { unmount() { app.removeEventListener("settings", onSettings); } };
  },
};
