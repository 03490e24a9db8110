// The held values' banner (app.js): a saved value that could be neither used nor copied
// aside (spec/web.md, "Saved state") stays in storage, untouched; this banner says so on
// every screen until the player lets it go, and offers its raw text as a file.
import { number, t } from "./i18n.js";
import { download } from "./screens/dom.js";

/** One held value: what it is and why, its export, then (once exported) its discard. */
function heldBox(store, message, held) {
  const box = document.createElement("div");
  box.dataset.testid = "store-held";
  box.setAttribute("data-testid", "store-held");
  box.dataset.key = held.key;
  box.setAttribute("role", "alert");
  box.className = "store-held";  // styled in style.css
  const text = document.createElement("span");
  text.textContent = t("store.held.banner", { what: held.what, why: held.why, error: held.error, key: held.key });
  const exportButton = document.createElement("button");
  exportButton.type = "button";
  exportButton.setAttribute("data-testid", "store-held-export");
  exportButton.textContent = t("store.held.export", { chars: number(held.chars) });
  const discardButton = document.createElement("button");
  discardButton.type = "button";
  discardButton.setAttribute("data-testid", "store-held-discard");
  discardButton.textContent = t("store.held.discard");
  discardButton.hidden = true;  // offered once its text has been exported
  exportButton.addEventListener("click", () => {
    const raw = store.heldText(held.key);
    if (raw === null) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    download(`${held.key}-${stamp}.txt`, raw, "text/plain");
    discardButton.hidden = false;
  });
  discardButton.addEventListener("click", () => {
    store.discardHeld(held.key);
    message(t("store.held.discarded", { what: held.what }), "info");
  });
  box.append(text, exportButton, discardButton);
  return box;
}

/** The banner under the message line `line`, drawn again at each "held" event of `store`. */
export function heldBanner(store, line, message) {
  const banner = document.createElement("div");
  banner.className = "store-held-list";
  banner.hidden = true;
  line.after(banner);
  store.addEventListener("held", () => {
    const list = store.heldList();
    banner.hidden = list.length === 0;
    banner.replaceChildren(...list.map((held) => heldBox(store, message, held)));
  });
}
