"""The computer seats' worker processes (`rummykit.web.play.pool`): a decision made in a worker
is the one made in the server; a job's exception comes back; a late answer is dropped, not
given to the next job; a worker killed is replaced, and the job it held fails at once."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from rummykit.core import IllegalAction
from rummykit.romme.game import State
from rummykit.romme.rules import Rules
from rummykit.web.play import workers
from rummykit.web.play.adapter import adapter
from rummykit.web.play.pool import WorkerLost, WorkerPool


def _wires(count: int) -> list[dict[str, object]]:
    """The views of the seat on move in a Rommé game between random players, as wires."""
    game = adapter("romme")
    state = State.new_game(Rules.preset("computer"), 3, 7)
    bots = [game.make_bot("random", seat) for seat in range(3)]
    wires: list[dict[str, object]] = []
    while len(wires) < count and not state.is_over:
        seat = state.to_move if state.to_move is not None else 0
        view = state.view(seat)
        wire = game.view_to_wire(game.game.bot_view(view))
        assert isinstance(wire, dict)
        wires.append(wire)
        state.apply(bots[seat].choose(view), seat)
    return wires


def test_the_workers_answer_as_the_server_would_and_survive_a_killed_worker() -> None:
    wires = _wires(12)

    async def main() -> None:
        pool = WorkerPool(1)
        try:
            for seed, wire in enumerate(wires):
                got = await pool.run(workers.decide, "romme", "easy", seed, wire, timeout=30)
                assert got == workers.decide("romme", "easy", seed, wire)

            with pytest.raises(IllegalAction) as refused:
                await pool.run(workers.advise, "no-such-game", wires[0], timeout=30)
            assert refused.value.code == "bad_game"

            # A caller that stops waiting: the answer comes later and is dropped; the next
            # job gets its own answer.
            with pytest.raises(TimeoutError):
                await pool.run(workers.decide, "romme", "easy", 1, wires[1], timeout=1e-6)
            got = await pool.run(workers.decide, "romme", "easy", 2, wires[2], timeout=30)
            assert got == workers.decide("romme", "easy", 2, wires[2])

            # A worker killed with a job on hand: that job fails at once, the next one is
            # done by a new worker.
            (pid,) = pool.pids
            os.kill(pid, signal.SIGSTOP)  # it cannot answer before it is killed
            job = asyncio.ensure_future(
                pool.run(workers.decide, "romme", "easy", 3, wires[3], timeout=30)
            )
            await asyncio.sleep(0.05)
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(WorkerLost):
                await job
            got = await pool.run(workers.decide, "romme", "easy", 4, wires[4], timeout=30)
            assert got == workers.decide("romme", "easy", 4, wires[4])
            assert pool.pids != [pid]
        finally:
            await pool.close()
        assert pool.pids == []

    asyncio.run(main())
