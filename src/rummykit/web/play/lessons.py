"""The lessons of the first games as the table shows them: each step in words, what to mark,
and a mistake explained (see `rummykit.lesson`; the scripts are in `rummykit.romme.lesson` and
`rummykit.tiles.lesson`).

A game is a lesson when it was dealt from a lesson's own deal and seed (`lesson_of`); its table
asks ``GET /api/games/{id}/lesson`` for the step awaited. ``POST /api/games/{id}/actions`` plays
a learner's move only when it is the step's move (`refusal`), and otherwise answers with the
engine's own refusal (when the rules forbid the move) or the lesson's, and a word that brings
the learner back to the step. After the last step the game goes on as any other, with the
computer's advice at each move.
"""

from __future__ import annotations

import functools
import gettext
from typing import Any, TypeVar

from rummykit.core import JSON, Encodable, GameState, Hint, IllegalAction
from rummykit.lesson import Lesson, Verdict
from rummykit.romme.lesson import LESSON as ROMME_LESSON
from rummykit.tiles.lesson import LESSON as TILES_LESSON
from rummykit.web.errors import N_
from rummykit.web.play import messages
from rummykit.web.play.service import LiveGame

RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=GameState[Any, Any, Any])
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT", bound=Encodable)

LESSONS: dict[str, Lesson[Any, Any]] = {"romme": ROMME_LESSON, "tiles": TILES_LESSON}
"""The lesson of each game that has one (looked up by the game's name, as `adapter` looks up
its game: each lesson's types are known only to its own module)."""

STEPS: dict[tuple[str, str], tuple[str, str]] = {
    # Rommé: (what the step teaches and why, what to do in a few words)
    ("romme", "draw"): (
        N_("Every turn begins with a card: draw the top card of the stock, the face-down pile."),
        N_("Draw a card from the stock."),
    ),
    ("romme", "open"): (
        N_(
            "Your first melds must be worth at least 30 points together. Lay 10♠, the joker and "
            "Q♠ as a run: the joker stands for the J♠, so the run counts 10 + 10 + 10 = "
            "%(value)s."
        ),
        N_("Lay 10♠, the joker and Q♠ as one run."),
    ),
    ("romme", "discard"): (
        N_(
            "A turn ends with a discard. Put %(cards)s on the discard pile: it fits none of your "
            "cards."
        ),
        N_("Discard %(cards)s."),
    ),
    ("romme", "lay_off"): (
        N_(
            "Now that you have opened, you may add cards to the melds on the table. Lay off the "
            "9♠ at the low end of your run."
        ),
        N_("Lay off the 9♠ on your run."),
    ),
    ("romme", "exchange"): (
        N_(
            "The J♠ you drew is the card the joker stands for. Exchange them: the J♠ takes the "
            "joker's place in the run, and the freed joker must be laid again in the same turn, "
            "here with 5♦ and 5♣ as a group of fives."
        ),
        N_("Exchange the joker for the J♠, then lay the joker with 5♦ and 5♣."),
    ),
    ("romme", "last_melds"): (
        N_(
            "The card you drew completes your last two melds: lay the run 2♥ 3♥ 4♥ and the "
            "group 7♣ 7♦ 7♥."
        ),
        N_("Lay 2♥ 3♥ 4♥ and 7♣ 7♦ 7♥."),
    ),
    ("romme", "go_out"): (
        N_(
            "One card is left. Discard the J♥ and your hand is empty: you go out and win the "
            "round, and the computer pays for the cards it still holds."
        ),
        N_("Discard the J♥ to go out."),
    ),
    # Tile rummy
    ("tiles", "open"): (
        N_(
            "Your first meld must be worth at least 30 points, from your rack alone. Lay the black "
            "9, 10 and 11 as a run: 9 + 10 + 11 = 30."
        ),
        N_("Lay the black 9, 10 and 11 as one run."),
    ),
    ("tiles", "draw"): (
        N_(
            "Nothing on your rack fits a set now. When you cannot play, you draw a tile, and "
            "that is your turn."
        ),
        N_("Draw a tile."),
    ),
    ("tiles", "add"): (
        N_(
            "Once you have made your first meld, you may add tiles to any set on the table. Put "
            "the black 12 and 13 at the end of your run."
        ),
        N_("Add the black 12 and 13 to your run."),
    ),
    ("tiles", "split"): (
        N_(
            "You may also rework the table. Put your second black 11 into the middle of the run "
            "from 9 to 13 and split it in two: 9 10 11 and 11 12 13."
        ),
        N_("Split the run with your second black 11: 9 10 11 and 11 12 13."),
    ),
}
"""Each step's explanation and its short instruction (``%(cards)s``: the cards it marks)."""

STEP_OF = N_("Step %(step)s of %(steps)s.")
OTHER_MOVE = N_("The rules allow that move, but this step teaches another one.")
BACK_TO_STEP = N_("This step: %(instruction)s")
DONE = {
    "romme": N_(
        "Well played: you have drawn, opened with 30, laid off, exchanged the joker and gone "
        "out. That is a whole round of Rommé."
    ),
    "tiles": N_(
        "That was the whole lesson: a first meld, a draw, tiles added and a run split. Play on "
        "against the computer: its advice stays on show at each of your turns."
    ),
}


def lesson_of(
    live: LiveGame[RulesT, StateT, ViewT, ActionT],
) -> Lesson[StateT, ActionT] | None:
    """The lesson a game plays, if it was dealt from a lesson's deal and seed."""
    lesson = LESSONS.get(live.kind)
    if lesson is None or live.seed != lesson.seed:
        return None
    start = getattr(live.state, "start", None)
    if start is None or start != _start(live.kind):
        return None
    return lesson


@functools.cache
def _start(kind: str) -> object:
    """The first deal of a game's lesson."""
    return getattr(LESSONS[kind].deal(), "start", None)


def refusal(
    live: LiveGame[RulesT, StateT, ViewT, ActionT],
    seat: int,
    data: JSON,
    t: gettext.NullTranslations,
) -> dict[str, JSON] | None:
    """Why the lesson refuses the move ``data`` (JSON) by ``seat`` of the game ``live`` (see
    `mistake_json`), or ``None`` when the game is no lesson, the script is over or the move is
    the step's. Called with the game's lock held."""
    lesson = lesson_of(live)
    if lesson is None or seat != lesson.learner or lesson.is_over(live.state):
        return None
    verdict = lesson.judge(live.state, live.adapter.action_from_json(data, live.rules))
    return None if verdict.ok else mistake_json(live, lesson, verdict, t)


def _texts(
    kind: str,
    code: str,
    state: StateT,
    lesson: Lesson[StateT, ActionT],
    t: gettext.NullTranslations,
) -> tuple[str, str]:
    found = lesson.step(state)
    marked = found[1].highlight(state) if found else ()
    params: dict[str, object] = {
        "cards": " ".join(c.split("#")[0] for c in marked if c != "stock"),
        **(found[1].params(state) if found else {}),
    }
    explanation, instruction = STEPS[(kind, code)]
    return t.gettext(explanation) % params, t.gettext(instruction) % params


def step_json(
    live: LiveGame[RulesT, StateT, ViewT, ActionT],
    lesson: Lesson[StateT, ActionT],
    t: gettext.NullTranslations,
) -> dict[str, JSON]:
    """The step awaited in words, the cards or tiles to mark and the step's move as the page
    sends it; ``{"done": true}`` and the closing words after the last step."""
    state = live.state
    if lesson.is_over(state):
        return {"done": True, "text": t.gettext(DONE[live.kind]), "seq": live.seq}
    found = lesson.step(state)
    if found is None:
        raise IllegalAction("not_your_turn", seat=lesson.learner, to_move=state.to_move)
    index, step = found
    explanation, _ = _texts(live.kind, step.code, state, lesson, t)
    heading = t.gettext(STEP_OF) % {"step": index + 1, "steps": len(lesson.steps)}
    move = step.action(state)
    shown = live.adapter.draw_hint
    action = shown(Hint(move, "lesson"))["action"] if shown else move.to_json()
    return {
        "done": False,
        "step": index + 1,
        "steps": len(lesson.steps),
        "code": step.code,
        "text": f"{heading} {explanation}",
        "highlight": list(step.highlight(state)),
        "action": action,
        "seq": live.seq,
    }


def mistake_json(
    live: LiveGame[RulesT, StateT, ViewT, ActionT],
    lesson: Lesson[StateT, ActionT],
    verdict: Verdict,
    t: gettext.NullTranslations,
) -> dict[str, JSON]:
    """A move the lesson refuses, as the API answers a refusal: the engine's reason (or that
    the move is not the step's) and the step's instruction."""
    if verdict.refusal is not None:
        said = messages.describe(verdict.refusal, t)
        code, first = str(said["code"]), str(said["message"])
    else:
        code, first = "lesson_step", t.gettext(OTHER_MOVE)
    text = first
    if verdict.step is not None:
        _, instruction = _texts(live.kind, verdict.step, live.state, lesson, t)
        text = f"{first} {t.gettext(BACK_TO_STEP) % {'instruction': instruction}}"
    return {"code": code, "step": verdict.step, "message": text}
