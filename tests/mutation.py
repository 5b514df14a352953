"""Mutation testing with mutmut, one module at a time: ``python -m tests.mutation systems/d6.py``.

mutmut 3 names each mutant after its file path, so the package is staged in ``.mutation/`` as it is
installed (``systems/`` -> ``diceengine/systems/``, ``grammars/`` -> ``diceengine/grammars/``) with the
tests and ``pyproject.toml`` (whose ``[tool.mutmut]`` section holds the settings); mutmut runs there,
each mutant against the tests that called the mutated function. Results are kept in
``.mutation/mutants`` between runs (unchanged functions are not tested again).

Prints, per module, the mutants killed, survived and the score; ``--survivors`` prints the diff of
each survivor; the accepted (equivalent) survivors are listed in ``tests/mutation_survivors.txt``, keyed
on what a move between modules or a renumbering by mutmut keeps: the mutated function (``Class.method``
or ``function``, no module) and the mutated line before and after (``function | line | mutated | why``,
the key computed from mutmut's diff of the mutant). Records that match no mutant any more are reported
(stale) and fail the run, as open survivors do.
``--sample K`` runs K mutants of each module drawn at random (seeded): the score of a large module in
minutes, given with its 95% interval (a random sample of mutants estimates the score without bias).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
STAGE = ROOT / ".mutation"
#: repository folder -> folder in the staged package
LAYOUT = {"diceengine": "diceengine", "systems": "diceengine/systems", "grammars": "diceengine/grammars",
          "tests": "tests", "benchmarks": "benchmarks"}
ACCEPTED = Path(__file__).resolve().parent / "mutation_survivors.txt"
KILLED = {1, 3, 36, 37, -24, 24, 152, 255, -11, -9}  # test failure, pytest error, timeout, crash
SURVIVED = {0, 33}  # the tests pass; or no test reaches the mutated function (mutmut's "no tests")


#: an accepted survivor's record: ``function | original line | mutated line | why equivalent``
SEP = " | "
#: between the lines of a mutation that changes more than one line
NEWLINE = " ⏎ "


class Key(NamedTuple):
    """What identifies a mutant across moves and renumberings: the mutated function (``Class.method`` or
    ``function``, no module) and the changed line(s) before and after, whitespace normalised."""

    function: str
    before: str
    after: str


def function_of(name: str) -> str:
    """``diceengine.systems.d20pool.xǁPoolPlanǁ__init____mutmut_3`` -> ``PoolPlan.__init__``."""
    mangled = name.rpartition("__mutmut_")[0].rpartition(".")[2]
    if mangled.startswith("xǁ"):
        _, cls, func = mangled.split("ǁ", 2)
        return f"{cls}.{func}"
    if mangled.startswith("x_"):
        return mangled[2:]
    raise ValueError(f"not a mutmut mutant name: {name}")


def number_of(name: str) -> int:
    """mutmut's number of the mutant within its function."""
    return int(name.rpartition("__mutmut_")[2])


def _normalise(line: str) -> str:
    return " ".join(line.split())


def mutant_key(name: str, diff: str) -> Key:
    """The key of mutant ``name`` from its diff (``mutmut show``): the lines it removes and adds."""
    before, after, hunk = [], [], False
    for line in diff.splitlines():
        if line.startswith("@@"):
            hunk = True
        elif hunk and line.startswith("-"):
            before.append(_normalise(line[1:]))
        elif hunk and line.startswith("+"):
            after.append(_normalise(line[1:]))
    return Key(function_of(name), NEWLINE.join(before), NEWLINE.join(after))


def mutant_keys(diffs: dict[str, str]) -> dict[str, Key]:
    """Mutant name -> key, for mutants given with their diffs. The same mutation of two identical lines of
    a function gets the same key: the second, in the order of the source, is told apart as ``function [2]``."""
    keys: dict[str, Key] = {}
    seen: dict[Key, int] = {}
    for name in sorted(diffs, key=lambda n: (n.rpartition("__mutmut_")[0], number_of(n))):
        key = mutant_key(name, diffs[name])
        seen[key] = seen.get(key, 0) + 1
        keys[name] = key if seen[key] == 1 else key._replace(function=f"{key.function} [{seen[key]}]")
    return keys


def _escape(code: str) -> str:
    return code.replace("|", "\\|")  # every "|" of a line then follows a backslash: " | " only separates


def format_record(key: Key, why: str = "") -> str:
    """The line of ``tests/mutation_survivors.txt`` accepting the mutant of ``key``."""
    return SEP.join([key.function, _escape(key.before), _escape(key.after), why])


def parse_record(line: str) -> tuple[Key, str]:
    """``format_record``'s line -> (key, why)."""
    parts = line.split(SEP, 3)
    if len(parts) < 3:
        raise ValueError(f"not a record `function | original line | mutated line | why`: {line}")
    function, before, after = (p.strip().replace("\\|", "|") for p in parts[:3])
    return Key(function, _normalise(before), _normalise(after)), parts[3].strip() if len(parts) > 3 else ""


def staged_path(path: str) -> str:
    """``systems/d6.py`` -> ``diceengine/systems/d6.py``."""
    top, _, rest = path.partition("/")
    if top not in LAYOUT or not rest.endswith(".py"):
        raise SystemExit(f"not a module of the engine: {path}")
    return f"{LAYOUT[top]}/{rest}"


def stage(modules: list[str], pytest_args: list[str] | None = None, tests: list[str] | None = None) -> None:
    """Copy the sources into the staging folder (modification times kept: mutmut's cache stays valid); with
    ``pytest_args``, added to every pytest run of mutmut's there; with ``tests``, those test files (or node
    ids) instead of the whole ``tests`` folder."""
    STAGE.mkdir(exist_ok=True)
    for folder in ("diceengine", "tests", "benchmarks"):
        shutil.rmtree(STAGE / folder, ignore_errors=True)
    for src, dst in LAYOUT.items():
        shutil.copytree(ROOT / src, STAGE / dst, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    only = json.dumps([staged_path(m) for m in modules])
    text = text.replace("[tool.mutmut]\n", f"[tool.mutmut]\nonly_mutate = {only}\n", 1)
    if tests:
        text = text.replace('pytest_add_cli_args_test_selection = [\n    "tests",',
                            f"pytest_add_cli_args_test_selection = [\n    {json.dumps(tests)[1:-1]},", 1)
    if pytest_args:
        text = text.replace("pytest_add_cli_args = [", f"pytest_add_cli_args = [{json.dumps(pytest_args)[1:-1]}, ", 1)
    (STAGE / "pyproject.toml").write_text(text, encoding="utf-8")
    for module in modules:
        undecorated(STAGE / staged_path(module))
    shutil.copy2(ROOT / "README.md", STAGE / "README.md")
    shutil.copytree(ROOT / "docs", STAGE / "docs", dirs_exist_ok=True)  # pages whose examples the tests run
    if (ROOT / "examples").exists():  # files the tests read
        shutil.copytree(ROOT / "examples", STAGE / "examples", dirs_exist_ok=True)
    # mutmut regenerates only the mutated modules in mutants/: refresh every other file there
    mutants = STAGE / "mutants"
    if mutants.exists():
        mutated = {staged_path(m) for m in modules}
        for rel in mutated:  # a module copied there plain by an earlier run of other modules: mutate it now
            if not (mutants / (rel + ".meta")).exists():
                (mutants / rel).unlink(missing_ok=True)
        for folder in ("diceengine", "tests", "benchmarks", "examples"):
            shutil.rmtree(mutants / folder / "__pycache__", ignore_errors=True)
            for path in (STAGE / folder).rglob("*"):
                rel = path.relative_to(STAGE).as_posix()
                if path.is_file() and rel not in mutated and "__pycache__" not in rel:
                    (mutants / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, mutants / rel)


#: decorators that only mark a function (return it unchanged): moved after it in the staged copy, since mutmut 3
#: mutates no decorated function (every rule of play is marked ``@rule(...)``)
MARKERS = {"rule"}


def undecorated(path: Path) -> None:
    """Rewrites ``@rule(X)`` over a function as ``name = rule(X)(name)`` right after it, in the staged copy at
    ``path``, so that mutmut mutates the rules of play (same module, same behaviour)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    moves = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or len(node.decorator_list) != 1:
            continue
        marker = node.decorator_list[0]
        if isinstance(marker, ast.Call) and isinstance(marker.func, ast.Name) and marker.func.id in MARKERS:
            moves.append((marker, node))
    for marker, node in sorted(moves, key=lambda m: -m[1].lineno):
        assert node.end_lineno is not None and marker.end_lineno is not None
        indent = " " * node.col_offset
        call = " ".join(ast.get_source_segment(source, marker).split())  # type: ignore[union-attr]
        lines.insert(node.end_lineno, f"{indent}{node.name} = {call}({node.name})\n")
        del lines[marker.lineno - 1:marker.end_lineno]
    if moves:
        path.write_text("".join(lines), encoding="utf-8")


def accepted() -> list[tuple[Key, str]]:
    """The records of the mutants accepted as equivalent, in the file's order (``#`` starts a comment line)."""
    if not ACCEPTED.exists():
        return []
    records = []
    for line in ACCEPTED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            records.append(parse_record(line))
    return records


def survivors(modules: list[str]) -> list[str]:
    """Names of the last run's survivors in ``modules``."""
    names = []
    for module in modules:
        meta = STAGE / "mutants" / (staged_path(module) + ".meta")
        if meta.exists():
            codes = json.loads(meta.read_text())["exit_code_by_key"]
            names += sorted(k for k, c in codes.items() if c in SURVIVED)
    return names


def all_mutants(modules: list[str]) -> dict[str, list[str]]:
    """Module -> names of its mutants, from the files mutmut wrote when it generated them."""
    found = {}
    for module in modules:
        meta = STAGE / "mutants" / (staged_path(module) + ".meta")
        found[module] = sorted(json.loads(meta.read_text())["exit_code_by_key"]) if meta.exists() else []
    return found


def mutant_diffs(module: str, names: list[str]) -> dict[str, str]:
    """Mutant name -> its diff (mutmut's ``show``), read from the mutants mutmut generated for ``module``."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant  # the "mutation" extra

    path = staged_path(module)
    with contextlib.chdir(STAGE):
        return {name: get_diff_for_mutant(name, path=path) for name in names}


def module_keys(module: str, names: list[str], functions: set[str]) -> dict[str, Key]:
    """The keys of ``module``'s mutants ``names`` and of every mutant of ``functions`` (all mutants of a
    function are needed to number the identical mutations of identical lines)."""
    wanted = {function_of(n) for n in names} | functions
    return mutant_keys(mutant_diffs(module, [n for n in all_mutants([module])[module]
                                             if function_of(n) in wanted]))


#: mutmut's own first step of ``mutmut run`` (mutmut 3.8): write the mutants, without the tests' stats
_GENERATE = """
from pathlib import Path
from os import makedirs
import mutmut.__main__ as m
m.set_mutant_under_test("mutant_generation")
makedirs(Path("mutants"), exist_ok=True)
m.copy_src_dir(); m.copy_also_copy_files(); m.setup_source_paths(); m.store_lines_covered_by_tests()
m.create_mutants(1)
"""


#: mutmut's stats run (mutmut 3.8) with its output shown, not caught: it names the tests that fail under the
#: trampolines, which mutmut's own run hides behind "failed to collect stats. runner returned 1"
_STATS = """
import mutmut.__main__ as m
class Shown:
    def __init__(self, *args, **kwargs): pass
    def __enter__(self): return self
    def __exit__(self, *args): pass
    def dump_output(self): pass
    def stop(self): pass
m.CatchOutput = Shown
m.set_mutant_under_test("mutant_generation")
m.setup_source_paths()
m.run_stats_collection(m.get_mutant_runner(1))
print("the stats run passed")
"""


def stats_run(env: dict[str, str]) -> int:
    """Run mutmut's stats run over the whole selection, every failing test shown (the staging done with
    ``--maxfail``): its exit status."""
    return subprocess.run(["nice", "-n", "10", sys.executable, "-c", _STATS], cwd=STAGE, env=env,
                          check=False).returncode


def generate(env: dict[str, str]) -> None:
    """Write the mutants of the staged code (unchanged functions keep their results)."""
    subprocess.run([sys.executable, "-c", _GENERATE], cwd=STAGE, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def sample(modules: list[str], k: int, seed: int) -> list[str]:
    """``k`` mutants of each module drawn at random (the same ones for the same seed and code)."""
    rng = random.Random(seed)
    names = []
    for keys in all_mutants(modules).values():
        names += rng.sample(keys, min(k, len(keys)))
    return names


def interval(killed: int, judged: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a score measured on ``judged`` mutants drawn at random."""
    if not judged:
        return 0.0, 1.0
    p = killed / judged
    centre = (p + z * z / (2 * judged)) / (1 + z * z / judged)
    half = z * math.sqrt(p * (1 - p) / judged + z * z / (4 * judged * judged)) / (1 + z * z / judged)
    return max(0.0, centre - half), min(1.0, centre + half)


def defined_functions(path: Path) -> set[str]:
    """The functions mutmut mutates in a source file, named as in a key: top-level ``function`` and
    ``Class.method`` of a top-level class."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return set()
    found = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            found |= {f"{node.name}.{f.name}" for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
    return found


def engine_functions() -> dict[str, set[str]]:
    """Function (as in a key) -> the engine's modules (repository paths) that define one of that name."""
    where: dict[str, set[str]] = {}
    for folder in ("diceengine", "systems", "grammars"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = path.relative_to(ROOT).as_posix()
            for function in defined_functions(path):
                where.setdefault(function, set()).add(module)
    return where


def _base(function: str) -> str:
    """``f [2]`` -> ``f``."""
    return function.split(" [", 1)[0]


def stale_records(records: list[tuple[Key, str]], matched: set[Key], modules: list[str],
                  where: dict[str, set[str]]) -> tuple[list[Key], int]:
    """The records that match no mutant any more: their function is gone from the engine, or every module
    defining it was run and none of its mutants has the record's lines; and the number of records not
    checked (their function is defined in a module not run)."""
    ran = {Path(m).as_posix() for m in modules}
    stale, unchecked = [], 0
    for key, _ in records:
        if key in matched:
            continue
        defined = where.get(_base(key.function), set())
        if defined and not defined <= ran:
            unchecked += 1
        else:
            stale.append(key)
    return stale, unchecked


def report(modules: list[str], show: bool, drawn: set[str] | None = None) -> int:
    """Print the score of each module (over the mutants ``drawn`` at random, when given) and the accepted
    records that match no mutant any more; the number of survivors not accepted plus stale records."""
    records = accepted()
    ok = {key for key, _ in records}
    record_functions = {_base(key.function) for key in ok}
    mutmut = Path(sys.executable).parent / "mutmut"
    open_survivors = 0
    matched: set[Key] = set()
    killed_but_accepted: list[tuple[str, Key]] = []
    keyed: list[str] = []  # the modules whose mutants' keys were read
    for module in modules:
        meta = STAGE / "mutants" / (staged_path(module) + ".meta")
        if not meta.exists():
            print(f"{module}: no results")
            continue
        every = json.loads(meta.read_text())["exit_code_by_key"]
        try:
            keys = module_keys(module, [k for k, c in every.items() if c in SURVIVED], record_functions)
        except FileNotFoundError:  # a run of other modules since put the plain module back in mutants/
            print(f"{module}: its mutants are no longer on disk (other modules ran since): run it again "
                  "(the results of unchanged functions are kept)")
            continue
        keyed.append(module)
        matched |= set(keys.values()) & ok
        killed_but_accepted += [(k, key) for k, key in keys.items() if key in ok and every[k] in KILLED]
        codes = every if drawn is None else {k: c for k, c in every.items() if k in drawn}
        killed = [k for k, c in codes.items() if c in KILLED]
        survived = sorted(k for k, c in codes.items() if c in SURVIVED)
        other = {k: c for k, c in codes.items() if c not in KILLED and c not in SURVIVED}
        equivalent = [k for k in survived if keys[k] in ok]
        live = [k for k in survived if keys[k] not in ok]
        judged = len(killed) + len(live)
        score = f"{100.0 * len(killed) / judged:.1f}%" if judged else "n/a"
        if judged and (other or drawn is not None):  # a part judged: the interval of the whole module's score
            lo, hi = interval(len(killed), judged)
            score += f" (95% interval {100 * lo:.1f}-{100 * hi:.1f}% if they were drawn at random)"
        unreached = sum(1 for k in survived if codes[k] == 33)
        print(f"{module}: {len(codes)} mutants{' drawn' if drawn is not None else ''}, {len(killed)} killed, "
              f"{len(survived)} survived ({unreached} reached by no test, {len(equivalent)} accepted as equivalent), "
              f"{len(other)} not judged yet; "
              f"score {score} (equivalent mutants aside)")
        for k in live:
            print(f"  survived{' (no test reaches it)' if codes[k] == 33 else ''}: {k}")
            print(f"    its record, if equivalent: {format_record(keys[k], '<why>')}")
            if show:
                subprocess.run([str(mutmut), "show", k], cwd=STAGE, check=False)
        for k, c in sorted(other.items()):
            print(f"  not judged ({c}): {k}")
        open_survivors += len(live)
    for k, key in killed_but_accepted:
        print(f"accepted but killed now (the record can go): {k}\n    {format_record(key)}")
    stale, unchecked = stale_records(records, matched, keyed, engine_functions())
    for key in stale:
        print(f"stale record, it matches no mutant (re-check it against the code): {format_record(key)}")
    if stale or unchecked:
        print(f"{len(stale)} stale records; {unchecked} not checked (their function is in a module not run)")
    return open_survivors + len(stale)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="+", help="repository paths, e.g. systems/d6.py diceengine/pmf.py")
    parser.add_argument("--report", action="store_true", help="only print the last results")
    parser.add_argument("--survivors", action="store_true", help="print the diff of each survivor")
    parser.add_argument("--max-children", type=int, default=1, help="parallel mutants (default 1)")
    parser.add_argument("--fresh", action="store_true", help="forget the cached results (after a config change)")
    parser.add_argument("--retest", action="store_true", help="run the last survivors again (after adding tests)")
    parser.add_argument("--sample", type=int, default=None, metavar="K",
                        help="run K mutants of each module, drawn at random (the score with its interval)")
    parser.add_argument("--seed", type=int, default=0, help="the draw of --sample (default 0)")
    parser.add_argument("--tests", nargs="+", default=None, metavar="PATH",
                        help="judge the mutants against these test files only (a lower bound of the score, in "
                             "minutes where the whole suite's first stats run takes half an hour)")
    parser.add_argument("--stats", action="store_true",
                        help="only run mutmut's stats run, its output shown and every failing test listed "
                             "(after \"failed to collect stats. runner returned 1\")")
    parser.add_argument("--mutants", type=Path, default=None, metavar="FILE",
                        help="run only the mutants named in FILE (one per line, e.g. an earlier run's survivors, "
                             "with --fresh: judged again against tests written since)")
    args = parser.parse_args(argv)
    if args.fresh:
        shutil.rmtree(STAGE / "mutants", ignore_errors=True)
    if not args.report:
        stage(args.modules, ["--maxfail=1000", "-rf"] if args.stats else None, args.tests)
        env = dict(os.environ, DICE_PROPERTY_SCALE=os.environ.get("DICE_PROPERTY_SCALE", "0.1"))
        if args.stats:
            generate(env)
            return stats_run(env)
        mutmut = Path(sys.executable).parent / "mutmut"
        cmd = ["nice", "-n", "10", str(mutmut), "run", "--max-children", str(args.max_children)]
        if args.retest:
            live = survivors(args.modules)
            cmd = [*cmd, *live] if live else []  # nothing to run again (an empty list would run them all)
        elif args.mutants is not None:
            generate(env)
            known = {k for keys in all_mutants(args.modules).values() for k in keys}
            named = [n.split()[0] for n in args.mutants.read_text(encoding="utf-8").splitlines() if n.strip()]
            missing = [n for n in named if n not in known]
            if missing:  # renamed or gone with the code they mutated
                print(f"{len(missing)} mutants named are not among the modules' mutants: {', '.join(missing[:5])}...")
            chosen = [n for n in named if n in known]
            cmd = [*cmd, *chosen] if chosen else []
        elif args.sample is not None:
            generate(env)  # the mutants of the code as it is now, before drawing among them
            picked = sample(args.modules, args.sample, args.seed)
            cmd = [*cmd, *picked] if picked else []  # --sample 0: generate the mutants only
        if cmd and subprocess.run(cmd, cwd=STAGE, env=env, check=False).returncode != 0:
            # mutmut's own run failed (its first pass of the whole suite, say): nothing it left is a verdict
            print("mutmut's run failed (see above): no mutant was judged by it")
            return 1
    drawn = set(sample(args.modules, args.sample, args.seed)) if args.sample else None
    if args.mutants is not None:
        drawn = {n.split()[0] for n in args.mutants.read_text(encoding="utf-8").splitlines() if n.strip()}
    return 1 if report(args.modules, args.survivors, drawn) else 0  # open survivors or stale records


if __name__ == "__main__":
    raise SystemExit(main())
