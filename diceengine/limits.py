"""The bounds the engine enforces on every expression (see :class:`~diceengine.errors.DiceLimitError`)."""

from __future__ import annotations

#: longest expression accepted, in characters
MAX_EXPRESSION_LENGTH = 1000
#: deepest nesting of the parsed tree (parentheses, unary minus, operators)
MAX_DEPTH = 64
#: most dice one roll may throw, explosions and re-rolls included
MAX_DICE = 10_000
#: most sides a die may have
MAX_SIDES = 1_000_000
#: longest chain of explosions from one die
MAX_EXPLOSIONS = 200
#: dice one roll may throw on average, re-rolls and explosions included (keeps a roll, its text and its
#: dice within about 0.2 s)
MAX_THROWS = 25_000
#: re-rolls recorded for one die before the final face is drawn directly among the allowed faces
MAX_REROLLS = 100
#: largest constant in an expression
MAX_CONSTANT = 10**9
#: largest magnitude any value of an expression may reach, intermediates included: 2**53 - 1, so that
#: every value is exact in numpy's int64 and in a float64 (checked at prepare time by interval arithmetic,
#: see :func:`diceengine.arith.check_bounds`)
MAX_VALUE = 2**53 - 1
#: largest sample size
MAX_SAMPLE = 100_000_000
#: probability mass below which an infinite series (explosions) is truncated
TRUNCATION = 1e-12
