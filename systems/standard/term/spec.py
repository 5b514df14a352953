"""One dice term of the standard notation (``NdM`` with its modifiers) as data: :class:`TermSpec`, the frozen
record of its modifiers that every interpretation of the term reads (:mod:`.roll`, :mod:`.sample`, :mod:`.exact`,
:mod:`.each_die`, :mod:`.text`, :mod:`.dice`, :mod:`.scores`, :mod:`.chains`).

Semantics, where tables differ:

- a per-die minimum / maximum (``mi``/``min``, ``ma``/``max``) changes the faces themselves: every later
  test (explosion, re-roll, success) reads the clamped face; so does a plug-in's modifier (a face map,
  :class:`~..modifiers.FaceMap`), the face maps in the order written;
- re-rolls apply to the first face of a die; ``r`` re-rolls until the face misses the compare point
  (after ``reroll_cap``, at most :data:`~diceengine.limits.MAX_REROLLS`, recorded re-rolls the final face is
  drawn directly among the allowed faces, which has the same distribution; a roll and a sample alike), ``ro``
  re-rolls once; bare ``r`` / ``ro`` re-roll the lowest face; the roll, the sample and the exact chances of a
  re-roll are the die algebra's (:mod:`diceengine.algebra.rerolls`), unique dice's (``u``) too, their test being
  the faces already shown;
- ``u`` throws again a die whose face (meeting the compare point, if one is given) an earlier die of the
  term already shows, until it differs; ``uo`` once;
- an exploding die and the dice its explosions add form one *unit*: keep / drop rank units by their
  sum; with ``!`` success counting counts every face of the unit, with ``!!`` (compound) it tests
  the unit's sum, as one die; ``!p`` (penetrating) counts each added die one less (the explosion
  tests the face thrown); d20's ``ra`` is an explosion that adds at most one die;
- several keep / drop each choose among all the dice, and a die counts if none drops it (rpg-dice-roller):
  ``4d6dl1dh1`` keeps the middle two, ``3d10k1dh1`` none;
- ``!N`` explodes on a face equal to N (Roll20), ``!`` alone on the maximum face;
- ``s`` / ``sd`` sort the text; ``cs`` / ``cf`` mark dice in the text and the dice (``critical``), and the
  outcome counts the kept dice marked (:func:`.scores.with_tally` folds the marks into the score for the
  sample and the exact odds): every face of an exploding die is marked on its own, on the value recorded
  (one less for a penetrating added die), compound or not;
- ``dbl`` (doubled successes, ``10d10>=8dbl10``): a success that meets its point counts two successes (a
  compound unit: its sum tested; with ``!`` every face counted, each on its own); a face that meets the
  doubling point but not the success point scores as before; bare ``dbl`` doubles the highest face;
- d20's ``rolN`` / ``rohN`` re-roll the lowest / highest N dice once (the new faces replace them),
  ``ralN`` / ``rahN`` throw one die more (for the lowest / highest die, whatever N: d20 adds at most one);
  alone with a success count, critical marks and a per-die minimum / maximum (the order of d20's operators
  matters with keep / drop, explosions and the other re-rolls: refused with them);
- a score of the dice as a multiset (``pool``, :class:`PoolScore`: Roll20's matching dice ``m`` / ``mt``,
  :mod:`..modifiers.matching`; Foundry's counts of even and odd faces ``even`` / ``odd``,
  :mod:`..modifiers.parity`): the die algebra's evaluator of the score is its one definition, which the roll,
  the sample and the exact odds all read (:mod:`.pooled`); such a modifier goes with the face maps only;
- a die that meets both the success point and the failure point (``4d6>=1f<=1``) counts as a success
  only, as python-dice and rpg-dice-roller count it.

Bounds (README, "Bounds"): a term's faces are ranges, never listed, so a d1000000 costs no more memory
than a d6 (a per-die minimum / maximum or ``dF.1`` lists them: at most ``MAX_SIDES``).
:func:`.chains.bounds` gives the range of the term's score for the engine's integer rule.
A die whose explosions would run past :data:`~diceengine.limits.MAX_EXPLOSIONS` with a probability
above the truncation of exact odds is refused up front (by roll, sample and distribution alike), and
one roll throws about :data:`~diceengine.limits.MAX_THROWS` dice at most on average: re-rolls are
recorded up to ``reroll_cap`` per die (fewer when the term has many dice), after which the final face
is drawn directly among the allowed faces (the same distribution).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from diceengine.limits import MAX_REROLLS
from diceengine.records import dataclass, field

from ..nodes import Compare, Dice
from ..selection import Selection
from .faces import Faces, split_faces

if TYPE_CHECKING:  # the counts read when a term counts (cold start: a first roll of 4d6kh3 counts nothing)
    from diceengine.algebra.counts import Count

__all__ = ["PoolScore", "TermSpec"]


@dataclass(frozen=True, slots=True)
class PoolScore:
    """A score of a term's dice read as a multiset (their faces, in no order), as a modifier lowers it
    (``TermSpec.pool``): one field that every interpretation honours the same way (:class:`~.pooled.PoolTerm`),
    so that a modifier of this kind adds no field of the spec and no term of its own.

    - ``evaluator``: the score as the die algebra's :class:`~diceengine.algebra.multiset.Evaluator` (its states
      updated face by face from how many dice show each): the roll, the sample and the exact odds all read it;
    - ``scores``: the score is the term's total (``False``: the total stays the dice's sum, the dice marked only);
    - ``sparse``: a face no die shows leaves the evaluator's state as it is (a roll visits the faces shown only,
      not every face of the die);
    - ``marks``: which dice to mark, from the faces thrown (``None``: none), each marked die's ``critical``
      (:class:`~diceengine.rolls.Die`) being ``mark`` (empty: none) and its text followed by ``mark_text``."""

    evaluator: Any
    scores: bool = True
    sparse: bool = False
    marks: Callable[[Sequence[int]], list[bool]] | None = None
    mark: str = ""
    mark_text: str = ""


@dataclass(frozen=True, eq=False)
class TermSpec:
    """A validated dice term (:func:`~.compile.compile_term`, each modifier lowered by its class of
    :mod:`..modifiers`): its modifiers, and the facts derived from them that the interpretations branch on
    (``consecutive``, ``flat``, ``plain``, ``explode_only``, ``per_die``). A fast path's flag is on when every
    field the path does not honour (:data:`HONOURS`) is as a bare term has it: a new field turns it off."""

    node: Dice
    text: str
    count: int
    faces: Any                      # a range, or Listed faces (clamped dice, dF.1)
    kind: str
    window: tuple[int, int] | None  # ranks kept, lowest first: [lo, hi) (None: all)
    explode: Compare | None
    compound: bool
    reroll: Compare | None
    reroll_once: bool
    success: Compare | None
    failure: Compare | None
    label: str | None
    penetrate: bool = False
    explode_limit: int | None = None   # ra: at most one added die
    unique: Compare | None = None      # faces that must be unique (all faces: a point nothing misses)
    unique_once: bool = False
    unique_on: bool = False
    sort: str | None = None
    crit_success: Compare | None = None
    crit_failure: Compare | None = None
    reroll_cap: int = MAX_REROLLS  # re-rolls recorded per die before drawing among the allowed faces
    selection: Selection | None = None  # d20's keep / drop when it is no window of ranks
    keeps: tuple = ()                   # the keep / drop modifiers as written
    each_die: bool = False              # explosions="dice": keep / drop rank every die thrown, not units
    double: Compare | None = None       # dbl: the successes meeting it count twice
    reroll_rank: tuple[str, str, int] | None = None  # d20's rolN / rahN: ("ro" | "ra", "l" | "h", dice chosen)
    pool: PoolScore | None = None       # a score of the dice as a multiset (m / mt; :mod:`.pooled`)
    tally: tuple[int, ...] | None = None  # (lo, width, ws, wf, most cs, most cf): critical counts in the score
    consecutive: bool = field(init=False)  # the faces are a range
    flat: bool = field(init=False)  # each die thrown once: the record is the list of faces
    plain: bool = field(init=False)  # no modifier but keep / drop
    explode_only: bool = field(init=False)  # no modifier but an explosion (the record: units of [face, flags])
    label_suffix: str = field(init=False, repr=False)  # what closes the term's text: "]" or "] (label)"
    per_die: bool = field(init=False)  # every thrown die ranked on its own (explosions="dice")
    counting: Count | None = field(init=False, repr=False)  # success / failure / dbl as the algebra's count
    marking: Count | None = field(init=False, repr=False)  # cs / cf: a critical success 1, a critical failure -1
    tallied: Count | None = field(init=False, repr=False)  # the marks as the tally folds them (ws, wf)

    def __post_init__(self) -> None:
        held = self.__dict__  # the derived fields written into the frozen record's own dictionary, as new_spec does
        consecutive = isinstance(held["faces"], range)
        # each fast path: faces a range, and every field it does not honour as a bare term has it (HONOURS)
        flat, plain, explode_only = (_FLAGS.get(type(self)) or _flags_reader(type(self)))(held) if consecutive \
            else (False, False, False)
        label = held["label"]
        held.update(consecutive=consecutive, flat=flat, plain=plain, explode_only=explode_only,
                    label_suffix=f"] ({label})" if label else "]",
                    per_die=held["each_die"] and held["explode"] is not None and not held["compound"]
                    and (held["window"] is not None or held["selection"] is not None))
        if held["success"] is None and held["crit_success"] is None and held["crit_failure"] is None:
            # nothing counted (most terms): no count made (the tally alone is a with_tally copy's)
            held["counting"] = held["marking"] = None
            held["tallied"] = None if held["tally"] is None else _count(None, None, None)
        else:
            held.update(self._counts())

    def _counts(self) -> dict[str, Count | None]:
        """The term's counts as the die algebra's :class:`~diceengine.algebra.counts.Count` (:mod:`.scores`):
        ``counting`` (success, failure, doubled), ``marking`` (critical marks), ``tallied`` (the marks as the tally
        folds them); a term counting nothing reads none (:meth:`__post_init__`)."""
        crits = _point_key(self.crit_success), _point_key(self.crit_failure)
        return {"counting": None if self.success is None else
                _count(_point_key(self.success), _point_key(self.failure), _point_key(self.double)),
                "marking": None if crits == (None, None) else _count(*crits, None, (1, -1, 1)),
                "tallied": None if self.tally is None else _count(*crits, None, (self.tally[2], self.tally[3],
                                                                                 self.tally[2]))}

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def success_range(self) -> tuple[int, int]:
        """``(lo, hi)`` of one face's success score: -1 with a failure count, 2 with doubled successes."""
        return (0, 1) if self.counting is None else self.counting.bounds()

    @property
    def keep(self) -> int | None:
        """Number of units kept (None: all)."""
        return None if self.window is None else self.window[1] - self.window[0]

    @property
    def allowed(self) -> Any:
        """The faces a re-roll keeps (all of them without a re-roll)."""
        if self.reroll is None:
            return Faces(self.faces) if isinstance(self.faces, range) else self.faces
        return split_faces(self.faces, self.reroll)[1]


#: the term itself (its dice, its text, its label), which every path reads
_THE_TERM = ("node", "text", "count", "faces", "kind", "label")
#: the fields each fast path honours besides the term itself: the path is taken only when every other field is as
#: a bare term has it (:data:`BARE`), so a new field turns each path off until its name is added here
HONOURS: dict[str, frozenset[str]] = {
    # each die thrown once, the record the list of faces: keep / drop, the counts and marks read from it
    "flat": frozenset({*_THE_TERM, "window", "keeps", "selection", "success", "failure", "double", "sort",
                       "crit_success", "crit_failure", "tally", "reroll_cap", "each_die"}),
    # the faces summed, keep / drop by rank
    "plain": frozenset({*_THE_TERM, "window", "keeps", "reroll_cap", "each_die"}),
    # an explosion (compound or not) and nothing else
    "explode_only": frozenset({*_THE_TERM, "explode", "compound", "reroll_cap", "each_die"}),
}
#: a bare term's value of the fields without a default (compile_term's for a term with no modifier)
BARE: dict[str, Any] = {"window": None, "explode": None, "compound": False, "reroll": None, "reroll_once": False,
                        "success": None, "failure": None}
_UNKNOWN = object()  # a field with neither a default nor a bare value: never bare
#: per class of spec, what reads ``flat``, ``plain`` and ``explode_only`` from a spec's fields (its ``__dict__``)
_FLAGS: dict[type, Callable[[dict[str, Any]], tuple[bool, bool, bool]]] = {}


def _flags_reader(cls: type) -> Callable[[dict[str, Any]], tuple[bool, bool, bool]]:
    """:data:`_FLAGS` of ``cls``, from its fields: ``flat``, ``plain``, ``explode_only`` of a spec whose faces are
    a range, each path on when every field it does not honour is its very bare value (None, False, (), a default:
    ``is``, no field's own equality asked, so a value merely equal to its bare one turns the path off, never on).
    ``plain`` honours less than ``flat`` and ``explode_only`` needs the explosion ``flat`` does not honour: each is
    read only where it can hold. Written as a function of the fields' names per class (as :mod:`dataclasses` writes
    ``__init__``): a new term's flags cost a few dictionary reads, not a call per field; ``explode_only``'s reader
    is written at its first use (cold start: a first roll without an explosion does not compile it)."""
    from diceengine.records import MISSING, fields

    bare = {f.name: BARE.get(f.name, _UNKNOWN) if f.default is MISSING else f.default
            for f in fields(cls) if f.init}
    assert HONOURS["plain"] <= HONOURS["flat"] and "explode" not in HONOURS["flat"]  # what the reader reads
    unhonoured = {flag: sorted(name for name in bare if name not in HONOURS[flag]) for flag in HONOURS}
    values: dict[str, Any] = {}  # the written functions' globals: the bare values, and explode_only's reader

    def every_bare(names: list[str]) -> str:
        values.update((f"_bare_{name}", bare[name]) for name in names)
        return " and ".join(f"held[{name!r}] is _bare_{name}" for name in names) or "True"

    def written(source: str) -> Any:
        exec(source, values)  # noqa: S102 - names from the class's own fields, read above
        return values.pop("reader")

    def explode_only(held: dict[str, Any]) -> bool:
        values["_explode_only"] = written(f"def reader(held):\n    return {every_bare(unhonoured['explode_only'])}\n")
        return values["_explode_only"](held)

    values["_explode_only"] = explode_only
    plain_more = [name for name in unhonoured["plain"] if name not in unhonoured["flat"]]
    found = _FLAGS[cls] = written(
        f"def reader(held):\n    if {every_bare(unhonoured['flat'])}:\n"
        f"        return True, {every_bare(plain_more)}, False\n"
        f"    return False, False, held['explode'] is not None and _explode_only(held)\n")
    return found


def _point_key(compare: Compare | None) -> tuple[str, int] | None:
    return None if compare is None else (compare.op, compare.value)


@lru_cache(maxsize=4096)
def _count(success: tuple[str, int] | None, failure: tuple[str, int] | None, double: tuple[str, int] | None,
           weights: tuple[int, int, int] = (1, -1, 2)) -> Count:
    """The algebra's count of these compare points (``(op, value)``, None: no such point), made once and shared by
    every term counting on them."""
    from diceengine.algebra.counts import Count, point  # here: cold start (most first rolls count nothing)

    tests = [None if p is None else point(*p) for p in (success, failure, double)]
    return Count(tests[0], tests[1], tests[2], weights)
