"""The imports form layers, never a circle: the shared types (``diceengine.parts``) are a leaf, the renderers depend
on the results, never the reverse, and neither the core nor the rulesets (``systems/``, installed as
``diceengine.systems``) import in a circle, module by module or folder by folder, and the core imports no
ruleset (the command line and the web service, on top of both, aside). Every import is counted, lazy and
type-only ones too, read from the source with :mod:`ast`.

``from pkg import sub`` reads ``sub`` through ``pkg``'s ``__init__`` (an attribute of the package, which may be
anything the package binds under that name), so it counts as an import of ``pkg`` as well as of ``pkg.sub``:
a module of a package that names its siblings that way, while the package imports it, is a circle (issue 33:
``anydice/parse.py``'s ``from . import tree``). ``from pkg.sub import name`` and ``import pkg.sub as sub``
name the module by its own path."""

from __future__ import annotations

import ast
from pathlib import Path

import diceengine.systems

import diceengine
import diceengine.renderers

CORE = Path(diceengine.__file__).parent
SYSTEMS = Path(diceengine.systems.__file__).parent
RESULTS = ["diceengine.parts", "diceengine.registry", "diceengine.rolls", "diceengine.models",
           "diceengine.rolljson", "diceengine.distributions"]
#: the programs on top of the core and the rulesets, which may import both (design.md, "Layout")
ON_TOP = ("diceengine.cli", "diceengine.web")


def _modules() -> dict[str, Path]:
    """Module name -> file, for every module of the core's folder and of the rulesets' folder."""
    found = {}
    for top, root in (("diceengine", CORE), ("diceengine.systems", SYSTEMS)):
        for path in root.rglob("*.py"):
            parts = (top, *path.relative_to(root).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()
_MAIN = {"__name__ == '__main__'", "'__main__' == __name__"}
PACKAGES = sorted(name for name, path in MODULES.items() if path.name == "__init__.py")


def read_imports(source: str, name: str, package: str) -> set[str]:
    """The modules of :data:`MODULES` that ``source`` (module ``name`` of ``package``) imports, anywhere in it."""
    out: set[str] = set()
    tree = ast.parse(source)
    # what runs only as a program (under ``if __name__ == "__main__":``) is no import of the module
    tree.body = [n for n in tree.body if not (isinstance(n, ast.If) and ast.unparse(n.test) in _MAIN)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{node.module}" if node.level and node.module else (base if node.level else node.module or "")
            # ``from pkg import sub``: the module pkg.sub when there is one, read through pkg; else a name of pkg
            targets = [base]
            targets += [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
        else:
            continue
        out.update(t for t in targets if t in MODULES and t != name)
    return out


def imports(name: str) -> set[str]:
    """The modules ``name`` imports anywhere in its file (at the top, in a function, under TYPE_CHECKING)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return read_imports(path.read_text(encoding="utf-8"), name, package)


GRAPH = {name: imports(name) for name in MODULES}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``graph`` (name -> the names it reaches in one step), as a path back to its start, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for target in sorted(graph.get(name, ())):
            found = visit(target, path + [name])
            if found:
                return found
        done.add(name)
        return None

    return next((c for c in (visit(name, []) for name in sorted(graph)) if c), None)


def _rooms(package: str, graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The arrows between the rooms of ``package``: each module and each sub-package directly in it is one room
    (a sub-package with all it holds), as a reader of its folder sees them."""
    def room(module: str) -> str | None:
        if not module.startswith(package + "."):
            return None
        return f"{package}.{module[len(package) + 1:].split('.')[0]}"

    rooms: dict[str, set[str]] = {}
    for a, targets in graph.items():
        ra = room(a)
        if ra is not None:
            rooms.setdefault(ra, set()).update(rb for rb in map(room, targets) if rb is not None and rb != ra)
    return rooms


def test_the_reader_sees_lazy_and_type_only_imports() -> None:
    # the reader itself, on imports whose kind it must not miss
    assert "diceengine.models" in imports("diceengine.rolls")  # lazy, in Roll.model
    assert "diceengine.registry" in imports("diceengine.rolls")  # type-only
    assert {"diceengine.parts", "diceengine.renderers.explain"} <= imports("diceengine.renderers.plain")  # a sibling
    assert "diceengine.renderers" not in imports("diceengine.renderers.plain")  # never its own package
    assert "diceengine.renderers" in imports("diceengine")
    assert "diceengine.systems.standard.term.faces" in imports("diceengine.systems.standard.modifiers.dice")


def test_the_reader_counts_a_sibling_read_through_its_package() -> None:
    # the spellings that read a module through its package's __init__, and those that name it by its own path
    def read(source: str) -> set[str]:
        return read_imports(source, "diceengine.anydice.parse", "diceengine.anydice")

    assert read("from . import tree") == {"diceengine.anydice", "diceengine.anydice.tree"}
    assert read("from diceengine.anydice import tree") == {"diceengine.anydice", "diceengine.anydice.tree"}
    assert read("def f():\n    from .. import parser") == {"diceengine", "diceengine.parser"}
    assert read("from .tree import Program") == {"diceengine.anydice.tree"}
    assert read("import diceengine.parser as found") == {"diceengine.parser"}
    assert read("if __name__ == '__main__':\n    from diceengine.lalr.tables import main") == set()  # a program's


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


def test_no_import_circle_of_modules() -> None:
    # the core and the rulesets together: a module reaching itself again, a package's __init__ included
    circle = _circle(GRAPH)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_rooms_of_each_package_import_one_way() -> None:
    # folder by folder: the standard notation's term/ never imports its modifiers/ (they lower into the term's
    # spec; evaluate/terms.py, above both, reads a dice node into a term)
    for package in PACKAGES:
        circle = _circle(_rooms(package, GRAPH))
        assert circle is None, f"import circle in {package}: " + " -> ".join(circle or [])


def _in(module: str, packages: list[str] | tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


#: the rulesets: each package directly in the rulesets' folder (standard, d6...); the modules beside them
#: (play.py, symbols.py...) are what several rulesets share
RULESETS = sorted(name for name in PACKAGES if name.rpartition(".")[0] == "diceengine.systems")


def _core_into_rulesets(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The arrows of ``graph`` from a module of the core (the programs on top aside) into a ruleset."""
    return {(a, b) for a, targets in graph.items() if not _in(a, ("diceengine.systems", *ON_TOP))
            for b in targets if _in(b, RULESETS)}


def test_the_core_imports_no_ruleset() -> None:
    # a ruleset hands down what the core needs of it through the hooks of registry.System (the words of its
    # tokens and its modifiers' spellings, for a syntax error): no import, lazy or type-only ones included
    assert {"diceengine.systems.standard", "diceengine.systems.d6", "diceengine.systems.ffg"} <= set(RULESETS)
    assert _core_into_rulesets(GRAPH) == set()
    # the check sees the arrow that was there until session 36, planted again (a lazy import in hints.py)
    planted = read_imports("def words():\n    from diceengine.systems.standard.modifiers import spellings\n",
                           "diceengine.hints", "diceengine")
    assert _core_into_rulesets({**GRAPH, "diceengine.hints": planted}) == {
        ("diceengine.hints", "diceengine.systems.standard.modifiers")}
    # and not the programs on top, nor a ruleset reading the core's table, nor the rulesets' shared modules
    assert not _core_into_rulesets({"diceengine.web.words": {"diceengine.systems.standard.words"},
                                    "diceengine.systems.standard.system": {"diceengine.hints"},
                                    "diceengine.table.play": {"diceengine.systems.play"}})
