"""The frequent writes to a SQLite file, from one thread of their own, many in one transaction.

SQLite lets one writer in at a time, and through the async driver each statement, the commit and
the connection's return to the pool are separate trips to the driver's thread and back through
the event loop, which a busy server answers late: a game's step held the file for about 3 ms,
whatever its own cost, and every other step waited behind it. `Writer` keeps one connection
in one thread: the writes that wait when it is free go together in one transaction (a *group
commit*), in one trip. Each write is answered only once its transaction is committed, as before.

A batch that fails (or whose work function refuses it whole, see `Batch`) is rolled back and its
writes are made again one by one, each in its own transaction, so that one write's refusal
never undoes another's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Connection

Work: TypeAlias = Callable[[Connection, Sequence[Any]], Sequence[Any]]
"""A kind of write: given its items, in order, it returns one result for each (in the thread)."""


class Batch(Exception):
    """Raised by a work function that cannot tell each item's result from the whole batch: its
    items are written again one at a time."""


class GroupCommit:
    """Writes that come while a batch is being written wait, and go together in the next one
    (a *group commit*); each is answered once its batch is done. A kind of storage says how to
    write a batch (`_commit`: one outcome for each item, ``(True, result)`` or ``(False,
    exception)``) and, if it must, which waiting items may go together (`_take`)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[tuple[Any, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def submit(self, item: Any) -> Any:
        """``item``'s result once its batch is written (or its exception)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (tests): nothing of the old one is left
            self._loop, self._pending, self._flusher = loop, [], None
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((item, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        return await future

    def _take(self, waiting: list[Any]) -> tuple[list[Any], list[Any]]:
        """The waiting items that go in the next batch, and those that wait for a later one."""
        return waiting, []

    async def _commit(self, items: list[Any]) -> list[tuple[bool, Any]]:
        raise NotImplementedError

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._take(self._pending)
            futures = [future for _, future in batch]
            try:
                outcomes = await self._commit([item for item, _ in batch])
            except BaseException as err:  # the storage is gone (shutting down)
                for future in futures:
                    if not future.done():
                        future.set_exception(err)
                if isinstance(err, asyncio.CancelledError):
                    raise
                continue
            _settle(futures, outcomes)


class Writer(GroupCommit):
    """One connection to the SQLite file at ``url`` in a thread of its own (see the module).
    ``pragmas`` sets up the connection like the engine's others."""

    def __init__(self, url: URL, pragmas: Callable[[Any, Any], None]) -> None:
        super().__init__()
        self.engine = create_engine(url.set(drivername="sqlite"), pool_size=1, max_overflow=0)
        event.listen(self.engine, "connect", pragmas)
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None

    async def write(self, work: Work, item: Any) -> Any:
        """``work``'s result for ``item``, once written and committed (or its exception)."""
        return await self.submit((work, item))

    async def _commit(self, items: list[Any]) -> list[tuple[bool, Any]]:
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, "rummykit-sqlite-writer")
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._write, items)

    def _write(self, jobs: list[tuple[Work, Any]]) -> list[tuple[bool, Any]]:
        """In the thread: every job in one transaction, else each in its own."""
        try:
            with self.engine.begin() as connection:
                return [(True, value) for value in _run(connection, jobs)]
        except Exception as err:
            if len(jobs) == 1:
                return [(False, err)]
        outcomes: list[tuple[bool, Any]] = []
        for job in jobs:
            try:
                with self.engine.begin() as connection:
                    outcomes.append((True, _run(connection, [job])[0]))
            except Exception as err:
                outcomes.append((False, err))
        return outcomes

    def close(self) -> None:
        """Wait for the writes under way, then close the connection (a later write opens
        them again)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=True)
        self.engine.dispose()


def _settle(futures: Sequence[asyncio.Future[Any]], outcomes: Sequence[tuple[bool, Any]]) -> None:
    """Answer each write still waiting with its outcome: ``(True, result)`` or ``(False,
    exception)``."""
    for future, (ok, value) in zip(futures, outcomes, strict=True):
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _run(connection: Connection, jobs: list[tuple[Work, Any]]) -> list[Any]:
    """The results of ``jobs``, the consecutive items of one kind of write given together."""
    results: list[Any] = []
    start = 0
    while start < len(jobs):
        work = jobs[start][0]
        end = start
        while end < len(jobs) and jobs[end][0] is work:
            end += 1
        values = work(connection, [item for _, item in jobs[start:end]])
        if len(values) != end - start:
            raise Batch(f"{len(values)} results for {end - start} items")
        results.extend(values)
        start = end
    return results
