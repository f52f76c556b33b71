"""Property tests over random whole games under random options.

Random bots play; after every action every tile is in exactly one place and the table is valid.
At each play, mangled versions of it are offered to the engine: a refused one leaves the state
exactly as it was, and on jokerless tables the verdict matches an independent plain-rules oracle.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.core import IllegalAction, Record
from rummykit.tiles.actions import Play, action_from_json
from rummykit.tiles.bots import make_bot
from rummykit.tiles.game import State, replay, replay_states
from rummykit.tiles.model import JokerMeaning, TableSet, read_set, set_value, table_tiles
from rummykit.tiles.rules import Colour, Rules, Tile
from rummykit.tiles.view import View


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (with a rack size the pool can deal), a player count and a seed."""
    players = draw(st.integers(2, 4))
    numbers = draw(st.integers(5, 13))
    copies = draw(st.integers(1, 2))
    jokers = draw(st.integers(0, 4))
    total = numbers * 4 * copies + jokers
    rack_size = draw(st.one_of(st.none(), st.integers(3, min(14, total // players))))
    if rack_size is None and players * (10 if players == 2 else 7) > total:
        rack_size = total // players
    rules = Rules(
        numbers=numbers,
        copies=copies,
        jokers=jokers,
        rack_size=rack_size,
        opening_min=draw(st.sampled_from([0, 12, 30])),
        joker_retrieval=draw(st.sampled_from(["end_only", "anywhere"])),
        joker_penalty=draw(st.sampled_from([0, 30, 50])),
        scoring=draw(st.sampled_from(["leaflet", "classic"])),
        rounds=draw(st.integers(1, 2)),
    )
    return rules, players, draw(st.integers(0, 2**32))


def check_invariants(state: State) -> None:
    """Every tile in exactly one place, the table valid, the views consistent with the state."""
    everywhere = [*state.pool, *table_tiles(state.table), *(t for r in state.racks for t in r)]
    assert Counter(everywhere) == Counter(state.rules.pool())
    for table_set in state.table:
        assert read_set(table_set.tiles, state.rules, table_set.jokers) == table_set
    for seat in range(state.players):
        view = state.view(seat)
        assert view.rack == tuple(state.racks[seat])
        assert sum(view.rack_sizes) + view.pool_size + len(table_tiles(view.table)) == len(
            everywhere
        )
    assert all("tile" not in e for e in state.log if e["code"] == "draw")


def check_round_scores(state: State) -> None:
    for event in state.log:
        if event["code"] != "round_end":
            continue
        values, scores, winner = event["rack_values"], event["scores"], event["winner"]
        if state.rules.scoring == "leaflet":
            assert list(scores) == [0 if s == winner else v for s, v in enumerate(values)]
        elif winner is not None:
            assert sum(scores) == 0 and scores[winner] == sum(values)
        else:
            low = min(values)
            assert all(s == low - v for s, v in zip(scores, values, strict=True) if v != low)


# --- mangling plays and an independent oracle ---------------------------------------------


Cell = tuple[Tile, JokerMeaning | None]


def _cells(table_set: TableSet) -> list[Cell]:
    meanings = iter(table_set.jokers)
    return [(t, next(meanings) if t.is_joker else None) for t in table_set.tiles]


def _build(cells: list[Cell]) -> TableSet:
    return TableSet(tuple(t for t, _ in cells), tuple(m for _, m in cells if m is not None))


def mangle(table: list[TableSet], state: State, rng: random.Random) -> list[TableSet] | None:
    """A random change to a table: drop, move, add, swap, split, merge or re-mean a tile."""
    sets = [_cells(s) for s in table]
    if not sets:
        return None
    kind = rng.randrange(8)
    i = rng.randrange(len(sets))
    if kind == 0 and sets[i]:  # drop a tile
        sets[i].pop(rng.randrange(len(sets[i])))
    elif kind == 1 and len(sets) > 1:  # move a tile to another set
        cell = sets[i].pop(rng.randrange(len(sets[i])))
        j = rng.choice([k for k in range(len(sets)) if k != i])
        sets[j].insert(rng.choice([0, len(sets[j])]), cell)
    elif kind == 2:  # a tile that is not the player's
        assert state.to_move is not None
        others = [t for s, r in enumerate(state.racks) if s != state.to_move for t in r]
        foreign = [t for t in [*others, *state.pool] if not t.is_joker]
        if not foreign:
            return None
        sets[i].append((rng.choice(foreign), None))
    elif kind == 3:  # a whole set missing
        sets.pop(i)
    elif kind == 4 and len(sets[i]) > 1:  # split
        cut = rng.randrange(1, len(sets[i]))
        sets[i : i + 1] = [sets[i][:cut], sets[i][cut:]]
    elif kind == 5 and len(sets) > 1:  # merge
        j = rng.choice([k for k in range(len(sets)) if k != i])
        sets[i] = sets[i] + sets[j]
        sets.pop(j)
    elif kind == 6 and len(sets) > 1:  # swap two tiles between sets
        j = rng.choice([k for k in range(len(sets)) if k != i])
        a, b = rng.randrange(len(sets[i])), rng.randrange(len(sets[j]))
        sets[i][a], sets[j][b] = sets[j][b], sets[i][a]
    elif kind == 7:  # a joker said to stand for something else
        jokers = [(k, n) for k, s in enumerate(sets) for n, (t, _) in enumerate(s) if t.is_joker]
        if not jokers:
            return None
        k, n = rng.choice(jokers)
        meaning = JokerMeaning(rng.randint(1, state.rules.numbers), rng.choice([None, *Colour]))
        sets[k][n] = (sets[k][n][0], meaning)
    else:
        return None
    return [_build(s) for s in sets if s]


def plain_set_ok(tiles: tuple[Tile, ...], numbers: int) -> bool:
    """Groups and runs without jokers, written out from the rules directly."""
    if len(tiles) < 3:
        return False
    nums = [t.number for t in tiles]
    cols = [t.colour for t in tiles]
    if len(set(nums)) == 1:
        return len(set(cols)) == len(cols) <= 4
    if len(set(cols)) == 1:
        first = nums[0]
        assert first is not None
        return nums == list(range(first, first + len(tiles))) and first + len(tiles) - 1 <= numbers
    return False


def plain_oracle(
    rules: Rules, table: list[TableSet], rack: list[Tile], new: list[TableSet], opened: bool
) -> bool:
    """Whether a jokerless turn is legal, by the rules as written in the spec."""
    before, after = table_tiles(table), table_tiles(new)
    if len(set(after)) != len(after) or not set(before) <= set(after):
        return False
    played = set(after) - set(before)
    if not played or not played <= set(rack):
        return False
    if not all(plain_set_ok(s.tiles, rules.numbers) for s in new):
        return False
    if opened:
        return True

    def key(s: TableSet) -> tuple[int, ...]:
        ids = [t.id for t in s.tiles]
        return tuple(sorted(ids)) if len({t.number for t in s.tiles}) == 1 else tuple(ids)

    old = Counter(key(s) for s in table)
    fresh = []
    for s in new:
        if old[key(s)] > 0:
            old[key(s)] -= 1
        else:
            fresh.append(s)
    if +old or any(t in set(before) for s in fresh for t in s.tiles):
        return False
    return sum(sum(t.number or 0 for t in s.tiles) for s in fresh) >= rules.opening_min


def offer_mangled(state: State, play: Play, rng: random.Random, tally: Counter[str]) -> None:
    seat = state.to_move
    assert seat is not None
    before = state.dumps()
    for _ in range(3):
        new = mangle(list(play.table), state, rng)
        if new is None:
            continue
        action = Play(tuple(new))
        try:
            state.check_play(action)
            verdict = True
        except IllegalAction as err:
            verdict = False
            tally[err.code] += 1
            assert not state.can_apply(action)
            try:
                state.apply(action)
            except IllegalAction as again:
                assert again.code == err.code
            assert state.dumps() == before
        jokerless = not any(t.is_joker for t in [*table_tiles(state.table), *table_tiles(new)])
        if jokerless:
            expected = plain_oracle(
                state.rules, state.table, state.racks[seat], new, state.opened[seat]
            )
            assert verdict == expected, (state.table, new)
            tally["oracle"] += 1
        if verdict:
            trial = state.copy()
            trial.apply(action)
            check_invariants(trial)


@settings(max_examples=20, deadline=None)
@given(games(), st.integers(0, 1000))
def test_random_games_keep_every_tile_in_one_place_and_refuse_mangled_plays(
    game: tuple[Rules, int, int], bot_seed: int
) -> None:
    rules, players, seed = game
    state = State(rules, players, seed)
    bots = [make_bot("random", bot_seed + seat) for seat in range(players)]
    rng = random.Random(seed ^ bot_seed)
    tally: Counter[str] = Counter()
    check_invariants(state)
    while not state.is_over:
        seat = state.to_move if state.to_move is not None else rng.randrange(players)
        action = bots[seat].choose(state.view(seat))
        if isinstance(action, Play):
            assert action_from_json(action.to_json(), rules) == action
            if rng.random() < 0.5:
                offer_mangled(state, action, rng, tally)
        state.apply(action, seat)
        check_invariants(state)
    check_round_scores(state)
    record = state.record(["a", "b", "c", "d"][:players])
    assert Record.loads(record.dumps()) == record
    assert replay(record).dumps() == state.dumps()
    view = state.view(0)
    assert View.from_json(view.to_json()) == view


def test_the_mangled_plays_meet_every_refusal_and_the_oracle_often() -> None:
    """The property above is not vacuous: over a few fixed games the mangled plays hit the main
    refusal codes and the plain oracle decides many of them."""
    tally: Counter[str] = Counter()
    played = moved_jokers = 0
    for seed in range(6):
        rules = Rules(jokers=seed % 3, joker_retrieval="anywhere" if seed % 2 else "end_only")
        state = State(rules, 2 + seed % 3, seed)
        bots = [make_bot("random", seed * 7 + s) for s in range(state.players)]
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.to_move if state.to_move is not None else 0
            action = bots[seat].choose(state.view(seat))
            if isinstance(action, Play):
                offer_mangled(state, action, rng, tally)
                played += 1
            state.apply(action, seat)
        moved_jokers += sum(len(e["jokers_moved"]) for e in state.log if e["code"] == "play")
    for code in ("table_tile_missing", "tile_not_held", "set_too_small", "invalid_set"):
        assert tally[code] > 0, tally
    assert tally["oracle"] > 100 and played > 100, (tally, played)


def test_replay_states_rebuilds_every_step() -> None:
    state = State(Rules(rounds=2), 3, seed=8)
    bots = [make_bot("random", s) for s in range(3)]
    dumps = [state.dumps()]
    while not state.is_over:
        seat = state.to_move if state.to_move is not None else 0
        state.apply(bots[seat].choose(state.view(seat)), seat)
        dumps.append(state.dumps())
    states = list(replay_states(state.record()))
    assert [s.dumps() for s in states] == dumps


def test_every_play_of_a_random_game_is_described_step_by_step() -> None:
    state = State(Rules(jokers=4, joker_retrieval="anywhere"), 2, seed=4)
    bots = [make_bot("random", s) for s in range(2)]
    seen: Counter[str] = Counter()
    while not state.is_over:
        seat = state.to_move if state.to_move is not None else 0
        start = len(state.log)
        state.apply(bots[seat].choose(state.view(seat)), seat)
        plays = [e for e in state.log[start:] if e["code"] == "play"]
        if not plays:
            continue
        event = plays[0]
        laid = [w for s in event["steps"] if s["code"] == "laid" for w in s["tiles"].split()]
        assert sorted(laid) == sorted(event["tiles"].split())
        seen.update(s["code"] for s in event["steps"])
    assert seen["laid"] and seen["new_set"] and seen["set_changed"], seen


def test_a_first_meld_value_is_the_sum_of_the_new_sets() -> None:
    state = State(Rules(), 2, seed=21)
    bots = [make_bot("random", s) for s in range(2)]
    while not state.is_over:
        seat = state.to_move if state.to_move is not None else 0
        before, start = list(state.table), len(state.log)
        state.apply(bots[seat].choose(state.view(seat)), seat)
        for e in state.log[start:]:
            if e["code"] == "play" and e["first_meld"]:
                fresh = [s for s in state.table if s not in before]
                assert e["value"] == sum(set_value(s) for s in fresh) >= 30
