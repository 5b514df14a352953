"""Parse tables of ``d20pool.lark`` (``core.lark`` and its fragment), written by ``python -m diceengine.lalr`` with Lark 1.3.1:
do not edit; change the grammar and run it again (tests/test_parser_tables.py checks they are in step)."""

# fmt: off
# ruff: noqa

GRAMMAR = '// diceengine core grammar: integer arithmetic (LALR).\n//\n// Systems extend it: a fragment appended to this text adds its dice terms to `atom`\n// with `%extend atom: ...` and may replace the entry point with `%override ?start: ...`\n// (to add `vs`, for instance). Rule names are the AST class names in snake case\n// (see diceengine/ast.py): one frozen dataclass per rule.\n\n?start: sum\n\n?sum: product\n    | sum PLUS product     -> add\n    | sum MINUS product    -> sub\n\n?product: unary\n        | product STAR unary   -> mul\n        | product SLASH unary  -> div\n\n?unary: atom\n      | MINUS unary        -> neg\n\n?atom: INT                 -> number\n     | "(" sum ")"\n\nPLUS: "+"\nMINUS: "-"\nSTAR: "*"\nSLASH: "/"\n\n%import common.INT\n%import common.WS\n%ignore WS\n\n// d20 success pool (appended to core.lark).\n//   3d20<=12   3d20<=9+3 spec 3   2d20<=12 vs 2   d20<=12 (two dice)\n\n%override ?start: pool\n\npool: [INT] D20 "<=" sum [specialisation] [difficulty]\nD20: "d20"i\nspecialisation: "spec"i sum\ndifficulty: "vs"i sum\n'
LARK = '1.3.1'
START = 0
END = 4
IGNORE = frozenset(['WS'])
NEWLINE = frozenset(['WS'])
RULES = (
    ('atom', 'number', False, 1, None),
    ('atom', 'atom', True, 3, (((1, False, 0),), 0)),
    ('difficulty', 'difficulty', False, 2, (((1, False, 0),), 0)),
    ('pool', 'pool', False, 3, (((0, False, 1), (2, False, 0)), 2)),
    ('pool', 'pool', False, 4, (((0, False, 1), (2, False, 0), (3, False, 1)), 0)),
    ('pool', 'pool', False, 4, (((0, False, 1), (2, False, 0), (3, False, 0)), 1)),
    ('pool', 'pool', False, 5, (((0, False, 1), (2, False, 0), (3, False, 0), (4, False, 0)), 0)),
    ('pool', 'pool', False, 4, (((0, False, 0), (1, False, 0), (3, False, 0)), 2)),
    ('pool', 'pool', False, 5, (((0, False, 0), (1, False, 0), (3, False, 0), (4, False, 1)), 0)),
    ('pool', 'pool', False, 5, (((0, False, 0), (1, False, 0), (3, False, 0), (4, False, 0)), 1)),
    ('pool', 'pool', False, 6, (((0, False, 0), (1, False, 0), (3, False, 0), (4, False, 0), (5, False, 0)), 0)),
    ('product', 'div', False, 3, None),
    ('product', 'mul', False, 3, None),
    ('product', 'product', True, 1, None),
    ('specialisation', 'specialisation', False, 2, (((1, False, 0),), 0)),
    ('start', 'start', True, 1, None),
    ('sum', 'sum', True, 1, None),
    ('sum', 'sub', False, 3, None),
    ('sum', 'add', False, 3, None),
    ('unary', 'neg', False, 2, None),
    ('unary', 'unary', True, 1, None),
)
STATES = (
    {'D20': 1, 'INT': 2, 'pool': 3, 'start': 4},
    {'__ANON_0': 5},
    {'D20': 6},
    {'$END': -16},
    {},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 11, 'sum': 12, 'unary': 13},
    {'__ANON_0': 14},
    {'$END': -1, 'MINUS': -1, 'PLUS': -1, 'RPAR': -1, 'SLASH': -1, 'SPEC': -1, 'STAR': -1, 'VS': -1},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 11, 'sum': 15, 'unary': 13},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'unary': 16},
    {'$END': -21, 'MINUS': -21, 'PLUS': -21, 'RPAR': -21, 'SLASH': -21, 'SPEC': -21, 'STAR': -21, 'VS': -21},
    {'$END': -17, 'MINUS': -17, 'PLUS': -17, 'RPAR': -17, 'SLASH': 17, 'SPEC': -17, 'STAR': 18, 'VS': -17},
    {'$END': -4, 'MINUS': 19, 'PLUS': 20, 'SPEC': 21, 'VS': 22, 'difficulty': 23, 'specialisation': 24},
    {'$END': -14, 'MINUS': -14, 'PLUS': -14, 'RPAR': -14, 'SLASH': -14, 'SPEC': -14, 'STAR': -14, 'VS': -14},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 11, 'sum': 25, 'unary': 13},
    {'MINUS': 19, 'PLUS': 20, 'RPAR': 26},
    {'$END': -20, 'MINUS': -20, 'PLUS': -20, 'RPAR': -20, 'SLASH': -20, 'SPEC': -20, 'STAR': -20, 'VS': -20},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'unary': 27},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'unary': 28},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 29, 'unary': 13},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 30, 'unary': 13},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 11, 'sum': 31, 'unary': 13},
    {'INT': 7, 'LPAR': 8, 'MINUS': 9, 'atom': 10, 'product': 11, 'sum': 32, 'unary': 13},
    {'$END': -5},
    {'$END': -6, 'VS': 22, 'difficulty': 33},
    {'$END': -8, 'MINUS': 19, 'PLUS': 20, 'SPEC': 21, 'VS': 22, 'difficulty': 34, 'specialisation': 35},
    {'$END': -2, 'MINUS': -2, 'PLUS': -2, 'RPAR': -2, 'SLASH': -2, 'SPEC': -2, 'STAR': -2, 'VS': -2},
    {'$END': -12, 'MINUS': -12, 'PLUS': -12, 'RPAR': -12, 'SLASH': -12, 'SPEC': -12, 'STAR': -12, 'VS': -12},
    {'$END': -13, 'MINUS': -13, 'PLUS': -13, 'RPAR': -13, 'SLASH': -13, 'SPEC': -13, 'STAR': -13, 'VS': -13},
    {'$END': -18, 'MINUS': -18, 'PLUS': -18, 'RPAR': -18, 'SLASH': 17, 'SPEC': -18, 'STAR': 18, 'VS': -18},
    {'$END': -19, 'MINUS': -19, 'PLUS': -19, 'RPAR': -19, 'SLASH': 17, 'SPEC': -19, 'STAR': 18, 'VS': -19},
    {'$END': -15, 'MINUS': 19, 'PLUS': 20, 'VS': -15},
    {'$END': -3, 'MINUS': 19, 'PLUS': 20},
    {'$END': -7},
    {'$END': -9},
    {'$END': -10, 'VS': 22, 'difficulty': 36},
    {'$END': -11},
)
LEXERS = (
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<D20>(?i:d20))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<__ANON_0><=)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<D20>(?i:d20))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<SPEC>(?i:spec))', '(?P<VS>(?i:vs))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)', '(?P<RPAR>\\))', '(?P<SLASH>/)', '(?P<STAR>\\*)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<SPEC>(?i:spec))', '(?P<VS>(?i:vs))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)', '(?P<RPAR>\\))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<VS>(?i:vs))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<VS>(?i:vs))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)'), {}),
)
STATE_LEXER = (0, 1, 2, 3, 4, 5, 1, 6, 5, 7, 6, 6, 8, 6, 5, 9, 6, 7, 7, 10, 10, 5, 5, 3, 11, 8, 6, 6, 6, 6, 6, 12, 13, 3, 3, 11, 3)
