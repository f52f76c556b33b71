"""Computer players for Rommé. A bot sees only a `View` and returns an `Action`.

``make_bot(level, seed)`` builds one; ``"random"`` is the legal-random baseline: it draws,
lays random legal melds, lay-offs and exchanges, and discards a random card. Every action it
returns is legal for the view it was given.

>>> from rummykit.romme.game import State
>>> game = State(players=2, seed=3)
>>> bot = make_bot("random", seed=1)
>>> game.apply(bot.choose(game.view(game.to_move)))
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from rummykit.core import Computers, IllegalAction
from rummykit.romme.actions import Action, Discard, Draw, NextRound, Play
from rummykit.romme.game import State
from rummykit.romme.moves import next_round_or_turn, picked_unused, random_play, simple_actions
from rummykit.romme.turn import TurnContext, check_play
from rummykit.romme.view import View

if TYPE_CHECKING:
    from rummykit.romme.bot_levels import SolverBot


class Bot(Protocol):
    """A computer player."""

    level: str

    def choose(self, view: View) -> Action:
        """The action for the seat of ``view``, which must be the seat on move (or any seat
        between rounds)."""


class RandomBot:
    """Legal random play: the baseline every other level is measured against."""

    level = "random"

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._plan: Play | None = None

    def choose(self, view: View) -> Action:
        between = next_round_or_turn(view)
        if between is not None:
            return between
        rng = self._rng
        if view.phase == "draw":
            return self._draw(view)
        ctx = view.turn_context()
        if view.phase == "play":
            plan, self._plan = self._plan, None
            if plan is not None and _is_legal(plan, ctx):
                return plan
            if picked_unused(view):
                found = random_play(ctx, rng, attempts=40, require=view.picked)
                if found is None:
                    raise IllegalAction("bot_stuck", reason="picked card cannot be used")
                return found
            if rng.random() < 0.9:
                found = random_play(ctx, rng)
                if found is not None:
                    return found
        discards = [a for a in simple_actions(view) if isinstance(a, Discard)]
        return rng.choice(discards)

    def _draw(self, view: View) -> Action:
        rng = self._rng
        top = view.discard_pile[-1] if view.discard_pile else None
        if top is not None and rng.random() < 0.3:
            if view.rules.discard_pickup == "free":
                return Draw("discard")
            if view.can_take_discard:
                # Take it only with a concrete use in hand, found on the hand after pickup.
                ctx = view.turn_context()
                after = replace(ctx, hand=(*ctx.hand, top), picked=top)
                plan = random_play(after, rng, attempts=20, require=top)
                if plan is not None:
                    self._plan = plan
                    return Draw("discard")
        return Draw("stock")


def _is_legal(play: Play, ctx: TurnContext) -> bool:
    try:
        check_play(play, ctx)
    except IllegalAction:
        return False
    return True


LEVELS = ("random", "easy", "medium", "hard")


def make_bot(level: str, seed: int) -> Bot:
    """A bot of the given level (``IllegalAction("bad_level")`` for an unknown one).

    ``easy``, ``medium`` and ``hard`` play with the exact solver (`rummykit.romme.bot_levels`,
    `rummykit.romme.bot_hard`).
    """
    if level == "random":
        return RandomBot(seed)
    if level in LEVELS:
        return make_solver_bot(level, seed)
    raise IllegalAction("bad_level", level=level, allowed=list(LEVELS))


def make_solver_bot(level: str, seed: int, budget: float = 0.2) -> SolverBot:
    """A solver-based bot of the given level (``IllegalAction("bad_level")`` otherwise).

    The solver is imported on first use, so that the random level stays light.
    """
    from rummykit.romme.bot_hard import HardBot
    from rummykit.romme.bot_levels import EasyBot, MediumBot

    if level == "easy":
        return EasyBot(seed, budget)
    if level == "medium":
        return MediumBot(seed, budget)
    if level == "hard":
        return HardBot(seed, budget)
    raise IllegalAction("bad_level", level=level, allowed=["easy", "medium", "hard"])


def fallback_action(state: State, seat: int) -> Action:
    """The safe move for ``seat`` at once (a computer seat out of time, a turn timer): draw
    from the stock, then discard the most expensive card that fits nothing in the hand (see
    `rummykit.romme.bot_levels.highest_dead_card`); between rounds, deal the next one. When
    the card taken from the discard pile must still be laid, the baseline player finds a way.
    """
    if state.phase == "round_over":
        return NextRound()
    if state.phase == "draw":
        return Draw("stock")
    view = state.view(seat)
    discards = [a for a in state.legal_actions() if isinstance(a, Discard)]
    if discards:
        from rummykit.romme.bot_levels import highest_dead_card

        choice = Discard(highest_dead_card(view))
        return choice if choice in discards else discards[0]
    return RandomBot(state.turn).choose(view)


COMPUTERS = Computers(LEVELS, default="medium", make=make_bot, fallback=fallback_action)
"""The computer players as the game's descriptor takes them."""
