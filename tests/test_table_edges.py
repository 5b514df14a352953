"""The edges of the table's statistics and of its log: a fairness bin expecting exactly the minimum count
(five rolls, docs/table.md: a bin of its own, not pooled), and an imported log whose steps point at themselves or
forward (refused with the engine's message, in English and in French, never a crash)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest

from diceengine import table as T
from diceengine.i18n import translate_error

WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def rolled(expression: str, n: int, seed: int):
    # no committed seed (its step would shift the numbers): each roll has its own reproducible seed
    table, _ = T.new_table("game", "standard", "GM", ["Kira"], seed=None, time=WHEN, provable=False)
    rng = random.Random(seed)
    for _ in range(n):
        table = T.roll(table, "Kira", expression, seed=rng, time=WHEN)
    return table


def test_a_bin_expecting_exactly_the_minimum_stands_alone():
    # 20 rolls of a d4: each face expects 20 / 4 = 5 rolls exactly (MIN_EXPECTED), so each is its own bin
    group = T.fairness(rolled("1d4", 20, 7)).groups[0]
    assert group.bins == [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0), (4.0, 4.0)]
    assert group.expected == [5.0, 5.0, 5.0, 5.0] and group.dof == 3 and group.tested
    assert sum(group.observed) == 20
    assert group.statistic == pytest.approx(sum((o - 5) ** 2 / 5 for o in group.observed))


def test_one_roll_short_of_the_minimum_pools_the_faces():
    # 19 rolls: a face expects 4.75, two faces 9.5: two bins of two faces (the remainder joins the last)
    group = T.fairness(rolled("1d4", 19, 7)).groups[0]
    assert group.bins == [(1.0, 2.0), (3.0, 4.0)]
    assert group.expected == pytest.approx([9.5, 9.5]) and group.dof == 1


def test_too_few_rolls_for_two_bins_are_not_tested():
    # 9 rolls of a d4: two faces expect 4.5, three 6.75: one bin and its remainder, nothing to test
    fit = T.fairness(rolled("1d4", 9, 7))
    group = fit.groups[0]
    assert group.bins == [(1.0, 4.0)] and not group.tested and group.dof == 0 and fit.p_value == 1.0
    # 10 rolls: two faces expect 5 exactly, then the other two: two bins
    group = T.fairness(rolled("1d4", 10, 7)).groups[0]
    assert group.bins == [(1.0, 2.0), (3.0, 4.0)] and group.tested and group.dof == 1


def _document():
    """A log of five steps: two members joining, two rolls, a re-roll of the second (step 5 refers to step 4)."""
    # no committed seed (its step would shift the numbers): each roll has its own reproducible seed
    table, _ = T.new_table("game", "standard", "GM", ["Kira"], seed=None, time=WHEN, provable=False)
    table = T.roll(table, "Kira", "1d6", seed=1, time=WHEN)
    table = T.roll(table, "Kira", "2d6", seed=2, time=WHEN)
    table = T.reroll(table, "Kira", seed=3, time=WHEN)
    document = json.loads(T.export_log(table))
    log = document["table"]["log"]
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5] and log[4]["reroll_of"] == 4
    return document


@pytest.mark.parametrize("field", ["reroll_of", "undoes"])
@pytest.mark.parametrize("step, ref", [(5, 5), (4, 4), (4, 5), (3, 4), (3, 5), (5, 0), (5, -1), (1, 1), (1, 2)])
def test_an_imported_log_pointing_at_itself_or_forward_is_refused(field, step, ref):
    document = _document()
    entry = document["table"]["log"][step - 1]
    for other in ("reroll_of", "undoes"):
        entry[other] = None
    entry[field] = ref
    with pytest.raises(T.TableFormatError) as info:
        T.import_log(json.dumps(document))
    assert info.value.message == f"not a table's log: step {step} refers to step {ref}"
    french = translate_error(info.value, "fr")
    assert french.message == f"ce n'est pas le journal d'une table : step {step} refers to step {ref}"


def test_an_imported_log_pointing_back_reads():
    document = _document()
    document["table"]["log"][4]["reroll_of"] = 3  # step 5 re-rolls step 3 instead: an earlier step, read
    table = T.import_log(json.dumps(document))
    assert table.log[2].rerolled_by == 5 and table.log[3].rerolled_by is None
