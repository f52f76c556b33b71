"""Rummoli with the keyboard alone: the widow decision, a bid in the auction, the bets and a
lead chosen between cards of equal rank, each reached with Tab and made with Enter, to the end
of the game. At every stop the focus is visible, in sight and never behind a dialog; every
control of the table is at least 24×24 CSS pixels (or spaced as WCAG 2.2 allows); after a
decision the focus waits for the next one instead of going back to the top of the page."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from accessibility.keyboard import active_matches, assert_focus, small_targets, tab_to

from rummykit.rummoli import Rules

from .test_rummoli_play_browser import BETTING_SEED, SHOWDOWN_SEED, STATE, open_table, stored

pytestmark = pytest.mark.browser

ROOT = "[data-rummoli-table]"


def press_on(page: Any, selector: str, seen: dict[str, int]) -> None:
    """Enter on the control ``selector``: at once when the focus waits on it, else after
    tabbing to it (counted in ``seen["tabs"]`` when the focus had to go round the page)."""
    if not active_matches(page, selector):
        if not active_matches(page, "[data-decide] *"):
            seen["lost"] = seen.get("lost", 0) + 1
        tab_to(page, selector)
    assert_focus(page, f"on {selector}")
    page.keyboard.press("Enter")


def play_by_keyboard(
    page: Any, screenshot: Callable[[Any, str], Path], seen: dict[str, int], small: list[str]
) -> None:
    """Every decision of seat 0 until the game is over: keep the hand, bid the least once and
    then pass, check or call, lead the first card offered; go on after each hand."""
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        state = page.evaluate(STATE)
        if state["over"]:
            return
        if state["paused"]:
            seen["paused"] = seen.get("paused", 0) + 1
            press_on(page, "[data-go-on]", seen)
            continue
        if not state["turn"]:
            page.wait_for_timeout(80)
            continue
        phase = state["phase"]
        seen[phase] = seen.get(phase, 0) + 1
        small += [f"{phase}: {target}" for target in small_targets(page, ROOT)]
        seq = int(page.locator(ROOT).get_attribute("data-seq"))
        if phase == "widow":
            press_on(page, "[data-decide] [data-action='keep_hand']", seen)
        elif phase == "auction" and not seen.get("bid"):
            # The amount field holds the least bid allowed: Tab past it to "Bid", Enter.
            tab_to(page, "[data-decide] input[data-amount='bid']")
            page.keyboard.press("Tab")
            assert active_matches(page, "[data-decide] [data-action='bid']")
            screenshot(page, "bid")
            page.keyboard.press("Enter")
            seen["bid"] = 1
        elif phase == "auction":
            press_on(page, "[data-decide] [data-action='pass']", seen)
        elif phase == "betting":
            calls = page.locator("[data-decide] [data-action='call']").count()
            action = "call" if calls else "check"
            press_on(page, f"[data-decide] [data-action='{action}']", seen)
        elif phase == "lead":
            assert page.locator(".rm-my-hand button.can-lead").count() >= 2
            screenshot(page, "lead")
            press_on(page, "[data-decide] [data-action='play']", seen)
            seen["led"] = seen.get("led", 0) + 1
        page.wait_for_function(
            "seq => Number(document.querySelector('[data-rummoli-table]').dataset.seq) > seq"
            " || document.querySelector('[data-rummoli-table]').dataset.busy === '1'",
            arg=seq,
        )
    raise AssertionError(f"the game did not end in time: {seen}")


def finish(page: Any, small: list[str]) -> None:
    page.locator("dialog[data-round-end][open]").wait_for()
    assert_focus(page, "the end of the game")
    small += [f"end: {target}" for target in small_targets(page, ROOT)]
    for _ in range(6):
        page.keyboard.press("Tab")
        if not active_matches(page, "body"):
            assert_focus(page, "tabbing in the end dialog")


def test_rummoli_with_a_widow_decision_and_lead_choices_by_keyboard(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, token = stored(live_server, Rules(hands=1), SHOWDOWN_SEED)
    page = open_table(live_server, new_page, game_id, token, "instant")
    seen: dict[str, int] = {}
    small: list[str] = []
    play_by_keyboard(page, screenshot, seen, small)
    finish(page, small)
    assert seen.get("widow") == 1 and seen.get("led", 0) >= 2, seen
    # Only the first decision needed Tab from the top of the page: the focus waited after it.
    assert seen.get("lost", 0) <= 1, seen
    assert not small, "\n".join(small)


def test_rummoli_with_a_bid_and_bets_by_keyboard_on_a_phone(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, token = stored(live_server, Rules(hands=2, poker="betting"), BETTING_SEED)
    page = open_table(live_server, new_page, game_id, token, "instant", locale="de-DE", phone=True)
    seen: dict[str, int] = {}
    small: list[str] = []
    play_by_keyboard(page, screenshot, seen, small)
    finish(page, small)
    assert seen.get("bid") == 1 and seen.get("betting", 0) >= 2, seen
    assert seen.get("lost", 0) <= 1, seen
    assert not small, "\n".join(small)
