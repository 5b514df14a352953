"""The refusals of the rules of play are said in the user's language: each one is a template of the
catalogues, rendered word for word in English (as before) and in French (through ``translate_error``
and through ``dice rule ... --lang fr``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from diceengine.systems.d6 import Wound
from diceengine.systems.d6 import play as d6_play
from diceengine.systems.d6.play import D6Character, D6Scene
from diceengine.systems.d6wild import play as d6wild_play
from diceengine.systems.d6wild.play import WildCharacter, WildScene
from diceengine.systems.d20pool import play as d20pool_play
from diceengine.systems.d20pool.play import PoolState
from diceengine.systems.ffg import play as ffg_play
from diceengine.systems.ffg.play import CharacterSheet, Encounter, MinionGroup
from diceengine.systems.play import one_of

import diceengine as de
from diceengine.cli import main
from diceengine.i18n import translate_error


def _d6() -> D6Scene:
    kel = D6Character(name="Kel", codes={"blaster": "4D", "perception": "3D", "strength": "3D"},
                      health=Wound.INCAPACITATED)
    ana = D6Character(name="Ana", codes={"blaster": "4D", "perception": "3D", "strength": "3D"}, dead=True)
    return D6Scene(characters={"Kel": kel, "Ana": ana})


def _wild() -> WildScene:
    kel = WildCharacter(name="Kel", codes={"blaster": "4D", "strength": "3D"}, declared=2)
    zed = WildCharacter(name="Zed", codes={"blaster": "4D", "strength": "3D"}, stuns_taken=3)
    return WildScene(characters={"Kel": kel, "Zed": zed})


def _encounter() -> Encounter:
    group = MinionGroup(name="stormtroopers", size=4, soak=5, wound_threshold=5, incapacitated=4)
    return Encounter(minions={"stormtroopers": group})


SHEET = CharacterSheet(name="Kira", characteristics={"brawn": 2}, xp=10)

#: (the refused call, the English words, the French words), written from the rule texts' vocabulary
CASES: list[tuple[Callable[[], object], str, str]] = [
    (lambda: d6_play.act(_d6(), "Zed", "blaster"),
     "no character named 'Zed' (known: Kel, Ana)", "aucun personnage nommé 'Zed' (connus : Kel, Ana)"),
    (lambda: d6_play.act(_d6(), "Kel", "blaster"),
     "Kel is incapacitated and can do nothing until healed",
     "Kel est neutralisé et ne peut rien faire avant d'être soigné"),
    (lambda: d6_play.declare(_d6(), "Ana", 1), "Ana is dead", "Ana est mort"),
    (lambda: d6_play.spend_force_point(_d6().model_copy(update={"characters": {
        "Kel": _d6().characters["Kel"].model_copy(update={"health": Wound.HEALTHY})}}), "Kel", "heroic"),
     "Kel has no Force point", "Kel n'a aucun point de Force"),
    (lambda: d6wild_play.declare(_wild(), "Kel", 1),
     "Kel has already declared 2 action(s) this round", "Kel a déjà déclaré 2 action(s) pendant ce round"),
    (lambda: d6wild_play.act(_wild(), "Zed", "blaster", 10),
     "Zed is unconscious and can do nothing", "Zed est inconscient et ne peut rien faire"),
    (lambda: d6wild_play.spend_force_point(_wild(), "Kel"), "Kel has no Force point", "Kel n'a aucun point de Force"),
    (lambda: ffg_play.hit_minions(_encounter(), "stormtroopers", 3),
     "every minion of stormtroopers is already down", "tous les sbires de stormtroopers sont déjà hors de combat"),
    (lambda: ffg_play.hit_minions(_encounter(), "wookiees", 3),
     "no minion group named 'wookiees' (known: stormtroopers)",
     "aucun groupe de sbires nommé 'wookiees' (connus : stormtroopers)"),
    (lambda: ffg_play.buy_characteristic(SHEET, "charm"),
     "Kira has no characteristic 'charm'", "Kira n'a pas de caractéristique 'charm'"),
    (lambda: ffg_play.buy_characteristic(SHEET, "brawn"),
     "raising brawn to 3 costs 30 XP, Kira has 10", "porter brawn à 3 coûte 30 XP, Kira en a 10"),
    (lambda: d20pool_play.spend_impulsion(PoolState(impulsion=2), 3),
     "the party holds 2 Impulsion, not 3", "le groupe a 2 d'Impulsion, pas 3"),
    (lambda: d20pool_play.resolve(PoolState(), 1),
     "no check to resolve: begin one first", "aucun test à résoudre : commencez-en un d'abord"),
    (lambda: one_of("crawl", ("walk", "run"), "movement"),
     "movement is one of walk, run, not 'crawl'", "movement est l'un de walk, run, pas 'crawl'"),
]


@pytest.mark.parametrize(("call", "english", "french"), CASES, ids=[c[1][:40] for c in CASES])
def test_refusals_of_play_in_english_and_french(call, english, french):
    with pytest.raises(de.DiceError) as caught:
        call()
    err = caught.value
    assert str(err) == english
    assert str(translate_error(err, "fr")) == french
    assert str(translate_error(err, "en")) == english


def test_the_rules_runner_refuses_in_the_users_language(capsys):
    state = PoolState(impulsion=2).model_dump_json()
    assert main(["rule", "d20pool", "spend_impulsion", f"state={state}", "points=3", "--lang", "fr"]) == 2
    err = capsys.readouterr().err
    assert "le groupe a 2 d'Impulsion, pas 3" in err and "Impulsion, not" not in err
    assert main(["--lang", "fr", "rule", "d20pool", "spend_impulsion", f"state={state}", "points=3"]) == 2
    assert "le groupe a 2 d'Impulsion, pas 3" in capsys.readouterr().err
    assert main(["rule", "d20pool", "spend_impulsion", f"state={state}", "points=3", "--lang", "en"]) == 2
    assert "the party holds 2 Impulsion, not 3" in capsys.readouterr().err
    scene = _d6().model_dump_json()
    assert main(["rule", "d6", "act", f"state={scene}", "name=Kel", "skill=blaster", "--lang", "fr"]) == 2
    assert "Kel est neutralisé et ne peut rien faire avant d'être soigné" in capsys.readouterr().err
