"""Where randomness enters: a seed (``None``, an ``int``, a ``numpy.random.Generator`` or a
``random.Random``) becomes the generator each evaluation uses."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Union

from .errors import DiceError
from .i18n import N_

BAD_SEED = N_("seed must be None, an int or a numpy.random.Generator, not {kind}")

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Seed", "numpy_rng", "python_rng"]

Seed = Union[None, int, "np.random.Generator", random.Random]

_default = random.Random()


def python_rng(seed: Seed) -> random.Random:
    """The fast generator of one roll; a numpy ``Generator`` seeds a fresh one with one draw."""
    if seed is None:
        return _default
    if isinstance(seed, random.Random):
        return seed
    if isinstance(seed, int) and not isinstance(seed, bool):
        return random.Random(seed)
    if hasattr(seed, "bit_generator") and hasattr(seed, "integers"):
        return random.Random(int(seed.integers(0, 2**63)))
    raise DiceError(BAD_SEED, kind=type(seed).__name__)


def numpy_rng(seed: Seed) -> np.random.Generator:
    """The numpy generator of bulk sampling."""
    import numpy as np

    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        if isinstance(seed, int) and seed < 0:
            raise DiceError(N_("seed must be a non-negative integer"))
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, random.Random):
        return np.random.default_rng(seed.getrandbits(64))
    raise DiceError(BAD_SEED, kind=type(seed).__name__)
