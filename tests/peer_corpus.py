"""Valid expressions of the peers, as their test suites and documentation write them, with their source.

Each entry: ``(expression, source, options, conflict)``. ``options`` are the standard system's options that
give the peer's reading (``dialect="d20"``, ``division="exact"``, ...); ``conflict`` is None, or the reason
the expression is a documented, deliberate conflict (README, "Standard notation", conflicts).

Sources:
- D20T: avrae/d20 ``tests/test_dice.py``; D20R: avrae/d20 ``README.md``;
- RDR: rpg-dice-roller documentation (``docs/guide/notation/dice.md``, ``modifiers.md``, ``maths.md``);
- R20: the Roll20 Dice Reference (help.roll20.net, "Dice Reference").
"""

from __future__ import annotations

from typing import Any

D20T, D20R = "avrae/d20 tests/test_dice.py", "avrae/d20 README.md"
RDR_DICE, RDR_MOD, RDR_MATH = ("rpg-dice-roller docs/guide/notation/dice.md",
                               "rpg-dice-roller docs/guide/notation/modifiers.md",
                               "rpg-dice-roller docs/guide/notation/maths.md")
R20 = "Roll20 Dice Reference"
D20 = {"dialect": "d20"}

CORPUS: list[tuple[str, str, dict[str, Any], str | None]] = [
    # ---- avrae/d20 tests
    ("1d20", D20T, D20, None), ("1+1", D20T, D20, None), ("4d6kh3", D20T, D20, None), ("(1)", D20T, D20, None),
    ("(1,)", D20T, D20, None), ("((1d6))", D20T, D20, None),
    ("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", D20T, D20, None),
    ("(1d4, 2+2, 3d6kl1)kh1", D20T, D20, None), ("((10d6kh5)kl2)kh1", D20T, D20,
                                                 "d20 applies set operators on (dice) to the dice themselves"),
    ("1 + 3 * 6", D20T, D20, None), ("1 + (3 * 6)", D20T, D20, None), ("(1 + 3) * 6", D20T, D20, None),
    ("1 + 2 + 3", D20T, D20, None), ("1 + 2 == 2", D20T, D20, None), ("1 + (2 == 2)", D20T, D20, None),
    ("10d6k1k2k3", D20T, D20, None), ("10d6k1ph1", D20T, D20, None), ("(1, 2, 3)k1k2", D20T, D20, None),
    ("1", D20T, D20, None), ("10000", D20T, D20, None), ("1.5", D20T, D20, "decimal literals are not dice notation"),
    ("0.5", D20T, D20, "decimal literals are not dice notation"), ("0d6", D20T, D20, None), ("d6", D20T, D20, None),
    ("1d6", D20T, D20, None), ("2d6", D20T, D20, None), ("(1, 1)", D20T, D20, None), ("+1", D20T, D20, None),
    ("-1", D20T, D20, None), ("--1", D20T, D20, None), ("-+-++---+1", D20T, D20, None), ("2 + 2", D20T, D20, None),
    ("2 - 2", D20T, D20, None), ("2 * 5", D20T, D20, None), ("15 / 2", D20T, D20, None),
    ("15 // 2", D20T, D20, None), ("13 % 2", D20T, D20, None), ("1 == 1", D20T, D20, None),
    ("1 > 1", D20T, D20, None), ("1 < 2", D20T, D20, None), ("1 >= 1", D20T, D20, None),
    ("1 <= 1", D20T, D20, None), ("1 != 2", D20T, D20, None), ("(1, 2, 3, 4, 5)k3", D20T, D20, None),
    ("(1, 2, 3, 4, 5)k<3", D20T, D20, None), ("(1, 2, 3, 4, 5)k>3", D20T, D20, None),
    ("(1, 2, 3, 4, 5)kl2", D20T, D20, None), ("(1, 2, 3, 4, 5)kh2", D20T, D20, None), ("(1)k1", D20T, D20, None),
    ("(1)k2", D20T, D20, None), ("(1, 2, 3, 4, 5)k1k2", D20T, D20, None), ("(1, 2, 3, 4, 5)kh1kl1", D20T, D20, None),
    ("(1, 2, 3, 4, 5)p3", D20T, D20, None), ("(1, 2, 3, 4, 5)p1p2", D20T, D20, None),
    ("(1, 2, 3, 4, 5)ph1pl1", D20T, D20, None), ("1d20rr<20", D20T, D20, None), ("1d20rr>1", D20T, D20, None),
    ("1d1ro1", D20T, D20, None), ("1d6rol1", D20T, D20, "selectors l/h on a re-roll (rol1) are not supported"),
    ("1d1ra1", D20T, D20, None), ("1d6ral1", D20T, D20, "selectors l/h on a re-roll (ral1) are not supported"),
    ("1d2e2", D20T, D20, None), ("10d6mi6", D20T, D20, None), ("10d6mi10", D20T, D20, None),
    ("10d6mi2", D20T, D20, None), ("10d6ma1", D20T, D20, None), ("10d6ma0", D20T, D20, None),
    ("10d6ma5", D20T, D20, None),
    # ---- avrae/d20 README
    ("1d20+5", D20R, D20, None), ("2d6ro<3", D20R, D20, None), ("8d6mi2", D20R, D20, None),
    ("(1d4 + 1, 3, 2d6kl1)kh1", D20R, D20, None), ("4d6e6kh3", D20R, {"dialect": "d20", "explosions": "dice"}, None),
    ("3d6 [fire] + 1d4 [piercing]", D20R, D20, None), ("-(1d8 + 3) [healing]", D20R, D20, None),
    ("(1 [one], 2 [two], 3 [three])", D20R, D20, None), ("1d20 I rolled a d20", D20R, D20, None),
    ("3d6 + 1d4 + 3", D20R, D20, None), ("1 + 2 + 3 + 4", D20R, D20, None),
    ("-1d8 + 4 - (3, 1d4)kh1", D20R, D20, None), ("100d20", D20R, D20, None), ("10d20rr<20", D20R, D20, None),
    ("1d20+" * 50 + "1d20", D20R, D20, None),
    # ---- rpg-dice-roller: dice
    ("d6", RDR_DICE, {}, None), ("4d10", RDR_DICE, {}, None), ("4d%", RDR_DICE, {}, None),
    ("4d100", RDR_DICE, {}, None), ("dF", RDR_DICE, {}, None), ("dF.2", RDR_DICE, {}, None),
    ("dF.1", RDR_DICE, {}, None), ("4dF", RDR_DICE, {}, None),
    # ---- rpg-dice-roller: modifiers
    ("5d10!k2", RDR_MOD, {"explosions": "dice"}, None), ("4d6!d1", RDR_MOD, {"explosions": "dice"}, None),
    ("4d6d1!", RDR_MOD, {"explosions": "dice"}, None), ("4d10!", RDR_MOD, {}, None), ("2d6!", RDR_MOD, {}, None),
    ("2d6!=5", RDR_MOD, {}, None), ("2d6!>4", RDR_MOD, {}, None), ("4d10!<=3", RDR_MOD, {}, None),
    ("4d10!!", RDR_MOD, {}, None), ("2d6!!", RDR_MOD, {}, None), ("2d6!!=5", RDR_MOD, {}, None),
    ("2d6!!>4", RDR_MOD, {}, None), ("4d10!!<=3", RDR_MOD, {}, None), ("1d6!p", RDR_MOD, {}, None),
    ("2d6!p", RDR_MOD, {}, None), ("2d6!!p", RDR_MOD, {}, None), ("2d6!p=5", RDR_MOD, {}, None),
    ("2d6!!p>4", RDR_MOD, {}, None), ("4d10!p<=3", RDR_MOD, {}, None), ("d6r", RDR_MOD, {}, None),
    ("d6ro", RDR_MOD, {}, None), ("2d6r=5", RDR_MOD, {}, None), ("2d6ro>4", RDR_MOD, {}, None),
    ("4d10r<=3", RDR_MOD, {}, None), ("4d10kh2", RDR_MOD, {}, None), ("4d10k2", RDR_MOD, {}, None),
    ("4d10kl1", RDR_MOD, {}, None), ("6d8k3", RDR_MOD, {}, None), ("3d10k1dh1", RDR_MOD, {}, None),
    ("3d10k1d1", RDR_MOD, {}, None), ("4d10dl2", RDR_MOD, {}, None), ("4d10d2", RDR_MOD, {}, None),
    ("4d10dh1", RDR_MOD, {}, None), ("6d8dh3", RDR_MOD, {}, None), ("4d10dh1dl2", RDR_MOD, {}, None),
    ("5d10>=8", RDR_MOD, {}, None), ("2d6=6", RDR_MOD, {}, None), ("4d3>1", RDR_MOD, {}, None),
    ("4d3<2", RDR_MOD, {}, None), ("5d8>=5", RDR_MOD, {}, None), ("6d10<=4", RDR_MOD, {}, None),
    ("2d6>3!", RDR_MOD, {}, None), ("2d6>3!<4", RDR_MOD, {}, None), ("4d6>4f<3", RDR_MOD, {}, None),
    ("4d10cs>7", RDR_MOD, {}, None), ("5d20cs>=16", RDR_MOD, {}, None), ("4d10cf<3", RDR_MOD, {}, None),
    ("5d20cf<=6", RDR_MOD, {}, None), ("4d6", RDR_MOD, {}, None), ("4d6s", RDR_MOD, {}, None),
    ("4d6sa", RDR_MOD, {}, None), ("4d6sd", RDR_MOD, {}, None), ("d6!=3", RDR_MOD, {}, None),
    ("d10!>=5", RDR_MOD, {}, None), ("d6!!>4", RDR_MOD, {}, None), ("d4r<3", RDR_MOD, {}, None),
    # ---- rpg-dice-roller: maths
    ("d6*5", RDR_MATH, {}, None), ("2d10/d20", RDR_MATH, {"division": "exact"}, None),
    ("3d20^4", RDR_MATH, {}, None), ("3d20**4", RDR_MATH, {}, None), ("d15%2", RDR_MATH, {}, None),
    ("(4-2)d10", RDR_MATH, {}, None), ("3d(2*6)", RDR_MATH, {}, None), ("1d6+2*3", RDR_MATH, {}, None),
    ("(1d6+2)*3", RDR_MATH, {}, None), ("round(4d10/3)", RDR_MATH, {"division": "exact"}, None),
    ("floor(4d10/3)", RDR_MATH, {"division": "exact"}, None), ("ceil(4d10/3)", RDR_MATH, {"division": "exact"}, None),
    ("abs(4d10-25)", RDR_MATH, {}, None), ("sqrt(4d10/3)", RDR_MATH, {}, "irrational functions have no exact odds"),
    ("min(4d6, 2d10)", RDR_MATH, {}, None),
    # ---- Roll20 dice reference
    ("1d20+5", R20, {}, None), ("3d6", R20, {}, None), ("1d20 + 2d6 - 3", R20, {}, None), ("4dF", R20, {}, None),
    ("3d6!", R20, {}, None), ("3d6!>5", R20, {}, None), ("3d6!3", R20, {}, None), ("5d6!!", R20, {}, None),
    ("5d6!!5", R20, {}, None), ("5d6!p", R20, {}, None), ("5d6!p>5", R20, {}, None), ("8d100k4", R20, {}, None),
    ("8d100kh4", R20, {}, None), ("8d100kl4", R20, {}, None), ("8d100d3", R20, {}, None),
    ("8d100dh3", R20, {}, None), ("8d100dl3", R20, {}, None), ("2d20kh1", R20, {}, None),
    ("2d20kl1", R20, {}, None), ("2d8r1", R20, {}, None), ("2d8r<2", R20, {}, None), ("2d8r8r1", R20, {},
                                                                                   "two re-roll points on one die"),
    ("2d10ro<2", R20, {}, None), ("3d6>3", R20, {}, None), ("3d6<3", R20, {}, None), ("10d6<4", R20, {}, None),
    ("3d6>3f1", R20, {}, None), ("3d6>3f<2", R20, {}, None), ("1d20cs>18", R20, {}, None),
    ("1d20cf<3", R20, {}, None), ("1d20cs20cf1", R20, {}, None), ("8d6s", R20, {}, None),
    ("8d6sd", R20, {}, None), ("8d6sa", R20, {}, None), ("8d6kh4s", R20, {}, None),
    ("{4d6+3d8}kh1", R20, {}, None), ("{4d6+2d8, 3d20+3}kh1", R20, {}, None), ("{1d20+5, 1d20+5}kh1", R20, {}, None),
    ("{3d20+5}>40", R20, {}, None), ("{2d6!, 1d10}>7", R20, {}, None), ("{1d8, 1d8}kl1", R20, {}, None),
    ("{4d6+2d8, 3d20+3}>25f<10", R20, {}, None), ("1d20+5 [to hit]", R20, {}, None),
    ("1d6 [fire] + 2d6 [cold]", R20, {}, None), ("1d20 + 5 to hit", R20, {}, None),
    ("floor(1d20/2)", R20, {"division": "exact"}, None), ("ceil(1d20/2)", R20, {"division": "exact"}, None),
    ("round(1d20/3)", R20, {"division": "exact"}, None), ("abs(1d6-1d6)", R20, {}, None),
    ("7 * 3 + 1d6", R20, {}, None), ("(2+3)d6", R20, {}, None), ("1d(4+4)", R20, {}, None),
    ("2d6 % 4", R20, {}, None), ("2^3", R20, {}, None), ("1d20 # a comment", R20, {}, None),
]
