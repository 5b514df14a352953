"""The mass an exploding term's chains leave out, read from the chains' weights alone (``TermOdds._chains_left``),
is the mass the full chains leave out (``TermOdds._units``' second value), and what the exact odds lack."""

from __future__ import annotations

import random

import pytest
from diceengine.systems.standard.term.exact import TermOdds
from diceengine.systems.standard.term.scores import with_tally

import diceengine as de
from diceengine import api
from tests.test_spec_flags import _specs


def _expressions() -> list[str]:
    """Exploding terms of every kind the chains follow: sums, counts of every face, ranked counts, criticals
    (tallied too), penetrating, compounding, re-rolled first faces, keep / drop, listed faces."""
    rng = random.Random(37)
    fixed = ["1d2!=2>=2f1", "6d4!>=2>=2", "3d6!", "3d6!p", "3d6!!", "4d10!>=9>=8f1", "5d10!>=8dl2", "3d6!cs6kh2",
             "4d12!p>=11kl3cf1", "2d6!>=4>=6f1", "10d12ro1!=12dl4", "3d{1,1,2}!=2", "2d20!>=19cs>=19", "d100000!>99990"]
    made = []
    for _ in range(120):
        n, s = rng.randint(1, 6), rng.choice([2, 3, 4, 6, 8, 10, 12, 20])
        on = rng.randint(max(2, s - 2), s)
        text = f"{n}d{s}" + rng.choice(["!", "!p", "!!"]) + (f">={on}" if on < s else "")
        if rng.random() < 0.5:
            text += f">={rng.randint(1, s)}" + rng.choice(["", "f1"])
        if rng.random() < 0.3 and n > 1:
            text += rng.choice(["kh", "kl", "dh", "dl"]) + str(rng.randint(1, n - 1))
        if rng.random() < 0.2:
            text = text.replace(f"{n}d{s}", f"{n}d{s}r1", 1)
        made.append(text)
    return fixed + made


def _exploding_specs() -> list[tuple[str, object]]:
    out = []
    for expression in _expressions():
        try:
            plan = api.plan(expression)
        except de.DiceError:
            continue
        for spec in _specs(plan):
            if spec.explode is not None and spec.explode_limit is None and not spec.per_die:
                out.append((expression, spec))
                if spec.crit_success is not None or spec.crit_failure is not None:
                    out.append((expression + " (tallied)", with_tally(spec)))
    return out


SPECS = _exploding_specs()


def test_enough_kinds_of_chains_are_checked() -> None:
    assert len(SPECS) >= 100
    assert any(spec.success is not None and not spec.compound for _, spec in SPECS)  # counted face by face
    assert any(spec.tally is not None for _, spec in SPECS)


@pytest.mark.parametrize(("expression", "spec"), SPECS, ids=[e for e, _ in SPECS])
def test_the_chains_weights_leave_out_what_the_chains_leave_out(expression: str, spec: object) -> None:
    try:
        left = TermOdds(spec)._units()[1]  # type: ignore[arg-type]
    except de.DiceLimitError:  # past the explosions' limit: the weights alone are refused the same way
        with pytest.raises(de.DiceLimitError):
            TermOdds(spec)._chains_left()  # type: ignore[arg-type]
        return
    assert TermOdds(spec)._chains_left() == pytest.approx(left, rel=1e-9, abs=0)  # type: ignore[arg-type]


@pytest.mark.parametrize("expression", ["3d6!", "1d2!=2>=2f1", "6d4!>=2>=2", "4d10!>=9>=8f1", "2d8!p", "3d6!!"])
def test_the_mass_left_out_is_what_the_odds_lack(expression: str) -> None:
    # a sum of n units each lacking ``left`` lacks 1 - (1 - left) ** n (the masses' rounding: ~1e-16 of ~5e-14)
    d = de.distribution(expression)
    assert d.truncated > 1e-15
    assert 1.0 - float(d.probabilities.sum()) == pytest.approx(d.truncated, rel=0.02, abs=0)
