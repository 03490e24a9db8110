"""The independent audit of snakes levels and their certificates.

Written from the written rules only (shared spec ``snakes.md``; the seed's score formula):
nothing here imports ``gridforge`` (``tests/test_audit_independent.py`` holds it), so the
auditors check the game's rules, solver and designer rather than repeat them.

- ``shared``  the step words, the min-cost assignment, the anytime A* over full states, the
              one-body-at-a-time search and its rebuilt solution;
- ``line``    the main line against issue 41's must-holds, terrain (paths, bridges) included:
              ``.venv/bin/python -m bench.audit.line``;
- ``board``   the main line against issue 50's must-holds (one board: floor regions, stone
              share, legibility, depth, main-region joint steps, piece costs, stretch types,
              templates, score, proven share): ``.venv/bin/python -m bench.audit.board``, with
              spec 5d's depth terms in ``depth`` and stretch types in ``stretch``;
- ``puzzle``  any levels with their certificates (replay, shorter, serial, optimal, witness,
              lessons, score, effort, bands), no terrain: ``.venv/bin/python -m
              bench.audit.puzzle``, with its own rules in ``puzzle_rules``, the lessons'
              predicates in ``lessons``, the design score in ``score`` and the cross-checks
              of ``--selftest`` in ``selftest``.

Standard library only.
"""
