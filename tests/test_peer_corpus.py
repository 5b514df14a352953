"""The peers' valid expressions (tests/peer_corpus.py): the share this engine reads with all three evaluations,
and, where a peer can be run (avrae's d20, the ``bench`` extra), agreement in distribution."""

from __future__ import annotations

import re

import pytest
from diceengine.systems.standard.exact import show

import diceengine as de
from tests.helpers import chi2_passes
from tests.peer_corpus import CORPUS


def reads(expr: str, options: dict) -> bool:
    """Parses, rolls with its explanation, samples and has exact odds (or refuses exact odds cleanly)."""
    try:
        r = de.roll(expr, seed=1, **options)
        assert str(r).endswith(f"= {show(r.total)}")
        de.sample(expr, 200, seed=2, **options)
    except de.DiceError:
        return False
    try:
        de.distribution(expr, **options)
    except de.DiceLimitError:  # too large for exact odds: still read
        pass
    except de.DiceError:
        return False
    return True


def test_every_expression_but_the_documented_conflicts_is_read():
    counted = [(e, o) for e, _, o, conflict in CORPUS if conflict is None]
    failed = [e for e, o in counted if not reads(e, o)]
    read_all = sum(reads(e, o) for e, _, o, _ in CORPUS)
    print(f"\npeer corpus: {len(counted) - len(failed)} of {len(counted)} read; {len(CORPUS) - len(counted)} "
          f"documented conflicts; of all {len(CORPUS)}: {read_all} read ({read_all / len(CORPUS):.1%}); "
          f"not read: {failed}")
    assert not failed


def test_documented_conflicts_are_refused_not_misread():
    """A documented conflict is one this engine refuses (with its own error), never one it reads otherwise."""
    read = [e for e, _, o, conflict in CORPUS if conflict is not None and reads(e, o)]
    assert not read, read


#: the peers' documented values (their tests and guides): expression, options, the value every roll gives
DOCUMENTED = [
    ("(1, 2, 3, 4, 5)kh1kl1", {"dialect": "d20"}, 6), ("(1, 2, 3, 4, 5)k<3", {"dialect": "d20"}, 3),
    ("(1)k1", {"dialect": "d20"}, 1), ("(1)k2", {"dialect": "d20"}, 0), ("(1, 2, 3, 4, 5)p3", {"dialect": "d20"}, 12),
    ("(1, 2, 3)k1k2", {"dialect": "d20"}, 3), ("1d6r!=5", {}, 5), ("1d1ro1", {"dialect": "d20"}, 1),
    ("15 // 2", {"dialect": "d20"}, 7), ("13 % 2", {"dialect": "d20"}, 1), ("2d1!=2", {}, 2),
]


@pytest.mark.parametrize("expr, options, value", DOCUMENTED)
def test_the_peers_documented_values(expr, options, value):
    assert de.distribution(expr, **options).marginal() == {value: 1.0}


def test_every_conflict_gives_its_reason():
    for expr, source, _, conflict in CORPUS:
        assert source and (conflict is None or len(conflict) > 10), expr


D20_ENTRIES = [(e, o) for e, s, o, c in CORPUS if c is None and "avrae/d20" in s and "d" in e.lower()]


@pytest.mark.parametrize("expr, options", D20_ENTRIES)
def test_d20_agrees_in_distribution(expr, options):
    d20 = pytest.importorskip("d20")
    try:
        d20.roll("1d20")
    except Exception:  # noqa: BLE001 - an old lark-parser installed over lark: the peer cannot run
        pytest.skip("d20 cannot run here")
    try:
        exact = de.distribution(expr, **options).marginal()
    except de.DiceLimitError:
        pytest.skip("too large for exact odds")
    if len(exact) > 400:
        pytest.skip("too many outcomes for a chi-square")
    import random

    random.seed(20261130)  # d20 draws from Python's random module
    totals = [d20.roll(expr, allow_comments=True).total for _ in range(3000)]
    assert chi2_passes(totals, exact)


#: a token of the notation as a user may space it out: a number, a run of letters, an operator or a label
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[A-Za-z]+|!!p|!!|!p|[<>=!]=|<>|\*\*|//|/\*|\*/|\[[^\]]*\]|\S")


def _spaced(expr: str):
    """``expr`` with one space put between two of its characters, at every place; then with a space between every
    two of its tokens (``4 d 20 max - 12``)."""
    for i in range(1, len(expr)):
        if expr[i - 1] != " " and expr[i] != " ":
            yield expr[:i] + " " + expr[i:]
    if not any(mark in expr for mark in ("#", "//", "/*")):
        yield " ".join(_TOKEN.findall(expr))


def _rolls(expr: str, options: dict) -> bool:
    try:
        de.roll(expr, seed=1, **options)
    except de.DiceError:  # refused: nothing read silently (2d6! ! is two explosions, refused when rolled)
        return False
    return True


def _dice_of(tree):
    """``tree`` without its trailing description (the words of a comment may hold any space)."""
    return tree.expr if type(tree).__name__ == "Described" else tree


def _words_only(tree) -> str:
    """``tree``'s reading without its positions and the spaces inside its descriptions and labels."""
    return re.sub(r"pos=\d+", "", repr(tree)).replace(" ", "")


def test_no_part_of_a_peer_expression_is_silently_dropped_by_a_space():
    """Every peer expression with one space put anywhere, or with its tokens spaced out, reads as without it (the
    same tree, but for the words of a description or label), or is refused: never a part dropped as a description
    or read as another modifier."""
    from diceengine.parser import parse
    from diceengine.registry import get_system

    standard = get_system("standard")
    misread = []
    for expr, _, options, conflict in CORPUS:
        if conflict is not None or len(expr) > 80:
            continue
        plain = _words_only(_dice_of(parse(expr, standard)))
        for spaced in _spaced(expr):
            try:
                tree = parse(spaced, standard)
            except de.DiceError:
                continue
            if _words_only(_dice_of(tree)) != plain and _rolls(spaced, options):
                misread.append(spaced)
    assert not misread, misread
