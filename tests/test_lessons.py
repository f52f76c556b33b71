"""The lessons of the first games (`rummykit.lesson`, `rummykit.romme.lesson`,
`rummykit.tiles.lesson`): the deal the record keeps, every step's move legal and accepted, the
whole script played through the engine to its end against the computer as the site runs it,
and any other move refused with nothing changed."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from rummykit import romme, tiles
from rummykit.core import IllegalAction
from rummykit.lesson import Lesson, run_script
from rummykit.romme.lesson import LESSON as ROMME
from rummykit.tiles.lesson import LESSON as TILES
from rummykit.web.play.adapter import adapter, derived_seed

LESSONS = {"romme": ROMME, "tiles": TILES}


def computer(lesson: Lesson[Any, Any]) -> Any:
    """The computer seat as the play layer runs it: its level, its seed derived from the
    game's seed, the seat and the step, and the view it gets as JSON."""
    game = adapter(lesson.game)

    def choose(state: Any, seat: int) -> Any:
        view = game.view_from_wire(game.view_to_wire(state.view(seat)))
        seed = derived_seed(lesson.seed, "bot", seat, len(state.actions))
        return game.make_bot(lesson.opponent, seed).choose(view)

    return choose


def positions(lesson: Lesson[Any, Any]) -> list[Any]:
    """The position before each step of the script (the computer's moves played between)."""
    found: list[Any] = []
    state = lesson.deal()
    choose = computer(lesson)
    while not lesson.is_over(state):
        seat = state.to_move
        if seat == lesson.learner:
            found.append(state.copy())
            step = lesson.step(state)
            assert step is not None
            state.apply(step[1].action(state), seat)
        else:
            state.apply(choose(state, seat), seat)
    return found


@pytest.mark.parametrize("kind", LESSONS)
def test_the_record_keeps_the_lessons_deal(kind: str) -> None:
    lesson = LESSONS[kind]
    game = lesson.deal()
    record = game.record(["human", "bot:random"])
    assert record.rules["start"] == game.start.to_json()
    again = adapter(kind).replay(record)
    assert again.dumps() == game.dumps() and again.start == game.start


@pytest.mark.parametrize("kind", LESSONS)
def test_the_whole_script_plays_through_the_engine_to_its_end(kind: str) -> None:
    lesson = LESSONS[kind]
    game = run_script(lesson, computer(lesson))
    assert lesson.is_over(game) and lesson.progress(game) == len(lesson.steps)
    # The game so played is a game like any other: its record replays it.
    assert adapter(kind).replay(game.record(["human", "bot:random"])).dumps() == game.dumps()


def test_the_romme_lesson_ends_with_the_learner_going_out() -> None:
    game = run_script(ROMME, computer(ROMME))
    assert game.is_over and game.winners == [0] and game.hands[0] == []
    # The computer never opened: it could only draw and discard.
    assert not game.opened[1]


def test_the_tile_lesson_ends_with_the_run_split_in_two() -> None:
    game = run_script(TILES, computer(TILES))
    assert sorted(s.code for s in game.table) == ["k11#1 k12 k13", "k9 k10 k11"]
    assert not game.opened[1] and not game.is_over


def test_the_romme_opening_is_a_run_worth_30() -> None:
    state = positions(ROMME)[1]
    play = ROMME.steps[1].action(state)
    assert [romme.meld_value(m.cards) for m in play.melds] == [30]
    assert ROMME.steps[1].params(state) == {"value": 30}


def test_the_tile_learner_draws_because_nothing_can_be_played() -> None:
    state = positions(TILES)[1]
    assert TILES.steps[1].code == "draw"
    assert tiles.solve(state.racks[0], state.table, state.rules).count == 0


@pytest.mark.parametrize("kind", LESSONS)
def test_every_steps_move_is_legal_and_is_the_steps_move(kind: str) -> None:
    lesson = LESSONS[kind]
    for index, state in enumerate(positions(lesson)):
        found = lesson.step(state)
        assert found is not None and found[0] == index
        move = found[1].action(state)
        assert state.can_apply(move, lesson.learner), (index, move)
        assert lesson.judge(state, move).ok
        # What the step marks is in the learner's hand (or is the pile to draw from).
        hand = {c.code for c in (state.hands if kind == "romme" else state.racks)[0]}
        assert set(found[1].highlight(state)) <= hand | {"stock"}, index


def wrong_moves(kind: str, state: Any) -> list[Any]:
    """Moves a learner might make instead: a draw, the discard pile, a card or tile that is
    no meld, and each other step's move in this position."""
    if kind == "romme":
        hand = state.hands[0]
        moves: list[Any] = [romme.Draw("stock"), romme.Draw("discard")]
        moves += [romme.Discard(hand[0]), romme.Discard(hand[-1])]
        moves.append(romme.Play.of(hand[:2]))
    else:
        rack = state.racks[0]
        lone = [*(s.code for s in state.table), rack[0].code]  # a tile alone is no set
        moves = [tiles.Draw(), tiles.action_from_json({"t": "play", "table": lone})]
    for step in LESSONS[kind].steps:
        # A step whose move does not exist in this position adds nothing.
        with contextlib.suppress(StopIteration, IllegalAction):
            moves.append(step.action(state))
    return moves


@pytest.mark.parametrize("kind", LESSONS)
def test_any_other_move_is_refused_and_changes_nothing(kind: str) -> None:
    lesson = LESSONS[kind]
    refused_by_rules = refused_by_lesson = 0
    for state in positions(lesson):
        found = lesson.step(state)
        assert found is not None
        _, step = found
        before = state.dumps()
        for move in wrong_moves(kind, state):
            if step.is_move(state, move):
                continue
            verdict = lesson.judge(state, move)
            assert not verdict.ok and verdict.step == step.code, move
            assert state.dumps() == before
            trial = state.copy()
            try:
                trial.apply(move, lesson.learner)
            except IllegalAction as refusal:
                # The engine's own reason comes with the lesson's refusal.
                assert verdict.refusal is not None and verdict.refusal.code == refusal.code
                refused_by_rules += 1
            else:
                assert verdict.refusal is None
                refused_by_lesson += 1
    assert refused_by_rules and refused_by_lesson


def test_a_move_the_rules_refuse_brings_the_engines_code() -> None:
    state = positions(ROMME)[1]  # after the first draw: the opening is awaited
    hearts = [c for c in state.hands[0] if c.code in ("2♥", "3♥")]
    verdict = ROMME.judge(state, romme.Play.of(hearts))
    assert verdict.refusal is not None and verdict.refusal.code == "invalid_meld"
    assert verdict.step == "open"
