"""Tables with friends in real browsers: two or three browser contexts (each its own phone, in
its own language) at one table, for each game.

- Rommé: the host (French) opens a table from the form, a guest (German) comes by the link with
  the nickname this browser kept, a visitor (Spanish) watches; a preset phrase said in French
  is read in German; the round is played to its end; the host starts a rematch.
- Tile rummy: the guest (French) comes by the code typed with dashes and small letters (a
  wrong code is refused in French first); the guest's connection is cut on their turn: away,
  then the computer plays their seat after the grace period, then they come back and take it
  again; the server restarts in the middle of the game and the pages carry on.
- Rummoli: the turn's countdown, "More time" by the key T, and a turn that runs out (the
  server plays the safe move); the hand is played to its end.

Moves of the people are sent through the game API with each browser's own table token (the
pages show them as they come), so that every test plays a whole round in reasonable time.
Every socket message and page each browser received is checked afterwards against the game
replayed to the same step: nothing names a card that seat (or the spectator) may not see.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from accessibility.axe import audit
from play.helpers import Knowledge, hidden, mentions, own, stood_for
from rummoli_web.test_rummoli_game import choose as rummoli_choice
from rummoli_web.test_rummoli_game import mentioned as rummoli_mentioned
from rummoli_web.test_rummoli_game import secret as rummoli_secret

from rummykit.core import Record
from rummykit.store import Database, GameRepository
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import adapter

pytestmark = pytest.mark.browser

LOBBY = "[data-table-lobby][data-ready]"
STRIP = "[data-table-strip][data-ready]"
GAME_ROOT = {
    "romme": "[data-romme-table]",
    "tiles": "[data-tiles-table]",
    "rummoli": "[data-rummoli-table]",
}


# --- what each browser received -----------------------------------------------------------------


@dataclass
class Seen:
    """Every socket message and every page a browser context received, for the leak check."""

    frames: list[str] = field(default_factory=list)
    pages: list[tuple[int, str]] = field(default_factory=list)
    answers: list[Any] = field(default_factory=list)

    def watch(self, page: Any) -> Any:
        page.on("websocket", lambda ws: ws.on("framereceived", self.frame))
        return page

    def frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def snapshot(self, page: Any) -> None:
        """The page as it is drawn now, with the game's step it shows: both read in one turn
        of the page's script, once its queue of steps is idle (read apart, a step arriving in
        between labelled the next step's page, a round's end with every hand, as the one
        before)."""
        # The Rummoli board names the cards of its nine boxes (printed on it, no secret).
        drawn = page.wait_for_function(
            """() => {
              const game = document.querySelector('.game').rummy;
              if (game.queue.busy) return null;
              const copy = document.documentElement.cloneNode(true);
              for (const board of copy.querySelectorAll('.rm-game-board')) board.remove();
              return [game.view.seq, copy.outerHTML];
            }"""
        )
        seq, html = drawn.json_value()
        self.pages.append((int(seq), html))


FACE = re.compile(r"(?<![\w#♣♠♥♦])(?:10|[2-9AJQK])[♣♠♥♦](?!#)")
"""A Rommé face as a page names it, wherever it stands in a sentence (``défausse 9♣.``,
``Joker für 7♠,``), not a copy's code (``9♣#1``)."""


@dataclass(frozen=True)
class Drawn:
    """A page as drawn: its cards by their exact code (``data-code``), its sentences by face."""

    html: str

    def codes(self) -> list[str]:
        return re.findall(r'data-(?:code|joker)="([^"]+)"', self.html)

    def faces(self) -> set[str]:
        """Every Rommé face the page names, in its text or its attributes (`FACE`)."""
        return set(FACE.findall(self.html))


def page_views(html: str) -> list[dict[str, Any]]:
    """The JSON a page starts from (the game's data and the table's data)."""
    found = re.findall(
        r'<script type="application/json" data-(?:game|table)-data>(.*?)</script>', html, re.S
    )
    return [json.loads(text.replace("<\\/", "</")) for text in found]


def items(seen: Seen, game_id: str) -> Iterator[tuple[int | None, Any]]:
    """Each thing received about game ``game_id`` with the step it shows, and the table's
    views (None: no game step; they name no card at all)."""
    for frame in seen.frames:
        message = json.loads(frame)
        if message.get("t") == "view":
            if message["d"]["id"] == game_id:
                yield int(message["d"]["seq"]), message["d"]
        else:
            yield None, message
    for seq, html in seen.pages:
        outside = re.sub(r"<script.*?</script>", "", html, flags=re.S)
        yield seq, Drawn(outside)
        for data in page_views(html):
            if data.get("game") and data.get("view"):
                if data["id"] == game_id:
                    yield int(data["view"]["seq"]), data
            else:
                yield None, data
    for answer in seen.answers:
        if answer["id"] == game_id:
            yield int(answer["seq"]), answer


def load_record(server: Any, game_id: str) -> Record:
    async def load() -> Record:
        db = Database(server.database_url)
        try:
            return await GameRepository(db).load_record(game_id)
        finally:
            await db.dispose()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, load()).result()


def where_said(html: str, faces: set[str]) -> list[str]:
    """The text around the first place that names each of ``faces``: what a failure needs to
    tell a real leak from a face the check did not know to be public."""
    first = {}
    for match in FACE.finditer(html):
        first.setdefault(match.group(), match.start())
    at = {face: first.get(face, html.find(face)) for face in faces}
    return [re.sub(r"\s+", " ", html[max(0, at[f] - 160) : at[f] + 40]) for f in sorted(faces)]


def check_leaks(server: Any, kind: str, game_id: str, seat: int | None, seen: Seen) -> int:
    """Nothing ``seat`` received (None: a spectator) names a card it may not see at that step;
    the number of (step, thing) pairs checked."""
    by_step = list(adapter(kind).replay_states(load_record(server, game_id)))
    checked = 0
    knowledge = Knowledge(by_step, kind, seat or 0) if kind != "rummoli" else None
    for seq, value in items(seen, game_id):
        if seq is None:
            if kind != "rummoli":
                assert not mentions(value, kind), str(value)[:300]
            continue
        state = by_step[seq]
        checked += 1
        if kind == "rummoli":
            assert seat is not None
            if isinstance(value, Drawn) and state.is_over:
                # The page of a finished game tells the hands shown as it ended (a showdown
                # the helper's secret does not follow): its data is checked instead.
                continue
            target = [value.html] if isinstance(value, Drawn) else value
            assert not rummoli_mentioned(target) & rummoli_secret(state, seat), (seat, seq)
            continue
        assert knowledge is not None
        if seat is None:
            hand = state.hands[0] if kind == "romme" else state.racks[0]
            mine = {c.code for c in hand}
            secret = hidden(state, 0, kind) | mine
            allowed = (own(state, 0, kind) - mine) | knowledge.prefix[len(adapter(kind).log(state))]
        else:
            secret = hidden(state, seat, kind) - knowledge.allowed(seq)
            allowed = knowledge.allowed(seq)
        if isinstance(value, Drawn):
            # Cards drawn carry their exact code; sentences name faces only (no copy).
            exact = mentions(value.codes(), kind)
            assert not exact & (secret - allowed), (seat, seq, sorted(exact & secret))
            if kind == "romme":
                said, public = value.faces(), stood_for(state)
            else:
                said, public = {c.split("#")[0] for c in mentions([value.html], kind)}, set()
            unknown = said - {c.split("#")[0] for c in allowed} - public
            assert not unknown, (seat, seq, sorted(unknown), where_said(value.html, unknown))
            continue
        named = mentions(value, kind)
        assert not named & (secret - allowed), (seat, seq, sorted(named & secret))
    return checked


# --- the pages ----------------------------------------------------------------------------------


def strip_view(page: Any) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate(
        "document.querySelector('[data-table-strip], [data-table-lobby]').table.view"
    )
    return view


def new_table(
    page: Any,
    server: Any,
    lang: str,
    kind: str,
    nickname: str,
    seats: list[str],
    *,
    timer: str = "60",
    grace: str = "90",
    spectators: bool = False,
    free_text: bool = False,
    options: dict[str, str] | None = None,
) -> dict[str, str]:
    """The host opens a table from the form; its lobby's link and code."""
    page.goto(f"{server.url}/{lang}/tables/new?game={kind}")
    page.fill("#nickname", nickname)
    for index, choice in enumerate(seats, start=1):
        page.select_option(f"#seat-{index}", choice)
    page.select_option("#timer", timer)
    page.fill("#grace", grace)
    if spectators:
        page.check("input[name=spectators]")
    if free_text:
        page.check("input[name=free_text]")
    for selector, value in (options or {}).items():
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)
    page.click("form[data-new-table] button[type=submit]")
    page.wait_for_selector(f"{LOBBY}, #form-error")
    assert page.locator("#form-error").count() == 0, page.inner_text("#form-error")
    return {
        "link": page.input_value("[data-invite-link]"),
        "code": page.inner_text("[data-code]").replace(" ", ""),
        "id": strip_view(page)["id"],
    }


def seat_name(page: Any, seat: int) -> str:
    text: str = page.locator(f'[data-seat="{seat}"] .seat-name').inner_text()
    return text


def wait_seat(page: Any, seat: int, expected: dict[str, Any], timeout: float = 15_000) -> None:
    """Waits until the table view the page shows has ``seat`` with every ``expected`` field."""
    page.wait_for_function(
        """([seat, expected]) => {
          const root = document.querySelector('[data-table-strip], [data-table-lobby]');
          const s = root?.table?.view.seats[seat];
          return !!s && Object.entries(expected).every(([k, v]) => s[k] === v);
        }""",
        arg=[seat, expected],
        timeout=timeout,
    )


def wait_game(page: Any, kind: str) -> None:
    page.wait_for_selector(f"{GAME_ROOT[kind]}[data-ready]", timeout=20_000)
    page.wait_for_selector(STRIP)
    page.select_option("[data-speed]", "instant")


def token_of(page: Any, table_id: str) -> str:
    for cookie in page.context.cookies():
        if cookie["name"] == f"rk_table_{table_id}":
            value: str = cookie["value"]
            return value
    raise AssertionError("no table cookie")


def is_over(view: dict[str, Any]) -> bool:
    return bool(view.get("is_over")) or view.get("phase") == "game_over"


def choice(kind: str, view: dict[str, Any]) -> dict[str, Any]:
    """A plain legal move: Rommé draws and discards its highest card, tiles draw, Rummoli the
    first plain decision."""
    if kind == "rummoli":
        return rummoli_choice(view)
    from rummykit.bench.web import _choose

    return dict(_choose(view))


def play(
    server: Any,
    kind: str,
    game_id: str,
    tokens: dict[int, str],
    seen: dict[int, Seen],
    *,
    until: Callable[[dict[str, Any]], bool] = is_over,
    skip: frozenset[int] = frozenset(),
    deadline: float = 120,
) -> dict[str, Any]:
    """The people's moves through the game API (each with its own table token) until
    ``until(view)``; the seats in ``skip`` are left to their timer or their stand-in."""
    api = f"{server.url}/api/games/{game_id}"
    any_seat = next(iter(tokens))
    stop = time.monotonic() + deadline
    with httpx.Client(timeout=30) as client:
        while True:
            view = client.get(api, headers={"X-Table-Token": tokens[any_seat]}).json()
            if until(view) or is_over(view):
                return view
            seat = view["to_move"]
            if seat in tokens and seat not in skip:
                mine = client.get(api, headers={"X-Table-Token": tokens[seat]}).json()
                if mine["seq"] == view["seq"]:
                    answer = client.post(
                        f"{api}/actions",
                        json={"seq": mine["seq"], "action": choice(kind, mine)},
                        headers={"X-Table-Token": tokens[seat]},
                    )
                    assert answer.status_code in (200, 409), answer.text
                    if answer.status_code == 200:
                        seen[seat].answers.append(answer.json())
                    continue
            time.sleep(0.05)
            assert time.monotonic() < stop, view


def phrase_text(view: dict[str, Any], code: str) -> str:
    return next(p["text"] for p in view["phrases"] if p["code"] == code)


# --- Rommé: by the link, a spectator, a phrase in two languages, a whole round, a rematch --------


def test_romme_with_a_friend_by_the_link_a_spectator_and_a_rematch(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    seen = {0: Seen(), 1: Seen(), -1: Seen()}
    host = seen[0].watch(new_page(locale="fr-FR"))
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.on("console", lambda m: "Content Security Policy" in m.text and errors.append(m.text))
    table = new_table(
        host,
        live_server,
        "fr",
        "romme",
        "Zoé",
        ["person", "computer:random", "none", "none", "none"],
        spectators=True,
        options={"#in-rounds": "1", "#in-stock_exhausted": "end_round"},
    )
    assert len(table["code"]) == 6
    assert host.locator(".qr-code svg").count() == 1
    assert seat_name(host, 0) == "Zoé"
    lobby_violations = audit(host, "lobby (host, fr)")
    screenshot(host, "lobby")

    # The guest's browser kept a nickname from an earlier visit: the prompt offers it.
    guest = seen[1].watch(new_page(locale="de-DE"))
    guest.on("pageerror", lambda e: errors.append(str(e)))
    guest.on("console", lambda m: "Content Security Policy" in m.text and errors.append(m.text))
    guest.goto(f"{live_server.url}/de/")
    guest.evaluate("localStorage.setItem('rk-nickname', JSON.stringify('Greta'))")
    guest.goto(table["link"].replace("/fr/", "/de/"))
    guest.wait_for_selector(LOBBY)
    assert guest.input_value("#join-nickname") == "Greta"
    lobby_violations += audit(guest, "lobby (newcomer, de)")
    guest.click("[data-join-form] button[type=submit]")
    guest.wait_for_selector(LOBBY)
    assert guest.locator("[data-join-form]").count() == 0
    # The host sees the guest arrive without reloading.
    wait_seat(host, 1, {"nickname": "Greta", "presence": "connected"})
    assert seat_name(host, 1) == "Greta"
    # ... and a screen reader hears it.
    joined = site_translations("fr").gettext("%(name)s has joined the table.") % {"name": "Greta"}
    host.wait_for_function(
        "text => document.querySelector('[data-announce]').textContent === text", arg=joined
    )

    watcher = seen[-1].watch(new_page(locale="es-ES", phone=True))
    watcher.on("pageerror", lambda e: errors.append(str(e)))
    watcher.goto(table["link"].replace("/fr/", "/es/"))
    watcher.wait_for_selector(LOBBY)

    host.click("[data-start]")
    for page in (host, guest):
        wait_game(page, "romme")
    watcher.wait_for_selector(f"{GAME_ROOT['romme']}[data-ready]", timeout=20_000)
    assert watcher.locator(".spectating").count() == 1
    assert watcher.locator("[data-hand] [data-code]").count() == 0
    assert watcher.evaluate("document.documentElement.scrollWidth <= innerWidth")
    game_id = strip_view(host)["game_id"]
    for page, who in ((host, 0), (guest, 1), (watcher, -1)):
        seen[who].snapshot(page)
    # The table's own names on the game's table.
    assert "Greta" in host.locator("[data-opponents]").inner_text()

    # "Bien joué" said in French reaches the German guest in German.
    french = phrase_text(strip_view(host), "good_game")
    german = phrase_text(strip_view(guest), "good_game")
    assert french != german
    host.click("[data-talk-tools] > summary")
    host.click("[data-phrases] [data-phrase=good_game]")
    guest.wait_for_function(
        "text => [...document.querySelectorAll('[data-messages] .said')]"
        ".some(e => e.textContent === text)",
        arg=german,
    )
    # The host's own page shows it in French once the answer to its click arrives (the guest's
    # socket may be the faster of the two).
    host.wait_for_function(
        "text => [...document.querySelectorAll('[data-messages] .said')]"
        ".some(e => e.textContent === text)",
        arg=french,
    )
    # The guest mutes the host: the host's next words are not shown to them.
    guest.click('[data-strip-seats] [data-mute="Zoé"]')
    assert guest.get_attribute('[data-mute="Zoé"]', "aria-pressed") == "true"
    count = len(strip_view(guest)["messages"])
    host.click("[data-phrases] [data-phrase=thanks]")
    guest.wait_for_function(
        "n => document.querySelector('[data-table-strip]').table.view.messages.length > n",
        arg=count,
    )
    thanks = phrase_text(strip_view(guest), "thanks")
    assert thanks not in guest.locator("[data-messages]").inner_text()
    assert "Zoé" in guest.evaluate(f"localStorage.getItem('rk-mute-{table['id']}')")
    table_violations = audit(host, "table (host, fr)") + audit(guest, "table (guest, de)")
    table_violations += audit(watcher, "table (spectator, es, phone)")
    screenshot(guest, "table")

    tokens = {0: token_of(host, table["id"]), 1: token_of(guest, table["id"])}
    end = play(live_server, "romme", game_id, tokens, seen)
    assert is_over(end)
    # The end reaches the table's socket after the game's last step is stored and the
    # table's record is written; on a busy machine that can take more than the usual 10 s.
    for page in (host, guest, watcher):
        page.wait_for_function(
            "() => document.querySelector('[data-table-strip]').table.view.status === 'over'",
            timeout=30_000,
        )
    # The spectator's table followed the game to its end, without a hand.
    watcher.wait_for_function(
        "seq => document.querySelector('[data-romme-table]').rummy.view.seq === seq",
        arg=end["seq"],
    )
    shown = "document.querySelector('[data-romme-table]').rummy.view.hand.length"
    assert watcher.evaluate(shown) == 0
    assert host.locator("[data-rematch]").is_visible()
    assert guest.locator("[data-rematch]").is_hidden()
    for page, who in ((host, 0), (guest, 1), (watcher, -1)):
        seen[who].snapshot(page)
    screenshot(host, "over")

    # The rematch: a new game of the table, the seats rotated, both pages follow.
    host.locator("[data-act=close-dialog]").click()
    host.click("[data-rematch]")
    for page in (host, guest):
        page.wait_for_function(
            "old => document.querySelector('[data-table-strip]')?.table?.view.game_id !== old"
            " && !!document.querySelector('[data-romme-table][data-ready]')",
            arg=game_id,
            timeout=20_000,
        )
    again = strip_view(host)
    assert again["game_number"] == 2 and again["status"] == "playing"
    # The seats turned by one: the host sits at the second seat now, the guest at the third.
    assert again["me"] == 1 and strip_view(guest)["me"] == 2
    assert host.locator("[data-standings] tr").count() == 3

    checked = sum(
        check_leaks(live_server, "romme", game_id, seat if seat >= 0 else None, s)
        for seat, s in seen.items()
    )
    assert checked > 50
    assert not lobby_violations, "\n".join(lobby_violations)
    assert not table_violations, "\n".join(table_violations)
    assert not errors


# --- tile rummy: by the code, away, the stand-in, back again, a server restart --------------------


def test_tiles_by_code_a_cut_connection_the_stand_in_and_a_restart(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    seen = {0: Seen(), 1: Seen()}
    host = seen[0].watch(new_page(locale="en-GB"))
    table = new_table(
        host,
        live_server,
        "en",
        "tiles",
        "Sam",
        ["person", "computer:random", "none"],
        timer="0",
        grace="30",
    )
    context = new_page(locale="fr-FR", phone=True).context
    guest = seen[1].watch(context.pages[0])
    # A wrong code is refused in French; the right one works typed small and with dashes.
    guest.goto(f"{live_server.url}/fr/join")
    guest.fill("#code", "zzz-zzz")
    guest.click("form button[type=submit]")
    error = guest.locator("#code-error")
    t = site_translations("fr").gettext
    assert error.inner_text().startswith(
        t("No open table has the code %(code)s. Check it with the person who sent it.").split("%")[
            0
        ]
    )
    typed = f"{table['code'][:3].lower()}-{table['code'][3:].lower()}"
    guest.fill("#code", typed)
    guest.click("form button[type=submit]")
    guest.wait_for_selector(LOBBY)
    assert guest.url.endswith(f"/fr/t/{table['id']}")
    fits = "document.documentElement.scrollWidth <= innerWidth"
    assert guest.evaluate(fits)
    screenshot(guest, "lobby-phone")
    guest.fill("#join-nickname", "Léa")
    guest.click("[data-join-form] button[type=submit]")
    wait_seat(host, 1, {"nickname": "Léa"})
    host.click("[data-start]")
    wait_game(host, "tiles")
    wait_game(guest, "tiles")
    game_id = strip_view(host)["game_id"]
    tokens = {0: token_of(host, table["id"]), 1: token_of(guest, table["id"])}
    seen[1].snapshot(guest)

    # The guest's turn comes; their phone loses the connection.
    play(live_server, "tiles", game_id, tokens, seen, until=lambda v: v["to_move"] == 1)
    guest.close()
    wait_seat(host, 1, {"presence": "away"}, timeout=15_000)
    assert "away" in host.locator('[data-strip-seats] [data-seat="1"]').inner_text()
    host.wait_for_function(
        "() => document.querySelector('[data-table-announce]').textContent === 'Léa is away.'"
    )
    # After the grace period a computer plays the seat: the turn moves on without them.
    wait_seat(host, 1, {"standin": True}, timeout=45_000)
    host.wait_for_function(
        "() => document.querySelector('[data-table-strip]').table.view.turn?.seat !== 1",
        timeout=20_000,
    )
    screenshot(host, "stand-in")
    # They come back: the seat is theirs again at once.
    guest = seen[1].watch(context.new_page())
    guest.goto(table["link"].replace("/en/", "/fr/"))
    wait_game(guest, "tiles")
    wait_seat(host, 1, {"presence": "connected", "standin": False}, timeout=15_000)
    assert strip_view(guest)["me"] == 1
    # The phone's page fits its width.
    assert guest.evaluate(fits)
    seen[1].snapshot(guest)

    # The server restarts in the middle of the game: both pages reconnect and go on.
    live_server.restart()
    before = host.evaluate("document.querySelector('[data-tiles-table]').rummy.view.seq")
    play(live_server, "tiles", game_id, tokens, seen, until=lambda v: v["seq"] > before + 2)
    for page in (host, guest):
        page.wait_for_function(
            "seq => document.querySelector('[data-tiles-table]').rummy.view.seq > seq + 2",
            arg=before,
            timeout=30_000,
        )
        wait_seat(page, 1, {"presence": "connected"})
    end = play(live_server, "tiles", game_id, tokens, seen)
    assert is_over(end)
    host.wait_for_function(
        "() => document.querySelector('[data-table-strip]').table.view.status === 'over'"
    )
    for seat, page in ((0, host), (1, guest)):
        seen[seat].snapshot(page)
    assert sum(check_leaks(live_server, "tiles", game_id, seat, s) for seat, s in seen.items()) > 30


# --- Rummoli: the countdown, more time, a turn that runs out ------------------------------------


def test_rummoli_countdown_more_time_and_a_turn_that_runs_out(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    seen = {0: Seen(), 1: Seen()}
    host = seen[0].watch(new_page(locale="de-DE"))
    table = new_table(
        host,
        live_server,
        "de",
        "rummoli",
        "Jonas",
        ["person", "computer:random"] + ["none"] * 5,
        timer="30",
        free_text=True,
        options={"#in-hands": "1"},
    )
    guest = seen[1].watch(new_page(locale="en-US"))
    guest.goto(table["link"].replace("/de/", "/en/"))
    guest.fill("#join-nickname", "Ruth")
    guest.click("[data-join-form] button[type=submit]")
    wait_seat(host, 1, {"nickname": "Ruth"})
    host.click("[data-start]")
    wait_game(host, "rummoli")
    wait_game(guest, "rummoli")
    game_id = strip_view(host)["game_id"]
    tokens = {0: token_of(host, table["id"]), 1: token_of(guest, table["id"])}
    # The table allows free text: the guest writes, the host reads it as written.
    guest.click("[data-talk-tools] > summary")
    guest.fill("#free-text", "Viel Glück, Jonas!")
    guest.press("#free-text", "Enter")
    host.wait_for_function(
        "() => document.querySelector('[data-messages]').textContent.includes('Viel Glück')"
    )
    # Sent, the field is emptied for the next message.
    guest.wait_for_function("() => document.querySelector('#free-text').value === ''")

    # On a person's turn the countdown runs; T asks for more time once.
    view = play(
        live_server, "rummoli", game_id, tokens, seen, until=lambda v: v["to_move"] in (0, 1)
    )
    mover, page = (0, host) if view["to_move"] == 0 else (1, guest)
    page.wait_for_function(
        "() => document.querySelector('[data-table-strip]').table.view.turn?.deadline > 0"
        " && !document.querySelector('[data-more-time]').hidden"
    )
    turn = strip_view(page)["turn"]
    assert turn["extra_left"] == 2
    page.keyboard.press("t")
    page.wait_for_function(
        "() => document.querySelector('[data-table-strip]').table.view.turn?.extra_left === 1"
    )
    later = strip_view(page)["turn"]
    assert later["deadline"] >= turn["deadline"] + 25_000
    screenshot(page, "more-time")
    seen[0].snapshot(host)
    seen[1].snapshot(guest)
    # That turn is played; the next person's turn is left to run out.
    play(live_server, "rummoli", game_id, tokens, seen, until=lambda v: v["seq"] > view["seq"])
    view = play(
        live_server, "rummoli", game_id, tokens, seen, until=lambda v: v["to_move"] in (0, 1)
    )
    idle, page = (0, host) if view["to_move"] == 0 else (1, guest)
    page.wait_for_function(
        "() => document.querySelector('[data-clock]').classList.contains('warn')", timeout=20_000
    )
    screenshot(page, "warning")
    page.wait_for_function(
        "seq => document.querySelector('[data-rummoli-table]').rummy.view.seq > seq",
        arg=view["seq"],
        timeout=30_000,
    )
    after = httpx.get(
        f"{live_server.url}/api/games/{game_id}", headers={"X-Table-Token": tokens[idle]}
    ).json()
    assert after["seq"] > view["seq"]
    end = play(live_server, "rummoli", game_id, tokens, seen)
    assert is_over(end)
    for seat, page in ((0, host), (1, guest)):
        seen[seat].snapshot(page)
    assert (
        sum(check_leaks(live_server, "rummoli", game_id, seat, s) for seat, s in seen.items()) > 5
    )
    assert mover in (0, 1)
