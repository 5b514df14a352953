"""The ruleset of a table: its rules of play, and the state classes its scenes and characters are kept as."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from diceengine.i18n import N_

from .errors import TableError


def rules_of(system: str) -> Any:
    from diceengine.registry import get_system

    sys_ = get_system(system)
    module = sys_.rules_of_play()
    if module is None:
        raise TableError(N_("the system {system} has no rules of play"), system=sys_.name)
    return module


def state_class(sys_or_name: Any, kind: str) -> type[BaseModel]:
    from diceengine.registry import get_system
    from diceengine.systems.play import PlayState

    module = get_system(sys_or_name).rules_of_play() if not hasattr(sys_or_name, "rules_of_play") \
        else sys_or_name.rules_of_play()
    found = getattr(module, kind, None) if module is not None else None
    if not (isinstance(found, type) and issubclass(found, PlayState)):
        raise TableError(N_("{kind} is not a state of play of this table's system"), kind=repr(kind))
    return found
