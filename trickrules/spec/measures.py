"""A spec's measures compiled into `Measure` rules, and written back (`dump_measure`).

A measure that reads cards (a count of cards, a card condition, a sum of an attribute or a run)
may say which cards (`of`: won, dealt, held), whose (`per`), whether the cards dealt to no one
count for the declarer (`set_aside`) and, for a sum, a share taken off per card
(`less_per_card`); the checks here (TR360-TR365) are those of these keys together.
"""

from __future__ import annotations

from typing import Any, Protocol

from trickrules.errors import Problem
from trickrules.rules.cards import COPY_MARK
from trickrules.rules.measures import Holding, Measure, Meld
from trickrules.rules.ruleset import CardCondition, Ruleset
from trickrules.spec.source import SpecSource, json_path

HOLDING_KEYS = ("of", "per", "set_aside", "less_per_card", "counting")
"""The keys that make a measure read cards by a `Holding`, besides a condition or a run."""


class MeasureCompiler(Protocol):
    """What compiling a measure needs of the spec's compiler (`trickrules.spec.compiler`)."""

    source: SpecSource
    found: list[Problem]
    data: dict
    attributes: tuple[str, ...]
    token_names: tuple[str, ...]

    def card_condition(self, raw: dict | None, path: tuple = (), whole: str = "") -> CardCondition | None: ...

    def card_index(self, card_id: str, path: tuple) -> int: ...

    def rank_set(self, value: Any) -> frozenset[int] | None: ...

    @property
    def suits(self) -> tuple[str, ...]: ...

    @property
    def card_ids(self) -> tuple[str, ...]: ...


def compile_measure(compiler: MeasureCompiler, name: str, raw: dict) -> Measure:
    """The measure `name` of the spec (`raw` as written), problems added to `compiler.found`."""
    path = ("scoring", "measures", name)
    holding = _holding(compiler, raw, path) if _reads_holding(raw) else None
    if "run" in raw:
        return Measure(name, "run", holding=holding)
    if "meld" in raw:
        return Measure(name, "meld", holding=holding)
    if "sum_attribute" in raw:
        return Measure(name, "sum_attribute", attribute=compiler.attributes.index(raw["sum_attribute"]), holding=holding)
    if isinstance(raw.get("count"), dict):
        return Measure(name, "count", holding=holding)
    if "count" in raw:
        return Measure(name, raw["count"], holding=holding)
    if "tokens" in raw:
        return Measure(name, "tokens", token=compiler.token_names.index(raw["tokens"]))
    return Measure(name, "tableau")


def _reads_holding(raw: dict) -> bool:
    return "run" in raw or "meld" in raw or isinstance(raw.get("count"), dict) or raw.get("count") == "called" or any(key in raw for key in HOLDING_KEYS)


def _holding(compiler: MeasureCompiler, raw: dict, path: tuple) -> Holding:
    """The cards a measure reads and how it counts them; a key that does not fit is reported."""
    _check_keys(compiler, raw, path)
    matching: CardCondition | None = None
    order: tuple[int, ...] | None = None
    count, run = raw.get("count"), raw.get("run")
    if isinstance(count, dict):
        matching = _condition(compiler, count, (*path, "count"))
    if isinstance(run, dict):
        matching = _condition(compiler, run, (*path, "run"))
    elif isinstance(run, list):
        order = _run_order(compiler, run, (*path, "run"))
    less = raw.get("less_per_card") or {}
    return Holding(
        of=raw.get("of", "won"),
        matching=matching,
        order=order,
        counting=raw.get("counting", "either"),
        per=raw.get("per", "player"),
        set_aside=raw.get("set_aside") == "declarer",
        less=(int(less.get("numerator", 0)), int(less.get("denominator", 1))),
        meld=_meld(compiler, raw["meld"], (*path, "meld")) if "meld" in raw else None,
    )


def _meld(compiler: MeasureCompiler, raw: dict, path: tuple) -> Meld:
    """A pattern of cards (`meld`): ranks in one suit, across suits, or given cards."""
    ranks = []
    for rank in raw.get("ranks") or ():
        ranks.append(compiler.rank_set(rank) or frozenset())  # a rank the deck lacks: TR330 (`ranges`)
    suit = raw.get("suit")
    suits = None
    if suit is not None and suit != "trump":
        listed = suit if isinstance(suit, list) else [suit]
        for name in listed:
            if name not in compiler.suits:
                _add(compiler, (*path, "suit"), "TR301", f"undefined suit '{name}' (deck.suits has {', '.join(compiler.suits)})")
        suits = tuple(compiler.suits.index(name) for name in listed if name in compiler.suits)
    cards = []
    for number, card_id in enumerate(raw.get("cards") or ()):
        index = compiler.card_index(str(card_id), (*path, "cards", number))
        base = compiler.card_ids[index].partition(COPY_MARK)[0] if index >= 0 else None
        cards.append(tuple(i for i, other in enumerate(compiler.card_ids) if other.partition(COPY_MARK)[0] == base))
    sequence = raw.get("sequence")
    bounds = (int(sequence["from"]), int(sequence.get("to", 0))) if isinstance(sequence, dict) else (0, 0)
    patterns = [key for key in ("ranks", "cards", "sequence", "best") if raw.get(key)]
    if len(patterns) != 1 or (raw.get("across") and "ranks" not in patterns):
        found = " and ".join(patterns) or "no pattern"
        _add(compiler, path, "TR372", f"a meld is one pattern: ranks (with or without across), cards, a sequence or best; this one has {found}"
             + (" with across" if raw.get("across") and "ranks" not in patterns else ""))
    if bounds[1] and bounds[1] < bounds[0]:
        _add(compiler, (*path, "sequence", "to"), "TR372", f"a sequence of {bounds[0]} to {bounds[1]} cards: 'to' is below 'from'")
    best = _best(compiler, raw.get("best") or (), (*path, "best")) if "best" in patterns else ()
    return Meld(tuple(ranks), suits, suit == "trump", raw.get("across") == "suits", tuple(cards), int(raw.get("times", 1)), bounds, best)


def pattern_melds(measures: dict) -> list[str]:
    """The names of the measures (as written) that count a pattern of cards: meld measures
    other than a comparison of melds (`best`)."""
    return [name for name, value in measures.items()
            if isinstance(value, dict) and isinstance(value.get("meld"), dict) and "best" not in value["meld"]]


def _best(compiler: MeasureCompiler, tiers: Any, path: tuple) -> tuple[tuple[tuple[str, Meld], ...], ...]:
    """The tiers of a comparison of melds, each name resolved to its measure's pattern (TR375:
    a name that is not a meld measure counting a pattern, or listed twice)."""
    measures = (compiler.data.get("scoring") or {}).get("measures") or {}
    patterns = pattern_melds(measures)
    seen: set[str] = set()
    result = []
    for place, tier in enumerate(tiers):
        names = tier if isinstance(tier, list) else [tier]
        resolved = []
        for number, name in enumerate(names):
            where = (*path, place, number) if isinstance(tier, list) else (*path, place)
            if name not in patterns:
                _add(compiler, where, "TR375", f"best compares meld measures that count a pattern; {name!r} is not one (they are: {', '.join(patterns) or 'none'})")
            elif name in seen:
                _add(compiler, where, "TR375", f"{name!r} is listed twice in best: each meld has one place")
            else:
                seen.add(name)
                found = len(compiler.found)
                resolved.append((str(name), _meld(compiler, measures[name]["meld"], ("scoring", "measures", name, "meld"))))
                del compiler.found[found:]  # reported where the measure itself is compiled
        result.append(tuple(resolved))
    return tuple(result)


def _check_keys(compiler: MeasureCompiler, raw: dict, path: tuple) -> None:
    """TR360-TR363: keys that do not fit the measure they are on."""
    reads_cards = "run" in raw or "meld" in raw or "sum_attribute" in raw or raw.get("count") not in (None, "tricks")
    if not reads_cards:
        for key in ("of", "per", "set_aside"):
            if key in raw:
                what = "tricks" if raw.get("count") == "tricks" else "no cards"
                _add(compiler, (*path, key), "TR360", f"'{key}' says which cards a measure reads, but this one reads {what}: "
                     "it goes with count of cards, count of a card condition, sum_attribute or run")
    if "counting" in raw and "run" not in raw:
        _add(compiler, (*path, "counting"), "TR361", "'counting' (with, without or either) belongs to a run: add run")
    if "less_per_card" in raw and "sum_attribute" not in raw:
        _add(compiler, (*path, "less_per_card"), "TR362", "'less_per_card' takes a share off a sum of card points: "
             "add sum_attribute")
    data = compiler.data
    sides = any(isinstance(c, dict) and c.get("declarer") == "alone" for c in (data.get("contracts") or {}).values())
    if raw.get("per") == "team" and not data.get("teams") and not data.get("declarer_alone") and not sides:
        _add(compiler, (*path, "per"), "TR363", "per: team reads a team's cards, but the spec has no teams "
             "(declare teams, or use per: player)")


def _condition(compiler: MeasureCompiler, raw: dict, path: tuple) -> CardCondition | None:
    """A card condition of a measure: one that reads the card alone (TR365 otherwise)."""
    for key in ("led", "same_suit_as_winner", "winner", "trick"):
        if _mentions(raw, key):
            _add(compiler, path, "TR365", f"a measure's card condition reads the card alone, not the trick ('{key}'): "
                 "the cards are counted after the round, outside any trick")
            return None
    return compiler.card_condition(raw, path)


def _mentions(raw: Any, key: str) -> bool:
    """Whether `key` is a key of the condition `raw` or of one nested in it."""
    if isinstance(raw, dict):
        return key in raw or any(_mentions(value, key) for value in raw.values())
    if isinstance(raw, list):
        return any(_mentions(value, key) for value in raw)
    return False


def _run_order(compiler: MeasureCompiler, ids: list, path: tuple) -> tuple[int, ...]:
    """A run's cards by index, top first; a card named twice is reported (TR364)."""
    order: list[int] = []
    for number, card_id in enumerate(ids):
        card = compiler.card_index(str(card_id), (*path, number))
        if card in order:
            _add(compiler, (*path, number), "TR364", f"card '{card_id}' is named twice in the run: "
                 "each card has one place in it")
        order.append(card)
    return tuple(order)


def _add(compiler: MeasureCompiler, path: tuple, code: str, message: str) -> None:
    file, line, column = compiler.source.locate(path)
    compiler.found.append(Problem(code, message, file, line, column, json_path(path)))


def dump_measure(measure: Measure, ruleset: Ruleset, condition: Any) -> dict[str, Any]:
    """A measure as a spec writes it (`condition` writes a card condition)."""
    holding = measure.holding
    deck = ruleset.deck
    if measure.kind == "sum_attribute":
        assert measure.attribute is not None
        data: dict[str, Any] = {"sum_attribute": deck.attributes[measure.attribute]}
    elif measure.kind in ("tricks", "cards", "called"):
        data = {"count": measure.kind}
    elif measure.kind == "tokens":
        assert measure.token is not None
        return {"tokens": ruleset.tokens[measure.token].name}
    elif measure.kind == "tableau":
        return {"tableau": "score"}
    elif measure.kind == "count":
        assert holding is not None and holding.matching is not None
        data = {"count": condition(holding.matching, deck)}
    elif measure.kind == "meld":
        assert holding is not None and holding.meld is not None
        data = {"meld": _dump_meld(holding.meld, deck)}
    else:
        assert holding is not None
        order = holding.order
        data = {"run": [deck.cards[c].id for c in order] if order is not None else condition(holding.matching, deck)}
    return data if holding is None else data | _holding_keys(holding, measure.kind)


def _dump_meld(meld: Meld, deck: Any) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if meld.ranks:
        data["ranks"] = [sorted(ranks)[0] if len(ranks) == 1 else deck.rank_name(sorted(ranks)[0]) for ranks in meld.ranks]
    if meld.trump:
        data["suit"] = "trump"
    elif meld.suits is not None:
        data["suit"] = [deck.suits[s] for s in meld.suits]
    if meld.across:
        data["across"] = "suits"
    if meld.cards:
        data["cards"] = [deck.cards[copies[0]].id for copies in meld.cards]
    if meld.sequence[0]:
        data["sequence"] = {"from": meld.sequence[0], **({"to": meld.sequence[1]} if meld.sequence[1] else {})}
    if meld.best:
        data["best"] = [[name for name, _ in tier] for tier in meld.best]
    if meld.times != 1:
        data["times"] = meld.times
    return data


def _holding_keys(holding: Holding, kind: str) -> dict[str, Any]:
    data: dict[str, Any] = {"of": holding.of}
    if kind == "run":
        data["counting"] = holding.counting
    if holding.per != "player":
        data["per"] = holding.per
    if holding.set_aside:
        data["set_aside"] = "declarer"
    if holding.less != (0, 1):
        data["less_per_card"] = {"numerator": holding.less[0], "denominator": holding.less[1]}
    return data
