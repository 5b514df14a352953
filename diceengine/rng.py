"""Where randomness enters: a seed (``None``, an ``int``, a ``numpy.random.Generator`` or a
``random.Random``) becomes the generator each evaluation uses."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Union

from .errors import DiceError, DiceLimitError
from .i18n import N_
from .limits import MAX_SAMPLE

BAD_SEED = N_("seed must be None, an int or a numpy.random.Generator, not {kind}")

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Seed", "numpy_rng", "python_rng", "sample_size"]

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


def sample_size(n: int, dice: int = 1) -> int:
    """``n`` if it is a number of rolls a sample of ``dice`` dice a roll takes, or the engine's error (every sample
    of the engine, the algebra's and a distribution's asks this)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise DiceError(N_("the number of rolls must be a non-negative integer, not {n}"), n=repr(n))
    most = MAX_SAMPLE // max(1, dice)
    if n > most:
        raise DiceLimitError(N_("too many rolls in one sample: {n} (at most {max_sample})"), n=n, max_sample=most)
    return n
