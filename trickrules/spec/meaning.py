"""The checks of meaning: what a spec that fits the schema may still get wrong.

Undefined suits, attributes, options, tokens and measures; option references of the wrong
type; duplicate names and card ids; a deck too small for every hand; a tableau that is
needed but missing. They run once the schema passes, so they can trust the shape of the data.
"""

from __future__ import annotations

import keyword
from typing import Any, Callable, Iterator

from trickrules.errors import Problem
from trickrules.rules import contexts
from trickrules.spec.card_ids import check_card_ids, rank_count as _rank_count
from trickrules.spec.names import did_you_mean
from trickrules.spec.source import SpecSource, json_path

NodePath = tuple[str | int, ...]
BUILTIN_MEASURES = {"tricks": {"count": "tricks"}, "cards": {"count": "cards"}}


def is_integer(checker: object, instance: object) -> bool:
    """YAML tells 1 from 1.0, so unlike JSON Schema a float is never an integer."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def subject(path: NodePath) -> str:
    """Name the value at a path in a message: its key, or its index in a list."""
    if not path:
        return "the spec"
    last = path[-1]
    if isinstance(last, int):
        return f"item {last} of {subject(path[:-1])}"
    return f"'{last}'"


def kind_of(value: object) -> str:
    """Return the plain-English type of a value, with the value when short."""
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a mapping"}
    name = names.get(type(value), type(value).__name__)
    shown = repr(value)
    return f"{name} ({shown})" if isinstance(value, (bool, int, float, str)) and len(shown) <= 30 else name

def _walk_condition(condition: Any, path: NodePath) -> Iterator[tuple[dict[str, Any], NodePath]]:
    """Yield a condition and every condition nested in it (not, all, any, winner)."""
    if not isinstance(condition, dict):
        return
    yield condition, path
    for key in ("not", "winner"):
        yield from _walk_condition(condition.get(key), path + (key,))
    for key in ("all", "any"):
        for index, part in enumerate(condition.get(key) or ()):
            yield from _walk_condition(part, path + (key, index))


def _as_list(value: Any) -> list[Any]:
    """Return a value as a list (a single value becomes a one-item list)."""
    return value if isinstance(value, list) else [value]


def _option_name(value: Any) -> str | None:
    """Return the option an {option: NAME} reference names, or None for other values."""
    if isinstance(value, dict) and set(value) == {"option"} and isinstance(value["option"], str):
        return value["option"]
    return None


def _check_option_cases(spec: Meaning, node: Any, path: NodePath) -> None:
    """Every {option: NAME, cases: {...}} names a declared choice option and covers its values."""
    if isinstance(node, dict):
        if set(node) == {"option"} and isinstance(node["option"], str) and node["option"] not in spec.options:
            name = node["option"]
            declared = ", ".join(sorted(spec.options)) or "none"
            spec.add("TR304", f"undefined option '{name}'{did_you_mean(name, spec.options)} (options has {declared})", path + ("option",))
        if set(node) == {"option", "cases"} and isinstance(node["option"], str):
            name, cases = node["option"], node["cases"]
            option = spec.options.get(name)
            if option is None:
                declared = ", ".join(sorted(spec.options)) or "none"
                hint = did_you_mean(name, spec.options)
                spec.add("TR304", f"undefined option '{name}'{hint} (options has {declared})", path + ("option",))
            elif option["type"] != "choice":
                spec.add("TR313", f"option '{name}' is of type {option['type']}; cases need a choice option", path + ("option",))
            else:
                missing = [str(v) for v in option.get("choices", ()) if str(v) not in map(str, cases)]
                if missing:
                    spec.add("TR313", f"cases of option '{name}' miss {', '.join(missing)}", path + ("cases",))
        for key, value in node.items():
            _check_option_cases(spec, value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _check_option_cases(spec, value, path + (index,))


class Meaning:
    """The checks of meaning, run on data that already fits the schema."""

    def __init__(self, source: SpecSource) -> None:
        """Gather the names the spec declares."""
        self.source = source
        self.data = source.data
        self.found: list[Problem] = []
        deck = self.data["deck"]
        self.suits: list[str] = deck["suits"]
        self.attributes = set(deck.get("attributes", {}))
        self.options: dict[str, Any] = self.data.get("options", {})
        self.tokens: dict[str, Any] = self.data.get("tokens", {})
        self.measures = set(BUILTIN_MEASURES) | set(self.data["scoring"].get("measures", {}))

    def problems(self) -> list[Problem]:
        """Run every check; return the problems found."""
        for check in _CHECKS:
            check(self)
        return self.found

    def add(self, code: str, message: str, path: NodePath) -> None:
        """Record a problem at the node of a path."""
        file, line, column = self.source.locate(path)
        self.found.append(Problem(code, message, file, line, column, json_path(path)))

    def suit(self, name: Any, path: NodePath) -> None:
        """Report a suit name that deck.suits does not declare."""
        if name not in self.suits:
            hint = did_you_mean(name, self.suits)
            self.add("TR301", f"undefined suit '{name}'{hint} (deck.suits has {', '.join(self.suits)})", path)

    def attribute(self, name: Any, path: NodePath) -> None:
        """Report an attribute name that deck.attributes does not declare."""
        if name not in self.attributes:
            declared = ", ".join(sorted(self.attributes)) or "none"
            hint = did_you_mean(name, sorted(self.attributes))
            self.add("TR302", f"undefined attribute '{name}'{hint} (deck.attributes has {declared})", path)

    def token(self, name: Any, path: NodePath) -> None:
        """Report a token kind that tokens does not declare."""
        if name not in self.tokens:
            declared = ", ".join(sorted(self.tokens)) or "none"
            hint = did_you_mean(name, sorted(self.tokens))
            self.add("TR308", f"undefined token kind '{name}'{hint} (tokens has {declared})", path)

    def measure(self, name: Any, path: NodePath) -> None:
        """Report a measure that is neither built in nor declared."""
        if name not in self.measures:
            hint = did_you_mean(name, sorted(self.measures))
            self.add("TR309", f"undefined measure '{name}'{hint} (known: {', '.join(sorted(self.measures))})", path)

    def player_counts(self) -> list[int]:
        """Return the allowed player counts."""
        return sorted(self.data["players"])

    def conditions(self) -> Iterator[tuple[dict[str, Any], NodePath]]:
        """Yield every card condition (rewards, ranking, follow, restrictions, counters, measures), nested ones included."""
        for index, reward in enumerate(self.data.get("rewards", ())):
            yield from _walk_condition(reward.get("when"), ("rewards", index, "when"))
        for index, step in enumerate(self.data["ranking"]):
            if isinstance(step, dict):
                yield from _walk_condition(step.get("prefer"), ("ranking", index, "prefer"))
                for number, case in enumerate(step.get("order") or ()):
                    if isinstance(case, dict):
                        yield from _walk_condition(case.get("when"), ("ranking", index, "order", number, "when"))
        for index, rule in enumerate(self.data.get("follow") or ()):  # play_if_able, exempt: a condition
            for key in ("play_if_able", "exempt"):
                yield from _walk_condition(rule.get(key) if isinstance(rule, dict) else None, ("follow", index, key))
        kept = self.data.get("kept_cards") or {}
        for key in ("cards", "exchange"):
            yield from _walk_condition(kept.get(key), ("kept_cards", key))
        for index, rule in enumerate(self.data.get("restrictions") or ()):
            for key in ("allow", "forbid"):
                yield from _walk_condition(rule.get(key), ("restrictions", index, key))
        for name, counter in (self.data.get("counters") or {}).items():
            on_play = counter.get("on_play") or {}
            yield from _walk_condition(on_play.get("card"), ("counters", name, "on_play", "card"))
        for name, measure in (self.data["scoring"].get("measures") or {}).items():
            for key in ("count", "run"):  # a count or run of the cards matching a condition
                yield from _walk_condition(measure.get(key), ("scoring", "measures", name, key))


def _check_names(spec: Meaning) -> None:
    """Suits, section names and reward names are each unique; built-in measures stay."""
    _unique_names(spec, spec.suits, ("deck", "suits"), "suit")
    sections = spec.data.get("tableau", {}).get("sections", [])
    _unique_names(spec, [section["name"] for section in sections], ("tableau", "sections"), "section", "name")
    rewards = [reward["name"] for reward in spec.data.get("rewards", [])]
    _unique_names(spec, rewards, ("rewards",), "reward name", "name")
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if name in BUILTIN_MEASURES and measure != BUILTIN_MEASURES[name]:
            message = f"duplicate name: '{name}' is a built-in measure and may not be redeclared"
            spec.add("TR311", message, ("scoring", "measures", name))


def _unique_names(spec: Meaning, names: list[str], path: NodePath, what: str, key: str | None = None) -> None:
    """Report each repeated name at its repeat."""
    for index, name in enumerate(names):
        if name in names[:index]:
            where = path + (index, key) if key else path + (index,)
            spec.add("TR311", f"duplicate {what} '{name}'", where)


def _check_options(spec: Meaning) -> None:
    """Every option's default fits its type, within its min and max."""
    for name, option in spec.options.items():
        path = ("options", name)
        low, high = option.get("min"), option.get("max")
        if low is not None and high is not None and low > high:
            spec.add("TR204", f"option '{name}': min {low} is greater than max {high}", path + ("min",))
        _OPTION_DEFAULTS[option["type"]](spec, option, path + ("default",))


def _integer_default(spec: Meaning, option: dict[str, Any], path: NodePath) -> None:
    """An integer option's default is an integer between min and max."""
    value = option["default"]
    if not is_integer(None, value):
        spec.add("TR307", f"default should be an integer, not {kind_of(value)}", path)
    elif not option.get("min", value) <= value <= option.get("max", value):
        low, high = option.get("min", "..."), option.get("max", "...")
        spec.add("TR307", f"default {value} is outside the range {low} to {high}", path)


def _boolean_default(spec: Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A boolean option's default is true or false."""
    if not isinstance(option["default"], bool):
        spec.add("TR307", f"default should be true or false, not {kind_of(option['default'])}", path)


def _choice_default(spec: Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A choice option's default is one of its choices."""
    if option["default"] not in option.get("choices", []):
        spec.add("TR307", f"default {option['default']!r} is not one of the choices", path)


def _suits_default(spec: Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A suits option's default is a list of unique declared suits."""
    value = option["default"]
    if not isinstance(value, list) or not all(isinstance(suit, str) for suit in value):
        spec.add("TR307", f"default should be a list of suit names, not {kind_of(value)}", path)
        return
    for index, suit in enumerate(value):
        if suit in value[:index]:
            spec.add("TR307", f"suit '{suit}' appears more than once in the default", path + (index,))
        spec.suit(suit, path + (index,))


_OPTION_DEFAULTS: dict[str, Callable[[Meaning, dict[str, Any], NodePath], None]] = {
    "integer": _integer_default,
    "boolean": _boolean_default,
    "choice": _choice_default,
    "suits": _suits_default,
}


def _check_suits(spec: Meaning) -> None:
    """Every suit named in the deck, conditions and trumps is declared."""
    deck = spec.data["deck"]
    for suit in deck.get("rank_names_by_suit") or {}:
        spec.suit(suit, ("deck", "rank_names_by_suit", suit))
    for index, generator in enumerate(deck.get("generate", ())):
        if generator["suits"] != "all":
            for number, suit in enumerate(generator["suits"]):
                spec.suit(suit, ("deck", "generate", index, "suits", number))
    for index, card in enumerate(deck.get("cards", ())):
        for number, face in enumerate(card["faces"]):
            where = ("deck", "cards", index, "faces", number)
            spec.suit(face["suit"], where + ("suit",))
            for condition, path in _walk_condition(face.get("when"), where + ("when",)):
                if "trumps_include" in condition:
                    spec.suit(condition["trumps_include"], path + ("trumps_include",))
    for condition, path in spec.conditions():
        if "suit" in condition:
            for number, suit in enumerate(_as_list(condition["suit"])):
                spec.suit(suit, path + ("suit", number) if isinstance(condition["suit"], list) else path + ("suit",))
    _check_trump_suits(spec, spec.data.get("trumps", "none"))


def _check_trump_suits(spec: Meaning, trumps: Any) -> None:
    """The trump suits, listed or to choose from, are declared."""
    if isinstance(trumps, list):
        for index, suit in enumerate(trumps):
            spec.suit(suit, ("trumps", index))
    elif isinstance(trumps, dict) and "choose" in trumps:
        for index, suit in enumerate(trumps["choose"].get("from", ())):
            spec.suit(suit, ("trumps", "choose", "from", index))
        for number, rounds in enumerate(trumps["choose"].get("rounds", ())):
            if isinstance(rounds.get("from"), list):
                for index, suit in enumerate(rounds["from"]):
                    spec.suit(suit, ("trumps", "choose", "rounds", number, "from", index))


def _check_attributes(spec: Meaning) -> None:
    """Every attribute named on cards, in conditions, amounts, ranking and measures is declared."""
    deck = spec.data["deck"]
    for kind in ("generate", "cards"):
        for index, entry in enumerate(deck.get(kind, ())):
            for name in entry.get("attributes", {}):
                spec.attribute(name, ("deck", kind, index, "attributes", name))
    for condition, path in spec.conditions():
        if "attribute" in condition:
            spec.attribute(condition["attribute"]["name"], path + ("attribute", "name"))
    for index, reward in enumerate(spec.data.get("rewards", ())):
        for key, amount in reward["give"].items():
            if isinstance(amount, dict) and "attribute" in amount:
                spec.attribute(amount["attribute"], ("rewards", index, "give", key, "attribute"))
    for index, step in enumerate(spec.data["ranking"]):
        for key in ("highest", "lowest"):
            if isinstance(step, dict) and isinstance(step.get(key), dict):
                spec.attribute(step[key]["attribute"], ("ranking", index, key, "attribute"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "sum_attribute" in measure:
            spec.attribute(measure["sum_attribute"], ("scoring", "measures", name, "sum_attribute"))


def _option_places(spec: Meaning) -> Iterator[tuple[Any, NodePath, str]]:
    """Yield each value that may be an option reference, its path and the option type it needs."""
    yield spec.data["deal"]["hand_size"], ("deal", "hand_size"), "integer"
    yield spec.data.get("rounds"), ("rounds",), "integer"
    yield spec.data.get("trumps"), ("trumps",), "suits"
    for name, token in spec.tokens.items():
        yield token.get("supply"), ("tokens", name, "supply"), "integer"
    for index, reward in enumerate(spec.data.get("rewards", ())):
        for key, amount in reward["give"].items():
            yield amount, ("rewards", index, "give", key), "integer"
    rounds = spec.data.get("rounds")
    if isinstance(rounds, dict) and "until" in rounds:
        yield rounds.get("at_most"), ("rounds", "at_most"), "integer"
    dealer = spec.data["deal"].get("dealer")
    for key, needed in (("first", "integer"), ("rotation", "integer"), ("random", "boolean")):
        if isinstance(dealer, dict):
            yield dealer.get(key), ("deal", "dealer", key), needed
    for index, rule in enumerate(spec.data["scoring"]["round"]):
        yield rule.get("times"), ("scoring", "round", index, "times"), "integer"
        yield (rule.get("award") or {}).get("points"), ("scoring", "round", index, "award", "points"), "integer"
    trumps = spec.data.get("trumps")
    choose = trumps.get("choose") if isinstance(trumps, dict) else None
    for index, rule in enumerate((choose or {}).get("rounds") or ()):
        for key in ("dealer_must_choose", "dealer_takes_turned_up", "may_discard_turned_up", "declarer_takes_turned_up"):
            yield rule.get(key), ("trumps", "choose", "rounds", index, key), "boolean"


def _check_option_references(spec: Meaning) -> None:
    """Every {option: NAME} names a declared option of the type its place needs."""
    _check_option_cases(spec, spec.data, ())
    for value, path, needed in _option_places(spec):
        name = _option_name(value)
        if name is None:
            continue
        if name not in spec.options:
            declared = ", ".join(sorted(spec.options)) or "none"
            hint = did_you_mean(name, spec.options)
            spec.add("TR304", f"undefined option '{name}'{hint} (options has {declared})", path + ("option",))
        elif spec.options[name]["type"] != needed:
            kind = spec.options[name]["type"]
            message = f"option '{name}' is of type {kind}, but {subject(path)} needs an option of type {needed}"
            spec.add("TR313", message, path + ("option",))


def _check_tokens(spec: Meaning) -> None:
    """Every token kind named in rewards, the tableau and measures is declared."""
    for index, reward in enumerate(spec.data.get("rewards", ())):
        if "token" in reward["give"]:
            spec.token(reward["give"]["token"], ("rewards", index, "give", "token"))
    if "token" in spec.data.get("tableau", {}):
        spec.token(spec.data["tableau"]["token"], ("tableau", "token"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "tokens" in measure:
            spec.token(measure["tokens"], ("scoring", "measures", name, "tokens"))


EXPRESSION_NAMES = frozenset(contexts.SCORE.names) - {"trick"}
"""Names a scoring expression reads besides measures, options and counters (a bare `trick` is
taken for a misspelt measure: the trick number means nothing once a round is over)."""


def _check_measures(spec: Meaning) -> None:
    """Every measure the round scoring names is built in or declared."""
    for index, rule in enumerate(spec.data["scoring"]["round"]):
        add = rule.get("add")
        others = {*EXPRESSION_NAMES, *spec.options, *(spec.data.get("counters") or {}), *(spec.data.get("define") or {})}
        if isinstance(add, str) and add.isidentifier() and not keyword.iskeyword(add) and add not in others:
            spec.measure(add, ("scoring", "round", index, "add"))  # else an expression
        for number, best in enumerate(rule.get("award", {}).get("to_best_by", ())):
            for key, name in best.items():
                spec.measure(name, ("scoring", "round", index, "award", "to_best_by", number, key))


def _check_tableau(spec: Meaning) -> None:
    """Whatever goes to the tableau has one to go to, with spaces for its tokens."""
    tableau = spec.data.get("tableau")
    users: list[tuple[NodePath, str]] = []
    if spec.data.get("won_cards") == "tableau":
        users.append((("won_cards",), "won_cards: tableau"))
    for name, token in spec.tokens.items():
        if token.get("to") == "tableau":
            users.append((("tokens", name, "to"), f"token kind '{name}' goes to the tableau"))
            staff = (tableau or {}).get("token")
            if tableau is not None and staff != name:
                staffed = f"names '{staff}'" if staff else "names no token"
                message = f"token kind '{name}' goes to the tableau, but tableau.token {staffed}"
                spec.add("TR312", message, ("tokens", name, "to"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "tableau" in measure:
            users.append((("scoring", "measures", name), f"measure '{name}' scores the tableau"))
    if tableau is None:
        for path, what in users:
            spec.add("TR312", f"tableau required: {what}, but the spec has no tableau", path)


def _deck_size(deck: dict[str, Any]) -> int:
    """Return the number of cards in the deck."""
    suit_count = len(deck["suits"])
    size = sum(card.get("copies", 1) for card in deck.get("cards", ()))
    for generator in deck.get("generate", ()):
        suits = suit_count if generator["suits"] == "all" else len(generator["suits"])
        size += suits * _rank_count(generator["ranks"]) * generator.get("copies", 1)
    return size


def _check_deck_size(spec: Meaning) -> None:
    """The deck holds a full hand for every player, at every allowed player count."""
    hand_size = spec.data["deal"]["hand_size"]
    size = _deck_size(spec.data["deck"])
    _check_by_players(spec, hand_size, ("deal", "hand_size"), "hand size")
    for players in spec.player_counts():
        hand, path = _hand_size(spec, hand_size, players)
        if hand is not None and hand * players > size:
            message = f"deck too small: {players} players x {hand} cards = {hand * players}, but the deck has {size}"
            spec.add("TR305", message, path)


def _hand_size(spec: Meaning, hand_size: Any, players: int) -> tuple[int | None, NodePath]:
    """Return the hand size for a player count (options at their default) and where it is set."""
    if is_integer(None, hand_size):
        return hand_size, ("deal", "hand_size")
    name = _option_name(hand_size)
    if name is not None:
        default = spec.options.get(name, {}).get("default")
        return (default if is_integer(None, default) else None), ("deal", "hand_size")
    if not isinstance(hand_size, dict) or "by_players" not in hand_size:
        return None, ("deal", "hand_size")  # a schedule or chance: the compiler checks each size
    counts = hand_size["by_players"]
    path = ("deal", "hand_size", "by_players", str(players))
    return counts.get(str(players)), path


def _check_by_players(spec: Meaning, value: Any, path: NodePath, what: str) -> None:
    """A {by_players: ...} value gives a number for every allowed player count."""
    if not isinstance(value, dict) or "by_players" not in value:
        return
    counts = {int(key) for key in value["by_players"]}
    for players in spec.player_counts():
        if players not in counts:
            message = f"no {what} for {players} players, which players allows"
            spec.add("TR314", message, path + ("by_players",))


def _check_supplies(spec: Meaning) -> None:
    """Every by_players supply covers every allowed player count."""
    for name, token in spec.tokens.items():
        _check_by_players(spec, token.get("supply"), ("tokens", name, "supply"), f"'{name}' supply")


_CHECKS: tuple[Callable[[Meaning], None], ...] = (
    _check_names,
    _check_options,
    _check_suits,
    _check_attributes,
    _check_option_references,
    _check_tokens,
    _check_measures,
    _check_tableau,
    _check_deck_size,
    _check_supplies,
    check_card_ids,
)
