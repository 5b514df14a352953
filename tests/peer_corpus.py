"""Valid expressions of the peers, as their test suites and documentation write them, with their source.

Each entry: ``(expression, source, options, conflict)``. ``options`` are the standard system's options that
give the peer's reading (``dialect="d20"``, ``division="exact"``, ...); ``conflict`` is None, or the reason
the expression is a documented, deliberate conflict (README, "Standard notation", conflicts).

Sources:
- D20T: avrae/d20 ``tests/test_dice.py``; D20R: avrae/d20 ``README.md``;
- RDR: rpg-dice-roller documentation (``docs/guide/notation/dice.md``, ``modifiers.md``, ``maths.md``);
- R20: the Roll20 Dice Reference (help.roll20.net, "Dice Reference");
- RDRP, RDRG, RDRR: rpg-dice-roller ``tests/parser/Parser.test.js``, ``tests/parser/groups.test.js``,
  ``tests/rolling.test.js``.
"""

from __future__ import annotations

from typing import Any

D20T, D20R = "avrae/d20 tests/test_dice.py", "avrae/d20 README.md"
RDR_DICE, RDR_MOD, RDR_MATH = ("rpg-dice-roller docs/guide/notation/dice.md",
                               "rpg-dice-roller docs/guide/notation/modifiers.md",
                               "rpg-dice-roller docs/guide/notation/maths.md")
R20 = "Roll20 Dice Reference"
RDRP, RDRG = "rpg-dice-roller tests/parser/Parser.test.js", "rpg-dice-roller tests/parser/groups.test.js"
RDRR = "rpg-dice-roller tests/rolling.test.js"
EXACT = {"division": "exact"}
EXPLODES_ON = "explodes on 99 faces in 100: refused (chains past the engine's bound), rpg-dice-roller stops at 1000"
D20 = {"dialect": "d20"}

CORPUS: list[tuple[str, str, dict[str, Any], str | None]] = [
    # ---- avrae/d20 tests
    ("1d20", D20T, D20, None), ("1+1", D20T, D20, None), ("4d6kh3", D20T, D20, None), ("(1)", D20T, D20, None),
    ("(1,)", D20T, D20, None), ("((1d6))", D20T, D20, None),
    ("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", D20T, D20, None),
    ("(1d4, 2+2, 3d6kl1)kh1", D20T, D20, None), ("((10d6kh5)kl2)kh1", D20T, D20, None),
    ("1 + 3 * 6", D20T, D20, None), ("1 + (3 * 6)", D20T, D20, None), ("(1 + 3) * 6", D20T, D20, None),
    ("1 + 2 + 3", D20T, D20, None), ("1 + 2 == 2", D20T, D20, None), ("1 + (2 == 2)", D20T, D20, None),
    ("10d6k1k2k3", D20T, D20, None), ("10d6k1ph1", D20T, D20, None), ("(1, 2, 3)k1k2", D20T, D20, None),
    ("1", D20T, D20, None), ("10000", D20T, D20, None), ("1.5", D20T, D20, None),
    ("0.5", D20T, D20, None), ("0d6", D20T, D20, None), ("d6", D20T, D20, None),
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
    ("1d1ro1", D20T, D20, None), ("1d6rol1", D20T, D20, None),
    ("1d1ra1", D20T, D20, None), ("1d6ral1", D20T, D20, None),
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
    ("abs(4d10-25)", RDR_MATH, {}, None), ("sqrt(4d10/3)", RDR_MATH, EXACT, None),
    ("min(4d6, 2d10)", RDR_MATH, {}, None),
    # ---- Roll20 dice reference
    ("1d20+5", R20, {}, None), ("3d6", R20, {}, None), ("1d20 + 2d6 - 3", R20, {}, None), ("4dF", R20, {}, None),
    ("3d6!", R20, {}, None), ("3d6!>5", R20, {}, None), ("3d6!3", R20, {}, None), ("5d6!!", R20, {}, None),
    ("5d6!!5", R20, {}, None), ("5d6!p", R20, {}, None), ("5d6!p>5", R20, {}, None), ("8d100k4", R20, {}, None),
    ("8d100kh4", R20, {}, None), ("8d100kl4", R20, {}, None), ("8d100d3", R20, {}, None),
    ("8d100dh3", R20, {}, None), ("8d100dl3", R20, {}, None), ("2d20kh1", R20, {}, None),
    ("2d20kl1", R20, {}, None), ("2d8r1", R20, {}, None), ("2d8r<2", R20, {}, None), ("2d8r8r1", R20, {}, None),
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
    # ---- rpg-dice-roller's parser tests (the notations they parse; division is real there: division="exact")
    ("((4*2)d10/4)^5*(d%-2)", RDRP, EXACT, None), ("(-2+5)d(6+-4)", RDRP, {}, None),
    ("(10d7/2d%)*4", RDRP, EXACT, None), ("(4*6)d6", RDRP, {}, None), ("(5^2*4)d(7%4)", RDRP, {}, None),
    ("-12*1d20", RDRP, {}, None), ("10d%kl3", RDRP, {}, None), ("10d5s", RDRP, {}, None),
    ("10d8dh2r!=5kl3", RDRP, {}, None), ("10dF.1", RDRP, {}, None), ("12dFr", RDRP, {}, None),
    ("14d%sd", RDRP, {}, None), ("19d23d1", RDRP, {}, None), ("1d20+-5", RDRP, {}, None),
    ("1d20+0", RDRP, {}, None), ("1d8cf<4", RDRP, {}, None), ("1dF!!p", RDRP, {}, None),
    ("23dF.1sa", RDRP, {}, None), ("2d%", RDRP, {}, None), ("2d%r>80", RDRP, {}, None),
    ("2d%u>80", RDRP, {}, None), ("2d6max3", RDRP, {}, None), ("2d6min3", RDRP, {}, None),
    ("2d7!!", RDRP, {}, None), ("35dF.1ro", RDRP, {}, None), ("35dF.1uo", RDRP, {}, None),
    ("360d%!!p<50", RDRP, {}, None), ("36d152cs!=45", RDRP, {}, None), ("3d(5/2)", RDRP, {}, None),
    ("3d50cs<>365", RDRP, {}, None), ("3d6 # this is a comment", RDRP, {}, None), ("3d6 // fire", RDRP, {}, None),
    ("3dF.1cf>8", RDRP, {}, None), ("450dF.1>0f!=1", RDRP, {}, None), ("450dF.1>0f<>1", RDRP, {}, None),
    ("4d%>50f<40", RDRP, {}, None), ("4d10!!p/(23*d12r)", RDRP, EXACT, None), ("4d10dl1", RDRP, {}, None),
    ("4d10max6min3", RDRP, {}, None), ("4d10min3max6", RDRP, {}, None), ("4d20", RDRP, {}, None),
    ("4d20max-12", RDRP, {}, None), ("4d20min-12", RDRP, {}, None), ("4d6dh2", RDRP, {}, None),
    ("4dF", RDRP, {}, None), ("4dF.2!>=0", RDRP, {}, None), ("5d%!p", RDRP, {}, None), ("5d10", RDRP, {}, None),
    ("5d10r", RDRP, {}, None), ("5d10u", RDRP, {}, None), ("5dFk4", RDRP, {}, None),
    ("6d10!>=9>=8", RDRP, {}, None), ("6d10*4dF.1", RDRP, {}, None), ("6d10>=8!>=9", RDRP, {}, None),
    ("7d%d3", RDRP, {}, None), ("897d2kh1", RDRP, {}, None), ("8d45=21", RDRP, {}, None),
    ("8d45cs=12", RDRP, {}, None), ("999d6", RDRP, {}, None), ("d%%(45*2)", RDRP, {}, None),
    ("d40601k1", RDRP, {}, None), ("d6", RDRP, {}, None), ("d6!", RDRP, {}, None), ("d64ro<=35", RDRP, {}, None),
    ("d64uo<=35", RDRP, {}, None), ("dF.1!!<=1", RDRP, {}, "explodes on every face: refused (never stops), rpg-dice-roller stops at 1000 dice"), ("dF.2", RDRP, {}, None),
    ("dF>=0", RDRP, {}, None),
    ("(4.56^3dF)*6.7-(10d45/(2*3))", RDRP, EXACT, None),
    ("1d20*0.20", RDRP, EXACT, None),
    ("1d20+1.45", RDRP, EXACT, None),
    ("1d20/6.02", RDRP, EXACT, None),
    ("2*floor(4d10/3.4)", RDRP, EXACT, None),
    ("6d%max50.45", RDRP, {}, None),
    ("6d%min50.45", RDRP, {}, None),
    ("12dFu", RDRP, {}, None),
    ("4d%!<>45", RDRP, {}, EXPLODES_ON),
    ("42d2!=6!!>4!p<5", RDRP, {}, "three explosions on one term: rpg-dice-roller keeps the last, refused here"),
    ("999d9999999999", RDRP, {}, "sides past the engine's bound (MAX_SIDES): refused"),
    ("d9999999999", RDRP, {}, "sides past the engine's bound (MAX_SIDES): refused"),
    # ---- rpg-dice-roller's parser tests, "Functions": each one-argument function of 4d6/3, each two-argument of (4d6, 7)
    *[(f"{name}(4d6/3)", RDRP, EXACT, None)
      for name in ("abs", "ceil", "cos", "exp", "floor", "log", "round", "sign", "sin", "sqrt", "tan")],
    *[(f"{name}(4d6, 7)", RDRP, {}, None) for name in ("pow", "max", "min")],
    # ---- rpg-dice-roller's rolling tests, group rolls with modifiers
    ("{4d10*5d6}k2", RDRR, {}, None), ("{4d10*5d6}kl3", RDRR, {}, None), ("{4d10*5d6}d2", RDRR, {}, None),
    ("{4d10*5d6}dh3", RDRR, {}, None), ("{4d10*2, 5d6+10}k1", RDRR, {}, None), ("{4d10*2, 5d6+10}kl1", RDRR, {}, None),
    ("{4d6+5, 20/2d10, d4-1}", RDRR, EXACT, None),
    # ---- rpg-dice-roller's group tests
    ("{19d23}d1", RDRG, {}, None), ("{19d23}dl1", RDRG, {}, None), ("{19d23}k1", RDRG, {}, None),
    ("{19d23}kh1", RDRG, {}, None), ("{4d10}dl1", RDRG, {}, None), ("{4d10}kl1", RDRG, {}, None),
    ("{4d6}dh2", RDRG, {}, None), ("{4d6}kh2", RDRG, {}, None), ("{4d6}s", RDRG, {}, None),
    ("{4d6}sa", RDRG, {}, None), ("{10d%}sa", RDRG, {}, None), ("{4dF.2}sd", RDRG, {}, None),
    ("{1d6}", RDRG, {}, None), ("{1}", RDRG, {}, None), ("{1d6+1d4}", RDRG, {}, None),
    ("{1d6, 1d4}", RDRG, {}, None), ("{1d6+4, 1d4/2d10}", RDRG, EXACT, None),
    ("{10d%, 1d20+5}sa", RDRG, {}, None), ("{4d6, 2d10}s", RDRG, {}, None), ("{4d6, 2d10}sa", RDRG, {}, None),
    ("{4dF.2*5, 10+3d6}sd", RDRG, {}, None), ("{19d23, 4d10+3}d1", RDRG, {}, None),
    ("{19d23, 4d10+3}dl1", RDRG, {}, None), ("{19d23, 4d10+3}k1", RDRG, {}, None),
    ("{19d23, 4d10+3}kh1", RDRG, {}, None), ("{3+4d6, 5d2*6d3}dh2", RDRG, {}, None),
    ("{3+4d6, 5d2*6d3}kh2", RDRG, {}, None), ("{4d10/4, 2dF.1}dl1", RDRG, EXACT, None),
    ("{4d10/4, 2dF.1}kl1", RDRG, EXACT, None), ("{3d6} # this is a comment", RDRG, {}, None),
    ("{3d6} // fire", RDRG, {}, None), ("{4dF} /* This is a multi-line comment */", RDRG, {}, None),
    ("{4d10+5d6}k2", RDRG, {}, None),
    # ---- rpg-dice-roller's DiceRoll tests
    ("2d6ro=1", RDRP, {}, None), ("4d6/7+2d10dl1", RDRP, EXACT, None), ("4d8*(5+2d10)", RDRP, {}, None),
    ("4d8/(5+2)d6", RDRP, EXACT, None), ("4d8dl2*(5+2d10kh1)", RDRP, {}, None), ("5d10+4d7", RDRP, {}, None),
]
