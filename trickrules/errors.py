"""The errors trickrules raises, and the stable problem codes of the spec loader.

Every error derives from :class:`TrickrulesError`. A spec that cannot be used raises
:class:`SpecError`, which carries every :class:`Problem` found, best first::

    >>> problem = Problem("TR202", "missing required key 'title'", "x.yaml", 1, 1, "$")
    >>> str(problem)
    "x.yaml:1:1: TR202 missing required key 'title' (at $)"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = [
    "CODES",
    "EnvSetupError",
    "GameNotOverError",
    "IllegalActionError",
    "MissingExtraError",
    "OutOfRangeError",
    "Problem",
    "SpecError",
    "TrickrulesError",
    "UnknownAgentError",
]


class TrickrulesError(Exception):
    """Base of every error the library raises."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a spec, located in the file that says it.

    Lines and columns are 1-based; `path` is a JSON path such as ``$.deck.suits[2]``.
    """

    code: str
    message: str
    file: str
    line: int
    column: int
    path: str
    severity: str = "error"
    """``error`` (the spec cannot be used) or ``warning`` (a rule that can never apply)."""

    @property
    def is_warning(self) -> bool:
        """Whether the problem is a warning: the spec works, but a rule in it never can."""
        return self.severity == "warning"

    def __str__(self) -> str:
        """Return the problem as ``file:line:col: CODE message (at $.path)``; a warning says so
        after its code (``CODE warning: message``)."""
        kind = "warning: " if self.is_warning else ""
        return f"{self.file}:{self.line}:{self.column}: {self.code} {kind}{self.message} (at {self.path})"


def _problem_order(problem: Problem) -> tuple[str, int, int]:
    """Return the sort key of a problem: where it is."""
    return (problem.file, problem.line, problem.column)


class SpecError(TrickrulesError):
    """A spec (or an override given at load time) is invalid; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        """Keep the problems, sorted by file, line and column (stable for equal places)."""
        if not problems:
            raise ValueError("SpecError needs at least one problem")
        self.problems: tuple[Problem, ...] = tuple(sorted(problems, key=_problem_order))
        super().__init__(str(self))

    @property
    def first(self) -> Problem:
        """The first problem, the one to read first."""
        return self.problems[0]

    @property
    def code(self) -> str:
        """The code of the first problem."""
        return self.first.code

    @property
    def message(self) -> str:
        """The message of the first problem."""
        return self.first.message

    @property
    def file(self) -> str:
        """The file of the first problem."""
        return self.first.file

    @property
    def line(self) -> int:
        """The line of the first problem."""
        return self.first.line

    @property
    def column(self) -> int:
        """The column of the first problem."""
        return self.first.column

    @property
    def path(self) -> str:
        """The JSON path of the first problem."""
        return self.first.path

    def __str__(self) -> str:
        """Return one line per problem."""
        return "\n".join(str(problem) for problem in self.problems)

    def __reduce__(self) -> tuple[type, tuple[tuple[Problem, ...]]]:
        """Pickle by the problems, since __init__ does not take the message."""
        return (type(self), (self.problems,))


class IllegalActionError(TrickrulesError, ValueError):
    """An action was applied that is not legal in the state; says why in one or two lines.

    The action, the legal actions (and their text forms, when the state gave them), the
    reason and the full state's text (`state_text`) stay available as attributes.
    """

    MAX_SHOWN = 8
    """How many legal actions the message names."""

    def __init__(
        self,
        action: object,
        legal_actions: Sequence[int],
        state_text: str,
        reason: str = "",
        legal_names: Sequence[str] = (),
    ) -> None:
        """Keep the action, the legal actions, the state's text, the reason and the legal names."""
        self.action = action
        self.legal_actions: tuple[int, ...] = tuple(legal_actions)
        self.state_text = state_text
        self.reason = reason
        self.legal_names: tuple[str, ...] = tuple(legal_names)
        super().__init__(self._text())

    def _text(self) -> str:
        """Return the message: what was refused and why, then the legal actions (a few named)."""
        why = f": {self.reason}" if self.reason else ""
        first = f"illegal action {self.action!r}{why}"
        legal = self.legal_actions
        if not legal:
            return f"{first}\nno action is legal now"
        if len(self.legal_names) == len(legal):
            shown = [f"{name} ({action})" for action, name in zip(legal, self.legal_names)]
        else:
            shown = [str(action) for action in legal]
        more = len(shown) - self.MAX_SHOWN
        listed = ", ".join(shown[: self.MAX_SHOWN]) + (f", and {more} more" if more > 0 else "")
        count = f"{len(legal)} legal action{'s' if len(legal) != 1 else ''}"
        return f"{first}\n{count}: [{listed}]"

    def __reduce__(self) -> tuple[type, tuple[object, tuple[int, ...], str, str, tuple[str, ...]]]:
        """Pickle by the constructor arguments."""
        return (type(self), (self.action, self.legal_actions, self.state_text, self.reason, self.legal_names))


class OutOfRangeError(TrickrulesError, ValueError):
    """A player or action number that the game does not have (e.g. seat 4 of 4, action -1)."""


class GameNotOverError(TrickrulesError):
    """A result asked for that only a finished game has (e.g. `State.winners()` mid-game)."""


class EnvSetupError(TrickrulesError, ValueError):
    """A learning environment asked for with arguments it cannot take: an unknown reward
    schedule or agent, players or options for a game already compiled, a seat out of range."""


class UnknownAgentError(EnvSetupError, KeyError):
    """An agent name an environment does not have (its agents are ``player_0`` ...); a
    `KeyError` too, as a dict of agents would raise."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class MissingExtraError(TrickrulesError, ImportError):
    """A feature that needs an optional extra that is not installed (e.g. ``learn``: PettingZoo,
    Gymnasium and NumPy for `trickrules.env`); the message names the install command."""


CODES: dict[str, str] = {
    # TR1xx: reading the file and its YAML.
    "TR101": "file not found",
    "TR102": "not a regular file",
    "TR103": "file too large",
    "TR104": "not UTF-8 text",
    "TR105": "YAML syntax error",
    "TR106": "unsupported YAML tag",
    "TR107": "document too large or too deeply nested",
    "TR108": "duplicate mapping key",
    "TR109": "mapping key is not a string or integer",
    "TR110": "empty file or top level not a mapping",
    "TR111": "several YAML documents in one file",
    # TR14x: expressions.
    "TR140": "expression syntax error",
    "TR141": "unknown name in an expression",
    "TR142": "construct not allowed in an expression",
    "TR143": "expression too long or too deeply nested",
    "TR144": "a list where a number is needed",
    # TR2xx: the shape of the spec (JSON Schema).
    "TR201": "unknown key",
    "TR202": "missing required key",
    "TR203": "wrong type",
    "TR204": "invalid value",
    # TR3xx: meaning across the spec.
    "TR301": "undefined suit",
    "TR302": "undefined attribute",
    "TR303": "undefined section",
    "TR304": "undefined option",
    "TR305": "deck too small",
    "TR306": "duplicate card id",
    "TR307": "option value of the wrong type",
    "TR308": "undefined token kind",
    "TR309": "undefined measure",
    "TR310": "player count not allowed",
    "TR311": "duplicate name",
    "TR312": "tableau required",
    "TR313": "option used with the wrong type",
    "TR314": "hand size missing for an allowed player count",
    "TR315": "undefined card",
    "TR320": "round phases out of order",
    "TR321": "seat or direction that does not exist",
    "TR322": "more cards passed than held",
    "TR323": "team rule without teams",
    "TR324": "teams that do not cover the seats",
    "TR325": "undefined contract",
    # TR33x: values outside what the spec defines, and limits.
    "TR330": "rank the deck does not have",
    "TR331": "value outside what the spec allows",
    "TR332": "over a limit",
    # TR34x: the set-aside cards a declarer takes (`take`).
    "TR340": "take without a declarer",
    "TR341": "take with no card set aside",
    "TR342": "set-aside cards that do not split into the groups",
    "TR343": "a declare phase bidding by precedence with otherwise",
    # TR35x: teams formed by the deal (`teams: {holders_of: ...}`) and the winner's side.
    "TR350": "undefined partner card",
    "TR351": "cards passed with teams by the deal",
    "TR352": "rule that needs fixed teams",
    "TR353": "winner_is_partner without teams",
    "TR354": "winner_is_partner inside not, all or any",
    "TR355": "partner card named twice",
    # TR36x: measures that read cards (dealt, held or won; runs; a share off per card).
    "TR360": "measure key that reads no cards",
    "TR361": "counting without a run",
    "TR362": "share per card without a sum",
    "TR363": "team measure without teams",
    "TR364": "card named twice in a run",
    "TR365": "measure condition that reads the trick",
    # TR366-TR367: calling a partner (`call`); TR368-TR369: named sub-expressions (`define`).
    "TR366": "call without a declarer",
    "TR367": "undefined or repeated called card",
    "TR368": "definition with a taken name",
    "TR369": "definition that reads itself",
    # TR370: showing melds (`show_melds`).
    "TR370": "melds shown out of place or of no meld",
    # TR371: the declarer names the contract (`declare: {bidding: declarer}`).
    "TR371": "contract named by a declarer no bidding found",
    # TR372: a meld's pattern (`{meld: ...}`).
    "TR372": "meld without one pattern",
    # TR373: a deal in two stages (`deal.first_stage`, `complete_deal`).
    "TR373": "deal in two stages out of shape",
    # TR374: special cards (`follow: [{exempt: ...}]`, `kept_cards`).
    "TR374": "special card named by more than the card",
    # TR375: a comparison of declarations (`meld: {best: [...]}`).
    "TR375": "best compares meld measures that count a pattern",
    # TR376: bidding in duels (`bid: {speaking: duels}`).
    "TR376": "duels without bidding by precedence",
    # TR4xx: overlays (`extends`).
    "TR401": "extends cycle",
    "TR402": "extends parent missing",
    "TR403": "extends outside the spec's folder",
    # TR5xx: warnings, rules that can never apply (`validate` prints them; --strict fails).
    "TR501": "reward that can never be given",
    "TR502": "ranking step that can never decide a trick",
    "TR503": "card face that can never count",
    "TR504": "option that nothing uses",
    "TR505": "measure that no rule reads",
    "TR506": "tableau section that no card can reach",
    "TR507": "card turned up from a deck dealt out",
}

WARNINGS = frozenset(code for code in CODES if code.startswith("TR5"))
"""The codes of warnings: the spec can be played, but a rule in it never applies."""


class DealError(TrickrulesError, ValueError):
    """A given deal that cannot be played: unknown or repeated cards, wrong hand sizes, an
    outcome the spec does not offer."""
