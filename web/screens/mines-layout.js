// The mines screen's layout (used by mines.js): the board is the centrepiece and takes the
// space the viewport has. On a wide screen (and wider than tall) the battle and the controls
// stand in a column beside the board, which gets the rest of the width and the height down
// to the window's foot; on a narrow one the battle sits above the board, the controls below,
// and the board spans the width. Cells are as large as fit (up to MAX_CELL); the page never
// scrolls sideways. This only sizes the drawing: the board's shape comes from Python.
const WIDE_PX = 720;      // from this width (and wider than tall), the column beside the board
const SIDE_PX = 340;      // that column's width
const GAP_PX = 16;
const FOOT_PX = 12;       // room left under the board
const MAX_CELL = 96;
const MIN_CELL = 28;      // the floor when the height is short (then the page scrolls)
const GRID_PX = 1;        // the line between cells (and around them)

export function boardLayout(section, stage, board) {
  let shape = null;       // {cols, rows} of the board drawn

  function apply() {
    const viewportW = document.documentElement.clientWidth;
    const viewportH = window.innerHeight;
    const wide = viewportW >= WIDE_PX && viewportW > viewportH;
    section.dataset.layout = wide ? "wide" : "narrow";
    if (!shape) return;
    const { cols, rows } = shape;
    const top = stage.getBoundingClientRect().top + window.scrollY;
    const below = wide ? 0 : (section.querySelector(".mines-controls")?.offsetHeight ?? 0) + GAP_PX;
    const width = wide ? section.clientWidth - SIDE_PX - GAP_PX : section.clientWidth;
    const height = viewportH - top - below - FOOT_PX;
    const byWidth = (width - (cols + 1) * GRID_PX) / cols;
    const byHeight = (height - (rows + 1) * GRID_PX) / rows;
    // The width always holds (never a sideways scroll); the height gives way (the page
    // scrolls up and down) before cells get too small to tap.
    const fit = Math.min(MAX_CELL, byWidth, Math.max(byHeight, MIN_CELL));
    const cell = Math.max(8, Math.floor(fit * 100) / 100);
    board.style.setProperty("--cell", `${cell}px`);
    section.style.setProperty("--side", `${SIDE_PX}px`);
    board.dataset.cell = String(cell);
  }

  const onResize = () => apply();
  window.addEventListener("resize", onResize);
  let width = null;
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    if (section.clientWidth !== width) { width = section.clientWidth; apply(); }
  }) : null;
  if (observer) observer.observe(section);
  apply();

  return {
    /** The board drawn has `cols` x `rows` cells: size it (only when its shape changes). */
    shape(cols, rows) {
      if (shape && shape.cols === cols && shape.rows === rows) return;
      shape = { cols, rows };
      apply();
    },
    stop() {
      window.removeEventListener("resize", onResize);
      if (observer) observer.disconnect();
    },
  };
}
