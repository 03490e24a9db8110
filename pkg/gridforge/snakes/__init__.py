"""Snakes (seed 004): a Gecko-Out-like game of coloured bodies sliding into holes.

The game, in import order: ``level`` (model, codec, validator, limits), ``rules`` (steps,
exits, undo/redo), ``matching`` (min-cost assignment), ``search`` (fast search and exact A*),
``certificate`` (the four statuses, certificates and the recheck of their claims),
``selfcheck``, ``play`` (JSON play calls) and ``editor`` (shipped levels). The designer
(``design/``: templates, topology, score, pipeline, backward play, main line, and
``design.certify``, which adds the score to certificates) stands on the game and is never
imported by it; ``page`` (the browser's contract) and ``commands`` (the CLI) join the two.
This package imports nothing eagerly.
"""
