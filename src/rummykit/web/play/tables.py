"""Tables with friends: people and computers at one game, its rematches, and what surrounds it.

A table is stored as one row (`rummykit.store.tables`): its game and rules, its settings
(turn timer, grace period, stand-in level, spectators, free text), its seats and its games.
Each game of a table is an ordinary stored game played through `PlayService`; the seats of
people hold the hashes of the players' own tokens, so the table's cookie alone opens the
seat in every game of the table (`rummykit.web.play.api.seated`).

- **Changes** (`TableService.change`) read the row, change a copy and write it back only if
  nobody wrote in between (the version in the ``UPDATE``); a lost race reads again and redoes
  the change, so two processes never lose one. Every change is published on the hub's
  ``table:<id>`` channel; the table sockets of every process send each reader its new view.
- **Seats rotate** at a rematch: the seat objects move one place on, with their players, and
  the game's seat ``n`` is the table's seat ``n``. Each seat object keeps its ``pid``, the
  player's number at the table, which presence and standings are counted by.
- **Presence** (`Presence`): a player is *connected* while at least one table socket of
  theirs is open in any process (with Redis, each process writes its open sockets in a hash
  with an expiry it renews; without Redis, in memory, one process), *away* after `AWAY_AFTER`
  seconds with none, *gone* after leaving. After the table's grace period a computer of the
  stand-in level plays an away seat (`LiveGame.standins`); the player's next table socket
  gives the seat back at once.
- **The turn timer** is the server's: a person's turn lasts the table's ``timer`` seconds from
  the previous action's time (stored with the action, so every process counts from the same
  moment), plus the extra time asked. At the deadline the game's safe move
  (``fallback_action``) is played at the position the clock was for: if another process (or
  the player) moved first, the stored action's unique position refuses the second.
- **Messages**: preset phrases are stored by their code and told in each reader's language;
  free text (when the table allows it) is cleaned like a name.

Each process runs one watcher task (`TableService.watch`) over the tables it serves: it plays
the timer's moves, puts the stand-ins in, counts the standings of a finished game and tells
the sockets when a player turns away. Several processes may do the same at the same moment:
every such change is a conditional write, so only one of them takes effect.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import os
import secrets
import time
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit import names
from rummykit.core import JSON, IllegalAction
from rummykit.store import Conflict, NotFound, hash_token, new_token
from rummykit.store.tables import Message, StoredTable, TableRepository
from rummykit.web.errors import N_, register_missing
from rummykit.web.language import site_translations
from rummykit.web.live import Hub, OneAtATime, drain, redis_client
from rummykit.web.play.adapter import SeatInfo, adapter
from rummykit.web.play.service import AnyLive, PlayService, StaleVersion, channel

log = logging.getLogger("rummykit.tables")

TIMERS = (0, 30, 60, 120, 180)
"""The turn timers a table may have, in seconds (0: none)."""
DEFAULT_TIMER = 60
GRACE_MIN, GRACE_MAX, DEFAULT_GRACE = 30, 300, 90
EXTRA_USES = 2
"""Times a player may ask for extra time in one game."""
EXTRA_SECONDS = 30
AWAY_AFTER = 5.0
"""Seconds without a table socket after which a player is shown away."""
MESSAGES_SHOWN = 30
NICKNAME_MAX = 24
TABLE_NAME_MAX = 60
TEXT_MAX = 200
SAY_LIMIT = (6, 20.0)
"""At most this many messages from one player in that many seconds."""
TICK = 0.5
"""Seconds between two rounds of the watcher."""
WATCH_IDLE = 600.0
"""Seconds a table without sockets here stays watched after its last request."""
HEARTBEAT = 3.0
"""Seconds between two renewals of a process's open sockets in Redis."""
PRESENCE_TTL = 12.0
"""Seconds an entry of open sockets lives in Redis without renewal (a process that died)."""
FALLBACK_STEPS = 6
"""Safe moves played at most for one timed-out turn (Rommé: draw, then discard)."""

PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good_game": N_("Good game!"),
    "well_played": N_("Well played!"),
    "your_turn": N_("Your turn."),
    "one_moment": N_("One moment, please."),
    "thanks": N_("Thanks!"),
    "oops": N_("Oops!"),
    "bye": N_("Bye!"),
}
"""The preset phrases of the message strip, each told in the reader's language."""
EMOTES: dict[str, str] = {"thumbs_up": "👍", "smile": "🙂", "wow": "😮", "sad": "😞"}

ERRORS: dict[str, str] = {
    "bad_table_code": N_("No table has this code: check the 6 characters."),
    "table_full": N_("Every seat at this table is taken."),
    "table_started": N_("The game at this table has started and no seat is free."),
    "nickname_taken": N_(
        "Someone at this table is already called %(nickname)s, or a name that looks the same: "
        "choose another nickname."
    ),
    "empty_nickname": N_("Choose a nickname."),
    "nickname_too_long": N_("A nickname may have at most %(maximum)s characters."),
    "seat_taken": N_("Someone already sits at this seat."),
    "seats_free": N_(
        "Some seats are still free: wait for the players, or give those seats to the computer."
    ),
    "not_host": N_("Only the host of the table can do this."),
    "not_at_table": N_("You have no seat at this table."),
    "spectators_off": N_("This table does not take spectators."),
    "extra_time_used_up": N_("You have used all your extra time for this game."),
    "timer_off": N_("This table plays without a turn timer."),
    "free_text_off": N_("At this table, messages are the preset phrases only."),
    "bad_phrase": N_("There is no such phrase."),
    "empty_message": N_("Write a message first."),
    "message_too_long": N_("A message may have at most %(maximum)s characters."),
    "too_many_messages": N_("Not so fast: wait a moment before the next message."),
    "bad_seats": N_(
        "This game is played by %(minimum)s to %(maximum)s players; the first seat is the host's."
    ),
    "bad_timer": N_("The turn timer is off, 30, 60, 120 or 180 seconds."),
    "bad_grace": N_("The grace period lasts from %(minimum)s to %(maximum)s seconds."),
    "table_name_too_long": N_("A table's name may have at most %(maximum)s characters."),
    "seat_not_yours": N_("This seat is not yours."),
}


register_missing(ERRORS)


PRESENCE = -1
"""The version published on a table's channel when only who is connected changed."""


def table_channel(table_id: str) -> str:
    return f"table:{table_id}"


def now_ms(seconds: float) -> int:
    return int(seconds * 1000)


def epoch(moment: datetime) -> float:
    """Seconds since the epoch of a stored time (SQLite gives it back without its zone: UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def nickname(text: str) -> str:
    """A nickname as shown: `rummykit.names.normalise`, not empty, not too long."""
    shown = names.normalise(text)
    if not shown:
        raise IllegalAction("empty_nickname")
    if len(shown) > NICKNAME_MAX:
        raise IllegalAction("nickname_too_long", maximum=NICKNAME_MAX)
    return shown


def results(live: AnyLive) -> tuple[list[int], list[int]]:
    """The winners of a finished game and each seat's points (Rommé and tile rummy: the
    score the game counts; Rummoli: the chips)."""
    state = live.state
    points = getattr(state, "scores", None)
    if points is None:
        points = getattr(state, "chips", None) or [0] * len(live.seats)
    winners = getattr(state, "winners", None)
    if winners is None:
        best = max(points)
        winners = [s for s, p in enumerate(points) if p == best]
    return [int(w) for w in winners], [int(p) for p in points]


# --- presence ----------------------------------------------------------------------------------


class Presence:
    """Who has a table socket open: in this process, and in every process through Redis."""

    def __init__(self, redis_url: str | None, clock: Callable[[], float]) -> None:
        self.redis_url = redis_url
        self.clock = clock
        self.process = secrets.token_hex(6)
        self.open: dict[str, Counter[int]] = {}
        """Table id -> player -> table sockets open in this process."""
        self.last: dict[str, dict[int, float]] = {}
        """Table id -> player -> when this process last saw them."""
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None
        self._reading: dict[str, asyncio.Future[dict[int, tuple[bool, float]]]] = {}

    def redis(self) -> Any:
        if self.redis_url and self._redis is None:
            self._redis = redis_client(self.redis_url)
        return self._redis

    @staticmethod
    def _keys(table_id: str) -> tuple[str, str]:
        return f"rummykit:presence:{table_id}", f"rummykit:seen:{table_id}"

    def is_open(self, table_id: str) -> bool:
        """Whether a table socket of the table is open in this process."""
        return bool(self.open.get(table_id))

    def forget(self, table_id: str) -> None:
        self.last.pop(table_id, None)

    async def opened(self, table_id: str, pid: int) -> None:
        self.open.setdefault(table_id, Counter())[pid] += 1
        await self.touch(table_id, pid)
        self.start()

    async def closed(self, table_id: str, pid: int) -> None:
        counts = self.open.get(table_id, Counter())
        counts[pid] -= 1
        if counts[pid] <= 0:
            del counts[pid]
            if not counts:
                self.open.pop(table_id, None)
            now = self.clock()
            self.last.setdefault(table_id, {})[pid] = now
            client = self.redis()
            if client is not None:
                sockets, seen = self._keys(table_id)
                with contextlib.suppress(Exception):
                    await client.hdel(sockets, f"{pid}:{self.process}")
                    await client.hset(seen, str(pid), str(now_ms(now)))

    async def touch(self, table_id: str, pid: int) -> None:
        """Note that the player was here now (a socket, a join): the grace counts from here."""
        now = self.clock()
        self.last.setdefault(table_id, {})[pid] = now
        client = self.redis()
        if client is None:
            return
        with contextlib.suppress(Exception):
            async with client.pipeline(transaction=False) as pipe:
                self._renew(pipe, table_id, pid, now)
                await pipe.execute()

    def _renew(self, pipe: Any, table_id: str, pid: int, now: float) -> None:
        """Queue on ``pipe`` the entries that say the player was here at ``now`` (and has a
        socket open in this process, if so)."""
        sockets, seen = self._keys(table_id)
        if self.open.get(table_id, Counter())[pid] > 0:
            pipe.hset(sockets, f"{pid}:{self.process}", str(now_ms(now + PRESENCE_TTL)))
            pipe.expire(sockets, 86400)
        pipe.hset(seen, str(pid), str(now_ms(now)))
        pipe.expire(seen, 86400)

    async def snapshot(self, table_id: str) -> dict[int, tuple[bool, float]]:
        """pid -> (connected now, last time seen) for every player known to be seen (the
        views of a table's readers built at one moment share one read of Redis)."""
        reading = self._reading.get(table_id)
        if reading is None:
            reading = asyncio.ensure_future(self._snapshot(table_id))
            self._reading[table_id] = reading
            reading.add_done_callback(lambda _: self._reading.pop(table_id, None))
        return dict(await asyncio.shield(reading))

    async def _snapshot(self, table_id: str) -> dict[int, tuple[bool, float]]:
        found = {pid: (False, moment) for pid, moment in self.last.get(table_id, {}).items()}
        client = self.redis()
        if client is not None:
            sockets, seen_key = self._keys(table_id)
            try:
                open_now, seen = await asyncio.gather(
                    client.hgetall(sockets), client.hgetall(seen_key)
                )
            except Exception as err:  # Redis away: what this process knows
                log.warning("presence: Redis unavailable: %s", err)
                open_now, seen = {}, {}
            for raw_pid, raw_ms in seen.items():
                pid, when = int(raw_pid), int(raw_ms) / 1000
                found[pid] = (False, max(when, found.get(pid, (False, 0.0))[1]))
            now = now_ms(self.clock())
            for field, expiry in open_now.items():
                if int(expiry) > now:
                    pid = int(field.split(b":")[0])
                    found[pid] = (True, found.get(pid, (False, 0.0))[1])
        for pid, count in self.open.get(table_id, Counter()).items():
            if count > 0:
                found[pid] = (True, self.clock())
        return found

    def start(self) -> None:
        if self.redis() is not None and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        """Every `HEARTBEAT`, renew the entries of every player with a socket open here, in one
        trip to Redis (one trip a player was 400 trips a beat at 200 tables)."""
        while self.open:
            await asyncio.sleep(HEARTBEAT)
            client = self.redis()
            now = self.clock()
            with contextlib.suppress(Exception):
                async with client.pipeline(transaction=False) as pipe:
                    for table_id, counts in list(self.open.items()):
                        for pid in list(counts):
                            self.last.setdefault(table_id, {})[pid] = now
                            self._renew(pipe, table_id, pid, now)
                    await pipe.execute()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None


# --- the service -------------------------------------------------------------------------------

Change = Callable[[StoredTable], Awaitable[Message | None]]
"""A change of a table: it changes the copy it is given (or raises `IllegalAction`) and
returns the message to store with it, if any."""


class TableService:
    """The tables of one process (see the module's documentation)."""

    def __init__(
        self,
        play: PlayService,
        hub: Hub,
        redis_url: str | None = None,
        clock: Callable[[], float] = time.time,
        tick: float = TICK,
    ) -> None:
        self.play = play
        self.hub = hub
        self.repo = TableRepository(play.repo.db)
        self.clock = clock
        self.tick = tick
        self.presence = Presence(redis_url, clock)
        self.records: dict[str, StoredTable] = {}
        self._messages: dict[str, tuple[int, list[Message]]] = {}
        self._turns: dict[str, tuple[int, float]] = {}
        self._said: defaultdict[tuple[str, int], deque[float]] = defaultdict(deque)
        self._shown_presence: dict[str, dict[int, str]] = {}
        self.watched: dict[str, float] = {}
        self._watcher: asyncio.Task[None] | None = None
        self._first_seen: dict[tuple[str, int], float] = {}
        self._rules: dict[tuple[str, str], JSON] = {}

    # --- reading and changing ----------------------------------------------------------------

    async def table(self, table_id: str, *, at_least: int = 0, fresh: bool = False) -> StoredTable:
        """The table as this process last read it, read again when ``fresh`` or older than
        ``at_least``."""
        cached = self.records.get(table_id)
        if cached is None or fresh or cached.version < at_least:
            loaded = await self.repo.load(table_id)
            cached = self.records.get(table_id)
            if cached is None or loaded.version >= cached.version:
                self.records[table_id] = cached = loaded
                self._sync_game(loaded)
        return cached

    async def change(self, table_id: str, change: Change) -> StoredTable:
        """Apply ``change`` to the newest version of the table and store it; after a lost race
        read the table again and apply it again. A refusal of the change is final only when
        it was made on the table read from the database just now (another process may have
        changed the table this process last read: a player joined, a seat was freed)."""
        fresh = False
        for _ in range(10):
            read = await self.table(table_id, fresh=fresh)
            current = read.mutable()
            try:
                message = await change(current)
            except IllegalAction:
                if fresh:
                    raise
                fresh = True
                continue
            try:
                saved = await self.repo.save(current, message)
            except Conflict:
                if current.game_id is not None and current.game_id != read.game_id:
                    await self._abandon(current.game_id)  # started for a change that lost
                fresh = True
                continue
            self.records[table_id] = saved
            self._sync_game(saved)
            self.watch(table_id)
            self.hub.publish(table_channel(table_id), saved.version)
            return saved
        raise Conflict(-1)

    async def _abandon(self, game_id: str) -> None:
        """Stop and mark a game no table will ever show (its start lost a race)."""
        live = self.play.games.get(game_id)
        if live is not None and live.runner is not None:
            live.runner.cancel()
        self.play.forget(game_id)
        with contextlib.suppress(NotFound):
            await self.play.repo.set_status(game_id, "abandoned")

    def _sync_game(self, table: StoredTable) -> None:
        """Tell the table's current game who stands in and who is called what."""
        if table.game_id is None:
            return
        standins = self.play.standins.setdefault(table.game_id, {})
        wanted = {
            i: str(seat.get("standin_level") or table.settings["standin"])
            for i, seat in enumerate(table.seats)
            if seat["kind"] == "person" and (seat.get("standin") or seat.get("left"))
        }
        nicknames = self.play.names.setdefault(table.game_id, {})
        nicknames.clear()
        nicknames.update({i: s["nickname"] for i, s in enumerate(table.seats) if s["nickname"]})
        live = self.play.games.get(table.game_id)
        if live is not None:
            live.standins = standins
            live.names = nicknames
        if wanted != standins:
            standins.clear()
            standins.update(wanted)
            if live is not None:
                with contextlib.suppress(RuntimeError):
                    self.play.kick(live)

    # --- creating and joining ------------------------------------------------------------------

    async def create(
        self,
        kind: str,
        rules: JSON,
        name: str,
        host_nickname: str,
        seats: list[tuple[str, str | None]],
        settings: dict[str, Any],
        lang: str,
    ) -> tuple[StoredTable, str]:
        """A new table with its host at seat 0; returns it and the host's token."""
        game = adapter(kind)
        if not game.min_players <= len(seats) <= game.max_players or seats[0][0] != "person":
            raise IllegalAction("bad_seats", minimum=game.min_players, maximum=game.max_players)
        offered = {level.name for level in game.levels()}
        for seat_kind, level in seats:
            if seat_kind == "computer" and level not in offered:
                raise IllegalAction("bad_level", level=level, allowed=sorted(offered))
        if settings["timer"] not in TIMERS:
            raise IllegalAction("bad_timer")
        if not GRACE_MIN <= settings["grace"] <= GRACE_MAX:
            raise IllegalAction("bad_grace", minimum=GRACE_MIN, maximum=GRACE_MAX)
        standin = settings.get("standin") or game.default_level()
        if standin not in offered:
            raise IllegalAction("bad_level", level=standin, allowed=sorted(offered))
        shown_name = names.normalise(name)
        if len(shown_name) > TABLE_NAME_MAX:
            raise IllegalAction("table_name_too_long", maximum=TABLE_NAME_MAX)
        host = nickname(host_nickname)
        game.rules_from_json(rules)  # refused here rather than at the start
        token = new_token()
        seat_rows = []
        for index, (seat_kind, level) in enumerate(seats):
            seat_rows.append(
                {
                    "pid": index,
                    "kind": seat_kind,
                    "level": level if seat_kind == "computer" else None,
                    "nickname": host if index == 0 else None,
                    "token": hash_token(token) if index == 0 else None,
                    "left": False,
                    "standin": False,
                    "extra_used": 0,
                }
            )
        table = StoredTable(
            id="",
            code="",
            kind=kind,
            name=shown_name,
            lang=lang,
            rules=dict(rules) if isinstance(rules, dict) else {},
            settings={
                "timer": settings["timer"],
                "grace": settings["grace"],
                "standin": standin,
                "spectators": bool(settings.get("spectators")),
                "free_text": bool(settings.get("free_text")),
            },
            seats=seat_rows,
            host=0,
            status="open",
            game_id=None,
            games=[],
            standings={},
            extra={},
        )
        made = await self.repo.create(table)
        self.records[made.id] = made
        await self.presence.touch(made.id, 0)
        self.watch(made.id)
        return made, token

    async def find_code(self, code: str) -> str:
        from rummykit.store.tables import read_code

        cleaned = read_code(code)
        if cleaned is None:
            raise IllegalAction("bad_table_code")
        try:
            return await self.repo.find_code(cleaned)
        except NotFound:
            raise IllegalAction("bad_table_code") from None

    @staticmethod
    def seat_of(table: StoredTable, token: str | None) -> int | None:
        """The seat whose player holds ``token`` (checked in constant time), or None."""
        if not token:
            return None
        wanted = hash_token(token)
        found = None
        for index, seat in enumerate(table.seats):
            stored = seat.get("token")
            if stored and hmac.compare_digest(stored, wanted) and not seat.get("left"):
                found = index
        return found

    @staticmethod
    def _check_nickname(table: StoredTable, shown: str, me: int | None) -> None:
        wanted = names.skeleton(shown)
        for index, seat in enumerate(table.seats):
            if index != me and seat["nickname"] and names.skeleton(seat["nickname"]) == wanted:
                raise IllegalAction("nickname_taken", nickname=shown)

    async def join(
        self, table_id: str, token: str | None, text: str, wanted: int | None
    ) -> tuple[StoredTable, int, str]:
        """Seat a newcomer (or answer the seat of one already seated): table, seat, token."""
        table = await self.table(table_id)
        mine = self.seat_of(table, token)
        if mine is None and token:  # joined at another process since this one read it?
            table = await self.table(table_id, fresh=True)
            mine = self.seat_of(table, token)
        if mine is not None and token is not None:
            return table, mine, token
        shown = nickname(text)
        new = new_token()
        chosen: list[int] = []

        async def seat_them(t: StoredTable) -> None:
            free = [
                i for i, s in enumerate(t.seats) if s["kind"] == "person" and s["token"] is None
            ]
            if wanted is not None:
                if not 0 <= wanted < len(t.seats) or t.seats[wanted]["kind"] != "person":
                    raise IllegalAction("bad_seat")
                if wanted not in free:
                    raise IllegalAction("table_started" if t.status != "open" else "seat_taken")
                seat = wanted
            elif not free or t.status != "open":
                raise IllegalAction("table_started" if t.status != "open" else "table_full")
            else:
                seat = free[0]
            if t.status != "open":
                raise IllegalAction("table_started")
            self._check_nickname(t, shown, None)
            t.seats[seat].update(nickname=shown, token=hash_token(new), left=False)
            chosen[:] = [seat]
            return None

        saved = await self.change(table_id, seat_them)
        await self.presence.touch(table_id, saved.seats[chosen[0]]["pid"])
        return saved, chosen[0], new

    async def rename(self, table_id: str, pid: int, text: str) -> StoredTable:
        shown = nickname(text)

        async def rename_them(t: StoredTable) -> None:
            seat = _seat(t, pid)
            self._check_nickname(t, shown, seat)
            t.seats[seat]["nickname"] = shown
            self._standing(t, seat)["nickname"] = shown

        return await self.change(table_id, rename_them)

    @staticmethod
    def _standing(t: StoredTable, seat: int) -> dict[str, Any]:
        entry: dict[str, Any] = t.standings.setdefault(
            str(t.seats[seat]["pid"]), {"nickname": None, "games_won": 0, "points": 0}
        )
        return entry

    # --- games ---------------------------------------------------------------------------------

    async def _new_game(self, t: StoredTable) -> str:
        seats: list[SeatInfo] = []
        hashes: dict[int, str] = {}
        for index, seat in enumerate(t.seats):
            if seat["kind"] == "computer":
                seats.append(SeatInfo(False, seat["level"]))
            elif seat.get("left"):
                seats.append(SeatInfo(False, t.settings["standin"]))
            else:
                seats.append(SeatInfo(True))
                hashes[index] = seat["token"]
            seat["extra_used"] = 0
        game = adapter(t.kind)
        presets = game.presets()
        rules = dict(presets[next(iter(presets))]) if not t.rules else dict(t.rules)
        new = await self.play.create(t.kind, rules, seats, hashes)
        t.game_id = new.id
        t.games.append(new.id)
        t.status = "playing"
        t.extra = {}
        for index, seat in enumerate(t.seats):
            seat["standin"] = bool(seat.get("standin")) and seat["kind"] == "person"
            self._standing(t, index)["nickname"] = seat["nickname"] or None
        return new.id

    async def start(self, table_id: str, pid: int, fill: str | None) -> StoredTable:
        game = adapter((await self.table(table_id)).kind)
        if fill is not None and fill not in {level.name for level in game.levels()}:
            raise IllegalAction("bad_level", level=fill)

        async def start_it(t: StoredTable) -> None:
            if t.host != _seat(t, pid):
                raise IllegalAction("not_host")
            if t.status != "open":
                raise IllegalAction("table_started")
            free = [i for i, s in enumerate(t.seats) if s["kind"] == "person" and not s["token"]]
            if free and fill is None:
                raise IllegalAction("seats_free", seats=free)
            for index in free:
                t.seats[index].update(kind="computer", level=fill)
            await self._new_game(t)

        return await self.change(table_id, start_it)

    async def rematch(self, table_id: str, pid: int) -> StoredTable:
        async def again(t: StoredTable) -> None:
            if t.host != _seat(t, pid):
                raise IllegalAction("not_host")
            if t.status == "open":
                raise IllegalAction("rematch_too_soon")
            live = await self.play.get(t.game_id or "")
            if not live.is_over:
                raise IllegalAction("rematch_too_soon")
            self._count(t, live)
            n = len(t.seats)
            t.seats[:] = [t.seats[(i - 1) % n] for i in range(n)]
            t.host = (t.host + 1) % n
            await self._new_game(t)

        return await self.change(table_id, again)

    def _count(self, t: StoredTable, live: AnyLive) -> None:
        """Add a finished game to the standings (once: ``counted`` names the games counted)."""
        counted = t.extra.setdefault("counted", [])
        if live.id in counted or live.id != t.game_id:
            return
        winners, points = results(live)
        for index in range(len(t.seats)):
            entry = self._standing(t, index)
            entry["games_won"] += 1 if index in winners else 0
            entry["points"] += points[index] if index < len(points) else 0
        counted.append(live.id)
        t.status = "over"

    async def leave(self, table_id: str, pid: int) -> StoredTable:
        async def leave_it(t: StoredTable) -> None:
            seat = _seat(t, pid)
            if t.status == "open":
                t.seats[seat].update(nickname=None, token=None)
            else:
                t.seats[seat].update(left=True, standin=True)
            if t.host == seat:
                n = len(t.seats)
                for step in range(1, n):
                    other = t.seats[(seat + step) % n]
                    if other["kind"] == "person" and other["token"] and not other.get("left"):
                        t.host = (seat + step) % n
                        break

        return await self.change(table_id, leave_it)

    async def take_back(self, table_id: str, pid: int) -> StoredTable:
        """The player ``pid`` plays their seat again (a computer stood in)."""

        async def back(t: StoredTable) -> None:
            t.seats[_seat(t, pid)]["standin"] = False

        table = await self.table(table_id, fresh=True)
        if not table.seats[_seat(table, pid)].get("standin"):
            return table
        return await self.change(table_id, back)

    async def extra_time(self, table_id: str, pid: int) -> StoredTable:
        table = await self.table(table_id)
        seat = _seat(table, pid)
        if not table.settings["timer"]:
            raise IllegalAction("timer_off")
        live = await self._live(table)
        if live is None or live.is_over or live.state.to_move != seat:
            raise IllegalAction("not_your_turn")
        seq = live.seq

        async def more(t: StoredTable) -> None:
            if t.seats[seat]["extra_used"] >= EXTRA_USES:
                raise IllegalAction("extra_time_used_up", allowed=EXTRA_USES)
            if t.game_id != live.id or live.seq != seq or _seat(t, pid) != seat:
                raise IllegalAction("not_your_turn")
            t.seats[seat]["extra_used"] += 1
            same = t.extra.get("game_id") == live.id and t.extra.get("seq") == seq
            seconds = (int(t.extra.get("seconds", 0)) if same else 0) + EXTRA_SECONDS
            t.extra.update(game_id=live.id, seq=seq, seconds=seconds)

        return await self.change(table_id, more)

    async def say(
        self, table_id: str, pid: int, phrase: str | None, text: str | None
    ) -> StoredTable:
        table = await self.table(table_id)
        if (phrase is None) == (text is None):
            raise IllegalAction("bad_phrase")
        if phrase is not None and phrase not in PHRASES and phrase not in EMOTES:
            raise IllegalAction("bad_phrase")
        cleaned = None
        if text is not None:
            if not table.settings.get("free_text"):
                raise IllegalAction("free_text_off")
            cleaned = names.normalise(text)
            if not cleaned:
                raise IllegalAction("empty_message")
            if len(cleaned) > TEXT_MAX:
                raise IllegalAction("message_too_long", maximum=TEXT_MAX)
        said = self._said[(table_id, pid)]
        now = self.clock()
        while said and said[0] < now - SAY_LIMIT[1]:
            said.popleft()
        if len(said) >= SAY_LIMIT[0]:
            raise IllegalAction("too_many_messages")
        said.append(now)

        async def add(t: StoredTable) -> Message:
            seat = _seat(t, pid)
            who = t.seats[seat]["nickname"] or ""
            return Message(0, seat, who, phrase, cleaned, datetime.now(UTC))

        return await self.change(table_id, add)

    # --- the watcher ---------------------------------------------------------------------------

    def watch(self, table_id: str) -> None:
        """Keep an eye on the table (timer, stand-ins, standings) for a while."""
        self.watched[table_id] = self.clock()
        if self._watcher is None or self._watcher.done():
            with contextlib.suppress(RuntimeError):
                self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while self.watched:
            await asyncio.sleep(self.tick)
            now = self.clock()
            for table_id, since in list(self.watched.items()):
                local = self.presence.is_open(table_id)
                if not local and now - since > WATCH_IDLE:
                    self.forget(table_id)
                    continue
                try:
                    await self.check(table_id)
                except asyncio.CancelledError:
                    raise
                except NotFound:
                    self.forget(table_id)
                except Exception:
                    log.exception("table %s: check failed", table_id)

    def forget(self, table_id: str) -> None:
        """Drop what this process keeps of a table nobody here follows any more (the next
        request reads it again)."""
        self.watched.pop(table_id, None)
        table = self.records.pop(table_id, None)
        self._messages.pop(table_id, None)
        self._shown_presence.pop(table_id, None)
        for shown in [k for k in self._rules if k[0] == table_id]:
            del self._rules[shown]
        held: dict[tuple[str, int], Any]
        self.presence.forget(table_id)
        for held in (self._first_seen, self._said):
            for key in [k for k in held if k[0] == table_id]:
                del held[key]
        if table is not None:
            for game_id in table.games:
                self._turns.pop(game_id, None)

    async def check(self, table_id: str) -> None:
        """Do what is due at the table now: stand-ins after the grace period, the timer's
        safe move, the standings of a finished game; tell the sockets of a change of
        presence."""
        table = await self.table(table_id)
        presence = await self.presence.snapshot(table_id)
        shown = self._presence_of(table, presence)
        if self._shown_presence.get(table_id) != shown:
            self._shown_presence[table_id] = shown
            self.hub.publish(table_channel(table_id), PRESENCE)
        live = await self._live(table)
        if live is None:
            return
        if live.is_over:
            if table.status == "playing":
                await self.change(table_id, self._count_current)
            return
        now = self.clock()
        grace = float(table.settings["grace"])
        late = set()
        for seat in table.seats:
            if seat["kind"] != "person" or seat.get("left") or seat.get("standin"):
                continue
            known = presence.get(seat["pid"])
            if known is not None and not known[0] and now - known[1] >= grace:
                late.add(seat["pid"])
        if late:

            async def stand_in(t: StoredTable) -> None:
                for seat in t.seats:  # by player: the seats may have moved since
                    if seat["pid"] in late and seat["kind"] == "person" and not seat["left"]:
                        seat["standin"] = True

            table = await self.change(table_id, stand_in)
        await self._timer(table, live)

    async def _count_current(self, t: StoredTable) -> None:
        live = await self._live(t)
        if live is not None and live.is_over:
            self._count(t, live)

    async def _timer(self, table: StoredTable, live: AnyLive) -> None:
        deadline = await self.deadline(table, live)
        if deadline is None or self.clock() < deadline:
            return
        # Due: first catch up with what another process may have written meanwhile (a move,
        # extra time).
        live = await self.play.get(live.id, fresh=True)
        table = await self.table(table.id, fresh=True)
        if table.game_id != live.id:
            return
        deadline = await self.deadline(table, live)
        if deadline is None or self.clock() < deadline:
            return
        seat = live.state.to_move
        seq = live.seq
        for _ in range(FALLBACK_STEPS):
            if live.is_over or live.state.to_move != seat or seat in live.standins:
                return
            action = live.adapter.fallback_action(live.state, seat)
            try:
                live = await self.play.act(live, seat, seq, action.to_json())
            except (StaleVersion, Conflict, IllegalAction, NotFound) as err:
                log.info("table %s: the timer's move gave way (%r)", table.id, err)
                return
            seq = live.seq
        self.hub.publish(table_channel(table.id), table.version)

    async def deadline(self, table: StoredTable, live: AnyLive) -> float | None:
        """When the turn of the person to move ends (epoch seconds), or None (no timer, a
        computer's turn, a stand-in's, the game over)."""
        timer = int(table.settings["timer"])
        seat = live.state.to_move
        if not timer or live.is_over or seat is None or live.computer_to_move() is not None:
            return None
        if not 0 <= seat < len(table.seats) or table.seats[seat]["kind"] != "person":
            return None
        start = await self._turn_start(live)
        extra = table.extra
        seconds = float(timer)
        if extra.get("game_id") == live.id and extra.get("seq") == live.seq:
            seconds += float(extra.get("seconds", 0))
        return start + seconds

    async def _turn_start(self, live: AnyLive) -> float:
        known = self._turns.get(live.id)
        if known is not None and known[0] == live.seq:
            return known[1]
        seq, moment = await self.repo.last_action_at(live.id)
        start = epoch(moment)
        if seq == live.seq:
            self._turns[live.id] = (seq, start)
        return start

    async def _live(self, table: StoredTable, *, fresh: bool = False) -> AnyLive | None:
        if table.game_id is None:
            return None
        live = await self.play.get(table.game_id, fresh=fresh)
        if live.standins is not self.play.standins.get(table.game_id, live.standins):
            self._sync_game(table)
        return live

    # --- views ---------------------------------------------------------------------------------

    def _presence_of(
        self, table: StoredTable, presence: Mapping[int, tuple[bool, float]]
    ) -> dict[int, str]:
        now = self.clock()
        shown = {}
        for index, seat in enumerate(table.seats):
            if seat["kind"] != "person" or not seat["token"]:
                continue
            if seat.get("left"):
                shown[index] = "gone"
                continue
            key = (table.id, int(seat["pid"]))
            connected, seen = presence.get(
                seat["pid"], (False, self._first_seen.setdefault(key, now))
            )
            shown[index] = "connected" if connected or now - seen < AWAY_AFTER else "away"
        return shown

    def _rules_shown(self, table: StoredTable, game: Any, lang: str) -> JSON:
        """The table's rules, each option with the label of its value, in ``lang`` (kept:
        a table's rules never change). Every view of the table shares the one tuple: views are
        built for each socket at every move, and copying it was a sixth of their cost."""
        key = (table.id, lang)
        if key not in self._rules:
            t = site_translations(lang)
            rules = dict(game.presets()[next(iter(game.presets()))])
            rules.update(table.rules)
            summary = game.rules_summary(game.rules_from_json(rules))
            self._rules[key] = tuple((field, t.gettext(label)) for field, label in summary)
            while len(self._rules) > 2000:
                self._rules.pop(next(iter(self._rules)))
        return self._rules[key]

    async def messages(self, table: StoredTable) -> list[Message]:
        cached = self._messages.get(table.id)
        if cached is None or cached[0] != table.version:
            cached = (table.version, await self.repo.messages(table.id, MESSAGES_SHOWN))
            self._messages[table.id] = cached
        return cached[1]

    async def view(self, table: StoredTable, me: int | None, lang: str) -> dict[str, JSON]:
        """The table as the reader at seat ``me`` (None: a visitor) sees it, in ``lang``."""
        t = site_translations(lang)
        game = adapter(table.kind)
        presence = self._presence_of(table, await self.presence.snapshot(table.id))
        live = await self._live(table)
        over = live is not None and live.is_over
        status = "open" if table.status == "open" else ("over" if over else "playing")
        turn: JSON = None
        if live is not None and not live.is_over and live.state.to_move is not None:
            deadline = await self.deadline(table, live)
            used = table.seats[me]["extra_used"] if me is not None else EXTRA_USES
            turn = {
                "seat": int(live.state.to_move),
                "seq": live.seq,
                "deadline": None if deadline is None else now_ms(deadline),
                "extra_left": max(0, EXTRA_USES - int(used)),
            }
        seats: list[JSON] = []
        for index, seat in enumerate(table.seats):
            free = seat["kind"] == "person" and not seat["token"]
            seats.append(
                {
                    "seat": index,
                    "kind": seat["kind"],
                    "level": seat["level"],
                    "nickname": seat["nickname"],
                    "presence": presence.get(index),
                    "standin": bool(seat.get("standin") or seat.get("left")) and not free,
                    "host": index == table.host,
                    "free": free,
                }
            )
        standings: list[JSON] = []
        for index, seat in enumerate(table.seats):
            entry = table.standings.get(str(seat["pid"]), {})
            standings.append(
                {
                    "seat": index,
                    "nickname": seat["nickname"],
                    "games_won": int(entry.get("games_won", 0)),
                    "points": int(entry.get("points", 0)),
                }
            )
        messages: list[JSON] = []
        for m in await self.messages(table):
            if m.phrase is not None:
                said = EMOTES.get(m.phrase) or t.gettext(PHRASES.get(m.phrase, m.phrase))
            else:
                said = m.text or ""
            messages.append(
                {
                    "n": m.n,
                    "seat": m.seat,
                    "nickname": m.nickname,
                    "phrase": m.phrase,
                    "text": said,
                    "at": now_ms(epoch(m.at)),
                }
            )
        return {
            "id": table.id,
            "code": table.code,
            "url": f"/{lang}/t/{table.id}",
            "name": table.name,
            "game": table.kind,
            "lang_of_host": table.lang,
            "version": table.version,
            "status": status,
            "host": table.host,
            "me": me,
            "spectator": me is None,
            "settings": {
                **table.settings,
                "extra_time": EXTRA_USES,
                "extra_seconds": EXTRA_SECONDS,
            },
            "rules": self._rules_shown(table, game, lang),
            "seats": seats,
            "game_id": table.game_id,
            "game_number": len(table.games),
            "turn": turn,
            "now": now_ms(self.clock()),
            "standings": standings,
            "phrases": phrases_shown(lang),
            "messages": messages,
        }

    # --- the table's socket ----------------------------------------------------------------------

    async def follow(self, websocket: WebSocket, table_id: str, pid: int | None, lang: str) -> None:
        """Serve a table socket: ``{"t": "table", "v": version, "d": view}`` at once and after
        every change of what the reader sees, until it closes. ``pid`` is the reader's player
        (None: a spectator); the caller has just read the table from the database.

        The socket is one small `TableSocket` in the hub's sets of the table's channel and of
        its current game's, and this task only waits for it to close: no queue and no task of
        its own."""
        await websocket.accept()
        self.watch(table_id)
        if pid is not None:
            await self.presence.opened(table_id, pid)
        watcher = TableSocket(self, websocket, table_id, pid, lang)
        try:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, NotFound):
                table = await self.table(table_id)
                if pid is not None:
                    seat = _seat_of_pid(table, pid)
                    if seat is not None and table.seats[seat].get("standin"):
                        table = await self.take_back(table_id, pid)
                    self.hub.publish(table_channel(table_id), PRESENCE)
                watcher.start(table.game_id)
                await watcher.send(PRESENCE, table_channel(table_id))
                await drain(websocket)
        finally:
            watcher.stop()
            if pid is not None:
                await self.presence.closed(table_id, pid)
                with contextlib.suppress(Exception):
                    self.hub.publish(table_channel(table_id), PRESENCE)

    def versions(self, table_id: str) -> Callable[[], Awaitable[int]]:
        """Reads the table's newest version (the hub's poller of its channel asks it after a
        quiet interval)."""

        async def version() -> int:
            return (await self.table(table_id, fresh=True)).version

        return version

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(BaseException):
                await self._watcher
        await self.presence.close()


class TableSocket(OneAtATime):
    """A table socket as the hub keeps it (`rummykit.web.live.Watcher`), in the sets of the
    table's channel and of its current game's: ``send`` reads the table (and the game) as new as
    announced and sends the reader's view when what they see changed. Announcements that come
    while it sends make it look again, so views go out one at a time and in order."""

    __slots__ = (
        "game_at",
        "game_id",
        "lang",
        "last",
        "pid",
        "service",
        "shown",
        "table_at",
        "table_id",
    )

    def __init__(
        self, service: TableService, socket: WebSocket, table_id: str, pid: int | None, lang: str
    ) -> None:
        super().__init__(socket)
        self.service = service
        self.table_id = table_id
        self.pid = pid
        self.lang = lang
        # Below every version: each announcement is offered, a change of presence included
        # (`PRESENCE`); `send` keeps what is new.
        self.last = PRESENCE - 1
        self.table_at = 0
        self.game_at = 0
        self.game_id: str | None = None
        self.shown: Any = None

    def start(self, game_id: str | None) -> None:
        hub = self.service.hub
        hub.watch(table_channel(self.table_id), self, self.service.versions(self.table_id))
        self._follow_game(game_id)

    def _follow_game(self, game_id: str | None) -> None:
        hub, play = self.service.hub, self.service.play
        if self.game_id is not None:
            hub.unwatch(channel(self.game_id), self)
        self.game_id = game_id
        self.game_at = 0
        if game_id is not None:
            hub.watch(channel(game_id), self, play.versions(game_id))

    def stop(self) -> None:
        hub = self.service.hub
        hub.unwatch(table_channel(self.table_id), self)
        if self.game_id is not None:
            hub.unwatch(channel(self.game_id), self)

    async def send(self, version: int, on: str = "") -> None:
        # What the reader sees changes with the table's version, the game's, or a change of
        # presence: a poll's announcement of a version already shown changes nothing.
        if on.startswith("game:"):
            if on != channel(self.game_id or "") or version <= self.game_at:
                return
            self.game_at = version
        elif version != PRESENCE:
            if version <= self.table_at:
                return
            self.table_at = version
        await self.pump()

    def _failed(self) -> None:
        log.exception("table %s: a page could not be brought up to date", self.table_id)

    async def _push(self) -> None:
        service = self.service
        table = await service.table(self.table_id, at_least=self.table_at)
        if table.game_id != self.game_id:
            self._follow_game(table.game_id)
        if self.game_id is not None and self.game_at:
            # Another process's move: this process's copy reads the missing steps.
            await service.play.get(self.game_id, at_least=self.game_at)
        me = _seat_of_pid(table, self.pid) if self.pid is not None else None
        data = await service.view(table, me, self.lang)
        seen = {k: v for k, v in data.items() if k != "now"}
        if seen == self.shown:
            return
        shown, self.shown = self.shown, seen
        if shown is None or shown.keys() != seen.keys():
            await self.socket.send_json({"t": "table", "v": table.version, "d": data})
            return
        # What changed since this socket's last view (at a move, the turn): the page lays it
        # over that view. The whole view, phrases and messages included, is about 18 times larger.
        changed = {k: v for k, v in seen.items() if shown[k] != v}
        changed["now"] = data["now"]
        await self.socket.send_json({"t": "table", "v": table.version, "p": changed})


@functools.cache
def phrases_shown(lang: str) -> tuple[dict[str, str], ...]:
    """The preset phrases in ``lang``, then the emotes, as the table's views list them (one
    tuple a language, shared by every view and never changed)."""
    t = site_translations(lang)
    phrases = [{"code": c, "text": t.gettext(p)} for c, p in PHRASES.items()]
    return (*phrases, *({"code": c, "text": e} for c, e in EMOTES.items()))


def _seat(table: StoredTable, pid: int) -> int:
    """The seat of player ``pid`` now (seats move at a rematch), or ``not_at_table``."""
    seat = _seat_of_pid(table, pid)
    if seat is None or table.seats[seat].get("left"):
        raise IllegalAction("not_at_table")
    return seat


def _seat_of_pid(table: StoredTable, pid: int) -> int | None:
    for index, seat in enumerate(table.seats):
        if seat["pid"] == pid:
            return index
    return None


def tables(app: Any) -> TableService:
    """The app's table service, created on first use."""
    from rummykit.web.play.service import service

    found = getattr(app.state, "tables", None)
    if found is None or found.play is not service(app):
        redis_url = getattr(app.state.hub, "redis_url", None) or os.environ.get(
            "RUMMYKIT_REDIS_URL"
        )
        found = TableService(service(app), app.state.hub, redis_url)
        app.state.tables = found
    return found
