"""The settings an AnyDice program may change with ``set``."""

from __future__ import annotations

__all__ = ["Settings"]


class Settings:
    """The settings a program may change with ``set``."""

    __slots__ = ("explode_depth", "max_depth", "order")

    def __init__(self) -> None:
        self.explode_depth = 2
        self.max_depth = 10
        self.order = "highest"

    def key(self) -> tuple[int, int, str]:
        return self.explode_depth, self.max_depth, self.order
