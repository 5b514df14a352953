"""The core's imports form layers, never a circle: the shared types (``diceengine.parts``) are a leaf, and the
renderers depend on the results, never the reverse. Every import is counted, lazy and type-only ones too,
read from the source with :mod:`ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import diceengine
import diceengine.renderers

CORE = Path(diceengine.__file__).parent
RESULTS = ["diceengine.parts", "diceengine.registry", "diceengine.rolls", "diceengine.models",
           "diceengine.rolljson", "diceengine.distributions"]


def _modules() -> dict[str, Path]:
    """Module name -> file, for every module of the core's own folder (the systems live elsewhere)."""
    found = {}
    for path in CORE.rglob("*.py"):
        parts = ("diceengine", *path.relative_to(CORE).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def imports(name: str) -> set[str]:
    """The core modules ``name`` imports anywhere in its file (at the top, in a function, under TYPE_CHECKING)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{node.module}" if node.level and node.module else (base if node.level else node.module)
            # ``from pkg import sub`` imports the module pkg.sub when there is one, else a name of pkg
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in MODULES and t != name)
    return out


def test_the_reader_sees_lazy_and_type_only_imports() -> None:
    # the reader itself, on imports whose kind it must not miss
    assert "diceengine.models" in imports("diceengine.rolls")  # lazy, in Roll.model
    assert "diceengine.registry" in imports("diceengine.rolls")  # type-only
    assert {"diceengine.parts", "diceengine.renderers.explain"} <= imports("diceengine.renderers.plain")  # a sibling
    assert "diceengine.renderers" not in imports("diceengine.renderers.plain")  # never its own package
    assert "diceengine.renderers" in imports("diceengine")


def test_the_shared_types_are_a_leaf() -> None:
    # the one core module they import is the leaf of stand-ins for dataclasses and NamedTuple (issue 25)
    assert imports("diceengine.parts") <= {"diceengine.records"}
    assert imports("diceengine.records") == set()
    assert diceengine.Die is diceengine.parts.Die is diceengine.rolls.Die  # the public names stay


def test_results_never_import_a_renderer() -> None:
    for name in RESULTS:
        assert not {m for m in imports(name) if m.startswith("diceengine.renderers")}, name
    # the renderers are installed into the results instead, when diceengine is imported
    assert diceengine.rolls._renderer is diceengine.renderers.renderer


def test_the_core_has_no_import_circle() -> None:
    graph = {name: imports(name) for name in MODULES}
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, path + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
