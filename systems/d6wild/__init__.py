"""The ``d6wild`` ruleset (moved here; the guide to the package comes with its reorganisation)."""

from . import system as _system

# every name of the former module, as it was importable (the explicit list comes with the reorganisation)
globals().update({k: v for k, v in vars(_system).items() if not k.startswith("__")})
__all__ = _system.__all__
