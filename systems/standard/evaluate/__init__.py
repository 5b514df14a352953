"""The evaluators of the standard notation."""
