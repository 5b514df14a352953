"""A step of a table's log said in words, as ``dice table log`` prints it: who did what (``Ana flips 1 destiny token
from the light side to the dark side``), a roll in the reader's language (rendered on read from its stored dice,
:func:`diceengine.table.rolls.roll_text`) with its exact odds beside what happened, and the marks of a re-roll
or an undo. The words are the catalogues'; the names and expressions the members typed are shown as they are."""

from __future__ import annotations

from typing import Any

from ..i18n import N_, NP_, gettext, ngettext
from .args import percent

__all__ = ["entry_text", "pool_words"]

SECRET = N_("secret roll by {name}")
ROLLED = N_("#{seq} {name}: {text}")
ODDS_CHANCE = N_("percentile {percentile}, chance of success {chance}")
ODDS_ONLY = N_("percentile {percentile}")
ODDS_OF = N_("{field}: percentile {percentile}, no check")
REROLLED = N_("(re-rolled by #{seq})")
UNDONE = N_("(undone by #{seq})")
STEP = N_("#{seq} {name} {what}")

#: the sentences of the steps that are not rolls
JOINS, JOINS_GM = N_("joins the table"), N_("joins the table as the game master")
FLIPS_DESTINY = NP_("flips {n} destiny token from the {source} to the {to}",
                    "flips {n} destiny tokens from the {source} to the {to}")
MOVES = NP_("moves {n} token from {source} to {to}", "moves {n} tokens from {source} to {to}")
ADDS, TAKES = N_("adds {n} to {pool}"), N_("takes {n} from {pool}")
ORDER = N_("sets the initiative order: {order}")
TURN, ROUND = N_("passes the turn to {name}"), N_("begins round {round}")
CHARACTER = N_("brings in the character {name}")
RULE_SCENE, RULE_ON = N_("applies {rule} to the scene"), N_("applies {rule} to {target}")
CALLS_FOR = N_("which calls for the check {check}")
UNDOES = N_("undoes step #{seq}")
REMOVES, REKEYS = N_("removes {name} from the table"), N_("gives {name} a new key")
READMITS = N_("lets {name} join the table again")
SAVES, FORGETS = N_("saves the roll @{name}: {expression}"), N_("forgets the roll @{name}")
#: the committed seeds' steps (diceengine.table.provable), by kind (``reseed``: a seed step that reveals the last)
SEED_STEPS = {
    "seed": N_("commits to a server seed (SHA-256 {commitment})"),
    "reseed": N_("reveals the server seed {revealed} and commits to a new one (SHA-256 {commitment})"),
    "end": N_("ends the table and reveals the server seed {revealed}"),
    "clientseed": N_("sets their client seed to {seed}"),
    "reveal": N_("reveals the secret roll #{seq}"),
}
SAVES_OWN, FORGETS_OWN = N_("saves their own roll @{name}: {expression}"), N_("forgets their own roll @{name}")
#: the pools of the scenes, in words (any other pool is said by its name)
SIDES = {"destiny.light": N_("light side"), "destiny.dark": N_("dark side")}
POOLS = {"destiny.light": N_("the light side of the destiny pool"),
         "destiny.dark": N_("the dark side of the destiny pool"),
         "impulsion": N_("the Impulsion pool"), "menace": N_("the Menace pool")}
OWNED = N_("{name}'s {pool}")


def pool_words(path: str, lang: str | None) -> str:
    """A pool of the scene or of the table in words: ``destiny.dark`` -> ``the dark side of the destiny pool``,
    ``force_points.Kael`` -> ``Kael's force points``; a pool of the table's own by its name."""
    if path in POOLS:
        return gettext(POOLS[path], lang)
    head, dot, name = path.partition(".")
    if dot and "." not in name:
        return gettext(OWNED, lang, name=name, pool=head.replace("_", " "))
    return path


def _what(entry: Any, lang: str | None) -> str:
    """What a step that is not a roll did, as a sentence after the member's name."""
    a, kind = entry.args or {}, entry.kind
    if kind == "join":
        as_gm = entry.result == "gm"
        return gettext(JOINS_GM if as_gm else JOINS, lang)
    if kind == "flip":
        source, to, n = a.get("from", "?"), a.get("to", "?"), int(a.get("tokens", 1))
        if source in SIDES and to in SIDES:
            return ngettext(*FLIPS_DESTINY, n, lang, source=gettext(SIDES[source], lang), to=gettext(SIDES[to], lang))
        return ngettext(*MOVES, n, lang, source=pool_words(source, lang), to=pool_words(to, lang))
    if kind == "adjust":
        delta = int(a.get("delta", 0))
        return gettext(ADDS if delta >= 0 else TAKES, lang, n=abs(delta), pool=pool_words(a.get("pool", "?"), lang))
    if kind == "order":
        return gettext(ORDER, lang, order=", ".join(a.get("order", [])))
    if kind == "turn":
        after = entry.after
        if a.get("round"):
            return gettext(ROUND, lang, round=after.round if after else "?")
        return gettext(TURN, lang, name=after.order[after.turn] if after and after.order else "-")
    if kind == "character":
        return gettext(CHARACTER, lang, name=entry.target)
    if kind == "undo":
        return gettext(UNDOES, lang, seq=entry.undoes)
    if kind in ("remove", "rekey", "readmit"):
        words = {"remove": REMOVES, "rekey": REKEYS, "readmit": READMITS}[kind]
        return gettext(words, lang, name=entry.target)
    if kind in SEED_STEPS:
        return _seed_words(entry, lang)
    if kind == "save":
        own = bool(a.get("personal"))
        if a.get("expression") is None:
            return gettext(FORGETS_OWN if own else FORGETS, lang, name=a.get("name"))
        system = f"{a['system']}: " if a.get("system") else ""
        return gettext(SAVES_OWN if own else SAVES, lang, name=a.get("name"), expression=system + a["expression"])
    if kind == "rule":
        said = gettext(RULE_ON if entry.target else RULE_SCENE, lang, rule=entry.rule, target=entry.target)
        return said + (", " + gettext(CALLS_FOR, lang, check=entry.check) if entry.check else "")
    return str(kind)


def _seed_words(entry: Any, lang: str | None) -> str:
    """What a step of the committed seeds did, as a sentence after the member's name."""
    kind = "reseed" if entry.kind == "seed" and entry.revealed else entry.kind
    return gettext(SEED_STEPS[kind], lang, commitment=entry.commitment, revealed=entry.revealed,
                   seed=entry.client_seed, seq=entry.reveals)


def _odds(odds: Any, lang: str | None) -> str:
    from ..table.luck import SCORE_FIELDS

    if odds.field not in SCORE_FIELDS:  # a roll that is no check (Force dice alone): where its points fell
        return gettext(ODDS_OF, lang, field=gettext(odds.field, lang), percentile=percent(odds.percentile, 1))
    if odds.chance is not None:
        return gettext(ODDS_CHANCE, lang, percentile=percent(odds.percentile, 1), chance=percent(odds.chance, 1))
    return gettext(ODDS_ONLY, lang, percentile=percent(odds.percentile, 1))


def _check_text(entry: Any, lang: str | None) -> str | None:
    """A roll whose expression is a check written in the notation (``1d20+5>=15``): its text, success or failure
    and chance of success, as ``dice roll`` says it; ``None`` for any other roll."""
    from ..errors import DiceError
    from ..table.rolls import roll_text
    from .checks import chance_of_success, check_line, is_check

    options = dict(entry.options or {})
    try:
        if not entry.system or not is_check(entry.system, entry.expression, options):
            return None
    except DiceError:  # an expression of another release that no longer reads: said as it was stored
        return None
    text = roll_text(entry, lang)
    if text is None:  # no text stored nor rendered: the roll line says what it can
        return None
    total = (entry.outcome or {}).get("total")
    return check_line(text, total, chance_of_success(entry.system, entry.expression, options), lang)


def entry_text(entry: Any, lang: str | None) -> str:
    """One step of the log as a line: a roll with its text and exact odds, any other step in words."""
    from ..table.rolls import roll_text

    if entry.kind == "roll":
        if entry.redacted:
            line = f"#{entry.seq} " + gettext(SECRET, lang, name=entry.member)
        else:
            check = _check_text(entry, lang)
            line = gettext(ROLLED, lang, seq=entry.seq, name=entry.member, text=check or roll_text(entry, lang))
            if entry.odds is not None and check is None:
                line += "  [" + _odds(entry.odds, lang) + "]"
            if entry.secret:
                line += "  (" + gettext(SECRET, lang, name=entry.member) + ")"
    else:
        line = gettext(STEP, lang, seq=entry.seq, name=entry.member, what=_what(entry, lang))
    if entry.rerolled_by:
        line += " " + gettext(REROLLED, lang, seq=entry.rerolled_by)
    if entry.undone_by:
        line += " " + gettext(UNDONE, lang, seq=entry.undone_by)
    return line
