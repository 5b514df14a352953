"""Every refusal of the table's rules says what the catalogues say, in English and in French, with the values it
names; and the edges of what a rule accepts (a name, an id, a client seed): tests written against mutants the table
tests let through (issue 38), each message written here from the catalogue (diceengine/locale)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from diceengine import table as T
from diceengine.errors import DiceError
from diceengine.i18n import translate_error
from diceengine.table.aliases import roll_saved, save_roll
from diceengine.table.model import check_name, check_table_id


def tables() -> tuple[T.Table, T.Table]:
    """A seeded table of the standard system (GM, Kira) and a table of committed seeds with the same members."""
    seeded, _ = T.new_table("t1", "standard", "GM", ["Kira"], seed=7)
    provable, _ = T.new_table("p1", "standard", "GM", ["Kira"], provable=True)
    return seeded, provable


t, p = tables()
NOT_A_LOG, NOT_A_LOG_FR = "not a table's log: ", "ce n'est pas le journal d'une table : "


def exported(**changed: Any) -> str:
    """The log of the seeded table exported, the fields ``changed`` of its document changed (``table_X``: the
    table's field X)."""
    document = json.loads(T.export_log(t))
    for field, value in changed.items():
        if field.startswith("table_"):
            document["table"][field[len("table_"):]] = value
        else:
            document[field] = value
    return json.dumps(document)


REFUSALS: list[tuple[str, Callable[[], Any], type[Exception], str, str]] = [
    ("role", lambda: T.join(t, "Jax", "boss"), T.TableError,
     "a member is a 'gm' or a 'player', not 'boss'", "un membre est un 'gm' (meneur) ou un 'player' (joueur), pas 'boss'"),
    ("blank name", lambda: T.join(t, "  "), T.TableError,
     "a member's name is 1 to 100 characters, not '  '", "le nom d'un membre fait de 1 à 100 caractères, pas '  '"),
    ("long name", lambda: T.join(t, "x" * 101), T.TableError,
     f"a member's name is 1 to 100 characters, not '{'x' * 101}'",
     f"le nom d'un membre fait de 1 à 100 caractères, pas '{'x' * 101}'"),
    ("joined twice", lambda: T.join(t, "Kira"), T.TableError,
     "'Kira' is already a member of this table", "'Kira' est déjà membre de cette table"),
    ("removes another", lambda: T.remove_member(t, "Kira", "GM"), T.TableAccessError,
     "only the game master may remove another member", "seul le meneur de jeu retire un autre membre"),
    ("only game master", lambda: T.remove_member(t, "GM", "GM"), T.TableError,
     "'GM' is the table's only game master and cannot be removed",
     "'GM' est le seul meneur de jeu de la table et ne peut être retiré"),
    ("another's key", lambda: T.rotate_key(t, "Kira", "GM"), T.TableAccessError,
     "only the game master may change another member's key", "seul le meneur de jeu change la clé d'un autre membre"),
    ("wrong key", lambda: T.authenticate(t, "nope"), T.TableAccessError,
     "no member of this table has that key", "aucun membre de cette table n'a cette clé"),
    ("not a member", lambda: T.remove_member(t, "GM", "Zed"), T.TableAccessError,
     "'Zed' is not a member of this table (members: GM, Kira)",
     "'Zed' n'est pas membre de cette table (membres : GM, Kira)"),
    ("scene as a mapping", lambda: T.new_table("t2", "standard", "GM", scene={"a": 1}, seed=1), T.TableError,
     "a scene is given as an instance of a state class of the rules of play",
     "une scène se donne comme une instance d'une classe d'état des règles de jeu"),
    ("flip none", lambda: T.flip(t, "GM", "a", "b", 0), T.TableError,
     "flip at least one token, not 0", "retournez au moins un jeton, pas 0"),
    ("flip to itself", lambda: T.flip(t, "GM", "a", "a", 1), T.TableError,
     "a token flips from one pool to another, not to a itself", "un jeton passe d'une réserve à une autre, pas à a elle-même"),
    ("adjust by a fraction", lambda: T.adjust(t, "GM", "gold", 1.5), T.TableError,
     "a pool changes by a whole number, not 1.5", "une réserve change d'un nombre entier, pas 1.5"),
    ("pool path", lambda: T.adjust(t, "GM", "a..b", 1), T.TableError,
     "a pool is named by a path such as destiny.light, not 'a..b'",
     "une réserve se nomme par un chemin comme destiny.light, pas 'a..b'"),
    ("order twice", lambda: T.set_order(t, "GM", ["A", "A"]), T.TableError,
     "an initiative order names each one once", "un ordre d'initiative nomme chacun une fois"),
    ("order by a player", lambda: T.set_order(t, "Kira", ["A"]), T.TableAccessError,
     "only the game master may set the initiative order", "seul le meneur de jeu fixe l'ordre d'initiative"),
    ("no order", lambda: T.next_turn(t, "GM"), T.TableError,
     "there is no initiative order yet", "il n'y a pas encore d'ordre d'initiative"),
    ("nothing to undo", lambda: T.undo(t, "GM"), T.TableError,
     "there is no step to undo", "il n'y a aucune étape à annuler"),
    ("undo by a player", lambda: T.undo(t, "Kira"), T.TableAccessError,
     "only the game master may undo a step", "seul le meneur de jeu annule une étape"),
    ("client seed, no commitment", lambda: T.set_client_seed(t, "Kira", "abc"), T.TableError,
     "this table has no committed seed: a client seed would not change its dice",
     "cette table n'a pas de graine engagée : une graine client ne changerait pas ses dés"),
    ("client seed too long", lambda: T.set_client_seed(p, "Kira", "x" * 129), T.TableError,
     "a client seed is 1 to 128 characters", "une graine client a de 1 à 128 caractères"),
    ("client seed empty", lambda: T.set_client_seed(p, "Kira", ""), T.TableError,
     "a client seed is 1 to 128 characters", "une graine client a de 1 à 128 caractères"),
    ("reveal by a player", lambda: T.reveal_secret(p, "Kira", 1), T.TableAccessError,
     "only the game master may reveal a secret roll", "seul le meneur de jeu peut révéler un jet secret"),
    ("reveal a join", lambda: T.reveal_secret(p, "GM", 1), T.TableError,
     "step 1 is not a secret roll", "l'étape 1 n'est pas un jet secret"),
    ("seed rotated by a player", lambda: T.rotate_seed(p, "Kira"), T.TableAccessError,
     "only the game master may rotate the server seed", "seul le meneur de jeu peut renouveler la graine serveur"),
    ("ended by a player", lambda: T.end_table(p, "Kira"), T.TableAccessError,
     "only the game master may end the table", "seul le meneur de jeu peut terminer la table"),
    ("name with a line break", lambda: check_name("a\nb"), T.TableError,
     ("a name is 1 to 100 characters, not blank, without control characters (such as NUL or a line break), "
     "not 'a\\nb'"),
     ("un nom a de 1 à 100 caractères, n'est pas vide et n'a pas de caractère de contrôle (tel que NUL ou un saut "
     "de ligne), pas 'a\\nb'")),
    ("empty id", lambda: check_table_id(""), T.TableError,
     "a table's id is 1 to 200 characters without control characters (such as NUL or a line break), not ''",
     ("l'identifiant d'une table a de 1 à 200 caractères sans caractère de contrôle (tel que NUL ou un saut de "
     "ligne), pas ''")),
    ("id with a NUL", lambda: check_table_id("a\x00"), T.TableError,
     "a table's id is 1 to 200 characters without control characters (such as NUL or a line break), not 'a\\x00'",
     ("l'identifiant d'une table a de 1 à 200 caractères sans caractère de contrôle (tel que NUL ou un saut de "
     "ligne), pas 'a\\x00'")),
    ("no kind", lambda: T.import_log(json.dumps({"kind": "x"})), T.TableFormatError,
     NOT_A_LOG + "no 'kind': 'diceengine.table'", NOT_A_LOG_FR + "no 'kind': 'diceengine.table'"),
    ("a list", lambda: T.import_log("[1]"), T.TableFormatError,
     NOT_A_LOG + "no 'kind': 'diceengine.table'", NOT_A_LOG_FR + "no 'kind': 'diceengine.table'"),
    ("not JSON", lambda: T.import_log("{nope"), T.TableFormatError,
     NOT_A_LOG + "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
     NOT_A_LOG_FR + "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("document's format", lambda: T.import_log(exported(format=99)), T.TableFormatError,
     "a table's log of format 99; this version reads format 1", "un journal de table au format 99 ; cette version lit le format 1"),
    ("table's format", lambda: T.import_log(exported(table_format=99)), T.TableFormatError,
     "a table's log of format 99; this version reads format 1", "un journal de table au format 99 ; cette version lit le format 1"),
    ("version past the steps", lambda: T.import_log(exported(table_version=5)), T.TableFormatError,
     NOT_A_LOG + "version 5 with 2 steps", NOT_A_LOG_FR + "version 5 with 2 steps"),
    ("a field's type", lambda: T.import_log(exported(table_system=5)), T.TableFormatError,
     NOT_A_LOG + "system: Input should be a valid string", NOT_A_LOG_FR + "system: Input should be a valid string"),
    ("nothing to re-roll", lambda: T.reroll(t, "Kira"), T.TableError,
     "Kira has no roll to re-roll", "Kira n'a aucun jet à relancer"),
    ("fairness test", lambda: T.fairness(t, method="z"), DiceError,
     "the fairness test is 'chi2' or 'g', not 'z'", "le test d'équité est 'chi2' ou 'g', pas 'z'"),
    ("no rules of play", lambda: T.rule(t, "GM", "nope"), T.TableError,
     "the system standard has no rules of play", "le système standard n'a pas de règles de jeu"),
    ("saved roll's name", lambda: save_roll(t, "Kira", "bad name!", "1d6"), T.TableError,
     "a saved roll's name is a word of at most 40 letters, digits, - or _, not 'bad name!'",
     "le nom d'un jet enregistré est un mot d'au plus 40 lettres, chiffres, - ou _, pas 'bad name!'"),
    ("no saved roll", lambda: roll_saved(t, "Kira", "nope"), T.TableError,
     "no saved roll named 'nope' (saved: none)", "aucun jet enregistré nommé 'nope' (enregistrés : none)"),
    ("none to forget", lambda: save_roll(t, "Kira", "atk", None), T.TableError,
     "no saved roll named 'atk'", "aucun jet enregistré nommé 'atk'"),
    ("not a state", lambda: T.add_character(t, "GM", None), T.TableError,  # type: ignore[arg-type]
     "'NoneType' is not a state of play of this table's system", "'NoneType' n'est pas un état de jeu du système de cette table"),
    ("no character", lambda: T.state_of(t, "Zed"), T.TableError,
     "no character named 'Zed' at this table (known: none)", "aucun personnage nommé 'Zed' à cette table (connus : none)"),
]


@pytest.mark.parametrize(("what", "call", "error", "english", "french"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_refusal_says_the_catalogues_words(what: str, call: Callable[[], Any], error: type[Exception],
                                                english: str, french: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert caught.value.message == english  # type: ignore[attr-defined]
    assert translate_error(caught.value, "fr").message == french  # type: ignore[arg-type]


def test_the_edges_a_rule_accepts() -> None:
    seeded, provable = tables()
    assert check_name("x" * 100) == "x" * 100 and check_name(" a ") == " a "
    assert check_table_id("i" * 200) == "i" * 200
    with pytest.raises(T.TableError):
        check_table_id("i" * 201)
    with pytest.raises(T.TableError):
        check_name("x" * 101)
    for seed in ("x", "y" * 128):  # one character and the most
        after = T.set_client_seed(provable, "Kira", seed)
        assert after.client_seeds == {"Kira": seed} and after.log[-1].client_seed == seed
    joined, key = T.join(seeded, "y" * 100, "gm")
    assert joined.members["y" * 100].role == "gm" and T.authenticate(joined, key) == "y" * 100


def test_a_game_master_rotates_a_players_key_not_their_own() -> None:
    table, keys = T.new_table("t3", "standard", "GM", ["Kira"], seed=3)
    after, new = T.rotate_key(table, "GM", "Kira")
    assert T.authenticate(after, new) == "Kira" and T.authenticate(after, keys["GM"]) == "GM"
    with pytest.raises(T.TableAccessError):
        T.authenticate(after, keys["Kira"])
    entry = after.log[-1]
    assert (entry.kind, entry.member, entry.target) == ("rekey", "GM", "Kira")


def test_a_notice_of_two_entries_reads_back_both() -> None:
    """A step that stores two entries at once (an import, a store's catch-up) notifies both, in order."""
    from diceengine.table.notices import payload, read

    table, _ = T.new_table("t1", "ffg", "GM", players=["Kira"], seed=5)
    table = T.roll(T.roll(table, "Kira", "2a1p vs 2d"), "GM", "1d6", system="standard")
    new = list(table.log[-2:])
    text = payload(table.id, table.version, new, [e.model_dump_json(exclude={"rerolled_by", "undone_by"}) for e in new])
    assert read(text) == ("t1", table.version, new)


def test_a_revealed_roll_sealed_with_dice_the_seed_never_gave_is_named() -> None:
    """A server that seals a forged secret roll (its seal matches the forged reveal) is caught when the reveal's
    dice are recomputed from the revealed seed: the reveal's step, kind ``dice``, and why."""
    import copy

    from diceengine.table import provable as P

    from .test_table_verify import PLAYER_LOG

    forged = copy.deepcopy(PLAYER_LOG)
    log = forged["table"]["log"]
    reveal, secret = log[14], log[7]  # step 15 reveals the secret d20 of step 8
    reveal["outcome"] = {**reveal["outcome"], "total": reveal["outcome"]["total"] % 20 + 1}  # always another face
    secret["sealed"] = P.seal(P.sealed_body({**reveal, "seq": 8, "member": secret["member"]}), reveal["salt"])
    report = T.verify(json.dumps(forged))
    assert report.problems == (T.Problem(15, "dice", "the roll revealed (step 8): its outcome is not the one its "
                                                     "dice give"),)


def test_a_database_that_stays_locked_is_a_step_not_stored_naming_its_table(tmp_path: Any) -> None:
    from sqlalchemy import exc

    store = T.open_store(str(tmp_path / "t.sqlite"))
    try:
        locked = exc.OperationalError("UPDATE dice_tables ...", {}, Exception("database is locked\nmore"))
        refused = store.refusal("night", 3, locked)
        assert isinstance(refused, T.TableConflict)
        assert refused.message == "the step on the table 'night' was not stored (database is locked)"
        taken = store.refusal("night", 3, exc.IntegrityError("INSERT ...", {}, Exception("UNIQUE constraint failed")))
        assert taken.message == "the table 'night' moved on while this step was taken on version 3: nothing was stored"
    finally:
        store.close()


def test_a_table_error_located_in_an_expression_keeps_its_words() -> None:
    """``at`` (DiceError's contract: the same error located in ``expression`` at ``column``), for the table's
    errors whose own signature has no location."""
    located = T.TableError(N_no_pool, pool="gold", known="none").at("1d6 + gold", 6)
    assert (located.template, located.params) == (N_no_pool, {"pool": "gold", "known": "none"})
    assert (located.message, located.expression, located.column) == ("no pool gold at this table (its pools: none)",
                                                                      "1d6 + gold", 6)
    assert str(located) == "no pool gold at this table (its pools: none)\n  1d6 + gold\n        ^"  # the caret under g
    assert translate_error(located, "fr").message == "pas de réserve gold à cette table (ses réserves : none)"


N_no_pool = "no pool {pool} at this table (its pools: {known})"


def test_a_seat_rolls_with_the_systems_options(tmp_path: Any) -> None:
    """The options of a roll (here D6's tie option) reach the step a seat takes, as they reach the table's rule."""
    store = T.open_store(str(tmp_path / "t.sqlite"))
    try:
        table, keys = T.new_table("t4", "d6", "GM", ["Kira"], seed=11)
        store.create(table)
        seat = T.Seat(store, "t4", keys["Kira"])
        entry = seat.roll("2D vs 2D", tie="opponent")
        assert entry.options == {"tie": "opponent"} and store.load("t4").log[-1].options == {"tie": "opponent"}
    finally:
        store.close()


def test_undoing_a_reroll_clears_the_first_rolls_mark() -> None:
    table, _ = T.new_table("t5", "standard", "GM", ["Kira"], seed=5)
    table = T.reroll(T.roll(table, "Kira", "1d20"), "Kira")
    first, again = table.log[-2], table.log[-1]
    assert (first.rerolled_by, again.reroll_of) == (again.seq, first.seq)
    undone = T.undo(table, "GM")
    assert undone.log[first.seq - 1].rerolled_by is None and undone.log[again.seq - 1].undone_by == undone.version
    assert T.import_log(T.export_log(undone)).log[first.seq - 1].rerolled_by is None  # derived again, the same
