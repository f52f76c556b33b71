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
import signal
import sys
import threading
import time

from rummykit.core import JSON
from rummykit.web.play.adapter import ADAPTERS, adapter


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
    unfrozen, its full passes took 80 to 160 ms with a decision waiting; frozen, under 50 ms."""
    for kind in ADAPTERS:
        adapter(kind)
    gc.collect()
    gc.freeze()


def ready() -> int:
    """Nothing: a task to give the pool, which starts its processes one per waiting task, so
    that every worker starts (and settles) before the first decisions."""
    return 0


def start(parent: int) -> None:
    """A new worker's first task: end with the server ``parent``, then settle before the first
    decision needs the engines."""
    die_with_parent(parent)
    settle()


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
