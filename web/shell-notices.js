// The notices of saved values set aside (app.js): what the store could not use and kept
// aside (a damaged value, or only a part of it: issue 54) is said here, under the message
// line, on whichever screen the player is or goes to, until they say they have read it.
// (The message line says it too, but its next message replaces it.)
import { t } from "./i18n.js";

/** One notice: its words and the button that dismisses it. */
function noticeBox(store, notice) {
  const box = document.createElement("div");
  box.setAttribute("data-testid", "store-notice");
  box.setAttribute("role", "alert");
  box.className = "store-held";  // styled as the held values' banner (style.css)
  const text = document.createElement("span");
  text.textContent = notice.text;
  const read = document.createElement("button");
  read.type = "button";
  read.setAttribute("data-testid", "store-notice-read");
  read.textContent = t("store.notice.read");
  read.addEventListener("click", () => store.dismissNotice(notice.id));
  box.append(text, read);
  return box;
}

/** The notices under the message line `line`, drawn again when they change (and when the
 * language does: `redraw`). */
export function noticeBanner(store, line) {
  const banner = document.createElement("div");
  banner.className = "store-notice-list";
  banner.hidden = true;
  line.after(banner);
  const draw = () => {
    const list = store.noticeList();
    banner.hidden = list.length === 0;
    banner.replaceChildren(...list.map((notice) => noticeBox(store, notice)));
  };
  store.addEventListener("notices", draw);
  return { redraw: draw };
}
