"""Point 5 of issue 10: the plan cache is bounded in bytes and keyed on meaning."""

from __future__ import annotations

import pytest

import diceengine as de
from diceengine import api
from diceengine.plan_cache import MAX_BYTES, PlanCache, footprint


def test_spellings_that_differ_in_whitespace_or_case_share_one_plan():
    api.PLANS.clear()
    texts = ["12D999999>10" + " " * i for i in range(27)] + ["12d999999>10", " 12d999999 > 10"]
    rolls = [de.roll(t, seed=5) for t in texts]
    assert len(api.PLANS._meanings) == 1
    assert len({r.total for r in rolls}) == 1  # same plan, same seed, same dice
    for t, r in zip(texts, rolls):
        assert str(r).startswith(t + ": ")  # each roll shows the text it was given
    assert api.PLANS.bytes < 256 * 1024
    # a different meaning is a different plan
    de.roll("12d999999>11", seed=5)
    assert len(api.PLANS._meanings) == 2


def test_a_huge_die_is_not_listed_face_by_face():
    plan = api.plan("12D999999>10")
    assert footprint(plan) < 64 * 1024  # was about 39 MiB: a tuple of a million faces
    assert footprint(api.plan("10000d1000000")) < 64 * 1024


def test_footprint_counts_what_a_plan_owns():
    import numpy as np

    class Holder:
        def __init__(self) -> None:
            self.a = np.zeros(1_000_000)
            self.b = [list(range(1000)) for _ in range(10)]

    size = footprint(Holder())
    assert 8_000_000 <= size <= 8_000_000 + 10 * (8 * 1000 + 32 * 1000) + 100_000


def test_the_cache_stays_within_its_bytes():
    # the engine's cache at a smaller scale (the mechanism is the same; 24 MiB of plans takes long to build):
    # 30 distinct plans of about 120 KB each, 3.6 MB if nothing were dropped, in a 1 MiB cache
    cache = PlanCache(max_bytes=1 << 20)
    plans = []
    for i in range(30):
        text = "+".join([f"3d{6 + i}kh2!"] * 60)
        plans.append(api.plan(text))
        cache.put(("standard", text), ("meaning", i), plans[-1], text)
        assert cache.bytes <= cache.max_bytes
    kept = [entry[0] for entry in cache._meanings.values()]
    assert 1 <= len(kept) < 30
    assert kept == plans[-len(kept):]  # the oldest went first
    assert cache.bytes >= sum(footprint(p) for p in kept)  # what it counts is what it holds
    assert sum(footprint(p) for p in plans) > 2 * cache.max_bytes  # so something had to go
    assert api.PLANS.bytes <= MAX_BYTES


def test_a_plan_too_large_is_used_but_not_kept():
    cache = PlanCache(max_bytes=10_000, max_plan_bytes=5_000)
    big = list(range(10_000))
    cache.put(("s", "x"), ("m", 1), big, "x")
    assert cache.get(("s", "x")) is None and cache.bytes == 0
    small = [1, 2, 3]
    cache.put(("s", "y"), ("m", 2), small, "y")
    assert cache.get(("s", "y")) is small and 0 < cache.bytes <= 10_000


# Runtime errors of a plan shared by two spellings (a division by zero thrown by the dice, zero to a negative
# power, a fractional exponent): the error shows the text typed, the caret under the fault in it. (A computed
# die's faults, 1d(1d2)!, are found when the plan is built, for every count and sides it may take.)
# (the spelling that built the plan, the spelling typed, options, the text under the caret in the one typed)
SHARED_FAULTS = [
    ("1d3 % ( 0 )", "1d3%(0)", {}, "%"),
    ("1d3 % ( 0 )", "1D3%0", {}, "%"),  # parentheses the tree does not keep
    ("1d6 / ( 1d2 - 1 )", "1D6/(1d2-1)", {}, "/"),
    ("1d6 // ( 1d2 - 1 )", "1d6//(1D2-1)", {}, "//"),
    ("2d4 + 1d6 % (1d2 - 1)", "2d4+1d6%(1d2-1)", {}, "%"),
    ("( 1d2 - 1 ) ^ ( 1d2 - 2 )", "(1d2-1)^(1d2-2)", {}, "^"),
    ("2 ^ ( 1d2 / 2 )", "2^(1d2/2)", {"division": "exact"}, "^"),
]


def _fault(call) -> de.DiceError:
    for seed in range(200):  # a few seeds: the fault comes with some dice only
        try:
            call(seed)
        except de.DiceError as err:
            return err
    raise AssertionError("no error in 200 rolls")


def _calls(text: str, options: dict) -> dict:
    return {"roll": lambda seed: de.roll(text, seed=seed, **options),
            "sample": lambda seed: de.sample(text, 50, seed=seed, **options),
            "distribution": lambda seed: de.distribution(text, **options)}


@pytest.mark.parametrize("first, typed, options, under", SHARED_FAULTS)
@pytest.mark.parametrize("call", ["roll", "sample", "distribution"])
def test_a_shared_plan_raises_in_the_spelling_typed(first, typed, options, under, call):
    for one, other in ((first, typed), (typed, first)):  # whichever spelling built the plan
        api.PLANS.clear()
        built = _fault(_calls(one, options)[call])
        assert built.expression == one and built.column == one.index(under)
        assert api.plan(other, **options).root is api.plan(one, **options).root  # the plan is shared
        err = _fault(_calls(other, options)[call])
        assert type(err) is type(built) and err.message == built.message
        assert err.expression == other and err.column == other.index(under)
        assert str(err).splitlines()[1:] == ["  " + other, "  " + " " * other.index(under) + "^"]


def test_a_shared_plan_says_its_runtime_error_in_the_language_asked():
    api.PLANS.clear()
    _fault(lambda seed: de.roll("1d6 / ( 1d2 - 1 )", seed=seed))
    err = _fault(lambda seed: de.roll("1d6/(1d2-1)", seed=seed, lang="fr"))
    assert str(err) == "division par zéro\n  1d6/(1d2-1)\n     ^"
