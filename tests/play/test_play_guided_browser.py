"""The guided first games: reached from the home page and from the rules pages, a friendly deal
against a beginner, the engine's advice at every decision in the page's language with the
cards or tiles it uses marked, a mistake refused with the engine's own reason, and the whole
round played through by following the guide (in English for Rommé, in French for tiles)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from rummykit import romme
from rummykit.core import IllegalAction
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.messages import CLIENT
from rummykit.web.routes.learn import LESSONS

from .test_play_browser import ROOT, TILES, hand, table_state, wait_seq_above

pytestmark = pytest.mark.browser

STATE = """(root) => {
  const table = document.querySelector(root).rummy;
  const view = table.view;
  return {
    mine: view.to_move === view.seat && !table.sending && !table.queue.busy,
    over: !!document.querySelector('dialog[open]'),
    hinted: table.hintAction && table.guidedSeq === view.seq ? table.hintAction : null,
    picked: [...document.querySelectorAll('.guide-pick')].map((e) => e.dataset.code ?? e.className),
    seq: view.seq,
  };
}"""


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def guide_state(page: Any, root: str) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(STATE, root)
    return state


def wait_for_advice(page: Any, root: str) -> dict[str, Any]:
    """Until the round is over, or the guide has advised this decision and marked it (the first
    advice may wait for the server's worker processes to start)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = guide_state(page, root)
        if state["over"] or (state["mine"] and state["hinted"]):
            return state
        page.wait_for_timeout(60)
    extra = page.evaluate(
        "(root) => { const t = document.querySelector(root).rummy; return [t.guidedSeq, t.guided,"
        " document.querySelector('[data-error]').textContent, t.el.hintBox.hidden] }",
        root,
    )
    raise AssertionError(f"no advice came: {guide_state(page, root)} {extra}")


def follow(page: Any, root: str, kind: str) -> int:
    """Play the round by the guide's advice; returns the number of decisions."""
    decisions = 0
    while True:
        state = wait_for_advice(page, root)
        if state["over"]:
            return decisions
        action = state["hinted"]
        in_hand = set(hand(page) if kind == "romme" else rack(page))
        marked = set(state["picked"])
        if action["t"] == "draw":
            assert len(marked) == 1, marked
        else:
            # What the guide marks is what the advice uses from the hand, and only that.
            assert marked == strings(action) & in_hand, (action, marked)
        seq = state["seq"]
        if action["t"] == "draw":
            key = "s" if kind == "romme" else "d"
            page.keyboard.press("p" if action.get("source") == "discard" else key)
        elif action["t"] == "discard":
            for code in marked:
                page.locator(f'[data-hand] [data-code="{code}"]').click()
            page.keyboard.press("d")
        else:
            page.locator("[data-act=apply-hint]").click()
            page.keyboard.press("l" if kind == "romme" else "f")
        wait_seq_above(page, seq, root)
        decisions += 1
        assert decisions < 200


def rack(page: Any) -> list[str]:
    codes: list[str] = page.eval_on_selector_all(
        "[data-rack] [data-code]", "els => els.map(e => e.dataset.code)"
    )
    return codes


def test_a_guided_first_game_of_romme_from_the_home_page(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/en/")
    page.get_by_role("link", name="Your first game of Rommé").click()
    page.get_by_role("button", name="Deal the cards").click()
    page.wait_for_selector(f"{ROOT}[data-ready]")
    page.select_option("[data-speed]", "instant")
    state = wait_for_advice(page, ROOT)
    # The friendly deal: the learner opens at once with 10♥ J♥ and a joker, worth 30.
    t = site_translations("en").gettext
    advice = page.locator("[data-hint-text]").inner_text()
    assert advice.startswith(t(CLIENT["hint_open_with_best_melds"]) % {"value": 30})
    assert "10♥ J♥" in advice
    marked = sorted(c.split("#")[0] for c in state["picked"])
    assert marked == ["10♥", "JK", "J♥"]
    screenshot(page, "advice")
    # A mistake: the 10♥ and J♥ alone are no meld; the engine says why, the cards come back.
    for code in state["picked"]:
        if not code.startswith("JK"):
            page.locator(f'[data-hand] [data-code="{code}"]').click()
    page.keyboard.press("m")
    page.keyboard.press("l")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    lesson = LESSONS["romme"]
    dealt = romme.State(romme.Rules.from_json(lesson.rules), 2, lesson.seed)
    # The two hearts, in the order the page lays them (by rank).
    two = sorted(
        (c for c in dealt.hands[0] if c.code in state["picked"] and not c.is_joker),
        key=lambda c: int(c.rank or 0),
    )
    with pytest.raises(IllegalAction) as refused:
        dealt.apply(romme.Play.of(two))
    said = messages.describe(refused.value, site_translations("en"))["message"]
    assert error.inner_text() == t(CLIENT["rejected"]) % {"message": said}
    assert len(hand(page)) == 14
    # Then the guide's way, to the end of the round.
    assert follow(page, ROOT, "romme") >= 4
    assert page.locator("dialog[open]").count() == 1
    assert table_state(page)["phase"] == "game_over"
    screenshot(page, "over")
    assert not errors


def test_a_guided_first_game_of_tile_rummy_from_the_french_rules_page(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    page = new_page(locale="fr-FR")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/fr/rules/tiles")
    page.get_by_role("link", name="Apprendre avec une première partie guidée").click()
    page.get_by_role("button", name="Distribuer les cartes").click()
    page.wait_for_selector(f"{TILES}[data-ready]")
    page.select_option("[data-speed]", "instant")
    state = wait_for_advice(page, TILES)
    # Three 13s make the first meld (39); the advice says so in French.
    assert sorted(c.split("#")[0] for c in state["picked"]) == ["k13", "r13", "y13"]
    text = page.locator("[data-hint-text]").inner_text()
    assert "39" in text and text == page.evaluate(
        "async (api) => (await (await fetch(api + '/hint')).json()).text",
        page.evaluate(f"() => document.querySelector('{TILES}').rummy.data.api"),
    )
    assert follow(page, TILES, "tiles") >= 3
    assert page.locator("dialog[open]").count() == 1
    screenshot(page, "over")
    assert not errors
