"""The state of play of classic D6 (rule texts ``000`` and ``002``): a fight's rounds and segments, each
character's declared skill uses, movement, reactions, stuns, wounds, cover and Force points.

A round goes: each character :func:`declare` s the skill uses of the round (with the movement: walk 5 m,
run 10 m turning at most 90°, crawl 2 m when prone; standing up, drawing a weapon or setting a blaster
to stun are actions), or spends it :func:`prepare` -ing (+1D to the single roll of the next round,
lost to several uses or a reaction). :func:`act` and :func:`attack` return the exact check of the next
use: the code less 1D per use after the first (reactions count from the moment they are made), 1D for
running or crawling, 1D wounded, 1D per stun still running, doubled by a Force point spent this round,
+1D for lifting and climbing/jumping in low gravity. A thrown grenade is an attack on a place
(``kind="grenade"``); :func:`grenade_blast` is the game master's 4D against the distance, raised by a
dodge. A :func:`react` ion (dodge, parries, a lightsaber)
returns its check; :func:`record_reaction` keeps its roll:

- ``reactions="add"`` (text ``000``): the roll is added to the difficulty of every attack it stops
  during the segment it was made in (:func:`next_segment` ends it);
- ``reactions="replace"`` (text ``002``): it replaces the base difficulty for the rest of the round,
  even when lower; a reaction uses an action left or adds one; parry bonuses (+5 to a weapon parry
  against bare hands, +10 to an armed attack against a bare-handed parry), kept by a lightsaber parry
  (« (bonus et malus ci-dessus restent d'application) »: +5 against bare hands). A character aiming
  this round reacts not at all (« le personnage ne peut rien faire d'autre durant ce round : ni se
  déplacer, ni esquiver »); under ``"add"`` (text ``000``) he may, and loses the +1D (« vous perdez
  également ce bénéfice quand vous employez une compétence de réaction dans l'un ou l'autre round »).

Which reaction stops what: a dodge, shots and grenades; a bare-handed parry, bare-handed attacks only
(under ``"replace"``, text ``002``, armed ones too, at +10 to the attack);
a weapon parry, armed and bare-handed melee; a lightsaber parry (Sense or weapon parry, the better),
melee; a lightsaber parry of blaster fire (:func:`react` ``"blaster_parry"``, text ``000``: « vous
pouvez également employer un sabre laser pour parer des tirs de blasters... Vous faites alors un jet de
Sens et vous ajoutez le résultat obtenu au facteur de difficulté du tireur »), a shot, one use of
Sense; sending the bolt back (``"deflect"``) is two uses of Sense.

Damage (:func:`damage`): the weapon's code; bare hands: the attacker's Strength; a melee weapon: its
code plus Strength; a lightsaber: the Control code. Against the target's Strength, never modified
(doubled by a Force point). :func:`take_damage`: stunned (-1D to the end of the next round, stacking),
wounded (falls, nothing more this round, -1D after), wounded twice incapacitated, incapacitated hurt
again mortally wounded (:func:`death_check` at the end of each round: dies on 2D below the rounds
elapsed). Cover (text ``002``): 1/4 +1D, 1/2 +2D, 3/4 +4D (peeking from total cover is 3/4) rolled and
added to the difficulty; behind total cover a target cannot be shot (destroy the cover:
:func:`hit_cover`, damage against the obstacle's Strength); a shot between the base and the covered
difficulty hits the cover (:func:`cover_outcome`). Initiative: two actions that affect each other go by
their rolls (text ``000``, :func:`~diceengine.systems.d6.initiative`); text ``002``'s group initiative
is rolled by each group's best Perception, wounds counting, no Force or character point
(:func:`group_initiative_check`, :func:`group_order`).

Text ``002``'s hurrying (:func:`act` ``hurrying=True``, a task of two rounds or more: the code halved)
and its situational dice on an attack (:func:`attack` ``circumstances``: low light +1D ... total
darkness +4D, smoke +1D / +2D / +4D, a target of 10-50 cm +1D, 1-10 cm +4D, under 1 cm +8D, a body
part +1D), rolled and added to the difficulty like the cover dice.

Readings chosen where the texts are silent: a prone target's extra difficulty is the scene's
``prone_dice`` (0 by default: text ``000`` refers to a table it does not print); under ``"replace"``
cover dice are still added to the reaction's roll; standing up counts as one use for the penalty.

Between fights: :func:`treat` (:mod:`~diceengine.systems.d6.healing`), :func:`end_adventure` and
:func:`advance_skill` (:mod:`~diceengine.systems.d6.adventure`).

The scene and its characters (:class:`D6Scene`, :class:`D6Character`) are defined in
:mod:`diceengine.systems.d6.scene` and importable from here; ``RULES`` here are what ``dice rule d6``
runs on a JSON state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from diceengine.i18n import N_

from ..play import Step, one_of, refuse, rolling
from ..rulebook import rule, rule_table
from .adventure import advance_skill, end_adventure
from .codes import Code, parse_code
from .healing import treat
from .order import action_order, group_initiative_check, group_order
from .rules import (
    CIRCUMSTANCES,
    Health,
    Wound,
    circumstance_dice,
    cover_result,
    damage_result,
    death_roll,
    force_point_outcome,
    parry_bonuses,
)
from .scene import (
    ATTACK_KINDS,
    COVER_DICE,
    MOVE_METRES,
    STOPS,
    AttackKind,
    CoverLevel,
    D6Character,
    D6Scene,
    Movement,
    Reaction,
    ReactionKind,
    _able,
    _check,
    _code,
    _difficulty,
    _put,
    _who,
    force_factor,
)
from .shared import reaction_difficulty

__all__ = [
    "RULES",
    "RULE_SUMMARIES",
    "RULE_WORDS",
    "D6Character",
    "D6Scene",
    "Reaction",
    "act",
    "action_order",
    "advance_skill",
    "attack",
    "cover_outcome",
    "damage",
    "death_check",
    "declare",
    "end_adventure",
    "end_round",
    "grenade_blast",
    "group_initiative_check",
    "group_order",
    "hit_cover",
    "next_segment",
    "prepare",
    "react",
    "record_death_roll",
    "record_reaction",
    "spend_force_point",
    "take_cover",
    "take_damage",
    "treat",
]

# ---------------------------------------------------------------- the round


def _undeclared(state: D6Scene, name: str) -> D6Character:
    """The character ``name``, able to act and with the round still to declare, else the refusal."""
    c = _who(state, name)
    _able(state, c)
    if c.has_declared:
        raise refuse(N_("{name} has already declared this round"), name=name)
    return c


@rule(N_("Declare the round: the skill uses planned, the movement and the actions without a roll."))
def declare(state: D6Scene, name: str, uses: int, movement: Movement = "stand", metres: int = 0, turn: int = 0,
            stand_up: bool = False, draw_weapon: bool = False, set_stun: bool = False,
            drop_prone: bool = False) -> Step[D6Scene]:
    """Declare the round: the skill uses planned, the movement (walk up to 5 m, run 10 m turning at most
    90°, crawl 2 m when prone), and the actions without a roll that count as uses (standing up: no
    movement that round; drawing a weapon; setting a blaster to stun). ``drop_prone`` at the end of
    the move is free."""
    c = _undeclared(state, name)
    if c.preparing_round == state.round:
        raise refuse(N_("{name} spends this round preparing"), name=name)
    if uses < 0 or metres < 0:
        raise refuse(N_("uses and metres are not negative"))
    if movement not in MOVE_METRES:
        raise refuse(N_("movement is one of {choices}"), choices=", ".join(MOVE_METRES))
    if metres > MOVE_METRES[movement]:
        raise refuse(N_("{movement} covers at most {most} m a round, not {metres}"), movement=movement,
                     most=MOVE_METRES[movement], metres=metres)
    if movement == "crawl" and not c.prone:
        raise refuse(N_("{name} is standing: only a prone character crawls"), name=name)
    if movement in ("walk", "run") and c.prone and not stand_up:
        raise refuse(N_("{name} is prone: standing up comes first"), name=name)
    if stand_up and (not c.prone or movement != "stand"):
        raise refuse(N_("standing up is for a prone character, who cannot move in the same round"))
    if movement == "run" and abs(turn) > 90:
        raise refuse(N_("a running character turns at most 90° in a round"))
    declared = uses + int(stand_up) + int(draw_weapon) + int(set_stun)
    prone = (c.prone and not stand_up) or drop_prone
    new = _put(state, c, declared=declared, uses=declared, taken=declared - uses, has_declared=True,
               movement=movement, prone=prone)
    return Step(new)


@rule(N_("Spend the round preparing (aiming): the next round's single use gets +1D."))
def prepare(state: D6Scene, name: str) -> Step[D6Scene]:
    """Spend the round preparing (aiming): nothing else; the next round's single use gets +1D."""
    c = _undeclared(state, name)
    return Step(_put(state, c, preparing_round=state.round, has_declared=True, declared=0, uses=0))


def _next_use(state: D6Scene, name: str, skill: str, hurrying: bool = False) -> tuple[D6Scene, Code]:
    c = _who(state, name)
    _able(state, c)
    if not c.has_declared:
        raise refuse(N_("{name} has not declared this round"), name=name)
    if c.taken >= c.declared:
        raise refuse(N_("{name} has no declared use left this round"), name=name)
    code = _code(state, c, skill, c.uses, single=True, hurrying=hurrying)
    return _put(state, c, taken=c.taken + 1), code


@rule(N_("The next declared skill use: its check against a difficulty."))
def act(state: D6Scene, name: str, skill: str, difficulty: int | str | None = None, hurrying: bool = False,
        rounds: int = 1) -> Step[D6Scene]:
    """The next declared skill use: its check against ``difficulty`` (a number, a range name, an opposing
    code, or none). ``hurrying`` (text ``002``: « L'empressement divise par {deux} la compétence »)
    halves the code to do in half the time a task of ``rounds`` rounds, two or more (« pour peu que
    l'action dure deux rounds ou plus »)."""
    if hurrying and rounds < 2:
        raise refuse(N_("only a task of two rounds or more can be hurried, not {rounds}"), rounds=rounds)
    new, code = _next_use(state, name, skill, hurrying)
    return rolling(new, _check(code, difficulty), "d6")


def _wields(c: D6Character, name: str, kind: AttackKind) -> None:
    """Refuse a melee or lightsaber attack to a character without that weapon in hand."""
    if kind == "melee" and (not c.armed or c.weapon == "lightsaber"):
        raise refuse(N_("{name} has no melee weapon in hand"), name=name)
    if kind == "lightsaber" and c.weapon != "lightsaber":
        raise refuse(N_("{name} has no lightsaber in hand"), name=name)


def _reaction_against(state: D6Scene, target: D6Character, kind: AttackKind) -> Reaction | None:
    for r in reversed(target.reactions):
        stops = STOPS[r.kind]
        if state.reactions == "replace" and r.kind == "brawling_parry":
            stops = STOPS["melee_parry"]  # text 002: bare hands parry weapons too, the attack gets +10
        if kind in stops and (state.reactions == "replace" or r.segment == state.segment):
            return r
    return None


@rule(N_("An attack as the attacker's next declared use, against the target's reactions and cover."))
def attack(state: D6Scene, attacker: str, target: str, skill: str, difficulty: int | str,
           kind: AttackKind = "ranged", cover_roll: int | None = None,
           circumstances: Sequence[str] = ()) -> Step[D6Scene]:
    """An attack as the attacker's next declared use. The target's reaction, when it stops this kind of
    attack, is added to the difficulty (``"add"``, its segment) or replaces it (``"replace"``, the round,
    with the parry bonuses); the target's cover adds its dice (or ``cover_roll``, the cover dice already
    rolled); total cover cannot be shot through (:func:`hit_cover`). No dodge against melee.
    ``circumstances`` (text ``002``: light, smoke, a specific shot, a body part:
    :data:`~diceengine.systems.d6.CIRCUMSTANCES`) add their dice to the difficulty, rolled with it like
    the cover dice (the cover itself is the target's, :func:`take_cover`)."""
    one_of(kind, ATTACK_KINDS, "the kind of attack")
    a = _who(state, attacker)
    t = _who(state, target)
    _wields(a, attacker, kind)
    if t.cover == "total" and kind in ("ranged", "grenade"):
        raise refuse(N_("{name} is behind total cover: destroy or pierce it first (hit_cover)"), name=target)
    base = _difficulty(difficulty)
    bonus = 0
    reaction = _reaction_against(state, t, kind) if kind != "grenade" else None  # a throw aims at a place
    if reaction is not None:
        base = reaction_difficulty(base, reaction.total, state.reactions)
        if state.reactions == "replace":
            parry = {"melee_parry": "melee", "lightsaber_parry": "melee", "brawling_parry": "brawling"}
            if kind in ("brawling", "melee", "lightsaber") and reaction.kind in parry:
                # text 002, the lightsaber: « (bonus et malus ci-dessus restent d'application) »
                parry_bonus, attack_bonus = parry_bonuses(parry[reaction.kind],
                                                          "unarmed" if kind == "brawling" else "armed")
                base += parry_bonus
                bonus += attack_bonus
    dice = (COVER_DICE[t.cover] if kind == "ranged" else 0) + (state.prone_dice if t.prone and kind != "grenade" else 0)
    if cover_roll is not None:
        if not dice:
            raise refuse(N_("{name} has no cover to roll"), name=target)
        base, dice = base + cover_roll, 0
    for name in circumstances:
        if name.lower().replace(" ", "_").replace("-", "_") not in CIRCUMSTANCES or "cover" in name.lower():
            raise refuse(N_("a circumstance is one of {choices}, not {value}"),
                         choices=", ".join(k for k in CIRCUMSTANCES if "cover" not in k), value=repr(name))
    dice += circumstance_dice(*circumstances).dice
    new, code = _next_use(state, attacker, skill)
    return Step(new, _check(code, base, dice, bonus), "d6")


@rule(N_("A grenade landing near a target: 4D against the difficulty of the distance."))
def grenade_blast(state: D6Scene, target: str, difficulty: int | str) -> Step[D6Scene]:
    """A grenade landing near ``target``: the game master rolls 4D against the difficulty of the distance
    between them, raised by the target's dodge of this segment (``"replace"``: replaced by it); a
    target who dodged a grenade ends the segment prone. On a success, damage as the distance gives."""
    t = _who(state, target)
    base = _difficulty(difficulty)
    reaction = _reaction_against(state, t, "grenade")
    if reaction is not None:
        base = reaction_difficulty(base, reaction.total, state.reactions)
        state = _put(state, t, prone=True)
    return Step(state, f"4D vs {base}", "d6")


@rule(N_("A reaction when attacked: a dodge, a parry or a deflection."))
def react(state: D6Scene, name: str, kind: ReactionKind = "dodge") -> Step[D6Scene]:
    """A reaction, when attacked: a dodge, a bare-handed parry (empty hands), a weapon parry (a weapon in
    hand), a lightsaber parry (Sense or weapon parry, the better), ``"blaster_parry"`` (a lightsaber
    and Sense: a shot parried, the roll added to the shooter's difficulty) or ``"deflect"`` (Sense: a
    blaster bolt parried, and sent back: two uses). Under ``"replace"`` (text ``002``) a character aiming
    this round cannot react. It counts as one more use from now on (``"replace"``: it
    takes an action left first). Returns its check; :func:`record_reaction` keeps the roll."""
    one_of(kind, tuple(STOPS), "a reaction")
    c = _who(state, name)
    _able(state, c)
    if c.pending_reaction is not None:
        raise refuse(N_("{name}'s {reaction} is not recorded yet (record_reaction)"), name=name,
                     reaction=c.pending_reaction)
    if kind == "brawling_parry" and c.armed:
        raise refuse(N_("{name} has a weapon in hand: a weapon parry, not a bare-handed one"), name=name)
    if kind == "melee_parry" and (not c.armed or c.weapon == "lightsaber"):
        if not c.armed:
            raise refuse(N_("{name} has no melee weapon in hand"), name=name)
        raise refuse(N_("a lightsaber parries with lightsaber_parry"))
    if kind in ("lightsaber_parry", "blaster_parry", "deflect") and c.weapon != "lightsaber":
        raise refuse(N_("{name} has no lightsaber in hand"), name=name)
    if kind in ("blaster_parry", "deflect") and "sense" not in c.codes:
        raise refuse(N_("{name} has no Sense: only Sense parries blaster fire with a lightsaber"), name=name)
    if state.reactions == "replace" and c.preparing_round == state.round:
        # text 002: « le personnage ne peut rien faire d'autre durant ce round : ni se déplacer, ni esquiver »
        raise refuse(N_("{name} is aiming this round: nothing else, neither moving nor dodging (text 002)"),
                     name=name)
    extra = 2 if kind == "deflect" else 1
    skill: str
    if state.reactions == "replace" and c.taken < c.declared:
        left = min(extra, c.declared - c.taken)
        uses, taken, declared = c.uses + extra - left, c.taken + extra, c.declared + extra - left
    else:
        uses, taken, declared = c.uses + extra, c.taken + extra, c.declared + extra
    with_use = c.model_copy(update={"uses": uses})
    if kind == "lightsaber_parry":
        options = [s for s in ("sense", "melee_parry") if s in c.codes]
        if not options:
            raise refuse(N_("{name} has neither Sense nor a weapon parry"), name=name)
        skill = max(options, key=lambda s: c.code(s).in_pips)
    elif kind in ("blaster_parry", "deflect"):
        skill = "sense"
    else:
        skill = kind
    code = _code(state, with_use, skill, uses)
    new = _put(state, c, uses=uses, taken=taken, declared=declared, reacted_round=state.round, has_declared=True,
               pending_reaction=kind)
    return Step(new, str(code), "d6")


@rule(N_("The rolled total of a reaction."))
def record_reaction(state: D6Scene, name: str, kind: ReactionKind, total: int) -> Step[D6Scene]:
    """The rolled total of a reaction :func:`react` called for."""
    one_of(kind, tuple(STOPS), "a reaction")
    c = _who(state, name)
    if c.pending_reaction != kind:
        if c.pending_reaction:
            raise refuse(N_("{name} has made no {kind} to record (but a {pending})"), name=name, kind=kind,
                         pending=c.pending_reaction)
        raise refuse(N_("{name} has made no {kind} to record"), name=name, kind=kind)
    reaction = Reaction(kind=kind, total=total, segment=state.segment)
    return Step(_put(state, c, reactions=[*c.reactions, reaction], pending_reaction=None))


@rule(N_("The next segment of the round."))
def next_segment(state: D6Scene) -> Step[D6Scene]:
    """The next segment of the round: under ``"add"`` the reactions made so far stop nothing more."""
    return Step(state.model_copy(update={"segment": state.segment + 1}))


@rule(N_("The character's cover from now on."))
def take_cover(state: D6Scene, name: str, cover: CoverLevel) -> Step[D6Scene]:
    """The character's cover from now on (``"peeking"``: out of total cover to look or shoot, 3/4)."""
    c = _who(state, name)
    if cover not in COVER_DICE and cover != "total":
        raise refuse(N_("cover is one of {choices}"), choices=", ".join([*COVER_DICE, "total"]))
    return Step(_put(state, c, cover=cover))


@rule(N_("A shot at a covered target: hit, cover (the obstacle is hit) or miss (text 002)."))
def cover_outcome(attack_total: int, base_difficulty: int, cover_roll: int) -> str:
    """``"hit"``, ``"cover"`` (the obstacle is hit) or ``"miss"`` (text ``002``)."""
    return cover_result(attack_total, base_difficulty, cover_roll)


# ---------------------------------------------------------------- damage


@rule(N_("The damage roll against the target's Strength."))
def damage(state: D6Scene, attacker: str, target: str, kind: AttackKind = "ranged",
           weapon: str | None = None) -> Step[D6Scene]:
    """The damage roll against the target's Strength (never modified; doubled by a Force point this
    round): a weapon's code; bare hands, the attacker's Strength; a melee weapon, its code plus
    Strength; a lightsaber, the Control code."""
    one_of(kind, ATTACK_KINDS, "the kind of attack")
    a = _who(state, attacker)
    t = _who(state, target)
    _wields(a, attacker, kind)
    doubled = force_factor(a.force_point_round, state.round)  # the character's codes, not a weapon's
    if kind == "brawling":
        dmg = a.code("strength") * doubled
    elif kind == "melee":
        dmg = a.code("strength") * doubled + parse_code(a.weapon)  # type: ignore[arg-type]
    elif kind == "lightsaber":
        dmg = a.code("control") * doubled
    else:
        if weapon is None:
            raise refuse(N_("a shot's damage is the weapon's code: give weapon"))
        dmg = parse_code(weapon)
    strength = t.code("strength") * force_factor(t.force_point_round, state.round)
    return Step(state, f"{dmg} vs {strength}", "d6")


@rule(N_("Apply a damage roll against a Strength roll (text 000)."))
def take_damage(state: D6Scene, target: str, damage_total: int, strength_total: int) -> Step[D6Scene]:
    """Apply a damage roll against a Strength roll (text ``000``)."""
    t = _who(state, target)
    if t.dead:
        raise refuse(N_("{name} is dead"), name=target)
    result = damage_result(damage_total, strength_total)
    if result == Wound.STUNNED:  # -1D to the end of the next round, stacking
        return Step(_put(state, t, stuns=[*t.stuns, state.round + 1]))
    health = Health(t.health, 0).hit(result).state
    update: dict[str, object] = {"health": health}
    if health >= Wound.WOUNDED and health != t.health:
        update["prone"] = True
        if health == Wound.WOUNDED:
            update["wounded_round"] = state.round
    if health == Wound.MORTALLY_WOUNDED and t.mortal_round is None:
        update["mortal_round"] = state.round
    return Step(_put(state, t, **update))


@rule(N_("The roll of a shot that hit the cover: the weapon's damage against the obstacle's Strength."))
def hit_cover(weapon: str, obstacle_strength: str) -> str:
    """The roll of a shot that hit the cover: the weapon's damage against the obstacle's Strength."""
    return f"{parse_code(weapon)} vs {parse_code(obstacle_strength)}"


@rule(N_("At the end of a round, the 2D roll of a mortally wounded character."))
def death_check(state: D6Scene, name: str) -> Step[D6Scene]:
    """At the end of a round, a mortally wounded character rolls 2D: below the rounds elapsed since the
    wound (1 at the end of that round) he dies. The check succeeds when he lives."""
    _, elapsed = _dying(state, name)
    return Step(state, f"2D vs {elapsed}", "d6")


@rule(N_("The 2D of the death check: dead when below the rounds elapsed."))
def record_death_roll(state: D6Scene, name: str, roll: int) -> Step[D6Scene]:
    """The 2D of :func:`death_check`: dead when below the rounds elapsed."""
    c, elapsed = _dying(state, name)
    return Step(_put(state, c, dead=death_roll(elapsed, roll)))


def _dying(state: D6Scene, name: str) -> tuple[D6Character, int]:
    """The mortally wounded character ``name`` and the rounds elapsed since the wound (1 at the end of that
    round), else the refusal."""
    c = _who(state, name)
    if c.mortal_round is None or c.dead:
        raise refuse(N_("{name} is not mortally wounded"), name=name)
    return c, state.round - c.mortal_round + 1


@rule(N_("The next round: declarations, uses and reactions cleared."))
def end_round(state: D6Scene) -> Step[D6Scene]:
    """The next round: declarations, uses and reactions cleared, movement back to standing still (prone
    stays prone), stuns that ran their course gone."""
    nxt = state.round + 1
    chars = {}
    for name, c in state.characters.items():
        chars[name] = c.model_copy(update={
            "declared": 0, "uses": 0, "taken": 0, "has_declared": False, "movement": "stand", "reactions": [],
            "pending_reaction": None,
            "stuns": [u for u in c.stuns if u >= nxt]})
    return Step(state.model_copy(update={"round": nxt, "segment": 1, "characters": chars}))


@rule(N_("Spend a Force point: every code doubled this round."))
def spend_force_point(state: D6Scene, name: str, use: Literal["evil", "neutral", "heroic", "dramatic"]
                      ) -> Step[D6Scene]:
    """« Je me fie à la Force »: every code doubled this round. Evil: the point is lost and a dark side
    point gained; neutral: lost; heroic: returned at the end of the adventure; dramatic: returned, and
    the game master may give another (:func:`end_adventure`)."""
    one_of(use, ("evil", "neutral", "heroic", "dramatic"), "a use of the Force")
    c = _who(state, name)
    if c.force_points < 1:
        raise refuse(N_("{name} has no Force point"), name=name)
    if c.force_point_round == state.round:
        raise refuse(N_("{name} already relies on the Force this round"), name=name)
    outcome = force_point_outcome(use)
    return Step(_put(state, c, force_points=c.force_points - 1, force_point_round=state.round,
                     dark_side_points=c.dark_side_points + int(outcome.dark_side_point),
                     force_points_returning=c.force_points_returning + int(outcome.returned_at_end),
                     force_points_dramatic=c.force_points_dramatic + int(use == "dramatic")))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
RULES, RULE_SUMMARIES = rule_table(
    declare, prepare, act, attack, react, record_reaction, next_segment, grenade_blast, take_cover, cover_outcome,
    damage, take_damage, hit_cover, death_check, record_death_roll, end_round, spend_force_point, action_order,
    group_initiative_check, group_order, treat, end_adventure, advance_skill,
)
#: the words a rule's result may be (``dice rule`` prints them in the user's language)
RULE_WORDS = (N_("hit"), N_("cover"), N_("miss"))
