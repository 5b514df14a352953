"""A step announced on PostgreSQL: the channel, and the payload the store writes and a watcher reads.

The store sends ``NOTIFY`` in the step's own transaction, so the notice is delivered once the step is
committed, and to every listener in commit order. Its payload is ``TABLE_ID VERSION``, then, when the step leaves
the members as they were and the whole fits in :data:`MAX_PAYLOAD` bytes, a line with the JSON list of the step's new entries
as stored: a watcher that holds the steps before them need not read them back.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter, ValidationError

from .model import MEMBER_KINDS, Entry

__all__ = ["CHANNEL", "MAX_PAYLOAD", "Notice", "entries", "head", "payload", "read"]

#: the notification channel of the steps
CHANNEL = "dice_table_steps"
#: the longest payload sent (PostgreSQL refuses one of 8,000 bytes or more)
MAX_PAYLOAD = 7900

_ENTRIES = TypeAdapter(list[Entry])

#: what a notice says: the table, its version, the step's entries when they came with it
Notice = tuple[str, int | None, list[Entry] | None]


def payload(table_id: str, version: int, new: Sequence[Entry], texts: Sequence[str]) -> str:
    """The notice of a step that brought ``table_id`` to ``version`` with the entries ``new`` (stored as
    ``texts``)."""
    head = f"{table_id} {version}"
    if any(e.kind in MEMBER_KINDS for e in new):  # the members changed: a watcher reads the table again
        return head
    full = head + "\n[" + ",".join(texts) + "]"
    return full if len(full.encode()) <= MAX_PAYLOAD else head


def read(text: str) -> Notice:
    """What the payload ``text`` says (a version or entries it does not make out are ``None``)."""
    table_id, version, body = head(text)
    return table_id, version, entries(body)


def head(text: str) -> tuple[str, int | None, str]:
    """The table and version of the payload ``text``, and the text of its entries (``""``: none), not yet read."""
    first, _, body = text.partition("\n")
    table_id, _, number = first.rpartition(" ")
    if not number.isdigit():
        return first, None, ""
    return table_id, int(number), body


def entries(body: str) -> list[Entry] | None:
    """The entries of a payload's body (:func:`head`), or ``None``."""
    if not body:
        return None
    try:
        return _ENTRIES.validate_json(body)
    except ValidationError:
        return None
