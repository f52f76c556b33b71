"""Rommé and tile rummy in a real browser (Chromium through Playwright), against the computer.

A script plays a whole Rommé round through the page, choosing legal moves from what the page
shows (with a reload and a server restart in the middle, and its first turn by keyboard only),
then steps through the replay with the arrow keys. Deals for the other tests are chosen by seed
(only a test can store a game with a chosen seed) and the computer's turns in between are
checked beforehand by playing the same bots with the same seeds. Screenshots go to
``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.web.language import site_translations
from rummykit.web.play.messages import CLIENT, ERRORS

from .helpers import bots_until_seat0, romme_seed, stored, tiles_seed

pytestmark = pytest.mark.browser

ROOT = "[data-romme-table]"
TILES = "[data-tiles-table]"
VALUES = {"A": 11, "J": 10, "Q": 10, "K": 10}
TWO_SEATS = ("human", "bot:random")


def value(code: str) -> int:
    face = code.split("#")[0]
    if face == "JK":
        return 20
    rank = face[:-1]
    return VALUES.get(rank) or int(rank)


def table_state(page: Any, root: str = ROOT) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(f"document.querySelector('{root}').rummy.view")
    return state


def hand(page: Any) -> list[str]:
    codes: list[str] = page.eval_on_selector_all(
        "[data-hand] [data-code]", "els => els.map(e => e.dataset.code)"
    )
    return codes


def card(page: Any, code: str, where: str = "[data-hand]") -> Any:
    return page.locator(f'{where} [data-code="{code}"]')


def wait_seq_above(page: Any, seq: int, root: str = ROOT) -> None:
    page.wait_for_function(
        "([root, seq]) => document.querySelector(root).rummy.view.seq > seq", arg=[root, seq]
    )


def wait_my_turn_or_end(page: Any) -> None:
    page.wait_for_function(
        """() => {
          const root = document.querySelector('[data-romme-table]');
          const queue = root?.rummy?.queue;
          if (!root || !queue || queue.busy) return false;
          return root.classList.contains('my-turn') || document.querySelector('dialog[open]');
        }""",
        timeout=30_000,
    )


def drag(page: Any, source: Any, target: Any) -> None:
    """Drag with the mouse (pointer events, as a finger would) from one element onto another."""
    start, end = source.bounding_box(), target.bounding_box()
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y - 12, steps=3)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def select_only(page: Any, code: str) -> None:
    """Select one card of the hand, and no other."""
    for other in page.locator('[data-hand] [aria-pressed="true"]').all():
        if other.get_attribute("data-code") != code:
            other.click()
    if card(page, code).get_attribute("aria-pressed") != "true":
        card(page, code).click()


def groups_in(codes: list[str]) -> list[list[str]]:
    """Sets of three or four naturals of one rank in different suits."""
    by_rank: dict[str, dict[str, str]] = {}
    for code in codes:
        face = code.split("#")[0]
        if face == "JK":
            continue
        by_rank.setdefault(face[:-1], {}).setdefault(face[-1], code)
    return [list(suits.values()) for suits in by_rank.values() if len(suits) >= 3]


def open_stored(page: Any, server: Any, kind: str, lang: str, game_id: str, token: str) -> None:
    page.context.add_cookies([{"name": f"rk_seat_{game_id}", "value": token, "url": server.url}])
    page.goto(f"{server.url}/{lang}/{kind}/{game_id}")
    page.wait_for_selector(f"[data-{'romme' if kind == 'romme' else 'tiles'}-table][data-ready]")
    page.select_option("[data-speed]", "instant")


def db_url(server: Any) -> str:
    url: str = server.database_url
    return url


# --- a whole round -------------------------------------------------------------------------


def play_turn(page: Any, by_keyboard: bool = False) -> None:
    view = table_state(page)
    if view["phase"] == "draw":
        seq = view["seq"]
        if by_keyboard:
            page.locator("[data-hand] [data-code]").first.focus()
            page.keyboard.press("s")
        else:
            page.click("[data-stock]")
        wait_seq_above(page, seq)
    view = table_state(page)
    codes = hand(page)
    opened = view["opened"][0]
    melds = groups_in(codes)
    total = sum(value(c) for g in melds for c in g)
    laid: set[str] = set()
    if melds and (opened or total >= view["opening_min"]):
        for group in melds:
            if len(laid) + len(group) >= len(codes):
                break
            for code in group:
                card(page, code).click()
            page.click("[data-act=meld]")
            laid |= set(group)
    rest = [c for c in hand(page) if c != view["picked"]]
    discard = max(rest, key=value)
    seq = table_state(page)["seq"]
    if by_keyboard:
        codes = hand(page)
        page.locator("[data-hand] [data-code]").first.focus()
        for _ in range(codes.index(discard)):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        page.keyboard.press("d")
    else:
        select_only(page, discard)
        page.click("[data-act=discard]")
    page.wait_for_function(
        """([seq]) => {
          const root = document.querySelector('[data-romme-table]');
          const error = root.querySelector('[data-error]');
          const view = root.rummy.view;
          // Done when the discard is made (not just the melds before it), or refused.
          const discarded = view.to_move !== 0 || !['play', 'discard'].includes(view.phase);
          return (view.seq > seq && discarded && !root.rummy.sending) || !error.hidden;
        }""",
        arg=[seq],
    )
    if not page.locator("[data-error]").is_hidden() and table_state(page)["phase"] in (
        "play",
        "discard",
    ):
        # The melds were refused (they went back to the hand): discard alone.
        select_only(page, discard)
        page.click("[data-act=discard]")
        wait_seq_above(page, table_state(page)["seq"])


def test_a_whole_romme_round_against_two_computers_then_its_replay(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/en/romme/new")
    screenshot(page, "new-game")
    page.select_option("#opponents", "2")
    page.check("input[name=level][value=random]")
    page.fill("#in-rounds", "1")
    page.select_option("#in-stock_exhausted", "end_round")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(f"{ROOT}[data-ready]")
    page.select_option("[data-speed]", "instant")
    assert page.locator(".opponent").count() == 2
    turns = 0
    while True:
        wait_my_turn_or_end(page)
        if page.locator("dialog[open]").count():
            break
        play_turn(page, by_keyboard=turns == 0)
        turns += 1
        if turns == 2:
            screenshot(page, "table")
        if turns == 3:
            wait_my_turn_or_end(page)
            before = (table_state(page)["seq"], sorted(hand(page)))
            page.reload()
            page.wait_for_selector(f"{ROOT}[data-ready]")
            assert (table_state(page)["seq"], sorted(hand(page))) == before
        if turns == 4:
            wait_my_turn_or_end(page)
            before = (table_state(page)["seq"], sorted(hand(page)))
            live_server.restart()
            page.reload()
            page.wait_for_selector(f"{ROOT}[data-ready]")
            page.select_option("[data-speed]", "instant")
            assert (table_state(page)["seq"], sorted(hand(page))) == before
        assert turns < 80
    assert turns >= 3
    dialog = page.locator("dialog[open]")
    assert dialog.locator(".penalty-row").count() == 3
    assert dialog.locator("table.scores tbody tr").count() == 1
    assert dialog.get_by_text("The game is over.").count() >= 1
    view = table_state(page)
    end = view["round_end"]
    for seat, cards in enumerate(end["hands"]):
        shown = dialog.locator(f'.penalty-row[data-seat="{seat}"] .penalty-card').count()
        assert shown == len(cards)
        expected = sum(c["value"] for c in cards)
        if seat != end["winner"] and not end["hand_romme"]:
            assert end["penalties"][seat] == expected
    screenshot(page, "round-end")
    assert not errors

    # The replay, step by step with the arrow keys.
    page.click("[data-replay-link]")
    page.wait_for_selector("[data-replay][data-ready=loaded]")
    assert page.get_attribute("[data-replay]", "data-step") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("[data-replay]", "data-step") == "2"
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("[data-replay]", "data-step") == "1"
    assert page.locator("[data-events]").inner_text().strip()
    page.keyboard.press("End")
    last = int(page.get_attribute("[data-replay]", "data-step") or 0)
    assert last == view["seq"]
    assert page.locator("[data-hand] .pc").count() == len(end["hands"][0])
    screenshot(page, "replay")
    page.keyboard.press("Home")
    assert page.get_attribute("[data-replay]", "data-step") == "0"
    assert not errors


# --- an opening below 30, in Spanish on a phone ------------------------------------------------


def low_group(state: romme.State) -> list[Card] | None:
    by_rank: dict[int, dict[Any, Card]] = {}
    for c in state.hands[0]:
        if c.rank is not None and 2 <= int(c.rank) <= 9:
            by_rank.setdefault(int(c.rank), {}).setdefault(c.suit, c)
    found = [list(s.values())[:3] for s in by_rank.values() if len(s) >= 3]
    return found[0] if found else None


def test_an_opening_below_30_is_refused_in_spanish(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    seed = romme_seed(rules, 3, lambda s: low_group(s) is not None, start=100)
    group = low_group(romme.State(rules, 3, seed))
    assert group is not None
    game_id, token = stored(
        db_url(live_server), "romme", rules.to_json(), seed, ("human", "bot:random", "bot:random")
    )
    page = new_page(locale="es-ES", phone=True)
    for kind in ("romme", "tiles"):
        # The new-game form fits the phone's width: nothing to scroll sideways.
        page.goto(f"{live_server.url}/es/{kind}/new")
        widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= widths[1], (kind, widths)
    open_stored(page, live_server, "romme", "es", game_id, token)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert len(hand(page)) == 14
    for c in group:
        card(page, c.code).click()
    page.click("[data-act=meld]")
    assert page.locator(".meld-new .pc").count() == 3
    assert len(hand(page)) == 11
    screenshot(page, "pending-meld")
    page.click("[data-act=commit]")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    t = site_translations("es").gettext
    total = sum(int(c.rank) for c in group if c.rank)
    reason = t(ERRORS["opening_below_minimum"]) % {"value": total, "minimum": 30}
    assert error.inner_text() == t(CLIENT["rejected"]) % {"message": reason}
    assert "primera" in reason.lower()
    assert len(hand(page)) == 14 and page.locator(".meld-new").count() == 0
    assert table_state(page)["seq"] == 0
    screenshot(page, "refused")


# --- a joker exchange ---------------------------------------------------------------------


def exchange_plan(state: romme.State) -> tuple[list[Card], Card, Card] | None:
    """A joker and three suits of a rank worth 10 or 11: meld two with the joker (30 or 33),
    keep the third to exchange later."""
    hand = state.hands[0]
    jokers = [c for c in hand if c.is_joker]
    if not jokers:
        return None
    for rank in (1, 10, 11, 12, 13):
        suits: dict[Any, Card] = {}
        for c in hand:
            if c.rank is not None and int(c.rank) == rank:
                suits.setdefault(c.suit, c)
        if len(suits) >= 3:
            a, b, keep = list(suits.values())[:3]
            return [a, b, jokers[0]], keep, jokers[0]
    return None


SUIT_ORDER = {"♠": 0, "♥": 1, "♣": 2, "♦": 3}


def page_order(cards: list[Card]) -> list[Card]:
    """The order the page lays selected cards in: its hand sorted by suit, jokers last."""
    return sorted(
        cards,
        key=lambda c: (c.is_joker, SUIT_ORDER[c.suit.symbol] if c.suit else 0, c.rank or 0, c.copy),
    )


def test_a_joker_exchange(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    seats = ("human", "bot:random", "bot:random")

    def works(state: romme.State) -> bool:
        plan = exchange_plan(state)
        if plan is None:
            return False
        meld, keep, joker = plan
        state.apply(romme.Play.of(page_order(meld)))
        other = min((c for c in state.hands[0] if c != keep), key=lambda c: c.id)
        state.apply(romme.Discard(other))
        bots_until_seat0("romme", state, seats, state.seed)
        return (
            state.to_move == 0
            and state.phase == "draw"
            and keep in state.hands[0]
            and joker in state.table[0].cards
        )

    seed = romme_seed(rules, 3, works, start=1)
    meld, keep, joker = exchange_plan(romme.State(rules, 3, seed)) or ([], None, None)
    assert keep is not None and joker is not None
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, seats)
    page = new_page(locale="de-DE")
    open_stored(page, live_server, "romme", "de", game_id, token)
    # First turn: open with the joker, discard the lowest-numbered other card.
    for c in meld:
        card(page, c.code).click()
    page.click("[data-act=meld]")
    other = min(
        (c for c in romme.State(rules, 3, seed).hands[0] if c not in meld and c != keep),
        key=lambda c: c.id,
    )
    card(page, other.code).click()
    page.click("[data-act=discard]")
    wait_seq_above(page, 1)
    wait_my_turn_or_end(page)
    assert table_state(page)["phase"] == "draw"
    seq = table_state(page)["seq"]
    page.click("[data-stock]")
    wait_seq_above(page, seq)
    # The exchange: the natural card onto the joker, then the freed joker back onto the meld.
    card(page, keep.code).click()
    page.locator(f'[data-table] [data-joker="{joker.code}"]').click()
    assert card(page, joker.code).count() == 1
    assert page.locator(f'[data-table] [data-code="{keep.code}"]').count() == 1
    screenshot(page, "exchanged")
    # The freed joker goes back onto the meld by dragging it there.
    drag(page, card(page, joker.code), page.locator('[data-table] [data-meld="0"]'))
    assert page.locator('[data-table] [data-meld="0"] .pc').count() == 4
    seq = table_state(page)["seq"]
    page.click("[data-act=commit]")
    wait_seq_above(page, seq)
    view = table_state(page)
    meld0 = next(m for m in view["table"] if m["id"] == 0)
    assert keep.code in meld0["cards"] and joker.code in meld0["cards"] and len(meld0["cards"]) == 4
    assert view["phase"] == "discard" and page.locator("[data-error]").is_hidden()
    screenshot(page, "laid")


# --- tile rummy: splitting a run ------------------------------------------------------------


def split_plan(state: tiles.State) -> tuple[list[tiles.Tile], tiles.Tile] | None:
    """A run of five in one colour worth 30 or more, and the second copy of its middle tile."""
    rack = state.racks[0]
    for colour in tiles.Colour:
        for start in range(4, 10):
            run = []
            for n in range(start, start + 5):
                found = [t for t in rack if t.colour == colour and t.number == n]
                if not found:
                    break
                run.append(found[0])
            else:
                middle = [t for t in rack if t.colour == colour and t.number == start + 2]
                if len(middle) == 2:
                    return run, middle[1]
    return None


def split_game(server: Any) -> tuple[str, str, list[Any], Any]:
    """A stored tile game (against one random computer) whose first turn lays a run and whose
    next turn can split it with the spare tile of the rack: its id, seat 0's token, the run
    and the spare tile."""
    rules = tiles.Rules(rack_size=14)
    seats = ("human", "bot:random")

    def works(state: tiles.State) -> bool:
        plan = split_plan(state)
        if plan is None:
            return False
        run, spare = plan
        state.apply(tiles.Play((tiles.read_set(run, rules),)))
        bots_until_seat0("tiles", state, seats, state.seed)
        return (
            state.to_move == 0
            and spare in state.racks[0]
            and any(s.tiles == tuple(run) for s in state.table)
        )

    seed = tiles_seed(rules, 2, works)
    run, spare = split_plan(tiles.State(rules, 2, seed)) or ([], None)
    assert spare is not None
    game_id, token = stored(db_url(server), "tiles", rules.to_json(), seed, seats)
    return game_id, token, run, spare


def test_a_tile_rummy_turn_that_splits_a_run(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    game_id, token, run, spare = split_game(live_server)
    page = new_page(locale="fr-FR")
    open_stored(page, live_server, "tiles", "fr", game_id, token)
    for t in run:
        card(page, t.code, "[data-rack]").click()
    page.click("[data-act=new-set]")
    seq = table_state(page, TILES)["seq"]
    page.click("[data-act=done]")
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
    screenshot(page, "before-split")
    # Split after the second tile, then put the spare middle tile at the left part's end.
    page.locator(f'[data-table] [data-split="{index}:2"]').click()
    drag(page, card(page, spare.code, "[data-rack]"), page.locator(f'[data-set="{index}"]'))
    sets = page.eval_on_selector_all(
        "[data-table] [data-set]",
        "els => els.map(e => [...e.querySelectorAll('[data-code]')].map(t => t.dataset.code))",
    )
    assert [run[0].code, run[1].code, spare.code] in sets
    assert [t.code for t in run[2:]] in sets
    screenshot(page, "split")
    seq = table_state(page, TILES)["seq"]
    # Slowly, so that the page still shows the table as this turn left it.
    page.select_option("[data-speed]", "slow")
    page.click("[data-act=done]")
    wait_seq_above(page, seq, TILES)
    assert page.locator("[data-error]").is_hidden()
    view = table_state(page, TILES)
    after = [s["tiles"] for s in view["table"]]
    assert [run[0].code, run[1].code, spare.code] in after and [t.code for t in run[2:]] in after
    assert spare.code not in view["rack"]
    screenshot(page, "after-split")


# --- between rounds ---------------------------------------------------------------------------


def test_the_next_round_from_the_round_end(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    import time

    import httpx

    from rummykit.bench.web import _choose

    rules = romme.Rules.preset("computer").replace(rounds=2, stock_exhausted="end_round")
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), 5, TWO_SEATS)
    headers = {"X-Seat-Token": token}
    api = f"{live_server.url}/api/games/{game_id}"
    deadline = time.monotonic() + 60
    while True:
        current = httpx.get(api, headers=headers).json()
        if current["phase"] == "round_over":
            break
        if current["to_move"] == 0:
            body = {"seq": current["seq"], "action": _choose(current)}
            assert httpx.post(f"{api}/actions", json=body, headers=headers).status_code == 200
        else:
            time.sleep(0.05)
        assert time.monotonic() < deadline
    page = new_page(locale="en-GB")
    open_stored(page, live_server, "romme", "en", game_id, token)
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    assert dialog.locator(".penalty-row").count() == 2
    assert page.locator("[data-round]").inner_text() == "Round 1 of 2"
    screenshot(page, "round-over")
    # By keyboard: Enter on "Next round" deals it, and the focus is then on the new hand.
    dialog.locator("[data-act=next-round]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-romme-table]').rummy.view.round === 2"
    )
    assert page.locator("dialog[open]").count() == 0
    page.wait_for_function("() => !!document.activeElement?.closest('[data-hand] [data-code]')")
    assert page.locator("[data-round]").inner_text() == "Round 2 of 2"
    assert len(hand(page)) in (13, 14)
