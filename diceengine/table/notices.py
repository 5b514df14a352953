"""A step announced on PostgreSQL: the channel, and the payload the store writes and a watcher reads.

The store sends ``NOTIFY`` in the step's own transaction, so the notice is delivered once the step is
committed, and to every listener in commit order. Its payload is ``TABLE_ID VERSION``, then, when the step adds
no member and the whole fits in :data:`MAX_PAYLOAD` bytes, a line with the JSON list of the step's new entries
as stored: a watcher that holds the steps before them need not read them back.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter, ValidationError

from .model import Entry

__all__ = ["CHANNEL", "MAX_PAYLOAD", "Notice", "payload", "read"]

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
    if any(e.kind == "join" for e in new):  # a new member: a watcher reads the table again
        return head
    full = head + "\n[" + ",".join(texts) + "]"
    return full if len(full.encode()) <= MAX_PAYLOAD else head


def read(text: str) -> Notice:
    """What the payload ``text`` says (a version or entries it does not make out are ``None``)."""
    head, _, body = text.partition("\n")
    table_id, _, number = head.rpartition(" ")
    if not number.isdigit():
        return head, None, None
    entries = None
    if body:
        try:
            entries = _ENTRIES.validate_json(body)
        except ValidationError:
            entries = None
    return table_id, int(number), entries
