"""One dice term under mutation (issue 16, third pass): unique dice sampled with a rigged generator, the cap of
explosions ranked die by die, the JSON of kept / dropped / exploded dice, critical and success marks in the
Markdown and HTML texts, the state bound of the exact odds of unique dice. Expected values are worked by hand
from the README's notation section and bounds (``diceengine/limits.py``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import diceengine as de
from diceengine import api
from diceengine.limits import MAX_EXPLOSIONS, MAX_REROLLS

from .helpers import Scripted


class Rigged(np.random.Generator):
    """A numpy generator whose ``integers`` always answers the lowest (or highest) value asked for and records
    each call: a die that keeps clashing, or keeps exploding. Runaway loops stop with an error, not a hang."""

    def __init__(self, high: bool = False) -> None:
        super().__init__(np.random.PCG64(0))
        self.high = high
        self.calls: list[tuple] = []

    def integers(self, low, high=None, size=None, **kwargs):  # type: ignore[override]
        self.calls.append((low, high, size))
        if len(self.calls) > 5 * MAX_EXPLOSIONS:
            raise RuntimeError("runaway loop: the generator was asked too many times")
        value = high - 1 if self.high else low
        return value if size is None else np.full(size, value, dtype=np.int64)


def test_unique_die_clashing_every_time_is_drawn_among_free_faces_after_max_rerolls() -> None:
    """``2d6u`` with a generator always showing 1: the second die is thrown again MAX_REROLLS times (all 1s),
    then drawn among the faces the first die does not show (2..6; the rigged draw picks the first: 2)."""
    gen = Rigged()
    total = de.sample("2d6u", 1, seed=gen)["total"]
    assert total.tolist() == [1 + 2]
    # one draw of both dice, MAX_REROLLS throws of the clashing die, one draw among the free faces
    assert len(gen.calls) == 1 + MAX_REROLLS + 1
    assert gen.calls[-1][:2] == (0, 5)  # 5 free faces


def test_unique_point_die_falls_back_to_faces_not_forbidden() -> None:
    """``3d6u=1``: only 1s must be unique. All throws show 1: the second and the third die each fall back
    (after MAX_REROLLS throws) to the faces other than a 1 already shown, 2..6: the first, 2. Total 1 + 2 + 2."""
    gen = Rigged()
    assert de.sample("3d6u=1", 1, seed=gen)["total"].tolist() == [5]
    assert len(gen.calls) == 1 + 2 * (MAX_REROLLS + 1)


def test_explosions_ranked_per_die_stop_at_max_explosions() -> None:
    """``explosions="dice"``: a die showing 6 every throw explodes MAX_EXPLOSIONS times (README: at most 200
    explosions from one die), so 1 + MAX_EXPLOSIONS sixes, one dropped by ``dl1``."""
    gen = Rigged(high=True)
    total = de.sample("1d6!dl1", 1, seed=gen, explosions="dice")["total"]
    assert total.tolist() == [6 * MAX_EXPLOSIONS]
    assert len(gen.calls) == 1 + MAX_EXPLOSIONS


def _die(value: int, kept: bool = True, exploded: bool = False, added: bool = False,
         critical: str | None = None) -> dict:
    return {"kind": "d6", "sides": 6, "value": value, "kept": kept, "exploded": exploded, "rerolled": False,
            "added": added, "wild": False, "face": None, "label": None, "critical": critical}


def test_json_of_kept_and_dropped_dice() -> None:
    """``3d6kh2`` throwing 6, 2, 3: the 2 is dropped; every die a d6, no critical mark (null)."""
    roll = de.roll("3d6kh2", seed=Scripted([6, 2, 3]))
    assert json.loads(roll.model_dump_json())["dice"] == [_die(6), _die(2, kept=False), _die(3)]


def test_json_of_an_exploding_unit() -> None:
    """``2d6!`` throwing 6, 2, 3: the 6 explodes and adds the 2; the 3 stands alone."""
    roll = de.roll("2d6!", seed=Scripted([6, 2, 3]))
    assert json.loads(roll.model_dump_json())["dice"] == [_die(6, exploded=True), _die(2, added=True), _die(3)]


def test_dice_dropped_when_ranked_one_by_one_keep_their_explosion() -> None:
    """``3d6!dh1`` with ``explosions="dice"`` throwing 6 (explodes: +2), 3, 4: every die ranked on its own, the
    6 is dropped and still shown exploded: ``[~6!~+2, 3, 4] = 9``."""
    roll = de.roll("3d6!dh1", seed=Scripted([6, 2, 3, 4]), explosions="dice")
    first = roll.dice[0]
    assert (first.value, first.kept, first.exploded) == (6, False, True)
    assert (roll.dice[1].value, roll.dice[1].kept, roll.dice[1].added) == (2, True, True)
    assert str(roll) == "3d6!dh1: [~6!~+2, 3, 4] = 9"
    assert json.loads(roll.model_dump_json())["dice"][0] == _die(6, kept=False, exploded=True)


def test_markdown_marks_a_critical_success_bold_italic() -> None:
    """``1d20cs>=19`` throwing 19: a critical success (not the natural maximum) is written ``***19***``."""
    roll = de.roll("1d20cs>=19", seed=Scripted([19], 20))
    assert "***19***" in roll.render("markdown")
    assert 'class="die die-d20 kept critical"' in roll.render("html")


def test_html_marks_successes_of_dice_ranked_one_by_one() -> None:
    """``3d6!kh2>=4`` with ``explosions="dice"`` throwing 6 (explodes: +2), 3, 5: the two highest dice, 6 and 5,
    are kept and each a success (total 2); the 2 and the 3 are dropped."""
    roll = de.roll("3d6!kh2>=4", seed=Scripted([6, 2, 3, 5]), explosions="dice")
    assert roll.outcome.total == 2
    html = roll.render("html")
    assert html.count(" success\">") == 2
    assert ">6!*</span>" in html and ">5*</span>" in html
    assert "\\*" in roll.render("markdown")


def test_exact_odds_of_unique_dice_follow_up_to_max_states() -> None:
    """The exact odds of unique dice follow at most MAX_UNIQUE_STATES (200,000) states: one die of 200,000
    faces is exactly at the bound (one state per face) and still computed, uniform; one more face is refused.
    Through the plan (``api.plan(...).distribution()``): ``de.distribution`` refuses both earlier, on its
    work budget, so the bound of the term itself only shows there."""
    dist = api.plan("1d200000u").distribution()
    probs = np.asarray(dist.probabilities)
    assert len(probs) == 200_000
    assert np.allclose(probs, 1 / 200_000)
    with pytest.raises(de.DiceLimitError) as err:
        api.plan("1d200001u").distribution()
    assert "too many dice for exact odds of unique dice" in str(err.value)
