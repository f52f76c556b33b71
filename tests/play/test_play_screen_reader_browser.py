"""What a screen reader hears at the Rommé and tile tables, read from the accessibility tree
(Playwright's ARIA snapshots): the hand and the rack are lists of cards and tiles named in the
page's language, the table is a list of melds or sets named by their cards, and the live region
says the other seats' moves one sentence each, in the order they were made."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.web.language import site_translations
from rummykit.web.play.messages import CLIENT

from .helpers import bots_until_seat0, romme_seed, stored, tiles_seed
from .test_play_browser import TWO_SEATS, db_url, hand, open_stored

pytestmark = pytest.mark.browser

THREE_SEATS = ("human", "bot:random", "bot:random")
KEY = re.compile(r'(\w+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)')


def scalar(text: str, key: bool = True) -> tuple[str, str]:
    """The YAML scalar at the start of ``text`` (quoted or not) and what follows it."""
    if text.startswith("'"):
        i = 1
        while True:
            i = text.index("'", i)
            if text[i + 1 : i + 2] != "'":
                return text[1:i].replace("''", "'"), text[i + 1 :]
            i += 2
    if text.startswith('"'):
        i = 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        value: str = json.loads(text[: i + 1])
        return value, text[i + 1 :]
    if not key:
        return text, ""
    match = KEY.match(text)
    assert match, text
    return match.group(0), text[match.end() :]


def tree(page: Any, selector: str) -> list[tuple[int, str, str]]:
    """The ARIA snapshot of an element (Playwright reads the accessibility tree) as rows of
    (depth, role, name or text), in the page's order."""
    rows = []
    for line in page.locator(selector).aria_snapshot().splitlines():
        body = line.lstrip(" ")
        if not body.startswith("- "):
            continue
        key, rest = scalar(body[2:])
        match = KEY.fullmatch(key)
        if not match:
            continue
        role, name = match.group(1), match.group(2)
        text = scalar(rest[2:], key=False)[0] if rest.startswith(": ") else ""
        name = json.loads(f'"{name}"') if name is not None else text
        rows.append(((len(line) - len(body)) // 2, role, name))
    return rows


def say(lang: str) -> Callable[..., str]:
    """The table's message ``key`` in ``lang``, filled as the page fills it."""
    gettext = site_translations(lang).gettext

    def text(key: str, **params: Any) -> str:
        return gettext(CLIENT[key]) % params if params else gettext(CLIENT[key])

    return text


def card_name(t: Callable[..., str], code: str) -> str:
    face = code.split("#")[0]
    if face == "JK":
        return t("joker")
    rank, suit = face[:-1], face[-1]
    spoken = t(f"rank_{rank}") if f"rank_{rank}" in CLIENT else rank
    return t("card_name", rank=spoken, suit=t(f"suit_{suit}"))


def tile_name(t: Callable[..., str], code: str) -> str:
    face = code.split("#")[0]
    if face == "*":
        return t("joker")
    return t("tile_name", colour=t(f"colour_{face[0]}"), n=int(face[1:]))


def items(rows: list[tuple[int, str, str]], role: str) -> list[str]:
    """The names of the ``role`` elements each alone in a list item, in order."""
    names = []
    for (depth, kind, _), (inner, child, name) in itertools.pairwise(rows):
        if kind == "listitem" and child == role and inner == depth + 1:
            names.append(name)
    return names


def high_group(state: romme.State) -> list[Card] | None:
    """Three cards of one rank worth 10 or more each, in three suits: an opening of 30+."""
    by_rank: dict[int, dict[Any, Card]] = {}
    for c in state.hands[0]:
        if c.rank is not None and int(c.rank) in (1, 10, 11, 12, 13):
            by_rank.setdefault(int(c.rank), {}).setdefault(c.suit, c)
    found = [list(s.values())[:3] for s in by_rank.values() if len(s) >= 3]
    return found[0] if found else None


def first_other(state: romme.State, group: list[Card]) -> Card:
    return next(c for c in state.hands[0] if c not in group)


def test_romme_hand_table_and_live_region_through_the_accessibility_tree(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")

    def works(state: romme.State) -> bool:
        # Seat 0 opens with a group; the two computers then play at least three moves.
        group = high_group(state)
        if group is None:
            return False
        state.apply(romme.Play.of(group))
        state.apply(romme.Discard(first_other(state, group)))
        before = len(state.actions)
        bots_until_seat0("romme", state, THREE_SEATS, state.seed)
        return len(state.actions) - before >= 4 and not state.is_over

    seed = romme_seed(rules, 3, works, start=200)
    dealt = romme.State(rules, 3, seed)
    group = high_group(dealt)
    assert group is not None
    other = first_other(dealt, group).code
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, THREE_SEATS)
    page = new_page(locale="fr-FR")
    open_stored(page, live_server, "romme", "fr", game_id, token)
    t = say("fr")

    # The hand: a list named "Votre main", one button a card, named in French, in its order.
    rows = tree(page, "[data-hand]")
    assert rows[0][1:] == ("list", site_translations("fr").gettext("Your hand"))
    assert items(rows, "button") == [card_name(t, c) for c in hand(page)]
    spoken = " ".join(items(rows, "button"))
    assert "de cœur" in spoken or "de carreau" in spoken or "de pique" in spoken

    # Seat 0 opens: the table becomes a list with one meld named by its owner and its cards.
    for c in group:
        page.locator(f'[data-hand] [data-code="{c.code}"]').click()
    page.click("[data-act=meld]")
    rows = tree(page, "[data-table]")
    assert rows[0][1] == "list"
    melds = items(rows, "group")
    assert len(melds) == 1
    assert all(card_name(t, c.code) in melds[0] for c in group)
    assert melds[0].startswith(t("new_meld"))

    # What the others do is said in the live region, one sentence each, in order.
    page.evaluate(
        """() => {
          const table = document.querySelector('[data-romme-table]').rummy;
          const show = table.show.bind(table);
          window.othersSaid = [];
          table.show = (view, options) => {
            for (const event of view.events ?? []) {
              if (event.seat !== 0) window.othersSaid.push(event.text);
            }
            return show(view, options);
          };
        }"""
    )
    page.select_option("[data-speed]", "fast")
    page.locator(f'[data-hand] [data-code="{other}"]').click()
    seq = page.evaluate("() => document.querySelector('[data-romme-table]').rummy.view.seq")
    page.click("[data-act=discard]")
    page.wait_for_function(
        """([seq]) => {
          const table = document.querySelector('[data-romme-table]').rummy;
          return table.view.seq > seq + 1 && table.view.to_move === 0 && !table.queue.busy
            && document.querySelector('[data-announce]').children.length
               === Math.min(12, window.othersSaid.length);
        }""",
        arg=[seq],
        timeout=30_000,
    )
    said: list[str] = page.evaluate("() => window.othersSaid")
    assert len(said) >= 4
    heard = [name for _, role, name in tree(page, "[data-announce]") if role == "paragraph"]
    assert heard == said[-12:]
    # Both computers are heard, by name.
    players = page.evaluate("() => document.querySelector('[data-romme-table]').rummy.players")
    names = [p["name"] for p in players]
    assert all(any(name in line for line in heard) for name in names[1:])
    rows = tree(page, "[data-table]")
    assert any(name.startswith(t("meld_of", name=names[0])) for name in items(rows, "group"))
    screenshot(page, "heard")


def test_tile_rack_and_sets_are_lists_named_in_german(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    rules = tiles.Rules()
    seed = tiles_seed(rules, 2, lambda s: True)
    game_id, token = stored(db_url(live_server), "tiles", rules.to_json(), seed, TWO_SEATS)
    page = new_page(locale="de-DE")
    open_stored(page, live_server, "tiles", "de", game_id, token)
    t = say("de")
    rack = page.eval_on_selector_all(
        "[data-rack] [data-code]", "els => els.map((e) => e.dataset.code)"
    )
    rows = tree(page, "[data-rack]")
    assert rows[0][1:] == ("list", site_translations("de").gettext("Your rack"))
    assert items(rows, "button") == [tile_name(t, c) for c in rack]
    # Three tiles into a new set (the table, this turn): a list with one set, named by its tiles.
    for code in rack[:3]:
        page.locator(f'[data-rack] [data-code="{code}"]').click()
    page.click("[data-act=new-set]")
    rows = tree(page, "[data-table]")
    assert rows[0][1] == "list"
    sets = items(rows, "group")
    assert len(sets) == 1 and sets[0].startswith(t("set_n", n=1))
    assert all(tile_name(t, code) in sets[0] for code in rack[:3])
