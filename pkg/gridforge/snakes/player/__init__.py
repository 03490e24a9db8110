"""The snakes player model: what play tells about a level (issue 24).

``telemetry`` (``gridforge.snakes.telemetry/1``: one record per attempt, validated) and
``synthetic`` (a bounded-rational player that writes such records by the game's rules).

May import: the shared core, :mod:`gridforge.snakes.game` and
:mod:`gridforge.snakes.solver`; never the editor, the designer, the page or the command line.
This package imports nothing eagerly.
"""
