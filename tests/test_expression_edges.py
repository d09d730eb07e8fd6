"""The expression compiler at its edges: exact values, each refusal's code, words and column, the
"did you mean" suggestions, and which operands of '*' are made numbers first."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from trickrules.rules.expressions import (
    ExpressionError,
    ExpressionValueError,
    compile_expression,
    is_constant,
)

NAMES = ("a", "b", "xs", "ys", "zero")
ENV: dict[str, Any] = {"a": 7, "b": -3, "xs": [1, 2], "ys": [0, 5, 0], "zero": 0}


def value(text: str, env: dict[str, Any] | None = None) -> Any:
    """The value of an expression over NAMES, with ENV (or `env`)."""
    return compile_expression(text, NAMES)(ENV if env is None else env)


def refusal(text: str, names: tuple[str, ...] = NAMES) -> tuple[str, int, str]:
    """(code, column, message) of the ExpressionError compiling `text` raises."""
    with pytest.raises(ExpressionError) as raised:
        compile_expression(text, names)
    return raised.value.code, raised.value.column, raised.value.message


# --- the error itself -------------------------------------------------------------------------


def test_an_expression_error_defaults_to_a_syntax_error_at_column_zero() -> None:
    """Built with a message only, the error is TR140 at column 0 and carries the message."""
    error = ExpressionError("boom")
    assert (error.message, error.column, error.code) == ("boom", 0, "TR140")
    assert error.args == ("boom",)
    assert str(error) == "TR140 boom (column 0)"


def test_an_expression_error_pickles_with_its_fields() -> None:
    """Pickling keeps message, column and code."""
    error = pickle.loads(pickle.dumps(ExpressionError("bad", 4, "TR142")))
    assert (error.message, error.column, error.code, str(error)) == ("bad", 4, "TR142", "TR142 bad (column 4)")


def test_a_compile_error_carries_its_message_as_args() -> None:
    """A refusal's args hold its message, as for any exception."""
    with pytest.raises(ExpressionError) as raised:
        compile_expression("a / 2", NAMES)
    assert raised.value.args == ("'/' is not allowed: values are integers; use '//' to divide, rounding down",)


def test_a_float_is_refused_before_it_is_read() -> None:
    """A float given as a value (not text) is TR142 at column 0."""
    with pytest.raises(ExpressionError) as raised:
        compile_expression(1.5, NAMES)  # type: ignore[arg-type]
    error = raised.value
    assert (error.code, error.column, error.message) == (
        "TR142", 0, "non-integer numbers are not allowed: game values are integers")
    assert error.args == ("non-integer numbers are not allowed: game values are integers",)


def test_other_values_and_a_single_name_are_type_errors() -> None:
    """Neither text nor a number, or names given as one string, is a programming error that says so."""
    with pytest.raises(TypeError) as raised:
        compile_expression(None, NAMES)  # type: ignore[arg-type]
    assert str(raised.value) == "an expression is text or an integer, not NoneType"
    with pytest.raises(TypeError) as raised:
        compile_expression([1], NAMES)  # type: ignore[arg-type]
    assert str(raised.value) == "an expression is text or an integer, not list"
    with pytest.raises(TypeError) as raised:
        compile_expression("a", "a")
    assert str(raised.value) == "names must be an iterable of names, not a single string"


# --- values -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a // 2", 3),
        ("b // 2", -2),
        ("a % 3", 1),
        ("b % 3", 0),
        ("-a", -7),
        ("+b", -3),
        ("not a", False),
        ("not zero", True),
        ("a > b > 0", False),
        ("a > 0 > b", True),
        ("a == 7 != b", True),
        ("a <= 7 and b >= -3 and a < 8 and b > -4", True),
        ("a if b else 0", 7),
        ("a if zero else b", -3),
        ("b and a", 7),
        ("zero and a", 0),
        ("zero or b", -3),
        ("count(ys)", 1),
        ("len(ys)", 3),
        ("sum(xs)", 3),
        ("max(xs)", 2),
        ("min(ys)", 0),
        ("min(a, b)", -3),
        ("max(a, b, 9)", 9),
        ("abs(b)", 3),
        ("xs[1]", 2),
        ("xs[-1]", 2),
        ("xs + ys", [1, 2, 0, 5, 0]),
        ("len(xs + ys)", 5),
        ("2 * a", 14),
        ("a * b", -21),
        ("max(xs) * 2", 4),
        ("xs[0] * 3", 3),
        ("(a + 1) * 2", 16),
        ("True + True", 2),
        ("  a\n+ 1", 8),
    ],
)
def test_values(text: str, expected: Any) -> None:
    """Each operator, comparison and function gives Python's value on integers and lists."""
    result = value(text)
    assert result == expected
    assert type(result) is type(expected)


def test_constants_read_no_names() -> None:
    """An int or bool is a constant expression; a text with a name is not."""
    three = compile_expression(3, NAMES)
    assert (three.text, three.names, three({})) == ("3", frozenset(), 3)
    assert compile_expression(True, NAMES).text == "True"
    assert is_constant(three) and is_constant(5) and not is_constant(compile_expression("a + a", NAMES))
    assert compile_expression("b + a + b", NAMES).names == frozenset({"a", "b"})


# --- '*' never repeats a list -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["xs * 2", "2 * xs", "max(xs, ys) * 2", "(zero or xs) * 2", "(a if zero else xs) * 2", "(xs + ys) * 2"],
)
def test_a_list_times_a_number_cannot_be_evaluated(text: str) -> None:
    """Whatever may be a list is made a number before '*', so a list is refused, not repeated."""
    with pytest.raises(ExpressionValueError) as raised:
        value(text)
    assert str(raised.value) == (
        f"the expression '{text}' cannot be evaluated: 'list' object cannot be interpreted as an integer")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("(a or xs) * 2", 14), ("(a if a else xs) * 2", 14), ("max(a, 1) * 2", 14), ("min(xs) * a", 7)],
)
def test_a_number_that_might_have_been_a_list_multiplies(text: str, expected: int) -> None:
    """The same operands, numbers this time, multiply as numbers."""
    assert value(text) == expected


def test_a_division_by_zero_reads_0() -> None:
    """Division and remainder by a value that is zero read 0: an expression never fails on the
    values it meets."""
    assert (value("a // zero"), value("a % zero"), value("a // zero + 1")) == (0, 0, 1)


# --- did you mean -----------------------------------------------------------------------------


def test_a_suggestion_within_a_tenth_of_the_best_is_offered() -> None:
    """Matches scoring 0.9 and exactly 0.8 are both offered; one at 0.7 is not."""
    assert refusal("abcdefghij", ("abcdefghiz", "abcdefghyz", "abcdefgxyz")) == (
        "TR141", 0,
        "unknown name 'abcdefghij'; did you mean 'abcdefghiz' or 'abcdefghyz'? "
        "(names here: abcdefghiz, abcdefghyz, abcdefgxyz)")


def test_at_most_three_suggestions_joined_with_commas_and_or() -> None:
    """Four equally close names give three suggestions, 'x, y or z'."""
    assert refusal("abcd", ("abce", "abcf", "abcg", "abch")) == (
        "TR141", 0, "unknown name 'abcd'; did you mean 'abch', 'abcg' or 'abcf'? (names here: abce, abcf, abcg, abch)")


def test_three_suggestions_keep_the_middle_one() -> None:
    """Three close names are all listed, the first two joined by a comma."""
    assert refusal("abcd", ("abce", "abcf", "abcg")) == (
        "TR141", 0, "unknown name 'abcd'; did you mean 'abcg', 'abcf' or 'abce'? (names here: abce, abcf, abcg)")


def test_two_suggestions_are_joined_by_or() -> None:
    """Two close names read 'x or y'."""
    assert refusal("abcd", ("abce", "abcf")) == (
        "TR141", 0, "unknown name 'abcd'; did you mean 'abcf' or 'abce'? (names here: abce, abcf)")


def test_an_unknown_name_without_suggestion_or_names() -> None:
    """No close name gives no suggestion; no names at all says so."""
    assert refusal("qqq") == ("TR141", 0, "unknown name 'qqq' (names here: a, b, xs, ys, zero)")
    assert refusal("a", ()) == ("TR141", 0, "unknown name 'a' (no names can be used here)")


def test_an_unknown_function_suggests_a_function() -> None:
    """A misspelt function is matched against the functions."""
    assert refusal("b + maxx(xs)") == (
        "TR141", 4, "unknown function 'maxx'; did you mean 'max'? (functions: abs, count, len, max, min, sum)")


def test_a_function_used_as_a_value() -> None:
    """A function's name alone says to call it."""
    assert refusal("a + max") == (
        "TR141", 4, "max is a function, not a value: call it, as in max(...) (names here: a, b, xs, ys, zero)")


# --- refusals: code, column, words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "column", "message"),
    [
        ("a.b", "TR142", 1, "attribute access is not allowed"),
        ("a . real", "TR142", 2, "attribute access is not allowed"),
        ("(a) .real", "TR142", 4, "attribute access is not allowed"),
        ("a.real(1)", "TR142", 1, "attribute access is not allowed"),
        ("a / 2", "TR142", 2, "'/' is not allowed: values are integers; use '//' to divide, rounding down"),
        ("(a)/(2)", "TR142", 3, "'/' is not allowed: values are integers; use '//' to divide, rounding down"),
        ("a ** 2", "TR142", 2, "'**' (power) is not allowed; write the product, as in x * x"),
        ("a << 2", "TR142", 2, "the operator '<<' is not allowed"),
        ("a >> 2", "TR142", 2, "the operator '>>' is not allowed"),
        ("a | 2", "TR142", 2, "the operator '|' is not allowed"),
        ("a & 2", "TR142", 2, "the operator '&' is not allowed"),
        ("a ^ 2", "TR142", 2, "the operator '^' is not allowed"),
        ("a @ 2", "TR142", 2, "the operator '@' is not allowed"),
        ("a is 2", "TR142", 2, "'is' is not allowed; compare values with '=='"),
        ("a is not 2", "TR142", 2, "'is' is not allowed; compare values with '=='"),
        ("a == 1 in xs", "TR142", 7, "'in' is not allowed"),
        ("a not in xs", "TR142", 2, "'in' is not allowed"),
        ("~a", "TR142", 0, "the operator '~' is not allowed"),
        ("a(1)", "TR142", 0, "a is a value, not a function; the functions are abs, count, len, max, min, sum"),
        ("b + max()", "TR142", 4, "max() takes at least 1 argument (0 given)"),
        ("abs(1, 2)", "TR142", 0, "abs() takes exactly 1 argument (2 given)"),
        ("len()", "TR142", 0, "len() takes exactly 1 argument (0 given)"),
        ("max(a, key=b)", "TR142", 7, "keyword arguments are not allowed"),
        ("xs[0:1]", "TR142", 3, "slices are not allowed"),
        ("(xs)[0] + xs[1](2)", "TR142", 10, "only these functions can be called: abs, count, len, max, min, sum"),
        ("(a + b)[0]", "TR142", 0, "only a name can be indexed, as in totals[0]"),
        ("1.5", "TR142", 0, "non-integer numbers are not allowed: game values are integers"),
        ("a + 2j", "TR142", 4, "non-integer numbers are not allowed: game values are integers"),
        ("a + 'x'", "TR142", 4, "string literals are not allowed"),
        ("b'x'", "TR142", 0, "string literals are not allowed"),
        ("None", "TR142", 0, "None is not allowed"),
        ("...", "TR142", 0, "Ellipsis is not allowed"),
        ("__a", "TR142", 0, "names starting with '__' are not allowed: __a"),
        ("__import__(1)", "TR142", 0, "names starting with '__' are not allowed: __import__"),
        ("lambda: 1", "TR142", 0, "lambda is not allowed"),
        ("[1]", "TR142", 0, "list literals are not allowed"),
        ("(1, 2)", "TR142", 0, "tuples are not allowed"),
        ("{1}", "TR142", 0, "set literals are not allowed"),
        ("{1: 2}", "TR142", 0, "dict literals are not allowed"),
        ("f'x'", "TR142", 0, "f-strings are not allowed"),
        ("[x for x in xs]", "TR142", 0, "comprehensions are not allowed"),
        ("(x := 1)", "TR142", 1, "assignment (':=') is not allowed"),
        ("max(*xs)", "TR142", 4, "unpacking ('*') is not allowed"),
        ("a # note", "TR142", 2, "comments ('#') are not allowed"),
        ("a\x00", "TR140", 1, "NUL character in expression"),
        ("a +", "TR140", 3, "syntax error: invalid syntax"),
        ("  a +", "TR140", 5, "syntax error: invalid syntax"),
        ("a + )", "TR140", 4, "syntax error: unmatched ')'"),
        ("   ", "TR140", 3, "empty expression"),
        ("", "TR140", 0, "empty expression"),
    ],
)
def test_refusals(text: str, code: str, column: int, message: str) -> None:
    """Each refused construct has its code, its words and the column where it is."""
    assert refusal(text) == (code, column, message)


def test_columns_count_characters_and_leading_white_space() -> None:
    """Columns are characters of the text as written, after leading spaces and before newlines."""
    assert refusal("  a / 2") == ("TR142", 4, "'/' is not allowed: values are integers; use '//' to divide, rounding down")
    assert refusal("\n a\n / 2")[:2] == ("TR142", 5)
    accented = ("\u00e9\u00e9",)
    assert refusal("\u00e9\u00e9 + 1.5", accented)[:2] == ("TR142", 5)
    assert refusal("\u00e9\u00e9 / 2", accented)[:2] == ("TR142", 3)
    assert refusal("\u00e9\u00e9.x", accented)[:2] == ("TR142", 2)
    assert refusal("\u00e9\u00e9 + \u00e9", accented)[:2] == ("TR141", 5)


def test_limits_of_size_and_nesting() -> None:
    """Too long and too deep give TR143 at the place the limit is passed."""
    assert refusal("a" * 1001) == ("TR143", 1000, "expression is too long: 1001 characters, at most 1000")
    assert refusal("(" * 101 + "1" + ")" * 101) == ("TR143", 100, "expression is nested too deeply: more than 100 levels")
    assert value("(" * 100 + "1" + ")" * 100) == 1
    assert refusal("-" * 101 + "1") == ("TR143", 100, "expression is nested too deeply: more than 100 levels")
    assert value("-" * 99 + "1") == -1


# ---------------------------------------------------------------- refusals, word for word

_NUMBER = "a number is needed (use sum(...), len(...), max(...) or an index)"
_COMPARED = "a list is compared with a number, or ordered: compare numbers (use sum(...), len(...), max(...) or an index)"


@pytest.mark.parametrize(("text", "code", "column", "message"), [
    ("not cards", "TR144", 4, f"a list cannot stand in 'not': {_NUMBER}"),
    ("-cards", "TR144", 1, f"a list cannot stand in '-': {_NUMBER}"),
    ("+cards", "TR144", 1, f"a list cannot stand in '+': {_NUMBER}"),
    ("cards + 1", "TR144", 0, f"a list cannot stand in '+': {_NUMBER}"),
    ("1 + cards", "TR144", 4, f"a list cannot stand in '+': {_NUMBER}"),
    ("cards * 2", "TR144", 0, f"a list cannot stand in '*': {_NUMBER}"),
    ("abs(cards)", "TR144", 4, f"a list cannot stand in abs(): {_NUMBER}"),
    ("min(cards, 2)", "TR144", 4, f"a list cannot stand in min() of several values: {_NUMBER}"),
    ("max(1, cards)", "TR144", 7, f"a list cannot stand in max() of several values: {_NUMBER}"),
    ("sum(n)", "TR144", 4, "sum() of one value needs a list, and this is a number"),
    ("len(n)", "TR144", 4, "len() of one value needs a list, and this is a number"),
    ("cards + cards", "TR144", 0, "the value is a list; a number or a condition is needed here (use sum(...), len(...), max(...) or an index)"),
    ("cards and n", "TR144", 0, f"a list cannot stand in 'and': {_NUMBER}"),
    ("n or cards", "TR144", 5, f"a list cannot stand in 'or': {_NUMBER}"),
    ("n if cards else m", "TR144", 5, f"a list cannot stand in a condition: {_NUMBER}"),
    ("cards if n else m", "TR144", 0, "one branch of 'if ... else' is a list and the other a number"),
    ("n < cards", "TR144", 4, "a list is compared with a number, or ordered: compare numbers (use sum(...), len(...), max(...) or an index)"),
    ("  cards - 1", "TR144", 2, f"a list cannot stand in '-': {_NUMBER}"),
    ("\n cards - 1", "TR144", 2, f"a list cannot stand in '-': {_NUMBER}"),
    ("(n +\n cards)", "TR144", 6, f"a list cannot stand in '+': {_NUMBER}"),
    ("  not cards", "TR144", 6, f"a list cannot stand in 'not': {_NUMBER}"),
    ("n[0]", "TR144", 0, "an index needs a list, and this is a number"),
    ("cards[cards]", "TR144", 6, f"a list cannot stand in an index: {_NUMBER}"),
    ("cards == n", "TR144", 0, _COMPARED),
    ("n == cards", "TR144", 5, _COMPARED),
    ("n < m < cards", "TR144", 8, _COMPARED),
    ("cards < n", "TR144", 0, _COMPARED),
    ("n == m == cards", "TR144", 10, _COMPARED),
    ("cards == cards == n", "TR144", 9, _COMPARED),
    ("1 < n == cards", "TR144", 9, _COMPARED),
    ("n  <  cards", "TR144", 6, _COMPARED),
    ("x", "TR141", 0, "unknown name 'x' (names here: cards, m, n)"),
    ("nn", "TR141", 0, "unknown name 'nn'; did you mean 'n'? (names here: cards, m, n)"),
    ("card", "TR141", 0, "unknown name 'card'; did you mean 'cards'? (names here: cards, m, n)"),
    ("(" * 101 + "1" + ")" * 101, "TR143", 100, "expression is nested too deeply: more than 100 levels"),
    ("(" * 99 + "(1) + ((1))" + ")" * 99, "TR143", 106, "expression is nested too deeply: more than 100 levels"),  # a close, then two opens
    ("n + (1", "TR140", 4, "syntax error: '(' was never closed"),
    ("n + 1)", "TR140", 5, "syntax error: unmatched ')'"),
    (")n(", "TR140", 0, "syntax error: unmatched ')'"),
    ("[n]", "TR142", 0, "list literals are not allowed"),
    ("n +", "TR140", 3, "syntax error: invalid syntax"),
])
def test_each_refusal_says_what_is_wrong_and_where(text: str, code: str, column: int, message: str) -> None:
    with pytest.raises(ExpressionError) as raised:
        compile_expression(text, ["cards", "n", "m"], lists=["cards"])
    assert (raised.value.code, raised.value.column, raised.value.message) == (code, column, message)


def test_an_expression_too_deep_for_the_parser_is_refused_as_too_deep() -> None:
    with pytest.raises(ExpressionError) as raised:
        compile_expression("-" * 5000 + "1", [], max_length=10_000)
    assert (raised.value.code, raised.value.column, raised.value.message) == ("TR143", 0, "expression is nested too deeply to read: at most 100 levels")


def test_groups_nested_side_by_side_count_their_own_depth() -> None:
    deep = "(" * 100 + "1" + ")" * 100
    assert compile_expression(f"{deep} + {deep}", [])({}) == 2


def test_an_unknown_name_suggests_at_most_three_close_names_best_first() -> None:
    with pytest.raises(ExpressionError) as raised:
        compile_expression("m", ["cards", "m1", "m2", "m3", "m4"])
    assert raised.value.message == "unknown name 'm'; did you mean 'm4', 'm3' or 'm2'? (names here: cards, m1, m2, m3, m4)"


@pytest.mark.parametrize(("text", "values", "expected"), [
    ("n % m", {"n": 7, "m": 3}, 1), ("n % m", {"n": -7, "m": 3}, 2), ("n % m", {"n": 7, "m": 0}, 0),
    ("n // m", {"n": 7, "m": 3}, 2), ("n // m", {"n": -7, "m": 3}, -3), ("n // m", {"n": 7, "m": 0}, 0),
    ("sum(cards + cards)", {"cards": [3, 4]}, 14), ("min(cards)", {"cards": [3, 4]}, 3), ("-n", {"n": 7}, -7),
    ("cards == cards", {"cards": [3, 4]}, True), ("cards != cards", {"cards": [3, 4]}, False), ("n < m == 2", {"n": 1, "m": 2}, True),
])
def test_division_by_a_name_is_floored_and_zero_by_zero_and_lists_join(text: str, values: dict[str, Any], expected: int) -> None:
    assert compile_expression(text, ["cards", "n", "m"], lists=["cards"])({"cards": [], "n": 0, "m": 0, **values}) == expected
