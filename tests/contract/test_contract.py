"""One random-game test for every game, through the engine contract only (the descriptor).

Random computer players play whole games. After every action: every listed legal action is
accepted from the seat awaited and refused from the others; every seat's view names none of the
cards it may not see; the action and the view survive their JSON form; nothing is lost or made
(every card, tile and chip accounted for). At the end, and half way, the record replays to the
same state, state by state, and a copy is independent of its original. The toy game of
``toy.py`` runs through the same test: a new game plugs into the contract the same way.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pytest

from rummykit import romme, rummoli, tiles
from rummykit.cards import Card
from rummykit.core import GameDescriptor, IllegalAction
from rummykit.rummoli.poker import index_card
from rummykit.tiles.rules import Tile

from . import toy


@dataclass(frozen=True)
class Case:
    """A game as this test sees it: its descriptor, a short rule set, how many players, the
    type of its cards or tiles, what a seat may not see, and what is conserved."""

    game: GameDescriptor[Any, Any, Any, Any]
    rules: Any
    players: tuple[int, ...]
    item: type
    hidden: Callable[[Any, int], Counter[Hashable]]
    inventory: Callable[[Any], Counter[Hashable]]


def _romme_hidden(state: romme.State, seat: int) -> Counter[Hashable]:
    # The card just taken from the discard pile was taken in view of everybody.
    others = [
        c for s, hand in enumerate(state.hands) if s != seat for c in hand if c != state.picked
    ]
    return Counter(others + list(state.stock))


def _romme_inventory(state: romme.State) -> Counter[Hashable]:
    cards = [c for hand in state.hands for c in hand] + state.stock + state.discard_pile
    return Counter(cards + [c for meld in state.table.values() for c in meld.cards])


def _tiles_hidden(state: tiles.State, seat: int) -> Counter[Hashable]:
    others = [t for s, rack in enumerate(state.racks) if s != seat for t in rack]
    return Counter(others + list(state.pool))


def _tiles_inventory(state: tiles.State) -> Counter[Hashable]:
    return Counter(state.tile_places().keys())


def _rummoli_hidden(state: rummoli.State, seat: int) -> Counter[Hashable]:
    """Other hands and the widow, but the cards shown face up at the showdown."""
    shown = {index_card(i) for _, cards in state.shown for i in cards}
    others = [
        c for s in range(state.players) if s != seat for c in state.cards_of(s) if c not in shown
    ]
    widow = list(state.widow) if state.widow_known_by != seat else []
    return Counter(others + widow)


def _rummoli_inventory(state: rummoli.State) -> Counter[Hashable]:
    return Counter({"chips": state.total_chips(), "cards": len(state.holder)})


def _toy_hidden(state: toy.State, seat: int) -> Counter[Hashable]:
    return Counter(state.hands[1 - seat] + state.unused)


def _toy_inventory(state: toy.State) -> Counter[Hashable]:
    return Counter(state.hands[0] + state.hands[1] + state.unused + state.trick + state.taken)


CASES = {
    "romme": Case(romme.GAME, romme.Rules(rounds=1), (2, 4), Card, _romme_hidden, _romme_inventory),
    "tiles": Case(tiles.GAME, tiles.Rules(), (2, 3), Tile, _tiles_hidden, _tiles_inventory),
    "rummoli": Case(
        rummoli.GAME,
        rummoli.Rules(hands=2),
        (3, 5),
        Card,
        _rummoli_hidden,
        _rummoli_inventory,
    ),
    "toy": Case(toy.GAME, toy.Rules(), (2,), toy.Card, _toy_hidden, _toy_inventory),
}

MAX_ACTIONS = 600
"""Random Rommé players can draw and discard for a long time: a game is cut after this."""


def _items(value: object, kind: type) -> list[object]:
    """Every card (or tile) a view holds outside its public log, wherever it sits."""
    if isinstance(value, kind):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found: list[object] = []
        for f in dataclasses.fields(value):
            if f.name != "log":
                found += _items(getattr(value, f.name), kind)
        return found
    if isinstance(value, tuple | list):
        return [item for v in value for item in _items(v, kind)]
    return []


def _check_position(case: Case, state: Any, rng: random.Random) -> None:
    game = case.game
    awaited = state.to_move
    for action in state.legal_actions():
        if awaited is None:
            break
        assert state.can_apply(action, awaited), action
        for other in range(state.players):
            if other != awaited:
                assert not state.can_apply(action, other)
    for seat in range(state.players):
        view = state.view(seat)
        hidden = case.hidden(state, seat)
        seen = _items(view, case.item)
        assert not [item for item in seen if hidden[item]], (seat, view)
    if rng.random() < 0.1:
        seat = rng.randrange(state.players)
        view = state.view(seat)
        again = game.view_from_json(json.loads(json.dumps(game.view_to_json(view))))
        assert again == view


def _check_replay(game: GameDescriptor[Any, Any, Any, Any], state: Any) -> None:
    record = state.record(["a"] * state.players)
    assert game.replay(record).dumps() == state.dumps()
    states = list(game.replay_states(record))
    assert len(states) == len(record.actions) + 1
    assert states[-1].dumps() == state.dumps()
    twin = state.copy()
    assert twin.dumps() == state.dumps()
    before = state.dumps()
    if not twin.is_over:
        seat = twin.to_move if twin.to_move is not None else 0
        twin.apply(game.fallback_action(twin, seat))
        assert state.dumps() == before


def play_random_game(case: Case, players: int, seed: int) -> Any:
    """A whole game between random players, every contract check after every action."""
    game = case.game
    state = game.new_game(case.rules, players, seed)
    bots = [game.make_bot("random", seed * 10 + seat) for seat in range(players)]
    rng = random.Random(seed)
    start = case.inventory(state)
    while not state.is_over and len(state.actions) < MAX_ACTIONS:
        _check_position(case, state, rng)
        seat = state.to_move
        if seat is None:
            action = game.fallback_action(state, 0)
        else:
            action = bots[seat].choose(state.view(seat))
        state.apply(action, seat)
        text = json.dumps(game.action_to_json(action))
        assert game.action_from_json(json.loads(text), state.rules) == action
        if game.parse_action is not None:
            assert game.parse_action(str(action), state.rules) == action
        assert case.inventory(state) == start
        if len(state.actions) == 25:
            _check_replay(game, state)
    _check_replay(game, state)
    return state


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_the_contract(name: str, seed: int) -> None:
    case = CASES[name]
    for players in case.players:
        play_random_game(case, players, seed)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_descriptor_describes_the_game(name: str) -> None:
    game = CASES[name].game
    assert game.state_type.game == game.name
    assert game.default_level in game.levels
    for preset in game.presets:
        rules = game.preset(preset)
        assert game.rules_from_json(game.rules_to_json(rules)) == rules
    with pytest.raises(IllegalAction) as err:
        game.action_from_json({"t": "no such action"}, game.preset(game.presets[0]))
    assert err.value.code == "bad_action"
    state = game.new_game(game.preset(game.presets[0]), game.min_players, 5)
    seat = state.to_move
    assert seat is not None
    assert state.can_apply(game.fallback_action(state, seat), seat)
    for level in game.levels:
        bot = game.make_bot(level, 1)
        assert state.can_apply(bot.choose(state.view(seat)), seat)
    if game.hint is not None:
        advice = game.hint(state.view(seat))
        assert advice.action is None or state.can_apply(advice.action, seat)
        assert isinstance(advice.to_json()["reason"], str)
    assert list(game.public_log(state)) == list(state.public_log())
