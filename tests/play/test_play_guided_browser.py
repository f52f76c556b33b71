"""The lessons, the guided first games, in the browser: reached from the home page and from the
rules pages, each step said in the page's language (in the hint box and in the live region)
with its cards or tiles ringed, a mistake refused with the engine's own reason and the step's
instruction, and each lesson played through to its end: Rommé in French, tile rummy in German.
After the tile lesson the game goes on with the computer's advice."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from accessibility.axe import audit

from rummykit import romme
from rummykit.cards import Card
from rummykit.romme.lesson import LESSON as ROMME_LESSON
from rummykit.tiles.lesson import LESSON as TILES_LESSON
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.lessons import BACK_TO_STEP, DONE, OTHER_MOVE, STEPS

from .test_play_browser import ROOT, TILES, hand, table_state, wait_seq_above

pytestmark = pytest.mark.browser

STATE = """(root) => {
  const table = document.querySelector(root).rummy;
  const view = table.view;
  const step = table.step && table.step.seq === view.seq ? table.step : null;
  return {
    mine: view.to_move === view.seat && !table.sending && !table.queue.busy,
    step,
    picked: [...document.querySelectorAll('.guide-pick')].map((e) => e.dataset.code ?? 'stock'),
    said: [...document.querySelectorAll('[data-announce] p')].map((e) => e.textContent),
    shown: document.querySelector('[data-hint-text]').textContent,
    seq: view.seq,
  };
}"""


def lesson_state(page: Any, root: str) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(STATE, root)
    return state


def wait_for_step(page: Any, root: str) -> dict[str, Any]:
    """Until the lesson's step for this position is on show with its marks and said aloud, or
    the lesson is over (the first step may wait for the computer's first move)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = lesson_state(page, root)
        step = state["step"]
        if step and step["done"]:
            return state
        if step and state["mine"] and state["picked"] and step["text"] in state["said"]:
            return state
        page.wait_for_timeout(60)
    raise AssertionError(f"no step came: {lesson_state(page, root)}")


def play_step(page: Any, root: str, kind: str, state: dict[str, Any]) -> None:
    """Make the step's move as a learner does: the key for a draw, the ringed card and the
    key for a discard, "Lay it out for me" and the key for a play."""
    step = state["step"]
    action = step["action"]
    if action["t"] == "draw":
        assert state["picked"] == ["stock"]
        page.keyboard.press("s" if kind == "romme" else "d")
    elif action["t"] == "discard":
        page.locator(f'[data-hand] [data-code="{action["card"]}"]').click()
        page.keyboard.press("d")
    else:
        page.locator("[data-act=apply-hint]").click()
        page.keyboard.press("l" if kind == "romme" else "f")
    wait_seq_above(page, state["seq"], root)


def follow(page: Any, root: str, kind: str) -> list[str]:
    """Play every step of the lesson; the codes of the steps played."""
    played: list[str] = []
    while True:
        state = wait_for_step(page, root)
        step = state["step"]
        if step["done"]:
            return played
        # The step is on show and said aloud, and what it marks is ringed, and only that.
        assert state["shown"] == step["text"]
        assert sorted(state["picked"]) == sorted(step["highlight"]), (step, state["picked"])
        play_step(page, root, kind, state)
        played.append(step["code"])
        assert len(played) <= 20


def rack(page: Any) -> list[str]:
    codes: list[str] = page.eval_on_selector_all(
        "[data-rack] [data-code]", "els => els.map(e => e.dataset.code)"
    )
    return codes


def test_the_romme_lesson_from_the_home_page_in_french(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    t = site_translations("fr")
    page = new_page(locale="fr-FR")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/fr/")
    page.get_by_role("link", name=t.gettext("Your first game of Rommé")).click()
    page.get_by_role("button", name=t.gettext("Deal the cards")).click()
    page.wait_for_selector(f"{ROOT}[data-ready]")
    page.select_option("[data-speed]", "instant")
    state = wait_for_step(page, ROOT)
    assert state["step"]["code"] == "draw" and state["step"]["step"] == 1
    play_step(page, ROOT, "romme", state)
    state = wait_for_step(page, ROOT)
    assert state["step"]["code"] == "open"
    assert sorted(state["picked"]) == ["10♠", "JK", "Q♠"]
    # A ringed card, read by a screen reader, is followed by the step that uses it.
    ringed = page.locator('[data-hand] [data-code="Q♠"]')
    assert ringed.get_attribute("aria-describedby") == "hint-text"
    assert page.locator("#hint-text").inner_text() == state["step"]["text"]
    screenshot(page, "step")
    found = audit(page, "Rommé lesson, a step shown")
    # A mistake: 2♥ 3♥ are no meld. The engine's reason, then the step's instruction; the
    # cards come back to the hand.
    before = sorted(hand(page))
    for code in ("2♥", "3♥"):
        page.locator(f'[data-hand] [data-code="{code}"]').click()
    page.keyboard.press("m")
    page.keyboard.press("l")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    game = ROMME_LESSON.deal()  # the computer discards first, then the learner draws
    game.apply(romme.Discard(game.hands[1][0]))
    game.apply(romme.Draw("stock"))
    verdict = ROMME_LESSON.judge(game, romme.Play.of([Card.parse("2♥"), Card.parse("3♥")]))
    assert verdict.refusal is not None and verdict.refusal.code == "invalid_meld"
    said = messages.describe(verdict.refusal, t)["message"]
    back = t.gettext(BACK_TO_STEP) % {"instruction": t.gettext(STEPS[("romme", "open")][1])}
    assert f"{said} {back}" in error.inner_text()
    assert sorted(hand(page)) == before
    screenshot(page, "mistake")
    found += audit(page, "Rommé lesson, a mistake refused")
    # Then every step, to going out.
    played = ["draw", *follow(page, ROOT, "romme")]
    assert played == [s.code for s in ROMME_LESSON.steps]
    done = page.locator("[data-lesson-text]")
    assert done.is_visible() and done.inner_text() == t.gettext(DONE["romme"])
    assert page.locator("dialog[open]").count() == 1
    assert table_state(page)["phase"] == "game_over"
    screenshot(page, "over")
    found += audit(page, "Rommé lesson, over")
    assert not errors
    assert not found, "\n" + "\n".join(found)


def test_the_tile_lesson_from_the_rules_page_in_german(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    t = site_translations("de")
    page = new_page(locale="de-DE")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/de/rules/tiles")
    page.get_by_role("link", name=t.gettext("Learn in a guided first game")).click()
    page.get_by_role("button", name=t.gettext("Deal the cards")).click()
    page.wait_for_selector(f"{TILES}[data-ready]")
    page.select_option("[data-speed]", "instant")
    state = wait_for_step(page, TILES)
    assert state["step"]["code"] == "open"
    assert sorted(state["picked"]) == ["k10", "k11", "k9"]
    # A mistake the rules allow: drawing instead of the first meld. The lesson refuses it,
    # and nothing changes.
    before = sorted(rack(page))
    page.keyboard.press("d")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    back = t.gettext(BACK_TO_STEP) % {"instruction": t.gettext(STEPS[("tiles", "open")][1])}
    assert f"{t.gettext(OTHER_MOVE)} {back}" in error.inner_text()
    assert sorted(rack(page)) == before and lesson_state(page, TILES)["seq"] == state["seq"]
    found = audit(page, "tile lesson, a mistake refused")
    played = follow(page, TILES, "tiles")
    assert played == [s.code for s in TILES_LESSON.steps]
    done = page.locator("[data-lesson-text]")
    assert done.is_visible() and done.inner_text() == t.gettext(DONE["tiles"])
    sets = sorted(" ".join(s["tiles"]) for s in table_state(page, TILES)["table"])
    assert sets == ["k11#1 k12 k13", "k9 k10 k11"]
    # The game goes on, with the computer's advice at the learner's turn.
    page.wait_for_function(
        f"() => !document.querySelector('{TILES} [data-hint-box]').hidden"
        f" && document.querySelector('{TILES}').rummy.hintAction"
    )
    screenshot(page, "after")
    found += audit(page, "tile lesson, over, the advice on show")
    assert not errors
    assert not found, "\n" + "\n".join(found)
