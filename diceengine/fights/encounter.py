"""An encounter: two sides, written once per ruleset, loaded from TOML, JSON or Python data.

.. code-block:: toml

    name = "Roark against a stormtrooper"
    sides = ["Roark", "Stormtrooper"]   # the names of sides a and b
    rounds = 20                          # rounds shown in the tables and plots

    [RULESET]                            # one table per ruleset, in that ruleset's terms
    range = "medium"                     # settings and policies of the ruleset (see its fight module)
    [[RULESET.a]]                        # the combatants of side a
    name = "Roark"
    ...
    [[RULESET.b]]
    ...

The table of each ruleset is validated by the ruleset's own model (``FightRules.setup_model``); any
fault is reported as the engine's :class:`~diceengine.errors.DiceError` naming the field
(``d6.a[0].attack: ...``), never as a traceback.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import DiceError, DiceValueError
from ..i18n import N_
from .rules import FightRules

__all__ = ["MAX_ROUNDS", "Encounter", "Fight", "fight_rules", "load_encounter"]

#: most rounds a table, a plot or a simulated fight runs
MAX_ROUNDS = 10_000


class EncounterHeader(BaseModel):
    """The part of an encounter every ruleset shares."""

    model_config = ConfigDict(extra="allow")

    name: str = "encounter"
    sides: tuple[str, str] = ("side a", "side b")
    rounds: int = Field(20, ge=1, le=MAX_ROUNDS, description="rounds shown in the tables and plots")


def fight_rules(system: str) -> FightRules:
    """The combat rules of a registered system; the engine's error if it has none."""
    from ..registry import get_system

    found = get_system(system)
    hook = getattr(found, "fight_rules", None)
    rules = hook() if hook is not None else None
    if rules is None:
        raise DiceValueError(N_("the {system} ruleset has no damage rules: it cannot fight"), system=found.name)
    return rules


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def validation_error(err: ValidationError, prefix: str = "") -> DiceValueError:
    """Pydantic's validation error as the engine's, one line per faulty field."""
    lines = []
    for e in err.errors():
        where = _where(((prefix,) if prefix else ()) + tuple(e["loc"])) or "encounter"
        msg = e["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {msg}")
    return DiceValueError(N_("bad encounter: {faults}"), faults="; ".join(lines))


@dataclass(frozen=True)
class Fight:
    """One ruleset's version of an encounter: the validated setup and its rules."""

    system: str
    rules: FightRules
    setup: Any
    data: Mapping[str, Any]
    name: str = "encounter"
    sides: tuple[str, str] = ("side a", "side b")
    rounds: int = 20

    def with_values(self, values: Mapping[str, Any]) -> Fight:
        """The same fight with some fields set, by dotted path (``"range"``, ``"a.0.attack"``)."""
        data = copy.deepcopy(dict(self.data))
        for path, value in values.items():
            set_path(data, path, value, self.system)
        return Fight(self.system, self.rules, validate_setup(self.rules, data, self.system), data, self.name,
                     self.sides, self.rounds)

    @property
    def one_against_one(self) -> bool:
        """Whether each side has one combatant (the exact chain applies)."""
        return len(self.setup.a) == 1 and len(self.setup.b) == 1


def set_path(data: Any, path: str, value: Any, prefix: str = "") -> None:
    """Set ``data[a][0][attack]`` from ``"a.0.attack"``; the engine's error naming the path if it does not exist."""
    parts = path.split(".")
    full = f"{prefix}.{path}" if prefix else path
    node = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        key: Any = part
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise DiceValueError(N_("bad parameter {path}: no item {part}"), path=full, part=part)
            key = int(part)
        elif not isinstance(node, dict):
            raise DiceValueError(N_("bad parameter {path}: {part} is not a field"), path=full, part=part)
        if last:
            node[key] = value
        else:
            if isinstance(node, dict) and key not in node:
                raise DiceValueError(N_("bad parameter {path}: no field {part}"), path=full, part=part)
            node = node[key]


def validate_setup(rules: FightRules, data: Any, system: str) -> Any:
    """The ruleset's setup model of ``data``, or the engine's error naming the faulty fields."""
    try:
        return rules.setup_model.model_validate(data)
    except ValidationError as err:
        raise validation_error(err, system) from None


class Encounter:
    """An encounter written for one or more rulesets (``encounter[system]`` is its :class:`Fight`)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise DiceValueError(N_("an encounter is a table (TOML) or an object (JSON)"))
        try:
            header = EncounterHeader.model_validate(data)
        except ValidationError as err:
            raise validation_error(err) from None
        self.name = header.name
        self.sides = header.sides
        self.rounds = header.rounds
        self.fights: dict[str, Fight] = {}
        for system, table in (header.model_extra or {}).items():
            rules = fight_rules(system)
            if not isinstance(table, Mapping):
                raise DiceValueError(N_("bad encounter: {system}: the {system} version is a table of sides a and b"),
                                     system=system)
            setup = validate_setup(rules, table, system)
            self.fights[system] = Fight(system, rules, setup, dict(table), self.name, self.sides, self.rounds)
        if not self.fights:
            raise DiceValueError(N_("bad encounter: no ruleset table (write the sides under [d6], [ffg], ...)"))

    def __getitem__(self, system: str) -> Fight:
        try:
            return self.fights[system]
        except KeyError:
            raise DiceValueError(N_("the encounter {name!r} is not written for {system!r} (written for: {known})"),
                                 name=self.name, system=system, known=", ".join(self.fights)) from None

    @property
    def systems(self) -> list[str]:
        """The rulesets the encounter is written for, in file order."""
        return list(self.fights)

    def __repr__(self) -> str:
        return f"<Encounter {self.name!r}: {', '.join(self.fights)}>"


def load_encounter(source: str | Path | Mapping[str, Any]) -> Encounter:
    """An encounter from a ``.toml`` or ``.json`` file, or from Python data."""
    if isinstance(source, Mapping):
        return Encounter(source)
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise DiceError(N_("cannot read the encounter {path}: {reason}"), path=str(path), reason=str(err)) from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise DiceValueError(N_("{path}: not valid JSON: {reason}"), path=str(path), reason=str(err)) from None
    else:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise DiceValueError(N_("{path}: not valid TOML: {reason}"), path=str(path), reason=str(err)) from None
    return Encounter(data)
