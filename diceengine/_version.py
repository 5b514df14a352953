"""The engine's version (the package's, as pyproject.toml gives it)."""

__version__ = "0.1.0"
