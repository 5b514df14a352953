"""The built-in rulesets, each a plug-in registered through the ``diceengine.systems`` entry points.

``diceengine.systems`` is both this package and the public function of the design card:
``diceengine.systems()`` returns the registered systems by name.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diceengine.registry import System


class _SystemsPackage(types.ModuleType):
    """The package, callable: ``diceengine.systems()`` lists the registered systems."""

    def __call__(self) -> dict[str, System]:
        from diceengine.registry import registered_systems

        return registered_systems()


sys.modules[__name__].__class__ = _SystemsPackage
