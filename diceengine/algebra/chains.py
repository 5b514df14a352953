"""An explosion chain on masses: a throw, thrown again and added while it shows an exploding face. Written once
here; :class:`~diceengine.algebra.Die` reads its total and :class:`~diceengine.algebra.Throw` its parts."""

from __future__ import annotations

from collections.abc import Iterator

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION
from diceengine.pmf import PMF

__all__ = ["chains", "chains_total"]


def chains(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool) -> Iterator[tuple[int, PMF]]:
    """``(k, masses)``: the totals of the throws of one die (``pmf``) that added exactly ``k`` throws, weighted by
    their chance; a throw explodes on a face of ``on``, at most ``depth`` more throws (None: until the chains
    still going weigh less than the truncation); ``penetrate``: each added throw counts one less. The last item
    has ``k = -1`` and the mass the truncation left out (empty when nothing was)."""
    mask = np.isin(pmf.values, np.fromiter(on, dtype=np.int64))
    stop, go = PMF(pmf.offset, np.where(mask, 0.0, pmf.p)), PMF(pmf.offset, np.where(mask, pmf.p, 0.0))
    if go.mass >= 1.0 - 1e-15 and depth is None:
        raise DiceValueError("every face explodes: the die never stops")
    prefix, k = PMF.point(0), 0
    while True:
        shift = -1 if penetrate and k else 0
        if depth is not None and k == depth:
            yield k, prefix + pmf.shift(shift)
            return
        yield k, prefix + stop.shift(shift)
        prefix = prefix + go.shift(shift)
        k += 1
        if go.mass <= 0 or (depth is None and prefix.mass < TRUNCATION / 10):
            yield -1, prefix if go.mass > 0 else PMF.point(0, 0.0)
            return
        if depth is None and k > MAX_EXPLOSIONS:
            raise DiceLimitError(f"more than {MAX_EXPLOSIONS} explosions of one die")


def chains_total(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool) -> tuple[PMF, float]:
    """The total of one exploding throw (:func:`chains` mixed) and the mass the truncation left out."""
    out, left = PMF.point(0, 0.0), 0.0
    for k, part in chains(pmf, on, depth, penetrate):
        if k < 0:
            left = part.mass
        else:
            out = out.mix(part)
    return out, left
