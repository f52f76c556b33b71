"""Colour is never the only cue: under simulated colour blindness (Chromium's emulation of
protanopia, deuteranopia, tritanopia and achromatopsia) the four tile colours keep four marks
of different shapes, and the cards keep their suits as symbols. Each emulation leaves its
screenshots in ``test-artifacts/``."""

from __future__ import annotations

import io
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from rummykit import romme, tiles

from .helpers import romme_seed, stored, tiles_seed
from .test_play_browser import TWO_SEATS, db_url, open_stored

pytestmark = pytest.mark.browser

VISIONS = ("none", "protanopia", "deuteranopia", "tritanopia", "achromatopsia")
COLOURS = "rbky"


def emulate(page: Any, vision: str) -> None:
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})


def ink(png: bytes) -> list[bool]:
    """Which pixels of a mark's picture are drawn (darker than the tile's face)."""
    image = Image.open(io.BytesIO(png)).convert("L").resize((24, 24))
    return [value < 215 for value in image.get_flattened_data()]


def apart(a: list[bool], b: list[bool]) -> float:
    """The share of pixels drawn in one mark and not in the other."""
    return sum(x != y for x, y in zip(a, b, strict=True)) / len(a)


def rack_with_every_colour(state: tiles.State) -> bool:
    return {t.colour.letter for t in state.racks[0] if t.colour is not None} >= set(COLOURS)


def test_the_tile_colours_keep_distinct_marks_under_colour_blindness(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = tiles.Rules()
    seed = tiles_seed(rules, 2, rack_with_every_colour)
    game_id, token = stored(db_url(live_server), "tiles", rules.to_json(), seed, TWO_SEATS)
    # A phone, drawn at three pixels a CSS pixel: the marks as a phone's screen shows them.
    page = new_page(locale="fr-FR", phone=True, device_scale_factor=3)
    open_stored(page, live_server, "tiles", "fr", game_id, token)
    legend = page.locator(".tile-legend")
    assert legend.locator(".tile-mark").count() == 4
    for colour in COLOURS:
        assert page.locator(f"[data-rack] .tile-{colour} .tile-mark-{colour}").count() >= 1
    # Every tile but a joker carries the mark of its own colour, and only that one.
    wrong = page.evaluate(
        """() => [...document.querySelectorAll('[data-rack] .tile')].filter((tile) => {
             const marks = tile.querySelectorAll('.tile-mark');
             if (tile.classList.contains('tile-joker')) return marks.length !== 0;
             const colour = [...tile.classList].find((c) => /^tile-[rbky]$/.test(c)).slice(5);
             return marks.length !== 1 || !marks[0].classList.contains(`tile-mark-${colour}`);
           }).map((tile) => tile.dataset.code)"""
    )
    assert wrong == []
    for vision in VISIONS:
        emulate(page, vision)
        screenshot(page, f"tiles-{vision}")
        marks = {}
        for colour in COLOURS:
            mark = page.locator(f"[data-rack] .tile-{colour} .tile-mark").first
            box = mark.bounding_box()
            # Readable on a phone: at least 10 CSS pixels wide and high.
            assert box is not None and box["width"] >= 10 and box["height"] >= 10, (colour, box)
            marks[colour] = ink(mark.screenshot())
            drawn = sum(marks[colour]) / len(marks[colour])
            assert drawn > 0.25, (vision, colour, drawn)
        for a, b in combinations(COLOURS, 2):
            assert apart(marks[a], marks[b]) > 0.12, (vision, a, b)
    emulate(page, "none")


def suits_of(state: romme.State) -> set[str]:
    return {c.suit.symbol for c in state.hands[0] if c.suit is not None}


def test_the_card_suits_are_told_by_their_symbols(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    # The four suits: two red ones, told apart by their symbols only.
    seed = romme_seed(rules, 2, lambda s: len(suits_of(s)) == 4)
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, TWO_SEATS)
    page = new_page(locale="de-DE", phone=True)
    open_stored(page, live_server, "romme", "de", game_id, token)
    faces = page.eval_on_selector_all(
        "[data-hand] [data-code]",
        """cards => cards.map((c) => [
             c.dataset.code.split('#')[0],
             [...c.querySelectorAll('.pc-suit')].map((s) => s.textContent),
             c.querySelector('.pc-center').textContent,
           ])""",
    )
    assert {face[-1] for face, _, _ in faces if face != "JK"} == suits_of(
        romme.State(rules, 2, seed)
    )
    for face, corners, centre in faces:
        if face == "JK":
            continue
        # Both corners and the middle of the card show its suit's symbol.
        assert corners == [face[-1], face[-1]], face
        assert face[-1] in centre, face
    for vision in ("achromatopsia", "deuteranopia"):
        emulate(page, vision)
        screenshot(page, f"cards-{vision}")
    emulate(page, "none")
