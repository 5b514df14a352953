"""The d20 success pool (rule text ``001``): behaviour that the mutation run of ``systems/d20pool`` found
untested."""

from __future__ import annotations

import pytest
from diceengine.systems.d20pool import play
from diceengine.systems.d20pool.rules import build_check, xp_cost

from diceengine.errors import DiceValueError
from tests.helpers import refused
from tests.test_d20pool_play_experience import party


def test_a_specialisation_already_held_is_refused_by_name():
    """« Choisir une nouvelle spécialité »: one the character does not have yet; the refusal says which."""
    refused(play.new_specialisation, party(), "Kael", "Natation",
            match=r"^Kael already has the specialisation 'Natation'$")


@pytest.mark.parametrize("call, english, french", [
    (lambda: build_check(99, 1, 1), "an attribute is 0 to 13, not 99", "un attribut va de 0 à 13, pas 99"),
    (lambda: build_check(5, 1, 1, impulsion_dice=9), "at most 3 extra dice, bought with Impulsion or Menace",
     "au plus 3 dés supplémentaires, achetés avec l'Impulsion ou la Menace"),
    (lambda: xp_cost("luck"), ("unknown improvement 'luck' (known: attribute, discipline, new_specialisation, "
     "change_specialisation, impulsion)"), ("amélioration inconnue 'luck' (connues : attribute, discipline, "
     "new_specialisation, change_specialisation, impulsion)")),
])
def test_the_pools_refusals_are_in_the_catalogues(call, english: str, french: str) -> None:
    # they were f-strings, never translated (found by h5's mutation run)
    from diceengine.i18n import translate_error

    with pytest.raises(DiceValueError) as info:
        call()
    assert info.value.message == english
    assert translate_error(info.value, "fr").message == french
