"""The dice term of the standard notation."""
