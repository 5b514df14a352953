"""``python -m diceengine.cli``: the ``dice`` command line."""

import sys

from diceengine.cli import main

sys.exit(main())
