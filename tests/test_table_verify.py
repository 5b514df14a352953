"""Verification of a table's log (issue 37): a played table verifies; each kind of tampering is caught and its
first step named; a malicious server (a seed changed after a client seed is set, a seed picked among many) is
caught; a long table verified by ``python -m diceengine.cli table verify`` in a fresh process."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from diceengine import table as T
from diceengine.table import provable as P


def played():
    """A table of committed seeds: rolls, a client seed, a secret roll, a re-roll, an undo, a rotation, a reveal,
    the end. Steps: 1 seed, 2-4 joins, 5 roll, 6 client seed, 7 roll, 8 secret, 9 re-roll, 10 undo, 11 roll,
    12 rotation, 13 roll, 14 secret, 15 reveal of 8, 16 end."""
    t, _ = T.new_table("night", "standard", "Ana", ["Kira", "Jax"], provable=True)
    t = T.roll(t, "Kira", "3d6")
    t = T.set_client_seed(t, "Kira", "Kira's own")
    t = T.roll(t, "Kira", "4d6kh3")
    t = T.roll(t, "Ana", "1d20", secret=True)
    t = T.reroll(t, "Kira")
    t = T.undo(t, "Ana")
    t = T.roll(t, "Jax", "2d10+3")
    t = T.rotate_seed(t, "Ana")
    t = T.roll(t, "Kira", "3d6")
    t = T.roll(t, "Ana", "1d100", secret=True)
    t = T.reveal_secret(t, "Ana", 8)
    return T.end_table(t, "Ana")


TABLE = played()
GM_LOG = json.loads(T.export_log(TABLE))
PLAYER_LOG = json.loads(T.export_log(T.view(TABLE, "Kira")))


def test_the_played_table_verifies_whole_as_the_game_master_and_as_a_player():
    assert [e.kind for e in TABLE.log] == ["seed", "join", "join", "join", "roll", "clientseed", "roll", "roll",
                                           "roll", "undo", "roll", "seed", "roll", "roll", "reveal", "end"]
    gm = T.verify(json.dumps(GM_LOG))
    assert gm.complete and gm.checked == 7 and gm.commitments == (TABLE.log[0].commitment, TABLE.log[11].commitment)
    player = T.verify(json.dumps(PLAYER_LOG))
    assert player.ok and player.checked == 6 and player.sealed == 1  # step 14 never revealed
    assert not player.complete


def test_before_the_end_the_last_seed_is_pending():
    report = T.verify(TABLE.model_copy(update={"log": TABLE.log[:-1], "version": 15}))
    assert report.ok and report.pending == 2 and report.checked == 5


def _log(doc):
    return doc["table"]["log"]


def _drop(doc, i):
    del _log(doc)[i - 1]


def _renumbered_drop(doc, i):
    _drop(doc, i)
    for n, e in enumerate(_log(doc), 1):
        e["seq"] = n
        for ref in ("reroll_of", "undoes", "reveals"):
            if e.get(ref) and e[ref] > i:
                e[ref] -= 1
    doc["table"]["version"] -= 1


def _swap(doc, i, j):
    log = _log(doc)
    log[i - 1], log[j - 1] = log[j - 1], log[i - 1]


def _set(i, key, value):
    def tamper(doc):
        entry = _log(doc)[i - 1]
        if callable(value):
            entry[key] = value(entry[key])
        else:
            entry[key] = value
    return tamper


def _die(doc):
    _log(doc)[6]["dice"][0]["value"] = 7 - _log(doc)[6]["dice"][0]["value"]


OTHER_SEED = "ab" * 32
#: (what, the GM's log or a player's, the tampering, the first step named, its kind)
TAMPERINGS = [
    ("a die changed", GM_LOG, _die, 7, "dice"),
    ("an outcome changed", GM_LOG, _set(11, "outcome", lambda o: {**o, "total": o["total"] + 1}), 11, "dice"),
    ("an expression changed", GM_LOG, _set(5, "expression", "3d8"), 5, "dice"),
    ("a step removed", GM_LOG, lambda d: _drop(d, 9), 9, "sequence"),
    ("two steps swapped", GM_LOG, lambda d: _swap(d, 7, 11), 7, "sequence"),
    ("a roll removed and the log renumbered", GM_LOG, lambda d: _renumbered_drop(d, 5), 6, "dice"),
    ("the revealed seed swapped", GM_LOG, _set(16, "revealed", OTHER_SEED), 16, "commitment"),
    ("a roll drawn under another commitment", GM_LOG, _set(13, "commitment", P.commitment_of(OTHER_SEED)), 13,
     "seed"),
    ("a roll's client seed changed", GM_LOG, _set(7, "client_seed", "someone else's"), 7, "client-seed"),
    ("a roll's nonce changed", GM_LOG, _set(11, "nonce", 5), 11, "nonce"),
    ("a derivation version changed", GM_LOG, _set(13, "derivation", 2), 13, "version"),
    ("a secret roll's seal changed", GM_LOG, _set(14, "sealed", "0" * 64), 14, "seal"),
    # the revealed d20's total changed to another face (a fixed face would match one table in twenty)
    ("a reveal that does not match its seal", PLAYER_LOG,
     _set(15, "outcome", lambda o: {**o, "total": o["total"] % 20 + 1}), 15, "reveal"),
    ("a reveal of dice the seed never gave", PLAYER_LOG, _set(8, "sealed", None), 15, "reveal"),
    ("the rotation's commitment replaced", GM_LOG, _set(12, "commitment", P.commitment_of(OTHER_SEED)), 13, "seed"),
    ("a rotation that reveals nothing", GM_LOG, _set(12, "revealed", None), 12, "seed"),
]


@pytest.mark.parametrize(("what", "doc", "tamper", "step", "kind"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_each_tampering_is_caught_and_its_first_step_named(what, doc, tamper, step, kind):
    forged = copy.deepcopy(doc)
    tamper(forged)
    report = T.verify(json.dumps(forged))
    assert not report.ok, what
    assert (report.first.step, report.first.kind) == (step, kind), report.problems


def test_a_broken_seal_and_a_reveal_that_misses_it_are_said_in_words():
    """What a reader is told of the two seal problems (the kind aside): which roll, and which seal."""
    forged = copy.deepcopy(GM_LOG)
    _set(14, "sealed", "0" * 64)(forged)
    assert T.verify(json.dumps(forged)).first == T.Problem(14, "seal", "the secret roll does not match its seal")
    forged = copy.deepcopy(PLAYER_LOG)
    _set(15, "outcome", lambda o: {**o, "total": o["total"] % 20 + 1})(forged)
    assert T.verify(json.dumps(forged)).first == \
        T.Problem(15, "reveal", "the roll revealed does not match the seal of step 8")


@pytest.mark.parametrize("text", ["", "[]", "{}", '{"kind": "diceengine.table", "table": {"log": 3}}',
                                  '{"kind": "diceengine.table", "table": {"log": [], "version": 0}}', b"\xff"])
def test_what_is_not_a_log_is_a_problem_not_a_traceback(text):
    report = T.verify(text)
    assert not report.ok and report.first.kind in ("format", "sequence")


def _malicious_table():
    t, _ = T.new_table("night", "standard", "Ana", ["Kira"], provable=True)
    return T.set_client_seed(t, "Kira", "Kira's own")


def test_a_server_that_changes_its_seed_after_a_client_seed_is_set_is_caught():
    t = _malicious_table()
    honest = t.server_seed

    def first_d20(seed):
        return T.roll(t.model_copy(update={"server_seed": seed}), "Kira", "1d20").log[-1].dice

    swapped = P.new_server_seed()
    while first_d20(swapped) == first_d20(honest):  # the same face (1 in 20) would hide the swap at step 5
        swapped = P.new_server_seed()
    t = t.model_copy(update={"server_seed": swapped})  # the server's own choice, commitment kept
    t = T.roll(t, "Kira", "1d20")
    t = T.roll(t, "Kira", "1d20")
    revealing_its_seed = T.end_table(t, "Ana")
    first = T.verify(T.export_log(revealing_its_seed)).first
    assert (first.step, first.kind) == (revealing_its_seed.version, "commitment")
    revealing_the_committed_one = T.end_table(t.model_copy(update={"server_seed": honest}), "Ana")
    report = T.verify(T.export_log(revealing_the_committed_one))
    assert (report.first.step, report.first.kind) == (5, "dice")  # the first roll after the swap


def test_a_server_that_picks_among_seeds_is_caught():
    t = _malicious_table()
    candidates = [P.new_server_seed() for _ in range(40)]

    def natural_20(seed):
        return T.roll(t.model_copy(update={"server_seed": seed}), "Kira", "1d20").log[-1].outcome["total"]

    picked = max(candidates, key=natural_20)
    cheat = T.roll(t.model_copy(update={"server_seed": picked}), "Kira", "1d20")
    report = T.verify(T.export_log(T.end_table(cheat, "Ana")))
    assert not report.ok and report.first.kind == "commitment"
    # and claiming the pick as a rotation needs a step the log shows, with the rolls before it re-derived
    assert T.verify(T.export_log(T.end_table(T.roll(t, "Kira", "1d20"), "Ana"))).complete


def long_table(steps: int = 300):
    """A table of about ``steps`` steps: rolls, secret rolls, re-rolls, undos, client seeds, a rotation."""
    t, _ = T.new_table("marathon", "standard", "Ana", ["Kira", "Jax", "Lea"], provable=True)
    players = ["Kira", "Jax", "Lea"]
    i = 0
    while t.version < steps:
        who = players[i % 3]
        i += 1
        if i % 17 == 0:
            t = T.set_client_seed(t, who, f"{who}-{i}")
        elif i % 11 == 0:
            t = T.reroll(t, who)
        elif i % 13 == 0:
            t = T.undo(t, "Ana")
        elif i % 7 == 0:
            t = T.roll(t, "Ana", "1d20+2", secret=True)
        elif i == steps // 2:
            t = T.rotate_seed(t, "Ana")
        else:
            t = T.roll(t, who, ["3d6", "4d6kh3", "1d20+5", "2d10!"][i % 4])
    return T.end_table(t, "Ana")


def test_a_long_table_verifies_in_a_fresh_process(tmp_path):
    table = long_table(300)
    kinds = {e.kind for e in table.log}
    assert {"roll", "undo", "clientseed", "seed", "end"} <= kinds and any(e.reroll_of for e in table.log)
    assert any(e.secret for e in table.log) and sum(e.kind == "seed" for e in table.log) == 2
    path = tmp_path / "log.json"
    path.write_text(T.export_log(table), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "diceengine.cli", "table", "verify", str(path), "--json"],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    rolls = sum(e.kind == "roll" for e in table.log)
    assert answer["ok"] and answer["complete"] and answer["checked"] == rolls
    fit = T.fairness(table)  # both: the dice not chosen, and as the exact odds say
    assert (answer["fairness"]["p_value"], answer["fairness"]["rolls"]) == pytest.approx((fit.p_value, fit.rolls))
    forged = json.loads(path.read_text(encoding="utf-8"))
    victim = next(e for e in forged["table"]["log"][150:] if e["kind"] == "roll" and not e["secret"])
    victim["dice"][0]["value"] = victim["dice"][0]["value"] % victim["dice"][0]["sides"] + 1
    path.write_text(json.dumps(forged), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "diceengine.cli", "table", "verify", str(path)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 1 and run.stdout.startswith(f"step {victim['seq']} does not match (dice)")
