"""The term's fast-path flags (``flat``, ``plain``, ``explode_only``) read from the fields themselves (issue 33):
each fast path names the fields it honours and is on only when every other field is as a bare term has it, so a
field added to :class:`TermSpec` turns every fast path off until a path says it honours it."""

from __future__ import annotations

import itertools

import pytest
from diceengine.systems.standard.term.scores import with_tally
from diceengine.systems.standard.term.spec import HONOURS, TermSpec

import diceengine as de
from diceengine import api
from diceengine.errors import DiceError
from diceengine.records import dataclass, fields
from tests.peer_corpus import CORPUS
from tests.test_quick_path import _specs

FLAGS = ("flat", "plain", "explode_only")

#: expressions of every modifier, alone and in pairs, beside the peers' corpus
MODIFIERS = ["kh2", "kl1", "dh1", "dl1", "k2", "!", "!!", "!p", "!>=5", "r1", "ro<2", "rr1", ">=4", ">=4f1",
             ">=4dbl6", "cs>=5", "cf<=2", "s", "sd", "u", "uo", "mi2", "ma5", "min2", "max5", "mt", "m", "even",
             "odd", "ra6", "rol1", "rah1", "ralm", "kh2cs6"]


def expressions() -> list[tuple[str, dict]]:
    found = [(e, options) for e, _, options, conflict in CORPUS if not conflict]
    for a, b in itertools.permutations(MODIFIERS, 2):
        found.append((f"4d6{a}{b}", {}))
    for a in MODIFIERS:
        found += [(f"4d6{a}", {}), (f"4dF{a}", {}), (f"5d10{a}", {"explosions": "dice"}),
                  (f"3d8{a}", {"dialect": "d20"}), (f"1000d6{a}", {})]
    for n, sides, bang in itertools.product((1, 3, 12), (4, 6, 10, 20, 100), ("!", "!!", "!p", "!>=3", "!!=2")):
        found += [(f"{n}d{sides}{bang}", {}), (f"{n}d{sides}{bang}kh{n}", {}), (f"{n}d{sides}{bang}s", {})]
    return found


def old_flags(spec: TermSpec) -> dict[str, bool]:
    """The flags as session 35 wrote them: long lists of "no X and no Y" (what the flags must still give)."""
    consecutive = isinstance(spec.faces, range)
    flat = spec.explode is None and spec.reroll is None and not spec.unique_on and consecutive \
        and spec.reroll_rank is None and spec.pool is None
    explode_only = spec.explode is not None and spec.reroll is None and not spec.unique_on and spec.success is None \
        and spec.window is None and spec.selection is None and consecutive and not spec.penetrate \
        and spec.explode_limit is None and spec.sort is None and spec.crit_success is None \
        and spec.crit_failure is None
    plain = flat and spec.success is None and spec.sort is None and spec.crit_success is None \
        and spec.crit_failure is None and spec.selection is None
    return {"flat": flat, "plain": plain, "explode_only": explode_only}


def all_specs() -> list[tuple[str, TermSpec]]:
    out = []
    for expression, options in expressions():
        try:
            plan = api.plan(expression, **options)
        except DiceError:
            continue
        for spec in _specs(plan):
            out.append((expression, spec))
            if spec.crit_success is not None or spec.crit_failure is not None:
                out.append((expression + " (tallied)", with_tally(spec)))
    return out


def test_every_spec_keeps_its_flags() -> None:
    specs = all_specs()
    seen = {flag: [0, 0] for flag in FLAGS}
    for expression, spec in specs:
        want = old_flags(spec)
        for flag in FLAGS:
            assert getattr(spec, flag) == want[flag], (expression, flag)
            seen[flag][want[flag]] += 1
    assert len(specs) > 1000
    for flag, (off, on) in seen.items():  # each flag seen both ways, many times
        assert off > 50 and on > 50, (flag, off, on)


def _rebuilt(spec: TermSpec, cls: type = TermSpec, **changes: object) -> TermSpec:
    given = {f.name: getattr(spec, f.name) for f in fields(TermSpec) if f.init}
    return cls(**{**given, **changes})


@dataclass(frozen=True, eq=False)
class ColouredSpec(TermSpec):
    """A spec with a field no fast path has said it honours (a new modifier added without reading the flags)."""

    colour: int = 0


@pytest.mark.parametrize("expression", ["4d6", "4d6kh3", "8d10>=7f1", "4d6!", "4d6!!", "10d10", "3d6s"])
def test_a_new_field_turns_every_fast_path_off(expression: str) -> None:
    [spec] = _specs(api.plan(expression))
    assert any(getattr(spec, flag) for flag in FLAGS)
    same = _rebuilt(spec, ColouredSpec)  # the new field at its default: nothing changes
    assert {flag: getattr(same, flag) for flag in FLAGS} == {flag: getattr(spec, flag) for flag in FLAGS}
    coloured = _rebuilt(spec, ColouredSpec, colour=3)
    assert not any(getattr(coloured, flag) for flag in FLAGS), expression
    # and the engine's answers with it are the general path's (no fast path ignores it)
    assert coloured.per_die == spec.per_die


def test_a_field_a_path_does_not_honour_turns_it_off() -> None:
    """Each field left out of a path's list, set on a term the path takes, turns that path off."""
    from diceengine.systems.standard.nodes import Compare

    point = Compare.of(">=", 3)
    unusual = {"explode": point, "compound": True, "reroll": point, "reroll_once": True, "success": point,
               "failure": point, "penetrate": True, "explode_limit": 1, "unique": point, "unique_once": True,
               "unique_on": True, "sort": "s", "crit_success": point, "crit_failure": point, "double": point,
               "reroll_rank": ("ro", "l", 1), "pool": object(), "selection": object(), "window": (0, 1),
               "keeps": (object(),), "each_die": True, "reroll_cap": 3, "tally": (0, 1, 0, 0, 0, 0)}
    bases = {"flat": "4d6", "plain": "4d6", "explode_only": "4d6!"}
    for flag, base in bases.items():
        [spec] = _specs(api.plan(base))
        assert getattr(spec, flag)
        for name, value in unusual.items():
            if name in HONOURS[flag]:
                continue
            changed = _rebuilt(spec, **{name: value})
            assert not getattr(changed, flag), (flag, name)
    assert set(unusual) | {"node", "text", "count", "faces", "kind", "label"} == \
        {f.name for f in fields(TermSpec) if f.init}


def test_listed_faces_are_no_fast_path() -> None:
    # the fast rollers draw from a range: listed faces (a clamp) go the general way
    [spec] = _specs(api.plan("4d6mi2"))
    assert not spec.flat and not spec.plain and not spec.explode_only
    assert de.roll("4d6mi2", seed=1).total >= 8
