"""Benchmarks of diceengine, each reported as a ratio to a floor measured in the same run."""
