"""Verification of a table's log, offline: every die of every step recomputed from the revealed server seeds and
the recorded inputs (:mod:`diceengine.table.provable`), every commitment and seal checked, the first step that
does not match named."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from .logfile import LOG_KIND
from .model import Entry, Table
from .provable import KNOWN_DERIVATIONS, RULE_CLIENT_SEED, commitment_of, derive, generator, seal, sealed_body

__all__ = ["Problem", "Report", "verify"]


@dataclass(frozen=True)
class Problem:
    """A step that does not match: its number (``None``: the log as a whole), the ``kind`` of mismatch (a short
    English code: ``sequence``, ``dice``, ``commitment``, ``seed``, ``client-seed``, ``nonce``, ``version``,
    ``seal``, ``reveal``, ``after-end``, ``rule-seed``, ``format``) and what was found."""

    step: int | None
    kind: str
    detail: str


@dataclass(frozen=True)
class Report:
    """What verification found: the ``problems`` (the first names the first step that does not match), the
    steps ``checked`` (their dice recomputed and equal), and what could not be checked: ``sealed`` secret rolls
    unreadable in this log and never revealed, ``pending`` steps whose server seed is not revealed yet,
    ``legacy`` rolls not drawn from a committed seed. ``commitments``: the commitments in the order of the log
    (compare the first with the one the table showed you)."""

    steps: int
    problems: tuple[Problem, ...] = ()
    checked: int = 0
    sealed: int = 0
    pending: int = 0
    legacy: int = 0
    commitments: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """No step tampered with."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """No step tampered with, and every die of the log checked."""
        return self.ok and not (self.sealed or self.pending or self.legacy)

    @property
    def first(self) -> Problem | None:
        """The first step that does not match."""
        return self.problems[0] if self.problems else None


@dataclass
class _Walk:
    """The state of the log as verification walks it."""

    in_force: str | None = None
    ended: bool = False
    seeds: dict[str, str] = field(default_factory=dict)
    clients: dict[str, str] = field(default_factory=dict)
    nonces: dict[str, int] = field(default_factory=dict)
    commitments: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    drawn: list[tuple[Entry, str]] = field(default_factory=list)

    def problem(self, step: int | None, kind: str, detail: str) -> None:
        self.problems.append(Problem(step, kind, detail))


def _table(log: str | bytes | Table) -> tuple[Table | None, Problem | None]:
    if isinstance(log, Table):
        return log, _sequence(log.model_dump(mode="json")["log"], log.version)
    try:
        document = json.loads(log)
        data = document["table"] if document.get("kind") == LOG_KIND else None
        if not isinstance(data, dict) or not isinstance(data.get("log"), list):
            return None, Problem(None, "format", "not a table's log")
        found = _sequence(data["log"], data.get("version"))
        return Table.model_validate(data), found
    except (ValueError, TypeError, AttributeError, KeyError) as err:
        return None, Problem(None, "format", f"not a table's log: {err}")
    except ValidationError as err:
        first = err.errors()[0]
        return None, Problem(None, "format", f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}")


def _sequence(entries: list[Any], version: Any) -> Problem | None:
    for i, e in enumerate(entries, 1):
        seq = e.get("seq") if isinstance(e, dict) else None
        if seq != i:
            return Problem(i, "sequence", f"step {seq} where step {i} was due (a step removed or moved)")
    if version != len(entries):
        return Problem(len(entries) + 1, "sequence", f"version {version} with {len(entries)} steps")
    return None


def _revealed(w: _Walk, e: Entry) -> None:
    if e.revealed is None:
        if w.in_force is not None:
            w.problem(e.seq, "seed", "a new seed committed without revealing the one in force")
        return
    if w.in_force is None:
        w.problem(e.seq, "seed", "a seed revealed where none was committed")
    elif len(e.revealed) != 64 or commitment_of(e.revealed) != w.in_force:
        w.problem(e.seq, "commitment", f"the seed revealed does not match the commitment {w.in_force}")
    else:
        w.seeds[w.in_force] = e.revealed


def _drawn(w: _Walk, e: Entry) -> None:
    if e.derivation is None:
        if w.in_force is not None:
            w.problem(e.seq, "seed", "a roll of a committed table without its derivation inputs")
        return
    if e.derivation not in KNOWN_DERIVATIONS:
        w.problem(e.seq, "version", f"derivation version {e.derivation!r} is unknown")
        return
    if e.commitment != w.in_force:
        w.problem(e.seq, "seed", f"drawn under commitment {e.commitment}, the one in force is {w.in_force}")
    elif e.client_seed != w.clients.get(e.member, ""):
        w.problem(e.seq, "client-seed", f"client seed {e.client_seed!r}, {e.member}'s is "
                                        f"{w.clients.get(e.member, '')!r}")
    elif e.nonce != w.nonces.get(e.member, 0):
        w.problem(e.seq, "nonce", f"nonce {e.nonce!r} where {w.nonces.get(e.member, 0)} was due")
    w.nonces[e.member] = w.nonces.get(e.member, 0) + 1
    w.drawn.append((e, w.in_force or ""))


def _walk(w: _Walk, e: Entry) -> None:
    if w.ended and e.kind in ("roll", "seed", "clientseed", "end"):
        w.problem(e.seq, "after-end", f"a step of kind {e.kind} after the table ended")
    if e.kind == "seed":
        _revealed(w, e)
        w.in_force, w.nonces = e.commitment, {}
        w.commitments.append(e.commitment or "")
    elif e.kind == "end":
        _revealed(w, e)
        w.ended = True
    elif e.kind == "clientseed":
        w.clients[e.member] = e.client_seed or ""
        w.nonces[e.member] = 0
    elif e.kind == "roll":
        _drawn(w, e)
    elif e.kind == "rule" and w.in_force is not None and "seed" in e.args:
        w.drawn.append((e, w.in_force))


def _recompute(table: Table, e: Entry, seed: str) -> str | None:
    """Why the roll ``e`` does not match its dice derived from ``seed`` (``None``: it does)."""
    from .rolls import thrown

    assert e.expression is not None and e.system is not None
    try:
        digest = derive(seed, table.id, e.seq, e.client_seed or "", e.nonce or 0, e.derivation or 1)
        _, outcome, dice = thrown(e.expression, e.system, generator(digest), table.lang, dict(e.options))
    except Exception as err:  # noqa: BLE001 - any failure to roll the recorded expression is a mismatch
        return f"the recorded roll cannot be rolled again: {err}"
    if dice != e.dice:
        return "its dice are not the ones its seed gives"
    if outcome != e.outcome:
        return "its outcome is not the one its dice give"
    return None


def _check(table: Table, w: _Walk, e: Entry, commitment: str) -> int:
    seed = w.seeds.get(commitment)
    if seed is None:
        return 0
    if e.kind == "rule":
        wanted = generator(derive(seed, table.id, e.seq, RULE_CLIENT_SEED, 0)).getrandbits(63)
        if e.args.get("seed") != wanted:
            w.problem(e.seq, "rule-seed", "the rule's seed is not the one the server seed gives")
        return 1
    if e.expression is None:
        return 0
    why = _recompute(table, e, seed)
    if why is not None:
        w.problem(e.seq, "dice", why)
    elif e.secret and (e.salt is None or seal(sealed_body(e), e.salt) != e.sealed):
        w.problem(e.seq, "seal", "the secret roll does not match its seal")
    return 1


def _reveals(table: Table, w: _Walk) -> int:
    """Check each reveal against its seal, and recompute the dice of a roll this log shows only by its reveal;
    returns how many were recomputed."""
    checked = 0
    for e in table.log:
        if e.kind != "reveal":
            continue
        rolled = table.log[e.reveals - 1] if e.reveals is not None and 1 <= e.reveals < e.seq else None
        if rolled is None or rolled.kind != "roll" or not rolled.secret or rolled.sealed is None:
            w.problem(e.seq, "reveal", f"step {e.reveals} is not a sealed secret roll")
            continue
        body = sealed_body({**e.model_dump(mode="json"), "seq": rolled.seq, "member": rolled.member})
        if seal(body, e.salt or "") != rolled.sealed:
            w.problem(e.seq, "reveal", f"the roll revealed does not match the seal of step {rolled.seq}")
            continue
        seed = w.seeds.get(rolled.commitment or "")
        if seed is not None and rolled.expression is None:
            why = _recompute(table, rolled.model_copy(update=dict(e.model_dump(include={
                "expression", "system", "options", "dice", "outcome"}))), seed)
            if why is not None:
                w.problem(e.seq, "dice", f"the roll revealed (step {rolled.seq}): {why}")
            checked += 1
    return checked


def verify(log: str | bytes | Table) -> Report:
    """Verify a table's log (the JSON of :func:`~diceengine.table.export_log`, or a :class:`Table`) offline:
    recompute every die from the revealed seeds and the recorded inputs, check every commitment, seal and
    reveal; the report names the first step that does not match."""
    table, found = _table(log)
    if table is None:
        return Report(steps=0, problems=(found,) if found else ())
    w = _Walk()
    if found is not None:
        w.problems.append(found)
    for e in table.log:
        _walk(w, e)
    checked = sealed = pending = 0
    for e, commitment in w.drawn:
        n = _check(table, w, e, commitment)
        checked += n
        pending += commitment not in w.seeds
        sealed += n == 0 and commitment in w.seeds and e.kind == "roll"
    checked += _reveals(table, w)
    revealed = {e.reveals for e in table.log if e.kind == "reveal"}
    sealed -= sum(1 for e, c in w.drawn if e.seq in revealed and c in w.seeds and e.expression is None)
    legacy = sum(1 for e in table.log if e.kind == "roll" and e.derivation is None)
    problems = tuple(sorted(w.problems, key=lambda p: (p.step is not None, p.step or 0)))
    return Report(steps=len(table.log), problems=problems, checked=checked, sealed=sealed, pending=pending,
                  legacy=legacy, commitments=tuple(w.commitments))
