"""Rolls at the table: a roll with its dice, outcome and odds in the log, a re-roll of one's last, and a logged
roll's text in its reader's language (:func:`roll_text`, rendered on read from the stored dice)."""

from __future__ import annotations

import json
import random
from datetime import datetime
from typing import Any

from diceengine.errors import DiceError
from diceengine.i18n import N_

from .errors import TableError
from .luck import roll_odds
from .model import Entry, Table
from .provable import draw, rule_source, sealed
from .steps import appended, jsonable, member_of, now

_entropy = random.SystemRandom()  # the dice of a table without a seed

def dice_source(table: Table, seed: Any) -> Any:
    """Where a step's dice come from: ``seed`` if given, else the table's committed server seed (a rule's seed,
    :mod:`~diceengine.table.provable`), else its seed's stream for this step, else fresh entropy."""
    if seed is not None:
        return seed
    if table.commitment is not None:
        return rule_source(table)
    if table.seed is not None:
        return random.Random((table.seed << 64) | (table.version + 1))  # one stream per step: reproducible
    return _entropy


def thrown(expression: str, system: str, source: Any, lang: str | None, options: dict[str, Any]
           ) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """The roll of ``expression`` from ``source``, its outcome fields and its dice, as the log keeps them."""
    from diceengine.api import roll as bare_roll

    rolled = bare_roll(expression, system, seed=source, lang=lang, **options)
    fields = rolled.outcome._asdict()
    outcome = {k: jsonable(v) for k, v in fields.items() if v is not None}
    dice = json.loads("[" + rolled._plan.dice_json(rolled._record) + "]")
    return rolled, outcome, dice


def roll(table: Table, actor: str, expression: str, system: str | None = None, secret: bool = False,
         seed: Any = None, time: datetime | None = None, reroll_of: int | None = None, **options: Any) -> Table:
    """``actor`` rolls ``expression`` (of the table's system unless ``system`` names another): the dice, the
    outcome and its exact odds before the roll join the log. ``secret``: readable by the game master only.
    ``seed``: an int or a generator (by default the table's committed server seed, else its seed sequence, else
    fresh entropy)."""
    member_of(table, actor)
    system = system or table.system
    drawn = draw(table, actor) if seed is None and table.commitment is not None else None
    source = drawn.source if drawn is not None else dice_source(table, seed)
    rolled, outcome, dice = thrown(expression, system, source, table.lang, options)
    entry = Entry(seq=table.version + 1, kind="roll", member=actor, time=now(time), secret=bool(secret),
                  expression=rolled.expression, system=rolled.system, options=jsonable(dict(options)),
                  outcome=outcome, dice=dice, text=str(rolled), reroll_of=reroll_of,
                  odds=roll_odds(rolled.system, rolled.expression, options, outcome),
                  **(drawn.fields if drawn is not None else {}))
    if drawn is None:
        return appended(table, entry)
    return appended(table, sealed(entry) if entry.secret else entry, **drawn.update)


class _Replay(random.Random):
    """Dice that fall as a stored roll's did: each draw the middle of the stored face's share of ``[0, 1)``, in
    the order the roll lists its dice; a draw beyond them is refused (:class:`LookupError`)."""

    def __init__(self, dice: list[dict[str, Any]]) -> None:
        super().__init__(0)
        self._draws = [(float(d["value"]) - 0.5) / float(d["sides"]) for d in dice]
        self._draws.reverse()

    def random(self) -> float:
        if not self._draws:
            raise LookupError("no stored die left")
        return self._draws.pop()


def roll_text(entry: Entry, lang: str | None) -> str | None:
    """A logged roll's text in ``lang``, rendered on read from what the log stores (the expression, its system
    and options, every die): the roll thrown again with the stored faces, and taken only when it gives the very
    dice and outcome stored; else (a die whose face is no number of 1..sides, such as ``dF``) the stored text, in
    the table's language. ``None`` for a step that is not a roll, or a secret roll its reader may not see."""
    if entry.kind != "roll" or entry.expression is None or entry.dice is None:
        return entry.text
    try:
        again, outcome, dice = thrown(entry.expression, entry.system or "standard", _Replay(entry.dice), lang,
                                      entry.options)
    except (LookupError, DiceError, TypeError, ValueError, KeyError, ZeroDivisionError):
        return entry.text
    return str(again) if dice == entry.dice and outcome == entry.outcome else entry.text


def stored_language(lang: str | None) -> str:
    """The catalogue's code of the language a table's texts are stored in (its ``lang``; ``None``: English)."""
    from diceengine.i18n import DEFAULT_LANGUAGE, language

    try:
        return language(lang or DEFAULT_LANGUAGE)
    except DiceError:
        return lang or DEFAULT_LANGUAGE


def in_language(entry: Entry, lang: str | None, stored: str | None) -> Entry:
    """``entry`` with its roll's text in ``lang`` (:func:`roll_text`), its text having been stored in ``stored``
    (the table's language, ``None`` for English); the entry itself when ``lang`` is ``None`` or that language, or
    when the entry has no roll's text to write."""
    if lang is None or entry.kind != "roll" or entry.text is None or lang == stored_language(stored):
        return entry
    text = roll_text(entry, lang)
    return entry if text == entry.text else entry.model_copy(update={"text": text})


def log_in_language(table: Table, lang: str | None) -> Table:
    """``table`` with the texts of its log's rolls in ``lang`` (:func:`in_language`)."""
    if lang is None or lang == stored_language(table.lang):
        return table
    return table.model_copy(update={"log": tuple(in_language(e, lang, table.lang) for e in table.log)})


def last_roll(table: Table, member: str) -> Entry:
    """``member``'s last roll that stands (not undone)."""
    member_of(table, member)
    for e in reversed(table.log):
        if e.kind == "roll" and e.member == member and e.undone_by is None:
            return e
    raise TableError(N_("{name} has no roll to re-roll"), name=member)


def reroll(table: Table, actor: str, seed: Any = None, time: datetime | None = None) -> Table:
    """Re-roll ``actor``'s last roll: the new roll joins the log, the first stays in it, marked
    ``rerolled_by`` the new one (secret if the first was)."""
    first = last_roll(table, actor)
    assert first.expression is not None
    new = roll(table, actor, first.expression, first.system, first.secret, seed, time, reroll_of=first.seq,
               **first.options)
    log = list(new.log)
    log[first.seq - 1] = first.model_copy(update={"rerolled_by": new.version})
    return new.model_copy(update={"log": tuple(log)})
