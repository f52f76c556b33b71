"""Lessons: a game dealt by hand and a script of the moves that teach it, played by the engine.

A `Lesson` is an ordinary game of an engine, started from a first deal its record keeps (so it
is stored, resumed and replayed like any other), with a person at ``learner`` and computer
players whose moves follow from the game's seed. Its script is an ordered list of `Step`:
each says which move it teaches (``action``, found in the position; ``matches`` accepts the
same move written another way), which cards or tiles in hand to point at (``highlight``) and
the stable ``code`` and ``params`` the web layer turns into the explanation.

The learner's n-th move is the n-th step; `judge` says whether a move is the step's move, and
if not, the engine's own refusal when the rules forbid it (a move that is legal but another is
refused by the lesson). Nothing here changes a state: `judge` tries a move on a copy. After
the last step the game goes on as any other. Each game's script is in its own package
(`rummykit.romme.lesson`, `rummykit.tiles.lesson`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rummykit.core import JSON, GameState, IllegalAction

StateT = TypeVar("StateT", bound=GameState[Any, Any, Any])
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Step(Generic[StateT, ActionT]):
    """One move of the script.

    ``action(state)`` is the move the step teaches in that position; ``matches(state, move)``
    whether the learner's move is that move (by default: equal to it); ``highlight(state)`` the
    codes of the cards or tiles in the learner's hand to point at (``"stock"`` for the pile to
    draw from); ``code`` and ``params(state)`` what the explanation says.
    """

    code: str
    action: Callable[[StateT], ActionT]
    highlight: Callable[[StateT], tuple[str, ...]]
    matches: Callable[[StateT, ActionT], bool] | None = None
    params: Callable[[StateT], Mapping[str, JSON]] = field(default=lambda state: {})

    def is_move(self, state: StateT, move: ActionT) -> bool:
        """Whether ``move`` is the move this step teaches."""
        if self.matches is not None:
            return self.matches(state, move)
        return bool(move == self.action(state))


@dataclass(frozen=True)
class Verdict:
    """What the lesson says of a learner's move: ``ok``, or why not: the engine's ``refusal``
    when the rules forbid the move (``None`` when the move is legal but not the step's)."""

    ok: bool
    step: str | None = None
    refusal: IllegalAction | None = None


@dataclass(frozen=True)
class Lesson(Generic[StateT, ActionT]):
    """A game dealt by hand (``deal()`` gives its first state) and its script."""

    game: str
    seed: int
    """The game's seed: what the deal leaves unnamed, and the computer players' choices."""
    deal: Callable[[], StateT]
    steps: tuple[Step[StateT, ActionT], ...]
    learner: int = 0
    opponent: str = "random"
    """The level of the computer players (their moves follow from the seed and the step)."""

    def record_rules(self) -> dict[str, JSON]:
        """The rules the game's record keeps, with its first deal."""
        return self.deal().record_rules()

    def progress(self, state: StateT) -> int:
        """How many steps have been played in ``state`` (a game of this lesson): its actions
        are replayed from the deal, the learner's counted, as far as the script goes."""
        game = self.deal()
        made = 0
        for action in state.actions:
            if made == len(self.steps):
                break
            if game.to_move == self.learner:
                made += 1
            game.apply(action)
        return made

    def step(self, state: StateT) -> tuple[int, Step[StateT, ActionT]] | None:
        """The step awaited now, with its index: ``None`` when it is not the learner's move,
        or after the last step."""
        if state.is_over or state.to_move != self.learner:
            return None
        index = self.progress(state)
        if index >= len(self.steps):
            return None
        return index, self.steps[index]

    def is_over(self, state: StateT) -> bool:
        """Whether every step has been played."""
        return self.progress(state) >= len(self.steps)

    def judge(self, state: StateT, move: ActionT) -> Verdict:
        """Whether ``move`` by the learner is the awaited step's move (any legal move once the
        script is over); otherwise the engine's refusal, if it has one. ``state`` is left as
        it was."""
        found = self.step(state)
        trial = state.copy()
        try:
            trial.apply(move, self.learner)
        except IllegalAction as refusal:
            return Verdict(False, None if found is None else found[1].code, refusal)
        if found is None:
            return Verdict(True)
        _, step = found
        if step.is_move(state, move):
            return Verdict(True, step.code)
        return Verdict(False, step.code)


def run_script(
    lesson: Lesson[StateT, ActionT],
    opponent: Callable[[StateT, int], ActionT],
) -> StateT:
    """Play the lesson's script from its deal: each step's own move for the learner,
    ``opponent(state, seat)`` for the others, until the last step is played. Every move goes
    through `Lesson.judge` and the engine; a step whose move is not accepted raises
    ``AssertionError``."""
    state = lesson.deal()
    while not lesson.is_over(state) and not state.is_over:
        seat = state.to_move
        if seat is None:
            raise AssertionError("the lesson's round ended before its last step")
        if seat == lesson.learner:
            found = lesson.step(state)
            assert found is not None
            move = found[1].action(state)
            verdict = lesson.judge(state, move)
            if not verdict.ok:
                raise AssertionError(f"step {found[0]} ({found[1].code}): {verdict}")
        else:
            move = opponent(state, seat)
        state.apply(move, seat)
    return state
