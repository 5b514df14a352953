"""``python -m diceengine.lalr``: write the parse tables of every built-in grammar beside it
(:func:`diceengine.lalr.tables.main`)."""

import sys

from diceengine.lalr.tables import main

main(sys.argv[1:])
