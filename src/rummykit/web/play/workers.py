"""What the computer seats' worker processes run: one decision or one hint, from a view.

A worker gets the game's kind, the bot's level and seed and the seat's view in its wire form
(the adapter's ``view_to_wire``), builds the bot afresh and answers the action's JSON. Bots are
built afresh for every decision (seeded from the game's secret seed, the seat and the step), so a
decision is the same in a worker process, in a thread of the server, or in a test replaying it.
"""

from __future__ import annotations

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


def warm() -> int:
    """Load the engines in a new worker before the first decision needs them."""
    for kind in ADAPTERS:
        adapter(kind)
    return 0
