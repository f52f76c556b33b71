"""The computer seats' worker processes, driven from the server's event loop.

Each worker is a child process (``python -m rummykit.web.play.workers <server pid>``) that
reads jobs on its standard input and writes each answer on its standard output, as frames:
a header (`HEADER`: the body's length and the job's number) and a pickle, ``(name, args)`` for
a job (a function of `rummykit.web.play.workers.JOBS`) and ``(ok, value or exception)`` for
an answer. The server writes and reads those pipes with asyncio's own subprocess transports.

Written here rather than taken from `concurrent.futures.ProcessPoolExecutor`, which the
server used before: the executor passes every job through two threads of its own (one that
pickles and writes, one that waits for answers and wakes the loop), and at two to three
computer decisions for each person's action that hand-over was the largest single cost of the
server left: about 150 to 190 µs of its processor time a job, against about 25 µs on the pipes
(a job and its answer timed alone, a Rommé view each). The workers end with their server
(`rummykit.web.play.workers.die_with_parent`), and one that dies is started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

HEADER = struct.Struct("<IQ")
"""A frame's header: the length of its pickled body and the job's number."""


class WorkerLost(RuntimeError):
    """The worker doing a job ended before answering it (it is started again)."""


class _Worker:
    """One worker process, the jobs it has not answered yet, and its reading task."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.busy = 0
        """Jobs sent and not answered, those whose caller gave up included (the worker is
        still on them)."""
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @property
    def alive(self) -> bool:
        return not self.reader.done()

    def send(self, job: int, name: str, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        body = pickle.dumps((name, args), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[job] = future
        future.add_done_callback(lambda _: self.waiting.pop(job, None))
        self.busy += 1
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(HEADER.pack(len(body), job) + body)
        return future

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                size, job = HEADER.unpack(await stdout.readexactly(HEADER.size))
                ok, value = pickle.loads(await stdout.readexactly(size))
                self.busy -= 1
                future = self.waiting.pop(job, None)
                if future is None or future.done():
                    continue  # its caller gave up waiting
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(WorkerLost(f"worker {self.process.pid} ended"))
            self.waiting.clear()

    async def stop(self) -> None:
        """Close its input (the worker ends when it reads the end), then wait for it."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.reader


class WorkerPool:
    """``size`` worker processes; a job goes to the one with the fewest jobs on hand."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._workers: list[_Worker] = []
        self._starting: asyncio.Task[None] | None = None
        self._jobs = itertools.count(1)
        self._replacing = asyncio.Lock()

    def start(self) -> None:
        """Start the workers in the background (the first job waits for them)."""
        if self._starting is None:
            self._starting = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        self._workers = list(await asyncio.gather(*(_spawn() for _ in range(self.size))))

    @property
    def pids(self) -> list[int]:
        return [worker.process.pid for worker in self._workers]

    async def run(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """``function(*args)`` (one of the workers' `JOBS`) in a worker; `TimeoutError` after
        ``timeout`` seconds (the worker finishes the job, its answer is dropped), `WorkerLost`
        if the worker ends first."""
        self.start()
        assert self._starting is not None
        await asyncio.shield(self._starting)
        worker = await self._pick()
        future = worker.send(next(self._jobs), function.__name__, args)
        return await asyncio.wait_for(future, timeout)

    async def _pick(self) -> _Worker:
        if not all(worker.alive for worker in self._workers):
            async with self._replacing:  # one replacement for each worker that ended
                for index, worker in enumerate(self._workers):
                    if not worker.alive:
                        log.warning("bot worker %s ended; starting another", worker.process.pid)
                        with contextlib.suppress(ProcessLookupError):
                            worker.process.kill()  # its answers unreadable, if it still runs
                        await worker.process.wait()
                        self._workers[index] = await _spawn()
        return min(self._workers, key=lambda w: w.busy)

    async def close(self) -> None:
        if self._starting is not None:
            with contextlib.suppress(BaseException):
                await self._starting
        workers, self._workers = self._workers, []
        await asyncio.gather(*(worker.stop() for worker in workers))


async def _spawn() -> _Worker:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "rummykit.web.play.workers",
        str(os.getpid()),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    return _Worker(process)
