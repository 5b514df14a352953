"""Classic D6 rules (texts ``000`` and ``002``): circumstances and round penalties, cover and reactions, damage
bands and health, opposed rolls and initiative, parries, advancement and Force points, at their edges."""

from __future__ import annotations

import pytest
from diceengine.systems import d6, d6wild
from diceengine.systems.d6 import Code, Health, Wound
from diceengine.systems.d6 import codes as _d6_codes

import diceengine as de
from diceengine.registry import get_system


def message(rule, *args, **kwargs) -> str:
    with pytest.raises(de.DiceValueError) as info:
        rule(*args, **kwargs)
    return info.value.message


def test_rule_refusals():
    assert message(d6.modified_code, "1D", wounded=True) == \
        "the code is reduced to 0: a code reduced to 0D cannot be rolled"
    assert message(d6.modified_code, "2D", actions=0) == "a round has at least one action"
    bad_reaction = "a reaction comes after 0 to all of the declared rolls"
    assert message(d6.round_penalties, -1) == bad_reaction
    assert message(d6.round_penalties, 2, [3]) == bad_reaction
    assert message(d6.round_penalties, 2, [-1]) == bad_reaction
    assert message(d6.circumstance_dice, "fog") == (
        "unknown circumstance 'fog' (known: low_light, moonlit_night, moonless_night, total_darkness, light_smoke, "
        "thick_smoke, very_thick_smoke, quarter_cover, half_cover, three_quarters_cover, target_10_to_50cm, "
        "target_1_to_10cm, target_under_1cm, body_part)")
    assert message(d6.reaction_difficulty, 10, 5, "double") == "reaction mode is 'add' or 'replace', not 'double'"
    parry = "parry is 'melee' or 'brawling', attack is 'armed' or 'unarmed'"
    assert message(d6.parry_bonuses, "kick", "armed") == parry
    assert message(d6.parry_bonuses, "melee", "thrown") == parry
    assert message(d6.advance_cost, "3D", attribute=True) == \
        "skill points raise skills: attributes are never raised (text 000)"
    assert message(d6.advance_cost, "3D", -1) == "advancement raises a code"


def test_modified_code_one_circumstance_at_a_time():
    assert d6.modified_code("3D+1") == Code(3, 1)
    assert d6.modified_code("3D+1", stunned=2) == Code(1, 1)
    assert d6.modified_code("3D+1", actions=3) == Code(1, 1)
    assert d6.modified_code("3D+1", prepared=True, actions=1) == Code(4, 1)
    assert d6.modified_code("3D+1", running=True, crawling=True) == Code(1, 1)
    # hurrying halves, then a Force point doubles, then the penalties
    assert d6.modified_code("5D+1", hurrying=True, force_point=True, wounded=True) == Code(3, 4)
    assert d6.modified_code("1D", force_point=True, strength_vs_damage=True) == Code(2, 0)
    assert message(d6.modified_code, "1D", hurrying=True, strength_vs_damage=True) == \
        "the code is reduced to 1: a code reduced to 0D cannot be rolled"


def test_round_penalties_edges():
    assert d6.round_penalties(0) == []
    assert d6.round_penalties(0, [0]) == [0]                   # a lone reaction is the round's only use
    assert d6.round_penalties(2) == [1, 1]
    assert d6.round_penalties(2, [0, 2, 2]) == [2, 2, 2, 3, 4]  # a reaction before anything, two at the end
    assert d6.round_penalties(2, [2]) == [1, 1, 2]
    assert d6.multiple_action_codes("4D", 2, wounded=True) == [Code(2), Code(2)]
    assert d6.multiple_action_codes("4D", 2, [1], running=True) == [Code(2), Code(1), Code(1)]


def test_circumstances_by_any_spelling():
    assert d6.circumstance_dice("Quarter-Cover", "Half cover") == Code(3)
    assert d6.circumstance_dice() == Code(0)
    assert d6.circumstance_dice("moonlit night", "moonless_night", "thick smoke", "very thick smoke",
                                "target_10_to_50cm", "target_1_to_10cm") == Code(2 + 3 + 2 + 4 + 1 + 4)


def test_cover_and_reactions():
    assert d6.cover_result(19, 10, 9) == "hit" and d6.cover_result(18, 10, 9) == "cover"
    assert d6.cover_result(10, 10, 9) == "cover" and d6.cover_result(9, 10, 9) == "miss"
    assert d6.reaction_difficulty(10, 7) == 17
    assert d6.reaction_difficulty(10, 7, "add") == 17
    assert d6.reaction_difficulty(10, 7, "replace") == 7


def test_damage_bands_at_their_edges():
    assert d6.damage_result(5, 6) == Wound.STUNNED
    assert d6.damage_result(6, 6) == Wound.WOUNDED
    assert d6.damage_result(11, 6) == Wound.WOUNDED
    assert d6.damage_result(12, 6) == Wound.INCAPACITATED
    assert d6.damage_result(17, 6) == Wound.INCAPACITATED
    assert d6.damage_result(18, 6) == Wound.MORTALLY_WOUNDED
    assert [str(w) for w in Wound] == ["healthy", "stunned", "wounded", "incapacitated", "mortally wounded"]


def test_health_stacking():
    h = Health().hit(Wound.STUNNED)
    assert (h.state, h.stuns, h.can_act) == (Wound.STUNNED, 1, True)
    h = Health(Wound.WOUNDED).hit(Wound.STUNNED)
    assert (h.state, h.stuns, h.penalty) == (Wound.WOUNDED, 1, 2)
    assert Health().hit(Wound.INCAPACITATED).state == Wound.INCAPACITATED
    assert Health(Wound.STUNNED).hit(Wound.WOUNDED).state == Wound.WOUNDED
    assert Health(Wound.WOUNDED).hit(Wound.INCAPACITATED).state == Wound.INCAPACITATED
    assert Health(Wound.WOUNDED).hit(Wound.MORTALLY_WOUNDED).state == Wound.MORTALLY_WOUNDED
    assert Health(Wound.MORTALLY_WOUNDED).hit(Wound.WOUNDED).state == Wound.MORTALLY_WOUNDED
    assert Health(Wound.INCAPACITATED).hit(Wound.STUNNED).state == Wound.INCAPACITATED
    assert Health(Wound.INCAPACITATED, 2).hit(Wound.WOUNDED).stuns == 2
    assert Health(Wound.INCAPACITATED).penalty == 0 and Health(Wound.STUNNED, 1).penalty == 1
    assert Health(Wound.WOUNDED).can_act and not Health(Wound.MORTALLY_WOUNDED).can_act


def test_death():
    assert d6.death_roll(3, 2) and not d6.death_roll(3, 3)
    assert d6.death_chance(13) == pytest.approx(1.0)
    assert d6.death_chance(4) == pytest.approx(3 / 36)


def test_opposed_and_initiative():
    assert d6.initiative(12, 9) == "actor" and d6.initiative(9, 12) == "opponent"
    assert d6.initiative(9, 9) == "actor"
    assert d6.initiative(9, 9, actor_is_player=False) == "reroll"
    assert d6.initiative(9, 9, actor_is_player=False, opponent_is_player=True) == "opponent"
    assert d6.resolve_opposed(9, 9) == "actor"
    assert d6.tie_winner(True, True) == "reroll" and d6.tie_winner(True, False) == "actor"
    assert d6.tie_winner(False, True) == "opponent"
    got = d6.order_by_rolls({"a": 5, "b": 7, "c": 5, "d": 5}, ["a"])
    assert got.order == ["b", "a", "c", "d"] and got.roll_again == [["c", "d"]]
    got = d6.order_by_rolls({"a": "5", "b": 7, "c": 5}, ["a", "c"])
    assert got.order == ["b", "a", "c"] and got.roll_again == [["a", "c"]]
    assert d6.order_by_rolls({"a": 3}).roll_again == []
    # on a tie the player character goes first, wherever he is listed
    got = d6.order_by_rolls({"x": 5, "y": 5, "a": 5}, ["a"])
    assert got.order == ["a", "x", "y"] and got.roll_again == [["x", "y"]]


def test_parries_and_actions():
    assert d6.parry_bonuses("brawling", "unarmed") == (0, 0)
    assert d6.actions_in_round(2) == 2
    assert d6.actions_in_round(2, draw_weapon=True) == 3
    assert d6.actions_in_round(2, set_stun=True) == 3


def test_advancement_edges():
    assert d6.advance("2D+2", 4) == Code(4, 0)
    assert d6.advance("2D+2", 0) == Code(2, 2)
    assert d6.advance(Code(1, 5)) == Code(3, 0)
    assert d6.advance_cost("3D", 0) == 0
    assert d6.advance_cost("1D+2", 2) == 1 + 2


def test_force_point_outcomes():
    # text 000: evil, lost and a dark side point; neutral, lost; heroic, returned; dramatic, returned and a bonus
    got = {u: tuple(d6.force_point_outcome(u)) for u in ("evil", "neutral", "heroic", "dramatic")}
    assert got == {"evil": (True, True, False, False), "neutral": (True, False, False, False),
                   "heroic": (False, False, True, False), "dramatic": (False, False, True, True)}
    assert d6.force_point_outcome(d6.ForcePointUse.HEROIC).returned_at_end


def test_the_system():
    s = get_system("d6")
    assert tuple(s.ast_modules()) == (_d6_codes,)
    codes, names = s.ladder()
    assert list(codes) == [(f"{n}D", f"{n}D") for n in range(1, 9)]
    assert list(names) == [("point blank", "point blank"), ("short", "short"), ("medium", "medium"),
                           ("long", "long")]
    assert type(s.fight_rules()).__name__ == "D6Fight"
    assert type(get_system("d6wild").fight_rules()).__name__ == "WildFight"
    assert tuple(get_system("d6wild").ast_modules()) == (_d6_codes,)
    r = de.roll("3D vs 1D", "d6", seed=1)
    assert r.outcome.success == (r.outcome.margin >= 0)
    o = de.roll("1D vs 1D", "d6", seed=1, tie="opponent").outcome
    assert o.success == (o.margin > 0)


# ---------------------------------------------------------------- health (000, 003)


def test_d6_wounded_loses_one_die():
    assert Health().hit(Wound.WOUNDED).penalty == 1
    assert Health().hit(Wound.STUNNED).penalty == 1
    assert Health().hit(Wound.STUNNED).hit(Wound.WOUNDED).penalty == 2
    assert Health().hit(Wound.STUNNED).hit(Wound.STUNNED).penalty == 2
    assert Health().penalty == 0


def test_d6_wounds_stack():
    # text 000: wounded twice is incapacitated; incapacitated then wounded again is mortally wounded
    once = Health().hit(Wound.WOUNDED)
    assert once.state == Wound.WOUNDED and once.can_act
    twice = once.hit(Wound.WOUNDED)
    assert twice.state == Wound.INCAPACITATED and not twice.can_act
    assert twice.hit(Wound.WOUNDED).state == Wound.MORTALLY_WOUNDED
    assert Health().hit(Wound.INCAPACITATED).hit(Wound.INCAPACITATED).state == Wound.MORTALLY_WOUNDED


def test_classic_d6_never_raises_attributes():
    with pytest.raises(de.DiceError, match="attributes"):
        d6.advance_cost("3D", 1, attribute=True)
    assert d6.advance_cost("2D", 3) == 6  # the text: 2D -> 3D costs 6
    assert d6.advance_cost("4D", 3) == 12 and d6.advance_cost("5D+1", 1) == 5
    with pytest.raises(de.DiceError, match="attributes"):
        d6wild.skill_advance_cost("3D", attribute=True)
