"""Tests written for the mutants of ``diceengine/algebra/rerolls.py`` and ``systems/ruleset.py`` (session 36: every
mutant of both judged), each seen failing on the mutant it is for; expected values from an enumeration or the
rule written here."""

from __future__ import annotations

from typing import Any

import pytest
from diceengine.systems.ruleset import Ruleset

from diceengine.algebra import Die
from diceengine.errors import DiceValueError
from diceengine.i18n import translate_error
from diceengine.registry import get_system


def test_a_die_rerolled_on_every_face_is_refused_in_both_languages():
    """Re-rolled until it shows a face not named, a die naming all its faces never stops: the refusal, whole."""
    with pytest.raises(DiceValueError) as info:
        Die.from_weights({1: 1, 2: 1, 3: 1}).reroll([1, 2, 3], depth=None)
    assert str(translate_error(info.value, "en")) == "every face is re-rolled: the die never stops"
    assert str(translate_error(info.value, "fr")) == "chaque face est relancée : le dé ne s'arrête jamais"


def test_the_chance_left_to_a_die_rerolled_until_is_kept_down_to_the_tolerance():
    """A face kept with chance 1.5e-15 still stops the re-rolls (it is then the only face the die shows: its chance
    made whole, 1); a chance of 1e-15 or less of the chance re-rolled (the engine's tolerance for a chance that is
    only rounding) counts as none: refused as a die that never stops."""
    kept = Die.from_weights({1: 1 - 1.5e-15, 2: 1.5e-15}).reroll([1], depth=None)
    assert kept.outcomes() == [2] and kept.pmf.p.tolist() == [1.0]
    for tiny in (1e-15, 5e-16):
        with pytest.raises(DiceValueError, match="^every face is re-rolled"):
            Die.from_weights({1: 1 - tiny, 2: tiny}).reroll([1], depth=None)


def _bare() -> Any:
    class Bare(Ruleset):
        """A plug-in's ruleset with dice only: no state of play, no combat."""

        name = "bare"

        def prepare(self, tree: Any, expression: str, options: Any) -> Any:  # pragma: no cover - never rolled
            raise NotImplementedError

    return Bare()


def test_a_ruleset_without_play_or_combat_modules_has_none():
    """A ruleset names its state of play and its combat by module; one that names none has neither (a table or the
    rules runner then offers no rules of play), while a built-in one imports the module it names."""
    bare = _bare()
    assert bare.rules_of_play() is None and bare.fight_rules() is None
    d20 = get_system("d20pool")
    assert d20.rules_of_play().__name__ == "diceengine.systems.d20pool.play" and d20.fight_rules() is None
