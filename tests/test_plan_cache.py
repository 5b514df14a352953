"""Issue 33, a never-seen expression's first call: the plan cache counts a plan of a shape it has not measured at
the bound its shape says (``StandardPlan.footprint_shape``, :data:`~diceengine.systems.standard.system.QUICK_BYTES`),
walking nothing, and measures such plans only when it must make room (:mod:`diceengine.plan_cache`).

Held here: that bound is never less than what a plan of the shape holds (every term's kind, many shapes, once their
terms made what they make when first asked) nor than what the plan counts once measured; the cache's total stays
under its bytes and covers what it holds; and what it keeps and drops, put after put, is what a cache measuring
every plan at once keeps and drops."""

from __future__ import annotations

import random
from typing import Any

from diceengine.systems.standard.system import QUICK_BYTES

from diceengine import api
from diceengine.plan_cache import PlanCache, footprint
from diceengine.registry import get_system
from tests.test_quick_path import generated

STANDARD = get_system("standard")
RESOLVED = STANDARD.resolve_options({})
KEEPS = ["", "k", "kh", "kl", "d", "dh", "dl", "KH", "Dl"]


def _built(expression: str) -> Any:
    """A new plan of ``expression`` from the quick path, outside the engine's cache (never seen by a cache)."""
    found = STANDARD.quick(expression, RESOLVED)
    assert found is not None and found[1] is not None, expression
    return found[1]()


def _terms(node: Any) -> list[Any]:
    if node is None:
        return []
    if hasattr(node, "term"):
        return [node]
    return _terms(getattr(node, "left", None)) + _terms(getattr(node, "right", None))


def _every_term() -> list[str]:
    """A plan of one term of each kind the quick path shapes: no count, one die and 2 to 45, 100 and 1000 dice, each
    keep and drop as typed, keeping none, one, about half, all but one, all and more; d1, d6 and the largest die."""
    out = []
    for count in ["", "1", *map(str, range(2, 46)), "100", "1000"]:
        n = int(count or 1)
        for keep in KEEPS:
            kept = sorted({0, 1, n // 2, max(0, n - 1), n, n + 3}) if keep else [None]
            for k in kept:
                for sides in (1, 6, 999_999):
                    out.append(f"{count}d{sides}{keep}{'' if k is None else k}")
    return out


def _check_bound(expression: str, cache: PlanCache) -> None:
    """The bound a plan of ``expression`` counts until measured covers what it holds, before and after its terms make
    what they make when first asked, and what it counts once measured."""
    plan = _built(expression)
    _, texts, reference, bound = plan.footprint_shape()
    first = bound + texts
    assert footprint(plan) <= first, (expression, footprint(plan), first)
    assert cache.plan_bytes(plan) <= first, expression  # measuring never raises the count
    for term in _terms(plan.root):
        _ = term.term.dice, term.term.sample, term.term.pmf, term.term.parts, term.term.dice_json
    assert footprint(plan, later=False) <= first, expression
    largest = reference()
    assert footprint(largest) - largest.footprint_shape()[1] <= bound, expression


def test_every_quick_term_holds_less_than_its_shapes_bound() -> None:
    cache = PlanCache()
    expressions = _every_term()
    for expression in expressions:
        _check_bound(expression, cache)
    assert len(expressions) > 2000 and len(cache._shapes) > 500


def test_many_shapes_hold_less_than_their_bound() -> None:
    cache = PlanCache()
    expressions = [e for e in generated(1500, seed=11) if STANDARD.quick(e, RESOLVED)[1] is not None]
    for expression in expressions:
        _check_bound(expression, cache)
    # the most items the quick path reads: each a term of the largest kind measured, or all numbers but one
    _check_bound("+".join(["32d999999kh31"] * 12), cache)
    _check_bound("32d999999kh31" + "".join(f"-{999_999_980 + i}" for i in range(11)), cache)
    assert len(expressions) > 1000


def test_the_bound_grows_with_each_term_and_number() -> None:
    # the bound is the plan's, each term's and each number's, from the shape alone
    plan = _built("2d6dl1 + 1d20 - 7 + 3")
    assert plan.footprint_shape()[3] == QUICK_BYTES[0] + 2 * QUICK_BYTES[1] + 2 * QUICK_BYTES[2]


def test_a_never_seen_plan_is_counted_at_its_bound_not_measured() -> None:
    cache = PlanCache()
    plan = _built("2d6dl1")
    _, texts, _, bound = plan.footprint_shape()
    cache.put(("standard", "2d6dl1"), ("m", 1), plan, "2d6dl1", new=True)
    assert cache._shapes == {} and list(cache._pending) == [("m", 1)]  # its shape not measured
    assert cache._meanings[("m", 1)][1] == cache.bytes > bound + texts
    # measured when asked: the count made exact, no longer pending
    cache._measure(("m", 1))
    assert cache._pending == {} and len(cache._shapes) == 1
    assert footprint(plan) <= cache._meanings[("m", 1)][1] < bound + texts
    assert cache.bytes == cache._meanings[("m", 1)][1]
    # a second plan of the shape, now measured, is counted from it at once
    other = _built("2d8dl1")
    cache.put(("standard", "2d8dl1"), ("m", 2), other, "2d8dl1", new=True)
    assert cache._pending == {}


def test_a_plan_whose_bound_passes_the_largest_kept_is_measured_at_once() -> None:
    cache = PlanCache(max_bytes=100_000, max_plan_bytes=10_000)
    plan = _built("2d6dl1")
    assert plan.footprint_shape()[3] > 10_000 > footprint(plan)
    cache.put(("standard", "2d6dl1"), ("m", 1), plan, "2d6dl1", new=True)
    assert cache.get(("standard", "2d6dl1")) is plan  # kept: it holds less than the largest kept
    assert cache._pending == {} and len(cache._shapes) == 1


class Eager(PlanCache):
    """The plan cache measuring every plan when it is put (its shape measured at once): what the cache kept and
    dropped before plans were counted at their bound."""

    def _first_bytes(self, plan: Any, limit: int) -> tuple[int, None]:
        return self.plan_bytes(plan, limit), None


def _stream(n: int, seed: int) -> list[tuple[str, Any]]:
    """``n`` puts: never-seen quick plans of many shapes, plans of the general path, and respellings of a meaning
    put before (``(expression, meaning)``)."""
    rng = random.Random(seed)
    quick = generated(n, seed=seed)
    general = [f"{rng.randint(1, 9)}d{rng.randint(2, 30)}r1+{i}" for i in range(n)]
    out: list[tuple[str, Any]] = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.7:
            out.append((quick[i], ("q", i)))
        elif roll < 0.85 or not out:
            out.append((general[i], ("g", i)))
        else:
            expression, meaning = rng.choice(out)
            out.append((" " + expression, meaning))  # another spelling of a meaning put before
    return out


def _put(cache: PlanCache, expression: str, meaning: Any, plans: dict[Any, Any]) -> None:
    spelling = ("standard", expression)
    found = cache.by_meaning(meaning, expression)
    if found is not None:
        cache.put(spelling, meaning, found, expression)
        return
    plan = plans.get(meaning)
    if plan is None:
        quick = STANDARD.quick(expression, RESOLVED)
        plan = plans[meaning] = quick[1]() if quick is not None and quick[1] is not None else api.plan(expression)
    cache.put(spelling, meaning, plan, expression, new=True)


def test_the_cache_keeps_and_drops_what_measuring_every_plan_keeps_and_drops() -> None:
    # a small cache under pressure, put after put: its total within its bytes, covering what it holds, and the
    # same meanings kept, in the same order, as a cache that measures each plan when it is put
    pending = 0
    for seed, max_bytes in ((1, 150_000), (2, 400_000), (3, 60_000)):
        lazy, eager = PlanCache(max_bytes=max_bytes), Eager(max_bytes=max_bytes)
        plans: dict[Any, Any] = {}  # one plan a meaning, the same object put in both caches
        dropped = 0
        for expression, meaning in _stream(700, seed):
            _put(lazy, expression, meaning, plans)
            _put(eager, expression, meaning, plans)
            assert list(lazy._meanings) == list(eager._meanings)
            assert lazy.spellings.keys() == eager.spellings.keys()
            assert eager.bytes <= lazy.bytes <= lazy.max_bytes
            assert lazy.bytes == sum(entry[1] for entry in lazy._meanings.values())
            assert set(lazy._pending) <= set(lazy._meanings)
            held = {id(entry[0]): entry[0] for entry in lazy._meanings.values()}
            assert sum(footprint(p) for p in held.values()) <= lazy.bytes  # what it counts covers what it holds
            dropped += len(plans) > len(lazy._meanings)
            pending = max(pending, len(lazy._pending))
        assert dropped > 100  # under pressure
    assert pending > 5  # with plans still at their bound


def test_nothing_waits_to_be_measured_once_its_meaning_went() -> None:
    # (a meaning goes only once every plan waiting is measured)
    cache = PlanCache(max_bytes=30_000)
    plans = [_built(f"{n}d6kh1") for n in range(2, 8)]
    for i, plan in enumerate(plans):
        cache.put(("standard", str(i)), ("m", i), plan, str(i), new=True)
        assert set(cache._pending) <= set(cache._meanings)
        assert cache.bytes == sum(entry[1] for entry in cache._meanings.values()) <= cache.max_bytes
    cache.clear()
    assert cache._pending == {} and cache.bytes == 0


def test_plans_of_one_shape_measured_later_count_what_measuring_them_at_once_counts() -> None:
    # several plans of a shape not measured wait; the first measured measures the shape, the others count its size
    # and their own texts: each what a cache measuring every plan when put counts it
    lazy, eager = PlanCache(), Eager()
    texts = ["2d6dl1", "2d8dl1", "2d100000dl1", "2D12DL1", "2d4dl1"]
    for i, text in enumerate(texts):
        plan = _built(text)
        for cache in (lazy, eager):
            cache.put(("standard", text), ("m", i), plan, text, new=True)
    assert list(lazy._pending) == [("m", i) for i in range(len(texts))] and eager._pending == {}
    for i in range(len(texts)):
        lazy._measure(("m", i))
    assert [e[1] for e in lazy._meanings.values()] == [e[1] for e in eager._meanings.values()]
    assert lazy.bytes == eager.bytes and lazy._pending == {}
