"""gridforge: two grid games (mines, snakes) and a level designer.

The same pure-Python modules run on CPython (the ``gridforge`` command) and in the
browser through Pyodide. This module holds the one version string and imports no game.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
