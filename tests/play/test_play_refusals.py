"""More refusals through the API, from positions reached by playing: the discard pile under the
standard rule, a player who has opened, tile rummy's table rules. Deals are chosen by seed and
the computer's turns in between are played beforehand with the same bots and seeds."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.romme.solver import best_opening
from rummykit.romme.turn import lay_off
from rummykit.tiles.bots import make_bot as tile_bot

from .helpers import act, bots_until_seat0, romme_seed, seeded, settle, tiles_seed, view

THREE = ("human", "bot:random", "bot:random")
TWO = ("human", "bot:random")


def refused(
    client: TestClient, game_id: str, token: str, action: dict[str, Any], code: str
) -> None:
    answer = act(client, game_id, token, action)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == code, answer.json()
    assert answer.json()["error"]["message"]


def first_discard(state: romme.State) -> romme.Discard:
    return romme.Discard(min(state.hands[0], key=lambda c: c.id))


def after_first_turn(state: romme.State, seats: tuple[str, ...], opening: bool) -> bool:
    """Play seat 0's first turn (its best opening, if asked) and the computer's turns after."""
    if opening:
        arrangement = best_opening(state.hands[0], state.rules)
        play = arrangement.play() if arrangement is not None else None
        if play is None or not state.can_apply(play) or len(arrangement.left) < 2:
            return False
        state.apply(play)
    state.apply(first_discard(state))
    bots_until_seat0("romme", state, seats, state.seed)
    return state.to_move == 0 and state.phase == "draw"


@pytest.mark.parametrize("usable", [False, True])
def test_the_standard_rule_takes_the_discard_only_to_meld_it(
    client: TestClient, usable: bool
) -> None:
    rules = romme.Rules.preset("standard")

    def wanted(state: romme.State) -> bool:
        return after_first_turn(state, THREE, False) and state.view(0).can_take_discard == usable

    seed = romme_seed(rules, 3, wanted)
    game_id, tokens = seeded(client, "romme", rules.to_json(), seed)
    token = tokens[0]
    state = romme.State(rules, 3, seed)
    first = act(client, game_id, token, first_discard(state).to_json())
    assert first.status_code == 200
    settle(client, game_id)
    mine = view(client, game_id, token)
    assert mine["can_take_discard"] is usable and mine["phase"] == "draw"
    top = mine["discard"][-1]
    if not usable:
        refused(client, game_id, token, {"t": "draw", "source": "discard"}, "discard_unusable")
        return
    assert act(client, game_id, token, {"t": "draw", "source": "discard"}).status_code == 200
    other = next(c for c in mine["hand"])
    refused(client, game_id, token, {"t": "discard", "card": top}, "discard_picked_card")
    refused(client, game_id, token, {"t": "discard", "card": other}, "picked_card_unused")


def test_refusals_after_opening(client: TestClient) -> None:
    rules = romme.Rules.preset("computer")
    seed = romme_seed(rules, 3, lambda s: after_first_turn(s, THREE, True))
    state = romme.State(rules, 3, seed)
    arrangement = best_opening(state.hands[0], rules)
    assert arrangement is not None
    play = arrangement.play()
    assert play is not None
    game_id, tokens = seeded(client, "romme", rules.to_json(), seed)
    token = tokens[0]
    opened = act(client, game_id, token, play.to_json())
    assert opened.status_code == 200, opened.text
    assert opened.json()["opened"][0] is True and opened.json()["phase"] == "discard"
    refused(
        client,
        game_id,
        token,
        {"t": "play", "melds": [{"cards": ["A♣", "2♣", "3♣"]}]},
        "already_played",
    )
    state.apply(play)
    assert act(client, game_id, token, first_discard(state).to_json()).status_code == 200
    settle(client, game_id)
    assert act(client, game_id, token, {"t": "draw"}).status_code == 200
    mine = view(client, game_id, token)
    hand = [Card.parse(c) for c in mine["hand"]]
    natural = next(c for c in hand if not c.is_joker)
    table = {m["id"]: m for m in mine["table"]}
    own = next(m for m in mine["table"] if m["owner"] == 0)
    meld = romme.TableMeld(
        tuple(Card.parse(c) for c in own["cards"]), own["kind"], own["owner"], own["id"]
    )
    misfit = None
    for card in hand:
        try:
            lay_off(meld, card)
        except Exception:
            misfit = card
            break
    assert misfit is not None
    stranger_joker = next(
        Card.joker(i).code
        for i in range(6)
        if all(Card.joker(i).code not in m["cards"] for m in table.values())
    )
    refused(
        client,
        game_id,
        token,
        {"t": "play", "layoffs": [{"card": natural.code, "meld": 99}]},
        "unknown_meld",
    )
    refused(
        client,
        game_id,
        token,
        {"t": "play", "layoffs": [{"card": misfit.code, "meld": own["id"]}]},
        "invalid_layoff",
    )
    refused(
        client,
        game_id,
        token,
        {
            "t": "play",
            "exchanges": [{"meld": own["id"], "joker": stranger_joker, "card": natural.code}],
        },
        "joker_not_in_meld",
    )
    refused(
        client,
        game_id,
        token,
        {
            "t": "play",
            "exchanges": [{"meld": own["id"], "joker": natural.code, "card": natural.code}],
        },
        "not_a_joker",
    )
    refused(
        client,
        game_id,
        token,
        {
            "t": "play",
            "exchanges": [{"meld": own["id"], "joker": stranger_joker, "card": stranger_joker}],
        },
        "exchange_needs_natural",
    )
    refused(
        client,
        game_id,
        token,
        {"t": "play", "melds": [{"cards": [natural.code, natural.code, hand[1].code]}]},
        "card_used_twice",
    )


def test_tile_rummy_table_rules(client: TestClient) -> None:
    rules = tiles.Rules(rack_size=14)

    # A deal where seat 0 opens at once (the strongest bot's first meld), then the computer.
    def opens(state: tiles.State) -> bool:
        move = tile_bot("greedy", 1).choose(state.view(0))
        if not isinstance(move, tiles.Play):
            return False
        state.apply(move)
        bots_until_seat0("tiles", state, TWO, state.seed)
        return state.to_move == 0

    seed = tiles_seed(rules, 2, opens)
    state = tiles.State(rules, 2, seed)
    move = tile_bot("greedy", 1).choose(state.view(0))
    game_id, tokens = seeded(client, "tiles", rules.to_json(), seed, TWO)
    token = tokens[0]
    assert act(client, game_id, token, move.to_json()).status_code == 200
    settle(client, game_id)
    mine = view(client, game_id, token)
    sets = [" ".join(s["tiles"]) for s in mine["table"]]
    refused(client, game_id, token, {"t": "play", "table": sets[1:]}, "table_tile_missing")
    refused(client, game_id, token, {"t": "play", "table": sets}, "no_rack_tile_played")
    duplicated = [*sets, sets[0]]
    refused(client, game_id, token, {"t": "play", "table": duplicated}, "bad_action")


def test_a_first_meld_may_not_use_the_table(client: TestClient) -> None:
    rules = tiles.Rules(rack_size=14)

    def computer_lays_first(state: tiles.State) -> bool:
        if state.to_move != 1:
            return False
        bots_until_seat0("tiles", state, ("human", "bot:greedy"), state.seed)
        return state.to_move == 0 and bool(state.table) and not state.opened[0]

    for seed in range(1, 5000):
        if computer_lays_first(tiles.State(rules, 2, seed)):
            break
    else:
        raise AssertionError("no such deal")
    game_id, tokens = seeded(client, "tiles", rules.to_json(), seed, ("human", "bot:greedy"))
    token = tokens[0]
    view(client, game_id, token)
    settle(client, game_id)
    mine = view(client, game_id, token)
    assert mine["to_move"] == 0 and mine["table"] and not mine["opened"][0]
    first = mine["table"][0]["tiles"]
    rest = [" ".join(s["tiles"]) for s in mine["table"][1:]]
    borrowed = [" ".join(first[1:]), f"{first[0]} {mine['rack'][0]} {mine['rack'][1]}"]
    refused(
        client, game_id, token, {"t": "play", "table": [*borrowed, *rest]}, "first_meld_uses_table"
    )
