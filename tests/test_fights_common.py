"""The fight modules' shared pieces (``diceengine.systems.combat``) against values computed here: codes in
encounter files, the sampler, targets and statuses, array battles, the memo, mixtures."""

from __future__ import annotations

import numpy as np
import pytest
from diceengine.systems import combat as fc
from diceengine.systems.d6 import Code, fighters

from diceengine.fights import A_WINS, B_WINS, BOTH_DOWN, GOING
from tests.helpers import chi2_passes


@pytest.mark.parametrize("value, code", [
    ("4D+2", Code(4, 2)), (" 4 D + 2 ", Code(4, 2)), ("2", Code(0, 2)), ("-1", Code(0, -1)), ("3d", Code(3, 0)),
    ("0D+2", Code(0, 2)), ("12D-2", Code(12, -2)), (7, Code(0, 7)), ("4D+1D", Code(5, 0)), (Code(2, 1), Code(2, 1)),
    ("1000D", Code(1000, 0)),
])
def test_codes_in_encounter_files(value, code):
    got = fighters._code(value)
    assert (got.dice, got.pips) == (code.dice, code.pips)


@pytest.mark.parametrize("value, message", [
    (True, 'a dice code is written like "4D+2", not True'),
    (4.5, 'a dice code is written like "4D+2", not 4.5'),
    (None, 'a dice code is written like "4D+2", not None'),
    ("banana", "not a dice code: 'banana' (unexpected 'banana': expected a number, '(' or '-')"),
    ("", "not a dice code: '' (empty expression)"),
])
def test_bad_codes_say_why(value, message):
    with pytest.raises(ValueError) as info:
        fighters._code(value)
    assert str(info.value) == message


def test_code_totals():
    assert fighters.code_pmf(Code(0, 3), "d6") is None
    assert fighters.code_pmf(Code(-1, 3), "d6") is None
    values, probs = fighters.code_pmf(Code(2, 1), "d6")
    counts: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            counts[a + b + 1] = counts.get(a + b + 1, 0) + 1
    assert dict(zip(values.tolist(), probs.tolist())) == pytest.approx({v: c / 36 for v, c in counts.items()})
    assert values.dtype == np.int64 and probs.sum() == pytest.approx(1.0, abs=1e-15)


def test_the_sampler_draws_what_a_binary_search_of_the_cdf_draws():
    pmfs = [(np.array([1, 2, 3]), np.array([0.2, 0.3, 0.5])), None, (np.array([5]), np.array([1.0])),
            (np.array([-4, 0, 9, 10, 11, 40]), np.array([0.01, 0.3, 0.09, 0.2, 0.3, 0.1]) * 2),  # unnormalised
            (np.arange(200), np.full(200, 1 / 200)),
            (np.arange(60), 0.5 ** np.arange(60.0)),  # a long tail: many values share a bucket of the guide
            (np.arange(40), np.r_[0.999, np.full(39, 0.001 / 39)])]  # ... at the top of the CDF too
    sampler = fc.TotalSampler(pmfs)
    assert sampler.steps > 2  # the tails' buckets take the path of several steps
    n = 200_000
    rows = np.random.default_rng(1).integers(0, len(pmfs), n)
    got = sampler(rows, np.random.default_rng(7))
    u = np.random.default_rng(7).random(n)
    want = np.empty(n, dtype=np.int64)
    for r, pmf in enumerate(pmfs):  # each row's draws by a binary search of its own CDF
        at = rows == r
        if pmf is None:
            want[at] = fc.NO_ROLL
            continue
        v, p = pmf
        cdf = np.cumsum(p) / p.sum()
        want[at] = v[np.minimum(np.searchsorted(cdf, u[at], side="right"), len(v) - 1)]
    assert got.dtype == np.int64
    assert (got == want).all()


def test_a_sampler_of_nothing_but_no_rolls():
    sampler = fc.TotalSampler([None, None])
    assert sampler(np.array([0, 1, 1]), np.random.default_rng(1)).tolist() == [fc.NO_ROLL] * 3
    assert fc.NO_ROLL == -(10**6)


def test_targets_and_statuses():
    able = np.array([[True, True, True, True], [False, True, False, True], [True, False, True, False]])
    side = np.array([0, 0, 1, 1])
    actor_side = np.array([0, 1, 1])
    has, target = fc.first_enemy(able, side, actor_side)
    assert has.tolist() == [True, True, True] and target.tolist() == [2, 1, 0]
    has, _ = fc.first_enemy(np.array([[True, True, False, False]]), side, np.array([0]))
    assert has.tolist() == [False]
    status = fc.pairs_status(np.array([True, True, False, False]), np.array([True, False, True, False]))
    assert status.tolist() == [GOING, A_WINS, B_WINS, BOTH_DOWN] and status.dtype == np.int8
    assert [fc.status_of(a, b) for a, b in ((False, False), (False, True), (True, False), (True, True))] == [
        GOING, A_WINS, B_WINS, BOTH_DOWN]


class _Pair(fc.ArrayBattle):
    arrays = ("health", "extra")

    def __init__(self) -> None:
        super().__init__(np.array([0, 1, 1]), 4)
        self.health = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1], [0, 0, 0]])
        self.extra = np.arange(4)

    def out(self) -> np.ndarray:
        return self.health <= 0

    def step(self, gen: np.random.Generator) -> None:  # not played here
        raise NotImplementedError


def test_array_battles_keep_their_fights():
    battle = _Pair()
    assert battle.size == 4
    assert battle.status().tolist() == [A_WINS, B_WINS, GOING, BOTH_DOWN]
    battle.keep(np.array([False, True, True, False]))
    assert battle.size == 2 and battle.n == 2
    assert battle.extra.tolist() == [1, 2] and battle.health.tolist() == [[0, 1, 0], [1, 1, 1]]
    assert battle.status().tolist() == [B_WINS, GOING]


def test_memo_caches_by_instance_and_arguments():
    calls: list[tuple] = []

    class Thing:
        @fc.memo
        def twice(self, x: int, y: int = 0) -> int:
            calls.append((x, y))
            return 2 * x + y

    a, b = Thing(), Thing()
    assert a.twice(3) == 6 and a.twice(3) == 6 and a.twice(3, 1) == 7 and b.twice(3) == 6
    assert calls == [(3, 0), (3, 1), (3, 0)]
    assert Thing.twice.__name__ == "twice" and "_memo_twice" in a.__dict__


def test_mix_adds_weighted_chances():
    """Pairs (a state may come twice) added with their weight under their key; a chance 0 still names a state
    (the exact chains keep the states they reach, the FFG duel's sure hits among them)."""
    into: dict = {"x": 0.5}
    assert fc.mix({"x": 0.5, "y": 0.25, "z": 0.0}.items(), into, 0.5) is into
    assert into == {"x": 0.75, "y": 0.125, "z": 0.0}
    fc.mix([((1, 2), 1.0), ((1, 3), 1.0), ((1, 2), 0.5)], into, key=lambda s: s[0])
    assert into[1] == 2.5


def test_a_codes_totals_for_fights_are_renormalised_and_follow_the_options():
    """Fights draw a code's total from the engine's exact odds: the chains the odds leave out (the Wild Die's
    longest explosions, about 6e-14 here) are spread back, so the probabilities add up to 1 to the last bits;
    and the system's options (the Wild Die's complication) apply."""
    import diceengine as de

    code_pmf = fighters.code_pmf
    values, probs = code_pmf(Code(3, 1), "d6wild")
    assert de.distribution("3D+1", "d6wild").truncated > 1e-14
    assert abs(probs.sum() - 1.0) < 1e-15
    for option in ("none", "remove_highest"):
        values, probs = code_pmf(Code(3, 1), "d6wild", complication=option)
        marginal = de.distribution("3D+1", "d6wild", complication=option).marginal("total")
        total = sum(marginal.values())
        assert dict(zip(values.tolist(), probs.tolist())) == pytest.approx({v: p / total for v, p in marginal.items()})
    low = dict(zip(*[a.tolist() for a in code_pmf(Code(3, 1), "d6wild", complication="remove_highest")]))
    plain = dict(zip(*[a.tolist() for a in code_pmf(Code(3, 1), "d6wild", complication="none")]))
    assert sum(v * p for v, p in low.items()) < sum(v * p for v, p in plain.items()) - 0.3


class _Uniforms:
    """A generator whose uniform numbers are chosen: the sampler's one draw per total."""

    def __init__(self, u: np.ndarray) -> None:
        self.u = u

    def random(self, n: int) -> np.ndarray:
        assert n == len(self.u)
        return self.u


def test_the_sampler_finds_every_value_of_a_long_tail_from_its_cdf():
    # every edge of the CDF, from each side: draws in the tails' shared buckets need many steps
    pmfs = [(np.arange(60), 0.5 ** np.arange(60.0)), (np.arange(40), np.r_[0.999, np.full(39, 0.001 / 39)])]
    sampler = fc.TotalSampler(pmfs)
    assert sampler.steps > 2
    rows, u, want = [], [], []
    for r, (v, p) in enumerate(pmfs):
        c = np.cumsum(p)
        cdf = c / c[-1]  # as the sampler normalises (the last edge exactly 1)
        for k in range(len(v)):
            for x in (np.nextafter(cdf[k], 0.0), cdf[k]):  # just below an edge, and on it
                if 0.0 <= x < 1.0:
                    rows.append(r)
                    u.append(x)
                    want.append(v[min(int(np.searchsorted(cdf, x, side="right")), len(v) - 1)])
    got = sampler(np.array(rows), _Uniforms(np.array(u)))  # type: ignore[arg-type]
    assert got.tolist() == want


# ---------------------------------------------------------------- exact lookup tables


class _EveryInteger:
    """A generator whose ``integers(0, size, n)`` is every integer below ``size`` once (``n == size``):
    a sampler's draws over it are its exact distribution, written out."""

    def integers(self, low: int, high: int, n: int, dtype: type = np.int64) -> np.ndarray:
        assert low == 0 and n == high
        return np.arange(high, dtype=dtype)


def _dice_counts(dice: int, pips: int) -> dict[int, int]:
    """How many of the 6**dice throws give each total (enumerated here)."""
    import itertools

    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        counts[sum(faces) + pips] = counts.get(sum(faces) + pips, 0) + 1
    return counts


@pytest.mark.parametrize("dice, pips", [(1, 0), (2, 1), (3, -1), (4, 2), (5, 1)])
def test_the_weights_of_a_codes_totals_are_its_throws(dice, pips):
    values, probs = fighters.code_pmf(Code(dice, pips), "d6")
    weights, size = fc.exact_weights(probs)
    assert size == 6**dice
    assert dict(zip(values.tolist(), weights.tolist())) == _dice_counts(dice, pips)


def test_weights_that_are_not_small_fractions_are_refused():
    assert fc.exact_weights(np.array([0.1234567890123, 1 - 0.1234567890123])) is None
    assert fc.exact_weights(np.array([1.0, 2.0**21])) is None  # 1 / (2**21 + 1): past the largest table
    assert fc.exact_weights(np.array([1.0, 2.0**21]), most=1 << 22)[1] == 2**21 + 1
    assert fc.exact_weights(np.array([0.0, 0.0])) is None
    assert fc.exact_weights(np.array([1.0, 3.0]))[0].tolist() == [1, 3]  # unnormalised: normalised first


def test_a_table_row_is_its_codes_throws_and_a_row_of_nothing_no_roll():
    codes = [Code(2, 1), Code(0, 0), Code(3, 0), Code(1, 2)]
    sampler = fc.TableSampler.build([fighters.code_pmf(c, "d6") for c in codes])
    assert sampler is not None and sampler.size == 216  # the common denominator 6**3
    for row, code in enumerate(codes):
        got = sampler(row, sampler.size, _EveryInteger())  # type: ignore[arg-type]
        if code.dice == 0:
            assert got.tolist() == [fc.NO_ROLL] * 216
            continue
        scale = 216 // 6**code.dice
        assert dict(zip(*np.unique(got, return_counts=True))) == {
            v: c * scale for v, c in _dice_counts(code.dice, code.pips).items()}
    rows = np.array([0, 2, 3, 1] * 54, dtype=np.int8)  # by row: the same draw as the row alone
    by_row = sampler(rows, 216, _EveryInteger())  # type: ignore[arg-type]
    alone = {r: sampler(r, 216, _EveryInteger()) for r in range(4)}  # type: ignore[arg-type]
    assert by_row.tolist() == [int(alone[int(r)][i]) for i, r in enumerate(rows.tolist())]


def test_rows_too_large_for_a_table_take_the_float_sampler_with_the_same_interface():
    small = fc.RowDraws([fighters.code_pmf(Code(3, 1), "d6"), None])
    assert small.table is not None
    big = fc.RowDraws([fighters.code_pmf(Code(10, 2), "d6"), None])  # 6**10 outcomes: no table
    assert big.table is None
    draws = big(np.array([0, 1, 0, 1] * 10_000, dtype=np.int8), 40_000, np.random.default_rng(3))
    assert (draws[1::2] == fc.NO_ROLL).all()
    assert 10 * 3.5 + 2 - 0.1 < draws[::2].mean() < 10 * 3.5 + 2 + 0.1  # mean 37, sd 5.4 / sqrt(20000)


def test_the_outcome_sampler_gives_each_outcome_exactly_its_weight():
    weights = [[3, 1, 0, 4], [1, 1, 1, 1]]  # sums 8 and 4: common denominator 8
    sampler = fc.OutcomeSampler(weights, first=1)
    assert sampler.size == 8
    for row, w in enumerate(weights):
        got = sampler(row, 8, _EveryInteger())  # type: ignore[arg-type]
        assert got.dtype == np.int8
        assert [int((got == 1 + k).sum()) for k in range(4)] == [x * (8 // sum(w)) for x in w]
    rows = np.array([1, 0] * 4)
    assert sampler(rows, 8, _EveryInteger()).tolist() == [  # type: ignore[arg-type]
        int(sampler(int(r), 8, _EveryInteger())[i]) for i, r in enumerate(rows.tolist())]  # type: ignore[arg-type]
    floats = fc.OutcomeSampler([[0.25, 0.5, 0.25]])  # not integers: a float CDF
    assert floats.size is None
    assert chi2_passes(floats(0, 30_000, np.random.default_rng(5)), {0: 0.25, 1: 0.5, 2: 0.25})


def test_the_d6_duel_draws_a_hits_result_with_the_enumerated_chances():
    """A hit's damage result: damage 2D against Strength 1D+1 (no armour), every throw enumerated here and
    read by the rule of text 000 written here (Strength higher: stunned; damage below twice: wounded;
    below three times: incapacitated; else mortally wounded)."""
    import itertools

    from diceengine.systems.d6 import battle

    counts = [0, 0, 0, 0]
    for d1, d2, s in itertools.product(range(1, 7), repeat=3):
        damage, strength = d1 + d2, s + 1
        counts[0 if strength > damage else 1 if damage < 2 * strength else 2 if damage < 3 * strength else 3] += 1
    sampler = battle._hit_results(Code(2, 0), (Code(1, 1),))
    assert sampler.size == 216
    got = sampler(0, 216, _EveryInteger())  # type: ignore[arg-type]
    assert [int((got == r).sum()) for r in (1, 2, 3, 4)] == counts


def test_the_d6_duel_takes_the_tables_when_its_codes_allow_them():
    from diceengine.systems.d6 import fight as F

    a = F.D6Fighter(name="a", attack="5D+1", dodge="4D+1", strength="3D", damage="5D", force_points=1)
    b = F.D6Fighter(name="b", attack="4D", strength="2D+2", damage="4D")
    plain = F.D6Battle(F.D6Setup(a=[a], b=[b], dodge="always"), 10)
    assert all(side.attack.table is not None and side.hits.size is not None for side in plain.duel)
    assert plain.duel[0].dodge is not None and plain.duel[1].dodge is None  # b has no dodge code
    spent = F.D6Battle(F.D6Setup(a=[a], b=[b], force_point="first_round"), 10)
    assert spent.duel[0].attack.table is None  # 10D+2 with the Force point: 6**10 throws, no table
    assert spent.duel[1].attack.table is not None  # b has no Force point: its plain rows only
