"""numpy, imported on first use: ``from diceengine.lazy import np`` in a module whose rolls need no numpy.

A roll (``de.roll``, ``dice roll``) throws its dice with :mod:`random` and writes its text in plain Python;
numpy (a tenth of a second to import) is for bulk samples and exact odds. A module of the roll path that also
holds sampling or exact code names numpy as ``np`` through this module: the first attribute read (``np.int64``,
``np.zeros``...) imports numpy and keeps the attribute, so later reads cost what a module attribute costs.
For type checkers, ``np`` is numpy itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["np"]

if TYPE_CHECKING:
    import numpy as np
else:

    class _Numpy:
        """Stands for the numpy module until an attribute is read."""

        def __getattr__(self, name: str) -> Any:
            import numpy

            value = getattr(numpy, name)
            setattr(self, name, value)
            return value

        def __repr__(self) -> str:
            return "<numpy, imported on first use>"

    np = _Numpy()
