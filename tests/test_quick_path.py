"""Issue 25, a never-seen expression: the commonest expressions (sums of whole numbers and dice terms with at most
one keep / drop) are read and prepared directly (:mod:`diceengine.systems.standard.quick`). That path must give
what the general one gives (the parser's tree, positions included; the same term spec; the same rolls seed for
seed, texts, dice, JSON, samples, exact odds and their cost), leave to it whatever it could refuse or read
otherwise, and its plans' sizes, known from their shape, must never be less than what the plan cache measured
by walking them (:func:`diceengine.plan_cache.footprint`), even once they made their dice, sample and odds, and at
most 1.6 times what they hold when kept."""

from __future__ import annotations

import random

import numpy as np
import pytest
from diceengine.systems.standard import StandardSystem

import diceengine as de
from diceengine import api, plan_cache
from diceengine.errors import DiceError
from diceengine.parser import parse
from diceengine.plan_cache import PlanCache, footprint
from diceengine.registry import get_system
from diceengine.rolls import roll_json

STANDARD = get_system("standard")


class General(StandardSystem):
    """The standard system without its quick path (a subclass never takes it), under a name of its own so that
    its plans are never shared with the quick path's."""

    name = "standard-general"


GENERAL = General()
BLANKS = ["", " ", "  ", "\t", "\n"]


def _term(rng: random.Random) -> str:
    count = rng.choice(["", "1", str(rng.randint(2, 12)), str(rng.randint(13, 400))])
    sides = rng.choice([1, 2, 4, 6, 8, 10, 12, 20, 100, rng.randint(1, 1000), 1_000_000])
    text = f"{count}{rng.choice('dD')}{sides}"
    if rng.random() < 0.4:
        keep = rng.choice(["k", "kh", "kl", "d", "dh", "dl", "K", "KH", "Kl", "dL", "DH", "D"])
        text += f"{keep}{rng.choice([0, 1, 2, 3, rng.randint(0, 500)])}"
    return text


def generated(n: int, seed: int = 1) -> list[str]:
    """``n`` expressions of the quick path's shapes (and their spellings: case, blanks, leading zeros)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        items = [_term(rng)]
        for _ in range(rng.choice([0, 1, 1, 1, 2, 3, 6])):
            items.append(_term(rng) if rng.random() < 0.3 else rng.choice(
                [str(rng.randint(0, 30)), str(rng.randint(0, 10**6)), "999999999", "007"]))
        if rng.random() < 0.1:
            rng.shuffle(items)
        text = rng.choice(BLANKS)
        for i, item in enumerate(items):
            if i:
                text += rng.choice(BLANKS) + rng.choice("+-") + rng.choice(BLANKS)
            text += item
        out.append(text + rng.choice(BLANKS))
    return out


EXPRESSIONS = generated(400) + ["1d20+5", "d20", "4d6kh3", "2d8-1", "1d20 + 5", "3d6+2d8+4", "8d6kh3", "4d6d1",
                                "1d1", "10000d6", "5000d6+5000d6", "3d6+0", "1d6-999999999", "0005d0006+0"]

# shapes the quick path must leave to the general path (which reads or refuses them)
DECLINED = ["1d6k", "1d6kh", "0d6", "1d0", "4d6p1", "4d6ph1", "4d6k>3", "1d20 5", "1d20+5 to hit", "10001d6",
            "5001d6+5000d6", "1d1000001", "123456d6", "1d12345678", "1d6+1234567890", "4d6kh123456", "3 + 4", "7",
            "", "  ", "+1d6", "-1d6", "1d6+", "1d6++1", "1d6+-1", "1d6*2", "1d6!", "(1d6)", "1d6[fire]", "2d6 d1",
            "1 d6", "1d 6", "1d6 kh1", "1d6\v+1", "1d6\u00a0+1", "\u0661d6", "+".join(["1d6"] * 13),
            "d%", "dF", "1d6.5", "1.5+1d6", "1d6 # note", "1d6//2", "1d6+2/* x */"]
OPTIONS = [{}, {"explosions": "dice"}, {"division": "exact"}, {"dialect": "d20"}]


def quick_tree(expression: str) -> tuple:
    """The quick reader's answer for ``expression``, held to the parser's tree (positions included)."""
    found = STANDARD.quick(expression, STANDARD.resolve_options({}))
    assert found is not None, expression
    tree = parse(expression, STANDARD)
    assert found[0] == tree and repr(found[0]) == repr(tree)  # repr shows the positions too
    assert hash(found[0]) == hash(tree)
    return found


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_quick_tree_is_the_parsers(expression: str) -> None:
    quick_tree(expression)


@pytest.mark.parametrize("expression", DECLINED)
def test_what_the_quick_path_leaves_to_the_general_one(expression: str) -> None:
    assert STANDARD.quick(expression, STANDARD.resolve_options({})) is None


def _same_roll(a: de.Roll, b: de.Roll, expression: str) -> None:
    assert a.outcome == b.outcome, expression
    assert str(a) == str(b).replace("standard-general", "standard")
    assert a.dice == b.dice
    assert a.render("markdown") == b.render("markdown")
    assert a.parts() == b.parts()
    assert a.render("html") == b.render("html").replace("dice-standard-general", "dice-standard")
    assert roll_json(a) == roll_json(b).replace("standard-general", "standard")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_quick_plans_roll_as_the_general_ones(options: dict) -> None:
    for expression in EXPRESSIONS + DECLINED:
        try:
            general = api.plan(expression, GENERAL, **options)
        except DiceError as err:
            with pytest.raises(DiceError) as caught:
                api.plan(expression, **options)
            assert (caught.value.message, caught.value.expression, caught.value.column) == (
                err.message, err.expression, err.column)
            assert str(caught.value) == str(err)
            continue
        quick = api.plan(expression, **options)
        assert type(quick) is type(general)
        assert quick.bounds == general.bounds and quick.dice_per_roll == general.dice_per_roll
        assert _cost(quick) == _cost(general)
        for seed in range(4):
            _same_roll(de.roll(expression, seed=seed, **options), de.roll(expression, GENERAL, seed=seed, **options),
                       expression)
        a = de.sample(expression, 50, seed=3, **options)
        b = de.sample(expression, 50, GENERAL, seed=3, **options)
        assert np.array_equal(a["total"], b["total"])


def _cost(plan: object) -> tuple:
    try:
        cost = plan.exact_cost()  # type: ignore[attr-defined]
    except DiceError as err:
        return err.message, err.column
    return cost.work, cost.cells


def test_quick_terms_are_the_general_ones() -> None:
    # the spec read directly is the one compile_term reads, field by field (its node aside: equal, not the same)
    for options in OPTIONS[:3]:
        resolved = STANDARD.resolve_options(options)
        for expression in EXPRESSIONS:
            quick = STANDARD.quick(expression, resolved)[1]()  # type: ignore[index]
            general = STANDARD.prepare(parse(expression, STANDARD), expression, resolved)
            a, b = _terms(quick.root), _terms(general.root)
            assert len(a) == len(b) > 0
            for x, y in zip(a, b):
                assert vars(x.term.spec) == vars(y.term.spec), expression


def _terms(node: object) -> list:
    if hasattr(node, "left"):
        return _terms(node.left) + _terms(node.right)  # type: ignore[attr-defined]
    return [node] if hasattr(node, "term") else []


def test_quick_odds_are_the_general_ones() -> None:
    for expression in ["1d20+5", "4d6kh3", "8d6kh3 - 2", "3d6+2d8+4", "d20 - 1d4", "2D20KL1 + 3", "6d10dl2+1d6dh0"]:
        a, b = de.distribution(expression), de.distribution(expression, GENERAL)
        assert np.array_equal(a.columns["total"], b.columns["total"])
        assert np.array_equal(a.probabilities, b.probabilities)


def test_a_quick_plans_size_bounds_what_it_holds() -> None:
    # the size a plan of a known shape is counted is never less than its footprint, even once its terms made
    # what they make when first asked (their dice and their JSON tables, sample and odds), and at most 1.6 times its
    # footprint when kept (what it makes later is counted from the start)
    cache = PlanCache()
    resolved = STANDARD.resolve_options({})
    checked = 0
    for expression in generated(1500, seed=2) + EXPRESSIONS:
        found = STANDARD.quick(expression, resolved)
        assert found is not None and found[1] is not None
        plan = found[1]()
        first, counted, walked = cache.plan_bytes(plan), cache.plan_bytes(plan), footprint(plan)
        assert first in (walked, counted)  # a shape's first plan is walked; from its second, the shape is measured
        assert walked <= counted <= 1.6 * walked, (expression, counted, walked)
        for term in _terms(plan.root):
            _ = term.term.dice, term.term.sample, term.term.pmf, term.term.parts
        assert footprint(plan, later=False) <= counted, expression  # what it holds now
        checked += 1
    assert checked > 1500 and len(cache._shapes) > 50  # many shapes, each measured once


def test_the_walk_makes_nothing() -> None:
    # footprint() reads what a plan holds: an entry point a term makes when first asked is not made by it
    plan = api.plan("3d7kh2 + 41")
    term = plan.root.left.term
    before = footprint(plan, later=False)
    assert footprint(plan, later=False) == before
    _ = term.dice, term.pmf, term.sample
    assert footprint(plan, later=False) > before
    # what a term makes when first asked is counted from the start, and covers what it made
    assert footprint(plan, later=False) <= before + type(term).__footprint_later__


def test_the_cache_counts_quick_plans_by_their_shape() -> None:
    api.PLANS.clear()
    expressions = [f"{n}d{m}+{k}" for n in (50, 60) for m in (6, 8) for k in range(1, 40)]
    for e in expressions:
        de.roll(e)
    plans = [api.plan(e) for e in expressions]
    assert all(p.shape == (("d", False, ""), "+", ("n",)) for p in plans)  # many dice: one shape
    assert api.plan("3d6+1").shape == (("d", False, "", 3, 0), "+", ("n",))  # a few: their text is prepared for 3
    assert api.PLANS.bytes >= sum(footprint(p) for p in plans)  # what it counts covers what it holds
    api.PLANS.plan_bytes(plans[0])  # measured when asked, or when the cache must make room (tests/test_plan_cache.py)
    assert ("standard", plans[0].shape) in api.PLANS._shapes  # measured once, kept when the plans go


def test_the_shapes_remembered_are_bounded() -> None:
    cache = PlanCache()
    cache._shapes.update({("x", i): 1 for i in range(plan_cache.MAX_SHAPES)})
    plan = api.plan("3d6kh2+1d4dl1-7+2d20")
    assert cache.plan_bytes(plan) == footprint(plan)  # walked, not remembered
    assert len(cache._shapes) == plan_cache.MAX_SHAPES


def test_two_plans_of_one_meaning_built_at_once_are_both_counted() -> None:
    # two threads may build the plan of one meaning at once: the second, kept for its spelling, is counted whole
    cache = PlanCache()
    first, second = api.plan("3d6kh2+1d4"), api.plan("3d6kh2 + 1d4")
    meaning = ("m", 1)
    cache.put(("standard", "3d6kh2+1d4"), meaning, first, "3d6kh2+1d4", new=True)
    alone = cache.bytes
    cache.put(("standard", "3d6kh2 + 1d4"), meaning, second, "3d6kh2 + 1d4", new=True)
    assert cache.get(("standard", "3d6kh2 + 1d4")) is second
    assert cache.bytes >= alone + footprint(second)
    assert cache.bytes == sum(entry[1] for entry in cache._meanings.values())


def test_the_quick_nodes_are_built_directly() -> None:
    # the quick path sets the nodes' slots itself (their __post_init__ reads tokens it has not): the nodes still
    # have the fields it sets, else it calls their constructors (the trees above are the parser's either way)
    from diceengine.systems.standard import quick

    assert all(make.__name__ == "make" for make in (quick._dice, quick._keep, quick._number, quick._add, quick._sub))


def _specs(plan: object) -> list:
    """The term specs a plan holds (every object it reaches, its system and shared objects aside)."""
    import gc

    from diceengine.systems.standard.term.spec import TermSpec

    from diceengine.registry import System

    seen, stack, found = set(), [plan], []
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, (type, System, str, int, float)) or type(o).__name__ in ("module", "code"):
            continue
        seen.add(id(o))
        if isinstance(o, TermSpec):
            found.append(o)
            continue
        if isinstance(o, dict) and "__builtins__" in o:  # a module's globals
            continue
        stack.extend(gc.get_referents(o))
    return found


def test_a_spec_written_at_once_is_the_constructors() -> None:
    # compile_term writes a TermSpec's fields at once (evaluate.terms.new_spec): the same spec as its constructor
    from diceengine.systems.standard.term.spec import TermSpec

    from diceengine.records import fields
    from tests.peer_corpus import CORPUS

    texts = ["4d6!kh3", "8d10>=7f1", "3d6r<2", "4dF", "2d20kh1cs20cf1", "6d%max50.45", "5d6u", "3d6ro<3!", "1d6!p",
             *{e for e, _, o, _ in CORPUS if not o}]
    checked = 0
    for expression in texts:
        try:
            plan = api.plan(expression)
        except DiceError:
            continue
        for spec in _specs(plan):
            again = TermSpec(**{f.name: getattr(spec, f.name) for f in fields(TermSpec) if f.init})
            assert vars(again) == vars(spec), expression
            checked += 1
    assert checked > 20
    with pytest.raises(TypeError):
        from diceengine.systems.standard.evaluate.terms import new_spec

        new_spec(node=None, text="", count=1, faces=range(1, 7), kind="d6", window=None, explode=None,
                 compound=False, reroll=None, reroll_once=False, success=None, failure=None, label=None, colour=1)


@pytest.mark.parametrize("expression", EXPRESSIONS[:60] + ["4d6!kh3 + 2", "{1d20+5, 1d20+5}kh1", "(1d4)d6 + 1",
                                                           "3 + 4", "1d6/2", "2d6 * 1.5", "8d10>=7f1", "1d20cs>=19 + 5"])
def test_the_first_line_is_the_compiled_one(expression: str) -> None:
    # a plan's first line is written by its tree, the next ones by the line compiled on the second: the same text
    for options in ({}, {"division": "exact"}):
        api.PLANS.clear()
        lines = [str(de.roll(expression, seed=seed, **options)) for seed in (7, 7, 7, 8, 8)]
        assert lines[0] == lines[1] == lines[2] and lines[3] == lines[4], expression


def _footprints(plans: list, held: bool) -> list[int]:
    """Each plan's footprint (with and without what it makes later), its slotted objects read by
    :func:`gc.get_referents` (``held``) or slot by slot through their descriptors (the general reading)."""
    saved, layouts = plan_cache.HELD_BY_REFERENTS, dict(plan_cache._LAYOUTS)
    plan_cache.HELD_BY_REFERENTS = held
    plan_cache._LAYOUTS.clear()
    try:
        return [footprint(p) for p in plans] + [footprint(p, later=False) for p in plans]
    finally:
        plan_cache.HELD_BY_REFERENTS = saved
        plan_cache._LAYOUTS.clear()
        plan_cache._LAYOUTS.update(layouts)


def test_slotted_objects_read_in_one_call_count_what_their_slots_hold() -> None:
    # the walk reads a slotted object of a Python class with gc.get_referents (no exception raised for each slot a
    # term has not made yet): the same bytes as reading each slot through its descriptor, before and after the
    # terms made their lazy entry points, for plans of both paths, critical marks, computed faces and other systems
    expressions = [*generated(150, seed=5), "2d10ro1kl1", "4d6!kh3+2", "1d20cs>19+5", "8d10>=7f1", "3d6[fire]+1d4",
                   "4dF", "7d10mi3+2d100mi27-1", "d{1,2,4,8}", "4d6kh(1+2)", "P(4d6kh3 > 3d6)"]
    plans = [api.plan(e) for e in expressions] + [api.plan("3D+2", "d6wild")]
    assert _footprints(plans, held=True) == _footprints(plans, held=False)
    for e in expressions:
        str(de.roll(e, seed=1))
        de.sample(e, 3, seed=1)
        try:
            de.distribution(e)
        except DiceError:  # a generated expression too large for exact odds
            pass
    for p in plans:
        for term in _terms(getattr(p, "root", None)):
            _ = term.term.dice, term.term.parts, term.term.pmf, term.term.sample
    assert _footprints(plans, held=True) == _footprints(plans, held=False)
    kinds = {cls.__name__ for cls, layout in plan_cache._LAYOUTS.items() if layout[0] == plan_cache._SLOTS_HELD}
    assert {"DiceTerm", "TermRoll", "TermText", "Dice", "Keep"} <= kinds  # the reading in one call is used
