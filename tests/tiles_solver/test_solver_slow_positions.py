"""Positions that once took the solver seconds stay solved exactly.

Two jokers on the rack and a table of 40 to 60 tiles made the breadth-first scan build a thousand
states per number; the depth-first search with bounds now handles them. These are the slowest
such positions found (the benchmark's own family, seed 15), checked against an integer program
of our own for both objectives and against ``rummikub-solver`` for the most tiles. Time is not
asserted here: `rummykit bench tiles-solver` measures it.
"""

from __future__ import annotations

import pytest

from rummykit.bench.tiles_solver import ReferenceSolver, two_rack_joker_positions
from rummykit.tiles import Rules, check_turn, solve

from .reference import counts_of, ilp_best

SLOWEST = (41, 7, 25, 30, 31, 11)


@pytest.fixture(scope="module")
def reference() -> ReferenceSolver:
    return ReferenceSolver(Rules())


@pytest.mark.parametrize("index", SLOWEST)
def test_two_rack_jokers_on_a_large_table_are_solved_exactly(
    index: int, reference: ReferenceSolver
) -> None:
    rules = Rules()
    rack, table = two_rack_joker_positions(max(SLOWEST) + 1, 15)[index]
    assert sum(t.is_joker for t in rack) == 2 and sum(len(s.tiles) for s in table) >= 40
    for objective in ("count", "value"):
        found = solve(rack, table, rules, objective)
        check = check_turn(rules, table, rack, found.sets, opened=True)
        assert sorted(t.id for t in check.played) == sorted(t.id for t in found.played)
        assert check.value == found.value
        assert found.score(objective) == ilp_best(counts_of(rack, table, rules, objective))
    theirs = reference.most_tiles(rack, table, initial=False)
    assert solve(rack, table, rules, "count").count >= theirs


def test_a_narrow_scan_that_dies_out_is_tried_wider_and_the_answer_stays_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Position 132 of the benchmark's two-rack-joker family (seed 1): the narrow scan of the
    most tiles keeps only entries whose runs cannot be finished, and finds nothing."""
    from rummykit.tiles import solver_dp

    rules = Rules()
    rack, table = two_rack_joker_positions(133, 1)[132]
    beams: list[tuple[int, bool]] = []
    scan = solver_dp._solve

    def watched(
        problem: solver_dp.CountProblem, beam: int = 0, memory: solver_dp.Memory | None = None
    ) -> solver_dp.CountSolution:
        found = scan(problem, beam, memory)
        if problem.target is None:
            beams.append((beam, found.feasible))
        return found

    monkeypatch.setattr(solver_dp, "_solve", watched)
    found = solve(rack, table, rules, "count", keep_table=False)
    assert beams[:2] == [
        (solver_dp.BEAM, False),
        (solver_dp.BEAM * solver_dp.WIDER, True),
    ]
    assert found.count == len(rack)
    assert found.score("count") == ilp_best(counts_of(rack, table, rules, "count"))
