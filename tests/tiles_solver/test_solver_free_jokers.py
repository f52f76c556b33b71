"""Free jokers past the depth-first budget, and scans that share the states of the highest numbers.

When the depth-first search runs over its budget, a narrow scan finds a play and the exact scan,
with a target one above it, proves that nothing beats it (or finds what does). Small positions
rarely reach the budget, so here it is set to 0 and the narrow scan made narrower still (one
entry), which makes it miss the optimum often: the answer must still be the exhaustive search's,
with one and two jokers, on the rack and freed from the table. Scans with a target may start
from the states a scan of a position agreeing on the highest numbers left in a shared memory:
a series of such positions solved with one memory must give what each gives alone.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.bench.tiles_solver import Position, random_position
from rummykit.tiles import Rules, solve, solver_dp
from rummykit.tiles.solver_dp import CountProblem, Memory, solve_counts

from .brute import best_counts, best_tiles
from .test_solver_exact import accepted, small_count_problem


@pytest.fixture(params=(1, 16), ids=("beam-1", "beam-16"))
def past_budget(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """No depth-first stage allowed; a narrow scan of ``request.param`` entries per number."""
    monkeypatch.setattr(solver_dp, "DEEP_BUDGET", 0)
    monkeypatch.setattr(solver_dp, "BEAM", request.param)
    monkeypatch.setattr(solver_dp, "WIDEN", 1 if request.param == 1 else 4)
    return int(request.param)


def with_free_jokers(rng: random.Random) -> CountProblem:
    """A small count problem with one or two free jokers, ties unbroken, no target."""
    problem = small_count_problem(rng)
    rack_jokers = rng.choice((0, 1, 1, 2, 2))
    table_jokers = rng.choice((0, 0, 1, 2)) if rack_jokers < 2 else 0
    if rack_jokers + table_jokers == 0:
        rack_jokers = 1
    return replace(
        problem,
        rack_jokers=rack_jokers,
        table_jokers=table_jokers,
        tie_break=False,
        target=None,
    )


def small_play_with_jokers(rng: random.Random) -> tuple[Rules, Position] | None:
    """Rules of 4 to 7 numbers and a position with one or two jokers on the rack or the table,
    small enough for the exhaustive search (None when its table came out too large)."""
    rules = Rules(
        numbers=rng.randint(4, 7),
        joker_retrieval=rng.choice(("end_only", "anywhere")),
    )
    on_table = rng.choice((0, 1, 1, 2))
    on_rack = rng.choice((1, 1, 2)) if on_table == 0 else rng.choice((0, 1))
    rack, table = random_position(
        rng,
        rules,
        table_size=rng.randint(0, 7),
        rack_size=rng.randint(1, 4),
        table_jokers=on_table,
        rack_jokers=min(on_rack, 2 - on_table),
    )
    if sum(len(s.tiles) for s in table) > 8:
        return None
    return rules, (rack, table)


def primary(problem: CountProblem) -> int | None:
    found = best_counts(problem)
    return None if found is None else found[0]


def test_a_play_found_past_the_budget_is_the_exhaustive_optimum(past_budget: int) -> None:
    rng = random.Random(404)
    missed = 0
    for _ in range(400):
        problem = with_free_jokers(rng)
        found = solve_counts(problem)
        assert (found.primary if found.feasible else None) == primary(problem), problem
        if found.feasible:
            quick = solver_dp._solve(problem, solver_dp.BEAM)
            missed += not quick.feasible or quick.primary < found.primary
    if past_budget == 1:
        assert missed > 0  # the proof scan, not the narrow one, made these exact


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_small_problem_with_free_jokers_is_solved_exactly_past_the_budget(
    rng: random.Random,
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver_dp, "DEEP_BUDGET", 0)
        patch.setattr(solver_dp, "BEAM", 1)
        patch.setattr(solver_dp, "WIDEN", 1)
        problem = with_free_jokers(rng)
        found = solve_counts(problem)
    assert (found.primary if found.feasible else None) == primary(problem)


def test_whole_plays_with_jokers_past_the_budget_match_the_engine_judged_search(
    past_budget: int,
) -> None:
    rng = random.Random(77)
    checked = jokers_on_table = jokers_on_rack = 0
    while checked < 90:
        drawn = small_play_with_jokers(rng)
        if drawn is None:
            continue
        rules, (rack, table) = drawn
        objective = rng.choice(("value", "count"))
        found = solve(rack, table, rules, objective)
        accepted(rack, table, rules, found, False)
        assert found.score(objective) == best_tiles(rack, table, rules, objective)
        jokers_on_table += any(s.jokers for s in table)
        jokers_on_rack += sum(t.is_joker for t in rack) == 2
        checked += 1
    assert jokers_on_table >= 5 and jokers_on_rack >= 5


def without_a_piece(rng: random.Random, problem: CountProblem) -> CountProblem:
    """The same problem with one table piece (if any) set aside, as a kept set would be."""
    spots = [(n, c) for n in range(1, problem.numbers + 1) for c in range(4) if problem.table[n][c]]
    if not spots:
        return problem
    n, c = rng.choice(spots)
    table = [list(row) for row in problem.table]
    table[n][c] -= 1
    return replace(problem, table=table)


def test_scans_sharing_a_memory_give_what_each_gives_alone() -> None:
    rng = random.Random(99)
    shared = 0
    for _ in range(250):
        base = replace(small_count_problem(rng), tie_break=rng.random() < 0.5)
        memory: Memory = {}
        for _ in range(4):
            problem = without_a_piece(rng, base)
            alone = solve_counts(replace(problem, target=None))
            goal = alone.primary if alone.feasible else rng.randint(0, 20)
            for target in (goal, goal + 1):
                trial = replace(problem, target=target)
                before = len(memory)
                found = solve_counts(trial, memory)
                own: Memory = {}
                fresh = solve_counts(trial, own)
                assert found.score == fresh.score, trial
                expected = best_counts(trial)
                # With a target, a scan ends on the optimum when it reaches the target, and
                # otherwise on a play below it (or none) when no play reaches it.
                if found.feasible and found.primary >= target:
                    assert expected is not None and found.primary == expected[0]
                else:
                    assert expected is None or expected[0] < target
                shared += len(memory) - before < len(own)
            base = problem
    assert shared > 100  # scans that started from states an earlier scan had found
