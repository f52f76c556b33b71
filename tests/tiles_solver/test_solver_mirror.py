"""Scans with a target run from both ends of the numbers, the first to finish answering.

For the most tiles without tie-breaks, the problem read from the lowest number up (`mirrored`)
has the same optimum; its steps are turned back into an arrangement of the real numbers. Here
the race is made to take the mirrored scan always, and its answers must be the exhaustive
search's: the optimum of small count problems (with a target, and past the depth-first budget)
and whole plays with jokers, judged by the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.tiles import solve, solver_dp
from rummykit.tiles.solver_dp import CountProblem, mirrored, solve_counts

from .brute import best_counts, best_tiles
from .test_solver_exact import accepted
from .test_solver_free_jokers import small_play_with_jokers, with_free_jokers


@pytest.fixture
def mirror_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every race won by the mirrored scan; the depth-first search given no stage, so that the
    proof after the narrow scan is a race too."""
    monkeypatch.setattr(solver_dp, "RACE", (False, True))
    monkeypatch.setattr(solver_dp, "DEEP_BUDGET", 0)
    yield


def count_problem(rng: random.Random) -> CountProblem:
    return replace(with_free_jokers(rng), objective="count", need_value=0)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_mirrored_problem_has_the_same_most_tiles(rng: random.Random) -> None:
    problem = count_problem(rng)
    expected = best_counts(problem)
    found = best_counts(mirrored(problem))
    assert (None if found is None else found[0]) == (None if expected is None else expected[0])
    assert mirrored(mirrored(problem)) == problem


def test_the_mirrored_scan_with_a_target_finds_the_exhaustive_optimum(mirror_only: None) -> None:
    rng = random.Random(515)
    mirrored_wins = 0
    for _ in range(300):
        problem = count_problem(rng)
        expected = best_counts(problem)
        best = None if expected is None else expected[0]
        # Past the budget: a narrow scan, then a mirrored proof scan.
        found = solve_counts(problem)
        assert (found.primary if found.feasible else None) == best, problem
        for target in range(max(0, (best or 0) - 1), (best or 0) + 2):
            # No ceiling: a play reaching the target must be proved the best (no narrow scan).
            trial = replace(problem, target=target)
            found = solve_counts(trial, {})
            if best is not None and best >= target:
                assert found.feasible and found.primary == best, trial
                mirrored_wins += found.mirror == problem.numbers
            else:
                assert not found.feasible or found.primary < target, trial
    assert mirrored_wins > 50


def test_whole_plays_from_mirrored_scans_match_the_engine_judged_search(
    mirror_only: None,
) -> None:
    rng = random.Random(2024)
    checked = jokers_on_table = 0
    while checked < 80:
        drawn = small_play_with_jokers(rng)
        if drawn is None:
            continue
        rules, (rack, table) = drawn
        found = solve(rack, table, rules, "count")
        accepted(rack, table, rules, found, False)
        assert found.count == best_tiles(rack, table, rules, "count")
        jokers_on_table += any(s.jokers for s in table)
        checked += 1
    assert jokers_on_table >= 5
