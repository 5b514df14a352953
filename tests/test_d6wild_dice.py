"""systems/d6wild/dice.py: a character point spent after the roll (spend_character_point)."""

from __future__ import annotations

import pytest
from diceengine.systems import d6wild

import diceengine as de


@pytest.mark.parametrize(("expression", "system"), [("3D", "d6"), ("3D+1 vs 15", "d6"), ("3d6", "standard")])
def test_a_character_point_is_refused_to_a_roll_of_another_system(expression, system):
    # the rules give character points to D6 with the Wild Die only: any other roll gets the engine's error
    roll = de.roll(expression, system=system, seed=1)
    with pytest.raises(de.DiceValueError, match="^only a d6wild roll takes a character point$"):
        d6wild.spend_character_point(roll)
