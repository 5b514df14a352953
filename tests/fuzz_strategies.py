"""The engine's own fuzz harness: hypothesis strategies for hostile input, and a runner that calls the
engine in a worker process under a time and a memory limit.

Inputs (:func:`fuzz_cases`): sentences of every registered system's Lark grammar, mutations of valid
expressions (the systems' examples and catalogues), random Unicode text and random bytes, with random
keyword options (valid, invalid, unhashable), through ``roll``, ``sample``, ``distribution`` and the
``dice`` command line; expressions and option values are sometimes ``str`` subclasses (``numpy.str_``, a
message type of a chat library). Fights (:func:`random_encounter`): encounters of every ruleset with damage
rules, small codes that fall to 0D, two of a kind on both sides, odd settings, through ``simulate``,
``sweep`` and ``duel_odds``.

The promise checked (:func:`check_call`): every call answers with a result or the engine's own error
(:class:`~diceengine.DiceError`), within the limits; results are sane (probabilities sum to 1, a
sample has ``n`` rows of exact integers, a roll explains itself, the command line exits 0 or 2 without
a traceback). Anything else is a failure, classed by kind.

``python -m benchmarks.fuzz --n 100000`` runs it at scale; ``tests/test_fuzz.py`` runs a few
thousand derandomized inputs.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import re
import resource
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from hypothesis import strategies as st


def _registered() -> tuple[str, ...]:
    from diceengine.registry import system_names

    return tuple(system_names())


#: the systems fuzzed: every registered one (built-in or installed plug-in)
SYSTEMS = _registered()
CALLS = ("roll", "sample", "distribution", "cli", "fight")
#: the ways a fight is asked for
FIGHT_METHODS = ("simulate", "sweep", "duel_odds")
#: rounds a fuzzed fight may last: fights nobody can win (weak damage, codes at 0D) play every round, and a
#: round costs a few numpy calls per fighter whatever the number of fights (a sweep of two cells of 100 rounds:
#: about 0.65 s at load 3, and ten times that at load 12, where the 100,000-call run timed seven of them out)
FIGHT_ROUNDS = 60
#: seconds a call may take before the harness calls it a hang (generous: a loaded 2-core machine)
TIME_LIMIT = 10.0
#: address space a worker may add to what it holds after start-up
MEMORY_LIMIT = 768 * 2**20


# ---------------------------------------------------------------- strategies

@cache
def _grammar(system: str) -> Any:
    from lark import Lark

    from diceengine.parser import grammar_text
    from diceengine.registry import get_system

    return Lark(grammar_text(get_system(system)), parser="lalr", lexer="contextual",
                maybe_placeholders=True, g_regex_flags=re.ASCII)




@cache
def _rules(system: str) -> tuple[dict[str, list[list[tuple[str, bool]]]], dict[str, int], dict[str, Any], str]:
    """``(rules, least depth of each rule, terminal patterns, start)`` of ``system``'s compiled grammar."""
    g = _grammar(system)
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    for rule in g.rules:
        rules.setdefault(rule.origin.name, []).append([(sym.name, sym.is_term) for sym in rule.expansion])
    least: dict[str, int] = {}
    changed = True
    while changed:  # least depth to a sentence, by fixpoint
        changed = False
        for name, expansions in rules.items():
            for expansion in expansions:
                if all(term or child in least for child, term in expansion):
                    d = 1 + max([least[c] for c, t in expansion if not t] or [0])
                    if d < least.get(name, 1 << 30):
                        least[name], changed = d, True
    patterns = {t.name: t.pattern for t in g.terminals}
    return rules, least, patterns, g.options.start[0]


#: a lookbehind assertion (``(?<=[0-9])``), its character classes included
LOOKBEHIND = re.compile(r"\(\?<[=!](?:\[[^\]]*\]|[^()\[])*\)")


@cache
def _terminal_pool(system: str, name: str) -> tuple[str, ...]:
    """Sample spellings of a terminal: its string in random letter case, or strings its regex matches
    (drawn once with hypothesis's ``from_regex``), small numbers for ``INT``."""
    import random

    if name == "INT":
        return tuple(str(v) for v in [*range(13), 20, 60, 100, 120, 999999, 1000000, 1000000000, 10**10, "007"])
    if name == "WS":
        return (" ", "  ", "\t", " \n ")
    pattern = _rules(system)[2][name]
    rng = random.Random(name)
    if pattern.type == "str":
        value = pattern.value
        if "i" not in pattern.flags:
            return (value,)
        return tuple({"".join(c.upper() if rng.random() < 0.5 else c for c in value) for _ in range(8)} | {value})
    from hypothesis import HealthCheck, Phase, given, settings

    found: list[str] = []
    # a lookbehind reads the text before the token, which a token drawn alone has not: the token's own part is drawn
    regexp = LOOKBEHIND.sub("", pattern.to_regexp())

    @settings(max_examples=60, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.from_regex(regexp, fullmatch=True))
    def collect(text: str) -> None:
        if len(text) < 30:
            found.append(text)

    collect()
    return tuple(found) or ("",)


def sentence(system: str, choose: Any, max_depth: int = 8) -> str:
    """A sentence of ``system``'s grammar (valid syntax, any meaning), depth-limited, tokens spaced or not;
    ``choose(sequence)`` makes every choice (``random.Random.choice``, or a hypothesis draw)."""
    rules, least, _, start = _rules(system)

    def depth_of(expansion: list[tuple[str, bool]]) -> int:
        return 1 + max([least.get(c, 1 << 30) for c, t in expansion if not t] or [0])

    def walk(name: str, depth: int) -> str:
        expansions = rules[name]
        if depth >= max_depth:
            best = min(depth_of(e) for e in expansions)
            expansions = [e for e in expansions if depth_of(e) == best]
        expansion = choose(expansions)
        parts = [choose(_terminal_pool(system, child)) if term else walk(child, depth + 1) for child, term in expansion]
        return choose((" ", " ", "")).join(parts)

    return walk(start, 0)


def grammar_sentences(system: str) -> st.SearchStrategy[str]:
    """Hypothesis strategy: sentences of ``system``'s grammar, every choice a (shrinkable) draw."""
    for name in _rules(system)[2]:  # terminal spellings drawn now, not inside the caller's @given
        _terminal_pool(system, name)

    @st.composite
    def build(draw: st.DrawFn) -> str:
        return sentence(system, lambda seq: draw(st.sampled_from(seq)))

    return build()


@cache
def seed_expressions(system: str) -> list[str]:
    """Valid expressions of ``system``: its examples, a slice of its catalogue and ladder."""
    from diceengine.registry import get_system

    sys_ = get_system(system)
    found = list(sys_.examples)
    found += [text for _, text in list(sys_.catalogue())[::37]]
    people, difficulties = sys_.ladder()
    found += [f"{c} vs {d}" for (_, c), (_, d) in zip(people, difficulties)]
    return found or ["1"]


_ODD = ["ſ", "İ", "ı", "\u212a", "é", "ｄ", "٣", "\x00", "\u200b", "💥", "\ufeff", "½", "Ⅻ", "\u0301"]
_PIECES = ["d", "D", "!", "!!", "kh", "kl", "dl", "r", "ro", "f", ">=", "<=", "<", ">", "=", "%", "F", "vs",
           "spec", "(", ")", "+", "-", "*", "/", "[", "]", " ", "0", "1", "6", "999999", "1000000000",
           "99999999999", "a", "p", "c", "s", "force", "moderate", "heroic", "point blank"] + _ODD


def mutate(text: str, rng: Any) -> str:
    """``text`` with a few random edits (insertions of notation pieces and look-alikes, deletions,
    repetitions, numbers made large)."""
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        op = rng.choice(["insert", "delete", "replace", "repeat", "number"])
        piece = rng.choice(_PIECES)
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + rng.randint(1, 3):]
        elif op == "replace":
            text = text[:i] + piece + text[i + 1:]
        elif op == "repeat":
            text = text * rng.randint(2, 30) if len(text) < 60 else text + text
        else:
            text = re.sub(r"\d+", lambda m: rng.choice(_NUMBERS), text, count=1)
    return text


_NUMBERS = ["0", "1", "2", "6", "12", "99", "100", "1000", "9999", "10000", "999999", "1000000", "1000000000",
            "99999999999", "9007199254740993"]


def random_text(rng: Any) -> str:
    """Random Unicode, random bytes read as Latin-1 or UTF-8, notation pieces at random, long repetitions."""
    kind = rng.randrange(5)
    size = rng.randint(0, 40)
    if kind == 0:
        return "".join(chr(rng.choice([rng.randint(0, 0x7F), rng.randint(0x80, 0x2FFF), rng.randint(0, 0x10FFFF)]))
                       for _ in range(size)).encode("utf-8", "replace").decode("utf-8", "replace")
    if kind == 1:
        return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 25)))
    if kind == 2:
        return bytes(rng.randrange(256) for _ in range(size)).decode("latin-1")
    if kind == 3:
        return bytes(rng.randrange(256) for _ in range(size)).decode("utf-8", "replace")
    return rng.choice(_PIECES) * rng.randint(1, 1200)


_VALUES = [True, False, 0, 1, -3, 2.5, float("nan"), None, "flag", "none", "actor", "reroll", "x", "", [1], {"a": 1}]


def random_options(system: str, rng: Any) -> dict[str, Any]:
    """Keyword options: the system's own with valid and invalid values, unknown names, unhashable values."""
    from diceengine.registry import get_system

    known = get_system(system).options
    names = sorted(known) + ["nope", "seed", "tie"]
    out: dict[str, Any] = {}
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(names)
        opt = known.get(name)
        if opt is not None and opt.choices and rng.random() < 0.6:
            out[name] = rng.choice(opt.choices)
        elif opt is not None and rng.random() < 0.5:
            out[name] = not opt.default if isinstance(opt.default, bool) else opt.default
        else:
            out[name] = rng.choice(_VALUES)
    return out


class Message(str):
    """A chat library's message type: a ``str`` subclass whose ``__str__`` is not its text."""

    def __str__(self) -> str:
        return "<message>"


_TEXT_TYPES = (str, str, str, str, Message, "numpy")


def odd_text(value: Any, rng: Any) -> Any:
    """``value`` (when a ``str``) sometimes as a ``str`` subclass: ``numpy.str_`` or :class:`Message`."""
    if not isinstance(value, str):
        return value
    kind = rng.choice(_TEXT_TYPES)
    if kind == "numpy":
        import numpy as np

        return np.str_(value)
    return kind(value)


_CODES = ["0D", "0D+2", "1D", "1D", "1D+1", "2D", "2D", "2D+2", "3D", "4D+1", "6D", "12D", "1D-1", "-1D", "banana", ""]


def _fighter(system: str, i: int, player: bool, rng: Any) -> dict[str, Any]:
    if system == "ffg":
        out: dict[str, Any] = {"name": f"F{i}", "characteristic": rng.choice([1, 1, 2, 3, 6, 0, 7]),
                               "skill": rng.choice([0, 0, 1, 3, 5, 6]), "soak": rng.choice([0, 2, 5, 30, 31]),
                               "wound_threshold": rng.choice([1, 5, 12, 60, 0]), "damage": rng.choice([0, 1, 6, 40]),
                               "kind": rng.choice(["character", "minion", "rival", "nemesis", "droid"]),
                               "player": player}
        if rng.random() < 0.3:
            out["size"] = rng.choice([1, 3, 20, 21])
        return out
    small = ["1D", "1D", "0D", "1D+1", "2D"]  # codes that fall to 0D after a wound or two
    out = {"name": f"F{i}", "attack": rng.choice(_CODES if rng.random() < 0.2 else small + ["3D", "4D"]),
           "strength": rng.choice(small + ["2D", "3D"]), "damage": rng.choice(small + ["4D", "5D"]),
           "player": player}
    if system == "d6wild":
        out["perception"] = rng.choice(small)
    if rng.random() < 0.4:
        out["dodge"] = rng.choice(small)
    if rng.random() < 0.3:
        out["force_points"] = rng.choice([0, 1, 2, 5])
    if rng.random() < 0.2:
        out["armour"] = rng.choice(["0D+2", "1D", "2D"])
    return out


def fight_systems() -> tuple[str, ...]:
    """The registered systems that have damage rules."""
    from diceengine.registry import get_system

    return tuple(name for name in SYSTEMS if getattr(get_system(name), "fight_rules", lambda: None)() is not None)


def random_encounter(system: str, rng: Any) -> dict[str, Any]:
    """An encounter of ``system``: one or two fighters a side, small codes that fall to 0D, often two of a kind
    (both players or both non-players, the same fighter on both sides), odd settings now and then."""
    kind = rng.random() < 0.5
    sides: dict[str, Any] = {}
    for side in ("a", "b"):
        size = 1 if rng.random() < 0.7 else 2
        sides[side] = [_fighter(system, i, kind if rng.random() < 0.8 else not kind, rng) for i in range(size)]
    if rng.random() < 0.4:  # the same fighter on both sides: every tie is two of a kind
        sides["b"] = [dict(f, name=f"{f['name']}'") for f in sides["a"]]
    settings: dict[str, Any] = {}
    if system == "ffg":
        settings["range"] = rng.choice(["engaged", "short", "long", "extreme", "orbit"])
    else:
        settings["range"] = rng.choice(["point_blank", "short", "medium", "long", 5, 30, "orbit"])
        if rng.random() < 0.5:
            settings["dodge"] = rng.choice(["never", "always"])
        if rng.random() < 0.4:
            settings["force_point"] = rng.choice(["never", "first_round", "when_wounded"])
    if system == "d6wild" and rng.random() < 0.4:
        settings["complication"] = rng.choice(["flag", "remove_highest", "none"])
    return {"name": "fuzz", system: {**sides, **settings}}


@dataclass(frozen=True)
class Case:
    """One call of the engine."""

    call: str
    system: str
    expression: str
    options: tuple[tuple[str, Any], ...] = ()

    def shown(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options)
        return f"{self.call}({self.expression!r}, system={self.system!r}{opts})"


def random_case(rng: Any) -> Case:
    """One hostile call: a system, an input of one of the kinds, options, an entry point."""
    call = rng.choice(CALLS)
    if call == "fight":
        import json

        system = rng.choice(fight_systems())
        method = rng.choice(FIGHT_METHODS)
        return Case("fight", system, json.dumps(random_encounter(system, rng)), (("method", method),))
    system = rng.choice(SYSTEMS)
    kind = rng.choice(["grammar", "grammar", "mutated", "mutated", "random"])
    if kind == "grammar":
        text = sentence(system, rng.choice)
    elif kind == "mutated":
        text = mutate(rng.choice(seed_expressions(system)), rng)
    else:
        text = random_text(rng)
    options = random_options(system, rng) if rng.random() < 0.25 else {}
    if call != "cli":  # the command line's arguments are always plain strings
        text = odd_text(text, rng)
        options = {k: odd_text(v, rng) for k, v in options.items()}
    return Case(call, system, text, tuple(sorted(options.items(), key=lambda kv: kv[0])))


def fuzz_cases() -> st.SearchStrategy[Case]:
    """Hypothesis strategy of hostile calls: hypothesis seeds (and derandomizes) a random generator that
    builds each call; a plain generator makes the bulk runs cheap (about a hundred choices a call), and
    the harness reports the smallest input of each failure class itself instead of shrinking."""
    return st.randoms(use_true_random=True).map(random_case)


# ---------------------------------------------------------------- one call, checked

def check_call(case: Case) -> str | None:
    """Run one call; ``None`` when the promise holds, else the failure's class (the kind and where)."""
    import numpy as np

    import diceengine as de

    options = {k: v for k, v in case.options if k != "seed"}  # seed is the entry points' own argument
    try:
        if case.call == "roll":
            r = de.roll(case.expression, case.system, seed=1, **options)
            text = str(r)
            dice = r.dice
            r.model_dump_json()
            if not isinstance(text, str) or not isinstance(dice, list):
                return "roll: no explanation"
        elif case.call == "sample":
            s = de.sample(case.expression, 50, case.system, seed=1, **options)
            for name in s:
                col = np.asarray(s[name])
                if len(col) != 50:
                    return f"sample: column {name} has {len(col)} rows"
                if col.dtype.kind == "i" and np.abs(col).max(initial=0) > 2**53:
                    return "sample: value beyond the exact integer range"
        elif case.call == "distribution":
            d = de.distribution(case.expression, case.system, **options)
            total = float(np.sum(d.probabilities)) + d.truncated
            if not abs(total - 1.0) < 1e-9:
                return f"distribution: probabilities sum to {total!r}"
            for name, col in d.columns.items():
                if col.dtype.kind == "i" and len(col) and np.abs(col).max() > 2**53:
                    return "distribution: value beyond the exact integer range"
        elif case.call == "fight":
            return _check_fight(case)
        else:
            return _check_cli(case)
    except de.DiceError:
        return None
    except MemoryError:
        return "MemoryError"
    except RecursionError:
        return "RecursionError"
    except Exception as err:  # noqa: BLE001 - every failure is what the harness is for
        where = traceback.extract_tb(err.__traceback__)[-1]
        return f"{type(err).__name__} in {os.path.basename(where.filename)}:{where.name}"
    return None


def _check_fight(case: Case) -> str | None:
    import json

    from diceengine import fights

    fight = fights.load_encounter(json.loads(case.expression))[case.system]
    method = dict(case.options)["method"]
    if method == "duel_odds":
        odds = fights.duel_odds(fight)
    elif method == "simulate":
        odds = fights.simulate(fight, 200, seed=1, max_rounds=FIGHT_ROUNDS)
    else:
        rows = fights.sweep(fight, {"range": ["short", "medium"]} if case.system != "ffg" else {"range": ["short"]},
                            fights=100, seed=1, workers=1, max_rounds=FIGHT_ROUNDS)
        return None if len(rows) in (1, 2) else "fight: sweep lost a cell"
    total = odds.a_wins + odds.b_wins + odds.both_down + odds.unfinished
    if not abs(total - 1.0) < 1e-6:
        return f"fight: {method} odds sum to {total!r}"
    return None


def _check_cli(case: Case) -> str | None:
    from diceengine.cli import main

    args = ["roll", case.expression, "--system", case.system, "--seed", "1"]
    for k, v in case.options:
        args += ["-o", f"{k}={v}"]
    out, err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(args)
    except SystemExit as exit_:  # argparse's own usage errors
        code = exit_.code if isinstance(exit_.code, int) else 1
    if "Traceback" in err.getvalue():
        return "cli: traceback"
    if code not in (0, 2):
        return f"cli: exit status {code}"
    return None


# ---------------------------------------------------------------- the worker process

def _worker(conn: Any) -> None:
    """Serve calls from ``conn`` under the memory limit, one at a time."""
    try:
        with open("/proc/self/status") as status:
            vm = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (vm + MEMORY_LIMIT, vm + MEMORY_LIMIT))
    except (OSError, ValueError, StopIteration):  # pragma: no cover - no /proc: time limit only
        pass
    while True:
        case = conn.recv()
        if case is None:
            return
        start = time.perf_counter()
        verdict = check_call(case)
        conn.send((verdict, time.perf_counter() - start))


class Runner:
    """Calls the engine in a worker process; a call past ``time_limit`` kills the worker (a hang)."""

    def __init__(self, time_limit: float = TIME_LIMIT) -> None:
        self.time_limit = time_limit
        self._ctx = multiprocessing.get_context("fork")
        self._proc: Any = None
        self._conn: Any = None
        _warm()

    def _start(self) -> None:
        parent, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(target=_worker, args=(child,), daemon=True)
        self._proc.start()
        self._conn = parent

    def run(self, case: Case) -> tuple[str | None, float]:
        """``(failure class or None, seconds)``."""
        if self._proc is None or not self._proc.is_alive():
            self._start()
        self._conn.send(case)
        if self._conn.poll(self.time_limit):
            try:
                return self._conn.recv()
            except EOFError:
                pass
            self.close()
            return "worker died", 0.0
        self.close()
        return "timeout", self.time_limit

    def close(self) -> None:
        """Stop the worker (this runner started it)."""
        if self._proc is not None:
            if self._proc.is_alive():
                self._proc.kill()
            self._proc.join()
            self._proc = None


def _warm() -> None:
    """Build the parsers before forking, so that each worker starts ready."""
    import diceengine as de

    for system in SYSTEMS:
        try:
            de.roll("1", system)
        except de.DiceError:
            pass


@dataclass
class Report:
    """Failures by class, each with its smallest input; the slowest call."""

    calls: int = 0
    failures: dict[str, list[Case]] = field(default_factory=dict)
    slowest: tuple[float, Case | None] = (0.0, None)
    #: the slowest call that kept the promise, by kind of call
    slowest_accepted: dict[str, tuple[float, Case]] = field(default_factory=dict)

    def add(self, case: Case, verdict: str | None, seconds: float) -> None:
        self.calls += 1
        if seconds > self.slowest[0]:
            self.slowest = (seconds, case)
        if verdict is None and seconds > self.slowest_accepted.get(case.call, (-1.0, case))[0]:
            self.slowest_accepted[case.call] = (seconds, case)
        if verdict is not None:
            self.failures.setdefault(verdict, []).append(case)

    @property
    def failed(self) -> int:
        return sum(len(v) for v in self.failures.values())

    def summary(self) -> str:
        lines = [f"{self.calls} calls, {self.failed} failures in {len(self.failures)} classes"]
        for kind, cases in sorted(self.failures.items(), key=lambda kv: -len(kv[1])):
            smallest = min(cases, key=lambda c: (len(c.expression), c.expression))
            lines.append(f"  {len(cases):6d}  {kind}\n          smallest: {smallest.shown()}")
        if self.slowest[1] is not None:
            lines.append(f"slowest call: {self.slowest[0]:.3f} s  {self.slowest[1].shown()}")
        for call in CALLS:
            if call in self.slowest_accepted:
                seconds, case = self.slowest_accepted[call]
                lines.append(f"slowest accepted {call}: {seconds:.3f} s  {case.shown()[:300]}")
        return "\n".join(lines)


def run(n: int, seed: int | None = None, time_limit: float = TIME_LIMIT) -> Report:
    """Fuzz the engine with ``n`` generated calls (derandomized when ``seed`` is None)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    report = Report()
    runner = Runner(time_limit)

    @settings(max_examples=n, derandomize=seed is None, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(fuzz_cases())
    def one(case: Case) -> None:
        verdict, seconds = runner.run(case)
        report.add(case, verdict, seconds)

    if seed is not None:
        one = hypothesis_seed(seed)(one)
    try:
        one()
    finally:
        runner.close()
    return report
