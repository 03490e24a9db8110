"""Snakes (seed 004): a Gecko-Out-like game of coloured bodies sliding into holes.

Rooms, each a sub-package whose docstring says what it may import, lowest first:

- ``game``: the level, its rules, the answers of play and the shipped main line's reader;
- ``solver``: searches, bounds, certificates and their recheck, on the game's rules;
- ``editor``: the level editor's drafts, edits, files, samples and diagnoses;
- ``player``: the player model (play telemetry and a synthetic player);
- ``design``: the level designer (templates, topology, score, pipeline, backward play,
  the main line's build, and ``design.certify``, which adds the score to certificates); it
  stands on the game and the solver and is never imported by them.

The modules at this level join the rooms: ``play`` (a level in play, the midend's backend),
``lessons`` (what main-line levels teach, and the rules screen), ``page`` (the browser's
contract; it loads the designer only for the editor's and designer's calls) and
``commands`` (the command line). This package imports nothing eagerly.
"""
