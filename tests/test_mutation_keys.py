"""The keys of accepted mutants (tests/mutation.py): a mutant keeps its key when its function moves to another
module or mutmut renumbers it; another mutation of the same line gets another key."""

from __future__ import annotations

from pathlib import Path

from tests.mutation import Key, format_record, function_of, mutant_key, mutant_keys, parse_record

# diffs as ``mutmut show`` prints them (mutmut 3.8, difflib's unified diff of the function)
D6_DIFF = """\
--- diceengine/systems/d6.py
+++ diceengine/systems/d6.py
@@ -1,4 +1,4 @@
 def circumstance_dice(difficulty: int) -> Code:
     total = difficulty // 5
-    return Code(total, 0)
+    return Code(total, )
"""
MOVED_DIFF = """\
--- diceengine/systems/d6/rules.py
+++ diceengine/systems/d6/rules.py
@@ -3,6 +3,6 @@
 def circumstance_dice(difficulty: int) -> Code:
     # comment added above, the function moved into a package

     total = difficulty // 5
-        return   Code(total, 0)
+        return Code(total,  )
"""
OTHER_DIFF = """\
--- diceengine/systems/d6.py
+++ diceengine/systems/d6.py
@@ -1,4 +1,4 @@
 def circumstance_dice(difficulty: int) -> Code:
     total = difficulty // 5
-    return Code(total, 0)
+    return Code(total, 1)
"""


def test_function_name_has_no_module_path() -> None:
    assert function_of("diceengine.systems.d6.x_circumstance_dice__mutmut_26") == "circumstance_dice"
    assert function_of("diceengine.systems.d6.rules.x_circumstance_dice__mutmut_3") == "circumstance_dice"
    assert function_of("diceengine.systems.d20pool.xǁPoolPlanǁ__init____mutmut_3") == "PoolPlan.__init__"
    assert function_of("diceengine.systems.d20.pool.xǁPoolPlanǁ__init____mutmut_11") == "PoolPlan.__init__"


def test_moved_and_renumbered_mutant_keeps_its_key() -> None:
    here = mutant_key("diceengine.systems.d6.x_circumstance_dice__mutmut_26", D6_DIFF)
    moved = mutant_key("diceengine.systems.d6.rules.x_circumstance_dice__mutmut_3", MOVED_DIFF)
    assert here == Key("circumstance_dice", "return Code(total, 0)", "return Code(total, )")
    assert moved == here


def test_other_mutation_of_the_same_line_does_not_match() -> None:
    one = mutant_key("diceengine.systems.d6.x_circumstance_dice__mutmut_26", D6_DIFF)
    other = mutant_key("diceengine.systems.d6.x_circumstance_dice__mutmut_27", OTHER_DIFF)
    assert other.function == one.function and other.before == one.before
    assert other != one
    # the same mutation in a function of another name is another mutant
    renamed = mutant_key("diceengine.systems.d6.x_circumstance_codes__mutmut_26", D6_DIFF)
    assert renamed != one


def test_identical_mutations_in_one_function_are_numbered_in_source_order() -> None:
    diff = D6_DIFF
    keys = mutant_keys({"m.x_circumstance_dice__mutmut_12": diff, "m.x_circumstance_dice__mutmut_9": diff,
                        "m.x_circumstance_dice__mutmut_10": OTHER_DIFF})
    assert keys["m.x_circumstance_dice__mutmut_9"].function == "circumstance_dice"
    assert keys["m.x_circumstance_dice__mutmut_12"].function == "circumstance_dice [2]"
    assert keys["m.x_circumstance_dice__mutmut_10"].function == "circumstance_dice"
    # renumbered (another mutant added before them): the same keys
    renumbered = mutant_keys({"n.x_circumstance_dice__mutmut_40": diff, "n.x_circumstance_dice__mutmut_37": diff})
    assert renumbered["n.x_circumstance_dice__mutmut_37"] == keys["m.x_circumstance_dice__mutmut_9"]
    assert renumbered["n.x_circumstance_dice__mutmut_40"] == keys["m.x_circumstance_dice__mutmut_12"]


def test_multi_line_mutation() -> None:
    diff = """\
--- a.py
+++ a.py
@@ -1,4 +1,3 @@
 def f(x):
-    return g(x,
-             1)
+    return g(x, 2)
"""
    assert mutant_key("a.x_f__mutmut_1", diff) == Key("f", "return g(x, ⏎ 1)", "return g(x, 2)")


def test_record_round_trip_with_bars_in_the_code() -> None:
    key = Key("WildBattle.step", "tied = a & ~b", "tied = a | ~b")
    line = format_record(key, "equivalent | because")
    assert line == "WildBattle.step | tied = a & ~b | tied = a \\| ~b | equivalent | because"
    assert parse_record(line) == (key, "equivalent | because")
    empty = Key("f", "x = 1", "")
    assert parse_record(format_record(empty, "why")) == (empty, "why")
    # whitespace typed by hand in the file is normalised
    assert parse_record("f |  x  =   1 | x = 2 | why")[0] == Key("f", "x = 1", "x = 2")


def test_stale_records_are_reported() -> None:
    from tests.mutation import stale_records

    kept, changed, gone, elsewhere = (Key("f", "x = 1", "x = 2"), Key("g", "y = 1", "y = 2"),
                                      Key("h", "z = 1", "z = 2"), Key("k", "w = 1", "w = 2"))
    records = [(k, "why") for k in (kept, changed, gone, elsewhere)]
    where = {"f": {"systems/a.py"}, "g": {"systems/a.py"}, "k": {"systems/a.py", "systems/b.py"}}
    stale, unchecked = stale_records(records, {kept}, ["systems/a.py"], where)
    # g's lines are no mutant of a.py any more, h is defined nowhere; k may be b.py's, not run
    assert stale == [changed, gone] and unchecked == 1


def test_the_staged_rules_of_play_are_undecorated_and_unchanged(tmp_path: Path) -> None:
    """mutmut 3 mutates no decorated function: the staging moves each ``@rule(X)`` after its function
    (``name = rule(X)(name)``), and the staged module holds the same rules with the same summaries."""
    import importlib.util

    import diceengine.systems.d6.healing as original

    from tests.mutation import undecorated

    staged = tmp_path / "healing.py"
    staged.write_text(Path(original.__file__).read_text(encoding="utf-8"), encoding="utf-8")
    undecorated(staged)
    text = staged.read_text(encoding="utf-8")
    assert "@rule" not in text and "treat = rule(" in text
    spec = importlib.util.spec_from_file_location("diceengine.systems.d6._staged_healing", staged)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.treat.summary == original.treat.summary  # type: ignore[attr-defined]
