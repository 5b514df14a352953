"""The ``standard`` system: standard dice notation (Roll20 / avrae's d20)."""

from .system import ArithmeticPlan, CriticalOutcome, CriticalPlan, StandardOutcome, StandardPlan, StandardSystem

__all__ = ["ArithmeticPlan", "CriticalOutcome", "CriticalPlan", "StandardOutcome", "StandardPlan", "StandardSystem"]
