"""The modifiers of the standard notation's dice term, one class each, in one table (:data:`TABLE`, as avrae's d20
keys its operators by their letters): a modifier's letters, its node, how it is written (:func:`written`) and how
it is lowered to the term's :class:`~..term.spec.TermSpec` (:func:`lower`) live in its class.

- :mod:`.base`: :class:`~.base.Modifier` (what a modifier holds) and :class:`~.base.Building` (the term being built);
- :mod:`.dice`: keep / drop, explosions, re-rolls, re-rolls of ranks, unique dice, sort;
- :mod:`.scores`: success and failure counts, doubled successes, critical marks, the face maps (minimum / maximum);
- :mod:`.matching`, :mod:`.parity`: Roll20's matching dice, Foundry's counts of even and odd faces, each its node,
  its class and its score (a multiset evaluator) in one module;
- :mod:`.tokens`: what a syntax error knows of them, read from the table and the grammar;
- :mod:`.plugin`: a modifier a plug-in adds (entry-point group ``diceengine.modifiers``): its contract,
  :class:`~.plugin.FaceMap`, is one docstring.

Adding a modifier in the tree (``docs/contributing.md`` has the checklist): its class and its node in a module
here (the parser reads the nodes the table declares: :data:`NODES`), its rule in ``grammars/standard.lark``, its
row in ``docs/notation.md``, its tests. A score of the dice as a multiset is a
:class:`~..term.spec.PoolScore` (one evaluator); a face map a branch of :class:`~.scores.FaceMaps`.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from functools import cache
from typing import Any

import diceengine.systems.standard.nodes as tree

from diceengine.errors import DiceSyntaxError
from diceengine.i18n import N_

from .base import Building, Modifier
from .dice import (
    ExplodeModifier,
    KeepModifier,
    RerollModifier,
    RerollRankModifier,
    SortModifier,
    UniqueModifier,
    keep_rule,
)
from .matching import MatchingModifier
from .parity import ParityModifier
from .plugin import FaceMap, PluginModifier, find_modifier, modifier_names, register_modifier, reserve
from .scores import (
    ClampModifier,
    CountFailuresModifier,
    CountSuccessesModifier,
    CriticalModifier,
    DoubleModifier,
    FaceMaps,
)
from .tokens import rule_tokens

__all__ = ["NODES", "TABLE", "Building", "FaceMap", "Modifier", "find_modifier", "keep_rule", "lower", "modifier_names",
           "modifier_tokens", "register_modifier", "spellings", "written"]

#: every modifier, in the order they are lowered (each reads what those before it set: the faces after the face
#: maps, the success count before the failures and the doubles, the explosion and re-roll before unique dice)
TABLE: tuple[Modifier, ...] = (
    KeepModifier(),
    FaceMaps(),
    CriticalModifier(),
    ExplodeModifier(),
    RerollModifier(),
    CountSuccessesModifier(),
    CountFailuresModifier(),
    DoubleModifier(),
    RerollRankModifier(),
    UniqueModifier(),
    SortModifier(),
    MatchingModifier(),
    ParityModifier(),
)

reserve([letters for m in TABLE for letters in m.letters])


def _nodes_module(entries: tuple[Modifier, ...]) -> types.ModuleType:
    """A module holding the node classes ``entries`` declare (``Modifier.nodes``), for the parser: each grammar
    rule builds the node named after it (``matching`` -> ``Matching``, Lark's ``ast_utils`` pattern), so that a
    modifier whose node is declared in its own module needs no line in :mod:`..nodes`."""
    module = types.ModuleType(f"{__name__}.declared_nodes")
    for entry in entries:
        for node in entry.nodes:
            setattr(module, node.__name__, node)
    return module


#: the nodes the table's modifiers declare (:meth:`~..system.StandardSystem.ast_modules` hands them to the parser)
NODES: types.ModuleType = _nodes_module((*TABLE, ClampModifier()))


@cache
def spellings() -> frozenset[str]:
    """The letters of every built-in modifier (``kh``, ``min``, ``mt``...): what "did you mean" proposes
    (:func:`diceengine.hints.modifier_fix`)."""
    return frozenset(letters for m in (*TABLE, ClampModifier()) for letters in m.letters if letters.isalpha())


@cache
def modifier_tokens() -> tuple[str, ...]:
    """The tokens the grammar rules of the table's nodes begin with (``KEEP``, ``BANG``, ``MATCHING``...): what a
    syntax error names "a modifier" (:func:`diceengine.hints.terminal_words`)."""
    from diceengine.lalr import camel_to_snake
    from diceengine.registry import package_text

    claimed = tuple(node for m in (*TABLE, ClampModifier(), PluginModifier()) for node in m.nodes)
    rules = {camel_to_snake(name) for module in (tree, NODES) for name, obj in vars(module).items()
             if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, claimed)}
    return rule_tokens(package_text("diceengine.grammars", "standard.lark"), rules)

#: a node's class -> the modifier that writes it (a face map's own class: the minimum / maximum)
_WRITERS: dict[type, Modifier] = {node: m for m in (*TABLE, ClampModifier(), PluginModifier()) for node in m.nodes
                                  if not isinstance(m, FaceMaps)}
#: an entry of the table -> its place in it
_PLACE: dict[Modifier, int] = {m: i for i, m in enumerate(TABLE)}
#: a node's class -> the entry of the table that lowers it
_LOWERING: dict[type, Modifier] = {node: m for m in TABLE for node in m.nodes}


def _of(table: dict[type, Modifier], kind: type) -> Modifier | None:
    """The modifier of a node's class in ``table``, or of the nearest class it derives from (``GroupKeep``: keep)."""
    found = table.get(kind)
    if found is None:
        found = next((table[k] for k in kind.__mro__ if k in table), None)
        if found is not None:
            table[kind] = found
    return found


def written(mod: Any) -> str:
    """A modifier's node as the term's text writes it (``kh3``, ``!>=5``, ``z1``)."""
    writer = _WRITERS.get(type(mod)) or _of(_WRITERS, type(mod))
    if writer is None:
        raise DiceSyntaxError(N_("no modifier of the table reads {kind}"), None, getattr(mod, "pos", None),
                              kind=type(mod).__name__)
    return writer.written(mod)


def lower(term: Building) -> Mapping[str, Any]:
    """The fields of the term's spec its modifiers set, each lowered by its class in the table's order (the faces
    left in ``term.faces``). A node no modifier lowers is refused, never ignored."""
    mods = term.mods
    term.write = written
    found: dict[int, list[Any]] = {}  # the place of each modifier's entry in the table -> its nodes, in order
    for mod in mods:
        entry = _LOWERING.get(type(mod)) or _of(_LOWERING, type(mod))
        if entry is None:
            raise DiceSyntaxError(N_("no modifier of the table reads {kind}"), term.expression,
                                  term.where(mod), kind=type(mod).__name__)
        found.setdefault(_PLACE[entry], []).append(mod)
    fields = term.fields
    for place in sorted(found):
        fields.update(TABLE[place].lower(term, found[place]))
    return term.fields
