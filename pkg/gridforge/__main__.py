"""``python -m gridforge``: the same as the ``gridforge`` command."""

import sys

from gridforge.cli import main

sys.exit(main())
