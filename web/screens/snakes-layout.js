// The snakes play screen's layout: boards that fill the screen (used by snakes-play.js).
// The board takes the space the viewport has: on a wide screen the controls stand beside it
// and the board gets the rest of the width and the height down to the window's foot; on a
// narrow one they sit below it and the board spans the full width (edge to edge). Cells are
// as large as fit. A level too wide for MIN_CELL px cells (a phone, 14 columns or more) opens
// whole and offers a zoom (the button, or two fingers): the board then grows inside its
// frame, which scrolls (one finger away from the ends, or the scroll bars), never the page.
import { t } from "../i18n.js";

const MIN_CELL = 30;      // the smallest cell a phone should have to draw (spec/web.md)
const ZOOM_CELL = 36;     // the zoom button's cell size (at least 1.5x the fitted size)
const WIDE_PX = 720;      // from this width (and wider than tall), controls beside the board
const SIDE_PX = 240;      // the controls' column on a wide screen
const GAP_PX = 16;

/** The room the board has now: the cell size that fits, the frame's width and height. */
function measure(L) {
  const { section, frame, cols, rows } = L;
  const viewportW = document.documentElement.clientWidth;
  const viewportH = window.innerHeight;
  const wide = viewportW >= WIDE_PX && viewportW > viewportH;
  section.dataset.layout = wide ? "wide" : "narrow";
  const stage = frame.parentElement;
  const top = stage.getBoundingClientRect().top + window.scrollY;
  const side = section.querySelector(".play-side");
  const width = wide ? section.clientWidth - SIDE_PX - GAP_PX : stage.clientWidth;
  const below = wide ? 0 : side.offsetHeight + GAP_PX;
  const height = viewportH - top - below - 12;
  const byWidth = width / cols;
  const byHeight = height / rows;
  // Wide: all of it must show. Narrow: the height may push the controls down (the page
  // scrolls up and down) rather than draw cells under MIN_CELL.
  let size = wide ? Math.min(byWidth, byHeight) : Math.min(byWidth, Math.max(byHeight, MIN_CELL));
  size = Math.max(8, Math.floor(size * 100) / 100);
  return { size, width, height: wide ? height : Math.max(height, rows * Math.min(size, MIN_CELL)) };
}

/** Size the board, its frame and the zoom button to the room there is. */
function apply(L) {
  const { section, frame, boardBox, zoomButton, rows } = L;
  const room = measure(L);
  L.fit = room.size;
  const { fit } = L;
  const zoomable = fit < MIN_CELL;
  if (!zoomable) L.cell = null;
  const drawn = L.cell === null ? fit : Math.max(fit, L.cell);
  section.style.setProperty("--cell", `${drawn}px`);
  boardBox.style.setProperty("--cell", `${drawn}px`);
  const zoomed = drawn > fit + 0.01;
  section.dataset.zoom = zoomed ? "in" : "fit";
  frame.style.maxWidth = `${Math.floor(room.width)}px`;
  frame.style.maxHeight = zoomed ? `${Math.max(rows * fit, Math.floor(room.height))}px` : "";
  zoomButton.hidden = !zoomable;
  zoomButton.textContent = t(zoomed ? "snakes.zoom-out" : "snakes.zoom-in");
  zoomButton.setAttribute("aria-pressed", String(zoomed));
  frame.dataset.cell = String(drawn);
  frame.dataset.fitCell = String(fit);
}

/** Zoom to `size` px cells keeping the frame point (fx, fy) over the same board point. */
function zoomTo(L, size, fx, fy) {
  const { frame, fit } = L;
  const before = L.cell === null ? fit : L.cell;
  const max = Math.max(72, fit * 3);
  L.cell = Math.min(max, Math.max(fit, size));
  const bx = (frame.scrollLeft + fx) / before;
  const by = (frame.scrollTop + fy) / before;
  apply(L);
  const after = L.cell;
  frame.scrollLeft = bx * after - fx;
  frame.scrollTop = by * after - fy;
  if (L.cell <= L.fit + 0.01) L.cell = null;
}

function pointerDown(L, event) {
  const { pointers } = L;
  pointers.set(event.pointerId, [event.clientX, event.clientY]);
  if (pointers.size === 2 && L.fit < MIN_CELL) {
    // Two fingers: a pinch. A drag the first finger began ends here (its steps stay).
    const [a, b] = [...pointers.keys()];
    const board = L.boardBox.firstElementChild;
    for (const id of [a, b]) {
      try { if (board && board.hasPointerCapture(id)) board.releasePointerCapture(id); } catch { /* gone */ }
    }
    L.pan = null;
    const [pa, pb] = [pointers.get(a), pointers.get(b)];
    const box = L.frame.getBoundingClientRect();
    L.pinch = { a, b, distance: Math.hypot(pa[0] - pb[0], pa[1] - pb[1]) || 1,
      cell: L.cell === null ? L.fit : L.cell,
      mid: [(pa[0] + pb[0]) / 2 - box.left, (pa[1] + pb[1]) / 2 - box.top] };
    event.preventDefault();
  }
}

function pointerMove(L, event) {
  const { pointers, pinch, pan, frame } = L;
  if (!pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, [event.clientX, event.clientY]);
  if (pinch && pointers.has(pinch.a) && pointers.has(pinch.b)) {
    const [pa, pb] = [pointers.get(pinch.a), pointers.get(pinch.b)];
    const distance = Math.hypot(pa[0] - pb[0], pa[1] - pb[1]);
    zoomTo(L, pinch.cell * distance / pinch.distance, pinch.mid[0], pinch.mid[1]);
    event.preventDefault();
  } else if (pan && event.pointerId === pan.pointerId) {
    frame.scrollLeft = pan.left - (event.clientX - pan.x);
    frame.scrollTop = pan.top - (event.clientY - pan.y);
    event.preventDefault();
  }
}

function pointerUp(L, event) {
  L.pointers.delete(event.pointerId);
  if (L.pinch && (event.pointerId === L.pinch.a || event.pointerId === L.pinch.b)) L.pinch = null;
  if (L.pan && event.pointerId === L.pan.pointerId) L.pan = null;
}

export function boardLayout(section, frame, boardBox, zoomButton, level) {
  const { cols, rows } = level;
  const L = { section, frame, boardBox, zoomButton, cols, rows,
    fit: MIN_CELL,     // the cell that shows the whole board
    cell: null,        // the cell drawn; null: fitted
    /** @type {{pointerId: number, x: number, y: number, left: number, top: number} | null} */
    pan: null,         // while one finger pans
    pinch: null,       // {a, b, distance, cell, mid} while two fingers zoom
    pointers: new Map(),
  };
  const up = (event) => pointerUp(L, event);
  frame.addEventListener("pointerdown", (event) => pointerDown(L, event), true);
  frame.addEventListener("pointermove", (event) => pointerMove(L, event), true);
  for (const name of ["pointerup", "pointercancel"]) frame.addEventListener(name, up, true);

  const onResize = () => apply(L);
  window.addEventListener("resize", onResize);
  let observedWidth;  // the section's width last laid out for
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    if (section.clientWidth !== observedWidth) { observedWidth = section.clientWidth; apply(L); }
  }) : null;
  if (observer) observer.observe(section);
  apply(L);

  return {
    update: () => apply(L),
    toggle() {
      const box = frame.getBoundingClientRect();
      if (section.dataset.zoom === "in") zoomTo(L, L.fit, 0, 0);
      else zoomTo(L, Math.max(ZOOM_CELL, L.fit * 1.5), box.width / 2, box.height / 2);
    },
    /** A press that grabbed no end: pan the zoomed board with it. True when it pans. */
    pan(event) {
      if (!event || section.dataset.zoom !== "in" || L.pinch) return false;
      L.pan = { pointerId: event.pointerId, x: event.clientX, y: event.clientY,
        left: frame.scrollLeft, top: frame.scrollTop };
      try { frame.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ }
      return true;
    },
    stop() {
      window.removeEventListener("resize", onResize);
      if (observer) observer.disconnect();
    },
  };
}
