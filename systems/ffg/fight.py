"""Fights under the FFG narrative dice (rule text ``004``): the ``ffg`` system's combat rules.

An encounter's ``[ffg]`` table: ``range`` (``engaged`` 2 purple dice, ``short`` 1, ``medium`` 2,
``long`` 3, ``extreme`` 4: the longer the range, the higher the difficulty), and the sides ``a`` and
``b``; each combatant has ``name``, ``kind`` (``character``, ``nemesis``, ``rival`` or ``minion``),
``characteristic`` and ``skill`` (ranks) of the attack, ``soak``, ``wound_threshold``, ``damage``
and ``critical`` (the weapon's damage and critical rating), ``defense`` (setback dice added to
attacks against it), ``initiative`` (``[characteristic, ranks]`` of Cool or Vigilance), ``player``,
and for a minion group ``size`` (members).

How a fight goes, as text ``004`` plays it:

- initiative is rolled once, before the first round (Cool or Vigilance, no difficulty): more net
  successes first, then more advantage (:func:`~diceengine.systems.ffg.initiative_order`); a tie goes
  to the player character, otherwise to side ``a``; the order then holds for the whole fight;
- each attacker makes one combat check a round against the range difficulty (plus the target's
  defense in setback dice), at the first enemy still standing; the pool comes from
  :func:`~diceengine.systems.ffg.build_pool`. A minion group rolls as one, with skill ranks equal to
  its members standing minus one (at most 5): the fewer minions, the weaker the attack;
- a check with a net success hits for the weapon's damage plus the net successes; the target's soak
  is subtracted. A character, nemesis or rival takes the rest as wounds and is out of the fight when
  its wounds exceed its wound threshold. A minion group loses one member per full wound threshold
  exceeded (:func:`~diceengine.systems.ffg.minions_defeated`, the stormtrooper example);
- a critical hit (advantage at least the weapon's critical rating, or a triumph) takes one more
  minion out of a group; on anyone else its effect is a roll on the critical injury table, which
  text ``004`` does not give: it does not change the fight here;
- the destiny pool (``light`` and ``dark`` tokens, the table's): player characters spend the light
  side's, everyone else the dark side's (« Les Jetons Blancs ... sont pour les Gentils et les Jetons Noirs
  ... pour les Méchants »); « Chaque fois qu'un jeton Destiny est utilisé ... il est retourné pour changer
  de couleur ». Policy ``destiny``: ``"never"``; ``"bonus"``, an attacker with a token of its colour
  spends it on its own check (« ajout d'un Dé Vert ou conversion d'un Dé Vert en Dé Jaune »: one
  upgrade); ``"penalty"``, a combatant attacked spends one on the attacker's check (« ajout d'un Dé
  Violet ou conversion d'un Dé Violet en Dé Rouge »). One token a check; the flipped token is the
  other side's at once.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from diceengine.fights.rules import Duel

from ..combat import MAX_SIDE, ArrayBattle, Combat, Encounter, TotalSampler, first_enemy, memo, status_of
from .rules import build_pool, minions_defeated

__all__ = ["RANGES", "FFGFight", "FFGFighter", "FFGSetup", "attack_outcomes"]

#: difficulty (purple dice) of a combat check by range band
RANGES = {"engaged": 2, "short": 1, "medium": 2, "long": 3, "extreme": 4}
MAX_RANKS = 5
#: most destiny tokens of each colour in an encounter
MAX_TOKENS = 10


class FFGFighter(BaseModel):
    """A combatant (or a minion group) in FFG terms."""

    model_config = ConfigDict(extra="forbid")

    name: str
    kind: Literal["character", "nemesis", "rival", "minion"] = "character"
    characteristic: int = Field(ge=1, le=6)
    skill: int = Field(0, ge=0, le=MAX_RANKS)
    soak: int = Field(ge=0, le=30)
    wound_threshold: int = Field(ge=1, le=60)
    damage: int = Field(ge=0, le=40)
    critical: int = Field(3, ge=1, le=10)
    defense: int = Field(0, ge=0, le=4)
    initiative: tuple[int, int] = (2, 0)
    size: int = Field(1, ge=1, le=MAX_SIDE)
    player: bool = False

    @field_validator("initiative")
    @classmethod
    def _initiative(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not (1 <= value[0] <= 6 and 0 <= value[1] <= MAX_RANKS):
            raise ValueError("initiative is [characteristic 1-6, ranks 0-5]")
        return value

    @property
    def minion(self) -> bool:
        return self.kind == "minion"

    @property
    def start(self) -> int:
        """The health counter at the start: members standing (a group) or wounds taken (0)."""
        return self.size if self.minion else 0

    def ranks(self, standing: int) -> int:
        """Skill ranks of the attack (a group: members standing minus one, at most 5)."""
        return min(max(standing - 1, 0), MAX_RANKS) if self.minion else self.skill

    def out(self, health: int) -> bool:
        return health <= 0 if self.minion else health > self.wound_threshold

    def hit(self, health: int, damage: int, critical: bool) -> int:
        """The health counter after a hit of ``damage`` (``critical``: a critical hit)."""
        if self.minion:
            fallen = minions_defeated(damage, self.soak, self.wound_threshold, health) + int(critical)
            return max(0, health - fallen)
        return min(health + max(0, damage - self.soak), self.wound_threshold + 1)


class FFGSetup(Encounter):
    """An encounter in FFG terms."""

    a: list[FFGFighter] = Field(min_length=1, max_length=MAX_SIDE)
    b: list[FFGFighter] = Field(min_length=1, max_length=MAX_SIDE)
    range: Literal["engaged", "short", "medium", "long", "extreme"] = "short"
    destiny: Literal["never", "bonus", "penalty"] = "never"
    light: int = Field(0, ge=0, le=MAX_TOKENS)
    dark: int = Field(0, ge=0, le=MAX_TOKENS)

    @property
    def difficulty(self) -> int:
        return RANGES[self.range]


@lru_cache(maxsize=4096)
def attack_outcomes(characteristic: int, ranks: int, difficulty: int, setback: int,
                    critical: int, upgrades: int = 0, difficulty_upgrades: int = 0) -> tuple[tuple[int, bool, float], ...]:
    """``(net successes, critical, chance)`` of a combat check that hits (net successes >= 1), from the
    exact distribution of the pool (``upgrades``: a destiny token's, on either side); the rest of the
    mass misses."""
    dist = build_pool(characteristic, ranks, difficulty, setback=setback, upgrades=upgrades,
                      difficulty_upgrades=difficulty_upgrades).distribution()
    s, a, t = dist.columns["success"], dist.columns["advantage"], dist.columns["triumph"]
    p = dist.probabilities
    crit = (a >= critical) | (t > 0)
    out = []
    for value in np.unique(s[s > 0]).tolist():
        for c in (False, True):
            mass = float(p[(s == value) & (crit == c)].sum())
            if mass > 0:
                out.append((value, c, mass))
    return tuple(out)


def initiative_chance(first: tuple[int, int], second: tuple[int, int], first_wins_ties: bool) -> float:
    """Exact chance that the first combatant's initiative check ranks ahead (more net successes, then
    more advantage)."""
    da = build_pool(*first).distribution()
    db = build_pool(*second).distribution()
    sa, aa, pa = da.columns["success"], da.columns["advantage"], da.probabilities
    sb, ab, pb = db.columns["success"], db.columns["advantage"], db.probabilities
    ahead = (sa[:, None] > sb[None, :]) | ((sa[:, None] == sb[None, :]) & (aa[:, None] > ab[None, :]))
    tie = (sa[:, None] == sb[None, :]) & (aa[:, None] == ab[None, :])
    joint = np.outer(pa, pb)
    return float(joint[ahead].sum() + (joint[tie].sum() if first_wins_ties else 0.0))


def spend_token(setup: FFGSetup, attacker: FFGFighter, target: FFGFighter, light: int, dark: int
                ) -> tuple[int, int, int, int]:
    """``(upgrades, difficulty upgrades, light, dark)`` of one attack under the ``destiny`` policy: who
    spends (the attacker for a bonus, the target for a penalty) spends a token of its colour if there is
    one, and the token flips."""
    if setup.destiny == "never":
        return 0, 0, light, dark
    spender = attacker if setup.destiny == "bonus" else target
    if spender.player and light > 0:
        light, dark = light - 1, dark + 1
    elif not spender.player and dark > 0:
        light, dark = light + 1, dark - 1
    else:
        return 0, 0, light, dark
    return (1, 0, light, dark) if setup.destiny == "bonus" else (0, 1, light, dark)


class FFGDuel(Duel):
    """The exact chain: a state is ``(side acting first, health of a, health of b, light tokens)`` (the
    dark tokens are the rest of the pool)."""

    def __init__(self, setup: FFGSetup) -> None:
        self.setup = setup
        self.f = (setup.a[0], setup.b[0])
        self.difficulty = setup.difficulty
        self.tokens = setup.light + setup.dark

    def start(self) -> dict[Hashable, float]:
        fa, fb = self.f
        a_ties = fa.player or not fb.player
        p = initiative_chance(fa.initiative, fb.initiative, a_ties)
        light = self.setup.light
        out = {(0, fa.start, fb.start, light): p, (1, fa.start, fb.start, light): 1 - p}
        return {k: v for k, v in out.items() if v > 0}

    def status(self, state: Any) -> int:
        _, ha, hb, _ = state
        return status_of(self.f[0].out(ha), self.f[1].out(hb))

    def _attack(self, who: int, health: list[int], light: int) -> tuple[dict[tuple[int, int], float], int]:
        """The two health counters after ``who`` attacks the other, with their chances, and the light
        tokens after the attack."""
        up, diff_up, light, _ = spend_token(self.setup, self.f[who], self.f[1 - who], light, self.tokens - light)
        return self._attack_cached(who, health[0], health[1], up, diff_up), light

    @memo
    def _attack_cached(self, who: int, ha: int, hb: int, up: int, diff_up: int) -> dict[tuple[int, int], float]:
        health = [ha, hb]
        me, other = self.f[who], self.f[1 - who]
        outcomes = attack_outcomes(me.characteristic, me.ranks(health[who]), self.difficulty, other.defense,
                                   me.critical, up, diff_up)
        out: dict[tuple[int, int], float] = {}
        miss = 1.0
        for s, crit, p in outcomes:
            new = list(health)
            new[1 - who] = other.hit(health[1 - who], me.damage + s, crit)
            out[(new[0], new[1])] = out.get((new[0], new[1]), 0.0) + p
            miss -= p
        out[(health[0], health[1])] = out.get((health[0], health[1]), 0.0) + max(miss, 0.0)
        return out

    def advance(self, state: Any) -> dict[Hashable, float]:
        first, ha, hb, light = state
        out: dict[Hashable, float] = {}
        after_first, light1 = self._attack(first, [ha, hb], light)
        for (a1, b1), p in after_first.items():
            if self.f[1 - first].out((a1, b1)[1 - first]):
                out[(first, a1, b1, light1)] = out.get((first, a1, b1, light1), 0.0) + p
                continue
            after_second, light2 = self._attack(1 - first, [a1, b1], light1)
            for (a2, b2), q in after_second.items():
                out[(first, a2, b2, light2)] = out.get((first, a2, b2, light2), 0.0) + p * q
        return out


class FFGBattle(ArrayBattle):
    """``n`` fights of any size: each combatant's health counter as an ``(n, K)`` array, the acting
    order of each fight rolled once at the start."""

    arrays = ("health", "order", "light", "dark")

    def __init__(self, setup: FFGSetup, n: int, gen: np.random.Generator) -> None:
        fighters = setup.fighters()
        self.fighters = fighters
        k = len(fighters)
        super().__init__(np.array([0] * len(setup.a) + [1] * len(setup.b)), n)
        self.health = np.tile(np.array([f.start for f in fighters], dtype=np.int16), (n, 1))
        self.damage = np.array([f.damage for f in fighters])
        self.minion = np.array([f.minion for f in fighters])
        self.threshold = np.array([f.wound_threshold for f in fighters])
        self.soak = np.array([f.soak for f in fighters])
        self.setup = setup
        self.player = np.array([f.player for f in fighters])
        self.light = np.full(n, setup.light, dtype=np.int16)
        self.dark = np.full(n, setup.dark, dtype=np.int16)
        # the outcome of an attack, coded 2 * net successes + critical (0: a miss), by (attacker, ranks,
        # target, destiny token spent on it)
        up = (1, 0) if setup.destiny == "bonus" else (0, 1)
        pmfs: list[tuple[np.ndarray, np.ndarray] | None] = []
        for f in fighters:
            for r in range(MAX_RANKS + 1):
                for t in fighters:
                    for spent in (0, 1):
                        rows = attack_outcomes(f.characteristic, r, setup.difficulty, t.defense, f.critical,
                                               up[0] * spent, up[1] * spent)
                        hit = sum(p for _, _, p in rows)
                        values = np.array([0] + [2 * s + int(c) for s, c, _ in rows])
                        probs = np.array([max(0.0, 1.0 - hit)] + [p for _, _, p in rows])
                        order = np.argsort(values)
                        pmfs.append((values[order], probs[order]))
        self.attack = TotalSampler(pmfs)
        top = int(self.damage.max()) + 2 * 60 + 1
        biggest = max(f.size for f in fighters)
        # fallen[target, damage, standing]: members a hit takes out of a group (minions_defeated)
        self.fallen = np.zeros((k, top, biggest + 1), dtype=np.int16)
        for i, f in enumerate(fighters):
            if f.minion:
                for dmg in range(top):
                    for standing in range(biggest + 1):
                        self.fallen[i, dmg, standing] = minions_defeated(dmg, f.soak, f.wound_threshold, standing)
        self.ranks = np.zeros((k, biggest + 1), dtype=np.int64)
        for i, f in enumerate(fighters):
            self.ranks[i] = [f.ranks(s) for s in range(biggest + 1)]
        self.order = self._initiative(n, gen)

    def _initiative(self, n: int, gen: np.random.Generator) -> np.ndarray:
        """Each fight's acting order: initiative checks rolled once, ranked by (net successes, advantage),
        ties to player characters, then to the order of the file."""
        from diceengine.api import sample

        k = len(self.fighters)
        key = np.zeros((n, k))
        for i, f in enumerate(self.fighters):
            rolled = sample(build_pool(*f.initiative).expression, n, "ffg", seed=gen)
            key[:, i] = (rolled["success"] * 1000 + rolled["advantage"]) * 4 + 2 * f.player - i / (k + 1)
        return np.argsort(-key, axis=1).astype(np.int8)

    def out(self) -> np.ndarray:
        return np.where(self.minion[None, :], self.health <= 0, self.health > self.threshold[None, :])

    def _spend(self, sel: np.ndarray, a: np.ndarray, t: np.ndarray) -> np.ndarray:
        """The destiny tokens spent on these attacks (0 or 1 each, the policy), flipped in place."""
        if self.setup.destiny == "never":
            return np.zeros(len(sel), dtype=np.int64)
        light = self.player[a if self.setup.destiny == "bonus" else t]
        spent = np.where(light, self.light[sel] > 0, self.dark[sel] > 0)
        flip = np.where(light, -1, 1) * spent
        self.light[sel] += flip.astype(np.int16)
        self.dark[sel] -= flip.astype(np.int16)
        return spent.astype(np.int64)

    def step(self, gen: np.random.Generator) -> None:
        n, k = self.health.shape
        rows = np.arange(n)
        for j in range(k):
            actor = self.order[:, j].astype(np.int64)
            up = ~self.out()
            has, target = first_enemy(up, self.side, self.side[actor])
            acts = up[rows, actor] & has
            sel, a, t = rows[acts], actor[acts], target[acts]
            ranks = self.ranks[a, np.clip(self.health[sel, a], 0, self.ranks.shape[1] - 1)]
            spent = self._spend(sel, a, t)
            code = self.attack(((a * (MAX_RANKS + 1) + ranks) * k + t) * 2 + spent, gen)
            hit = code > 0
            sel, a, t, code = sel[hit], a[hit], t[hit], code[hit]
            dmg = self.damage[a] + code // 2
            crit = code % 2
            health = self.health[sel, t].astype(np.int64)
            group = self.minion[t]
            dmg_at = np.minimum(dmg, self.fallen.shape[1] - 1)
            fallen = self.fallen[t, dmg_at, np.clip(health, 0, self.fallen.shape[2] - 1)] + crit
            wounds = np.minimum(health + np.maximum(0, dmg - self.soak[t]), self.threshold[t] + 1)
            self.health[sel, t] = np.where(group, np.maximum(0, health - fallen), wounds)


class FFGFight(Combat):
    """FFG combat (text ``004``)."""

    setup_model = FFGSetup
    duel_of = FFGDuel
    battle_of = FFGBattle


#: the ruleset's combat, found by :meth:`diceengine.registry.System.fight_rules`
FIGHT_RULES = FFGFight
