"""``python -m diceengine`` is the ``dice`` command line."""

import sys

from .cli import main

sys.exit(main())
