"""Actions in JSON and text, views, records and replays."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummykit.core import IllegalAction, Record
from rummykit.romme import (
    Discard,
    Draw,
    Exchange,
    LayOff,
    NewMeld,
    NextRound,
    Play,
    Rules,
    State,
    View,
    action_from_json,
    parse_action,
    replay,
    replay_states,
)
from rummykit.romme.bots import make_bot

from .helpers import act, card, cards, turn

ACTIONS = [
    Draw("stock"),
    Draw("discard"),
    Discard(card("8♠#1")),
    NextRound(),
    Play.of("J♣ Q♣ K♣"),
    Play(
        melds=(
            NewMeld(tuple(cards("JK 5♥ JK#1")), kind="group"),
            NewMeld(tuple(cards("6♣ 5♣ JK#2")), jokers=((card("JK#2"), card("4♣")),)),
        ),
        layoffs=(LayOff(card("A♣"), 3, "high"), LayOff(card("8♦"), 1)),
        exchanges=(Exchange(2, card("JK#3"), card("7♥#1")),),
    ),
]


@pytest.mark.parametrize("action", ACTIONS, ids=str)
def test_every_action_round_trips_through_json_text_and_repr(action: Any) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert data["t"] in ("draw", "discard", "next_round", "play")
    assert action_from_json(data) == action
    assert action_from_json(json.dumps(data)) == action
    assert parse_action(str(action)) == action
    namespace = {"Draw": Draw, "Discard": Discard, "NextRound": NextRound, "Play": Play}
    assert eval(repr(action), namespace) == action


def test_action_json_accepts_card_codes_as_well_as_ids() -> None:
    assert action_from_json({"t": "discard", "card": "8♠#1"}) == Discard(card("8♠#1"))
    play = action_from_json({"t": "play", "melds": [{"cards": ["J♣", "Q♣", "K♣"]}]})
    assert play == Play.of("J♣ Q♣ K♣")


@pytest.mark.parametrize(
    "garbage",
    [
        None,
        42,
        "not json",
        "[]",
        {},
        {"t": "fly"},
        {"t": "draw", "source": "floor"},
        {"t": "draw", "extra": 1},
        {"t": "discard"},
        {"t": "discard", "card": 110},
        {"t": "discard", "card": "8X"},
        {"t": "discard", "card": True},
        {"t": "play", "melds": "J♣ Q♣ K♣"},
        {"t": "play", "melds": [{"cards": [1, 2, 3], "kind": "square"}]},
        {"t": "play", "melds": [{"cards": [1, 2, 3], "jokers": [[104]]}]},
        {"t": "play", "layoffs": [{"card": 0, "meld": "0"}]},
        {"t": "play", "layoffs": [{"card": 0, "meld": 0, "end": "middle"}]},
        {"t": "play", "exchanges": [{"meld": 0, "joker": 104}]},
        {"t": "play", "exchanges": [5]},
    ],
)
def test_garbage_json_is_rejected_as_bad_action(garbage: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        action_from_json(garbage)
    assert info.value.code == "bad_action"


@pytest.mark.parametrize(
    "text", ["", "fly", "draw floor", "discard", "discard 8X", "play [J♣ Q♣", "play ?", "next"]
)
def test_garbage_text_is_rejected(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(text)
    assert info.value.code in ("bad_action", "bad_card")


# --- views ---------------------------------------------------------------------------------


def test_view_shows_own_hand_others_sizes_table_pile_stock_scores_turn_phase_rules() -> None:
    game = turn("J♣ Q♣ K♣ 4♦ 9♣", stock="2♣#1", discard_pile="3♠#1", others=["9♥ 9♦ JK"])
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣]")
    view = game.view(1)
    assert view.seat == 1 and view.hand == tuple(cards("9♥ 9♦ JK"))
    assert view.hand_sizes == (3, 3) and view.opened == (True, False)
    assert [m.cards for m in view.table] == [tuple(cards("J♣ Q♣ K♣"))]
    assert view.discard_pile == tuple(cards("3♠#1"))
    assert view.stock_size == len(game.stock)
    assert view.scores == (0, 0) and view.to_move == 0 and view.phase == "discard"
    assert view.rules == game.rules
    assert card("2♣#1") not in view.hand
    text = json.dumps(view.to_json())
    assert str(card("4♦").id) not in json.dumps(view.to_json()["hand"])
    assert View.from_json(json.loads(text)) == view


def test_view_log_never_names_a_card_drawn_from_the_stock_but_names_a_pickup() -> None:
    game = turn(
        "J♣ Q♣ 4♦ 9♣",
        rules=Rules(deal_style="upcard", discard_pickup="free"),
        stock="2♣#1",
        discard_pile="K♣",
        others=["9♥ 9♦ JK 5♠"],
    )
    act(game, "draw discard")
    act(game, "discard 4♦")
    act(game, "draw stock")
    log = game.view(0).log
    assert log[-3] == {"code": "draw", "seat": 0, "source": "discard", "card": card("K♣").id}
    assert log[-1] == {"code": "draw", "seat": 1, "source": "stock"}


def test_view_of_a_spectator_has_no_hand_and_bad_seats_are_refused() -> None:
    game = State(players=3, seed=1)
    assert game.view(None).hand == ()
    for seat in (-1, 3, True):
        with pytest.raises(IllegalAction) as info:
            game.view(seat)  # type: ignore[arg-type]
        assert info.value.code == "bad_seat"


def test_view_json_garbage_is_refused() -> None:
    for data in ({}, {"seat": 0}, [], None):
        with pytest.raises(IllegalAction) as info:
            View.from_json(data)
        assert info.value.code in ("bad_view", "bad_rules")


# --- records and replay --------------------------------------------------------------------


def _bot_game(rules: Rules, players: int, seed: int) -> State:
    game = State(rules, players, seed)
    bots = [make_bot("random", seed + s) for s in range(players)]
    while not game.is_over:
        seat = game.to_move
        game.apply(bots[seat or 0].choose(game.view(seat if seat is not None else 0)), seat)
    return game


def test_record_json_round_trip_and_replay_rebuild_the_same_game() -> None:
    game = _bot_game(Rules.preset("computer").replace(rounds=2), 3, 21)
    record = game.record(["Ann", "random", "random"])
    assert record.game == "romme" and record.seats == ("Ann", "random", "random")
    again = Record.loads(record.dumps())
    assert again == record
    assert replay(again).dumps() == game.dumps()


def test_replay_states_yields_the_start_then_each_action() -> None:
    game = _bot_game(Rules(rounds=1), 2, 5)
    states = list(replay_states(game.record()))
    assert len(states) == len(game.actions) + 1
    assert states[0].actions == () and states[-1].dumps() == game.dumps()
    assert all(len(s.actions) == i for i, s in enumerate(states))


def test_replay_refuses_other_games_and_illegal_records() -> None:
    game = State(players=2, seed=1)
    record = game.record()
    with pytest.raises(IllegalAction) as info:
        replay(Record("tiles", record.rules, 1, record.seats, ()))
    assert info.value.code == "bad_record"
    bad = Record("romme", record.rules, 1, record.seats, ({"t": "draw", "source": "stock"},))
    with pytest.raises(IllegalAction) as info:
        replay(bad)  # the first player of a standard deal does not draw
    assert info.value.code == "already_drawn"


def test_a_forced_deal_has_no_record() -> None:
    game = turn("J♣ Q♣ K♣ 4♦")
    with pytest.raises(IllegalAction) as info:
        game.record()
    assert info.value.code == "no_record"
