"""The cache of prepared plans: bounded in bytes, keyed on meaning.

Two levels:

- *spellings*: ``(system, text, options)`` -> plan, what a repeated call looks up first (one dict
  lookup on the hot path);
- *meanings*: ``(system, syntax tree, options)`` -> plan. Syntax trees compare without positions, so
  spellings that differ only in whitespace or letter case (``"4d6kh3"``, ``" 4D6KH3 "``) parse to
  equal trees and share one plan (a shallow copy that shows each its own text). The errors a shared plan
  raises once built (a division by zero thrown by the dice) name the spelling that built it; the entry points
  of :mod:`diceengine.api` locate them again in the spelling typed, on the way out of the failed call only.

Plans are measured (:func:`footprint`), spellings too, and the total is kept under :data:`MAX_BYTES`:
the oldest meaning goes first, with its spellings. A plan larger than :data:`MAX_PLAN_BYTES` is used
but not kept. A plan that says its shape (``plan.footprint_shape()``: plans of one shape hold the same objects,
only their texts differ) is not walked: the largest plan of its shape is measured once, its texts aside, and each
plan of the shape counts that, its own texts and :data:`SHAPE_SLACK` (the numbers a plan holds may take a few bytes
more than the reference's); ``tests/test_quick_path.py`` checks that this is never less than what the plan holds.
That measuring waits until the cache must make room: until then a plan of a shape not yet measured counts the
bound its shape says (what no plan of the shape exceeds, ``tests/test_plan_cache.py``), and when the total passes
:data:`MAX_BYTES` those plans are measured, the oldest first, before any meaning goes. So a never-seen expression's
first call walks nothing, and what is kept and dropped is what measuring every plan at once would keep and drop.

The exact distributions of the meanings kept are remembered too (:meth:`PlanCache.answer`), measured from the
arrays they hold and kept under :data:`MAX_ANSWER_BYTES` (the least recently asked goes first; one larger than
:data:`MAX_ANSWER_ITEM_BYTES` is not kept); a meaning dropped takes its distribution with it. Each caller gets
its own copy. Changes are made under a lock (the web service's threads share the cache); the hot path's
lookup of a spelling is one dictionary read.
"""

from __future__ import annotations

import sys
import types
from _thread import RLock  # threading's own lock, without importing threading on a first roll
from collections.abc import Callable, Hashable, Iterable
from functools import partial
from gc import get_referents
from operator import is_not
from typing import Any

__all__ = ["MAX_ANSWER_BYTES", "MAX_ANSWER_ITEM_BYTES", "MAX_BYTES", "MAX_PLAN_BYTES", "SHAPE_SLACK", "Meaning",
           "PlanCache", "footprint"]

#: bytes of plans kept in all
MAX_BYTES = 24 * 2**20
#: largest plan kept
MAX_PLAN_BYTES = 2 * 2**20
#: bytes of exact distributions kept in all
MAX_ANSWER_BYTES = 32 * 2**20
#: largest exact distribution kept
MAX_ANSWER_ITEM_BYTES = 4 * 2**20
#: bytes a plan of a known shape is counted beyond its shape's reference and its texts (a number past 2**30 takes
#: 4 bytes more than the reference's, equal small numbers share one object in one plan and not in another)
SHAPE_SLACK = 256
#: most shapes whose size is remembered (a few hundred bytes each); the plans of any other shape are walked
MAX_SHAPES = 4096

_OPAQUE = (types.ModuleType, type, types.CodeType, types.BuiltinFunctionType, types.BuiltinMethodType)


#: how footprint() looks into an object of each type: (kind, slot descriptors, bytes it makes later); kinds below (an instance of a class without
#: ``__dict__``, all slots, is an _OBJECT_SLOTS; one of a class written in Python, all its slots its own members, a
#: _SLOTS_HELD: what its slots hold is what the interpreter's collector sees it hold, read in one call without raising
#: for each slot not set, as a lazily made entry point is)
_LAYOUTS: dict[type, tuple[int, tuple[Any, ...], int]] = {}
_SKIP, _LEAF, _SHARED, _ARRAY, _DICT, _SEQUENCE, _FUNCTION, _METHOD, _OBJECT, _OBJECT_SLOTS, _SLOTS_HELD = range(11)
#: the type flags of a class written in Python, and of one whose instances the collector traverses
_HEAPTYPE, _HAVE_GC = 1 << 9, 1 << 14
#: whether a value is held (not None: shared, nothing to count)
_held = partial(is_not, None)
#: read slotted objects with :func:`gc.get_referents` when they allow it (``tests/test_quick_path.py`` compares the two)
HELD_BY_REFERENTS = True


def _layout(cls: type) -> tuple[int, tuple[Any, ...], int]:
    """How :func:`footprint` reads an object of ``cls`` (worked out once per type)."""
    from .registry import System

    np = sys.modules.get("numpy")  # not imported: nothing is an array (a roll needs no numpy)
    if issubclass(cls, (*_OPAQUE, System)) or cls is type(None) or cls is bool:  # shared: None, True, False
        kind = _SKIP
    elif isinstance(getattr(cls, "__footprint_shared__", None), int):  # a value many plans share: its declared bytes
        found = _LAYOUTS[cls] = (_SHARED, (), cls.__footprint_shared__)  # type: ignore[attr-defined]
        return found
    elif np is not None and issubclass(cls, np.ndarray):
        kind = _ARRAY
    elif issubclass(cls, (str, bytes, int, float, range)):
        kind = _LEAF
    elif issubclass(cls, dict):
        kind = _DICT
    elif issubclass(cls, (list, tuple, set, frozenset)):
        kind = _SEQUENCE
    elif issubclass(cls, types.FunctionType):
        kind = _FUNCTION
    elif issubclass(cls, types.MethodType):
        kind = _METHOD
    else:
        kind = _OBJECT
    # each slot's own descriptor: reading it never calls the class's __getattr__ (what it would make is not held)
    slots = tuple(_slot(c, name) for c in cls.__mro__ for name in _slot_names(c)
                  if name not in ("__dict__", "__weakref__"))
    if kind == _OBJECT and not any("__dict__" in c.__dict__ for c in cls.__mro__):
        kind = _OBJECT_SLOTS  # no instance dictionary to look for
        if HELD_BY_REFERENTS and _slots_held(cls, slots):
            kind = _SLOTS_HELD
    found = _LAYOUTS[cls] = (kind, slots, getattr(cls, "__footprint_later__", 0) if kind >= _OBJECT else 0)
    return found


def _slots_held(cls: type, slots: tuple[Any, ...]) -> bool:
    """Whether :func:`gc.get_referents` gives exactly what an instance of ``cls`` holds in ``slots`` (and its class):
    every class of its line but ``object`` written in Python (no built-in base traversing more), each slot read by its
    own member descriptor, and the instances traversed by the collector (always, when they have slots)."""
    line = cls.__mro__
    return (line[-1] is object and all(c.__flags__ & _HEAPTYPE for c in line[:-1])
            and all(type(s) is types.MemberDescriptorType for s in slots)
            and (not slots or bool(cls.__flags__ & _HAVE_GC)))


def _slot(cls: type, name: str) -> Any:
    """The descriptor of the slot ``name`` of ``cls`` (a private name is mangled); one reading the attribute
    when the class holds none under that name."""
    if name.startswith("__") and not name.endswith("__"):
        name = f"_{cls.__name__.lstrip('_')}{name}"
    found = cls.__dict__.get(name)
    return found if hasattr(found, "__get__") else _ByName(name)


class _ByName:
    """Reads an attribute by its name (see :func:`_slot`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type) -> Any:
        return getattr(obj, self.name)


def _slot_names(cls: type) -> tuple[str, ...]:
    names = cls.__dict__.get("__slots__", ())
    return (names,) if isinstance(names, str) else tuple(names)


def footprint(obj: Any, limit: int = 1 << 30, later: bool = True) -> int:
    """Bytes held by ``obj`` and what it owns: containers, instance fields, closures, numpy buffers; with ``later``,
    what an object makes when first asked too (its class's ``__footprint_later__``, bytes: a dice term's dice, sample
    and odds), made or not.

    Modules, classes, code, globals, registered systems, ``None`` and the booleans are shared, so not counted, nor
    are the names of an instance's attributes (its class's). An instance of a class that declares
    ``__footprint_shared__`` (bytes: a value made once and shared by many plans, such as a ruleset's die of the die
    algebra) counts those bytes and is not walked. Stops early once past ``limit`` (the result is then only known to
    exceed it)."""
    seen: set[int] = set()
    see = seen.add
    stack = [obj]
    pop, push, extend = stack.pop, stack.append, stack.extend
    total = 0
    getsize = sys.getsizeof
    layouts = _LAYOUTS
    while stack and total <= limit:
        o = pop()
        cls = type(o)
        layout = layouts.get(cls) or _layout(cls)
        kind = layout[0]
        if kind == _SKIP:  # shared (None, a class...): told apart before its identity is looked up
            continue
        i = id(o)
        if i in seen:
            continue
        see(i)
        if kind <= _SHARED:  # a leaf: its size; a shared value: the bytes its class declares, not walked
            total += getsize(o) if kind == _LEAF else layout[2]
            continue
        total += getsize(o)  # an array: its buffer included when it owns one
        if kind == _SLOTS_HELD:  # the commonest instance: what its slots hold, read in one call (its class: skipped)
            extend(filter(_held, get_referents(o)))
            if later:
                total += layout[2]
        elif kind >= _OBJECT:
            total += _instance(o, layout, seen, push, extend) + (layout[2] if later else 0)
        elif kind == _SEQUENCE:  # the commonest container: walked here
            extend(o)
        else:
            _contents(o, kind, push, extend)
    return total


def _instance(o: Any, layout: tuple[int, tuple[Any, ...], int], seen: set[int], push: Callable[[Any], None],
              extend: Callable[[Iterable[Any]], None]) -> int:
    """What :func:`footprint` finds in an instance ``o`` (not of a :data:`_SLOTS_HELD` class): its ``__dict__``'s
    values and its slots' values, to be walked; returns the bytes of its ``__dict__`` when not seen before."""
    total = 0
    if layout[0] == _OBJECT:
        d = getattr(o, "__dict__", None)
        if d is not None and id(d) not in seen:
            seen.add(id(d))
            total = sys.getsizeof(d)
            extend(filter(_held, d.values()))  # the attribute names are the class's; None is shared
    cls = type(o)
    for slot in layout[1]:
        try:
            value = slot.__get__(o, cls)
        except AttributeError:  # an unset slot: nothing held
            continue
        if value is not None:
            push(value)
    return total


def _contents(o: Any, kind: int, push: Callable[[Any], None], extend: Callable[[Iterable[Any]], None]) -> None:
    """What :func:`footprint` walks next in ``o``, a dictionary, a function, a bound method or an array of ``kind``."""
    if kind == _DICT:
        extend(o.keys())
        extend(o.values())
    elif kind == _METHOD:
        push(o.__self__)
    elif kind == _FUNCTION:
        cells = o.__closure__
        if cells:
            extend(get_referents(*cells))  # what each cell holds (an empty one: nothing)
        extend(o.__defaults__ or ())
    elif o.base is not None:  # an array: what it views
        push(o.base)


class Meaning:
    """A meaning as the cache's key (``(system, syntax tree, options)``), hashed once: a new expression's meaning is
    looked up, entered and its answer kept under it, each a dictionary read that would otherwise hash the whole tree
    again. Equal to another ``Meaning`` of an equal key only. Raises ``TypeError`` for a key with an unhashable
    part (as ``hash`` does)."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: Hashable) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Meaning and self._hash == other._hash and self.key == other.key)

    def __repr__(self) -> str:
        return f"Meaning({self.key!r})"


class PlanCache:
    """Plans by spelling and by meaning, bounded in bytes (module docstring)."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_plan_bytes: int = MAX_PLAN_BYTES,
                 max_answer_bytes: int = MAX_ANSWER_BYTES, max_answer_item_bytes: int = MAX_ANSWER_ITEM_BYTES) -> None:
        self.max_bytes = max_bytes
        self.max_plan_bytes = max_plan_bytes
        self.max_answer_bytes = max_answer_bytes
        self.max_answer_item_bytes = max_answer_item_bytes
        self._lock = RLock()
        #: meaning -> (exact distribution, its bytes), least recently asked first
        self._answers: dict[Hashable, tuple[Any, int]] = {}
        #: bytes of the distributions kept
        self.answer_bytes = 0
        #: spelling -> plan: what a repeated call looks up
        self.spellings: dict[Hashable, Any] = {}
        self._owner: dict[Hashable, Hashable] = {}
        #: meaning -> [plan, bytes of the plan and of its spellings, spellings]
        self._meanings: dict[Hashable, list[Any]] = {}
        #: bytes held, in all
        self.bytes = 0
        #: a shape of plans -> bytes of its reference plan, its texts aside (see the module docstring)
        self._shapes: dict[Hashable, int] = {}
        #: meaning -> (bytes its plan counts until measured: its shape's bound, its shape, bytes of its texts), oldest
        #: first
        self._pending: dict[Hashable, tuple[int, Hashable, int]] = {}

    def plan_bytes(self, plan: Any, limit: int = 1 << 30) -> int:
        """Bytes counted for ``plan``: from its shape when it says one (the shape measured now if it was not), else its
        :func:`footprint` (past ``limit``: only known to exceed it)."""
        says = getattr(plan, "footprint_shape", None)
        return self._bytes(plan, says() if says is not None else None, limit)

    def _bytes(self, plan: Any, shaped: tuple[Hashable, int, Any, int] | None, limit: int) -> int:
        """:meth:`plan_bytes` of ``plan``, given what it says of its shape (``shaped``)."""
        if shaped is None:
            return footprint(plan, limit)
        shape, texts, reference, _ = shaped
        base = self._shapes.get(shape)
        if base is None:
            if len(self._shapes) >= MAX_SHAPES:  # so many shapes: the rarest are walked
                return footprint(plan, limit)
            largest = reference()
            base = self._shapes[shape] = footprint(largest) - largest.footprint_shape()[1]
        return base + texts + SHAPE_SLACK

    def _first_bytes(self, plan: Any, limit: int) -> tuple[int, tuple[Hashable, int] | None]:
        """``(bytes, unmeasured)`` a new plan counts: :meth:`plan_bytes` but for a plan of a shape not measured yet,
        which counts its shape's bound, unmeasured (walks nothing; ``unmeasured``: its shape and the bytes of its
        texts, else ``None``), unless that bound passes ``limit``."""
        says = getattr(plan, "footprint_shape", None)
        shaped = says() if says is not None else None
        if shaped is not None and shaped[0] not in self._shapes and shaped[3] + shaped[1] <= limit:
            return shaped[3] + shaped[1], (shaped[0], shaped[1])
        return self._bytes(plan, shaped, limit), None

    def get(self, spelling: Hashable) -> Any:
        """The plan of this spelling, or ``None``."""
        return self.spellings.get(spelling)

    def by_meaning(self, meaning: Hashable, expression: str) -> Any:
        """A plan of this meaning that shows ``expression``, or ``None``."""
        entry = self._meanings.get(meaning)
        if entry is None:
            return None
        plan = entry[0]
        if getattr(plan, "expression", expression) != expression:
            import copy  # on first use: a first roll loads neither copy nor weakref

            plan = copy.copy(plan)  # shares everything heavy; shows this spelling
            plan.expression = expression
        return plan

    def put(self, spelling: Hashable, meaning: Hashable, plan: Any, expression: str, new: bool = False) -> None:
        """Remember ``plan`` under its spelling and its meaning (hashable: a tree that cannot be hashed is meant by its
        spelling, ``("spelling", spelling)``); the oldest meanings (with their spellings) go first when the total
        passes :attr:`max_bytes`; a plan too large is not kept. ``new``: the plan was just built (not found by
        :meth:`by_meaning`): counted before the meaning is looked up, once."""
        size: tuple[int, tuple[Hashable, int] | None] | None = None
        if new:
            size = self._first_bytes(plan, self.max_plan_bytes)  # outside the lock: reads only the plan
            if size[0] > self.max_plan_bytes:
                return
        with self._lock:
            self._put(spelling, meaning, plan, expression, size)

    def _put(self, spelling: Hashable, meaning: Hashable, plan: Any, expression: str,
             size: tuple[int, tuple[Hashable, int] | None] | None) -> None:
        found = self._enter(spelling, meaning, plan, size)
        if found is None:
            return
        entry, whole = found
        if spelling in self._owner:
            return
        extra = sys.getsizeof(spelling) + sys.getsizeof(expression) + 200  # key, text, two dict slots
        if plan is not entry[0] and not whole:  # a respelled copy
            extra += sys.getsizeof(plan) + sys.getsizeof(getattr(plan, "__dict__", None))
        entry[1] += extra
        entry[2].append(spelling)
        self.bytes += extra
        self.spellings[spelling] = plan
        self._owner[spelling] = meaning
        while self.bytes > self.max_bytes and len(self._meanings) > 1:
            if self._pending:  # plans counted at their shape's bound: all measured before anything goes
                self._measure(next(iter(self._pending)))
            else:
                self._drop(next(iter(self._meanings)))

    def _enter(self, spelling: Hashable, meaning: Hashable, plan: Any,
               size: tuple[int, tuple[Hashable, int] | None] | None) -> tuple[list[Any], bool] | None:
        """``(entry, whole)``: the entry of ``meaning`` with ``plan`` counted in it when new (``size``: what
        :meth:`_first_bytes` said, ``None`` for a plan found by :meth:`by_meaning`); ``whole``: a second plan of the
        meaning, counted whole. ``None``: not kept (the meaning was dropped meanwhile and its plan is too large)."""
        whole = False
        if size is not None:  # a new plan: entered unless another one of this meaning was meanwhile
            entry = self._meanings.setdefault(meaning, [plan, size[0], []])
            if entry[0] is plan:
                self._count(meaning, size)
            elif spelling not in self._owner:  # built twice at once: this one kept for its spelling, counted whole
                entry[1] += size[0]  # (at its bound, when not measured: more than it holds, never measured again)
                self.bytes += size[0]
                whole = True
            return entry, whole
        found = self._meanings.get(meaning)
        if found is None:
            size = self._first_bytes(plan, self.max_plan_bytes)
            if size[0] > self.max_plan_bytes:
                return None
            found = self._meanings[meaning] = [plan, size[0], []]
            self._count(meaning, size)
        return found, whole

    def _count(self, meaning: Hashable, size: tuple[int, tuple[Hashable, int] | None]) -> None:
        """A new meaning's plan counted, at ``size`` (:meth:`_first_bytes`: its bound until measured)."""
        self.bytes += size[0]
        if size[1] is not None:
            self._pending[meaning] = (size[0], *size[1])

    def _measure(self, meaning: Hashable) -> None:
        """The plan of ``meaning``, counted at its shape's bound, measured: its count made exact (from its shape's
        size once known: no call on the plan)."""
        bound, shape, texts = self._pending.pop(meaning)
        entry = self._meanings[meaning]
        base = self._shapes.get(shape)
        change = (self.plan_bytes(entry[0]) if base is None else base + texts + SHAPE_SLACK) - bound
        entry[1] += change
        self.bytes += change

    def _drop(self, meaning: Hashable) -> None:
        _, size, spellings = self._meanings.pop(meaning)
        self.bytes -= size
        for spelling in spellings:
            self.spellings.pop(spelling, None)
            self._owner.pop(spelling, None)
        answer = self._answers.pop(meaning, None)
        if answer is not None:
            self.answer_bytes -= answer[1]

    def answer(self, spelling: Hashable) -> Any:
        """A copy of the exact distribution remembered for the meaning of this spelling, or ``None``."""
        meaning = self._owner.get(spelling)
        if meaning is None:
            return None
        with self._lock:
            found = self._answers.pop(meaning, None)
            if found is None:
                return None
            self._answers[meaning] = found  # now the most recently asked
        return found[0].copy()  # each caller its own (Distribution.copy)

    def remember(self, spelling: Hashable, dist: Any) -> None:
        """Keep a copy of ``dist``, the exact distribution of this spelling's meaning (when its plan is kept);
        the least recently asked go first when the total passes :attr:`max_answer_bytes`."""
        meaning = self._owner.get(spelling)
        if meaning is None:
            return
        size = _answer_bytes(dist)
        if size > self.max_answer_item_bytes:
            return
        kept = dist.copy()
        with self._lock:
            if meaning not in self._meanings:  # dropped meanwhile
                return
            old = self._answers.pop(meaning, None)
            if old is not None:
                self.answer_bytes -= old[1]
            self._answers[meaning] = (kept, size)
            self.answer_bytes += size
            while self.answer_bytes > self.max_answer_bytes and len(self._answers) > 1:
                oldest = next(iter(self._answers))
                self.answer_bytes -= self._answers.pop(oldest)[1]

    def clear(self) -> None:
        """Forget every plan and every distribution."""
        with self._lock:
            self.spellings.clear()
            self._owner.clear()
            self._meanings.clear()
            self._pending.clear()
            self._answers.clear()
            self.bytes = 0
            self.answer_bytes = 0


def _answer_bytes(dist: Any) -> int:
    """Bytes held by an exact distribution: its arrays, and the objects around them."""
    arrays = [dist.probabilities, *dist.columns.values()]
    return sum(a.nbytes + 112 for a in arrays) + 64 * len(dist.columns) + 400
