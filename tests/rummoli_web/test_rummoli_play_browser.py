"""Rummoli against the computer in a real browser: whole hands through the page, the decisions
asked (the widow, the auction, the bets, a lead between equal cards), the forced sequence shown
card by card, and the log showing the server's sentences word for word."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rummykit.rummoli import Rules
from rummykit.store import Database, GameRepository
from rummykit.web.language import site_translations
from rummykit.web.rummoli import sentences as rummoli_sentences
from rummykit.web.rummoli import words as rummoli_words

pytestmark = pytest.mark.browser

SHOWDOWN_SEED = 16
"""With "easy" computers, seat 0 deals, keeps its hand and chooses a lead twice."""
BETTING_SEED = 1
"""With bets and two hands, seat 0 also bets and is asked in the auction of hand 2."""
NAMES = ["You", "Computer 1", "Computer 2", "Computer 3"]


def stored(server: Any, rules: Rules, seed: int, level: str = "easy") -> tuple[str, str]:
    """A game written straight into the live server's database with a chosen seed."""

    async def make() -> tuple[str, str]:
        db = Database(server.database_url)
        try:
            await db.migrate()
            seats = ["human", *([f"bot:{level}"] * 3)]
            new = await GameRepository(db).create_game("rummoli", rules.to_json(), seed, seats, [0])
        finally:
            await db.dispose()
        return new.id, new.seat_tokens[0]

    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


def open_table(
    server: Any, new_page: Callable[..., Any], game_id: str, token: str, speed: str, **options: Any
) -> Any:
    page = new_page(**options)
    page.context.add_cookies([{"name": f"rk_seat_{game_id}", "value": token, "url": server.url}])
    page.context.add_init_script(f"localStorage.setItem('rk-speed', JSON.stringify('{speed}'))")
    lang = options.get("locale", "en")[:2]
    page.goto(f"{server.url}/{lang}/rummoli/{game_id}")
    page.wait_for_selector("[data-rummoli-table][data-ready]")
    return page


STATE = """() => {
  const r = document.querySelector('[data-rummoli-table]');
  return {turn: r.classList.contains('my-turn') && r.dataset.busy !== '1',
          paused: r.dataset.paused === '1', over: r.dataset.over === '1', phase: r.dataset.phase};
}"""


def play_out(page: Any, screenshot: Callable[[Any, str], Path], seen: dict[str, int]) -> None:
    """Answer every decision of seat 0 until the game is over: keep the hand, pass in the
    auction, check or call, lead the first card offered; go on after each hand."""
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        state = page.evaluate(STATE)
        if state["over"]:
            return
        if state["paused"]:
            seen["paused"] = seen.get("paused", 0) + 1
            page.locator("[data-go-on]").click()
            continue
        if not state["turn"]:
            page.wait_for_timeout(80)
            continue
        phase = state["phase"]
        seen[phase] = seen.get(phase, 0) + 1
        seq = int(page.locator("[data-rummoli-table]").get_attribute("data-seq"))
        decide = page.locator("[data-decide]")
        if phase == "widow":
            assert decide.locator("[data-action='swap_widow']").is_visible()
            if seen[phase] == 1:
                screenshot(page, "widow")
            decide.locator("[data-action='keep_hand']").click()
        elif phase == "auction":
            amount = decide.locator("input[data-amount='bid']")
            assert int(amount.get_attribute("min")) >= 1
            screenshot(page, "auction")
            decide.locator("[data-action='pass']").click()
        elif phase == "betting":
            call = decide.locator("[data-action='call'], [data-action='check']").first
            assert decide.locator("[data-action='fold']").is_visible()
            if seen[phase] == 1:
                screenshot(page, "betting")
            call.click()
        elif phase == "lead":
            choices = page.locator(".rm-my-hand button.can-lead")
            assert choices.count() >= 2  # a choice between cards of equal rank
            if seen[phase] == 1:
                screenshot(page, "lead")
            choices.first.click()
        page.wait_for_function(
            "seq => Number(document.querySelector('[data-rummoli-table]').dataset.seq) > seq"
            " || document.querySelector('[data-rummoli-table]').dataset.busy === '1'",
            arg=seq,
        )
    raise AssertionError(f"the game did not end in time: {seen}")


def server_events(page: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    frames = page.evaluate(
        "async () => (await (await fetch(document.querySelector('[data-rummoli-table]')"
        ".rummy.data.api + '/replay')).json()).frames"
    )
    events = [e for frame in frames for e in frame["events"]]
    return events, frames[-1]


def test_a_whole_hand_against_three_computers(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, token = stored(live_server, Rules(hands=1), SHOWDOWN_SEED)
    page = open_table(live_server, new_page, game_id, token, "fast")
    table = page.locator("[data-rummoli-table]")
    assert page.locator(".rm-opponent").count() == 3
    assert page.locator(".rm-box").count() == 9
    # Only seat 0's cards are face up: 13 cards of 52 over 5 hands, the others as backs.
    assert page.locator(".rm-my-hand .pc").count() in (10, 11)
    seen: dict[str, int] = {}
    play_out(page, screenshot, seen)
    assert seen.get("widow") == 1 and seen.get("lead", 0) >= 1
    assert page.locator("dialog[data-round-end]").evaluate("d => d.open")
    screenshot(page, "over")
    # The table says what the server's log says, word for word.
    events, last = server_events(page)
    t = site_translations("en")
    expected = [rummoli_sentences.describe(e, t, NAMES, me=0) for e in events]
    shown = page.locator("[data-log] li").all_inner_texts()
    assert shown[: len(expected)] == expected[::-1][: len(shown)]
    # The chips shown are the engine's, and nothing was lost on the way.
    for seat, chips in enumerate(last["chips"]):
        rows = page.locator("[data-standings] li").all_inner_texts()
        assert any(NAMES[seat] in row and rummoli_words.chips_text(chips, t) in row for row in rows)
    assert sum(last["chips"]) + sum(last["board"].values()) == 4 * 40
    for box, chips in last["board"].items():
        assert table.locator(f".rm-box[data-box='{box}'] [data-chips]").inner_text() == (
            rummoli_words.chips_text(chips, t)
        )
    # The replay steps through the same game with the keyboard.
    page.locator("dialog[data-round-end] a[href$='/replay']").click()
    page.wait_for_selector("[data-rummoli-table][data-replay][data-ready]")
    replay = page.locator("[data-rummoli-table]")
    assert replay.get_attribute("data-step") == "0"
    page.keyboard.press("ArrowRight")
    assert replay.get_attribute("data-step") == "1"
    assert page.locator(".rm-my-hand .pc").count() >= 10
    page.keyboard.press("End")
    steps = int(page.locator("[data-slider]").get_attribute("max"))
    assert replay.get_attribute("data-step") == str(steps)
    final = page.locator("[data-events] li").all_inner_texts()
    assert final and final[-1] == expected[-1]
    screenshot(page, "replay")


def test_bets_and_the_auction_on_a_phone_in_german(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    game_id, token = stored(live_server, Rules(hands=2, poker="betting"), BETTING_SEED)
    page = open_table(live_server, new_page, game_id, token, "instant", locale="de-DE", phone=True)
    seen: dict[str, int] = {}
    play_out(page, screenshot, seen)
    assert seen.get("auction", 0) >= 1 and seen.get("betting", 0) >= 2
    assert "Die Partie ist vorbei." in page.locator("[data-status]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "over")


def test_the_hint_button_points_at_the_decision_the_server_suggests(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    game_id, token = stored(live_server, Rules(hands=1), SHOWDOWN_SEED)
    page = open_table(live_server, new_page, game_id, token, "instant")
    page.wait_for_function(f"() => ({STATE})().turn", timeout=30_000)
    hint = page.locator("[data-act=hint]")
    assert hint.is_enabled()
    hint.click()
    box = page.locator("[data-hint-box]")
    box.wait_for(state="visible", timeout=30_000)
    answer = page.evaluate(
        "async () => (await (await fetch(document.querySelector('[data-rummoli-table]')"
        ".rummy.data.api + '/hint')).json())"
    )
    # Seat 0 deals: the hint is its choice between the widow and its own hand, in words.
    assert answer["action"]["t"] in ("swap_widow", "keep_hand")
    assert page.locator("[data-hint-text]").inner_text() == answer["text"] != ""
    page.click("[data-act=apply-hint]")
    assert box.is_hidden()
    suggested = page.locator(f"[data-decide] [data-action='{answer['action']['t']}']")
    assert suggested.evaluate(
        "b => b === document.activeElement && b.classList.contains('is-hinted')"
    )
    # Following the hint plays it; the hint box stays closed for the next decision.
    suggested.click()
    page.wait_for_function(
        "seq => Number(document.querySelector('[data-rummoli-table]').dataset.seq) > seq",
        arg=answer["seq"],
        timeout=30_000,
    )
    assert box.is_hidden()


def test_the_player_plays_their_own_cards_of_the_sequence_and_the_page_says_what_happens(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    """With "play my own cards" on, the sequence stops at each card the player holds until the
    player plays it with one tap (or Enter on its focused button); while the steps pass the
    status says what is being played (not "Computer 1 is thinking…"), and the page never
    scrolls by itself for a player who taps."""
    game_id, token = stored(live_server, Rules(hands=1), SHOWDOWN_SEED)
    page = new_page(viewport={"width": 1280, "height": 720})
    page.context.add_cookies(
        [{"name": f"rk_seat_{game_id}", "value": token, "url": live_server.url}]
    )
    page.context.add_init_script(
        "localStorage.setItem('rk-speed', JSON.stringify('fast'));"
        "localStorage.setItem('rk-rummoli-own-cards', 'true')"
    )
    page.goto(f"{live_server.url}/en/rummoli/{game_id}")
    page.wait_for_selector("[data-rummoli-table][data-ready]")
    assert page.locator("[data-own-cards]").is_checked()
    page.evaluate(
        """() => {
      window.seenStatus = [];
      const status = document.querySelector('[data-status]');
      new MutationObserver(() => window.seenStatus.push(status.textContent))
        .observe(status, {childList: true, characterData: true, subtree: true});
    }"""
    )
    own_cards, decisions = 0, 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = page.evaluate(STATE)
        assert page.evaluate("() => window.scrollY") == 0
        if state["over"]:
            break
        own = page.locator("[data-rummoli-table]").get_attribute("data-own-card")
        if own:
            own_cards += 1
            button = page.locator("[data-play-own]")
            assert button.evaluate("b => b === document.activeElement")
            assert own[:-1] in button.inner_text()
            if own_cards == 1:
                screenshot(page, "own-card")
            # Focused, Enter would play it; a tap does (the keyboard's own round is tested
            # in test_rummoli_keyboard_browser).
            button.dispatch_event("click")
            page.wait_for_function(
                "code => document.querySelector('[data-rummoli-table]').dataset.ownCard !== code",
                arg=own,
            )
            continue
        if state["paused"]:
            page.locator("[data-go-on]").dispatch_event("click")
        elif state["turn"]:
            decisions += 1
            decide = page.locator("[data-decide]")
            if state["phase"] == "widow":
                decide.locator("[data-action='keep_hand']").dispatch_event("click")
            elif state["phase"] == "lead":
                # Looked up and tapped in one step: a step of the sequence may redraw the hand
                # between this loop's reading and the tap (the loop reads the page again).
                page.evaluate(
                    "() => document.querySelector('.rm-my-hand button.can-lead')?.click()"
                )
            else:
                decide.locator("[data-action='pass'], [data-action='check']").first.dispatch_event(
                    "click"
                )
        page.wait_for_timeout(60)
    assert page.evaluate(STATE)["over"]
    assert own_cards >= 1 and decisions >= 2
    seen = page.evaluate("() => window.seenStatus")
    assert any(text.startswith("The sequence: you hold") for text in seen), seen
    assert "The sequence: whoever holds the next card plays it." in seen
    assert "The widow is being auctioned." in seen
