"""Range checks: values a spec names that its own deck, players and options do not have.

A spec can fit the schema and name only declared things, and still ask for what cannot
happen: a rank no card has (``when: {rank: 1}`` in a 2 to 14 deck), a seat the table does not
have (``dealer: {first: 4}`` with 4 players would quietly become seat 0), a case for a choice
the option does not offer, a negative count of tokens, or an option whose declared range lets
a value through that the place it is used cannot take. Each is an error, at the line and
column of the value. (A `by_players` entry for a count that `players` leaves out is allowed:
an overlay that narrows `players` keeps its parent's tables.)

- TR330: a rank in a condition or a `by_rank` table that no card has, or a rank name that
  `rank_names` does not give;
- TR321: a dealer's or first leader's seat at or past the number of players;
- TR331: a case that is not a choice, a negative count of tokens, an integer option whose
  range lets through what its place cannot take;
- TR305: an integer option for the hand size that allows hands the deck cannot fill.

They run after the checks of meaning (`trickrules.spec.meaning`), so names are declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from trickrules.errors import Problem
from trickrules.spec.meaning import Meaning, NodePath
from trickrules.spec.names import did_you_mean
from trickrules.spec.source import SpecSource, json_path

__all__ = ["deck_ranks", "range_problems", "rank_words"]


def range_problems(source: SpecSource) -> list[Problem]:
    """Every range problem of a spec that passed the checks of meaning."""
    check = _Ranges(source)
    for run in (check.ranks, check.seats, check.cases, check.tokens, check.option_ranges):
        run()
    return check.found


def deck_ranks(deck: dict[str, Any]) -> set[int]:
    """Every rank a face of the deck has: generated ranks and the ranks of explicit faces."""
    ranks: set[int] = set()
    for generator in deck.get("generate") or ():
        ranks.update(_generated(generator["ranks"]))
    for card in deck.get("cards") or ():
        ranks.update(face["rank"] for face in card["faces"])
    return ranks


def rank_words(ranks: Iterable[int]) -> str:
    """Ranks in words, runs joined: ``0 to 8``, ``1, 2, 3, 6 to 8``."""
    ordered = sorted(set(ranks))
    runs: list[list[int]] = []
    for rank in ordered:
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    words: list[str] = []
    for run in runs:
        words += [f"{run[0]} to {run[-1]}"] if len(run) > 2 else [str(rank) for rank in run]
    return ", ".join(words) or "none"


def _generated(ranks: Any) -> list[int]:
    """The ranks a generator makes (a list, or an inclusive range)."""
    return list(ranks) if isinstance(ranks, list) else list(range(ranks["from"], ranks["to"] + 1))


def _option_name(value: Any) -> str | None:
    """The option an {option: NAME} reference names, else None."""
    if isinstance(value, dict) and set(value) == {"option"} and isinstance(value["option"], str):
        return value["option"]
    return None


def _cases(value: Any, path: NodePath) -> Iterator[tuple[Any, NodePath]]:
    """A value, or each case of an {option, cases} value, with its path."""
    if isinstance(value, dict) and set(value) == {"option", "cases"} and isinstance(value["cases"], dict):
        for name, case in value["cases"].items():
            yield case, path + ("cases", name)
    else:
        yield value, path


class _Ranges:
    """The range checks, over data that passed the schema and the checks of meaning."""

    def __init__(self, source: SpecSource) -> None:
        self.source = source
        self.data = source.data
        self.found: list[Problem] = []
        self.players = sorted(set(self.data["players"]))
        self.options: dict[str, Any] = self.data.get("options") or {}
        self.known_ranks = deck_ranks(self.data["deck"])

    def add(self, code: str, message: str, path: NodePath) -> None:
        file, line, column = self.source.locate(path)
        self.found.append(Problem(code, message, file, line, column, json_path(path)))

    # ------------------------------------------------------------ ranks

    def rank(self, rank: Any, path: NodePath, known: set[int] | None = None, where: str = "the deck") -> None:
        known = self.known_ranks if known is None else known
        if isinstance(rank, str):
            deck = self.data["deck"]
            by_suit = [names or {} for names in (deck.get("rank_names_by_suit") or {}).values()]
            names = {str(name) for named in [deck.get("rank_names") or {}, *by_suit] for name in named.values()}
            if rank not in names:
                listed = ", ".join(sorted(names)) or "none"
                self.add("TR330", f"rank '{rank}': no rank has that name{did_you_mean(rank, sorted(names))} (rank_names: {listed})", path)
            return
        if isinstance(rank, int) and rank not in known:
            self.add("TR330", f"rank {rank}: no card of {where} has it (ranks: {rank_words(known)})", path)

    def ranks(self) -> None:
        """Ranks in conditions and in by_rank tables are ranks the deck has."""
        for condition, path in Meaning(self.source).conditions():
            if "rank" in condition:
                value = condition["rank"]
                for index, rank in enumerate(value if isinstance(value, list) else [value]):
                    self.rank(rank, path + ("rank", index) if isinstance(value, list) else path + ("rank",))
        for name, measure in ((self.data.get("scoring") or {}).get("measures") or {}).items():
            meld = measure.get("meld") if isinstance(measure, dict) else None
            for number, rank in enumerate((meld or {}).get("ranks") or ()):
                self.rank(rank, ("scoring", "measures", name, "meld", "ranks", number))
        for index, step in enumerate(self.data["ranking"]):
            order: list[Any] = (step.get("order") if isinstance(step, dict) else None) or []
            for number, case in enumerate(order):
                path, ranks = ("ranking", index, "order"), order
                if isinstance(case, dict):
                    path, ranks = path + (number, "ranks"), case["ranks"]
                elif number:
                    break  # a plain order list: its ranks are checked once
                for place, rank in enumerate(ranks):
                    self.rank(rank, path + (place,))
        for index, reward in enumerate(self.data.get("rewards") or ()):
            for key, amount in reward["give"].items():
                if isinstance(amount, dict) and "by_rank" in amount:
                    for rank in amount["by_rank"]:
                        self.rank(int(rank), ("rewards", index, "give", key, "by_rank", rank))
        deck = self.data["deck"]
        for index, generator in enumerate(deck.get("generate") or ()):
            made = set(_generated(generator["ranks"]))
            for name, value in (generator.get("attributes") or {}).items():
                if isinstance(value, dict):
                    for rank in value.get("by_rank") or {}:
                        path = ("deck", "generate", index, "attributes", name, "by_rank", rank)
                        self.rank(int(rank), path, made, "this generator")

    # ------------------------------------------------------------ seats and player counts

    def seat(self, seat: Any, path: NodePath, what: str) -> None:
        for players in self.players:
            if isinstance(seat, int) and seat >= players:
                message = f"{what}: seat {seat} does not exist with {players} players (seats are 0 to {players - 1})"
                self.add("TR321", message, path)
                return

    def seats(self) -> None:
        """The first dealer and a first leader's seat exist at every allowed player count."""
        deal = self.data["deal"]
        for dealer, path in _cases(deal.get("dealer"), ("deal", "dealer")):
            if isinstance(dealer, dict) and "first" in dealer:
                self.seat(dealer["first"], path + ("first",), "the first dealer")
        leader = deal.get("first_leader")
        if isinstance(leader, dict) and "seat" in leader:
            self.seat(leader["seat"], ("deal", "first_leader", "seat"), "the first leader")
        for name, contract in (self.data.get("contracts") or {}).items():  # a contract's own first leader
            leader = (contract or {}).get("first_leader")
            if isinstance(leader, dict) and "seat" in leader:
                self.seat(leader["seat"], ("contracts", name, "first_leader", "seat"), f"contract {name}'s first leader")

    # ------------------------------------------------------------ option cases

    def cases(self, node: Any = None, path: NodePath = ()) -> None:
        """Every case of an {option, cases} value is a choice of its option."""
        node = self.data if not path else node
        if isinstance(node, dict):
            if set(node) == {"option", "cases"} and isinstance(node["cases"], dict):
                option = self.options.get(node["option"]) or {}
                choices = [str(choice) for choice in option.get("choices") or ()]
                for case in node["cases"]:
                    if choices and str(case) not in choices:
                        hint = did_you_mean(case, choices)
                        message = f"case '{case}' is not a choice of option '{node['option']}'{hint} (choices: {', '.join(choices)})"
                        self.add("TR331", message, path + ("cases", case))
            for key, value in node.items():
                if key != "options" or path:
                    self.cases(value, path + (key,))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                self.cases(value, path + (index,))

    # ------------------------------------------------------------ tokens

    def tokens(self) -> None:
        """A reward gives a count of tokens, never a negative one (it would silently give none)."""
        for index, reward in enumerate(self.data.get("rewards") or ()):
            give = reward["give"]
            if "token" not in give:
                continue
            path = ("rewards", index, "give", "amount")
            amount = give["amount"]
            values: list[tuple[int, NodePath]] = []
            if isinstance(amount, int):
                values.append((amount, path))
            elif isinstance(amount, dict) and "by_rank" in amount:
                values += [(int(v), path + ("by_rank", k)) for k, v in amount["by_rank"].items()]
                if "default" in amount:
                    values.append((int(amount["default"]), path + ("default",)))
            for value, where in values:
                if value < 0:
                    message = f"a reward gives a count of tokens, which cannot be negative ({value}); give 0 or more"
                    self.add("TR331", message, where)

    # ------------------------------------------------------------ option ranges

    def option_ranges(self) -> None:
        """An integer option's declared range fits every place that uses it."""
        deal = self.data["deal"]
        places: list[tuple[Any, NodePath, int, str]] = [
            (deal["hand_size"], ("deal", "hand_size"), 1, "a hand holds at least 1 card"),
            (self.data.get("rounds"), ("rounds",), 1, "a game has at least 1 round"),
        ]
        for name, token in (self.data.get("tokens") or {}).items():
            places.append((token.get("supply"), ("tokens", name, "supply"), 0, "a supply cannot be negative"))
        for index, reward in enumerate(self.data.get("rewards") or ()):
            if "token" in reward["give"]:
                places.append((reward["give"]["amount"], ("rewards", index, "give", "amount"), 0,
                               "a count of tokens cannot be negative"))
        for value, path, lowest, why in places:
            name = _option_name(value)
            option = self.options.get(name or "") or {}
            if name is None or option.get("type") != "integer":
                continue
            low = option.get("min")
            if low is None or low < lowest:
                shown = "no min" if low is None else f"min {low}"
                message = f"option '{name}' has {shown}, but {why}: give it min: {lowest} or more"
                self.add("TR331", message, ("options", name, "min") if low is not None else ("options", name))
        self.hand_size_option(deal["hand_size"])

    def hand_size_option(self, hand_size: Any) -> None:
        """An integer option for the hand size allows no hand the deck cannot fill."""
        name = _option_name(hand_size)
        option = self.options.get(name or "") or {}
        high = option.get("max")
        if name is None or option.get("type") != "integer" or high is None:
            return
        cards = _deck_size(self.data["deck"])
        players = max(self.players)
        if high * players > cards:
            message = (f"deck too small: option '{name}' allows hands of {high}, and {players} players x {high} "
                       f"cards = {high * players}, but the deck has {cards}")
            self.add("TR305", message, ("options", name, "max"))


def _deck_size(deck: dict[str, Any]) -> int:
    """The number of cards in the deck."""
    suits = len(deck["suits"])
    size = sum(card.get("copies", 1) for card in deck.get("cards") or ())
    for generator in deck.get("generate") or ():
        count = suits if generator["suits"] == "all" else len(generator["suits"])
        size += count * len(_generated(generator["ranks"])) * generator.get("copies", 1)
    return size
