"""The table endpoints that read (:mod:`diceengine.web.tables` has those that take a step): the table, its log,
its export, its verification, its luck and its live log, each as the member whose key is given reads them, the
texts of its rolls in the language the request asks for (:func:`~diceengine.web.table_access.reading_language`:
rendered from the stored dice, :func:`diceengine.table.rolls.roll_text`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response, StreamingResponse

from ..i18n import N_
from ..table import Table
from ..table.model import TableId
from ..table.seat import Seat
from .table_access import Key, Lang, Refused, TableState, public
from .table_events import Hub, stream
from .table_models import LogResponse, LuckResponse, MemberResponse, Mismatch, VerifyResponse

__all__ = ["MAX_LOG", "read_routes"]

#: steps returned by one request of the log
MAX_LOG = 10_000


def read_routes(router: APIRouter, tables: TableState, hub: Hub) -> None:
    """Add the reading endpoints of the tables kept by ``tables`` (the live log through ``hub``) to ``router``."""
    _log_routes(router, tables)
    _check_routes(router, tables)
    _events_route(router, tables, hub)


def _log_routes(router: APIRouter, tables: TableState) -> None:
    from ..table import rules as R
    from ..table.rolls import in_language, log_in_language

    @router.get("/{table_id}", response_model=Table)
    async def read_table(table_id: TableId, key: Key, lang: Lang) -> Table:
        """The table as the member reads it: its members, state of play and log."""
        return await tables.seated(table_id, key, lambda seat: log_in_language(public(seat.table()), lang))

    @router.get("/{table_id}/me", response_model=MemberResponse)
    async def me(table_id: TableId, key: Key) -> MemberResponse:
        """Whose key this is: the member's name and role (nothing of the key)."""
        def read(seat: Seat) -> MemberResponse:
            member = seat.table().members[seat.name]
            return MemberResponse(name=member.name, role=member.role)

        return await tables.seated(table_id, key, read)

    @router.get("/{table_id}/log", response_model=LogResponse)
    async def log(table_id: TableId, key: Key, lang: Lang, after: Annotated[int, Query(ge=0)] = 0) -> LogResponse:
        """The steps after ``after``, as the member reads them."""
        def read(seat: Seat) -> LogResponse:
            table = seat.table()
            steps = [in_language(e, lang, table.lang) for e in table.log[after:after + MAX_LOG]]
            return LogResponse(version=table.version, steps=steps)

        return await tables.seated(table_id, key, read)

    @router.get("/{table_id}/export", responses={200: {"content": {"application/json": {}}}})
    async def export(table_id: TableId, key: Key) -> Response:
        """The table and its whole log as the member reads it, as ``dice table verify`` takes it (without the key
        hashes and the seeds, as every answer of the service; its texts as stored, in the table's language)."""
        text = await tables.seated(table_id, key, lambda seat: R.export_log(public(seat.table())))
        return Response(text, media_type="application/json")


def _check_routes(router: APIRouter, tables: TableState) -> None:
    from ..table.verify import verify as verified

    @router.get("/{table_id}/verify", response_model=VerifyResponse)
    async def verify(table_id: TableId, key: Key) -> VerifyResponse:
        """The log as the member reads it, verified by the engine (the same check runs offline)."""
        def read(seat: Seat) -> VerifyResponse:
            report = verified(seat.table())
            return VerifyResponse(ok=report.ok, complete=report.complete, steps=report.steps, checked=report.checked,
                                  sealed=report.sealed, pending=report.pending, legacy=report.legacy,
                                  commitments=list(report.commitments),
                                  problems=[Mismatch(**vars(p)) for p in report.problems])

        return await tables.seated(table_id, key, read)

    @router.get("/{table_id}/luck", response_model=LuckResponse)
    async def luck(table_id: TableId, key: Key) -> LuckResponse:
        """Each member's luck (the mean percentile of their rolls) and the fairness test, over the rolls the
        member may read."""
        return await tables.seated(table_id, key, lambda seat: LuckResponse(luck=seat.luck(), fairness=seat.fairness()))


def _events_route(router: APIRouter, tables: TableState, hub: Hub) -> None:
    @router.get("/{table_id}/events", response_class=StreamingResponse,
                responses={200: {"content": {"text/event-stream": {}},
                                 "description": "server-sent events: each step (`event: step`, `id:` its number, "
                                                "`data:` its JSON as the member reads it)"}})
    async def events(table_id: TableId, key: Key, lang: Lang,
                     after: Annotated[int, Query(ge=0)] = 0,
                     last_event_id: Annotated[str | None, Header()] = None) -> Response:
        """The live log: every step after ``after`` (or the ``Last-Event-ID`` header), then each new one as it is
        stored, by any server process on the same database."""
        start = after
        if last_event_id is not None:
            try:
                start = max(0, int(last_event_id))
            except ValueError:
                raise Refused(400, "value", N_("Last-Event-ID is a step number")) from None
        await tables.read(tables.seat, table_id, key)  # 401 / 404 before the stream begins
        return StreamingResponse(stream(hub, table_id, key, start, lang), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
