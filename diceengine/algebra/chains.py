"""An explosion chain on masses: a throw, thrown again and added while it shows an exploding face. Written once
here; :class:`~diceengine.algebra.Die` reads its total and :class:`~diceengine.algebra.Throw` its parts."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION
from diceengine.pmf import PMF

from ..i18n import N_

__all__ = ["chains", "chains_total", "roll_steps", "sample_steps"]


#: the mass an unbounded chain may leave out, by default
TOLERANCE = TRUNCATION / 10


def _split(pmf: PMF, on: frozenset[int]) -> tuple[PMF, PMF]:
    """``(stops, goes on)``: the masses of the faces that do not explode, and of those that do."""
    mask = np.isin(pmf.values, np.fromiter(on, dtype=np.int64))
    return PMF(pmf.offset, np.where(mask, 0.0, pmf.p)), PMF(pmf.offset, np.where(mask, pmf.p, 0.0))


def chains(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool, first: PMF | None = None,
           tolerance: float = TOLERANCE) -> Iterator[tuple[int, PMF]]:
    """``(k, masses)``: the totals of the throws of one die that added exactly ``k`` throws, weighted by their
    chance. Each throw shows ``pmf`` (the first one ``first`` when given: a face kept after re-rolls); a throw
    explodes on a face of ``on``, at most ``depth`` more throws (None: until the chains still going weigh at most
    ``tolerance``); ``penetrate``: each added throw counts one less. The last item has ``k = -1`` and the mass
    left out (empty when nothing was)."""
    stop, go = _split(pmf, on)
    start_stop, start_go = (stop, go) if first is None else _split(first, on)
    if go.mass >= 1.0 - 1e-15 and depth is None and start_go.mass > 0:
        raise DiceValueError(N_("every face explodes: the die never stops"))
    if depth is not None and depth <= 0:
        yield 0, start_stop.mix(start_go)
        return
    yield 0, start_stop
    prefix, k = start_go, 1
    while True:
        if prefix.mass <= 0 or (depth is None and prefix.mass <= tolerance):
            yield -1, prefix if prefix.mass > 0 else PMF.point(0, 0.0)
            return
        if depth is None and k > MAX_EXPLOSIONS:
            raise DiceLimitError(N_("more than {max_explosions} explosions of one die"), max_explosions=MAX_EXPLOSIONS)
        shift = -1 if penetrate else 0
        if depth is not None and k == depth:
            yield k, prefix + pmf.shift(shift)
            return
        yield k, prefix + stop.shift(shift)
        prefix = prefix + go.shift(shift)
        k += 1


def chains_total(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool, first: PMF | None = None,
                 tolerance: float = TOLERANCE) -> tuple[PMF, float]:
    """The total of one exploding throw (:func:`chains` mixed) and the mass left out."""
    out, left = PMF.point(0, 0.0), 0.0
    for k, part in chains(pmf, on, depth, penetrate, first, tolerance):
        if k < 0:
            left = part.mass
        else:
            out = out.mix(part)
    return out, left


def _past(k: int, depth: int | None, what: str) -> bool:
    """Round ``k`` of added throws is past ``depth``; with no depth, past
    :data:`~diceengine.limits.MAX_EXPLOSIONS` is refused, naming ``what``."""
    if depth is not None:
        return k > depth
    if k > MAX_EXPLOSIONS:
        raise DiceLimitError(N_("explosion deeper than {max_explosions} dice in {what}"),
                             max_explosions=MAX_EXPLOSIONS, what=[what])
    return False


def roll_steps(face: int, draw: Callable[[], int], explodes: Callable[[int], bool], depth: int | None,
               what: str = N_("one die")) -> Iterator[int]:
    """The faces one exploding die adds after showing ``face``: each ``draw()`` while the last face explodes, at
    most ``depth`` (None: refused past :data:`~diceengine.limits.MAX_EXPLOSIONS`, naming ``what``)."""
    k = 0
    while explodes(face):
        k += 1
        if _past(k, depth, what):
            return
        face = draw()
        yield face


def sample_steps(first: np.ndarray, draw: Callable[[int], np.ndarray], explodes: Callable[[np.ndarray], np.ndarray],
                 depth: int | None, what: str = N_("one die")) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For each round of added throws of many exploding dice (``first``: their first faces, any shape): the flat
    indices of the dice thrown again and their new faces (``draw(n)``), while a face explodes, at most ``depth``
    rounds (None: refused past :data:`~diceengine.limits.MAX_EXPLOSIONS`, naming ``what``)."""
    active = np.flatnonzero(explodes(first))
    k = 0
    while len(active):
        k += 1
        if _past(k, depth, what):
            return
        new = draw(len(active))
        yield active, new
        active = active[explodes(new)]
