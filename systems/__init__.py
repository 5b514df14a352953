"""The built-in rulesets, each a plug-in registered through the ``diceengine.systems`` entry points."""
