"""Regenerate the recorded texts of the phase kinds: what each kind says of itself.

A kind of phase shows itself through its rulebook paragraph, the figures `simulate` counts for
it, the words of its events in the game's log, its part of a player's observation and its
segments of the observation tensor. These files record all of those for seeded random games of
the shipped specs that use such kinds. Run after an intended change, then review the diff:

    python tests/phase_texts/regenerate.py && git diff tests/phase_texts

tests/test_phase_texts.py plays the same games and fails on any difference.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

class Recorded(NamedTuple):
    """The recorded games of one spec: its seeds, option settings, how often a player passes
    when it may (by default it picks among the legal actions alike), and changes to the spec's
    text (old, new) that make a variant of it, named by `label`."""

    spec: str
    players: int
    seeds: tuple[int, ...]
    settings: tuple[str, ...] = ()
    passing: float = 0.0
    changes: tuple[tuple[str, str], ...] = ()
    label: str = ""

    @property
    def name(self) -> str:
        """File name of the recorded texts."""
        return f"{Path(self.spec).stem}-{self.players}p{'-' + self.label if self.label else ''}.txt"


CALLING_SEED = 4
"""A seed whose Tarok game, its players keen to pass, has a low contract and its called king."""
GAMES = [
    Recorded("specs/bridge.yaml", 4, (1, 2, 5)),
    Recorded("specs/bridge.yaml", 4, (1, 3), passing=0.7, label="quiet", changes=(
        ("first: dealer", "first: {seat: 2}"), ("declarer: first_to_name_strain", "declarer: last_bidder"),
        ("dummy: true", "dummy: false\n      doubling: false"),
    )),
    Recorded("specs/bridge.yaml", 4, (6,), passing=0.7, label="three-deals", changes=(
        ("first: dealer", "first: {seat: 2}"), ("declarer: first_to_name_strain", "declarer: last_bidder"),
        ("dummy: true", "dummy: false\n      doubling: false"), ("rounds: 1", "rounds: 3"),
    )),
    Recorded("specs/skat.yaml", 3, (1, 2, 3)),
    Recorded("specs/skat.yaml", 3, (1, 2), passing=0.6, label="variant", changes=(
        ("declare: {first: {seat: 0}, otherwise: score}", "declare: {first: dealer, otherwise: grand}"),
        ("take: {bury: 2, buried_count_for: taker}", "take: {bury: 1, groups: 2, hand: true}"),
    )),
    Recorded("specs/skat-standard.yaml", 3, (1, 2)),
    Recorded("specs/tarok.yaml", 4, (1, 2, 3)),
    Recorded("specs/tarok.yaml", 4, (CALLING_SEED,), passing=0.8, label="passing"),
    Recorded("specs/tarok.yaml", 4, (CALLING_SEED,), passing=0.8, label="any-call", changes=(
        ('call: {cards: [hearts-K, diamonds-K, spades-K, clubs-K], contracts: [three, two, one], when: "players == 4"}',
         "call: {cards: [hearts-K, diamonds-K, spades-K, clubs-K]}"),
    )),
    Recorded("specs/tarot.yaml", 4, (1, 2)),
    Recorded("specs/tarot.yaml", 4, (3,), label="hand-games", changes=(
        ("      buried_count_for: taker\n  - play", "      buried_count_for: nobody\n      hand: true\n  - play"),
    )),
    Recorded("specs/pinochle.yaml", 4, (1, 2)),
    Recorded("specs/belote.yaml", 4, (1, 8), ("single_hand=true",)),
    Recorded("specs/doppelkopf.yaml", 4, (1,)),
    Recorded("examples/skat-lite.yaml", 3, (1,)),
    Recorded("specs/euchre.yaml", 4, (1,), ("single_hand=true",)),
]
ROUNDS_SHOWN = 2
"""The rounds of a game whose observations and tensors are recorded at every decision."""


def _value(text: str) -> Any:
    import yaml

    return yaml.safe_load(text)


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def transcript(recorded: Recorded) -> str:
    """The texts the phase kinds give for the spec's rules and for one random game per seed."""
    spec, players, seeds, settings, passing, changes, _ = recorded
    from trickrules.engine.game import load_game
    from trickrules.spec.loader import load_ruleset_text
    from trickrules.engine.phases import ALL_KINDS, EVENTS, STEPS, showing
    from trickrules.tools.record import build_record
    from trickrules.tools.textlog import render_record, token_plurals

    options = {key: _value(value) for key, value in (setting.split("=", 1) for setting in settings)}
    text = (ROOT / spec).read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, f"{spec} has no {old!r} to change"
        text = text.replace(old, new)
    game = load_game(load_ruleset_text(text, spec, players, options))
    lines = [f"{game.ruleset.title} ({game.ruleset.id}), {players} players, options: {_compact(options)}"]
    lines += [f"changed: {old!r} to {new!r}" for old, new in changes] + [""]
    for step in game.steps:
        kind = STEPS.get(step.kind)
        text = kind.rulebook(step, game.ruleset) if kind is not None else ""
        if text:
            lines += [f"rulebook, step {step.kind}:", *("  " + line for line in text.splitlines()), ""]
    counting = [kind for kind in showing("figures") if kind.used(game)]
    keys = [key for kind in counting for key in kind.figures(game)]
    lines += ["figures: " + "; ".join("/".join(key) for key in keys), ""]
    observing = showing("observe")
    own = {segment[0] for kind in ALL_KINDS for segment in kind.segments(game)}
    layout = game.observation_layout()
    segments = [segment for segment in layout.segments if segment.name in own]
    lines += ["segments: " + "; ".join(f"{s.name} {s.shape} {s.low:g}..{s.high:g}: {s.meaning}" for s in segments), ""]
    for seed in seeds:
        lines += [f"game, seed {seed}:"]
        state = game.new_initial_state(seed=seed, record=True)
        chooser = random.Random(seed)

        def choose() -> int:
            legal = state.legal_actions()
            if passing and chooser.random() < passing:
                passes = [a for a in legal if state.action_to_string(a) == "pass"]
                if passes:
                    return passes[0]
            return chooser.choice(legal)

        seen: dict[str, str] = {}
        while not state.is_terminal():
            player = state.current_player()
            if len(state.round_results) >= ROUNDS_SHOWN:  # later rounds: their events' words only
                state.apply_action(choose())
                continue
            view: dict[str, Any] = {}
            for kind in observing:
                kind.observe(state, player, view)
            shown = _compact(view)
            if shown != seen.get("view"):
                lines.append(f"  P{player} sees {shown}")
                seen["view"] = shown
            tensor = layout.tensor(state, player)
            for segment in segments:
                marks = ",".join(f"{i}:{v:g}" for i, v in enumerate(tensor[segment.slice]) if v)
                if marks != seen.get(segment.name):
                    lines.append(f"  P{player} tensor {segment.name} [{marks}]")
                    seen[segment.name] = marks
            action = choose()
            lines.append(f"  P{player} {state.action_to_string(action)}")
            state.apply_action(action)
        values = dict.fromkeys(keys, 0)
        memory: dict[str, Any] = {}
        for event in state.events or []:
            kind = EVENTS.get(event["type"])
            if kind is not None:
                lines.append(f"  log {event['type']}: {kind.words(event, game)}")
            for counted in counting:
                counted.count(event, values, memory)
        lines.append("  counted: " + "; ".join(f"{'/'.join(key)}={value}" for key, value in values.items()))
        record = build_record(state)
        text = render_record(record, token_plurals(game.ruleset))
        later = text.find(f"\nRound {ROUNDS_SHOWN + 1}:")
        if later >= 0:  # the text of the later rounds left out, the standings kept
            text = text[:later] + "\n...\n" + text[text.index("\nFinal standings:") + 1:]
        lines += ["  " + line if line else "" for line in text.splitlines()]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    for game in GAMES:
        path = HERE / game.name
        path.write_text(transcript(game), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
