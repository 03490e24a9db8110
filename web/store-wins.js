// The wins this tab made, kept over another tab's save (issue 54). A tab reads storage as
// its browser last heard it, so a save made in another tab a moment after this tab's win
// can drop the win. Wins only grow (a level done, a best lowered, a level opened), so the
// store writes this tab's own back over such a save (Store.heardOtherTab); a progress
// cleared or read from a file forgets them.

export class OwnWins {
  constructor() {
    /** @type {Record<string, number>} level -> best steps */
    this.done = {};
    this.open = 1;
  }

  /** Nothing of this tab's is kept any more. */
  forget() {
    this.done = {};
    this.open = 1;
  }

  /** A write of the snakes progress from `before` to `next`: what it won here is noted. */
  wrote(/** @type {any} */ before, /** @type {any} */ next) {
    for (const [n, best] of Object.entries(next.done)) {
      if (!(before.done[n] <= /** @type {number} */ (best))) this.done[n] = /** @type {number} */ (best);
    }
    if (next.open > before.open) this.open = next.open;
  }

  /** The wins `snakes` (the stored snakes progress) lacks: `[level, best][]`, and whether
   * the open level is behind this tab's; null when it lacks none. */
  lostFrom(/** @type {any} */ snakes) {
    const lost = Object.entries(this.done).filter(([n, best]) => !(snakes.done[n] <= best));
    return lost.length || snakes.open < this.open ? lost : null;
  }

  /** `snakes` with the wins it lacked written back. */
  restore(/** @type {any} */ snakes, /** @type {[string, number][]} */ lost) {
    for (const [n, best] of lost) snakes.done[n] = best;
    snakes.open = Math.max(snakes.open, this.open);
  }
}
