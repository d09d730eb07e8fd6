"""The expression language's tables: error codes, value kinds, functions, operators, refusals.

`trickrules.rules.expressions` compiles expressions against these tables; they live apart so
that what the language allows reads in one place.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterable
from typing import Any

SYNTAX = "TR140"
UNKNOWN_NAME = "TR141"
NOT_ALLOWED = "TR142"
TOO_BIG = "TR143"
WRONG_TYPE = "TR144"

NUMBER = "number"
"""The kind of a value that is a number (or a truth value, which counts as 0 or 1)."""
LIST = "list"
"""The kind of a value that is a list of numbers (`totals`, `bids`, ...)."""
ANY = "any"
"""The kind of a value whose kind is not known (a name, when the caller gives no `lists`)."""


class ExpressionError(Exception):
    """A problem in an expression: `message`, `column` (0-based offset in the text), `code`.

    Codes: TR140 syntax error, TR141 unknown name, TR142 construct not allowed,
    TR143 too long or too deeply nested, TR144 a list where a number is needed (or the other
    way round).
    """

    def __init__(self, message: str, column: int = 0, code: str = "TR140") -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.code = code

    def __str__(self) -> str:
        return f"{self.code} {self.message} (column {self.column})"

    def __reduce__(self) -> tuple[type[ExpressionError], tuple[str, int, str]]:
        """Pickle by the constructor arguments."""
        return (type(self), (self.message, self.column, self.code))


def _count(values: Iterable[Any]) -> int:
    """How many of `values` are true (not zero)."""
    return sum(map(bool, values))


# name -> (function, fewest arguments, most arguments or None for no limit)
_FUNCTIONS: dict[str, tuple[Callable[..., Any], int, int | None]] = {
    "abs": (abs, 1, 1),
    "count": (_count, 1, 1),
    "len": (len, 1, 1),
    "max": (max, 1, None),
    "min": (min, 1, None),
    "sum": (sum, 1, 1),
}
FUNCTIONS: frozenset[str] = frozenset(_FUNCTIONS)
"""The functions an expression may call."""

_INDEX = "_index"  # the global that turns a possible list into an integer before `*`
_ENV = "env"  # the generated function's parameter; value names become locals v0, v1, ...

_BINARY: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Div: "/",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
}
_ALLOWED_BINARY = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_ALLOWED_COMPARE = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access is not allowed",
    ast.Lambda: "lambda is not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.NamedExpr: "assignment (':=') is not allowed",
    ast.Starred: "unpacking ('*') is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.List: "list literals are not allowed",
    ast.Tuple: "tuples are not allowed",
    ast.Set: "set literals are not allowed",
    ast.Dict: "dict literals are not allowed",
    ast.Slice: "slices are not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
}


def _floordiv(left: Any, right: Any) -> int:
    return left // right if right else 0


def _mod(left: Any, right: Any) -> int:
    return left % right if right else 0


def _at(values: Any, index: Any) -> Any:
    """`values[index]`, or 0 past either end (a number that is not a list is refused at load)."""
    index = operator.index(index)
    return values[index] if -len(values) <= index < len(values) else 0


_FLOORDIV, _MOD, _AT = "_floordiv", "_mod", "_at"
_TOTAL: dict[str, Callable[..., Any]] = {_FLOORDIV: _floordiv, _MOD: _mod, _AT: _at}
"""The globals that make ``//``, ``%`` and indexing give a value for every value read."""
