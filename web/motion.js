// Reduced motion, for the screens' code: on when the system prefers it (prefers-reduced-
// motion) or the player chose "Always reduce" in #settings. theme.js keeps <html
// data-motion> up to date and says "gridforge-motion" on document when it changes; the
// stylesheets turn animations off under :root[data-motion="reduce"].

/** Whether animations are off now. */
export function reducedMotion() {
  return document.documentElement.dataset.motion === "reduce";
}

/** Call `listener` whenever reduced motion turns on or off; returns how to stop. */
export function onMotionChange(listener) {
  document.addEventListener("gridforge-motion", listener);
  return () => document.removeEventListener("gridforge-motion", listener);
}
