"""The bounds the engine enforces on every expression (see :class:`~diceengine.errors.DiceLimitError`)."""

from __future__ import annotations

from .i18n import N_

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
MAX_THROWS = 20_000
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

# ---------------------------------------------------------------- the work budget of exact odds
#
# A plan estimates, before allocating anything, what its exact distribution will cost (``Plan.exact_cost``):
# ``work`` in units of about one float64 operation inside numpy (a step of a Python loop counts
# PYTHON_STEP units, a numpy call on a small array NUMPY_CALL units) and ``cells``, the float64 cells
# of its largest arrays alive at once. Over either budget, ``distribution`` refuses in milliseconds.

#: work one exact distribution may do: about 1 s on a loaded 2-core machine (see benchmarks/bounds.py)
MAX_WORK = 400_000_000
#: float64 cells an exact distribution may hold at once (16 M cells = 128 MiB)
MAX_CELLS = 16_000_000
#: work units of one step of a Python loop
PYTHON_STEP = 100
#: work units of one numpy call on a small array
NUMPY_CALL = 1_000


class Cost:
    """What an exact distribution will cost: ``work`` units and peak ``cells`` (see above); add costs with ``+``."""

    __slots__ = ("cells", "work")

    def __init__(self, work: float = 0, cells: float = 0) -> None:
        self.work = float(work)
        self.cells = float(cells)

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.work + other.work, max(self.cells, other.cells))

    def __repr__(self) -> str:
        return f"Cost(work={self.work:.3g}, cells={self.cells:.3g})"

    def check(self, what: str = N_("these exact odds")) -> None:
        """Raise :class:`~diceengine.errors.DiceLimitError` when over the budget, saying why."""
        if self.work <= MAX_WORK and self.cells <= MAX_CELLS:  # within the budget: no import run (a relative import
            return  # reads its package's spec in Python: microseconds on a first question, the caches cold)
        from .errors import DiceLimitError

        if self.work > MAX_WORK:
            raise DiceLimitError(N_("{what} would take about {times:.3g} times the work budget of exact odds (about "
                                    "1 s): use sample() to estimate them"),
                                 what=[what], times=self.work / MAX_WORK)  # a list: its words are translated
        if self.cells > MAX_CELLS:
            raise DiceLimitError(N_("{what} would need about {mib:,.0f} MiB of tables (at most {max_mib} MiB): use "
                                    "sample() to estimate them"),
                                 what=[what], mib=self.cells * 8 / 2 ** 20, max_mib=MAX_CELLS * 8 // 2 ** 20)
