// Play telemetry kept on this device (issue 24, docs/snakes-calibration.md):
// localStorage["gridforge.snakes.telemetry"], one gridforge.snakes.telemetry/1 export of the
// newest attempts (Python validated each before it was added). It follows the store's
// saved-state rules: an unreadable value is copied aside (Store.quarantine) and recording
// starts fresh. Functions over the page's Store, so that store.js stays as it is.

import { t } from "./i18n.js";
import { parseStored } from "./store.js";

export const TELEMETRY_KEY = "gridforge.snakes.telemetry";
export const TELEMETRY_FORMAT = "gridforge.snakes.telemetry/1";
const MAX_ATTEMPTS = 500;  // the newest kept
const MAX_TELEMETRY_CHARS = 400_000;

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** The stored telemetry (a fresh, empty export when there is none or it is unreadable). */
export function readTelemetry(store) {
  const fresh = { format: TELEMETRY_FORMAT, source: "device", attempts: [] };
  const text = store.readRaw(TELEMETRY_KEY);
  if (text === null) {
    return store.cache.has(TELEMETRY_KEY) ? structuredClone(store.cache.get(TELEMETRY_KEY)) : fresh;
  }
  // Too long, not JSON or nested too deeply: kept aside like a value that is no telemetry.
  const { value: parsed, why } = parseStored(text);
  if (why === undefined && isObject(parsed) && parsed.format === TELEMETRY_FORMAT && parsed.source === "device" &&
      Array.isArray(parsed.attempts) && parsed.attempts.every(isObject)) return parsed;
  if (!store.held.has(TELEMETRY_KEY)) {
    store.quarantine(TELEMETRY_KEY, text, why ?? (() => t("store.not-telemetry")),
      () => t("store.what.telemetry"), { fresh: () => t("store.fresh.telemetry") });
  }
  return fresh;
}

/** This device's random player id (made once, kept with the telemetry; never an account). */
export function telemetryPlayer(store) {
  const player = readTelemetry(store).meta?.player;
  if (typeof player === "string" && /^device-[0-9a-f]{16}$/.test(player)) return player;
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `device-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Add one attempt (the newest MAX_ATTEMPTS are kept, within MAX_TELEMETRY_CHARS). */
export function addAttempt(store, attempt) {
  const data = readTelemetry(store);
  data.meta = { player: attempt.player };
  data.attempts.push(attempt);
  data.attempts = data.attempts.slice(-MAX_ATTEMPTS);
  while (data.attempts.length > 1 && JSON.stringify(data).length > MAX_TELEMETRY_CHARS) data.attempts.shift();
  store.cache.set(TELEMETRY_KEY, structuredClone(data));
  store.writeRaw(TELEMETRY_KEY, JSON.stringify(data));
}

/** The telemetry as a file's text. */
export function exportTelemetry(store) { return JSON.stringify(readTelemetry(store), null, 1) + "\n"; }

/** The next attempt's number on this device. */
export function nextAttemptSeq(store) {
  return readTelemetry(store).attempts.reduce((n, a) => Math.max(n, (a.seq ?? -1) + 1), 0);
}

/** Forget every recorded attempt (the player's choice). */
export function clearTelemetry(store) {
  store.cache.delete(TELEMETRY_KEY);
  try { store.storage?.removeItem(TELEMETRY_KEY); } catch { /* nothing stored */ }
}
