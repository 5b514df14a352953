"""Five readings of the state of play that contradicted a rule text, each fixed and driven through the
public play API, each test quoting its line: the lightsaber parrying blaster fire (000), the lightsaber
parry keeping the parry bonuses (002), aiming taking the whole round (002), a character wounded twice
refused physical effort (003), a Force point doubling the Strength roll against damage (003)."""

from __future__ import annotations

from diceengine.systems.d6 import play as d6play
from diceengine.systems.d6.play import D6Character, D6Scene
from diceengine.systems.d6wild import play as wildplay
from diceengine.systems.d6wild.play import WildCharacter, WildScene

from tests.helpers import refused, roundtrip


def jedi_scene(mode: str = "add") -> D6Scene:
    ben = D6Character(name="Ben", weapon="lightsaber",
                      codes={"lightsaber": "5D", "control": "4D", "sense": "5D+1", "melee_parry": "3D",
                             "strength": "2D", "perception": "4D"})
    squire = D6Character(name="squire", weapon="lightsaber",  # a lightsaber, but no Sense
                         codes={"lightsaber": "3D", "melee_parry": "3D", "strength": "2D", "perception": "2D"})
    trooper = D6Character(name="trooper", player=False,
                          codes={"blaster": "4D", "brawling": "3D", "strength": "2D", "perception": "2D"})
    return D6Scene(characters={"Ben": ben, "squire": squire, "trooper": trooper}, reactions=mode)


def test_000_a_lightsaber_parries_blaster_fire_with_a_sense_roll_added_to_the_difficulty():
    """000: « vous pouvez également employer un sabre laser pour parer des tirs de blasters... Vous faites
    alors un jet de Sens et vous ajoutez le résultat obtenu au facteur de difficulté du tireur »."""
    state = roundtrip(jedi_scene())
    for name in state.characters:
        state = d6play.declare(state, name, 1).state
    refused(d6play.react, state, "squire", "blaster_parry", match="Sense")  # only Sense parries a shot
    refused(d6play.react, state, "trooper", "blaster_parry", match="lightsaber")
    step = d6play.react(state, "Ben", "blaster_parry")
    assert step.check == "4D+1"  # Sense 5D+1, less 1D: the parry is a second use (one use, not two)
    assert step.state.characters["Ben"].uses == 2
    state = roundtrip(d6play.record_reaction(step.state, "Ben", "blaster_parry", 13).state)
    assert d6play.attack(state, "trooper", "Ben", "blaster", "short").check == "4D vs 23"  # 10 + 13
    # a parry of blaster fire is no parry of fists, and stops nothing after its segment (text 000)
    assert d6play.attack(state, "trooper", "Ben", "brawling", 5, kind="brawling").check == "3D vs 5"
    later = d6play.next_segment(state).state
    assert d6play.attack(later, "trooper", "Ben", "blaster", "short").check == "4D vs 10"


def test_002_a_lightsaber_parry_keeps_the_parry_bonuses():
    """002: « {Sabre-Laser} est utilisé si votre personnage manie un sabre-laser et qu'un adversaire tente de
    l'attaquer au corps-à-corps (bonus et malus ci-dessus restent d'application) »."""
    state = roundtrip(jedi_scene("replace"))
    for name in state.characters:
        state = d6play.declare(state, name, 1).state
    step = d6play.react(state, "Ben", "lightsaber_parry")
    assert step.check == "5D+1"  # Sense, the better; text 002: the action he had left
    state = roundtrip(d6play.record_reaction(step.state, "Ben", "lightsaber_parry", 9).state)
    # « si l'attaquant vous attaque à mains nues, vous recevez un bonus de +5 à votre parade »
    assert d6play.attack(state, "trooper", "Ben", "brawling", 4, kind="brawling").check == "3D vs 14"


def test_002_aiming_takes_the_whole_round_no_dodge():
    """002: « la visée prend un round entier et le personnage ne peut rien faire d'autre durant ce round :
    ni se déplacer, ni esquiver »."""
    hiro = D6Character(name="Hiro", codes={"blaster": "4D", "dodge": "4D", "strength": "3D", "perception": "3D"})
    fett = D6Character(name="Fett", player=False, codes={"blaster": "6D", "strength": "3D", "perception": "4D"})
    state = roundtrip(D6Scene(characters={"Hiro": hiro, "Fett": fett}, reactions="replace"))
    state = roundtrip(d6play.prepare(state, "Hiro").state)
    state = d6play.declare(state, "Fett", 1).state
    refused(d6play.react, state, "Hiro", "dodge", match="aiming")
    refused(d6play.declare, state, "Hiro", 1, movement="walk", metres=5)  # nor move
    assert d6play.attack(state, "Fett", "Hiro", "blaster", 15).check == "6D vs 15"
    # the next round he shoots once with the +1D of his aim
    state = roundtrip(d6play.declare(d6play.end_round(state).state, "Hiro", 1).state)
    assert d6play.attack(state, "Hiro", "Fett", "blaster", 15).check == "5D vs 15"
    # text 000 lets him react while preparing, and he loses the bonus
    # (« vous perdez également ce bénéfice quand vous employez une compétence de réaction dans l'un ou l'autre round »)
    assert d6play.react(d6play.prepare(D6Scene(characters={"Hiro": hiro, "Fett": fett}), "Hiro").state,
                        "Hiro", "dodge").check == "4D"


def wild_scene() -> WildScene:
    kel = WildCharacter(name="Kel", codes={"blaster": "4D+2", "dodge": "3D+1", "strength": "3D", "perception": "3D",
                                           "computer": "3D", "lifting": "3D"},
                        character_points=1, force_points=1)
    trooper = WildCharacter(name="trooper", player=False,
                            codes={"blaster": "4D", "dodge": "2D", "strength": "2D", "perception": "2D"})
    return WildScene(characters={"Kel": kel, "trooper": trooper})


def test_003_wounded_twice_refuses_physical_actions():
    """003: « Un personnage blessé une seconde fois tombe et ne peut plus entreprendre d'actions réclamant
    des efforts physiques, et subit une pénalité de 2D aux autres actions »."""
    state = roundtrip(wild_scene())
    state = roundtrip(wildplay.take_damage(state, "Kel", 5).state)  # 4-8: wounded
    state = wildplay.declare(state, "Kel", 1).state
    assert wildplay.act(state, "Kel", "lifting", 10).check == "2D vs 10"  # once: -1D, still on his feet
    state = roundtrip(wildplay.take_damage(state, "Kel", 6).state)  # wounded a second time
    assert state.characters["Kel"].fallen
    # physical effort, a game master's reading: Strength and its skills, movement, melee and brawling, lifting
    for skill in ("lifting", "strength", "brawling", "melee_weapons", "melee parry", "lightsaber", "swimming",
                  "running", "Levage"):
        refused(wildplay.act, state, "Kel", skill, 10, match="physical")
    refused(wildplay.move, state, "Kel", 50, match="physical")
    refused(wildplay.react, state, "Kel", "melee_parry", match="physical")
    refused(wildplay.act, state, "Kel", "computer", 10, physical=True)  # the game master says it is
    step = wildplay.act(state, "Kel", "computer", 10)  # the other actions: -2D
    assert step.check == "1D vs 10"
    roundtrip(step.state)
    # issue 36: a blaster shot and a dodge are no physical effort: rolled at -2D, never refused
    assert wildplay.act(state, "Kel", "blaster", 10).check == "2D+2 vs 10"  # 4D+2 - 2D
    assert wildplay.attack(state, "Kel", "trooper", "blaster", 10).check == "2D+2 vs 10"
    assert wildplay.react(state, "Kel", "dodge").check == "1D+1"  # 3D+1 - 2D, the action he declared


def test_003_a_force_point_doubles_the_strength_roll_against_damage():
    """003: « L'utilisation d'un point de force permet de doubler tous les tirages restants à effectuer par le
    personnage dans le round (sauf points de personnage) »."""
    state = roundtrip(wild_scene())
    assert wildplay.damage(state, "Kel", "4D").check == "4D vs 3D"
    state = roundtrip(wildplay.spend_force_point(state, "Kel").state)
    assert wildplay.damage(state, "Kel", "4D").check == "4D vs 6D"  # the Strength roll doubled
    assert wildplay.damage(state, "Kel", "4D", armour="1D").check == "4D vs 7D"  # armour is no roll of his
    assert wildplay.damage(state, "trooper", "4D").check == "4D vs 2D"  # only the spender's
    later = roundtrip(wildplay.end_round(state).state)
    assert wildplay.damage(later, "Kel", "4D").check == "4D vs 3D"  # the round is over


# ---------------------------------------------------------------- text 002: hurrying, situational dice


def test_002_hurrying_halves_the_code_of_a_long_task():
    """002: « L'empressement divise par {deux} la compétence du personnage qui tente de se dépêcher », « pour
    peu que l'action dure deux rounds ou plus »."""
    bazouss = D6Character(name="Bazouss", codes={"security": "5D", "repair": "4D+2", "strength": "2D"})
    state = roundtrip(d6play.declare(D6Scene(characters={"Bazouss": bazouss}), "Bazouss", 1).state)
    refused(d6play.act, state, "Bazouss", "security", 10, hurrying=True, match="two rounds")  # one round
    step = d6play.act(state, "Bazouss", "security", 10, hurrying=True, rounds=4)
    assert step.check == "2D+1 vs 10"  # 5D = 15 pips, halved: 7 pips, 2D+1
    roundtrip(step.state)
    two = roundtrip(d6play.declare(D6Scene(characters={"Bazouss": bazouss}), "Bazouss", 2).state)
    assert d6play.act(two, "Bazouss", "repair", 10, hurrying=True, rounds=2).check == "1D+1 vs 10"  # 7 pips, -1D


def test_002_situational_dice_join_the_difficulty_of_an_attack():
    """002: « Faible luminosité : +1D à la difficulté », « Fumée épaisse || +2D », « +4D à la difficulté si la
    cible fait entre 1 et 10 centimètres de long », « toute tentative de toucher un membre spécifique du corps
    (tête, bras, torse, jambe) augmente la difficulté de +1D »."""
    state = jedi_scene()
    for name in state.characters:
        state = d6play.declare(state, name, 1).state
    state = roundtrip(state)
    assert d6play.attack(state, "trooper", "Ben", "blaster", 10, circumstances=["low_light"]).check == "4D vs 10+1D"
    step = d6play.attack(state, "trooper", "Ben", "blaster", 10, circumstances=["thick_smoke", "body_part"])
    assert step.check == "4D vs 10+3D"
    assert d6play.attack(state, "trooper", "Ben", "blaster", 10,
                         circumstances=["target_1_to_10cm"]).check == "4D vs 10+4D"
    assert d6play.attack(state, "trooper", "Ben", "blaster", 10,
                         circumstances=["target_under_1cm", "total_darkness"]).check == "4D vs 10+12D"
    refused(d6play.attack, state, "trooper", "Ben", "blaster", 10, circumstances=["fog of war"], match="circumstance")
    refused(d6play.attack, state, "trooper", "Ben", "blaster", 10, circumstances=["half_cover"], match="circumstance")
    # with cover, its dice rolled by the game master, the circumstance dice still to roll
    covered = roundtrip(d6play.take_cover(state, "Ben", "half").state)
    assert d6play.attack(covered, "trooper", "Ben", "blaster", 10, circumstances=["low_light"]).check == "4D vs 10+3D"
    assert d6play.attack(covered, "trooper", "Ben", "blaster", 10, cover_roll=7,
                         circumstances=["low_light"]).check == "4D vs 17+1D"
    roundtrip(step.state)
