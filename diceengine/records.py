"""Frozen records: the part of :mod:`dataclasses` the engine uses, and :class:`typing.NamedTuple`, without their
cost at import (issue 25).

``@dataclass(frozen=True, slots=True)`` with ``field(default=..., init=..., repr=..., compare=...)`` declares a
class as :mod:`dataclasses` does, and the class behaves as the frozen dataclass would: the same ``__init__``
(calling ``__post_init__``), ``repr``, equality and hash on the compared fields (``eq=False``: identity), frozen
attributes (:class:`FrozenError`, an :class:`AttributeError`), ``__match_args__``, pickling and copying.
:func:`fields`, :func:`replace` and :func:`is_dataclass` read these records and real dataclasses alike.

``class Die(NamedTuple)`` declares a named tuple as :class:`typing.NamedTuple` does (fields from the annotations,
defaults, methods and properties of the body), built by :func:`collections.namedtuple` as typing builds it; the
annotations stay the strings written, where typing compiles each into a ``ForwardRef`` (a quarter of a millisecond
a class).

Why not :mod:`dataclasses`: importing it imports :mod:`inspect` (with :mod:`ast`, :mod:`dis`, :mod:`tokenize`),
and it writes and compiles every method of every class at class creation: together a third of the library's
import, for 25 syntax-tree nodes. Here a class gets shared methods at creation, and its ``__init__`` (the one
method worth compiling, for speed) is compiled on the class's first instance.
"""

from __future__ import annotations

import sys
from collections import namedtuple as _namedtuple_factory
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["MISSING", "Field", "FrozenError", "NamedTuple", "dataclass", "field", "fields", "is_dataclass", "replace"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: no default
MISSING: Any = _Missing()


class FrozenError(AttributeError):
    """An attribute of a frozen record assigned or deleted (as :class:`dataclasses.FrozenInstanceError`)."""


class Field:
    """One declared field: its name, default, and whether ``__init__``, ``repr`` and equality take it."""

    __slots__ = ("compare", "default", "init", "name", "repr")

    def __init__(self, default: Any = MISSING, init: bool = True, repr: bool = True, compare: bool = True) -> None:
        self.name = ""
        self.default = default
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, init={self.init}, repr={self.repr}, "
                f"compare={self.compare})")


def _field(*, default: Any = MISSING, init: bool = True, repr: bool = True, compare: bool = True) -> Any:
    """A field with options, as :func:`dataclasses.field` (``default``, ``init``, ``repr``, ``compare``)."""
    return Field(default, init, repr, compare)


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _own_fields(cls: type) -> list[Field]:
    found = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063 - no inspect
        if _is_classvar(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        f = default if isinstance(default, Field) else Field(default)
        if isinstance(f.default, (list, dict, set)):
            raise TypeError(f"mutable default {type(f.default)} for field {name} is not allowed")
        f.name = name
        found.append(f)
    return found


def _init_source(cls: type, declared: tuple[Field, ...]) -> tuple[str, dict[str, Any]]:
    """The text of ``cls.__init__`` and its globals (as :mod:`dataclasses` writes it for a frozen class)."""
    names: dict[str, Any] = {"_set": object.__setattr__}
    params, body = ["self"], []
    for f in declared:
        if f.default is not MISSING:
            names[f"_d_{f.name}"] = f.default
        if f.init:
            params.append(f.name if f.default is MISSING else f"{f.name}=_d_{f.name}")
            body.append(f"    _set(self, {f.name!r}, {f.name})")
        elif f.default is not MISSING:
            body.append(f"    _set(self, {f.name!r}, _d_{f.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    return f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n", names


def _first_init(cls: type) -> Callable[..., None]:
    """``cls.__init__`` until the first instance: compiles the real one, installs it and calls it."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        source, names = _init_source(cls, cls.__record_fields__)  # type: ignore[attr-defined]
        exec(source, names)  # noqa: S102 - the text of an __init__, written from the declared field names
        init = names["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init  # type: ignore[misc]
        init(self, *args, **kwargs)

    return __init__


def _key(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the fields ``names`` of a record (what equality compares and the hash hashes)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _methods(cls: type, declared: tuple[Field, ...], eq: bool, slots: bool) -> dict[str, Any]:
    shown = [f.name for f in declared if f.repr]
    compared = _key([f.name for f in declared if f.compare])

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(compared(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")

    names = [f.name for f in declared]

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    own = cls.__dict__
    methods: dict[str, Any] = {"__setattr__": __setattr__, "__delattr__": __delattr__}
    if "__repr__" not in own:
        methods["__repr__"] = __repr__
    if eq:
        if "__eq__" not in own:
            methods["__eq__"] = __eq__
        if own.get("__hash__") is None:
            methods["__hash__"] = __hash__
    if slots and "__getstate__" not in own:
        methods["__getstate__"] = __getstate__
        methods["__setstate__"] = __setstate__
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
    return methods


def _record(cls: type, eq: bool, slots: bool) -> type:
    declared: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            declared[f.name] = f
    own = _own_fields(cls)
    for f in own:
        declared[f.name] = f
    order = tuple(declared.values())
    seen_default = False
    for f in order:
        if not f.init:
            continue
        if f.default is MISSING and seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or f.default is not MISSING
    body = dict(cls.__dict__)
    for f in own:  # a default is the class attribute no more: __init__ holds it (and a slot takes its name)
        if f.name in body and (slots or isinstance(body[f.name], Field)):
            if f.default is MISSING or slots:
                del body[f.name]
            else:
                body[f.name] = f.default
    body.update(_methods(cls, order, eq, slots))
    body["__record_fields__"] = order
    body["__match_args__"] = tuple(f.name for f in order if f.init)
    if slots:
        inherited = {name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())}
        body["__slots__"] = tuple(f.name for f in own if f.name not in inherited)
        body.pop("__dict__", None)
        body.pop("__weakref__", None)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, body)
        cls.__qualname__ = qualname
    else:
        for name, value in body.items():
            if name not in ("__dict__", "__weakref__") and cls.__dict__.get(name, MISSING) is not value:
                setattr(cls, name, value)
        for f in own:
            if f.name not in body and f.name in cls.__dict__:
                delattr(cls, f.name)
    if "__init__" not in cls.__dict__:
        cls.__init__ = _first_init(cls)  # type: ignore[misc]
    return cls


def _dataclass(cls: type[T] | None = None, /, *, frozen: bool = False, eq: bool = True,
              slots: bool = False) -> Any:
    """Declare ``cls`` a frozen record, as ``@dataclasses.dataclass(frozen=True, eq=..., slots=...)`` does."""
    if not frozen:
        raise TypeError("a record is frozen: @dataclass(frozen=True)")

    def wrap(cls: type[T]) -> type[T]:
        return _record(cls, eq, slots)  # type: ignore[return-value]

    return wrap if cls is None else wrap(cls)


def _is_dataclass(obj: Any) -> bool:
    """Whether ``obj`` (a class or an instance) is a record or a dataclass."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__record_fields__") or hasattr(cls, "__dataclass_fields__")


def _fields(obj: Any) -> tuple[Any, ...]:
    """The fields of a record or a dataclass (a class or an instance), in order."""
    declared = getattr(obj, "__record_fields__", None)
    if declared is not None:
        return tuple(declared)
    return sys.modules["dataclasses"].fields(obj)  # type: ignore[no-any-return]  # a dataclass: loaded


def _replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record (or dataclass instance) ``obj`` with ``changes``, built by its ``__init__``."""
    declared = getattr(type(obj), "__record_fields__", None)
    if declared is None:
        return sys.modules["dataclasses"].replace(obj, **changes)  # type: ignore[no-any-return]
    for f in declared:
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


_namedtuple: Any = _namedtuple_factory  # called with the names of a class statement (type checkers want literals)

#: what a named tuple's body may not define (typing's list)
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make",
                         "_replace", "_asdict", "_source"})


class _NamedTupleMeta(type):
    """Builds the class of a ``class X(NamedTuple)`` statement: a :func:`collections.namedtuple` with the body's
    attributes (as :class:`typing.NamedTuple`, its annotations left as written)."""

    def __new__(mcs, typename: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if bases != (_NamedTupleBase,):
            raise TypeError("a named tuple inherits from NamedTuple alone")
        annotations = ns.get("__annotations__", {})
        defaults = []
        for name in annotations:
            if name in ns:
                defaults.append(ns[name])
            elif defaults:
                raise TypeError(f"non-default namedtuple field {name} cannot follow default fields")
        cls = _namedtuple(typename, list(annotations), defaults=defaults, module=ns["__module__"])
        cls.__annotations__ = cls.__new__.__annotations__ = dict(annotations)
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError(f"Cannot overwrite NamedTuple attribute {key}")
            if key not in ("__module__", "__name__", "__annotations__") and key not in cls._fields:
                setattr(cls, key, value)
        return cls


_NamedTupleBase = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})


def _NamedTuple(typename: str, fields: Any = None, /, **kwargs: Any) -> Any:
    """The base of a ``class X(NamedTuple)`` statement (the functional form is typing's)."""
    from typing import NamedTuple

    return NamedTuple(typename, fields, **kwargs)


_NamedTuple.__mro_entries__ = lambda bases: (_NamedTupleBase,)  # type: ignore[attr-defined]


if TYPE_CHECKING:  # type checkers read them as the dataclasses and the NamedTuple they stand for
    from dataclasses import dataclass, field, fields, is_dataclass, replace
    from typing import NamedTuple
else:
    dataclass, field, fields, is_dataclass, replace = _dataclass, _field, _fields, _is_dataclass, _replace
    NamedTuple = _NamedTuple
