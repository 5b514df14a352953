"""Tests written for the mutants of session 36's mutation run over the rules and the re-roll after the
refactors of session 35 (d6 / d6wild helpers shared, the symbol pools' plan, re-roll in the algebra). Each
was seen failing on the mutant it is for; the expected values come from the rule texts or from an
enumeration written here."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from diceengine.systems.d6 import play as d6_play
from diceengine.systems.d6.play import D6Character, D6Scene
from diceengine.systems.d6wild import play
from diceengine.systems.d6wild.play import WildCharacter, WildScene

import diceengine as de
from diceengine import fights
from diceengine.i18n import translate_error
from tests.helpers import refused


@pytest.mark.skipif(bool(os.environ.get("MUTANT_UNDER_TEST")), reason="a process of its own: under mutmut it would load "
                    "the trampolines of the staged code, and mutmut links no test to what another process runs")
def test_the_grammars_read_in_an_ascii_locale():
    """The grammars are UTF-8 (ffg.lark's « capacité », d6.lark's « portée »): a process started in an ASCII locale,
    with Python's locale coercion and UTF-8 mode off, still reads them and rolls in every built-in system."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8"))}
    env.update(LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0")
    rolls = [("2a1p vs 2d", "ffg"), ("3D+1 vs 10", "d6"), ("4d6kh3", "standard")]
    code = ("import locale, diceengine as de\n"
            "assert locale.getpreferredencoding(False) != 'UTF-8', locale.getpreferredencoding(False)\n"
            "de.roll('2 capacit\\u00e9 vs 1 difficult\\u00e9', system='ffg')\n"
            f"for e, s in {rolls!r}: print(str(de.roll(e, system=s, seed=1, lang='en')))\n")
    # the command line itself is ASCII (an ASCII locale cannot decode it otherwise): the French words escaped
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(de.roll(e, system=s, seed=1, lang="en")) for e, s in rolls]


def test_a_skirmish_attacker_misses_a_target_that_does_not_dodge_when_the_range_is_out_of_reach():
    """Text 000: a shot hits when its total reaches the range's difficulty, plus the target's dodge roll when the
    target dodges. In a skirmish (the general round: three combatants) where only A dodges, 2D shots (at most 12)
    against a difficulty of 30 never hit anyone, so no fight ever ends; the target that does not dodge adds nothing
    to the difficulty (not a 'no roll' mark of minus a million)."""
    def fighter(name: str, **kw: str) -> dict:
        return {"name": name, "attack": "2D", "strength": "2D", "damage": "4D", **kw}

    enc = fights.load_encounter({"name": "out of reach", "d6": {
        "a": [fighter("A", dodge="2D")], "b": [fighter("B1"), fighter("B2")], "range": 30, "dodge": "always"}})
    sim = fights.simulate(enc["d6"], 500, seed=4, max_rounds=20)
    assert (sim.a_wins, sim.b_wins, sim.unfinished) == (0.0, 0.0, 1.0)


def test_training_no_skill_is_refused_with_the_characters_name_in_both_languages():
    """Text 003's training: a character training nothing has no days to spend; the refusal names them."""
    state = WildScene(characters={"Kel": WildCharacter(name="Kel", codes={"blaster": "4D", "strength": "3D"})})
    err = refused(play.train, state, "Kel", 2)
    assert str(translate_error(err, "en")) == "Kel is training no skill"
    assert str(translate_error(err, "fr")) == "Kel ne fait l'apprentissage d'aucune compétence"


def test_one_die_with_the_wild_die_removed_on_a_complication_keeps_only_its_pips():
    """Text 003's Wild Die, the option complication=remove_highest: a 1 on the Wild Die removes it and the highest
    other die. A code of 1D has no other die, so each sampled complication totals the pips alone (2 for 1D+2),
    as the roll and the exact odds say."""
    sample = de.sample("1D+2", 3000, system="d6wild", seed=5, complication="remove_highest")
    flagged = sample["complication"]
    assert flagged.any() and set(sample["total"][flagged].tolist()) == {2}
    assert min(sample["total"][~flagged].tolist()) >= 4  # a Wild Die of 2 to 6 (exploding on a 6), plus 2
    dist = de.distribution("1D+2", system="d6wild", complication="remove_highest")
    assert {o.total for o, p in dist.items() if o.complication and p > 0} == {2}
    for seed in range(60):
        r = de.roll("1D+2", system="d6wild", seed=seed, complication="remove_highest")
        if r.complication:
            assert r.total == 2


def test_d20s_rr_is_a_reroll_point_like_r_so_both_spellings_combine():
    """d20's ``rrN`` is the common ``rN`` (re-roll until the face misses the point): ``1d10r1rr2`` re-rolls 1 and 2
    until another face shows, each of 3..10 kept with chance 1/8 (enumeration: the faces kept, made whole), the
    same as ``1d10r1r2``; a spelling kept apart would be refused as two kinds of re-roll on one term."""
    want = {face: 1 / 8 for face in range(3, 11)}
    for expression in ("1d10r1rr2", "1d10rr1r2", "1d10r1r2"):
        got = {o.total: p for o, p in de.distribution(expression).items() if p > 0}
        assert got.keys() == want.keys() and all(abs(got[f] - want[f]) < 1e-12 for f in want), expression


def _wild_scene(points: int = 0, **kel: object) -> WildScene:
    codes = {"blaster": "4D", "strength": "3D", "perception": "3D", "astrogation": "2D"}
    return WildScene(characters={"Kel": WildCharacter(name="Kel", codes=codes, character_points=points, **kel)})


def test_a_pip_costing_every_character_point_left_is_bought():
    """Text 003: « la dépense de x points de personnage pour gagner 1 bonus » (x the dice before the D): Astrogation
    2D costs 2, so a character holding exactly 2 buys it and keeps none; holding 1, he is refused."""
    step = play.advance_skill(_wild_scene(points=2), "Kel", "astrogation", used=True)
    kel = step.state.characters["Kel"]
    assert (kel.codes["astrogation"], kel.character_points, kel.points_in_skills) == ("2D+1", 0, 2)
    err = refused(play.advance_skill, _wild_scene(points=1), "Kel", "astrogation", used=True)
    assert str(translate_error(err, "en")) == "Kel has 1 character point(s): one pip of astrogation costs 2"


def test_the_refusals_of_training_days_and_of_an_undeclared_move_in_both_languages():
    """A day count under 1 and a move before any declared action (text 003's declared actions) are refused, each
    message whole in English and in French, with the character's name."""
    state = play.advance_skill(_wild_scene(points=5), "Kel", "astrogation", used=False).state
    err = refused(play.train, state, "Kel", 0)
    assert str(translate_error(err, "en")) == "days of training are at least 1, not 0"
    assert str(translate_error(err, "fr")) == "les jours d'apprentissage sont au moins 1, pas 0"
    err = refused(play.move, _wild_scene(), "Kel")
    assert str(translate_error(err, "en")) == "Kel has not declared any action this round"
    assert str(translate_error(err, "fr")) == "Kel n'a déclaré aucune action pendant ce round"


def test_force_points_held_change_nothing_when_the_policy_is_never():
    """Text 000's Force point doubles the codes of the round it is spent in; with the policy ``never`` none is
    spent, so the same seeded simulation gives the same fights whatever points the fighters hold (a duel, and a
    skirmish of three, which takes the general round)."""

    def fighter(name: str, **kw: object) -> dict:
        return {"name": name, "attack": "3D", "strength": "2D", "damage": "3D", **kw}

    for b in (["B"], ["B", "C"]):
        plain = fights.load_encounter({"name": "t", "d6": {"a": [fighter("A")], "b": [fighter(n) for n in b],
                                                           "range": 8, "force_point": "never"}})["d6"]
        held = plain.with_values({"a.0.force_points": 3, "b.0.force_points": 2})
        one, two = (fights.simulate(f, 3000, seed=9, max_rounds=30) for f in (plain, held))
        assert (one.a_wins, one.b_wins, one.unfinished) == (two.a_wins, two.b_wins, two.unfinished)
        assert one.a_by_round == two.a_by_round and one.b_by_round == two.b_by_round


def test_a_group_member_without_perception_is_refused_by_the_skill_asked_for():
    """Text 000's group order: within a group the highest Perception acts first; a member with no Perception code
    cannot be placed, and the refusal names the code looked for, as the rule asks it."""
    kel = D6Character(name="Kel", codes={"blaster": "4D", "strength": "3D"})
    ana = D6Character(name="Ana", codes={"blaster": "4D", "strength": "3D", "perception": "2D"})
    state = D6Scene(characters={"Kel": kel, "Ana": ana})
    err = refused(d6_play.group_order, state, {"rebels": ["Ana", "Kel"]}, "rebels")
    assert str(translate_error(err, "en")) == "Kel has no code for 'perception' (known: blaster, strength)"
    assert str(translate_error(err, "fr")) == "Kel n'a pas de code pour 'perception' (connus : blaster, strength)"


def test_the_odds_of_a_d6_code_without_difficulty_are_tabled_by_total(capsys):
    """``dice odds`` of a classic D6 code alone tables its totals (no difficulty, so no margin): 2D's totals 2 to 12
    with the chances of two six-sided dice, enumerated here."""
    from diceengine.cli import main

    assert main(["odds", "d6: 2D"]) == 0
    out = capsys.readouterr().out
    assert "total    P(=)    P(>=)" in out and "margin" not in out
    rows = {int(line.split()[0]): line.split()[1] for line in out.splitlines() if line.strip()[:1].isdigit()}
    want = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) / 36 for t in range(2, 13)}
    assert rows == {t: f"{100 * p:.2f}%" for t, p in want.items()}
