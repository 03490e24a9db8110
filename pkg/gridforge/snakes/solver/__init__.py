"""The snakes solver: searches, bounds and certificates on the game's own rules.

``matching`` (min-cost assignment), ``nodes`` (the tables, the lower bound and the search
keys of one game), ``search`` (fast search and exact A*), ``pairs`` (the
pairwise lower bound), ``improve`` (shortening a known solution), ``puzzle`` (what makes a
level a puzzle), ``legibility`` (how a level reads: spec section 5c), ``certificate`` (the
four statuses and certificates), ``recheck`` (the recheck of their claims) and ``selfcheck`` (the
engine's and solver's self-checks).

May import: the shared core and :mod:`gridforge.snakes.game`; never the editor, the player
model, the designer, the page or the command line.
This package imports nothing eagerly.
"""
