"""An explosion chain on masses: a throw, thrown again and added while it shows an exploding face, its total kept
apart by a key (:func:`keyed_chains`: the score so far, the counts of marked faces...). Written once here;
:class:`~diceengine.algebra.Die` reads its total (:func:`chains_total`, the one-key case),
:class:`~diceengine.algebra.Throw` its parts by added throws (:func:`chains`, keyed by that number) and the standard
term's exact odds its scores and marks; a roll's and a sample's throws are :func:`roll_steps` and
:func:`sample_steps`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache

from diceengine.errors import DiceLimitError, DiceValueError
from diceengine.lazy import np
from diceengine.limits import MAX_EXPLOSIONS, TRUNCATION
from diceengine.pmf import PMF, WORK, convolve_cost

from ..i18n import N_

__all__ = ["Key", "Step", "chains", "chains_total", "keyed_chains", "roll_steps", "sample_steps", "steps_of"]


#: the mass an unbounded chain may leave out, by default
TOLERANCE = TRUNCATION / 10

#: the cells up to which a chain's masses are followed as Python floats (a numpy call costs more than a loop on
#: so few: a die exploding often, counted, runs tens of rounds on arrays of one or two cells)
SMALL = 8

#: a chain's masses: a PMF, or ``(offset, floats)`` while small
Masses = PMF | tuple[int, list[float]]

#: what a chain's total is kept apart by (a tuple of integers, added part by part; ``()``: one total)
Key = tuple[int, ...]
#: a kind of throw: ``(explodes, key delta, masses)``, whether it is thrown again, what it adds to the key, and the
#: chances of the values it adds to the total (as thrown: before any penetration)
Step = tuple[bool, Key, PMF]


def keyed_chains(first: Sequence[Step], steps: Sequence[Step], depth: int | None, penetrate: bool = False,
                 tolerance: float = 0.0, rounds: int | None = None, small: int = SMALL) -> tuple[dict[Key, PMF], float]:
    """``({key: masses of the total}, mass left out)``: the chains of throws of one die, each total kept apart by
    its key. The first throw is one of ``first`` (its key delta is its key), each added one of ``steps``; a chain
    goes on while its last throw explodes, at most ``depth`` added throws (None: no cap; 0: the first throw only),
    at most ``rounds`` of added throws followed (None: refused past :data:`~diceengine.limits.MAX_EXPLOSIONS` with
    more than ``tolerance`` left), none once the chains still going weigh at most ``tolerance``. ``penetrate``: each
    added throw adds one less to the total. The mass left out is that of the chains still going when the rounds
    stop. Masses of at most ``small`` cells are followed as Python floats (0: as numpy arrays throughout)."""
    capped = depth is not None and depth <= 0
    done: dict[Key, list[Masses]] = {}  # each key's parts, mixed once at the end
    going: dict[Key, Masses] = {}
    for on, key, masses in first:
        if on and not capped:
            _put(going, key, _small(masses, small))
        else:
            done.setdefault(key, []).append(masses)
    shift = -1 if penetrate else 0
    added = [(on, delta, _small(masses.shift(shift), small)) for on, delta, masses in steps]
    k, most = 0, MAX_EXPLOSIONS if rounds is None else rounds
    while going and k < most and _weight(going) > tolerance:
        k += 1
        last = depth is not None and k >= depth
        after: dict[Key, Masses] = {}
        for key, held in going.items():
            for on, delta, step in added:
                if on and not last:
                    _put(after, _plus(key, delta), _sum(held, step, small))
                else:
                    done.setdefault(_plus(key, delta), []).append(_sum(held, step, small))
        going = after
    left = _weight(going)
    if rounds is None and left > tolerance:
        raise DiceLimitError(N_("more than {max_explosions} explosions of one die"), max_explosions=MAX_EXPLOSIONS)
    return {key: _mixed(parts) for key, parts in done.items()}, left


def _mixed(masses: list[Masses]) -> PMF:
    """The masses of ``parts`` added outcome by outcome (disjoint chains: :meth:`PMF.mix` of them all at once)."""
    parts: list[PMF] = [part for part in masses if isinstance(part, PMF)]
    floats = [part for part in masses if isinstance(part, tuple)]
    if floats:  # added as Python floats first, one array for them all
        parts.append(_pmf(_added(floats)))
    parts = [part for part in parts if part.p.any()] or parts[:1]  # an empty part's offset means nothing
    if len(parts) == 1:
        return parts[0]
    lo = min(part.offset for part in parts)
    out = np.zeros(max(part.offset + len(part.p) for part in parts) - lo)
    for part in parts:
        out[part.offset - lo:part.offset - lo + len(part.p)] += part.p
    return PMF(lo, out)


def _small(masses: PMF, small: int) -> Masses:
    """``masses`` as Python floats when they hold at most ``small`` cells."""
    return (masses.offset, masses.p.tolist()) if len(masses.p) <= small else masses


def _pmf(masses: Masses) -> PMF:
    return masses if isinstance(masses, PMF) else PMF(masses[0], np.array(masses[1]))


def _sum(masses: Masses, step: Masses, small: int) -> Masses:
    """The masses of a chain's total and an added throw's (a convolution: counted as :func:`convolve` counts it),
    as Python floats while both are and the result stays within ``small`` cells."""
    if isinstance(masses, PMF) or isinstance(step, PMF) or len(masses[1]) + len(step[1]) - 1 > small:
        return _pmf(masses) + _pmf(step)
    (oa, a), (ob, b) = masses, step
    WORK.work += _convolve_work(len(a), len(b))
    if len(b) == 1:  # a throw of one value: the chain's masses scaled
        y = b[0]
        return oa + ob, [x * y for x in a]
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return oa + ob, out


@cache
def _convolve_work(la: int, lb: int) -> float:
    """The work :func:`~diceengine.pmf.convolve` counts for arrays of lengths ``la`` and ``lb``."""
    return convolve_cost(la, lb).work


def steps_of(values: np.ndarray, probs: np.ndarray, explodes: np.ndarray, deltas: np.ndarray | None = None) \
        -> list[Step]:
    """The faces ``values`` (integers, their chances ``probs``) as :data:`Step` s: those alike in whether they
    explode (``explodes``, a mask) and in their key delta (``deltas``: a row of integers a face; None: ``()``)
    together."""
    kind = explodes.astype(np.int64)
    width = 2
    for column in () if deltas is None else deltas.T:  # each part's distinct values numbered
        seen, number = np.unique(column, return_inverse=True)
        kind = kind + width * number.reshape(-1)
        width *= len(seen)
    out: list[Step] = []
    for k in np.unique(kind).tolist():
        pick = np.flatnonzero(kind == k)
        vals = values[pick]
        low = int(vals.min())
        delta = () if deltas is None else tuple(deltas[pick[0]].tolist())
        out.append((bool(k & 1), delta, PMF(low, np.bincount(vals - low, weights=probs[pick]))))
    return out


def _put(table: dict[Key, Masses], key: Key, masses: Masses) -> None:
    """Add ``masses`` to the chains of ``key`` in ``table`` (as Python floats while both are)."""
    found = table.get(key)
    if found is None:
        table[key] = masses
    elif isinstance(found, PMF) or isinstance(masses, PMF):
        table[key] = _pmf(found).mix(_pmf(masses))
    else:
        table[key] = _added([found, masses])


def _added(parts: list[tuple[int, list[float]]]) -> tuple[int, list[float]]:
    """Masses of Python floats added outcome by outcome, in one list (one pass: the parts of many rounds)."""
    if len(parts) == 1:
        return parts[0]
    lo = min(offset for offset, _ in parts)
    out = [0.0] * (max(offset + len(cells) for offset, cells in parts) - lo)
    for offset, cells in parts:
        for i, x in enumerate(cells, offset - lo):
            out[i] += x
    return lo, out


def _plus(key: Key, delta: Key) -> Key:
    """``key`` moved by ``delta``, part by part."""
    return tuple(a + b for a, b in zip(key, delta)) if delta else key


def _weight(table: dict[Key, Masses]) -> float:
    """The mass of the chains of ``table``."""
    return sum(masses.mass if isinstance(masses, PMF) else sum(masses[1]) for masses in table.values())


def _split(pmf: PMF, on: frozenset[int], key: Key = ()) -> list[Step]:
    """``[stops, goes on]``: the masses of the faces that do not explode and of those that do, with ``key``."""
    mask = np.isin(pmf.values, np.fromiter(on, dtype=np.int64))
    return [(False, key, PMF(pmf.offset, np.where(mask, 0.0, pmf.p))), (True, key, PMF(pmf.offset, np.where(mask, pmf.p, 0.0)))]


def _die_chains(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool, first: PMF | None,
                tolerance: float, added: Key) -> tuple[dict[Key, PMF], float]:
    """:func:`keyed_chains` of a die showing ``pmf`` (its first throw ``first`` when given), exploding on ``on``,
    each added throw adding ``added`` to the key; refused when every face explodes, or past
    :data:`~diceengine.limits.MAX_EXPLOSIONS` added throws with more than ``tolerance`` left (no ``depth``:
    :func:`keyed_chains`)."""
    steps = _split(pmf, on, added)
    start = steps if first is None else _split(first, on)
    zero = tuple(0 for _ in added)
    start = [(go, zero, masses) for go, _, masses in start]
    if steps[1][2].mass >= 1.0 - 1e-15 and depth is None and start[1][2].mass > 0:
        raise DiceValueError(N_("every face explodes: the die never stops"))
    if depth is None:
        return keyed_chains(start, steps, None, penetrate, tolerance)
    return keyed_chains(start, steps, depth, penetrate, 0.0, max(depth, 0))


def chains(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool, first: PMF | None = None,
           tolerance: float = TOLERANCE) -> Iterator[tuple[int, PMF]]:
    """``(k, masses)``: the totals of the throws of one die that added exactly ``k`` throws, weighted by their
    chance. Each throw shows ``pmf`` (the first one ``first`` when given: a face kept after re-rolls); a throw
    explodes on a face of ``on``, at most ``depth`` more throws (None: until the chains still going weigh at most
    ``tolerance``); ``penetrate``: each added throw counts one less. Without ``depth``, the last item has
    ``k = -1`` and the mass left out (at 0)."""
    done, left = _die_chains(pmf, on, depth, penetrate, first, tolerance, (1,))
    for (k,), masses in sorted(done.items()):
        yield k, masses
    if depth is None:
        yield -1, PMF.point(0, left)


def chains_total(pmf: PMF, on: frozenset[int], depth: int | None, penetrate: bool, first: PMF | None = None,
                 tolerance: float = TOLERANCE) -> tuple[PMF, float]:
    """The total of one exploding throw (:func:`chains` mixed) and the mass left out."""
    done, left = _die_chains(pmf, on, depth, penetrate, first, tolerance, ())
    return done.get((), PMF.point(0, 0.0)), left


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
