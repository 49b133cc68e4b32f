"""``python -m pytest_webtask explore URL`` / ``generate PLAN``: the ``webtask`` command."""

import sys

from .explore.cli import main

sys.exit(main())
