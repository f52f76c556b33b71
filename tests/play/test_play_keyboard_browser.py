"""Whole rounds of Rommé and of tile rummy with the keyboard alone: no click, no drag. At every
stop the focus is visible, in sight and never behind a dialog, and every control of the table
is at least 24×24 CSS pixels (or spaced as WCAG 2.2 allows). The tile round reworks the table:
a run laid on the first turn is split on the next, and a tile from the rack joins a part. A
joker goes to the low end of a run with Shift+Enter, as dropping it on the run's left half."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from accessibility.keyboard import (
    active_matches,
    assert_focus,
    select_by_keyboard,
    small_targets,
    tab_to,
)

from rummykit import romme
from rummykit.cards import parse_cards

from .helpers import bots_until_seat0, romme_seed, stored
from .test_play_browser import (
    ROOT,
    TILES,
    db_url,
    groups_in,
    hand,
    split_game,
    table_state,
    value,
    wait_my_turn_or_end,
    wait_seq_above,
)

pytestmark = pytest.mark.browser

THREE_SEATS = ("human", "bot:random", "bot:random")


def open_by_keyboard(page: Any, server: Any, kind: str, game_id: str, token: str) -> None:
    """The table at once speed (chosen beforehand, as a returning player's browser keeps it)."""
    page.context.add_cookies([{"name": f"rk_seat_{game_id}", "value": token, "url": server.url}])
    page.context.add_init_script("localStorage.setItem('rk-speed', JSON.stringify('instant'))")
    page.goto(f"{server.url}/en/{kind}/{game_id}")
    page.wait_for_selector(f"[data-{kind}-table][data-ready]")


def check_targets(page: Any, root: str, where: str, found: list[str]) -> None:
    found += [f"{where}: {target}" for target in small_targets(page, root)]


def wait_done(page: Any, seq: int) -> None:
    """Until the discard is made (the turn is over) or refused."""
    page.wait_for_function(
        """([seq]) => {
          const root = document.querySelector('[data-romme-table]');
          const view = root.rummy.view;
          const over = view.to_move !== 0 || !['play', 'discard'].includes(view.phase);
          return (view.seq > seq && over && !root.rummy.sending)
            || !root.querySelector('[data-error]').hidden;
        }""",
        arg=[seq],
    )


def romme_turn(page: Any, turn: int, small: list[str]) -> None:
    view = table_state(page)
    if view["phase"] == "draw":
        # From wherever the focus is: S draws, and the focus is then on the hand.
        page.keyboard.press("s")
        wait_seq_above(page, view["seq"])
    assert active_matches(page, "[data-hand] [data-code]")
    assert_focus(page, f"turn {turn}, drawn")
    view = table_state(page)
    codes = hand(page)
    melds = groups_in(codes)
    total = sum(value(c) for g in melds for c in g)
    laid = 0
    if melds and (view["opened"][0] or total >= view["opening_min"]):
        for group in melds:
            if laid + len(group) >= len(codes):
                break
            for code in group:
                select_by_keyboard(page, "[data-hand]", code)
            page.keyboard.press("m")
            laid += len(group)
            assert_focus(page, f"turn {turn}, a meld built")
        check_targets(page, ROOT, f"turn {turn}, melds built", small)
    rest = [c for c in hand(page) if c != view["picked"]]
    discard = max(rest, key=value)
    select_by_keyboard(page, "[data-hand]", discard)
    seq = table_state(page)["seq"]
    page.keyboard.press("d")
    wait_done(page, seq)
    if page.locator("[data-error]").is_visible() and table_state(page)["phase"] in (
        "play",
        "discard",
    ):
        # The melds were refused and went back to the hand: discard alone.
        page.keyboard.press("Escape")
        select_by_keyboard(page, "[data-hand]", discard)
        page.keyboard.press("d")
        wait_seq_above(page, table_state(page)["seq"])


def test_a_whole_romme_round_by_keyboard(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer").replace(rounds=1, stock_exhausted="end_round")
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), 3, THREE_SEATS)
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_by_keyboard(page, live_server, "romme", game_id, token)
    small: list[str] = []
    turns = 0
    while True:
        wait_my_turn_or_end(page)
        if page.locator("dialog[open]").count():
            break
        if turns == 0:
            check_targets(page, ROOT, "own turn", small)
        romme_turn(page, turns, small)
        turns += 1
        assert turns < 80
    assert turns >= 3
    # The round's end: the focus is in the dialog, and Tab keeps it there (past its last
    # control the browser takes the focus for its own bar, then gives it back to the dialog).
    assert_focus(page, "round end")
    check_targets(page, ROOT, "round end", small)
    for _ in range(8):
        page.keyboard.press("Tab")
        if not active_matches(page, "body"):
            assert_focus(page, "tabbing in the round-end dialog")
    screenshot(page, "round-end")
    assert not small, "\n".join(small)
    assert not errors


def test_a_tile_round_with_a_split_by_keyboard(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    game_id, token, run, spare = split_game(live_server)
    page = new_page(locale="en-GB")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_by_keyboard(page, live_server, "tiles", game_id, token)
    small: list[str] = []

    # First turn: the run from the rack (arrows and Space), N makes it a set, F sends it. The
    # first Tab stops go through the page's header to the table.
    tab_to(page, "[data-rack] [data-code]")
    for tile in run:
        select_by_keyboard(page, "[data-rack]", tile.code)
    page.keyboard.press("n")
    check_targets(page, TILES, "a new set", small)
    seq = table_state(page, TILES)["seq"]
    page.keyboard.press("f")
    wait_seq_above(page, seq, TILES)
    page.wait_for_function(
        """() => {
          const r = document.querySelector('[data-tiles-table]');
          return r.classList.contains('my-turn') && !r.rummy.queue.busy;
        }""",
        timeout=30_000,
    )
    index = next(
        i
        for i, s in enumerate(table_state(page, TILES)["table"])
        if s["tiles"] == [t.code for t in run]
    )
    check_targets(page, TILES, "the table with a run", small)

    # Second turn: Shift+Tab back from the rack to the scissors after the run's second tile,
    # Enter splits; the spare tile selected on the rack goes into the left part by its + button.
    assert active_matches(page, "[data-rack] [data-code]")
    tab_to(page, f'[data-split="{index}:2"]', backwards=True)
    page.keyboard.press("Enter")
    assert active_matches(page, "[data-rack] [data-code]")
    select_by_keyboard(page, "[data-rack]", spare.code)
    check_targets(page, TILES, "a split table, a tile chosen", small)
    tab_to(page, f'[data-add-to="{index}"]', backwards=True)
    page.keyboard.press("Enter")
    sets = page.eval_on_selector_all(
        "[data-table] [data-set]",
        "els => els.map(e => [...e.querySelectorAll('[data-code]')].map(t => t.dataset.code))",
    )
    assert [run[0].code, run[1].code, spare.code] in sets
    assert [t.code for t in run[2:]] in sets
    screenshot(page, "split")
    seq = table_state(page, TILES)["seq"]
    page.keyboard.press("f")
    wait_seq_above(page, seq, TILES)
    assert page.locator("[data-error]").is_hidden()
    after = [s["tiles"] for s in table_state(page, TILES)["table"]]
    assert [run[0].code, run[1].code, spare.code] in after

    # The rest of the round: D draws a tile each turn, until the round is over.
    turns = 0
    while True:
        page.wait_for_function(
            """() => {
              const r = document.querySelector('[data-tiles-table]');
              return (r.classList.contains('my-turn') && !r.rummy.queue.busy)
                || !!document.querySelector('dialog[open]');
            }""",
            timeout=30_000,
        )
        if page.locator("dialog[open]").count():
            break
        seq = table_state(page, TILES)["seq"]
        page.keyboard.press("d")
        assert_focus(page, f"draw {turns}")
        wait_seq_above(page, seq, TILES)
        turns += 1
        assert turns < 120
    assert_focus(page, "round end")
    check_targets(page, TILES, "round end", small)
    screenshot(page, "round-end")
    assert not small, "\n".join(small)
    assert not errors


def high_run_and_joker(state: romme.State) -> list[str] | None:
    """Three cards in a row of one suit from the ten up (an opening of 30 or more), when the
    hand also holds a joker."""
    hand = state.hands[0]
    if not any(c.is_joker for c in hand):
        return None
    for start in (10, 11):
        for suit in {c.suit for c in hand if c.suit is not None}:
            run = []
            for rank in range(start, start + 3):
                found = [c for c in hand if c.suit == suit and c.rank == rank]
                if not found:
                    break
                run.append(found[0])
            else:
                return [c.code for c in run]
    return None


def test_shift_enter_lays_a_joker_at_the_low_end_of_a_run(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    rules = romme.Rules.preset("computer").replace(rounds=1)
    seats = ("human", "bot:random")

    def works(state: romme.State) -> bool:
        run = high_run_and_joker(state)
        if run is None:
            return False
        state.apply(romme.Play.of(parse_cards(" ".join(run))))
        keep = [c for c in state.hands[0] if c.code not in run and not c.is_joker]
        state.apply(romme.Discard(max(keep, key=lambda c: c.id)))
        bots_until_seat0("romme", state, seats, state.seed)
        melds = [m for m in state.table.values() if m.owner == 0]
        return state.to_move == 0 and bool(melds) and melds[0].cards[0].rank != 1

    seed = romme_seed(rules, 2, works)
    dealt = romme.State(rules, 2, seed)
    run = high_run_and_joker(dealt)
    assert run is not None
    keep = [c for c in dealt.hands[0] if c.code not in run and not c.is_joker]
    discard = max(keep, key=lambda c: c.id).code
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, seats)
    page = new_page()
    open_by_keyboard(page, live_server, "romme", game_id, token)
    tab_to(page, "[data-hand] [data-code]")
    for code in run:
        select_by_keyboard(page, "[data-hand]", code)
    page.keyboard.press("m")
    select_by_keyboard(page, "[data-hand]", discard)
    seq = table_state(page)["seq"]
    page.keyboard.press("d")
    wait_done(page, seq)
    wait_my_turn_or_end(page)
    assert table_state(page)["phase"] == "draw"
    seq = table_state(page)["seq"]
    page.keyboard.press("s")
    wait_seq_above(page, seq)
    joker = next(c for c in hand(page) if c.startswith("JK"))
    select_by_keyboard(page, "[data-hand]", joker)
    meld = next(m for m in table_state(page)["table"] if m["owner"] == 0)
    tab_to(page, f'[data-table] [data-meld="{meld["id"]}"]', backwards=True)
    page.keyboard.press("Shift+Enter")
    cards = f'[data-table] [data-meld="{meld["id"]}"] [data-code]'
    shown = page.eval_on_selector_all(cards, "els => els.map(e => e.dataset.code)")
    assert shown == [joker, *meld["cards"]]
    seq = table_state(page)["seq"]
    page.keyboard.press("l")
    wait_seq_above(page, seq)
    laid = next(m for m in table_state(page)["table"] if m["id"] == meld["id"])
    assert laid["cards"][0] == joker


def test_space_selects_a_card_even_when_a_step_redraws_the_hand_before_the_key_comes_up(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    """A computer's move drawn while Space is down redraws the hand: the card is selected all
    the same (a button's click comes when the key comes up, on the card drawn anew)."""
    rules = romme.Rules.preset("computer").replace(rounds=1)
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), 3, THREE_SEATS)
    page = new_page()
    open_by_keyboard(page, live_server, "romme", game_id, token)
    wait_my_turn_or_end(page)
    tab_to(page, "[data-hand] [data-code]")
    code = page.evaluate("() => document.activeElement.dataset.code")
    page.keyboard.down("Space")
    page.evaluate("() => document.querySelector('[data-romme-table]').rummy.render()")
    page.keyboard.up("Space")
    assert page.get_attribute(f'[data-hand] [data-code="{code}"]', "aria-pressed") == "true"
    page.keyboard.press("Space")  # and Space again takes it back
    assert page.get_attribute(f'[data-hand] [data-code="{code}"]', "aria-pressed") == "false"
