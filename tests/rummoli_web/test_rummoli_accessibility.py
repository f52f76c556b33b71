"""The Rummoli table passes axe-core's WCAG 2.0/2.1/2.2 A and AA rules when seat 0 is asked to
choose between its hand and the widow and when it bets, in light and dark mode. The test fails
with axe's own description of every violation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from accessibility.axe import audit

from rummykit.rummoli import Rules

from .test_rummoli_play_browser import BETTING_SEED, STATE, open_table, stored

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("scheme", "lang"), [("light", "es"), ("dark", "en")])
def test_the_widow_decision_and_the_betting_pass_the_wcag_rules(
    live_server: Any, new_page: Callable[..., Any], scheme: str, lang: str
) -> None:
    game_id, token = stored(live_server, Rules(hands=2, poker="betting"), BETTING_SEED)
    page = open_table(live_server, new_page, game_id, token, "instant", locale=lang)
    page.emulate_media(color_scheme=scheme)
    found: list[str] = []
    audited: set[str] = set()
    while audited != {"widow", "betting"}:
        page.wait_for_function(f"() => ({STATE})().turn || ({STATE})().paused")
        state = page.evaluate(STATE)
        if state["paused"]:
            page.locator("[data-go-on]").click()
            continue
        phase = state["phase"]
        decide = page.locator("[data-decide]")
        if phase in ("widow", "betting") and phase not in audited:
            found += audit(page, f"{scheme} Rummoli, {phase}")
            audited.add(phase)
        seq = int(page.locator("[data-rummoli-table]").get_attribute("data-seq"))
        if phase == "widow":
            decide.locator("[data-action='keep_hand']").click()
        elif phase == "auction":
            decide.locator("[data-action='pass']").click()
        elif phase == "betting":
            decide.locator("[data-action='call'], [data-action='check']").first.click()
        elif phase == "lead":
            page.locator(".rm-my-hand button.can-lead").first.click()
        else:
            raise AssertionError(f"an unexpected decision: {phase}")
        page.wait_for_function(
            "seq => Number(document.querySelector('[data-rummoli-table]').dataset.seq) > seq"
            " || document.querySelector('[data-rummoli-table]').dataset.busy === '1'",
            arg=seq,
        )
    assert not found, "\n" + "\n".join(found)
