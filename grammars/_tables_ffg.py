"""Parse tables of ``ffg.lark`` (``core.lark`` and its fragment), written by ``python -m diceengine.lalr`` with Lark 1.3.1:
do not edit; change the grammar and run it again (tests/test_parser_tables.py checks they are in step)."""

# fmt: off
# ruff: noqa

GRAMMAR = '// diceengine core grammar: integer arithmetic (LALR).\n//\n// Systems extend it: a fragment appended to this text adds its dice terms to `atom`\n// with `%extend atom: ...` and may replace the entry point with `%override ?start: ...`\n// (to add `vs`, for instance). Rule names are the AST class names in snake case\n// (see diceengine/ast.py): one frozen dataclass per rule.\n\n?start: sum\n\n?sum: product\n    | sum PLUS product     -> add\n    | sum MINUS product    -> sub\n\n?product: unary\n        | product STAR unary   -> mul\n        | product SLASH unary  -> div\n\n?unary: atom\n      | MINUS unary        -> neg\n\n?atom: INT                 -> number\n     | "(" sum ")"\n\nPLUS: "+"\nMINUS: "-"\nSTAR: "*"\nSLASH: "/"\n\n%import common.INT\n%import common.WS\n%ignore WS\n\n// FFG narrative dice (appended to core.lark).\n//   2a1p1b vs 2d1s    3a + 2p vs 3d    2 ability 1 proficiency vs 2 difficulty\n//   2 capacité 1 compétence vs 2 difficulté     yyygg vs ppr (option letters="colour")\n// Letters: initials a ability, p proficiency, b boost, d difficulty, c challenge, s setback, f force;\n// with letters="colour" the community\'s y g b p r k w (and blk, pro, boo, dif, cha, abi, sb, frc).\n// Names in English and French, colour names in English and French (vert, jaune, bleu, violet,\n// rouge, noir, blanc). Which letter means which die is the system\'s `letters` option: the grammar\n// reads the words, the system resolves them.\n\n%override ?start: narrative_check\n\nnarrative_check: narrative_pool [AGAINST narrative_pool]\nAGAINST: "vs"i\n\nnarrative_pool: narrative_dice ("+"? narrative_dice)*\nnarrative_dice: [INT] SYMBOL_DIE\nSYMBOL_DIE: /(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw])/\n'
LARK = '1.3.1'
START = 0
END = 6
IGNORE = frozenset(['WS'])
NEWLINE = frozenset(['WS'])
RULES = (
    ('__narrative_pool_star_0', '__narrative_pool_star_0', False, 2, (((1, False, 0),), 0)),
    ('__narrative_pool_star_0', '__narrative_pool_star_0', False, 3, (((0, True, 0), (2, False, 0)), 0)),
    ('__narrative_pool_star_0', '__narrative_pool_star_0', False, 2, (((0, True, 0), (1, False, 0)), 0)),
    ('__narrative_pool_star_0', '__narrative_pool_star_0', False, 1, None),
    ('atom', 'number', False, 1, None),
    ('atom', 'atom', True, 3, (((1, False, 0),), 0)),
    ('narrative_check', 'narrative_check', False, 1, (((0, False, 0),), 2)),
    ('narrative_check', 'narrative_check', False, 3, None),
    ('narrative_dice', 'narrative_dice', False, 2, None),
    ('narrative_dice', 'narrative_dice', False, 1, (((0, False, 1),), 0)),
    ('narrative_pool', 'narrative_pool', False, 1, None),
    ('narrative_pool', 'narrative_pool', False, 2, (((0, False, 0), (1, True, 0)), 0)),
    ('product', 'div', False, 3, None),
    ('product', 'mul', False, 3, None),
    ('product', 'product', True, 1, None),
    ('start', 'start', True, 1, None),
    ('sum', 'sum', True, 1, None),
    ('sum', 'sub', False, 3, None),
    ('sum', 'add', False, 3, None),
    ('unary', 'neg', False, 2, None),
    ('unary', 'unary', True, 1, None),
)
STATES = (
    {'INT': 1, 'SYMBOL_DIE': 2, 'narrative_check': 3, 'narrative_dice': 4, 'narrative_pool': 5, 'start': 6},
    {'SYMBOL_DIE': 7},
    {'$END': -10, 'AGAINST': -10, 'INT': -10, 'PLUS': -10, 'SYMBOL_DIE': -10},
    {'$END': -16},
    {'$END': -11, 'AGAINST': -11, 'INT': 1, 'PLUS': 8, 'SYMBOL_DIE': 2, '__narrative_pool_star_0': 9, 'narrative_dice': 10},
    {'$END': -7, 'AGAINST': 11},
    {},
    {'$END': -9, 'AGAINST': -9, 'INT': -9, 'PLUS': -9, 'SYMBOL_DIE': -9},
    {'INT': 1, 'SYMBOL_DIE': 2, 'narrative_dice': 12},
    {'$END': -12, 'AGAINST': -12, 'INT': 1, 'PLUS': 13, 'SYMBOL_DIE': 2, 'narrative_dice': 14},
    {'$END': -4, 'AGAINST': -4, 'INT': -4, 'PLUS': -4, 'SYMBOL_DIE': -4},
    {'INT': 1, 'SYMBOL_DIE': 2, 'narrative_dice': 4, 'narrative_pool': 15},
    {'$END': -1, 'AGAINST': -1, 'INT': -1, 'PLUS': -1, 'SYMBOL_DIE': -1},
    {'INT': 1, 'SYMBOL_DIE': 2, 'narrative_dice': 16},
    {'$END': -3, 'AGAINST': -3, 'INT': -3, 'PLUS': -3, 'SYMBOL_DIE': -3},
    {'$END': -8},
    {'$END': -2, 'AGAINST': -2, 'INT': -2, 'PLUS': -2, 'SYMBOL_DIE': -2},
)
LEXERS = (
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))', '(?P<AGAINST>(?i:vs))', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))', '(?P<AGAINST>(?i:vs))', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<AGAINST>(?i:vs))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)',), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))', '(?P<AGAINST>(?i:vs))', '(?P<PLUS>\\+)'), {}),
    (('(?P<WS>(?:[ \t\x0c\r\n])+)', '(?P<INT>(?:[0-9])+)', '(?P<SYMBOL_DIE>(?ai:abilit(?:y|ies)|proficienc(?:y|ies)|boosts?|difficult(?:y|ies)|challenges?|setbacks?|forces?|capacit[éÉe]s?|comp[éÉe]tences?|difficult[éÉe]s?|d[éÉe]fis?|fortunes?|revers|yellow|green|blue|purple|red|black|white|jaune|vert|bleu|violet|rouge|noir|blanc|blk|pro|boo|dif|cha|abi|set|sb|frc|[apbdcsfygrkw]))'), {}),
)
STATE_LEXER = (0, 1, 2, 3, 4, 5, 6, 2, 7, 8, 2, 9, 2, 7, 2, 3, 2)
