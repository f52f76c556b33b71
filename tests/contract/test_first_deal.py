"""A first deal set by hand travels in the record: read back through the contract
(`GameState.start_type`), and refused when it does not deal to every seat of the record."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from rummykit.core import IllegalAction
from rummykit.lesson import Lesson
from rummykit.romme.lesson import LESSON as ROMME_LESSON
from rummykit.tiles.lesson import LESSON as TILES_LESSON

LESSONS = [pytest.param(ROMME_LESSON, id="romme"), pytest.param(TILES_LESSON, id="tiles")]


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_record_replays_its_first_deal(lesson: Lesson[Any, Any]) -> None:
    game = lesson.deal()
    assert "start" in game.record().rules
    assert type(game).replay(game.record()).dumps() == game.dumps()


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_first_deal_for_fewer_seats_than_the_record_is_refused(lesson: Lesson[Any, Any]) -> None:
    game = lesson.deal()
    record = game.record()
    longer = dataclasses.replace(record, seats=(*record.seats, "extra"))
    with pytest.raises(IllegalAction) as refused:
        type(game).replay(longer)
    assert refused.value.code == "bad_record"
    assert refused.value.params["reason"] == "first deal: one hand per seat"
