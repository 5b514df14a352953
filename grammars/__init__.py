"""The Lark grammars of diceengine, shipped as package data (``*.lark``)."""
