"""Expressions in rule specs, compiled once when a spec loads.

A spec may hold a small formula where it would otherwise hold a number or a yes/no value:
``"10 * bid + (tricks - bid) if tricks >= bid else -10 * bid"``, ``"max(totals) >= 100"``.
`compile_expression` checks such a text against the names the engine provides and turns it
into an `Expression`, whose `function` takes a mapping of name values and returns the value.
Nothing is parsed while a game plays.

The language is a small subset of Python's expression syntax: integer literals, ``True`` and
``False``, the given names, unary ``-`` ``+`` ``not``, binary ``+`` ``-`` ``*`` ``//`` ``%``,
comparisons (chains allowed), ``and``, ``or``, ``a if c else b``, calls of ``abs``, ``count``,
``len``, ``max``, ``min`` and ``sum``, and a name indexed by an integer (``totals[0]``).
Everything else is refused with an `ExpressionError` that names the construct and the column
where it starts.

How it works: the text is parsed once with `ast.parse` (mode ``"eval"``), every node is checked
against the whitelist above and rebuilt into a fresh tree, and that tree is compiled with
`compile` into a plain function. The function reads each name from the mapping once, into a
local variable; its globals are the six functions, `operator.index` and the helpers that give
``//``, ``%`` and indexing a value for every operand (`expression_syntax`), and no builtins. Cost is
bounded: a text holds at most `MAX_LENGTH` characters and `MAX_DEPTH` nesting levels (checked
before anything recursive runs, so deep input gives TR143, never a `RecursionError`); ``**`` is
refused; and ``*`` turns an operand that might be a list into an integer first
(`operator.index`), so no expression can repeat a list into a huge one.

Why this and not a library (measured on CPython 3.11, best of 7 runs of 100,000 calls): one call
of ``10 * bid + (tricks - bid) if tricks >= bid else -10 * bid`` takes about 75 ns through
`Expression.function` and 125 ns through the `Expression` itself, against 85 ns for a
hand-written lambda, 115 ns for evalidate's compiled code run with `eval` (280 ns through its
``Expr.eval``), 2 µs for simpleeval, which walks the tree on every call, and 75 µs (transpiled)
to 200 µs (interpreted) for cel-python, whose syntax differs (``c ? a : b``) and which brings
lark, pendulum, google-re2 and jmespath. ``max(totals) >= 100`` and ``trick == 1 and not
hearts_broken`` rank the same way. None of the three reports the column of a refused construct
(cel-python gives one for syntax errors only); simpleeval and evalidate find an unknown name
only when evaluation reaches it; evalidate's base model accepts ``/``, text and ``is``, and has
no bound on repeating a list (``totals * 100000000``); all three end in `RecursionError` or
`MemoryError` on deeply nested input. Only evalidate, which also compiles a whitelisted tree,
comes close in speed, and what it lacks (names checked at load, columns, limits, integer-only
operators) is most of this module. So the compiler is written here on the standard library,
without a new dependency. Compiling costs about 0.1 ms per distinct text; results are cached by
text and names.
"""

from __future__ import annotations

import ast
import difflib
import functools
import operator
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from trickrules.errors import TrickrulesError
from trickrules.rules.expression_syntax import (
    _ALLOWED_BINARY,
    _ALLOWED_COMPARE,
    _BINARY,
    _ENV,
    _INDEX,
    _AT,
    _FLOORDIV,
    _MOD,
    _TOTAL,
    _FUNCTIONS,
    _REFUSED,
    ANY,
    FUNCTIONS,
    LIST,
    NOT_ALLOWED,
    NUMBER,
    SYNTAX,
    TOO_BIG,
    UNKNOWN_NAME,
    WRONG_TYPE,
    ExpressionError,
)

MAX_LENGTH = 1000
"""The most characters an expression may hold."""

MAX_DEPTH = 100
"""The most nesting levels an expression may hold: brackets, and operators inside operators."""

@dataclass(frozen=True)
class Expression:
    """A compiled expression: call it with a mapping that gives a value to each name it reads.

    Two expressions are equal when their text and names are; `function` is left out of the
    comparison. An expression pickles by its text and is compiled again when unpickled.
    """

    text: str
    names: frozenset[str]
    """The names the expression reads (not every name it was allowed to read)."""
    function: Callable[[Mapping[str, Any]], Any] = field(compare=False, repr=False)
    """Evaluates with the given name values; a name missing from the mapping raises KeyError."""
    written: str = field(default="", compare=False, repr=False)
    """The text as the spec wrote it, where it read named sub-expressions (`text` has them written out)."""

    def __call__(self, env: Mapping[str, Any]) -> Any:
        """The value of the expression for the name values in `env`.

        A failure that only values can cause (``// 0``, an index past the end, a list where a
        number goes) raises `ExpressionValueError` naming the expression.
        """
        try:
            return self.function(env)
        except (ArithmeticError, IndexError, TypeError, ValueError) as error:
            raise ExpressionValueError(f"the expression '{self.text}' cannot be evaluated: {error}") from None

    def __reduce__(self) -> tuple[Callable[..., Expression], tuple[Any, ...]]:
        """Pickle by the text and the names read; unpickling compiles the text again (however
        long: a text with its named sub-expressions written out may exceed `MAX_LENGTH`)."""
        return (compile_expression, (self.text, self.names, None, max(MAX_LENGTH, len(self.text))))


class ExpressionValueError(TrickrulesError, ValueError):
    """An expression that cannot be evaluated for the values it was given during play."""


def is_constant(expr: Expression | int | bool) -> bool:
    """Whether `expr` reads no names (a plain int or bool counts as constant)."""
    if isinstance(expr, Expression):
        return not expr.names
    return True


def compile_expression(
    text: str | int | bool, names: Iterable[str], lists: Iterable[str] | None = None, max_length: int = MAX_LENGTH
) -> Expression:
    """Check `text` and compile it into an `Expression` that may read the given `names`.

    An int or bool (a spec may write ``3`` rather than ``"3"``) gives a constant expression.
    With `lists` (the names among `names` that hold a list of numbers; every other name holds a
    number), the kinds are checked too: the value must be a number (or a truth value), a list
    is only indexed, summed, counted, measured with ``len`` or passed whole to ``max``/``min``,
    and arithmetic and order comparisons take numbers (TR144). Without `lists` a name may be
    either, and only ``*`` guards against a list.
    `max_length`: the most characters the text may hold (an expression with its named
    sub-expressions written out may be longer than one written by hand).
    Raises `ExpressionError` (TR140 to TR144) for any problem, with the column where it is.
    """
    if isinstance(names, str):
        raise TypeError("names must be an iterable of names, not a single string")
    if isinstance(text, bool | int):
        text = repr(text)
    elif isinstance(text, float):
        raise ExpressionError("non-integer numbers are not allowed: game values are integers", 0, NOT_ALLOWED)
    elif not isinstance(text, str):
        raise TypeError(f"an expression is text or an integer, not {type(text).__name__}")
    return _compile(text, frozenset(names), None if lists is None else frozenset(lists), max_length)


@functools.lru_cache(maxsize=1024)
def _compile(text: str, names: frozenset[str], lists: frozenset[str] | None = None, max_length: int = MAX_LENGTH) -> Expression:
    """Compile `text`; a spec loaded again reuses its expressions (they are immutable)."""
    return _Compiler(text, names, lists, max_length).run()


def _did_you_mean(name: str, known: list[str]) -> str:
    """"; did you mean 'x' or 'y'?" for the known names closest to `name`, or ""."""
    matches = difflib.get_close_matches(name, known, n=3)
    if not matches:
        return ""
    scores = [difflib.SequenceMatcher(None, match, name).ratio() for match in matches]
    close = [f"'{match}'" for match, score in zip(matches, scores) if score >= scores[0] - 0.1]
    if len(close) > 1:
        close = [", ".join(close[:-1]), close[-1]]
    return f"; did you mean {' or '.join(close)}?"


def _local(index: int) -> str:
    return f"v{index}"


def _nonzero_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int) and node.value != 0


class _Compiler:
    """Compiles one text: checks, rebuilds the tree, compiles it into a function."""

    def __init__(self, text: str, names: frozenset[str], lists: frozenset[str] | None = None, max_length: int = MAX_LENGTH) -> None:
        self.text = text
        self.max_length = max_length
        self.names = names
        self.lists = lists  # None: kinds are not known, and not checked
        self.used: dict[str, str] = {}  # value name -> local variable in the generated code
        self.lead = 0  # characters of leading white space, left out of what is parsed
        self.source = ""  # what is parsed: the text without leading white space, newlines as spaces
        self.encoded = b""

    # ---------------------------------------------------------------- errors and columns

    def fail(self, message: str, column: int, code: str = NOT_ALLOWED) -> NoReturn:
        raise ExpressionError(message, max(0, min(column, len(self.text))), code)

    def column(self, node: ast.expr | ast.keyword) -> int:
        """The 0-based character column in the text where `node` starts."""
        return self.char(node.col_offset)

    def end(self, node: ast.expr) -> int:
        """The 0-based character column in the text just past `node`."""
        return self.char(node.end_col_offset or 0)

    def char(self, byte_offset: int) -> int:
        """Turn a UTF-8 byte offset in the parsed source into a character column in the text."""
        return self.lead + len(self.encoded[:byte_offset].decode("utf-8", "ignore"))

    def between(self, start: int, stop: int, default: int) -> int:
        """The column of the first character in text[start:stop] that is no space or bracket."""
        for index in range(start, min(stop, len(self.text))):
            if self.text[index] not in " \t\f\r\n()":
                return index
        return default

    # ---------------------------------------------------------------- the stages

    def run(self) -> Expression:
        tree = self.parse()
        self.check_depth(tree.body)
        body, kind = self.lower(tree.body)
        if kind == LIST:
            self.kind_error(tree.body, "the value is a list; a number or a condition is needed here (use sum(...), len(...), max(...) or an index)")
        return Expression(self.text, frozenset(self.used), self.build(body))

    def parse(self) -> ast.Expression:
        """Check the text's size and characters, then parse it; raise TR140 or TR143."""
        text = self.text
        if len(text) > self.max_length:
            self.fail(f"expression is too long: {len(text)} characters, at most {self.max_length}", self.max_length, TOO_BIG)
        stripped = text.lstrip(" \t\f\r\n")
        if not stripped.strip():
            self.fail("empty expression", len(text), SYNTAX)
        self.lead = len(text) - len(stripped)
        depth = 0
        for index, char in enumerate(text):
            if char in "([{":
                depth += 1
                if depth > MAX_DEPTH:
                    self.fail(f"expression is nested too deeply: more than {MAX_DEPTH} levels", index, TOO_BIG)
            elif char in ")]}":
                depth = max(0, depth - 1)
            elif char == "\x00":
                self.fail("NUL character in expression", index, SYNTAX)
            elif char == "#":
                self.fail("comments ('#') are not allowed", index)
        # Inside one line every offset is a column; a newline is white space in an expression.
        self.source = stripped.replace("\r", " ").replace("\n", " ")
        try:
            self.encoded = self.source.encode("utf-8")
        except UnicodeEncodeError as error:
            self.fail("expression holds a character that is not valid text", self.lead + error.start, SYNTAX)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(self.source, "<expression>", "eval")
        except SyntaxError as error:
            # offset: 1-based, in characters; 0 or missing when the text ends too early.
            column = self.lead + error.offset - 1 if error.offset else len(text.rstrip())
            if error.msg == "too many nested parentheses":
                self.fail(f"expression is nested too deeply: {error.msg}", column, TOO_BIG)
            self.fail(f"syntax error: {error.msg}", column, SYNTAX)
        except (RecursionError, MemoryError):
            self.fail(f"expression is nested too deeply to read: at most {MAX_DEPTH} levels", 0, TOO_BIG)
        except ValueError as error:
            self.fail(f"syntax error: {error}", 0, SYNTAX)
        return tree

    def check_depth(self, root: ast.expr) -> None:
        """Raise TR143 at the first expression nested more than MAX_DEPTH deep (no recursion)."""
        stack: list[tuple[ast.AST, int]] = [(root, 1)]
        while stack:
            node, depth = stack.pop()
            if isinstance(node, ast.expr) and depth > MAX_DEPTH:
                self.fail(f"expression is nested too deeply: more than {MAX_DEPTH} levels", self.column(node), TOO_BIG)
            stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))

    def build(self, body: ast.expr) -> Callable[[Mapping[str, Any]], Any]:
        """Compile `body` into ``def expression(env): v0 = env[name0]; ...; return body``."""
        reads: list[ast.stmt] = [
            ast.Assign(
                targets=[ast.Name(id=local, ctx=ast.Store())],
                value=ast.Subscript(value=ast.Name(id=_ENV, ctx=ast.Load()), slice=ast.Constant(name), ctx=ast.Load()),
            )
            for name, local in sorted(self.used.items())
        ]
        function = ast.FunctionDef(
            name="expression",
            args=ast.arguments(
                posonlyargs=[], args=[ast.arg(arg=_ENV)], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                defaults=[],
            ),
            body=[*reads, ast.Return(value=body)],
            decorator_list=[],
            returns=None,
        )
        module = ast.fix_missing_locations(ast.Module(body=[function], type_ignores=[]))
        code = compile(module, f"<expression {self.text[:60]!r}>", "exec")
        namespace: dict[str, Any] = {"__builtins__": {}, _INDEX: operator.index, **_TOTAL}
        namespace.update((name, entry[0]) for name, entry in _FUNCTIONS.items())
        exec(code, namespace)  # defines `expression` from the checked tree only
        result: Callable[[Mapping[str, Any]], Any] = namespace["expression"]
        return result

    # ---------------------------------------------------------------- checking and rebuilding

    def lower(self, node: ast.expr) -> tuple[ast.expr, str]:
        """Check `node` and rebuild it from allowed parts.

        Returns the new node and the kind of its value: `NUMBER`, `LIST`, or `ANY` when the
        names' kinds are not known (a name may hold a list, and so may ``a + b``, ``a or b``,
        ``max(a, b)`` of such values).
        """
        if isinstance(node, ast.Constant):
            return self.constant(node), NUMBER
        if isinstance(node, ast.Name):
            return self.name(node), self.kind_of(node.id)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node), NUMBER
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.BoolOp):
            parts = [self.lower(value) for value in node.values]
            for value, (_, kind) in zip(node.values, parts):
                self.need_number(value, kind, f"'{type(node.op).__name__.lower()}'")
            return ast.BoolOp(op=type(node.op)(), values=[p[0] for p in parts]), self.join(p[1] for p in parts)
        if isinstance(node, ast.Compare):
            return self.compare(node), NUMBER
        if isinstance(node, ast.IfExp):
            test, test_kind = self.lower(node.test)
            self.need_number(node.test, test_kind, "a condition")
            body, body_kind = self.lower(node.body)
            orelse, orelse_kind = self.lower(node.orelse)
            if self.lists is not None and body_kind != orelse_kind:
                self.kind_error(node, "one branch of 'if ... else' is a list and the other a number")
            return ast.IfExp(test=test, body=body, orelse=orelse), self.join((body_kind, orelse_kind))
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            return self.subscript(node), NUMBER
        if isinstance(node, ast.Attribute):
            self.fail(_REFUSED[ast.Attribute], self.between(self.end(node.value), len(self.text), self.column(node)))
        message = _REFUSED.get(type(node), f"{type(node).__name__} is not allowed")
        self.fail(message, self.column(node))

    # ---------------------------------------------------------------- kinds

    def kind_of(self, name: str) -> str:
        if self.lists is None:
            return ANY
        return LIST if name in self.lists else NUMBER

    @staticmethod
    def join(kinds: Iterable[str]) -> str:
        """The kind of a value that is one of several: `NUMBER` only if each surely is."""
        found = set(kinds)
        return found.pop() if len(found) == 1 else ANY

    def kind_error(self, node: ast.expr, message: str) -> NoReturn:
        self.fail(message, self.column(node), WRONG_TYPE)

    def need_number(self, node: ast.expr, kind: str, where: str) -> None:
        if kind == LIST:
            self.kind_error(node, f"a list cannot stand in {where}: a number is needed (use sum(...), len(...), max(...) or an index)")

    def need_list(self, node: ast.expr, kind: str, where: str) -> None:
        if kind == NUMBER and self.lists is not None:
            self.kind_error(node, f"{where} needs a list, and this is a number")

    def constant(self, node: ast.Constant) -> ast.expr:
        value = node.value
        if isinstance(value, bool | int):
            return ast.Constant(value)
        if isinstance(value, float | complex):
            self.fail("non-integer numbers are not allowed: game values are integers", self.column(node))
        if isinstance(value, str | bytes):
            self.fail("string literals are not allowed", self.column(node))
        self.fail(f"{value!r} is not allowed", self.column(node))

    def name(self, node: ast.Name) -> ast.expr:
        name = node.id
        if name.startswith("__"):
            self.fail(f"names starting with '__' are not allowed: {name}", self.column(node))
        if name not in self.names:
            self.unknown(name, self.column(node))
        local = self.used.setdefault(name, _local(len(self.used)))
        return ast.Name(id=local, ctx=ast.Load())

    def unknown(self, name: str, column: int) -> NoReturn:
        known = sorted(self.names)
        if name in _FUNCTIONS:
            message = f"{name} is a function, not a value: call it, as in {name}(...)"
        else:
            message = f"unknown name '{name}'"
            message += _did_you_mean(name, known)
        message += f" (names here: {', '.join(known)})" if known else " (no names can be used here)"
        self.fail(message, column, UNKNOWN_NAME)

    def unary(self, node: ast.UnaryOp) -> ast.expr:
        if isinstance(node.op, ast.Invert):
            self.fail("the operator '~' is not allowed", self.column(node))
        operand, kind = self.lower(node.operand)
        self.need_number(node.operand, kind, f"'{'not' if isinstance(node.op, ast.Not) else '-' if isinstance(node.op, ast.USub) else '+'}'")
        return ast.UnaryOp(op=type(node.op)(), operand=operand)

    def binary(self, node: ast.BinOp) -> tuple[ast.expr, str]:
        op = node.op
        if not isinstance(op, _ALLOWED_BINARY):
            column = self.between(self.end(node.left), self.column(node.right), self.column(node))
            symbol = _BINARY.get(type(op), type(op).__name__)
            if isinstance(op, ast.Div):
                self.fail("'/' is not allowed: values are integers; use '//' to divide, rounding down", column)
            if isinstance(op, ast.Pow):
                self.fail("'**' (power) is not allowed; write the product, as in x * x", column)
            self.fail(f"the operator '{symbol}' is not allowed", column)
        left, left_kind = self.lower(node.left)
        right, right_kind = self.lower(node.right)
        symbol = _BINARY[type(op)]
        if isinstance(op, ast.Add) and left_kind == right_kind == LIST:
            return ast.BinOp(left=left, op=ast.Add(), right=right), LIST  # joins two lists
        self.need_number(node.left, left_kind, f"'{symbol}'")
        self.need_number(node.right, right_kind, f"'{symbol}'")
        if isinstance(op, ast.Mult):
            # A list times a number repeats the list: make a possible list a number first.
            if left_kind != NUMBER:
                left = self.as_number(left)
            if right_kind != NUMBER:
                right = self.as_number(right)
            return ast.BinOp(left=left, op=ast.Mult(), right=right), NUMBER
        if isinstance(op, ast.FloorDiv | ast.Mod) and not _nonzero_constant(right):
            # x // 0 and x % 0 are 0: an expression has a value for every value it reads
            helper = _FLOORDIV if isinstance(op, ast.FloorDiv) else _MOD
            return ast.Call(func=ast.Name(id=helper, ctx=ast.Load()), args=[left, right], keywords=[]), NUMBER
        # list + list concatenates (growth bounded by the text's length); - // % refuse lists.
        plain = NUMBER in (left_kind, right_kind) or not isinstance(op, ast.Add)
        return ast.BinOp(left=left, op=type(op)(), right=right), NUMBER if plain else ANY

    @staticmethod
    def as_number(node: ast.expr) -> ast.expr:
        return ast.Call(func=ast.Name(id=_INDEX, ctx=ast.Load()), args=[node], keywords=[])

    def compare(self, node: ast.Compare) -> ast.expr:
        before: ast.expr = node.left
        for op, after in zip(node.ops, node.comparators):
            if not isinstance(op, _ALLOWED_COMPARE):
                column = self.between(self.end(before), self.column(after), self.column(node))
                if isinstance(op, ast.Is | ast.IsNot):
                    self.fail("'is' is not allowed; compare values with '=='", column)
                self.fail("'in' is not allowed", column)
            before = after
        left, left_kind = self.lower(node.left)
        parts = [self.lower(item) for item in node.comparators]
        kinds = [left_kind, *(kind for _, kind in parts)]
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            if self.lists is None or kinds[index] == kinds[index + 1] == NUMBER:
                continue
            if isinstance(op, ast.Eq | ast.NotEq) and kinds[index] == kinds[index + 1]:
                continue  # two lists are equal or not
            self.kind_error(operands[index] if kinds[index] == LIST else operands[index + 1],
                            "a list is compared with a number, or ordered: compare numbers (use sum(...), len(...), max(...) or an index)")
        comparators = [item for item, _ in parts]
        return ast.Compare(left=left, ops=[type(op)() for op in node.ops], comparators=comparators)

    def call(self, node: ast.Call) -> tuple[ast.expr, str]:
        func = node.func
        functions = ", ".join(sorted(_FUNCTIONS))
        if not isinstance(func, ast.Name):
            self.lower(func)  # refuses what it holds first: an attribute, a lambda, ...
            self.fail(f"only these functions can be called: {functions}", self.column(node))
        name = func.id
        column = self.column(func)
        if name.startswith("__"):
            self.fail(f"names starting with '__' are not allowed: {name}", column)
        if name not in _FUNCTIONS:
            if name in self.names:
                self.fail(f"{name} is a value, not a function; the functions are {functions}", column)
            message = f"unknown function '{name}'"
            message += _did_you_mean(name, sorted(_FUNCTIONS))
            self.fail(f"{message} (functions: {functions})", column, UNKNOWN_NAME)
        if node.keywords:
            self.fail("keyword arguments are not allowed", self.column(node.keywords[0]))
        _, fewest, most = _FUNCTIONS[name]
        count = len(node.args)
        if not any(isinstance(arg, ast.Starred) for arg in node.args):
            if count < fewest or (most is not None and count > most):
                wanted = f"exactly {fewest}" if fewest == most else f"at least {fewest}"
                plural = "" if fewest == 1 else "s"
                self.fail(f"{name}() takes {wanted} argument{plural} ({count} given)", column)
        parts = [self.lower(arg) for arg in node.args]
        if name == "abs" or (name in ("min", "max") and count > 1):
            where = "abs()" if name == "abs" else f"{name}() of several values"
            for arg, (_, kind) in zip(node.args, parts):
                self.need_number(arg, kind, where)
        else:  # count, len, sum, and min/max of one value, read a list
            self.need_list(node.args[0], parts[0][1], f"{name}() of one value")
        # max/min of an empty list are 0 (an option may hold no suits)
        keywords = [ast.keyword(arg="default", value=ast.Constant(0))] if name in ("min", "max") and count == 1 else []
        call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[p[0] for p in parts], keywords=keywords)
        # min/max of one list give a number; of several values, one of them (perhaps a list).
        plain = name not in ("min", "max") or count == 1 or all(p[1] == NUMBER for p in parts)
        return call, NUMBER if plain else ANY

    def subscript(self, node: ast.Subscript) -> ast.expr:
        base = node.value
        if not isinstance(base, ast.Name):
            self.lower(base)
            self.fail("only a name can be indexed, as in totals[0]", self.column(node))
        value = self.name(base)
        self.need_list(base, self.kind_of(base.id), "an index")
        if isinstance(node.slice, ast.Slice):
            self.fail(_REFUSED[ast.Slice], self.column(node.slice))
        index, index_kind = self.lower(node.slice)
        self.need_number(node.slice, index_kind, "an index")
        # an index past either end reads 0 (totals[4] with three players)
        return ast.Call(func=ast.Name(id=_AT, ctx=ast.Load()), args=[value, index], keywords=[])
