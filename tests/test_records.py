"""Frozen records (:mod:`diceengine.records`) behave as the frozen dataclasses declared the same way: each case
declares one class twice, with :mod:`dataclasses` and with the records, and compares what they do."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import ClassVar

import pytest
from diceengine.systems.standard.nodes import Dice, Keep, Modifiers

from diceengine import records
from diceengine.ast import Add, Node, Number, children
from diceengine.parser import parse
from diceengine.registry import Option, get_system


def _declare(make, **options):
    @make(frozen=True, **options)
    class Point(Node if options.get("slots") else object):
        x: int
        y: int = 0
        tag: str | None = (records.field if make is records.dataclass else dataclasses.field)(default=None,
                                                                                             compare=False)
        KIND: ClassVar[str] = "point"

        def __post_init__(self) -> None:
            if isinstance(self.x, str):
                object.__setattr__(self, "x", int(self.x))

    return Point


def _module_level(name, cls):
    cls.__qualname__ = cls.__name__ = name  # found by pickle
    return cls


RealSlotted = _module_level("RealSlotted", _declare(dataclasses.dataclass, slots=True))
OursSlotted = _module_level("OursSlotted", _declare(records.dataclass, slots=True))
Real = _module_level("Real", _declare(dataclasses.dataclass))
Ours = _module_level("Ours", _declare(records.dataclass))


@pytest.mark.parametrize(("real", "ours"), [(RealSlotted, OursSlotted), (Real, Ours)])
def test_a_record_does_what_the_dataclass_does(real, ours):
    for cls in (real, ours):
        p = cls("3", tag="a")
        assert (p.x, p.y, p.tag, cls.KIND) == (3, 0, "a", "point")  # __post_init__, defaults, ClassVar
        assert p == cls(3, 0, "b") and p != cls(3, 1, "a") and hash(p) == hash(cls(3, 0, "b"))  # tag not compared
        assert p.__eq__(object()) is NotImplemented
        assert repr(p) == f"{cls.__qualname__}(x=3, y=0, tag='a')"
        assert cls.__match_args__ == ("x", "y", "tag")
        with pytest.raises(AttributeError):
            p.x = 4
        with pytest.raises(AttributeError):
            del p.y
        assert pickle.loads(pickle.dumps(p)) == p and copy.deepcopy(p) == p and copy.copy(p).tag == "a"
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(1, 2, 3, 4)
        assert "KIND" not in [f.name for f in records.fields(p)]
    assert repr(real(1)) == repr(ours(1)).replace(ours.__qualname__, real.__qualname__)
    assert [f.name for f in records.fields(ours)] == [f.name for f in dataclasses.fields(real)]
    assert [("-" if f.default is records.MISSING else f.default, f.compare) for f in records.fields(ours)] == \
        [("-" if f.default is dataclasses.MISSING else f.default, f.compare) for f in dataclasses.fields(real)]
    assert hasattr(ours(1), "__dict__") is hasattr(real(1), "__dict__")
    assert records.replace(ours(1, 2, "t"), y=5) == ours(1, 5) and records.replace(ours(1, 2, "t"), y=5).tag == "t"
    assert records.replace(real(1, 2), y=5) == real(1, 5)  # a dataclass too
    assert records.is_dataclass(ours) and records.is_dataclass(ours(1)) and records.is_dataclass(real(1))
    assert not records.is_dataclass(1) and not records.is_dataclass(Node)


def test_options_of_the_declaration():
    @records.dataclass(frozen=True, eq=False)
    class Spec:
        a: int
        derived: int = records.field(init=False)
        hidden: str = records.field(default="h", init=False, repr=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "derived", self.a * 2)

    s = Spec(2)
    assert (s.derived, s.hidden) == (4, "h") and repr(s).endswith("Spec(a=2, derived=4)")
    assert not hasattr(Spec, "derived") and Spec.hidden == "h"  # a default stays a class attribute, as a dataclass's
    assert s != Spec(2) and hash(s) == object.__hash__(s)  # eq=False: identity, as a dataclass's
    with pytest.raises(TypeError):
        Spec(2, 4)
    with pytest.raises(ValueError, match="init=False"):
        records.replace(s, derived=1)
    assert records.replace(s, a=3).derived == 6
    with pytest.raises(TypeError, match="non-default"):
        @records.dataclass(frozen=True)
        class Bad:
            a: int = 1
            b: int
    with pytest.raises(TypeError, match="frozen"):
        @records.dataclass
        class Loose:
            a: int


def test_a_subclass_inherits_the_fields_and_compares_apart():
    a, b = Add(Number(1), "+", Number(2)), Add(Number(1), "+", Number(2), pos=5)
    assert a == b and hash(a) == hash(b) and a.pos is None and b.pos == 5
    assert type(a).__slots__ == () and not hasattr(a, "__dict__")
    from diceengine.ast import Sub

    assert Sub(Number(1), "-", Number(2)) != Add(Number(1), "-", Number(2))  # the class is part of the meaning
    assert list(children(a)) == [Number(1), Number(2)]


def test_the_standard_nodes_as_dataclasses_would_be():
    tree = parse("4d6kh3 + 2", get_system("standard"))
    again = parse("4d6kh3+2", get_system("standard"))
    assert tree == again and hash(tree) == hash(again) and tree.pos != again.pos
    assert repr(tree) == ("Add(left=Dice(count=4, die='d', sides=6, modifiers=Modifiers(items=(Keep(kind='kh', n=3, "
                          "point=None, pos=3, spelled='kh', fresh=False),)), pos=0), op='+', right=Number(value=2, "
                          "pos=9), pos=7)")
    keep = tree.left.modifiers.items[0]
    fresh = records.replace(keep, fresh=True)
    assert isinstance(fresh, Keep) and fresh.fresh and fresh.n == 3 and fresh.pos == 3 and fresh != keep
    assert pickle.loads(pickle.dumps(tree)) == tree
    assert Dice.__match_args__ == ("count", "die", "sides", "modifiers", "pos")
    assert Modifiers([keep]).items == (keep,)
    assert Option(1, "doc") == Option(1, "doc") and {Option(1, "doc")}


def test_a_plug_in_node_may_be_a_dataclass():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Plugged(Node):
        inner: Node
        pos: int | None = dataclasses.field(default=None, compare=False)

    node = Plugged(Number(4))
    assert list(children(node)) == [Number(4)] and [f.name for f in records.fields(node)] == ["inner", "pos"]
