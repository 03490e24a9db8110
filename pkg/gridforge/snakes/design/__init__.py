"""The snakes level designer (seed 004): space topology, templates, the seven-term score,
the request and its pipeline, backward play, tightening and the 2000-level main line.

The designer stands apart from the game it designs for: it imports the game
(:mod:`gridforge.snakes.game.level`, ``rules``, ``search``, ``certificate``) and never the
other way round.
"""
