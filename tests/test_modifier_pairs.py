"""Pairs of the standard notation's modifiers on small dice against the brute-force enumerator of
:mod:`tests.dice_enumerator` (every sequence of faces with its probability): the exact odds, a roll on the very
faces of a sequence (scripted dice), and a sample. Through the public API only (``distribution``, ``roll``,
``sample``): these tests guard any redesign of the dice core.

A modifier is its text and what it changes in the enumerator's :class:`~tests.dice_enumerator.Term`; every pair of
modifiers of two kinds is tried in both orders, and a pair the notation refuses in both is the engine's error
(listed in REFUSED, so that a pair refused by mistake is seen)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import diceengine as de
from tests.dice_enumerator import Enumeration, Term, enumerate_term, point
from tests.helpers import Scripted, chi2_critical, chi2_statistic

#: every pair enumerated and thrown three ways: a minute or two of CPU
pytestmark = pytest.mark.slow
ALWAYS = point(">=", -(10**9))
#: the standard normal quantile of 1 - 1e-6: a sample of a correct engine fails one case in a million
Z_STRICT = 4.753424308822899


@dataclass(frozen=True)
class Mod:
    kind: str
    text: str
    change: Callable[[Term], Term]


def _lowest_face(t: Term) -> int:
    return min(t.faces())


MODS = [
    Mod("explode", "!", lambda t: t.with_(explode=point("=", max(t.faces())))),
    Mod("explode", "!3", lambda t: t.with_(explode=point("=", 3))),
    Mod("explode", "!!", lambda t: t.with_(explode=point("=", max(t.faces())), compound=True)),
    Mod("explode", "!p", lambda t: t.with_(explode=point("=", max(t.faces())), penetrate=True)),
    Mod("explode", "!!p", lambda t: t.with_(explode=point("=", max(t.faces())), compound=True, penetrate=True)),
    Mod("reroll", "r1", lambda t: t.with_(reroll=point("=", 1))),
    Mod("reroll", "ro<3", lambda t: t.with_(reroll=point("<", 3), reroll_once=True)),
    Mod("reroll", "r", lambda t: t.with_(reroll=point("=", _lowest_face(t)))),
    Mod("unique", "u", lambda t: t.with_(unique=ALWAYS)),
    Mod("unique", "uo", lambda t: t.with_(unique=ALWAYS, unique_once=True)),
    Mod("unique", "u>2", lambda t: t.with_(unique=point(">", 2))),
    Mod("min", "mi2", lambda t: t.with_(lowest=2)),
    Mod("max", "ma3", lambda t: t.with_(highest=3)),
    Mod("keep", "kh1", lambda t: t.with_(keeps=(("kh", 1),))),
    Mod("keep", "kl1", lambda t: t.with_(keeps=(("kl", 1),))),
    Mod("keep", "dl1", lambda t: t.with_(keeps=(("dl", 1),))),
    Mod("keep", "dh1dl1", lambda t: t.with_(keeps=(("dh", 1), ("dl", 1)))),
    Mod("success", ">=3", lambda t: t.with_(success=point(">=", 3))),
    Mod("success", "<2", lambda t: t.with_(success=point("<", 2))),
    Mod("success", "=4", lambda t: t.with_(success=point("=", 4))),
    Mod("failure", ">=3f1", lambda t: t.with_(success=point(">=", 3), failure=point("=", 1))),
    Mod("failure", ">3f<=2", lambda t: t.with_(success=point(">", 3), failure=point("<=", 2))),
    Mod("double", ">=3dbl4", lambda t: t.with_(success=point(">=", 3), double=point("=", 4))),
    Mod("double", ">=2dbl>=3", lambda t: t.with_(success=point(">=", 2), double=point(">=", 3))),
    Mod("critical", "cs4", lambda t: t.with_(crit_success=point("=", 4))),
    Mod("critical", "cs>=3cf1", lambda t: t.with_(crit_success=point(">=", 3), crit_failure=point("=", 1))),
    Mod("add", "ra4", lambda t: t.with_(explode=point("=", 4), explode_once=True)),
    Mod("add", "ra<2", lambda t: t.with_(explode=point("<", 2), explode_once=True)),
    Mod("rank", "rol1", lambda t: t.with_(rank_reroll=("ro", "l", 1))),
    Mod("rank", "rah1", lambda t: t.with_(rank_reroll=("ra", "h", 1))),
    Mod("rank", "ral2", lambda t: t.with_(rank_reroll=("ra", "l", 2))),
]
#: modifiers that must come before the other (the term's faces first, then what reads them)
FIRST = ("min", "max")
#: kinds of modifiers the notation refuses together (docs/notation.md), whatever the order
REFUSED = {
    frozenset({"unique", "explode"}), frozenset({"unique", "reroll"}), frozenset({"unique", "add"}),
    frozenset({"explode", "add"}), frozenset({"rank", "explode"}), frozenset({"rank", "reroll"}),
    frozenset({"rank", "unique"}), frozenset({"rank", "keep"}), frozenset({"rank", "add"}),
    # each holds a success count: two success counts on one term
    frozenset({"success", "failure"}), frozenset({"success", "double"}), frozenset({"failure", "double"}),
}
KINDS = sorted({m.kind for m in MODS})
PAIRS = [(a, b) for a, b in itertools.combinations(MODS, 2) if a.kind != b.kind]


def _case(a: Mod, b: Mod) -> tuple[str, Term]:
    """The expression of a pair on small dice (two d4, three for two drops) and its term."""
    count = 3 if "dh1dl1" in (a.text, b.text) else 2
    if b.kind in FIRST and a.kind not in FIRST:
        a, b = b, a
    term = b.change(a.change(Term(count, 4)))
    return f"{count}d4", term


def _parsed(base: str, a: Mod, b: Mod) -> list[str]:
    """The orders of the pair the notation reads as the pair (``!`` then ``>=3`` is an explosion on 3 or more)."""
    out = []
    for x, y in ((a, b), (b, a)):
        if not x.text[-1].isdigit() and y.text[0] in "<>=!":
            continue
        expr = f"{base}{x.text}{y.text}"
        try:
            de.distribution(expr)
        except de.DiceError:
            continue
        out.append(expr)
    return out


_ENUMERATIONS: dict[tuple[str, str], Enumeration] = {}


def _enumerated(a: Mod, b: Mod, term: Term) -> Enumeration:
    """The enumeration of a pair (once per session: three tests read it)."""
    key = (a.text, b.text)
    if key not in _ENUMERATIONS:
        _ENUMERATIONS[key] = enumerate_term(term, max_draws=term.count + 12)
    return _ENUMERATIONS[key]


def _ids(pair: tuple[Mod, Mod]) -> str:
    return f"{pair[0].text}+{pair[1].text}"


@pytest.mark.parametrize("pair", PAIRS, ids=[_ids(p) for p in PAIRS])
def test_a_pair_reads_or_is_refused_as_documented(pair):
    a, b = pair
    base, _ = _case(a, b)
    parsed = _parsed(base, a, b)
    if frozenset({a.kind, b.kind}) in REFUSED:
        assert not parsed, f"{parsed} read, but the notation refuses {a.kind} with {b.kind}"
    else:
        assert parsed, f"{base}{a.text}{b.text} refused in both orders"


def _readable(pair: tuple[Mod, Mod]) -> bool:
    return frozenset({pair[0].kind, pair[1].kind}) not in REFUSED


READ = [p for p in PAIRS if _readable(p)]


@pytest.mark.parametrize("pair", READ, ids=[_ids(p) for p in READ])
def test_exact_odds_of_a_pair_match_the_enumeration(pair):
    a, b = pair
    base, term = _case(a, b)
    want = _enumerated(a, b, term)
    for expr in _parsed(base, a, b):
        d = de.distribution(expr)
        got = {tuple(o): p for o, p in d.items()}
        slack = want.truncated + d.truncated + 1e-12
        for key in set(got) | set(want.probability):
            p_got, p_want = got.get(key, 0.0), want.probability.get(key, 0.0)
            assert p_want - 1e-12 - d.truncated <= p_got <= p_want + slack, \
                f"{expr}: P{key} = {p_got}, enumerated {p_want} (+ at most {want.truncated} truncated)"


@pytest.mark.parametrize("pair", READ, ids=[_ids(p) for p in READ])
def test_a_roll_of_a_pair_on_scripted_faces_is_the_enumerated_outcome(pair):
    a, b = pair
    base, term = _case(a, b)
    want = _enumerated(a, b, term)
    for expr in _parsed(base, a, b):
        for outcome, draws in sorted(want.example.items(), key=repr):
            r = de.roll(expr, seed=Scripted([(i + 1, n) for i, n in draws]))
            assert tuple(r.outcome) == outcome, f"{expr} on the faces {draws}"


@pytest.mark.parametrize("pair", READ, ids=[_ids(p) for p in READ])
def test_a_sample_of_a_pair_follows_the_enumeration(pair):
    a, b = pair
    base, term = _case(a, b)
    want = _enumerated(a, b, term)
    expr = _parsed(base, a, b)[0]
    s = de.sample(expr, 6000, seed=17)
    observed: dict = {}
    for key in zip(*[_column(s, term, f) for f in ("total", "critical_successes", "critical_failures")]):
        key = key if term.crit_success is not None or term.crit_failure is not None else key[:1]
        observed[key] = observed.get(key, 0) + 1
    rows = s.n
    stat, df = chi2_statistic(observed, want.probability, rows)
    assert stat < chi2_critical(df, Z_STRICT), f"{expr}: chi-square {stat:.1f} with {df} degrees of freedom"
    assert np.isfinite(stat)


def _column(s, term: Term, name: str) -> list:
    """A sampled field as a list; ``None`` for a critical mark the term does not have."""
    marked = {"critical_successes": term.crit_success, "critical_failures": term.crit_failure}
    if name in marked and marked[name] is None:
        return [None] * s.n
    return s[name].tolist()


@pytest.mark.parametrize("expr, plain", [("1d4ra5", "1d4"), ("3d4ma3ra4", "3d4ma3"), ("2d6ra7>=4", "2d6>=4")])
def test_an_added_die_no_face_can_call_is_a_plain_die(expr, plain):
    # no face meets ra's point (as 1d6!7): the exact odds once raised an IndexError
    got = dict(de.distribution(expr).items())
    assert got == pytest.approx(dict(de.distribution(plain).items()), abs=1e-15)
    assert de.roll(expr, seed=3).total == de.roll(plain, seed=3).total
