"""Parse tables of ``d6.lark`` (``core.lark`` and its fragment), written by ``python -m diceengine.lalr`` with Lark 1.3.1:
do not edit; change the grammar and run it again (tests/test_parser_tables.py checks they are in step)."""

# fmt: off
# ruff: noqa

GRAMMAR = '// diceengine core grammar: integer arithmetic (LALR).\n//\n// Systems extend it: a fragment appended to this text adds its dice terms to `atom`\n// with `%extend atom: ...` and may replace the entry point with `%override ?start: ...`\n// (to add `vs`, for instance). Rule names are the AST class names in snake case\n// (see diceengine/ast.py): one frozen dataclass per rule.\n\n?start: sum\n\n?sum: product\n    | sum PLUS product     -> add\n    | sum MINUS product    -> sub\n\n?product: unary\n        | product STAR unary   -> mul\n        | product SLASH unary  -> div\n\n?unary: atom\n      | MINUS unary        -> neg\n\n?atom: INT                 -> number\n     | "(" sum ")"\n\nPLUS: "+"\nMINUS: "-"\nSTAR: "*"\nSLASH: "/"\n\n%import common.INT\n%import common.WS\n%ignore WS\n\n// D6 dice codes (appended to core.lark), shared by the `d6` and `d6wild` systems.\n//   4D+2   5D+1 - 2D   2*(5D+1)   4D+2 vs 15   4D+2 vs 15+2D   3D vs 2D+2   4D vs medium\n//   4D vs Très facile   4D vs courte portée   4D vs HÉROÏQUE   (French names, with or without accents)\n\n%override ?start: sum | check\n\n%extend atom: code_literal\n\ncode_literal: INT DCODE\nDCODE: "D"i\n\ncheck: sum VS difficulty\nVS: "vs"i\n\n?difficulty: sum\n           | named_difficulty\n\n// A difficulty by name: ASCII words, plus the French vocabulary\'s accented words, and only these\n// (très, héroïque, portée, any case; anything else accented is a syntax error).\nnamed_difficulty: (WORD | FRENCH_WORD)+\nWORD: /(?ai:[a-z_]+)/\nFRENCH_WORD.2: /(?ai:tr[èÈ]s|h[éÉe]ro[ïÏi]que|port[éÉ]e)(?![a-zA-Z_À-ÿ])/\n'
LARK = '1.3.1'
START = 0
END = 8
IGNORE = frozenset(['WS'])
NEWLINE = frozenset(['WS'])
RULES = (
    ('__named_difficulty_plus_0', '__named_difficulty_plus_0', False, 1, None),
    ('__named_difficulty_plus_0', '__named_difficulty_plus_0', False, 1, None),
    ('__named_difficulty_plus_0', '__named_difficulty_plus_0', False, 2, (((0, True, 0), (1, False, 0)), 0)),
    ('__named_difficulty_plus_0', '__named_difficulty_plus_0', False, 2, (((0, True, 0), (1, False, 0)), 0)),
    ('atom', 'number', False, 1, None),
    ('atom', 'atom', True, 3, (((1, False, 0),), 0)),
    ('atom', 'atom', True, 1, None),
    ('check', 'check', False, 3, None),
    ('code_literal', 'code_literal', False, 2, None),
    ('difficulty', 'difficulty', True, 1, None),
    ('difficulty', 'difficulty', True, 1, None),
    ('named_difficulty', 'named_difficulty', False, 1, (((0, True, 0),), 0)),
    ('product', 'div', False, 3, None),
    ('product', 'mul', False, 3, None),
    ('product', 'product', True, 1, None),
    ('start', 'start', True, 1, None),
    ('start', 'start', True, 1, None),
    ('sum', 'sum', True, 1, None),
    ('sum', 'sub', False, 3, None),
    ('sum', 'add', False, 3, None),
    ('unary', 'neg', False, 2, None),
    ('unary', 'unary', True, 1, None),
)
STATES = (
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'check': 5, 'code_literal': 6, 'product': 7, 'start': 8, 'sum': 9, 'unary': 10},
    {'$END': -5, 'DCODE': 11, 'MINUS': -5, 'PLUS': -5, 'RPAR': -5, 'SLASH': -5, 'STAR': -5, 'VS': -5},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'product': 7, 'sum': 12, 'unary': 10},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'unary': 13},
    {'$END': -22, 'MINUS': -22, 'PLUS': -22, 'RPAR': -22, 'SLASH': -22, 'STAR': -22, 'VS': -22},
    {'$END': -16},
    {'$END': -7, 'MINUS': -7, 'PLUS': -7, 'RPAR': -7, 'SLASH': -7, 'STAR': -7, 'VS': -7},
    {'$END': -18, 'MINUS': -18, 'PLUS': -18, 'RPAR': -18, 'SLASH': 14, 'STAR': 15, 'VS': -18},
    {},
    {'$END': -17, 'MINUS': 16, 'PLUS': 17, 'VS': 18},
    {'$END': -15, 'MINUS': -15, 'PLUS': -15, 'RPAR': -15, 'SLASH': -15, 'STAR': -15, 'VS': -15},
    {'$END': -9, 'MINUS': -9, 'PLUS': -9, 'RPAR': -9, 'SLASH': -9, 'STAR': -9, 'VS': -9},
    {'MINUS': 16, 'PLUS': 17, 'RPAR': 19},
    {'$END': -21, 'MINUS': -21, 'PLUS': -21, 'RPAR': -21, 'SLASH': -21, 'STAR': -21, 'VS': -21},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'unary': 20},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'unary': 21},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'product': 22, 'unary': 10},
    {'INT': 1, 'LPAR': 2, 'MINUS': 3, 'atom': 4, 'code_literal': 6, 'product': 23, 'unary': 10},
    {'FRENCH_WORD': 24, 'INT': 1, 'LPAR': 2, 'MINUS': 3, 'WORD': 25, '__named_difficulty_plus_0': 26, 'atom': 4, 'code_literal': 6, 'difficulty': 27, 'named_difficulty': 28, 'product': 7, 'sum': 29, 'unary': 10},
    {'$END': -6, 'MINUS': -6, 'PLUS': -6, 'RPAR': -6, 'SLASH': -6, 'STAR': -6, 'VS': -6},
    {'$END': -13, 'MINUS': -13, 'PLUS': -13, 'RPAR': -13, 'SLASH': -13, 'STAR': -13, 'VS': -13},
    {'$END': -14, 'MINUS': -14, 'PLUS': -14, 'RPAR': -14, 'SLASH': -14, 'STAR': -14, 'VS': -14},
    {'$END': -19, 'MINUS': -19, 'PLUS': -19, 'RPAR': -19, 'SLASH': 14, 'STAR': 15, 'VS': -19},
    {'$END': -20, 'MINUS': -20, 'PLUS': -20, 'RPAR': -20, 'SLASH': 14, 'STAR': 15, 'VS': -20},
    {'$END': -1, 'FRENCH_WORD': -1, 'WORD': -1},
    {'$END': -2, 'FRENCH_WORD': -2, 'WORD': -2},
    {'$END': -12, 'FRENCH_WORD': 30, 'WORD': 31},
    {'$END': -8},
    {'$END': -10},
    {'$END': -11, 'MINUS': 16, 'PLUS': 17},
    {'$END': -3, 'FRENCH_WORD': -3, 'WORD': -3},
    {'$END': -4, 'FRENCH_WORD': -4, 'WORD': -4},
)
LEXERS = (
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<VS>(?i:vs))', '(?P<DCODE>(?i:D))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)', '(?P<RPAR>\\))', '(?P<SLASH>/)', '(?P<STAR>\\*)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<VS>(?i:vs))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)', '(?P<RPAR>\\))', '(?P<SLASH>/)', '(?P<STAR>\\*)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<VS>(?i:vs))', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)', '(?P<RPAR>\\))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<FRENCH_WORD>(?ai:tr[èÈ]s|h[éÉe]ro[ïÏi]que|port[éÉ]e)(?![a-zA-Z_À-ÿ]))', '(?P<WORD>(?ai:[a-z_]+))', '(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<LPAR>\\()', '(?P<MINUS>\\-)'), {}),
    (('(?P<FRENCH_WORD>(?ai:tr[èÈ]s|h[éÉe]ro[ïÏi]que|port[éÉ]e)(?![a-zA-Z_À-ÿ]))', '(?P<WORD>(?ai:[a-z_]+))', '(?P<WS>(?:[ \t\x0c\r\n])+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<MINUS>\\-)', '(?P<PLUS>\\+)'), {}),
)
STATE_LEXER = (0, 1, 2, 3, 4, 5, 4, 4, 6, 7, 4, 4, 8, 4, 3, 3, 9, 9, 10, 4, 4, 4, 4, 4, 11, 11, 11, 5, 5, 12, 11, 11)
