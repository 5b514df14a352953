"""Committed seeds at the table (issue 37): the derivation frozen by test vectors, the server seed committed, shown
never, revealed at a rotation or the end; client seeds; secret rolls sealed and revealed; refusals."""

from __future__ import annotations

import hashlib
import hmac
import json
import random

import pytest

import diceengine as de
from diceengine import table as T
from diceengine.table import provable as P

SEED = bytes(range(32)).hex()

# computed once by the few lines below, with hashlib and hmac only (also in docs/table.md):
#   hmac.new(bytes(range(32)), b'["diceengine/1","night",5,"my lucky seed",0]', hashlib.sha256).hexdigest()
VECTORS = [
    ("night", 5, "my lucky seed", 0, "8ccf3b4c1e7c658ee2f2ba647375ebbe76a04a564afa42ef4dc469b11b445c24"),
    ("table-ü", 12, "", 3, "c2ce5e1238027bb2c18582d16f9625dd5eedf7d5884342d11af1d9b8489d0d34"),
    ("night", 6, "my lucky seed", 1, "3b32bef1e6267dfa33fc95883264b42517861aefc40884b4a34d0467056053cb"),
]
COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


@pytest.mark.parametrize(("table_id", "step", "client", "nonce", "digest"), VECTORS)
def test_derivation_v1_matches_its_test_vectors(table_id, step, client, nonce, digest):
    assert P.derive(SEED, table_id, step, client, nonce).hex() == digest
    # the same bytes by hand: HMAC-SHA256 keyed by the seed over the JSON array of the inputs
    message = json.dumps(["diceengine/1", table_id, step, client, nonce], ensure_ascii=False,
                         separators=(",", ":")).encode()
    assert hmac.new(bytes.fromhex(SEED), message, hashlib.sha256).hexdigest() == digest


def test_commitment_and_seal_vectors():
    assert P.commitment_of(SEED) == COMMITMENT
    body = ('{"dice":[],"expression":"1d6","member":"Ana","options":{},"outcome":{"total":4},"seq":9,'
            '"system":"standard"}')
    assert P.seal(body, "00112233445566778899aabbccddeeff") == \
        "5d3627fe3491fda411e2c94ba2a71bc65f06d7ae1f0a77125e4fb6c4e1f8eb9f"
    assert P.sealed_body({"seq": 9, "member": "Ana", "expression": "1d6", "system": "standard", "options": {},
                          "dice": [], "outcome": {"total": 4}}) == body


def test_generator_is_a_random_seeded_by_the_digest():
    digest = bytes.fromhex(VECTORS[0][4])
    assert P.generator(digest).random() == 0.9571073343244065  # random.Random(int(digest, 16)).random()


def test_unknown_derivation_is_refused():
    with pytest.raises(T.TableError, match="unknown derivation version"):
        P.derive(SEED, "t", 1, "", 0, version=2)


def _table(**kw):
    return T.new_table("night", "standard", "Ana", ["Kira", "Jax"], provable=True, **kw)[0]


def test_a_roll_draws_its_dice_from_the_derived_generator_through_the_engines_roll():
    table = T.set_client_seed(_table(), "Kira", "my lucky seed")
    seed = table.server_seed
    table = T.roll(table, "Kira", "4d6")
    e = table.log[-1]
    assert (e.commitment, e.client_seed, e.nonce, e.derivation) == (table.commitment, "my lucky seed", 0, 1)
    bare = de.roll("4d6", "standard", seed=random.Random(int(P.derive(seed, "night", e.seq, "my lucky seed", 0)
                                                                 .hex(), 16)))
    assert e.outcome["total"] == bare.outcome.total
    table = T.roll(table, "Kira", "4d6")
    assert table.log[-1].nonce == 1


def test_the_commitment_is_the_first_step_and_the_seed_is_never_shown():
    table = _table()
    assert table.log[0].kind == "seed" and table.log[0].commitment == table.commitment
    assert P.commitment_of(table.server_seed) == table.commitment
    for reader in ("Ana", "Kira", None):
        assert T.view(table, reader).server_seed is None
        assert table.server_seed not in T.view(table, reader).model_dump_json()
    assert table.server_seed not in T.export_log(table)


def test_rotation_reveals_the_old_seed_and_commits_a_new_one():
    table = _table()
    old, old_commitment = table.server_seed, table.commitment
    table = T.rotate_seed(table, "Ana")
    e = table.log[-1]
    assert e.revealed == old and P.commitment_of(e.revealed) == old_commitment
    assert e.commitment == table.commitment != old_commitment
    assert table.server_seed != old


def test_end_reveals_the_seed_and_no_more_dice_are_drawn():
    table = T.roll(_table(), "Kira", "1d6")
    seed = table.server_seed
    table = T.end_table(table, "Ana")
    assert table.log[-1].revealed == seed and table.ended and table.server_seed is None
    with pytest.raises(T.TableError, match="ended"):
        T.roll(table, "Kira", "1d6")
    with pytest.raises(T.TableError, match="ended"):
        T.rotate_seed(table, "Ana")


@pytest.mark.parametrize("op", [lambda t: T.rotate_seed(t, "Kira"), lambda t: T.end_table(t, "Kira"),
                                lambda t: T.reveal_secret(t, "Kira", 5)])
def test_only_the_game_master_rotates_ends_or_reveals(op):
    table = T.roll(_table(), "Ana", "1d6", secret=True)
    with pytest.raises(T.TableAccessError):
        op(table)


@pytest.mark.parametrize("seed", ["", "x" * 129, 7])
def test_a_client_seed_out_of_bounds_is_refused(seed):
    with pytest.raises(T.TableError, match="client seed"):
        T.set_client_seed(_table(), "Kira", seed)


def test_client_seed_refusals_by_name_and_table():
    with pytest.raises(T.TableAccessError):
        T.set_client_seed(_table(), "Nobody", "abc")
    for plain in (T.new_table("t", "standard", "Ana", ["Kira"], provable=False)[0],
                  T.new_table("t", "standard", "Ana", ["Kira"], seed=7)[0]):
        with pytest.raises(T.TableError, match="no committed seed"):
            T.set_client_seed(plain, "Kira", "abc")


def test_a_table_without_a_seed_commits_one_by_default():
    table, _ = T.new_table("t", "standard", "Ana", ["Kira"])
    first = table.log[0]
    assert first.kind == "seed" and first.seq == 1 and first.member == "Ana"
    assert table.commitment == first.commitment == hashlib.sha256(bytes.fromhex(table.server_seed)).hexdigest()
    assert [e.kind for e in table.log] == ["seed", "join", "join"]
    rolled = T.roll(table, "Kira", "1d20").log[-1]
    assert rolled.commitment == table.commitment and rolled.derivation == 1 and rolled.nonce == 0
    # its dice are the ones the documented derivation gives (recomputed here with hmac alone)
    digest = hmac.new(bytes.fromhex(table.server_seed), b'["diceengine/1","t",4,"",0]', hashlib.sha256).digest()
    expected = de.roll("1d20", seed=random.Random(int.from_bytes(digest, "big"))).dice
    assert [d["value"] for d in rolled.dice] == [d.value for d in expected]
    assert T.verify(T.end_table(T.roll(table, "Kira", "1d20"), "Ana")).complete


@pytest.mark.parametrize(("kw", "committed"), [({"seed": 7}, False), ({"provable": False}, False),
                                               ({"seed": None, "provable": False}, False),
                                               ({"seed": 7, "provable": True}, True), ({}, True)])
def test_the_way_out_of_committed_seeds_is_explicit(kw, committed):
    table, _ = T.new_table("t", "standard", "Ana", **kw)
    assert (table.commitment is not None) is committed and (table.log[0].kind == "seed") is committed
    assert (table.server_seed is not None) is committed
    if committed:
        assert table.seed is None  # a committed table draws nothing from a reproducible seed


def test_a_secret_roll_is_sealed_in_public_and_revealed_against_its_seal():
    table = T.roll(_table(), "Ana", "3d6", secret=True)
    e = table.log[-1]
    assert e.sealed == P.seal(P.sealed_body(e), e.salt)
    seen = T.view(table, "Kira").log[-1]
    assert seen.sealed == e.sealed and seen.salt is None and seen.dice is None
    table = T.reveal_secret(table, "Ana", e.seq)
    shown = T.view(table, "Kira").log[-1]
    assert (shown.kind, shown.reveals, shown.dice, shown.salt) == ("reveal", e.seq, e.dice, e.salt)


@pytest.mark.parametrize("seq", [0, 2, 99])
def test_revealing_what_is_not_a_secret_roll_is_refused(seq):
    table = T.roll(_table(), "Kira", "1d6")
    with pytest.raises(T.TableError, match="not a secret roll"):
        T.reveal_secret(table, "Ana", seq)


def test_an_undo_passes_over_the_seed_steps():
    table = T.roll(_table(), "Kira", "1d6")
    table = T.set_client_seed(table, "Kira", "abc")
    table = T.undo(table, "Ana")
    assert table.log[-1].undoes == 5


def test_tables_without_committed_seeds_keep_working():
    a = T.roll(T.new_table("t", "standard", "Ana", seed=7)[0], "Ana", "3d6")
    b = T.roll(T.new_table("t", "standard", "Ana", seed=7)[0], "Ana", "3d6")
    assert a.log[-1].dice == b.log[-1].dice and a.log[-1].derivation is None
    report = T.verify(T.export_log(a))
    assert report.ok and report.legacy == 1 and not report.complete


def test_a_rule_seed_of_a_committed_table_is_derived_and_verified():
    table = T.new_table("night", "ffg", "Ana", ["Kira"], provable=True)[0]
    seed = table.server_seed
    table = T.rule(table, "Ana", "roll_destiny", args={"players": 3})
    e = table.log[-1]
    wanted = random.Random(int(P.derive(seed, "night", e.seq, "", 0).hex(), 16)).getrandbits(63)
    assert e.args["seed"] == wanted
    table = T.end_table(table, "Ana")
    assert T.verify(T.export_log(table)).checked == 1
    forged = json.loads(T.export_log(table))
    forged["table"]["log"][e.seq - 1]["args"]["seed"] = wanted ^ 1
    first = T.verify(json.dumps(forged)).first
    assert (first.step, first.kind) == (e.seq, "rule-seed")


def test_a_stored_table_keeps_its_server_seed_and_its_seats_draw_from_it(where):
    pytest.importorskip("sqlalchemy")
    table, keys = T.new_table("night", "standard", "Ana", ["Kira"], provable=True)
    with T.open_store(where) as store:
        store.create(table)
        seat = store.seat("night", keys["Kira"])
        store.update("night", lambda t: T.set_client_seed(t, "Kira", "mine"))
        rolled = seat.roll("3d6")
        assert (rolled.client_seed, rolled.nonce, rolled.commitment) == ("mine", 0, table.commitment)
        assert table.server_seed not in seat.export_log()
        store.update("night", lambda t: T.end_table(t, "Ana"))
    with T.open_store(where) as store:
        report = T.verify(store.load("night"))
    assert report.complete and report.checked == 1
