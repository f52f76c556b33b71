"""The solver is exact: it agrees with independent references on thousands of random positions.

- the dynamic program against an exhaustive search on small count problems (every feature:
  kept table jokers, freed jokers, group jokers, first-meld values);
- the whole solver against an exhaustive search judged by the engine's own turn check, on tiny
  tile positions with table jokers (the joker rules as the engine applies them);
- most tiles and first melds against the outside package ``rummikub-solver`` (2,000 positions),
  equal without jokers and never below it with rack jokers (its list of sets leaves out a few
  with jokers; it counts table jokers as free, so positions with table jokers are left out);
- most value against an integer program of our own (HiGHS), jokers on the rack included;
- every play is accepted by the engine, counted the same, and at least as good as a plain
  greedy play.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scale import scaled

from rummykit.bench.tiles_solver import ReferenceSolver, random_position
from rummykit.tiles import Rules, TableSet, Tile, check_turn, solve
from rummykit.tiles.solver import Solution
from rummykit.tiles.solver_dp import CountProblem, solve_counts

from .brute import best_counts, best_tiles
from .reference import counts_of, greedy_play, ilp_best


def accepted(
    rack: list[Tile], table: list[TableSet], rules: Rules, found: Solution, first_meld: bool
) -> None:
    if not found.is_play:
        assert found.sets == tuple(table)
        return
    check = check_turn(rules, table, rack, found.sets, opened=not first_meld)
    assert sorted(t.id for t in check.played) == sorted(t.id for t in found.played)
    assert check.value == found.value


def small_count_problem(rng: random.Random) -> CountProblem:
    numbers = rng.randint(3, 7)
    table = [[0] * 4 for _ in range(numbers + 1)]
    rack = [[0] * 4 for _ in range(numbers + 1)]
    kept = [[0] * 4 for _ in range(numbers + 1)]
    for _ in range(rng.randint(1, 9)):
        n, c, kind = rng.randint(1, numbers), rng.randrange(4), rng.random()
        if table[n][c] + rack[n][c] >= 2:
            continue
        if kind < 0.3:
            table[n][c] += 1
        elif kind < 0.93:
            rack[n][c] += 1
        else:
            kept[n][c] += 1
    group_kept = [0] * (numbers + 1)
    group_fixed: list[tuple[int, ...]] = [()] * (numbers + 1)
    if rng.random() < 0.25:
        group_kept[rng.randint(1, numbers)] += 1
    if rng.random() < 0.25:
        group_fixed[rng.randint(1, numbers)] = (rng.randrange(4),)
    table_jokers = rng.choice((0, 0, 0, 1, 2))
    opening = not any(map(any, table)) and not table_jokers and rng.random() < 0.3
    return CountProblem(
        numbers,
        table,
        rack,
        kept,
        rng.choice((0, 0, 1, 1, 2, 3)),
        table_jokers,
        rng.choice(("value", "count")),
        rng.choice((10, 20)) if opening else 0,
        None,
        group_kept,
        group_fixed,
    )


def test_dynamic_program_matches_exhaustive_search_on_small_count_problems() -> None:
    rng = random.Random(20240501)
    for _ in range(700):
        problem = small_count_problem(rng)
        found = solve_counts(problem)
        expected = best_counts(problem)
        got = (found.primary, found.secondary) if found.feasible else None
        assert got == expected, problem


def test_solver_matches_the_engine_judged_exhaustive_search() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 220:
        rules = Rules(
            numbers=rng.randint(4, 7),
            joker_retrieval=rng.choice(("end_only", "anywhere")),
        )
        on_table = rng.choice((0, 1, 1, 2))
        rack, table = random_position(
            rng,
            rules,
            table_size=rng.randint(0, 7),
            rack_size=rng.randint(1, 4),
            table_jokers=on_table,
            rack_jokers=rng.choice((0, 0, 1)) if on_table < 2 else 0,
        )
        if sum(len(s.tiles) for s in table) > 8:
            continue
        objective = rng.choice(("value", "count"))
        first_meld = rng.random() < 0.2
        found = solve(rack, table, rules, objective, first_meld)
        accepted(rack, table, rules, found, first_meld)
        assert found.score(objective) == best_tiles(rack, table, rules, objective, first_meld)
        checked += 1


def game_position(rng: random.Random, rules: Rules) -> tuple[list[Tile], list[TableSet]]:
    """A position without table jokers (the reference counts them as free); with two rack
    jokers the table is kept to 24 tiles, which keeps the run short."""
    jokers = rng.choice((0, 0, 0, 1, 2))
    return random_position(
        rng,
        rules,
        table_size=rng.randint(0, 60 if jokers < 2 else 24),
        rack_size=rng.randint(1, 18),
        rack_jokers=jokers,
    )


@pytest.fixture(scope="module")
def reference() -> ReferenceSolver:
    return ReferenceSolver(Rules())


@pytest.mark.parametrize("chunk", range(4))
def test_most_tiles_matches_rummikub_solver(chunk: int, reference: ReferenceSolver) -> None:
    rng = random.Random(1000 + chunk)
    rules = Rules()
    for _ in range(scaled(120)):
        rack, table = game_position(rng, rules)
        found = solve(rack, table, rules, "count")
        accepted(rack, table, rules, found, False)
        theirs = reference.most_tiles(rack, table, initial=False)
        if any(t.is_joker for t in rack):
            assert found.count >= theirs
        else:
            assert found.count == theirs
        greedy = greedy_play(rack, table, rules)
        if greedy is not None:
            assert found.count >= sum(len(s.tiles) for s in greedy[0]) - sum(
                len(s.tiles) for s in table
            )


@pytest.mark.parametrize("chunk", range(2))
def test_first_meld_matches_rummikub_solver(chunk: int, reference: ReferenceSolver) -> None:
    rng = random.Random(2000 + chunk)
    rules = Rules()
    pool = [t for t in rules.pool() if not t.is_joker]
    for _ in range(scaled(150)):
        rack = rng.sample(pool, rng.randint(6, 16))
        jokers = rng.choice((0, 0, 0, 1))
        rack += [Tile.joker(i) for i in range(jokers)]
        found = solve(rack, (), rules, "count", first_meld=True)
        accepted(rack, [], rules, found, True)
        assert not found.is_play or found.value >= rules.opening_min
        theirs = reference.most_tiles(rack, (), initial=True)
        if jokers:
            assert found.is_play or theirs == 0
        else:
            assert found.count == theirs


@pytest.mark.parametrize("chunk", range(2))
def test_most_value_matches_an_integer_program(chunk: int) -> None:
    rng = random.Random(3000 + chunk)
    rules = Rules()
    for _ in range(150):
        rack, table = game_position(rng, rules)
        objective = rng.choice(("value", "value", "count"))
        found = solve(rack, table, rules, objective)
        accepted(rack, table, rules, found, False)
        assert found.score(objective) == ilp_best(counts_of(rack, table, rules, objective))
        greedy = greedy_play(rack, table, rules)
        if greedy is not None and objective == "value":
            assert found.value >= greedy[1]


def test_large_puzzle_with_numbers_to_100_matches_the_integer_program() -> None:
    rng = random.Random(5)
    rules = Rules(numbers=100)
    rack = rng.sample([t for t in rules.pool() if not t.is_joker], 320)
    found = solve(rack, (), rules, "count")
    accepted(rack, [], rules, found, False)
    assert found.count == ilp_best(counts_of(rack, [], rules, "count"))


@given(st.randoms(use_true_random=False), st.sampled_from(("value", "count")))
def test_any_position_gets_a_legal_play_as_good_as_greedy_with_or_without_the_table_kept(
    rng: random.Random, objective: str
) -> None:
    rules, rack, table = _any_position(rng)
    kept = solve(rack, table, rules, objective)  # type: ignore[arg-type]
    accepted(rack, table, rules, kept, False)
    greedy = greedy_play(rack, table, rules)
    if greedy is not None and objective == "value":
        assert kept.value >= greedy[1]
    any_table = solve(rack, table, rules, objective, keep_table=False)  # type: ignore[arg-type]
    accepted(rack, table, rules, any_table, False)
    score = (lambda s: s.count) if objective == "count" else (lambda s: s.value)
    assert score(any_table) == score(kept)


def _any_position(rng: random.Random) -> tuple[Rules, list[Tile], list[TableSet]]:
    """Rules with either joker retrieval and a random position with 0–2 jokers."""
    rules = Rules(joker_retrieval=rng.choice(("end_only", "anywhere")))
    on_table = rng.choice((0, 1, 2))
    rack, table = random_position(
        rng,
        rules,
        table_size=rng.randint(0, 45),
        rack_size=rng.randint(1, 14),
        table_jokers=on_table,
        rack_jokers=rng.randint(0, 2 - on_table),
    )
    return rules, rack, table
