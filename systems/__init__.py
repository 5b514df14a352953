"""The built-in rulesets, each a plug-in registered through the ``diceengine.systems`` entry points.

``diceengine.systems`` is both this package and the public function of the design card:
``diceengine.systems()`` returns the registered systems by name.

Modules that moved keep their old import path: :data:`MOVED` maps an old name under this package to the
module that now holds it, and importing the old name gives that very module (not a copy).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diceengine.registry import System


class _SystemsPackage(types.ModuleType):
    """The package, callable: ``diceengine.systems()`` lists the registered systems."""

    def __call__(self) -> dict[str, System]:
        from diceengine.registry import registered_systems

        return registered_systems()


sys.modules[__name__].__class__ = _SystemsPackage

#: old module name under this package -> the module that holds it now (documented import paths keep working)
MOVED: dict[str, str] = {
    "d6_play": "diceengine.systems.d6.play",
    "d6_fight": "diceengine.systems.d6.fight",
    "d6wild_play": "diceengine.systems.d6wild.play",
    "d6wild_fight": "diceengine.systems.d6wild.fight",
    "d20pool_play": "diceengine.systems.d20pool.play",
    "ffg_play": "diceengine.systems.ffg.play",
    "ffg_fight": "diceengine.systems.ffg.fight",
}


class _Moved:
    """Finds a moved module under its old name and gives the module that holds it now (a meta path finder and its
    loader; not derived from ``importlib.abc``, whose import costs a first roll 10 ms)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)  # type: ignore[arg-type]  # a Loader by its methods

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return importlib.import_module(MOVED[spec.name.rpartition(".")[2]])

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module is the one already imported under its new name."""


sys.meta_path.append(_Moved())
