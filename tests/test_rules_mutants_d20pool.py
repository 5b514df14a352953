"""The d20 success pool (rule text ``001``): behaviour that the mutation run of ``systems/d20pool`` found
untested."""

from __future__ import annotations

from diceengine.systems.d20pool import play

from tests.helpers import refused
from tests.test_d20pool_play_experience import party


def test_a_specialisation_already_held_is_refused_by_name():
    """« Choisir une nouvelle spécialité »: one the character does not have yet; the refusal says which."""
    refused(play.new_specialisation, party(), "Kael", "Natation",
            match=r"^Kael already has the specialisation 'Natation'$")
