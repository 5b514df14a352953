"""What ends a wound in classic D6 (rule text ``000``): treatment by a medpac, a medical droid or a
bacta tank. Part of the state of play (:mod:`diceengine.systems.d6.play`, whose ``RULES`` list it).

The text names the three means and what lasts until treatment, and gives no roll, difficulty or time
for any of them: an incapacitated character « ne peut rien faire du tout tant qu'il n'a pas été
soigné »; a mortally wounded one dies on the 2D « à moins que quelqu'un ne le conduise jusqu'à un Droïd
médical ou à un caisson de régénération, ou encore qu'on le soigne avec un medpac ». The reading here:
treated, the wound ends (back to healthy, no death roll); how long it takes and whether a skill roll
is needed are the game master's, outside the rule (none is invented).
"""

from __future__ import annotations

from typing import Literal

from diceengine.i18n import N_

from ..play import Step, one_of, refuse
from ..rulebook import rule
from .rules import Wound
from .scene import D6Scene, _put, _who

__all__ = ["TREATMENTS", "treat"]

Treatment = Literal["medpac", "medical_droid", "bacta_tank"]
#: the means of treatment text ``000`` names
TREATMENTS = ("medpac", "medical_droid", "bacta_tank")


@rule(N_("A wound treated by a medpac, a medical droid or a bacta tank: it ends (text 000)."))
def treat(state: D6Scene, name: str, means: Treatment = "medpac") -> Step[D6Scene]:
    """A wounded, incapacitated or mortally wounded character treated (text ``000``: « à moins que
    quelqu'un ne le conduise jusqu'à un Droïd médical ou à un caisson de régénération, ou encore qu'on
    le soigne avec un medpac »): the wound ends, and with it the death roll and the -1D. The text gives
    no roll for it. A character wounded this round stays down for the rest of it (« tombe à terre et ne peut
    rien faire pendant le reste de ce round »: the hit's effect, which no treatment undoes). The dead and the
    unhurt (stuns are no wound) are refused."""
    one_of(means, TREATMENTS, "a treatment")
    c = _who(state, name)
    if c.dead:
        raise refuse(N_("{name} is dead"), name=name)
    if c.health < Wound.WOUNDED:
        raise refuse(N_("{name} has no wound to treat"), name=name)
    return Step(_put(state, c, health=Wound.HEALTHY, mortal_round=None))
