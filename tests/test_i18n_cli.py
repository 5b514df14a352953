"""The command line in French and English beyond ``roll`` / ``odds`` / ``systems``: the rules runner
(``dice rule``: titles, each rule's summary, the words of its results, its errors), the comparison
tables (``compare``, ``convert``, ``ladder``), ``dice fight``, and the global ``--lang``.

Expected French words are the rule texts' own (``../shared/rules`` of the project: text ``000`` says « blessé »,
« neutralisé », « mortellement blessé », text ``003`` « personnage tué »), expected numbers come from
enumerating the dice here; English output stays what it was.
"""

from __future__ import annotations

import importlib
import itertools
import json
import subprocess
import sys
import typing
from enum import Enum
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import diceengine as de
from diceengine import i18n
from diceengine.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _po(lang: str):
    with open(Path(i18n.locale_dir()) / lang / "LC_MESSAGES" / "diceengine.po", "rb") as f:
        return read_po(f)


def _chance_at_least(dice: int, target: int) -> float:
    """P(sum of ``dice`` d6 >= ``target``), by enumerating every throw."""
    throws = list(itertools.product(range(1, 7), repeat=dice))
    return sum(sum(t) >= target for t in throws) / len(throws)


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch):
    """The tests choose the language; the environment of the machine running them does not."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


def _rule_modules() -> list[tuple[str, object]]:
    """(system, module) for each built-in system's rules module and state-of-play module."""
    found = []
    for name, system in de.systems().items():
        module = importlib.import_module(type(system).__module__)
        if not module.__name__.startswith("diceengine.systems."):
            continue
        found.append((name, module))
        play = system.rules_of_play()  # the state-of-play module (None: the system has none)
        if play is not None:
            found.append((name, play))
    return found


# ----------------------------------------------------------------------------- the catalogue


def test_every_rule_has_a_summary_in_both_catalogues():
    catalogues = {lang: _po(lang) for lang in i18n.LANGUAGES}
    modules = _rule_modules()
    assert sum(len(getattr(m, "RULES", {})) for _, m in modules) > 60
    for system, module in modules:
        rules = getattr(module, "RULES", {})
        summaries = getattr(module, "RULE_SUMMARIES", {})
        assert set(summaries) == set(rules), module.__name__
        for name, summary in summaries.items():
            assert "\n" not in summary and len(summary) <= 160, (module.__name__, name)
            for lang, catalogue in catalogues.items():
                entry = catalogue.get(summary)
                assert entry is not None and entry.string and not entry.fuzzy, (lang, module.__name__, name)
            french = catalogues["fr"].get(summary).string
            assert french != summary, (module.__name__, name)


def test_every_word_a_rule_can_answer_is_declared_and_translated():
    """Each value of an enum a rule returns, and each word a rule returning text answers, is one of its
    module's ``RULE_WORDS``, translated in French."""
    fr = _po("fr")
    for system, module in _rule_modules():
        words = set(getattr(module, "RULE_WORDS", ()))
        for name, fn in getattr(module, "RULES", {}).items():
            returned = typing.get_type_hints(fn).get("return")
            if isinstance(returned, type) and issubclass(returned, Enum):
                for member in returned:
                    assert str(member) in words, (module.__name__, name, str(member))
        for word in words:
            assert fr.get(word) is not None and fr.get(word).string not in ("", word), word
    d6 = importlib.import_module("diceengine.systems.d6")
    answers = {d6.cover_result(a, b, c) for a in range(1, 31) for b in range(1, 21) for c in range(1, 31)}
    answers |= {d6.tie_winner(x, y) for x in (True, False) for y in (True, False)}
    answers |= {d6.resolve_opposed(a, b, x, y) for a in range(3) for b in range(3)
                for x in (True, False) for y in (True, False)}
    assert answers == {"hit", "cover", "miss", "actor", "opponent", "reroll"}
    assert answers <= set(d6.RULE_WORDS)


# ----------------------------------------------------------------------------- dice rule


@pytest.mark.parametrize("argv, english, french", [
    # text 000: damage at least Strength and below twice wounds; at least three times, mortally
    (["d6", "damage_result", "damage=12", "strength=7"], "wounded", "blessé"),
    (["d6", "damage_result", "damage=3", "strength=7"], "stunned", "sonné"),
    (["d6", "damage_result", "damage=15", "strength=7"], "incapacitated", "neutralisé"),
    (["d6", "damage_result", "damage=21", "strength=7"], "mortally wounded", "mortellement blessé"),
    # text 003: damage minus Strength of 16 or more kills; 4-8 wounds; below 0 a light stun
    (["d6wild", "damage_result", "damage=30", "strength=3"], "killed", "tué"),
    (["d6wild", "damage_result", "damage=10", "strength=4"], "wounded", "blessé"),
    (["d6wild", "damage_result", "damage=2", "strength=4"], "light stun", "légèrement sonné"),
    # text 002: a shot between the base and the covered difficulty hits the cover
    (["d6", "cover_result", "attack=12", "base_difficulty=10", "cover_roll=11"], "cover", "couverture"),
    (["d6", "cover_result", "attack=9", "base_difficulty=10", "cover_roll=11"], "miss", "raté"),
    # text 000: a player character wins a tie against an NPC
    (["d6", "tie_winner", "actor_is_player=true", "opponent_is_player=false"], "actor", "acteur"),
    (["d6", "tie_winner", "actor_is_player=true", "opponent_is_player=true"], "reroll", "relance"),
])
def test_rule_results_in_both_languages(capsys, argv, english, french):
    status, out, _ = _run(capsys, "rule", *argv)
    assert status == 0 and out == english + "\n"
    status, out, _ = _run(capsys, "rule", *argv, "--lang", "fr")
    assert status == 0 and out == french + "\n"
    # JSON is data: the same in every language
    status, en_json, _ = _run(capsys, "rule", *argv, "--json", "--lang", "en")
    status, fr_json, _ = _run(capsys, "rule", *argv, "--json", "--lang", "fr")
    assert en_json == fr_json == json.dumps(english) + "\n"


def test_rule_result_fields_keep_their_names_and_say_booleans(capsys):
    # text 000: a heroic use of a Force point is returned at the end of the adventure, nothing lost
    status, out, _ = _run(capsys, "rule", "d6", "force_point_outcome", "use=heroic")
    assert out == "point_lost: False, dark_side_point: False, returned_at_end: True, bonus_point: False\n"
    status, out, _ = _run(capsys, "--lang", "fr", "rule", "d6", "force_point_outcome", "use=heroic")
    assert status == 0
    assert out == "point_lost: non, dark_side_point: non, returned_at_end: oui, bonus_point: non\n"
    # numbers and codes are not words: 5D+1 with three actions and running loses 3D (text 000)
    status, out, _ = _run(capsys, "--lang", "fr", "rule", "d6", "multiple_action_codes", "code=5D+1", "declared=3",
                          "running=true")
    assert status == 0 and out == "2D+1, 2D+1, 2D+1\n"


def _listing(out: str) -> tuple[list[str], dict[str, str]]:
    """The titles of ``dice rule SYSTEM`` and each rule's summary line."""
    lines = out.splitlines()
    titles = [line for line in lines if not line.startswith((" ", "("))]
    summaries, rule = {}, None
    for line in lines:
        if line.startswith("  ") and not line.startswith("   "):  # a rule and its arguments (further lines: 4)
            rule = line.split()[0]
        elif line.startswith("      ") and rule is not None:
            summaries[rule], rule = line.strip(), None
    return titles, summaries


@pytest.mark.parametrize("system", ["d6", "d6wild", "d20pool", "ffg"])
def test_rule_listing_in_both_languages(capsys, system):
    module = importlib.import_module(type(de.systems()[system]).__module__)
    play = de.systems()[system].rules_of_play()
    fr = i18n.translations("fr")
    status, english, _ = _run(capsys, "rule", system)
    assert status == 0
    status, french, _ = _run(capsys, "rule", system, "--lang", "fr")
    assert status == 0
    en_titles, en_summaries = _listing(english)
    fr_titles, fr_summaries = _listing(french)
    assert en_titles == [f"rules of {system}:",
                         f"rules of play of {system} (state=JSON, new state and the check to roll; {play.__name__}):"]
    assert fr_titles == [f"règles de {system} :",
                         f"règles du jeu de {system} (state=JSON, nouvel état et jet à lancer ; {play.__name__}) :"]
    expected = {**{k: v for k, v in play.RULE_SUMMARIES.items()}, **module.RULE_SUMMARIES}
    assert set(en_summaries) == set(fr_summaries) == set(module.RULES) | set(play.RULES)
    for name, summary in expected.items():
        assert en_summaries[name] == summary
        assert fr_summaries[name] == fr.gettext(summary) != summary
    # the arguments as a game master types them: the names are code (the same in both languages), their kinds
    # words (no Python annotation left)
    assert [line.split()[0] for line in english.splitlines() if line.startswith("  ") and line[2] != " "] == \
           [line.split()[0] for line in french.splitlines() if line.startswith("  ") and line[2] != " "]
    assert english.startswith("(each argument as name=value; [optional])\n")
    for text in (english, french):
        assert not any(mark in text for mark in ("'int'", "'str'", "Code | str", "->", "Literal["))


def test_rule_listing_of_a_system_without_rules(capsys):
    assert _run(capsys, "rule", "standard") == (0, "standard has no rules to run\n", "")
    assert _run(capsys, "rule", "standard", "--lang", "fr") == (0, "standard n'a pas de règles à lancer\n", "")


def test_a_summary_falls_back_to_the_docstring_for_a_module_without_summaries():
    from diceengine.cli.compare import _summary

    def rule() -> int:
        """First line.

        More."""
        return 1

    assert _summary("rule", rule, object(), "fr") == "First line."
    d6 = importlib.import_module("diceengine.systems.d6")
    assert _summary("damage_result", d6.damage_result, d6, "fr").startswith("L'effet d'un jet de dommages")


@pytest.mark.parametrize("argv, english, french", [
    (["d6", "damage_result", "damage=12"],
     "dice: error: damage_result needs strength (as name=value)\n",
     "dice: erreur: damage_result demande strength (en nom=valeur)\n"),
    (["d6", "damage_result"],
     "dice: error: damage_result needs damage, strength (as name=value)\n",
     "dice: erreur: damage_result demande damage, strength (en nom=valeur)\n"),
    (["d6", "damage_result", "dmg=3"],
     "dice: error: damage_result takes damage, strength as name=value, not 'dmg=3'\n",
     "dice: erreur: damage_result prend damage, strength en nom=valeur, pas 'dmg=3'\n"),
    (["d6", "damage_result", "damage=lots", "strength=3"],
     "dice: error: 'lots' is not a number\n",
     "dice: erreur: 'lots' n'est pas un nombre\n"),
    (["d20pool", "nope"],
     ("dice: error: unknown rule 'nope' of d20pool (known: build_check, force_power_cost, xp_cost, begin_check, "
      "begin_force_power, resolve, drop_check, spend_impulsion, add_menace, spend_menace, gain_force_points, "
      "add_character, award_xp, raise_attribute, raise_discipline, new_specialisation, change_specialisation, "
      "buy_impulsion, give_xp, character_dies)\n"),
     ("dice: erreur: règle inconnue 'nope' de d20pool (connues : build_check, force_power_cost, xp_cost, begin_check, "
      "begin_force_power, resolve, drop_check, spend_impulsion, add_menace, spend_menace, gain_force_points, "
      "add_character, award_xp, raise_attribute, raise_discipline, new_specialisation, change_specialisation, "
      "buy_impulsion, give_xp, character_dies)\n")),
    (["d6", "round_penalties", "declared=3", "reactions_after=1,x"],
     "dice: error: '1,x' is not a list of numbers (a,b,c)\n",
     "dice: erreur: '1,x' n'est pas une liste de nombres (a,b,c)\n"),
])
def test_rule_errors_in_both_languages(capsys, argv, english, french):
    assert _run(capsys, "rule", *argv) == (2, "", english)
    assert _run(capsys, "rule", *argv, "--lang", "fr") == (2, "", french)
    assert _run(capsys, "--lang", "fr", "rule", *argv) == (2, "", french)


def test_a_missing_argument_is_no_python_error():
    for lang in ("en", "fr"):
        proc = subprocess.run([sys.executable, "-m", "diceengine", "--lang", lang, "rule", "d6", "damage_result",
                               "damage=12"], capture_output=True, text=True, check=False)
        assert proc.returncode == 2 and proc.stdout == ""
        assert "Traceback" not in proc.stderr and "positional argument" not in proc.stderr
        assert "strength" in proc.stderr


def test_a_state_of_play_argument_error_in_french(capsys):
    status, _, err = _run(capsys, "--lang", "fr", "rule", "d6", "act", "state=[1]", "name=Jana", "skill=blaster")
    assert status == 2 and err.startswith("dice: erreur: pas un D6Scene valide : ")


def test_a_rule_taking_a_seed_reads_it_as_a_number(capsys):
    status, out, _ = _run(capsys, "rule", "ffg", "destiny_pool", "players=3", "seed=1")
    assert status == 0
    light, dark = (int(part.split(": ")[1]) for part in out.strip().split(", "))
    assert light + dark >= 3  # each player's Force die shows at least one point


# ----------------------------------------------------------------------------- compare, ladder, convert


def test_compare_in_both_languages(capsys):
    chance = _chance_at_least(4, 15)
    status, english, _ = _run(capsys, "compare", "d6: 4D vs 15", "d6wild: 4D vs 15")
    assert status == 0
    head, row = english.splitlines()[:2]
    assert head.split() == ["check", "success", "mean", "flags"]
    assert row.startswith("d6: 4D vs 15") and f"{100 * chance:.2f}%" in row and " margin " in row
    status, french, _ = _run(capsys, "--lang", "fr", "compare", "d6: 4D vs 15", "d6wild: 4D vs 15")
    fr_head, fr_row = french.splitlines()[:2]
    assert fr_head.split() == ["jet", "succès", "moyenne", "marqueurs"]
    assert fr_row.split() == row.replace(" margin ", " marge ").split()
    assert "complication" in french.splitlines()[3] and "(marge " in french.splitlines()[2]
    # the same numbers, formatted as in English
    assert _numbers(english) == _numbers(french) and len(_numbers(english)) >= 8


def test_ladder_in_both_languages(capsys):
    # text 000's ranges: point blank 5, short 10, medium 15, long 20
    status, english, _ = _run(capsys, "ladder", "--system", "d6")
    assert status == 0
    status, french, _ = _run(capsys, "ladder", "--system", "d6", "--lang", "fr")
    assert english.splitlines()[0].split() == ["d6:", "chance", "of", "success", "point", "blank", "short", "medium",
                                               "long"]
    assert french.splitlines()[0].split("  ")[0] == "d6 : chance de réussite"
    for words in ("bout portant", "courte portée", "portée moyenne", "longue portée"):
        assert words in french.splitlines()[0]
    rows = {line.split()[0]: line.split()[1:] for line in french.splitlines()[1:]}
    expected = [f"{100 * _chance_at_least(4, t):.2f}%" for t in (5, 10, 15, 20)]
    assert rows["4D"] == expected
    assert {line.split()[0]: line.split()[1:] for line in english.splitlines()[1:]}["4D"] == expected


def test_ffg_difficulty_names_in_french(capsys):
    status, out, _ = _run(capsys, "ladder", "-s", "ffg", "--lang", "fr")
    assert status == 0 and out.splitlines()[0].split()[-5:] == ["facile", "moyenne", "difficile", "intimidante",
                                                                "redoutable"]
    status, out, _ = _run(capsys, "ladder", "-s", "ffg")
    assert out.splitlines()[0].split()[-5:] == ["easy", "average", "hard", "daunting", "formidable"]


def test_convert_in_both_languages(capsys):
    chance = f"{100 * _chance_at_least(4, 15):.2f}%"
    status, english, _ = _run(capsys, "convert", "d6: 4D vs 15", "--to", "d20pool", "--top", "2")
    assert status == 0
    assert english.splitlines()[:2] == [f"d6: 4D vs 15  succeeds {chance}", "closest in d20pool:"]
    status, french, _ = _run(capsys, "convert", "d6: 4D vs 15", "--to", "d20pool", "--top", "2", "--lang", "fr")
    assert french.splitlines()[:2] == [f"d6 : 4D vs 15  réussit {chance}", "les plus proches en d20pool :"]
    assert english.splitlines()[2:] == french.splitlines()[2:] and " points " in french.splitlines()[2]
    status, french, _ = _run(capsys, "--lang", "fr", "convert", "--from", "d6", "--to", "d20pool", "--ladder")
    assert french.splitlines()[0] == "d6 -> d20pool : le jet le plus proche pour chaque personnage et difficulté"
    assert "vs bout portant" in french.splitlines()[1]


def test_comparison_errors_in_both_languages(capsys):
    assert _run(capsys, "ladder") == (2, "", "dice: error: ladder needs --system SYSTEM\n")
    assert _run(capsys, "ladder", "--lang", "fr") == (2, "", "dice: erreur: ladder demande --system SYSTÈME\n")
    assert _run(capsys, "--lang", "fr", "convert", "--to", "ffg") == (
        2, "", "dice: erreur: convert demande une expression (ou --ladder)\n")
    assert _run(capsys, "--lang", "fr", "convert", "--to", "ffg", "--ladder") == (
        2, "", "dice: erreur: --ladder demande --from SYSTÈME\n")


# ----------------------------------------------------------------------------- dice fight


def _numbers(text: str) -> list[str]:
    return [w for line in text.splitlines() for w in line.replace(",", " ").split() if any(c.isdigit() for c in w)]


def test_fight_in_both_languages(capsys):
    path = str(EXAMPLES / "roark.toml")
    status, english, _ = _run(capsys, "fight", path)
    assert status == 0
    status, french, _ = _run(capsys, "--lang", "fr", "fight", path)
    assert status == 0
    en, fr = english.splitlines(), french.splitlines()
    assert en[0].startswith("Roark against a stormtrooper (d6, exact, ") and en[0].endswith(" states)")
    assert fr[0].startswith("Roark against a stormtrooper (d6, exact, ") and fr[0].endswith(" états)")
    assert en[1] == "  Roark against Stormtrooper" and fr[1] == "  Roark contre Stormtrooper"
    assert en[2].split("%")[0] == "  Roark wins 90.62" and fr[2].split("%")[0] == "  victoire Roark 90.62"
    assert "tous à terre" in fr[2] and "rounds moyens" in fr[2]
    assert fr[3].split() == ["round", "finit", "en", "cours", "Roark", "à", "ce", "stade", "Stormtrooper", "à", "ce",
                             "stade"]
    assert en[3].split() == ["round", "ends", "going", "Roark", "by", "now", "Stormtrooper", "by", "now"]
    assert _numbers(english) == _numbers(french) and len(en) == len(fr) > 5


def test_fight_compare_and_simulation_in_both_languages(capsys):
    path = str(EXAMPLES / "roark.toml")
    status, english, _ = _run(capsys, "fight", "compare", path)
    status, french, _ = _run(capsys, "fight", "compare", path, "--lang", "fr")
    assert english.splitlines()[1].split()[:3] == ["ruleset", "method", "Roark"]
    assert french.splitlines()[0] == "Roark against a stormtrooper: Roark contre Stormtrooper"
    assert french.splitlines()[1].split()[:3] == ["règles", "méthode", "victoire"]
    assert "médiane" in french and "fini en 10" in french and "over by 10" in english
    assert _numbers(english) == _numbers(french)
    path = str(EXAMPLES / "stormtroopers.toml")
    args = ["fight", path, "--method", "simulated", "--fights", "3000", "--seed", "5", "--rounds", "3"]
    status, english, _ = _run(capsys, *args)
    assert status == 0
    status, french, _ = _run(capsys, *args, "--lang", "fr")
    assert status == 0 and "simulated, 3,000 fights" in english and "simulé, 3,000 combats" in french
    assert _numbers(english) == _numbers(french)


def test_fight_errors_in_both_languages(capsys):
    path = str(EXAMPLES / "roark.toml")
    assert _run(capsys, "fight", "sweep", path)[2].startswith("dice: error: a sweep needs at least one --grid")
    assert _run(capsys, "fight", "sweep", path, "--lang", "fr")[2].startswith(
        "dice: erreur: un balayage demande au moins un --grid CHEMIN=VALEUR,VALEUR")
    assert _run(capsys, "fight", "a", "b", "c", "--lang", "fr") == (
        2, "", "dice: erreur: usage : dice fight [compare | sweep] FICHIER.toml\n")
    assert _run(capsys, "fight", path, "-s", "standard") == (
        2, "", ("dice: error: the encounter 'Roark against a stormtrooper' is not written for 'standard' "
                "(written for: d6, d6wild, ffg)\n"))
    assert _run(capsys, "--lang", "fr", "fight", path, "-s", "standard") == (
        2, "", ("dice: erreur: la rencontre 'Roark against a stormtrooper' n'est pas écrite pour 'standard' "
                "(écrite pour : d6, d6wild, ffg)\n"))
    missing = str(EXAMPLES / "no-such-encounter.toml")
    status, _, err = _run(capsys, "--lang", "fr", "fight", missing)
    assert status == 2 and err.startswith(f"dice: erreur: impossible de lire la rencontre {missing} : ")
    assert _run(capsys, "fight", "sweep", path, "--grid", "a.9.attack=1D") == (
        2, "", "dice: error: bad parameter d6.a.9.attack: no item 9\n")
    assert _run(capsys, "fight", "sweep", path, "--grid", "a.9.attack=1D", "--lang", "fr") == (
        2, "", "dice: erreur: paramètre invalide d6.a.9.attack : pas d'élément 9\n")


def test_fight_sweep_in_both_languages(capsys):
    args = ["fight", "sweep", str(EXAMPLES / "roark.toml"), "--grid", "a.0.attack=4D,5D", "--fights", "300",
            "--workers", "1", "--seed", "1"]
    status, english, _ = _run(capsys, *args)
    assert status == 0
    status, french, _ = _run(capsys, *args, "--lang", "fr")
    assert status == 0
    assert english.splitlines()[0] == "Roark against a stormtrooper (d6, 300 fights a cell)"
    assert french.splitlines()[0] == "Roark against a stormtrooper (d6, 300 combats par case)"
    assert english.splitlines()[1].split() == ["a.0.attack", "Roark", "wins", "Stormtrooper", "wins", "both", "down",
                                               "mean", "rounds"]
    assert french.splitlines()[1].split() == ["a.0.attack", "victoire", "Roark", "victoire", "Stormtrooper", "tous",
                                              "à", "terre", "rounds", "moyens"]
    assert english.splitlines()[2:] == french.splitlines()[2:]


# ----------------------------------------------------------------------------- the global --lang


RULE = ["rule", "d6", "damage_result", "damage=12", "strength=7"]


@pytest.mark.parametrize("argv, expected", [
    (RULE, "wounded"),
    (["--lang", "fr", *RULE], "blessé"),
    ([*RULE, "--lang", "fr"], "blessé"),
    (["--lang", "fr_FR.UTF-8", *RULE], "blessé"),
    (["--lang", "fr", *RULE, "--lang", "en"], "wounded"),  # the sub-command's, given last, wins
    (["--lang", "en", *RULE, "--lang", "fr"], "blessé"),
])
def test_global_lang_before_and_after_the_sub_command(capsys, argv, expected):
    assert _run(capsys, *argv) == (0, expected + "\n", "")


@pytest.mark.parametrize("argv, french", [
    (["systems"], "exemples"),
    (["roll", "d6wild: 4D+2 vs Très facile", "--seed", "7"], "réussite de"),
    (["odds", "ffg: 2a1p vs 2d"], "P(réussite)"),
    (["compare", "d6: 4D vs 15"], "marqueurs"),
    (["ladder", "-s", "d6"], "bout portant"),
    (["convert", "d6: 4D vs 15", "--to", "ffg", "--top", "1"], "réussit"),
    (["fight", str(EXAMPLES / "roark.toml")], "rounds moyens"),
    (["rule", "d6"], "règles de d6 :"),
])
def test_every_sub_command_takes_lang_both_ways_and_from_the_environment(capsys, monkeypatch, argv, french):
    for order in (["--lang", "fr", *argv], [*argv, "--lang", "fr"]):
        status, out, _ = _run(capsys, *order)
        assert status == 0 and french in out, order
    status, out, _ = _run(capsys, *argv)
    assert french not in out
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    status, out, _ = _run(capsys, *argv)
    assert status == 0 and french in out
    status, out, _ = _run(capsys, *argv, "--lang", "en")  # the option beats the environment
    assert french not in out


def test_environment_default_of_the_rules_runner(capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "fr_CA.UTF-8")
    assert _run(capsys, *RULE) == (0, "blessé\n", "")
    assert _run(capsys, "rule", "d6", "nope")[2].startswith("dice: erreur: règle inconnue 'nope' de d6")
    assert _run(capsys, "--lang", "en", *RULE) == (0, "wounded\n", "")


def test_command_line_errors_in_both_languages(capsys):
    assert _run(capsys, "roll", "1d6", "-o", "x") == (2, "", "dice: error: an option is written name=value, not 'x'\n")
    assert _run(capsys, "--lang", "fr", "roll", "1d6", "-o", "x") == (
        2, "", "dice: erreur: une option s'écrit nom=valeur, pas 'x'\n")
    assert _run(capsys, "--lang", "fr", "odds", "2d6", "-o", "seed=3") == (
        2, "", "dice: erreur: seed n'est pas une option du système (utiliser --seed)\n")
    assert _run(capsys, "roll", "1d6", "-n", "0", "--lang", "fr") == (2, "", "dice: erreur: -n vaut au moins 1\n")
    with pytest.raises(de.DiceError, match="not str"):
        de.roll("1d6", seed="1")


def test_an_unknown_language_before_or_after_is_refused(capsys):
    for argv in (["--lang", "xx", *RULE], [*RULE, "--lang", "xx"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        assert "no catalogue for language 'xx' (known: en, fr)" in capsys.readouterr().err


def test_every_sub_command_has_lang_with_no_default_of_its_own():
    import argparse

    from diceengine.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert len(sub.choices) >= 10
    for name, command in sub.choices.items():
        action = command._option_string_actions.get("--lang")
        assert action is not None and action.default is argparse.SUPPRESS, name
    assert parser.parse_args(["--lang", "fr", "rule", "d6"]).lang == "fr"
    assert parser.parse_args(["rule", "d6"]).lang is None  # main then reads the environment
