"""A table and its whole log as one JSON document, and back, the log checked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from diceengine.i18n import N_

from .errors import TableFormatError
from .model import FORMAT, Entry, Table, marked

LOG_KIND = "diceengine.table"


def export_log(table: Table) -> str:
    """The table and its whole log as one JSON document (:func:`import_log` reads it back)."""
    body = table.model_dump(mode="json", exclude={"log", "server_seed"} | table.unstored())  # a seed is exported only once revealed
    body["log"] = [e.model_dump(mode="json", exclude={"rerolled_by", "undone_by"}) for e in table.log]
    return json.dumps({"kind": LOG_KIND, "format": FORMAT, "table": body}, ensure_ascii=False)


def import_log(text: str | bytes) -> Table:
    """The table of a JSON document of :func:`export_log`; a document of another kind or version, or whose log
    does not hold together (steps missing or out of order), is the engine's error naming the problem."""
    try:
        document = json.loads(text)
    except (ValueError, TypeError) as err:
        raise TableFormatError(N_("not a table's log: {reason}"), reason=str(err)) from None
    if not isinstance(document, dict) or document.get("kind") != LOG_KIND:
        raise TableFormatError(N_("not a table's log: {reason}"), reason="no 'kind': 'diceengine.table'")
    if document.get("format") != FORMAT:
        raise TableFormatError(N_("a table's log of format {found}; this version reads format {format}"),
                               found=repr(document.get("format")), format=FORMAT)
    return validated(document.get("table"))


def validated(data: Any) -> Table:
    """A :class:`Table` from plain data, its log checked: numbered 1 to its version without a gap, each
    reference (a re-roll, an undo) to an earlier step."""
    try:
        table = Table.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TableFormatError(N_("not a table's log: {reason}"), reason=f"{where}: {first['msg']}") from None
    check_log(table.log, table.version)
    if table.format != FORMAT:
        raise TableFormatError(N_("a table's log of format {found}; this version reads format {format}"),
                               found=repr(table.format), format=FORMAT)
    return table.model_copy(update={"log": marked(table.log)})


def check_log(log: Sequence[Entry], version: int) -> None:
    """Refuse a log that is not numbered 1 to ``version`` or whose references point forward."""
    if len(log) != version:
        raise TableFormatError(N_("not a table's log: {reason}"),
                               reason=f"version {version} with {len(log)} steps")
    for i, e in enumerate(log, 1):
        if e.seq != i:
            raise TableFormatError(N_("not a table's log: {reason}"), reason=f"step {e.seq} where {i} was due")
        for ref in (e.reroll_of, e.undoes):
            if ref is not None and not 1 <= ref < i:
                raise TableFormatError(N_("not a table's log: {reason}"),
                                       reason=f"step {i} refers to step {ref}")
