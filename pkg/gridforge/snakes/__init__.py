"""Snakes (seed 004): a Gecko-Out-like game of coloured bodies sliding into holes.

Modules, in import order: ``level`` (model, codec, validator), ``rules`` (steps, exits,
undo/redo), ``matching`` (min-cost assignment), ``search`` (fast search and exact A*),
``certificate`` (the four statuses and the certificate file), ``play`` (the JSON-facing
calls for the browser) and ``commands`` (the CLI). The designer (topology, templates,
generate, score) stands on these. This package imports nothing eagerly.
"""
