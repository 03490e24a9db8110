"""The snakes game itself: what a level is and how it plays.

``levelfile`` (the level's JSON types), ``level`` (model, codec, validator, limits),
``certfile`` (the certificate and batch file types), ``rules`` (steps, exits, undo/redo),
``answers`` (the typed answers of play), ``regions`` (floor regions, spec 5d) and
``mainline`` (the shipped line: its level count and the reader of its block files).

May import: the shared core (``gridforge.errors``, ``grid``, ``jsontypes``, ``midend``,
``files``, ``i18n``, ``words``) and its own modules; nothing else of ``gridforge.snakes``
(no solver, editor, player model, designer, page or command line).
This package imports nothing eagerly.
"""
