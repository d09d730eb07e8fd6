"""Spec options: typed parameters with defaults, overridden from the API or `--set`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OptionDef:
    """One declared option of a spec."""

    name: str
    type: str  # integer | boolean | choice | suits
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    description: str = ""


class OptionValueError(ValueError):
    """An option value that does not fit the option's type."""


def option_defs(data: Mapping[str, Any]) -> dict[str, OptionDef]:
    """The option definitions of a checked spec's data, by name."""
    defs = {}
    for name, body in (data.get("options") or {}).items():
        defs[name] = OptionDef(
            name=name,
            type=body["type"],
            default=body["default"],
            minimum=body.get("min"),
            maximum=body.get("max"),
            choices=tuple(body.get("choices", ())),
            description=body.get("description", ""),
        )
    return defs


def parse_assignment(text: str) -> tuple[str, str]:
    """Split a ``name=value`` text from the command line."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise OptionValueError(f"expected name=value, got {text!r}")
    return name.strip(), value.strip()


def coerce(option: OptionDef, value: Any, suits: Sequence[str]) -> Any:
    """Turn `value` (a Python value, or text from the command line) into the option's type."""
    coerce_fn = _COERCE[option.type]
    result = coerce_fn(option, value, suits)
    return result


def _integer(option: OptionDef, value: Any, suits: Sequence[str]) -> int:
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise OptionValueError(f"option '{option.name}' needs an integer, got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionValueError(f"option '{option.name}' needs an integer, got {value!r}")
    if option.minimum is not None and value < option.minimum:
        raise OptionValueError(f"option '{option.name}' must be at least {option.minimum}, got {value}")
    if option.maximum is not None and value > option.maximum:
        raise OptionValueError(f"option '{option.name}' must be at most {option.maximum}, got {value}")
    return value


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _boolean(option: OptionDef, value: Any, suits: Sequence[str]) -> bool:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE | _FALSE:
            return word in _TRUE
    if isinstance(value, bool):
        return value
    raise OptionValueError(f"option '{option.name}' needs true or false, got {value!r}")


def _choice(option: OptionDef, value: Any, suits: Sequence[str]) -> str:
    if isinstance(value, str) and value.strip() in option.choices:
        return value.strip()
    choices = ", ".join(option.choices)
    raise OptionValueError(f"option '{option.name}' must be one of {choices}, got {value!r}")


def _suits(option: OptionDef, value: Any, suits: Sequence[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if value is None:
        value = []
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise OptionValueError(f"option '{option.name}' needs a list of suits, got {value!r}")
    unknown = [v for v in value if v not in suits]
    if unknown:
        known = ", ".join(suits)
        raise OptionValueError(f"option '{option.name}': unknown suit {unknown[0]!r} (suits: {known})")
    if len(set(value)) != len(value):
        raise OptionValueError(f"option '{option.name}' names a suit twice: {value!r}")
    return tuple(value)


_COERCE = {"integer": _integer, "boolean": _boolean, "choice": _choice, "suits": _suits}
