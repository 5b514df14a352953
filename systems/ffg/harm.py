"""Harm under the FFG narrative dice (rule text ``004``): wounds, strain and critical injuries recorded on a
:class:`~diceengine.systems.ffg.sheet.CharacterSheet` (a player character, a nemesis or a rival; minion
groups are :mod:`~diceengine.systems.ffg.play`'s).

- Wounds: damage minus soak (« Le trempage est la protection accordée par le vêtement ou l'armure »);
  the wound threshold is « un minimum racial plus le Brawn »: past it a character « s'évanouit ou tombe
  dans le coma », a rival « peut mourir » (:func:`suffer_wounds`).
- Strain: the threshold is « un minimum racial plus la Volonté » (+1 a rank of Grit). « Les Sbires et
  les Rivaux ne se fatiguent pas. Au lieu de cela, la tension infligée est convertie en blessures »: a
  rival's strain becomes wounds, whether inflicted or used for its own abilities; « les Némésis prennent
  et récupèrent la tension comme le font les Personnages du joueur » (:func:`suffer_strain`,
  :func:`recover_strain`).
- Critical injuries: « Percentile Dice (Critical Dice) ... principalement utilisés pour rouler sur les
  blessures critiques »; rivals « souffrent normalement de blessures et de blessures critiques ». The
  roll is d100 plus 10 for each critical injury already suffered (the published rule: text ``004``
  names the dice, not the modifier) plus the weapon's own bonus; :func:`critical_injury_check` asks for
  it, :func:`record_critical` records the rolled result on the sheet. The table of effects is not in
  the text: the sheet keeps the results, the table reads them.

Readings where the text is silent: a rival past its wound threshold takes no more harm (it is out; the
text leaves its death to the game master); strain is the strain suffered, not soaked; a character may
use strain past the threshold (and collapses).
"""

from __future__ import annotations

from diceengine.i18n import N_

from ..play import Step, refuse, rolling
from ..rulebook import rule, rule_table
from .sheet import CharacterSheet

__all__ = [
    "CRITICAL_STEP",
    "HARM_RULES",
    "HARM_SUMMARIES",
    "critical_injury_check",
    "record_critical",
    "recover_strain",
    "suffer_strain",
    "suffer_wounds",
]

#: the running modifier of a critical injury roll, for each one already suffered (the published rule)
CRITICAL_STEP = 10


def _wound_threshold(sheet: CharacterSheet) -> int:
    if sheet.wound_threshold is None:
        raise refuse(N_("{name}'s sheet has no wound threshold: give wound_base, the species' minimum"),
                     name=sheet.name)
    if sheet.kind == "rival" and sheet.wounds > sheet.wound_threshold:
        raise refuse(N_("{name}, a rival, is past its wound threshold: out of the fight"), name=sheet.name)
    return sheet.wound_threshold


@rule(N_("A hit on a character: damage minus soak becomes wounds."))
def suffer_wounds(sheet: CharacterSheet, damage: int) -> Step[CharacterSheet]:
    """A hit: ``damage`` minus the sheet's soak becomes wounds (« Le trempage est la protection accordée par
    le vêtement ou l'armure qu'un personnage porte et / ou la ténacité naturelle du personnage »); past the
    wound threshold the character is out of action (:attr:`CharacterSheet.out_of_action`)."""
    if damage < 0:
        raise refuse(N_("damage is not negative"))
    _wound_threshold(sheet)
    return Step(sheet.model_copy(update={"wounds": sheet.wounds + max(0, damage - sheet.soak)}))


@rule(N_("Strain on a character: a rival takes it as wounds, a nemesis or a player keeps it."))
def suffer_strain(sheet: CharacterSheet, strain: int) -> Step[CharacterSheet]:
    """Strain, inflicted or used by the character's own abilities: « Les Sbires et les Rivaux ne se
    fatiguent pas. Au lieu de cela, la tension infligée est convertie en blessures ... Lorsque les rivaux
    utilisent des capacités ou invoquent des effets qui souffrent de fatigue, ils sont convertis en
    blessures » — a rival takes it as wounds (soak does not apply); « les Némésis prennent et récupèrent
    la tension comme le font les Personnages du joueur » — they keep it as strain."""
    if strain < 1:
        raise refuse(N_("strain is at least one point"))
    if sheet.kind == "rival":
        _wound_threshold(sheet)
        return Step(sheet.model_copy(update={"wounds": sheet.wounds + strain}))
    if sheet.strain_threshold is None:
        raise refuse(N_("{name}'s sheet has no strain threshold: give strain_base, the species' minimum"),
                     name=sheet.name)
    return Step(sheet.model_copy(update={"strain": sheet.strain + strain}))


@rule(N_("A player character or a nemesis recovers strain; a rival has none."))
def recover_strain(sheet: CharacterSheet, strain: int) -> Step[CharacterSheet]:
    """A player character or a nemesis recovers strain (never below none). « Étant donné que les Sbires et
    les rivaux ne prennent pas de tension, il ne peut pas être récupéré »: refused for a rival."""
    if strain < 1:
        raise refuse(N_("strain is at least one point"))
    if sheet.kind == "rival":
        raise refuse(N_("{name} is a rival: rivals take no strain, so none is recovered"), name=sheet.name)
    return Step(sheet.model_copy(update={"strain": max(0, sheet.strain - strain)}))


@rule(N_("Ask for a critical injury roll: d100 plus 10 per critical injury already suffered."))
def critical_injury_check(sheet: CharacterSheet, bonus: int = 0) -> Step[CharacterSheet]:
    """Ask for a critical injury roll: the percentile dice (« "01" est égal à 1 et "00" est égal à 100 »)
    plus 10 for each critical injury the sheet already records, plus ``bonus`` (the weapon's own). Returns
    the check (``system="standard"``); :func:`record_critical` takes its result."""
    if sheet.critical_pending is not None:
        raise refuse(N_("{name}'s critical injury roll is not recorded yet"), name=sheet.name)
    if bonus < 0:
        raise refuse(N_("a critical injury bonus is not negative"))
    modifier = CRITICAL_STEP * len(sheet.criticals) + bonus
    check = f"1d100+{modifier}" if modifier else "1d100"
    return rolling(sheet.model_copy(update={"critical_pending": modifier}), check, "standard")


@rule(N_("Record the rolled critical injury on the character."))
def record_critical(sheet: CharacterSheet, result: int) -> Step[CharacterSheet]:
    """Record the critical injury roll asked for by :func:`critical_injury_check`: ``result`` (the d100
    plus its modifier, so 1 to 100 plus the modifier) joins the sheet's critical injuries."""
    modifier = sheet.critical_pending
    if modifier is None:
        raise refuse(N_("no critical injury roll to record: ask for one first"))
    if not 1 + modifier <= result <= 100 + modifier:
        raise refuse(N_("a critical injury roll of d100+{modifier} is {low} to {high}, not {result}"),
                     modifier=modifier, low=1 + modifier, high=100 + modifier, result=result)
    return Step(sheet.model_copy(update={"criticals": [*sheet.criticals, result], "critical_pending": None}))


#: the rules ``dice rule`` runs, each with its one-line summary (said in the user's language)
HARM_RULES, HARM_SUMMARIES = rule_table(
    suffer_wounds, suffer_strain, recover_strain, critical_injury_check, record_critical,
)
