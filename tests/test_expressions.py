"""Expressions in rule specs: values, refused constructs with code and column, limits, speed-ups."""

from __future__ import annotations

import re

import ast
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trickrules.rules import expressions
from trickrules.rules.expressions import ExpressionError, ExpressionValueError, compile_expression, is_constant

NAMES = ("penalty", "tricks", "bid", "totals", "trick", "hearts_broken", "points", "flags")
ENV: dict[str, Any] = {
    "penalty": 26,
    "tricks": 5,
    "bid": 3,
    "totals": (40, 120, 75, 12),
    "trick": 1,
    "hearts_broken": False,
    "points": [3, -2, 0, 7],
    "flags": (True, False, True, True),
}


def value(text: str | int | bool, env: Mapping[str, Any] = ENV) -> Any:
    return compile_expression(text, NAMES)(env)


def refused(text: str, names: tuple[str, ...] = NAMES) -> ExpressionError:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, names)
    return caught.value


# ---------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("26 if penalty == 26 else 0", 26),
        ("10 * bid + (tricks - bid) if tricks >= bid else -10 * bid", 32),
        ("max(totals) >= 100", True),
        ("trick == 1 and not hearts_broken", True),
        ("abs(tricks - bid)", 2),
        ("abs(bid - tricks)", 2),
        ("min(totals)", 12),
        ("max(bid, tricks, 4)", 5),
        ("min(bid, tricks)", 3),
        ("sum(totals)", 247),
        ("sum(points)", 8),
        ("len(totals)", 4),
        ("count(flags)", 3),
        ("count(points)", 3),
        ("totals[0]", 40),
        ("totals[-1]", 12),
        ("totals[trick]", 120),
        ("totals[len(totals) - 1] * 2", 24),
        ("totals[0] * totals[3]", 480),
        ("7 // 2", 3),
        ("-7 // 2", -4),
        ("7 % 3", 1),
        ("-7 % 3", 2),
        ("tricks - bid * 2", -1),
        ("(tricks - bid) * 2", 4),
        ("-bid", -3),
        ("+bid", 3),
        ("--bid", 3),
        ("not hearts_broken", True),
        ("not 0", True),
        ("0 < bid < tricks <= 5", True),
        ("1 < bid < 3", False),
        ("bid != tricks", True),
        ("bid == 3 == 3", True),
        ("hearts_broken or bid", 3),
        ("bid and tricks", 5),
        ("tricks > 4 and (bid < 2 or penalty > 20)", True),
        ("True", True),
        ("False", False),
        ("True + 1", 2),
        ("0x10 + 1_000", 1016),
        ("bid if hearts_broken else tricks if trick == 1 else 0", 5),
        ("10 * bid if tricks == bid else -abs(tricks - bid)", -2),
        ("max(totals) - min(totals)", 108),
        ("bid * tricks", 15),
        ("3 * 4 + 2", 14),
        ("  bid  ", 3),
        ("\n bid +\n  tricks\n", 8),
        ("bid\r\n* 2", 6),
    ],
)
def test_value(text: str, expected: Any) -> None:
    result = value(text)
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize(("constant", "expected"), [(3, 3), (-5, -5), (0, 0), (True, True), (False, False)])
def test_int_and_bool_constants_are_accepted(constant: int, expected: int) -> None:
    expression = compile_expression(constant, NAMES)
    assert expression({}) == expected
    assert type(expression({})) is type(expected)
    assert expression.names == frozenset()
    assert expression.text == repr(constant)
    assert is_constant(expression)
    assert is_constant(constant)


def test_a_float_constant_is_refused() -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(2.5, NAMES)  # type: ignore[arg-type]
    assert caught.value.code == "TR142"


def test_other_values_are_a_type_error() -> None:
    with pytest.raises(TypeError):
        compile_expression(None, NAMES)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        compile_expression("bid", "bid")


def test_names_reports_the_names_read() -> None:
    expression = compile_expression("10 * bid + (tricks - bid) if tricks >= bid else -10 * bid", NAMES)
    assert expression.names == frozenset({"bid", "tricks"})
    assert compile_expression("max(totals) >= 100", NAMES).names == {"totals"}
    assert compile_expression("totals[trick]", NAMES).names == {"totals", "trick"}
    assert compile_expression("3 * 4", NAMES).names == frozenset()


def test_is_constant() -> None:
    assert is_constant(compile_expression("3 * 4 + max(1, 2)", NAMES))
    assert is_constant(compile_expression("True", NAMES))
    assert not is_constant(compile_expression("bid", NAMES))
    assert not is_constant(compile_expression("0 * bid", NAMES))


def test_a_missing_name_raises_key_error() -> None:
    expression = compile_expression("bid if hearts_broken else 0", NAMES)
    with pytest.raises(KeyError):
        expression({"bid": 1})  # every name is read, even one in a branch not taken


def test_the_function_and_the_call_agree() -> None:
    expression = compile_expression("abs(tricks - bid)", NAMES)
    assert expression.function(ENV) == expression(ENV) == 2
    assert expression.function({"tricks": 0, "bid": 4}) == 4


def test_equality_ignores_the_function_and_pickling_recompiles() -> None:
    one = compile_expression("max(totals) >= 100", NAMES)
    two = compile_expression("max(totals) >= 100", ("totals",))
    assert one == two and hash(one) == hash(two)
    copy = pickle.loads(pickle.dumps(one))
    assert copy == one and copy(ENV) is True
    error = pickle.loads(pickle.dumps(ExpressionError("attribute access is not allowed", 3, "TR142")))
    assert (error.message, error.column, error.code) == ("attribute access is not allowed", 3, "TR142")


def test_expression_is_frozen() -> None:
    expression = compile_expression("bid", NAMES)
    with pytest.raises(AttributeError):
        expression.text = "tricks"  # type: ignore[misc]


def test_compiled_once_evaluation_never_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    expression = compile_expression("10 * bid + (tricks - bid) if tricks >= bid else -10 * bid", NAMES)
    constant = compile_expression(7, NAMES)

    def no_parse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed while evaluating")

    monkeypatch.setattr(ast, "parse", no_parse)
    monkeypatch.setattr(expressions, "_Compiler", None)  # nothing may compile either
    for tricks in range(8):
        assert expression({"bid": 3, "tricks": tricks}) == (27 + tricks if tricks >= 3 else -30)
    assert constant({}) == 7


def test_the_function_sees_no_builtins() -> None:
    function = compile_expression("bid", NAMES).function
    assert function.__globals__["__builtins__"] == {}
    allowed = {"__builtins__", "_index", "_floordiv", "_mod", "_at", "abs", "count", "len", "max", "min", "sum", "expression"}
    assert set(function.__globals__) <= allowed


def test_a_value_name_may_shadow_a_function_name() -> None:
    expression = compile_expression("max(max, 2) + len", ("max", "len"))
    assert expression({"max": 5, "len": 1}) == 6
    assert expression.names == {"max", "len"}


def test_names_cannot_collide_with_the_generated_code() -> None:
    names = ("v0", "v1", "env", "_index", "expression", "count")
    expression = compile_expression("v1 - v0 + env * _index + expression + count(count)", names)
    assert expression({"v0": 1, "v1": 10, "env": 2, "_index": 3, "expression": 100, "count": (1, 0, 1)}) == 117


# ---------------------------------------------------------------- refused, with code and column


@pytest.mark.parametrize(
    ("text", "code", "column", "words"),
    [
        ("bid.real", "TR142", 3, "attribute access is not allowed"),
        ("totals . index(3)", "TR142", 7, "attribute access is not allowed"),
        ("__import__('os')", "TR142", 0, "'__'"),
        ("bid + __class__", "TR142", 6, "'__'"),
        ("lambda: 1", "TR142", 0, "lambda is not allowed"),
        ("1 + (lambda x: x)(2)", "TR142", 5, "lambda is not allowed"),
        ("[x for x in totals]", "TR142", 0, "comprehensions are not allowed"),
        ("sum(x for x in totals)", "TR142", 3, "comprehensions are not allowed"),
        ("{x: 1 for x in totals}", "TR142", 0, "comprehensions are not allowed"),
        ("bid ** 2", "TR142", 4, "'**' (power) is not allowed"),
        ("bid / 2", "TR142", 4, "use '//'"),
        ("(bid)/(2)", "TR142", 5, "use '//'"),
        ("'text'", "TR142", 0, "string literals are not allowed"),
        ("bid + b'x'", "TR142", 6, "string literals are not allowed"),
        ("f'{bid}'", "TR142", 0, "f-strings are not allowed"),
        ("(x := 1)", "TR142", 1, "':='"),
        ("max(*totals)", "TR142", 4, "unpacking"),
        ("foo(1)", "TR141", 0, "unknown function 'foo'"),
        ("1 + mx(totals)", "TR141", 4, "did you mean 'max'?"),
        ("bid(2)", "TR142", 0, "bid is a value, not a function"),
        ("max(totals)(1)", "TR142", 0, "only these functions can be called"),
        ("1.5 * bid", "TR142", 0, "non-integer numbers are not allowed"),
        ("2j", "TR142", 0, "non-integer numbers are not allowed"),
        ("None", "TR142", 0, "None is not allowed"),
        ("...", "TR142", 0, "Ellipsis is not allowed"),
        ("[1, 2]", "TR142", 0, "list literals are not allowed"),
        ("(1, 2)", "TR142", 0, "tuples are not allowed"),
        ("{1}", "TR142", 0, "set literals are not allowed"),
        ("{1: 2}", "TR142", 0, "dict literals are not allowed"),
        ("totals[1:2]", "TR142", 7, "slices are not allowed"),
        ("totals[0, 1]", "TR142", 7, "tuples are not allowed"),
        ("totals[0][1]", "TR142", 0, "only a name can be indexed"),
        ("bid is 3", "TR142", 4, "'is' is not allowed"),
        ("bid is not 3", "TR142", 4, "'is' is not allowed"),
        ("bid in totals", "TR142", 4, "'in' is not allowed"),
        ("1 < bid not in totals", "TR142", 8, "'in' is not allowed"),
        ("~bid", "TR142", 0, "'~'"),
        ("bid & 1", "TR142", 4, "'&'"),
        ("bid << 1", "TR142", 4, "'<<'"),
        ("bid | 1", "TR142", 4, "'|'"),
        ("bid ^ 1", "TR142", 4, "'^'"),
        ("bid @ bid", "TR142", 4, "'@'"),
        ("max(totals, key=abs)", "TR142", 12, "keyword arguments are not allowed"),
        ("abs(1, 2)", "TR142", 0, "abs() takes exactly 1 argument (2 given)"),
        ("min()", "TR142", 0, "min() takes at least 1 argument (0 given)"),
        ("sum(totals, 1)", "TR142", 0, "sum() takes exactly 1 argument"),
        ("bid # note", "TR142", 4, "comments"),
        ("await bid", "TR142", 0, "await is not allowed"),
        ("tricks + trickz", "TR141", 9, "unknown name 'trickz'; did you mean 'trick' or 'tricks'?"),
        ("bid + penalyt", "TR141", 6, "unknown name 'penalyt'; did you mean 'penalty'?"),
        ("max + 1", "TR141", 0, "max is a function, not a value"),
        ("bid +* 2", "TR140", 5, "syntax error"),
        ("bid +", "TR140", 5, "syntax error"),
        ("(bid + 1", "TR140", 0, "'(' was never closed"),
        ("bid = 3", "TR140", 4, "syntax error"),
        ("bid; tricks", "TR140", 3, "syntax error"),
        ("if bid: 1", "TR140", 0, "syntax error"),
        ("", "TR140", 0, "empty expression"),
        ("   ", "TR140", 3, "empty expression"),
        ("bid\x00", "TR140", 3, "NUL"),
    ],
)
def test_refused(text: str, code: str, column: int, words: str) -> None:
    error = refused(text)
    assert (error.code, error.column) == (code, column), error.message
    assert words in error.message
    assert str(error) == f"{code} {error.message} (column {column})"


def test_unknown_name_lists_the_names_and_suggests_one() -> None:
    error = refused("10 * bdi", ("bid", "tricks", "penalty"))
    assert error.code == "TR141" and error.column == 5
    assert error.message == "unknown name 'bdi'; did you mean 'bid'? (names here: bid, penalty, tricks)"


def test_unknown_name_without_a_close_match() -> None:
    error = refused("zzz", ("bid", "tricks"))
    assert error.message == "unknown name 'zzz' (names here: bid, tricks)"
    assert refused("bid", ()).message == "unknown name 'bid' (no names can be used here)"


def test_columns_count_characters_not_bytes() -> None:
    error = refused("max(ééé) + bid.x", ("ééé", "bid"))
    assert (error.code, error.column) == ("TR142", 14)
    error = refused("ééé / 2", ("ééé",))
    assert error.column == 4
    assert refused("ééé + trickz", ("ééé", "tricks")).column == 6


def test_columns_count_leading_white_space_and_newlines() -> None:
    assert refused("  bid.x").column == 5
    assert refused("\n\n  bid / 2").column == 8
    assert refused("bid +\n  tricks.x").column == 14
    assert refused("  (bid + ").column == 2


def test_every_refusal_column_is_inside_the_text() -> None:
    for text in ("bid +", "(", ")", "bid )", "   bid +    ", "bid\t\t+"):
        error = refused(text)
        assert 0 <= error.column <= len(text), (text, error.column)


# ---------------------------------------------------------------- limits


def test_ten_thousand_nested_brackets_give_tr143() -> None:
    error = refused("(" * 10_000 + "1" + ")" * 10_000)
    assert error.code == "TR143"


def test_a_very_long_text_gives_tr143() -> None:
    error = refused("1 + " * 100_000 + "1")
    assert (error.code, error.column) == ("TR143", expressions.MAX_LENGTH)
    assert "too long" in error.message


def test_the_longest_text_allowed_compiles() -> None:
    text = "bid + tricks" + " " * (expressions.MAX_LENGTH - len("bid + tricks"))
    assert value(text) == 8
    assert refused(text + " ").code == "TR143"


@pytest.mark.parametrize(
    "text",
    [
        "(" * 101 + "1" + ")" * 101,  # brackets, caught before parsing
        "-" * 500 + "1",  # unary operators
        "not " * 200 + "1",
        "1+" * 300 + "1",  # a left-leaning chain of additions
        "abs(" * 101 + "1" + ")" * 101,
        "totals[" * 101 + "0" + "]" * 101,
    ],
)
def test_deep_nesting_inside_the_length_gives_tr143(text: str) -> None:
    assert len(text) <= expressions.MAX_LENGTH
    error = refused(text)
    assert error.code == "TR143" and "nested too deeply" in error.message
    assert 0 <= error.column <= len(text)


def test_nesting_just_inside_the_limit_compiles() -> None:
    depth = expressions.MAX_DEPTH - 1
    assert value("(" * depth + "bid" + ")" * depth) == 3
    assert value("-" * depth + "1") == (-1) ** depth


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "1" + ")" * 10_000,
        "-" * 100_000 + "1",
        "not " * 100_000 + "1",
        "1+" * 100_000 + "1",
        "abs(" * 10_000 + "1" + ")" * 10_000,
    ],
)
def test_huge_nesting_gives_tr143_not_recursion_error(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(expressions, "MAX_LENGTH", 10**7)  # past the length check, onto the depth checks
    error = refused(text)
    assert error.code == "TR143"


def test_a_list_cannot_be_repeated_into_a_huge_one() -> None:
    for text in ("totals * 99999999999999", "99999999999999 * (totals + totals)", "points * bid",
                 "max(totals, totals) * 99999999999999", "(hearts_broken or totals) * 99999999999999"):  # fmt: skip
        with pytest.raises(ExpressionValueError, match="cannot be evaluated"):
            value(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [("trick // 0", 0), ("trick % 0", 0), ("7 // trick", 7), ("-7 % 3", 2), ("totals[9]", 0), ("totals[-3]", 0),
     ("totals[-1]", 5), ("max(empty)", 0), ("min(empty) + 1", 1), ("trick // (trick - 1)", 0)],
)
def test_every_expression_has_a_value_for_every_value_it_reads(text: str, value: int) -> None:
    """Division and remainder by zero are 0, an index past either end reads 0, max and min of
    nothing are 0: a spec that loads cannot fail on the values it meets in play."""
    names, lists = ["trick", "totals", "empty"], ["totals", "empty"]
    assert compile_expression(text, names, lists)({"trick": 1, "totals": (0, 5), "empty": ()}) == value


@pytest.mark.parametrize("text", ["totals + 1"])
def test_a_failure_in_play_names_the_expression(text: str) -> None:
    with pytest.raises(ExpressionValueError, match=re.escape(f"the expression '{text}' cannot be evaluated")):
        compile_expression(text, ["trick", "totals"])({"trick": 1, "totals": (0, 0)})


# ---------------------------------------------------------------- random arithmetic against a reference


@dataclass(frozen=True)
class Node:
    """A small arithmetic tree: a leaf (an int or a name) or an operator with operands."""

    op: str
    parts: tuple[Any, ...] = ()


LEAF_NAMES = ("a", "b", "c")
BINARY = ("+", "-", "*", "//", "%")
COMPARE = ("<", "<=", "==", "!=", ">", ">=")


def render(node: Node) -> str:
    if node.op == "int":
        return str(node.parts[0])
    if node.op == "name":
        return str(node.parts[0])
    if node.op == "neg":
        return f"-({render(node.parts[0])})"
    if node.op in ("abs", "min", "max"):
        return f"{node.op}({', '.join(render(part) for part in node.parts)})"
    if node.op == "if":
        body, test, orelse = (render(part) for part in node.parts)
        return f"(({body}) if ({test}) else ({orelse}))"
    left, right = node.parts
    return f"({render(left)} {node.op} {render(right)})"


def reference(node: Node, env: Mapping[str, int]) -> int:
    """Evaluates `node` directly, with Python's integer semantics (floor division and modulo)."""
    if node.op == "int":
        return int(node.parts[0])
    if node.op == "name":
        return env[node.parts[0]]
    values = [reference(part, env) for part in node.parts]
    if node.op == "neg":
        return -values[0]
    if node.op == "abs":
        return abs(values[0])
    if node.op == "min":
        return min(values)
    if node.op == "max":
        return max(values)
    if node.op == "if":
        return values[0] if values[1] else values[2]
    left, right = values
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if node.op in ("//", "%"):
        if right == 0:
            raise ZeroDivisionError
        quotient = left // right
        return quotient if node.op == "//" else left - quotient * right
    return int({"<": left < right, "<=": left <= right, "==": left == right,
                "!=": left != right, ">": left > right, ">=": left >= right}[node.op])  # fmt: skip


leaves = st.one_of(
    st.integers(min_value=0, max_value=200).map(lambda n: Node("int", (n,))),
    st.sampled_from(LEAF_NAMES).map(lambda name: Node("name", (name,))),
)


def _extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    return st.one_of(
        st.tuples(st.sampled_from(BINARY + COMPARE), children, children).map(lambda t: Node(t[0], (t[1], t[2]))),
        children.map(lambda child: Node("neg", (child,))),
        children.map(lambda child: Node("abs", (child,))),
        st.tuples(st.sampled_from(("min", "max")), st.lists(children, min_size=2, max_size=3)).map(
            lambda t: Node(t[0], tuple(t[1]))
        ),
        st.tuples(children, children, children).map(lambda t: Node("if", t)),
    )


trees = st.recursive(leaves, _extend, max_leaves=12)
envs = st.fixed_dictionaries({name: st.integers(min_value=-50, max_value=50) for name in LEAF_NAMES})


@given(tree=trees, env=envs)
def test_random_arithmetic_agrees_with_a_reference(tree: Node, env: dict[str, int]) -> None:
    text = render(tree)
    expression = compile_expression(text, LEAF_NAMES)
    try:
        expected = reference(tree, env)
    except ZeroDivisionError:
        with pytest.raises(ExpressionValueError, match="by zero"):
            expression(env)
        return
    assert int(expression(env)) == expected, text
