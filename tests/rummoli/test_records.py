"""Records, replay, JSON round-trips, and what a view may show."""

from __future__ import annotations

import json
import random
import re

from rummykit.cards import Card
from rummykit.core import Record
from rummykit.rummoli import (
    Bet,
    Bid,
    Call,
    Check,
    Fold,
    KeepHand,
    Pass,
    Phase,
    Play,
    Raise,
    Rules,
    Start,
    State,
    SwapWidow,
    action_from_json,
    parse_action,
    replay,
    replay_states,
)
from rummykit.rummoli.bots import make_bot
from rummykit.rummoli.view import Event, View

from .helpers import Table

CARD = re.compile(r"(?:10|[2-9JQKA])[♣♠♥♦]")

ALL_ACTIONS = [
    SwapWidow(),
    KeepHand(),
    Bid(3),
    Pass(),
    Check(),
    Bet(2),
    Call(),
    Raise(5),
    Fold(),
    Play(Card.parse("10♦")),
]


def test_every_action_round_trips_through_json_text_and_repr() -> None:
    namespace = {type(a).__name__: type(a) for a in ALL_ACTIONS} | {"Card": Card}
    for action in ALL_ACTIONS:
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        assert parse_action(str(action)) == action
        assert eval(repr(action), namespace) == action


def play_random(state: State, rng: random.Random, steps: int = 10_000) -> State:
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_record_replays_to_the_same_state() -> None:
    rng = random.Random(1)
    for n, rules in enumerate([Rules(hands=3), Rules.preset("betting").replace(hands=2)]):
        state = play_random(State(rules, 3 + n, seed=40 + n), rng)
        record = state.record(["Ann", "Bo", "Cy", "Di"][: 3 + n])
        again = replay(Record.loads(record.dumps()))
        assert again.snapshot() == state.snapshot()
        assert again.events == state.events


def test_a_record_of_an_unfinished_game_replays_to_the_same_decision() -> None:
    state = State(Rules(), 4, seed=5)
    state.apply(KeepHand())
    state.apply(Bid(2))
    again = replay(state.record().to_json())
    assert again.snapshot() == state.snapshot() and again.to_move == 2


def test_a_game_from_a_given_table_records_its_start() -> None:
    t = Table("2♣ 2♥ 9♠ 9♦", "5♣ 6♦ K♠", chips=[30, 20], board={}).keep_and_pass()
    t.state.apply(Play(Card.parse("2♥")))
    record = t.state.record()
    assert record.rules["start"]["hands"] == [["2♣", "2♥", "9♠", "9♦"], ["5♣", "6♦", "K♠"]]
    assert replay(Record.loads(record.dumps())).snapshot() == t.state.snapshot()


def test_replay_states_gives_the_state_before_and_after_every_action() -> None:
    state = play_random(State(Rules(hands=2), 3, seed=9), random.Random(2))
    states = list(replay_states(state.record()))
    assert len(states) == len(state.actions) + 1
    assert states[0].actions == [] and states[-1].snapshot() == state.snapshot()
    for before, after, action in zip(states, states[1:], state.actions, strict=False):
        assert before.can_apply(action)
        assert after.actions[-1] == action


def test_a_view_is_plain_json() -> None:
    state = State(Rules(poker="betting"), 4, seed=3)
    view = state.view(0)
    data = json.loads(json.dumps(view.to_json(), ensure_ascii=False))
    assert data["hand"] == [c.code for c in state.cards_of(0)]
    assert data["legal"] == [{"t": "swap_widow"}, {"t": "keep_hand"}]
    assert data["widow"] is None and data["hand_counts"] == [10, 11, 11, 10]
    assert data["board"]["rummoli"] == 4 and data["to_move"] == 0


def _public_cards(state: State, view: View) -> set[str]:
    """Cards a seat may see named: its own, the played ones, those shown at a showdown of this
    hand, the missing cards of stops, and a dead widow it knows."""
    seen = {c.code for c in view.hand} | {c.code for _, c in view.plays}
    for event in view.log:
        if event["code"] in ("poker_show", "final_show"):
            seen.update(event["cards"])
        for key in ("card", "missing"):
            if isinstance(event.get(key), str):
                seen.add(event[key])
    if view.widow is not None:
        seen |= {c.code for c in view.widow}
    return seen


def test_a_view_never_names_a_hidden_card() -> None:
    rng = random.Random(4)
    for game in range(12):
        rules = Rules(poker=rng.choice(["showdown", "betting"]), hands=2)
        state = State(rules, rng.randint(2, 6), seed=game)
        bots = [make_bot("random", game * 10 + s) for s in range(state.players)]
        while not state.is_over:
            for seat in range(state.players):
                view = state.view(seat)
                hidden = set()
                for other in range(state.players):
                    if other != seat:
                        hidden |= {c.code for c in state.cards_of(other)}
                hidden |= {c.code for c in state.widow}
                named = set(CARD.findall(json.dumps(view.to_json(), ensure_ascii=False)))
                leaked = (named & hidden) - _public_cards(state, view)
                assert not leaked, (seat, leaked)
                if view.widow is not None:
                    assert state.view((seat + 1) % state.players).widow is None
            mover = state.to_move
            assert mover is not None
            state.apply(bots[mover].choose(state.view(mover)), mover)


def test_the_seat_that_gave_up_its_hand_alone_sees_the_dead_widow() -> None:
    state = State(Rules(), 3, seed=12, start=Start(dealer=1))
    old = state.cards_of(1)
    state.apply(SwapWidow())
    assert state.view(1).widow == old
    assert state.view(0).widow is None and state.view(2).widow is None
    assert state.view(None).hand == () and state.view(None).widow is None


def test_a_listener_sees_every_event_after_its_effect_with_nobody_to_move() -> None:
    seen: list[tuple[str, Phase, int | None, int]] = []

    def listen(event: Event, state: State) -> None:
        seen.append((str(event["code"]), state.phase, state.to_move, state.total_chips()))
        state.view(0)  # a view can be taken at any step

    state = State(Rules(hands=2), 3, seed=1, listener=listen)
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert len(seen) == len(state.events)
    assert all(total == 120 for *_, total in seen)
    assert all(phase is Phase.PLAYING and to_move is None for _, phase, to_move, _ in seen[:-1])
    assert seen[-1][:2] == ("game_over", Phase.OVER)
