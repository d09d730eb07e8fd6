"""Scoring called from outside a game: `score_round` of a game without a tableau works out its
measures from piles, tricks and token pools, reads the given names and teams, and leaves the
caller's mappings unchanged; `RoundNames` by player and by team."""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

from trickrules.rules.faces import counting_faces
from trickrules.rules.ruleset import Ruleset
from trickrules.rules.scoring import PlayerRound, RoundNames, score_round
from trickrules.spec.loader import load_ruleset_text

PILES = """id: piles
title: Piles
players: [2]
options:
  bonus: {type: integer, default: 1}
deck:
  suits: [red, blue]
  generate:
    - suits: all
      ranks: {from: 1, to: 4}
deal:
  hand_size: 4
teams: [[0], [1]]
ranking:
  - highest: rank
tokens:
  star: {supply: 20, to: player}
rewards:
  - name: big
    to: winner
    when: {rank: 4}
    give: {token: star, amount: 1}
scoring:
  measures:
    stars: {tokens: star}
  round:
    - name: stars
      add: stars
    - name: bonus
      add: "tricks * bonus"
    - name: side
      per: team
      add: "10 * tricks + stars"
"""


@lru_cache(maxsize=None)
def piles() -> Ruleset:
    """A game without a tableau, with a token measure and expression rules by player and team."""
    return load_ruleset_text(PILES)


# seat 0 won one trick (two cards) and holds 3 stars; seat 1 won three tricks and 1 star
SEATS = [PlayerRound((0, 5), 1, (), (), (3,)), PlayerRound((1, 2, 6, 7, 3, 4), 3, (), (), (1,))]


def test_a_game_without_a_tableau_measures_the_token_pools() -> None:
    envs = [{"bonus": 2}, {"bonus": 5}]
    result = score_round(piles(), SEATS, counting_faces(piles().deck, frozenset()), envs)
    assert result.measures == [[1, 2, 3], [3, 6, 1]]  # tricks, cards, stars
    # stars, tricks * bonus, and each seat alone as its own team (written to its seat)
    assert result.points == [[3, 2, 13], [1, 15, 31]]


def test_the_given_teams_replace_the_specs_and_the_envs_stay_unchanged() -> None:
    envs = [{"bonus": 2}, {"bonus": 5}]
    result = score_round(piles(), SEATS, counting_faces(piles().deck, frozenset()), envs, teams=[[0, 1]])
    assert [row[2] for row in result.points] == [10 * 4 + 4, 0]  # the team's sums, at its first seat
    assert envs == [{"bonus": 2}, {"bonus": 5}]  # filled into copies, not into the caller's


def test_round_names_copy_what_they_do_not_own() -> None:
    envs = [{"x": 1}]
    names = RoundNames(("tricks",), envs, ((0,),))
    names.measures = [[2]]
    assert names.by_player() == [{"x": 1, "tricks": 2, "all_tricks": (2,)}]
    assert envs == [{"x": 1}]


def test_owned_names_fill_their_dicts_in_place_and_copy_other_mappings() -> None:
    mine = {"x": 1}
    names = RoundNames(("tricks",), [mine, MappingProxyType({"x": 2})], ((0,), (1,)), owned=True)
    names.measures = [[2], [4]]
    assert names.by_player()[1] == {"x": 2, "tricks": 4, "all_tricks": (2, 4)}
    assert names.by_player()[0] is mine and mine["tricks"] == 2


def test_a_teams_bid_is_the_sum_of_the_given_bids_by_seat() -> None:
    names = RoundNames(("tricks",), [{"bid": 1}, {"bid": 2}], ((0, 1),), bids=[4, 5])
    names.measures = [[2], [3]]
    assert names.by_team() == [{"bid": 9, "tricks": 5, "all_tricks": (5,)}]


def test_a_teams_bid_without_bids_is_read_from_the_names() -> None:
    names = RoundNames(("tricks",), [{"bid": 1}, {"bid": 2}], ((0, 1),))
    names.measures = [[2], [3]]
    assert names.by_team()[0]["bid"] == 3


def test_round_names_before_the_measures_are_known_name_no_player() -> None:
    assert RoundNames(("tricks",), None, ((0,),)).by_player() == []
