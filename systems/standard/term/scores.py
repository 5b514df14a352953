"""What a dice term's faces score: a face's success score and critical mark, a unit's score, the dice a keep /
drop leaves out of a record, and the tally that folds the critical counts into the score (:func:`with_tally`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from diceengine.lazy import np
from diceengine.records import replace

from .chains import chain_depth, kept_units
from .faces import REROLLED, split_faces, window_of
from .spec import TermSpec

__all__ = ["base_array", "critical", "dropped_dice", "face_score", "keeps_nothing", "mark_array", "marks_per_unit",
           "score_array", "score_of", "scorer", "tallied_range", "unique_test", "unit_score", "untally", "with_tally"]


def face_score(spec: TermSpec, f: int) -> int:
    """+1 a success (+2 doubled), -1 a failure; a face meeting both points is a success (as the peers count):
    the term's count (:class:`~diceengine.algebra.counts.Count`) of one face."""
    return spec.counting.score(f)  # type: ignore[union-attr]


def critical(spec: TermSpec, v: int) -> str | None:
    """``"success"`` a face meeting the critical success point, else ``"failure"`` one meeting the critical
    failure point, else None."""
    mark = 0 if spec.marking is None else spec.marking.score(v)
    return "success" if mark > 0 else "failure" if mark < 0 else None


def unit_score(spec: TermSpec, unit: list[list[int]]) -> int:
    faces = [t[0] for t in unit if not t[1] & REROLLED]
    if spec.counting is None:
        return sum(faces)
    if spec.compound:
        faces = [sum(faces)]
    return sum(map(spec.counting.score, faces))


def score_of(spec: TermSpec, v: int) -> int:
    """A kept die's score: its value or success score, with its critical marks when tallied."""
    base = v if spec.counting is None else spec.counting.score(v)
    return base if spec.tallied is None else base + spec.tallied.score(v)


def scorer(spec: TermSpec) -> Callable[[int], int]:
    """A face's score: the face itself, or its count (:func:`score_of`)."""
    return (lambda v: v) if spec.success is None and spec.tally is None else partial(score_of, spec)


def score_array(spec: TermSpec, values: np.ndarray) -> np.ndarray:
    """:func:`score_of` of an array of faces."""
    score = base_array(spec, values)
    return score if spec.tallied is None else score + spec.tallied.scores(values)


def base_array(spec: TermSpec, values: np.ndarray) -> np.ndarray:
    """The value, or the success score, of an array of faces (critical marks aside)."""
    return values.copy() if spec.counting is None else spec.counting.scores(values)


def mark_array(spec: TermSpec, values: np.ndarray) -> np.ndarray:
    """The critical marks of an array of faces as :func:`with_tally` folds them (``ws`` or ``wf`` or 0)."""
    assert spec.tallied is not None
    return spec.tallied.scores(values)


def unique_test(spec: TermSpec, v: int) -> bool:
    """Whether a face must be unique among the dice of the term (``u``; with a compare point, the faces meeting it)."""
    return spec.unique is None or bool(spec.unique.test(v))


def dropped_dice(spec: TermSpec, data: list) -> set[int]:
    """The indices of the dice keep / drop leave out of a flat record (a list of faces)."""
    if spec.selection is not None:
        return {i for i, k in enumerate(spec.selection.kept(data)) if not k}
    if spec.window is None or spec.keep == len(data):
        return set()
    a, b = spec.window
    order = sorted(range(len(data)), key=data.__getitem__)
    return set(order[:a] + order[b:])


def keeps_nothing(spec: TermSpec) -> bool:
    """Whether the keep / drop leave no die (``5d10!kh2kl2``: the two highest and the two lowest are four
    distinct dice): the score is 0, whatever is thrown."""
    if spec.selection is not None or spec.tally is not None or spec.unique_on or not spec.keeps:
        return False
    if not spec.per_die:
        return spec.window is not None and spec.window[1] <= spec.window[0]
    # every die ranked: as many dice as asked or more are thrown; past count + the keep sizes, the same ranks
    last = spec.count + sum(k.n for k in spec.keeps) + 2
    return all((w := window_of(spec.keeps, n)) is not None and w[1] <= w[0] for n in range(spec.count, last))


def marks_per_unit(spec: TermSpec) -> tuple[int, int]:
    """At most how many faces of one unit (a die and the dice its explosions add) meet the critical success
    and the critical failure points: one, unless a face that explodes can be marked as an added die records it
    (every die of the chain then can); penetrating, a first die's exploding face marked, two at most (the first
    die and the last, whose faces are recorded one less)."""
    if spec.explode is None:
        return 1, 1
    links = chain_depth(spec) + 1
    on_faces = split_faces(spec.faces, spec.explode)[0]
    on = on_faces.take(np.arange(len(on_faces)))
    pen = int(spec.penetrate)

    def most(point: Any) -> int:
        if point is not None and bool(point.test(on - pen).any()):
            return links
        if point is not None and pen and bool(point.test(on).any()):
            return min(links, 2)
        return 1

    return most(spec.crit_success), most(spec.crit_failure)


def tallied_range(spec: TermSpec, scores: tuple[int, int]) -> tuple[int, int]:
    """The range of a unit's score, critical marks included when tallied (:func:`with_tally`)."""
    if spec.tally is None:
        return scores
    if spec.per_die:
        return scores[0], scores[1] + spec.tally[2] + spec.tally[3]
    ns, nf = marks_per_unit(spec)
    return scores[0], scores[1] + spec.tally[2] * ns + spec.tally[3] * nf


def with_tally(spec: TermSpec) -> TermSpec:
    """This term scoring each kept die ``base + ws * [critical success] + wf * [critical failure]`` (``base``
    its value, or its success score): the sum of the kept dice's scores holds the term's score and its
    counts of kept critical successes and failures, split again by :func:`untally`. An exploding die's
    faces are each marked (the value recorded: one less for a penetrating added die); the widths come from
    the chains the exact odds follow (:func:`~.chains.chain_depth`), so that every count they hold is told apart."""
    units, b_lo, b_hi = kept_units(spec)
    per_unit = (1, 1) if spec.per_die else marks_per_unit(spec)
    lo, hi = min(0, units * b_lo), max(0, units * b_hi)
    width = hi - lo + 1
    most_s = units * per_unit[0] if spec.crit_success is not None else 0
    most_f = units * per_unit[1] if spec.crit_failure is not None else 0
    ws = width if spec.crit_success is not None else 0
    wf = width * (most_s + 1) if spec.crit_failure is not None else 0
    return replace(spec, tally=(lo, width, ws, wf, most_s, most_f))


def untally(spec: TermSpec, encoded: Any) -> tuple[Any, Any, Any]:
    """``(score, critical successes, critical failures)`` of sums of :func:`with_tally` scores (ints or
    numpy arrays)."""
    assert spec.tally is not None
    lo, width, ws, wf = spec.tally[:4]
    score = lo + (encoded - lo) % width
    rest = (encoded - score) // width
    if ws and wf:
        per = wf // width
        return score, rest % per, rest // per
    return (score, rest, rest * 0) if ws else (score, rest * 0, rest)
