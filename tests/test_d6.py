"""Classic D6 (texts 000 and 002): notation, exact odds, and every worked example of the texts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from diceengine.systems import d6
from diceengine.systems.d6 import Code, Health, Wound

import diceengine as de
from tests.helpers import assert_close, chi2_passes, enumerate_dice

D6 = list(range(1, 7))


def d(expr, **kw):
    return de.distribution(expr, system="d6", **kw)


# ---------------------------------------------------------------- notation and code algebra

@pytest.mark.parametrize("text, code", [
    ("4D", Code(4, 0)), ("4D+2", Code(4, 2)), ("4d-1", Code(4, -1)), ("5D+1 - 2D", Code(3, 1)),
    ("2*(5D+1)", Code(10, 2)), ("(5D+1)*2", Code(10, 2)), ("(5D+1)/2", Code(2, 2)), ("4D/2", Code(2, 0)),
])
def test_code_algebra(text, code):
    assert d6.parse_code(text) == code


def test_force_point_doubles_every_code_as_roark():
    # Roark: Blaster 5D+1 -> 10D+2, Dodge 4D+1 -> 8D+2, Technique 2D+2 -> 4D+4
    assert d6.modified_code("5D+1", force_point=True) == Code(10, 2)
    assert d6.modified_code("4D+1", force_point=True) == Code(8, 2)
    assert d6.modified_code("2D+2", force_point=True) == Code(4, 4)
    assert de.roll("2*(5D+1)", system="d6", seed=1).dice.__len__() == 10


@pytest.mark.parametrize("bad", ["4D+", "D+2", "4D+2+", "4D vs", "4D vs +", "-2D", "4D vs nowhere", "4D*2D",
                                 "5D+1-5D", "0D+3", "4D vs 2D-3D", "4D vs 4d6", "4D+2 vs 15 vs 3"])
def test_bad_input_is_the_engines_error(bad):
    with pytest.raises(de.DiceError) as info:
        de.roll(bad, system="d6")
    assert "^" in str(info.value)


def test_roark_firing_six_times_cannot_roll():
    with pytest.raises(de.DiceValueError, match="0D"):
        de.roll("5D+1 - 5D", system="d6")
    with pytest.raises(de.DiceValueError, match="0D"):
        d6.multiple_action_codes("5D+1", 6)


# ---------------------------------------------------------------- exact odds

@pytest.mark.parametrize("n, pips", [(1, 0), (2, 2), (3, -1), (4, 1)])
def test_codes_match_enumeration(n, pips):
    got = d(f"{n}D{pips:+d}" if pips else f"{n}D").marginal()
    assert_close(got, enumerate_dice([D6] * n, lambda c: sum(c) + pips))


def test_known_value_3d_vs_10():
    assert d("3D vs 10").chance("success") == pytest.approx(5 / 8, abs=1e-15)


def test_malus_dice_added_to_the_difficulty():
    got = d("2D vs 5+1D").marginal("margin")
    want = enumerate_dice([D6, D6, D6], lambda c: c[0] + c[1] - (5 + c[2]))
    assert_close(got, want)


@pytest.mark.parametrize("tie", ["actor", "opponent", "reroll"])
def test_opposed_roll_tie_rules_match_enumeration(tie):
    # Roark's 3D against the Imperial's 2D+2
    rows = {}
    for c in itertools.product(D6, repeat=5):
        a, b = sum(c[:3]), sum(c[3:]) + 2
        rows[(a, b)] = rows.get((a, b), Fraction(0)) + Fraction(1, 6**5)
    p_tie = sum(p for (a, b), p in rows.items() if a == b)
    win = sum(p for (a, b), p in rows.items() if a > b)
    if tie == "actor":
        win += p_tie
    elif tie == "reroll":
        win = win / (1 - p_tie)
    dist = d("3D vs 2D+2", tie=tie)
    assert dist.chance("success") == pytest.approx(float(win), abs=1e-14)
    assert sum(p for _, p in dist.items()) == pytest.approx(1.0, abs=1e-12)
    if tie == "reroll":
        assert dist.probability(lambda o: o.margin == 0) == 0.0


@pytest.mark.parametrize("expr", ["4D+2 vs 15", "3D vs 2D+2", "2D vs 5+1D"])
@pytest.mark.parametrize("tie", ["actor", "reroll"])
def test_samples_and_rolls_match_exact(expr, tie):
    exact = d(expr, tie=tie).marginal("margin")
    s = de.sample(expr, 40_000, system="d6", seed=11, tie=tie)
    assert chi2_passes(s["margin"], exact)
    rolled = "D" in expr.split("vs")[1]
    # a difficulty number is met on a tie; a rolled one follows the tie rule
    assert (s["success"] == ((s["margin"] > 0) if rolled and tie != "actor" else (s["margin"] >= 0))).all()
    rolls = [de.roll(expr, system="d6", seed=i, tie=tie).margin for i in range(3000)]
    assert chi2_passes(rolls, exact)


def test_named_range_difficulties():
    assert d("3D vs short").chance("success") == pytest.approx(5 / 8, abs=1e-15)
    for name, value in [("point blank", 5), ("short", 10), ("medium", 15), ("long", 20)]:
        assert d(f"4D vs {name}").chance("success") == pytest.approx(d(f"4D vs {value}").chance("success"))


def test_roll_text_and_dice():
    r = de.roll("4D+2 vs 15", system="d6", seed=3)
    assert len(r.dice) == 4 and r.total == sum(x.value for x in r.dice) + 2
    assert r.margin == r.total - 15 and r.success == (r.total >= 15)
    assert str(r).startswith("4D+2 vs 15: ") and ("success by" in str(r) or "failure by" in str(r))
    r = de.roll("3D vs 2D+2", system="d6", seed=3)
    assert len(r.dice) == 5 and sum(x.label == "difficulty" for x in r.dice) == 2
    assert " against " in str(r)


def test_odds_command_prints_success_and_margin(capsys):
    from diceengine.cli import main

    assert main(["odds", "4D+2 vs 15", "--system", "d6"]) == 0
    out = capsys.readouterr().out
    assert "P(success)" in out and "margin" in out


# ---------------------------------------------------------------- the texts' worked examples (000)

def test_roark_wrestles_the_imperial():
    # 3D against 2D+2: Roark 8, the Imperial 11 -> the Imperial; +2 for Roark: 8+2 = 10 against 9 -> Roark
    assert d6.resolve_opposed(8, 11) == "opponent"
    assert d6.resolve_opposed(8 + 2, 9) == "actor"
    # ties: a player character beats an NPC; two player characters re-roll
    assert d6.resolve_opposed(9, 9, actor_is_player=True, opponent_is_player=False) == "actor"
    assert d6.resolve_opposed(9, 9, actor_is_player=False, opponent_is_player=True) == "opponent"
    assert d6.resolve_opposed(9, 9, True, True) == "reroll"
    assert d6.tie_winner(False, False) == "reroll"


def test_roark_repairs_the_repulsors_odds():
    # 2D+2 against difficulty 10 (his roll of 12 is replayed in test_rule_examples): the odds of that check
    assert d("2D+2 vs 10").chance("success") == pytest.approx(float(sum(
        Fraction(1, 36) for a in D6 for b in D6 if a + b + 2 >= 10)), abs=1e-15)


def test_preparation_running_and_wounds():
    assert d6.modified_code("3D+1", prepared=True) == Code(4, 1)
    assert d6.modified_code("3D+1", running=True) == Code(2, 1)
    assert d6.modified_code("3D+1", wounded=True) == Code(2, 1)
    assert d6.modified_code("3D+1", crawling=True) == Code(2, 1)
    # wounded and prepared cancel out
    assert d6.modified_code("3D+1", wounded=True, prepared=True) == Code(3, 1)
    # preparation is lost when several skills are used, or a reaction is made
    assert d6.modified_code("3D+1", prepared=True, actions=2) == Code(2, 1)
    assert d6.modified_code("3D+1", prepared=True, reaction=True) == Code(3, 1)
    # a Strength roll against damage is never modified
    assert d6.modified_code("3D", wounded=True, running=True, stunned=2, strength_vs_damage=True) == Code(3, 0)
    assert d6.modified_code("3D+1", hurrying=True) == Code(1, 2)


def test_roark_fires_three_times_while_running():
    assert d6.multiple_action_codes("5D+1", 3, running=True) == [Code(2, 1)] * 3


def test_reaction_counts_from_the_moment_it_is_made():
    # three shots (-2D), a dodge after the first: the first shot at -2D, the dodge and the last two at -3D
    assert d6.round_penalties(3, [1]) == [2, 3, 3, 3]
    assert d6.multiple_action_codes("5D+1", 3, [1]) == [Code(3, 1), Code(2, 1), Code(2, 1), Code(2, 1)]
    assert d6.round_penalties(1) == [0]


def test_damage_roll_of_twelve_table():
    for strength in range(13, 30):
        assert d6.damage_result(12, strength) == Wound.STUNNED
    for strength in range(7, 13):
        assert d6.damage_result(12, strength) == Wound.WOUNDED
    for strength in (5, 6):
        assert d6.damage_result(12, strength) == Wound.INCAPACITATED
    for strength in range(1, 5):
        assert d6.damage_result(12, strength) == Wound.MORTALLY_WOUNDED


def test_states_stack():
    h = Health()
    h = h.hit(Wound.STUNNED).hit(Wound.STUNNED).hit(Wound.STUNNED)
    assert h.stuns == 3 and h.penalty == 3
    assert Health().hit(Wound.WOUNDED).hit(Wound.WOUNDED).state == Wound.INCAPACITATED
    assert Health().hit(Wound.INCAPACITATED).hit(Wound.WOUNDED).state == Wound.MORTALLY_WOUNDED
    assert Health().hit(Wound.INCAPACITATED).hit(Wound.INCAPACITATED).state == Wound.MORTALLY_WOUNDED
    assert not Health(Wound.INCAPACITATED).can_act


def test_death_roll():
    # 2D below the rounds elapsed: impossible in rounds 1 and 2, 1/36 in round 3
    assert d6.death_chance(1) == 0 and d6.death_chance(2) == 0
    assert d6.death_chance(3) == pytest.approx(1 / 36, abs=1e-15)
    assert d6.death_chance(8) == pytest.approx(21 / 36, abs=1e-15)
    assert d6.death_roll(3, 2) and not d6.death_roll(3, 3)


def test_jana_shoots_at_dodging_roark():
    # short range 10, Roark's dodge 14 -> 24; Jana's 22 misses (text 000, dodge added)
    assert d6.reaction_difficulty(10, 14, "add") == 24
    assert 22 < d6.reaction_difficulty(10, 14, "add")
    # text 002: the reaction roll replaces the difficulty, even when lower
    assert d6.reaction_difficulty(10, 14, "replace") == 14
    assert d6.reaction_difficulty(15, 8, "replace") == 8
    # the same check as one expression: Jana's 5D+2 against 10 plus Roark's 4D+1 dodge
    both = d("5D+2 vs 10+4D+1").chance("success")
    assert 0 < both < d("5D+2 vs 10").chance("success")


def test_one_dodge_raises_every_attack_of_the_segment():
    assert [d6.reaction_difficulty(base, 11) for base in (10, 10, 15, 20)] == [21, 21, 26, 31]


def test_grenade_is_four_dice_against_difficulty_plus_dodge():
    dist = d("4D vs 10+2D")
    want = enumerate_dice([D6] * 6, lambda c: sum(c[:4]) >= 10 + sum(c[4:]))
    assert dist.chance("success") == pytest.approx(float(want[True]), abs=1e-14)


def test_skill_point_advancement():
    assert d6.advance_cost("2D", 3) == 6
    assert d6.advance("2D") == Code(2, 1) and d6.advance("2D+1") == Code(2, 2) and d6.advance("2D+2") == Code(3, 0)
    assert d6.advance_cost("4D", 3) == 12 and d6.advance_cost("5D", 3) == 15
    assert d6.advance_cost("5D+1") == 5 and d6.advance_cost("3D+2") == 3


def test_force_point_outcomes():
    assert d6.force_point_outcome("evil") == (True, True, False, False)
    assert d6.force_point_outcome("neutral") == (True, False, False, False)
    assert d6.force_point_outcome("heroic") == (False, False, True, False)
    assert d6.force_point_outcome("dramatic") == (False, False, True, True)


# ---------------------------------------------------------------- table rules (002)

def test_circumstance_maluses_as_difficulty_dice():
    assert d6.circumstance_dice("low light") == Code(1, 0)
    assert d6.circumstance_dice("total_darkness") == Code(4, 0)
    assert d6.circumstance_dice("three_quarters_cover") == Code(4, 0)
    assert d6.circumstance_dice("target_under_1cm") == Code(8, 0)
    assert d6.circumstance_dice("body_part", "light_smoke") == Code(2, 0)
    with pytest.raises(de.DiceError):
        d6.circumstance_dice("fog of war")


def test_boba_fett_hits_the_crate():
    # base 15, three-quarters cover: 4D rolled 15 -> 30; 15..29 hits the crate, 30+ hits Hiro
    assert all(d6.cover_result(x, 15, 15) == "cover" for x in range(15, 30))
    assert d6.cover_result(30, 15, 15) == "hit"
    assert d6.cover_result(14, 15, 15) == "miss"


def test_hurrying_halves_the_code():
    assert d6.modified_code("6D", hurrying=True) == Code(3, 0)
    assert d6.parse_code("(6D)/2") == Code(3, 0)


def test_initiative_parries_and_actions_without_rolls():
    assert d6.initiative(12, 9) == "actor" and d6.initiative(9, 9, True, True) == "reroll"
    assert d6.parry_bonuses("melee", "unarmed") == (5, 0)
    assert d6.parry_bonuses("brawling", "armed") == (0, 10)
    assert d6.parry_bonuses("melee", "armed") == (0, 0)
    # drawing a weapon and setting stun are actions: one shot then costs -2D
    actions = d6.actions_in_round(1, draw_weapon=True, set_stun=True)
    assert actions == 3 and d6.modified_code("4D", actions=actions) == Code(2, 0)


def test_tied_opposed_rolls_are_rolled_again_and_shown():
    for seed in range(400):
        r = de.roll("2D vs 2D", system="d6", seed=seed, tie="reroll")
        assert r.margin != 0
        rerolled = [x for x in r.dice if x.rerolled]
        if rerolled:
            assert len(rerolled) % 4 == 0 and not any(x.kept for x in rerolled)
            assert "rolled again" in str(r)
            kept = [x for x in r.dice if not x.rerolled]
            assert r.total == sum(x.value for x in kept if x.label != "difficulty")
            return
    pytest.fail("no tie in 400 rolls")  # pragma: no cover
