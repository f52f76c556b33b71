"""What the computer seats' worker processes run: one decision or one hint, from a view.

A worker gets the game's kind, the bot's level and seed and the seat's view in its wire form
(the adapter's ``view_to_wire``), builds the bot afresh and answers the action's JSON. Bots are
built afresh for every decision (seeded from the game's secret seed, the seat and the step), so a
decision is the same in a worker process, in a thread of the server, or in a test replaying it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import BinaryIO

from rummykit.core import JSON
from rummykit.web.play.adapter import ADAPTERS, adapter
from rummykit.web.play.pool import HEADER


def decide(kind: str, level: str, seed: int, wire: JSON) -> JSON:
    """The bot's action (as JSON) for the view."""
    game = adapter(kind)
    view = game.view_from_wire(wire)
    action = game.make_bot(level, seed).choose(view)
    data: JSON = action.to_json()
    return data


def advise(kind: str, wire: JSON) -> JSON:
    """The hint (action and reason, as JSON) for the view."""
    game = adapter(kind)
    return game.hint(game.view_from_wire(wire))


def settle() -> None:
    """Load the games' engines, then keep everything loaded so far out of the cyclic garbage
    collector's passes (`gc.freeze`): it stays for the process's life, and each full pass
    walked it all again with the process stopped. A worker holds about 150,000 such objects:
    unfrozen, its full passes took 80 to 160 ms with a decision waiting; frozen, under 50 ms.

    Then the collector looks at new objects after 10,000 allocations instead of 700, and at
    older ones half as often: a step makes thousands of short-lived objects (views, events,
    JSON), freed by their counts long before a pass would find them. Measured on the server
    and its workers (`rummykit bench load --computer 100 --seconds 45`, alternated with the
    defaults, two runs each): 489.7 and 493.4 actions/s, p99 99 and 109 ms, against 443.2 and
    456.7, p99 178 and 186 ms."""
    for kind in ADAPTERS:
        adapter(kind)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


JOBS: dict[str, Callable[..., JSON]] = {"decide": decide, "advise": advise}
"""What a worker does, by the name the server sends (`rummykit.web.play.pool`)."""


def start(parent: int) -> None:
    """A new worker's first step: end with the server ``parent``, then settle before the first
    decision needs the engines."""
    die_with_parent(parent)
    settle()


def serve(parent: int, jobs: BinaryIO, answers: BinaryIO) -> None:
    """Answer the jobs read from ``jobs`` on ``answers``, one at a time, until the server
    closes ``jobs`` (frames: see `rummykit.web.play.pool`). A job that raises answers its
    exception, which the server raises in turn."""
    start(parent)
    while True:
        head = jobs.read(HEADER.size)
        if len(head) < HEADER.size:
            return
        size, job = HEADER.unpack(head)
        name, args = pickle.loads(jobs.read(size))
        try:
            answer: tuple[bool, object] = (True, JOBS[name](*args))
        except Exception as err:
            answer = (False, err)
        try:
            body = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # an exception that does not pickle
            body = pickle.dumps((False, RuntimeError(repr(err))), pickle.HIGHEST_PROTOCOL)
        answers.write(HEADER.pack(len(body), job) + body)
        answers.flush()


def main() -> None:
    """``python -m rummykit.web.play.workers <server pid>``: a worker on its standard input
    and output (anything printed goes to the standard error instead)."""
    answers = sys.stdout.buffer
    sys.stdout = sys.stderr
    serve(int(sys.argv[1]), sys.stdin.buffer, answers)


PR_SET_PDEATHSIG = 1
"""``prctl`` option of Linux: the signal a process gets when the thread that started it ends."""


def die_with_parent(parent: int) -> None:
    """End this process when the process ``parent`` ends, even by ``kill -9``.

    A worker's parent is a server: when it dies without a word, nothing else would stop its
    workers, and each keeps the engines' memory for good. On Linux the kernel sends SIGKILL
    at the parent's death (``PR_SET_PDEATHSIG``; the pool is started from the event loop's
    thread, which lives as long as the server); elsewhere a thread checks the parent every
    second. A parent already gone before this runs is noticed at once.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(0)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


if __name__ == "__main__":
    main()
