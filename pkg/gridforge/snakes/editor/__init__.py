"""The snakes level editor's Python half: what the editor screen asks of the package.

``editing`` (drafts, edits, import and export), ``words`` (the editor's words for the
solver's reasons and notes), ``samples`` (the levels shipped to start from), ``snapshot``
(a level from a position reached in play), ``transform`` (rotate, mirror, shift) and
``diagnose`` (why a draft cannot be solved, found without a search).

May import: the shared core, :mod:`gridforge.snakes.game`, :mod:`gridforge.snakes.solver`
and :mod:`gridforge.snakes.play` (a try-play position); never the player model, the
designer, the page or the command line.
This package imports nothing eagerly.
"""
