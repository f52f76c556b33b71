"""The play layer: stored games, the seats' views, computer turns and live updates.

The database is the authority: a game is its record (kind, rules, secret seed, seats, actions)
and every action is appended at the position the caller saw (``seq``), so two requests or two
processes can never both write the same move (`rummykit.store.Conflict`). Each process keeps a
cache of live games, each with the state rebuilt by replaying its record, and after every action:

- the new state is checked by the engine first (a refused action changes nothing),
- the action is appended to the log in one statement, then the step's events are kept for a
  while with the view of each seat whose page follows the game (its *frame*), so a page can
  show the computer's turns step by step; a seat nobody follows costs no view,
- the hub is told the new version (``seq``), and the WebSocket of each page sends the frames
  it has not seen, or, after a long absence or a restart, the current view to jump to.

Computer seats play in a background task: each decision runs in a worker process (or a thread,
see `default_bot_workers`) with the game's time budget (a bot that fails or overruns is replaced
by a plain legal action), so a person never waits on the server for more than that budget, and
the computer's thinking does not hold up the requests of other games. Nothing here knows a rule: see
`rummykit.web.play.adapter`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.core import JSON, Bot, IllegalAction, Record
from rummykit.i18n import DEFAULT_LANGUAGE
from rummykit.store import Conflict, Database, GameRepository, NewGame, NotFound, hash_token
from rummykit.web.language import site_translations
from rummykit.web.live import Hub, OneAtATime, drain
from rummykit.web.play import workers
from rummykit.web.play.adapter import (
    ActionT,
    PlayGame,
    RulesT,
    SeatInfo,
    StateT,
    ViewT,
    adapter,
    derived_seed,
)
from rummykit.web.play.pool import WorkerLost, WorkerPool
from rummykit.web.play.sentences import Reader, hint_text, seat_names, told

log = logging.getLogger("rummykit.play")

FRAMES_KEPT = 128
"""Steps of a game whose views stay in memory for pages that are behind (a page further
behind gets the current view)."""
STEPS_SENT = 100
"""A page further behind than this gets the current view instead of every step."""
FOLLOW_GRACE = 30.0
"""Seconds after a seat's last request or socket during which its steps keep its views, so a
page that reloads or reconnects still shows each step it missed (later it jumps)."""
RECENT_EVENTS = 40
"""Events of the log sent with a full view (for the page's history panel)."""
BOT_MARGIN = 0.5
"""Seconds a hint may take beyond its budget before it is given up."""
BOT_TIMEOUT = 10.0
"""Seconds after which a computer seat's decision is given up for a plain legal move. The bots
keep to their own budget; this only guards against one that hangs (a busy server queues
decisions, and a queued decision is not a late one)."""


GAME = "game"
"""The kind of the games' channels."""


def channel(game_id: str) -> str:
    return f"{GAME}:{game_id}"


class StaleVersion(Exception):
    """The page acted on an older version of the game; ``current`` is the newest."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at {current}")
        self.current = current


class NotYourGame(Exception):
    """No seat of the game belongs to the request (no token, or another game's)."""


@dataclass
class LiveGame(Generic[RulesT, StateT, ViewT, ActionT]):
    """A game in memory: its state, its version and the recent views of its human seats
    (typed by its game's types; the service, which looks games up by name, holds any)."""

    id: str
    adapter: PlayGame[RulesT, StateT, ViewT, ActionT]
    rules: RulesT
    seed: int
    seats: tuple[SeatInfo, ...]
    state: StateT
    seq: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    marks: dict[int, int] = field(default_factory=dict)
    frames: OrderedDict[int, dict[int, str]] = field(default_factory=OrderedDict)
    """The views of the seats that follow the game after each recent step, as JSON text
    without the step's events (see `record_step`)."""
    step_events: OrderedDict[int, tuple[int, int]] = field(default_factory=OrderedDict)
    """Where each recent step's events lie in the log: their first index and the one after.
    Two numbers and not the events themselves: a hundred games' last steps made tens of
    thousands of lists and dicts for the garbage collector to walk at each full pass."""
    latest_events: tuple[int, list[JSON]] = (-1, [])
    """The last step's events as the pages get them (its answer and every socket read them)."""
    watching: Counter[int] = field(default_factory=Counter)
    seen_at: dict[int, float] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    bots: dict[int, Bot[ViewT, ActionT]] = field(default_factory=dict)
    runner: asyncio.Task[None] | None = None
    replay_cache: dict[int, list[dict[str, JSON]]] = field(default_factory=dict)
    standins: dict[int, str] = field(default_factory=dict)
    """Human seats a computer plays for now (seat -> level): a table's player who is away or
    left (see `rummykit.web.play.tables`)."""
    names: dict[int, str] = field(default_factory=dict)
    """The names people chose for their seats (a table's nicknames), told in the events."""

    @property
    def kind(self) -> str:
        return self.adapter.kind

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def log(self) -> Sequence[Mapping[str, JSON]]:
        return self.adapter.log(self.state)

    def reader(self, seat: int | None, lang: str) -> Reader:
        """Who reads the log at ``seat`` in language ``lang`` (for the events' ``text``)."""
        t = site_translations(lang)
        names = seat_names(self.seats, seat, t)
        for index, name in self.names.items():
            if index != seat and 0 <= index < len(names):
                names[index] = name
        return Reader(t, names, seat)

    def told(self, data: dict[str, JSON], seat: int | None, lang: str) -> dict[str, JSON]:
        """A view or frame whose events carry their ``text`` for the reader at ``seat``."""
        events = data.get("events")
        if not isinstance(events, list) or not events:
            return data
        raw = [e for e in events if isinstance(e, dict)]
        return {**data, "events": told(self.kind, raw, self.reader(seat, lang))}

    def view(
        self, seat: int | None, recent: int = RECENT_EVENTS, lang: str = DEFAULT_LANGUAGE
    ) -> dict[str, JSON]:
        """The full view of ``seat`` now, with the last events of the log, told in ``lang``."""
        data = self._view(seat, recent)
        return self.told(data, seat, lang)

    def _view(self, seat: int | None, recent: int) -> dict[str, JSON]:
        data = self.adapter.client_view(self.state, seat)
        entries = self.log()
        data.update(
            game=self.kind,
            id=self.id,
            seq=self.seq,
            seat=seat,
            seats=[s.to_json() for s in self.seats],
            step=False,
            events=[self.adapter.client_event(e) for e in entries[-recent:]] if recent else [],
        )
        return data

    def record_step(self) -> None:
        """Keep the events of the step just applied, and the view of each seat that follows
        the game (`followers`; a seat that comes back later gets the current view)."""
        entries = self.log()
        before = self.marks.get(self.seq - 1, len(entries))
        self.marks[self.seq] = len(entries)
        self.step_events[self.seq] = (before, len(entries))
        self.latest_events = (self.seq, [self.adapter.client_event(e) for e in entries[before:]])
        frame: dict[int, str] = {}
        for seat in self.followers():
            data = self._view(seat, recent=0)
            del data["events"]
            data["step"] = True
            # Kept as text, encoded once for the answer and every page of the seat: a
            # string costs the garbage collector nothing, the view's lists and dicts did.
            frame[seat] = dumps(data)[:-1]
        self.frames[self.seq] = frame
        while len(self.frames) > FRAMES_KEPT:
            old, _ = self.frames.popitem(last=False)
            self.step_events.pop(old, None)
            self.marks.pop(old - 1, None)

    def followers(self) -> list[int]:
        """The seats whose steps keep their views: a page of the seat follows the game in this
        process, or the seat was heard of in the last `FOLLOW_GRACE` seconds."""
        now = time.monotonic()
        recent = {s for s, moment in self.seen_at.items() if now - moment < FOLLOW_GRACE}
        return sorted(recent.union(self.watching))

    def heard_from(self, seat: int) -> None:
        """The seat made a request or closed its socket just now."""
        self.seen_at[seat] = time.monotonic()

    def step_view(self, seat: int, lang: str = DEFAULT_LANGUAGE) -> str:
        """The view of ``seat`` after the last step with that step's events (the answer to the
        seat's own action), as JSON text, taken from the step's frame when a page of the
        seat keeps one."""
        head = self.frames.get(self.seq, {}).get(seat)
        if head is None:
            data = self._view(seat, recent=0)
            data.update(step=True, events=self.events_of(self.seq))
            return dumps(self.told(data, seat, lang))
        return self._step_text(self.seq, head, seat, lang)

    def events_of(self, seq: int) -> list[JSON]:
        """The events of step ``seq`` as the pages get them (none when it is not kept)."""
        if self.latest_events[0] == seq:
            return self.latest_events[1]
        start, end = self.step_events.get(seq, (0, 0))
        return [self.adapter.client_event(e) for e in self.log()[start:end]]

    def _step_text(self, seq: int, head: str, seat: int, lang: str) -> str:
        """A step's frame for ``seat`` (`record_step`) with the step's events told in
        ``lang``, as the JSON text of the view."""
        events = self.events_of(seq)
        data = self.told({"events": events}, seat, lang)
        return f'{head},"events":{dumps(data["events"])}}}'

    def messages_since(
        self, seen: int, seat: int | None, lang: str = DEFAULT_LANGUAGE
    ) -> list[tuple[int, str]]:
        """What a page of ``seat`` that has seen version ``seen`` needs: each missing step, or
        the current view when the steps are gone (or too many), told in ``lang``, as the
        version and the JSON text of each view."""
        if seen >= self.seq:
            return [] if seen == self.seq else [(self.seq, dumps(self.view(seat, lang=lang)))]
        wanted = range(seen + 1, self.seq + 1)
        if (
            seat is not None
            and len(wanted) <= STEPS_SENT
            and all(v in self.frames and seat in self.frames[v] for v in wanted)
        ):
            return [(v, self._step_text(v, self.frames[v][seat], seat, lang)) for v in wanted]
        return [(self.seq, dumps(self.view(seat, lang=lang)))]

    @property
    def travels(self) -> bool:
        """Whether the game's computer seats think in worker processes (see `PlayGame`)."""
        return self.adapter.travels

    def bot_seed(self, seat: int) -> int:
        """The seed of the bot deciding at ``seat`` now: from the secret seed, the seat and the
        step, so the decision does not depend on where or when it is computed."""
        return derived_seed(self.seed, "bot", seat, self.seq)

    def resident_bot(self, seat: int) -> Bot[ViewT, ActionT]:
        """For a game whose views cannot travel: the seat's bot, kept for the whole game in
        this process (it may keep plans from one decision to the next)."""
        if seat not in self.bots:
            level = self.level_of(seat)
            self.bots[seat] = self.adapter.make_bot(level, derived_seed(self.seed, "bot", seat))
        return self.bots[seat]

    def level_of(self, seat: int) -> str:
        """The level of the computer playing ``seat`` (its own, or the stand-in's)."""
        return self.standins.get(seat) or self.seats[seat].level or ""

    def computer_to_move(self) -> int | None:
        """The computer seat whose decision is awaited, if any (between rounds a game without
        people goes on by itself)."""
        if self.is_over:
            return None
        seat = self.state.to_move
        if seat is None:
            return None if self.human_seats else 0
        if self.seats[seat].human and seat not in self.standins:
            return None
        return int(seat)


AnyLive: TypeAlias = LiveGame[Any, Any, Any, Any]
"""A live game looked up by its id: its game's types are known only to its own module."""


class PlayService:
    """Stored games in play, shared by every page and API route of one process."""

    def __init__(
        self, db: Database, hub: Hub, cache_size: int = 500, bot_workers: int | None = None
    ) -> None:
        self.repo = GameRepository(db)
        self.hub = hub
        self.cache_size = cache_size
        self.games: OrderedDict[str, AnyLive] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        if bot_workers is None:
            bot_workers = default_bot_workers()
        self.bot_workers = bot_workers
        self._pool: WorkerPool | None = None
        # SQLite lets one writer in at a time and makes the others wait in growing sleeps: the
        # games of this process take turns here instead (other databases need no such care,
        # and a SQLite file's steps take turns in its writer's thread, many at a time).
        turns = db.is_sqlite and db.writer is None
        self._writing = asyncio.Lock() if turns else contextlib.nullcontext()
        self.standins: dict[str, dict[int, str]] = {}
        """The stand-ins of the tables' games (game id -> seat -> level), shared with their
        live games so that a game loaded again keeps them."""
        self.names: dict[str, dict[int, str]] = {}
        """The nicknames of the tables' games (game id -> seat -> name), shared likewise."""
        hub.on_step(GAME, self._heard_step)

    def pool(self) -> WorkerPool | None:
        """The worker processes of the computer seats, started in the background at the first
        call (none: they think in threads)."""
        if self.bot_workers <= 0:
            return None
        if self._pool is None:
            self._pool = WorkerPool(self.bot_workers)
        self._pool.start()
        return self._pool

    async def compute(self, live: AnyLive, function: Any, *args: Any, timeout: float) -> Any:
        """Run a worker's function (`rummykit.web.play.workers.JOBS`) in a worker process, or
        in a thread when there are none; `TimeoutError` after ``timeout`` seconds,
        `WorkerLost` when its worker ends first."""
        pool = self.pool()
        if pool is not None:
            return await pool.run(function, *args, timeout=timeout)
        return await asyncio.wait_for(asyncio.to_thread(function, *args), timeout)

    # --- creating and loading --------------------------------------------------------------

    async def create(
        self,
        kind: str,
        rules_json: JSON,
        seats: Sequence[SeatInfo],
        token_hashes: Mapping[int, str] | None = None,
    ) -> NewGame:
        """Store a new game and return its id and the token of each human seat (``token_hashes``:
        the hashes of tokens some human seats already hold, see `GameRepository.create_game`)."""
        game = adapter(kind)
        rules = game.rules_from_json(rules_json)
        if not game.min_players <= len(seats) <= game.max_players:
            raise IllegalAction(
                "bad_players",
                players=len(seats),
                minimum=game.min_players,
                maximum=game.max_players,
            )
        offered = {level.name for level in game.levels()}
        for seat in seats:
            if not seat.human and seat.level not in offered:
                raise IllegalAction("bad_level", level=seat.level, allowed=sorted(offered))
        seed = secrets.randbits(62)
        state = game.new_state(rules, len(seats), seed)
        new = await self.repo.create_game(
            kind,
            game.rules_to_json(rules),
            seed,
            [s.code for s in seats],
            [i for i, s in enumerate(seats) if s.human],
            token_hashes,
        )
        self.pool()  # start the workers before the first decision needs them
        live = LiveGame(new.id, game, rules, seed, tuple(seats), state, 0)
        live.marks[0] = len(live.log())
        for index, token in new.seat_tokens.items():
            live.tokens[hash_token(token)] = index
            live.heard_from(index)
        for index, digest in (token_hashes or {}).items():
            live.tokens[digest] = index
            live.heard_from(index)
        if token_hashes:
            live.standins = self.standins.setdefault(new.id, {})
            live.names = self.names.setdefault(new.id, {})
        self._remember(live)
        self.kick(live)
        return new

    async def get(self, game_id: str, *, fresh: bool = False, at_least: int = 0) -> AnyLive:
        """The live game, loaded and replayed from the database when it is not in memory;
        ``fresh`` also catches up with actions another process may have written, and so does
        a copy behind version ``at_least`` (one that has reached it reads nothing)."""
        live = self.games.get(game_id)
        if live is None:
            lock = self._loading.setdefault(game_id, asyncio.Lock())
            async with lock:
                live = self.games.get(game_id)
                if live is None:
                    live = await self._load(game_id)
                    self._remember(live)
            self._loading.pop(game_id, None)
        elif fresh or live.seq < at_least:
            await self._catch_up(live, 0 if fresh else at_least)
            if self.games.get(game_id) is not live:  # forgotten meanwhile: load it again
                return await self.get(game_id)
        self.games.move_to_end(game_id)
        self.kick(live)
        return live

    async def _load(self, game_id: str) -> AnyLive:
        self.pool()
        record, token_hashes = await self.repo.load_game(game_id)
        game = adapter(record.game)
        state = await asyncio.to_thread(game.replay, record)
        seats = tuple(SeatInfo.parse(s) for s in record.seats)
        rules = game.record_options(record.rules)
        live = LiveGame(game_id, game, rules, record.seed, seats, state, len(record.actions))
        live.marks[live.seq] = len(live.log())
        # The seats' tokens known at once: the request that loaded the game finds its seat
        # without another read, before the computer seats (started now) make a step its
        # page would miss (a seat is followed from its first request on).
        live.tokens.update((h, seat) for seat, h in enumerate(token_hashes) if h)
        live.standins = self.standins.get(game_id, live.standins)
        live.names = self.names.get(game_id, live.names)
        return live

    async def _catch_up(self, live: AnyLive, at_least: int = 0) -> None:
        """Apply the actions written by another process since this one last looked (none when
        the copy reached ``at_least`` meanwhile). The log is read without the game's lock,
        so a person's move here does not wait for the read; the steps are applied with it,
        and the lock is taken even when there are none, so that a step being stored here is
        stored when this returns."""
        if self.games.get(live.id) is not live:
            return
        missing = await self.repo.actions_since(live.id, live.seq)
        async with live.lock:
            if missing and not (at_least and live.seq >= at_least):
                self._apply(live, missing)

    async def _apply_missing(self, live: AnyLive) -> None:
        """`_catch_up` with the game's lock held."""
        if self.games.get(live.id) is not live:
            return  # a lost race left its state behind its version: it was forgotten
        self._apply(live, await self.repo.actions_since(live.id, live.seq))

    async def _heard_step(self, name: str, seq: int, data: JSON) -> None:
        """Another process stored step ``seq`` of a game and published it (`Hub.on_step`): a
        copy here one step behind applies it, without reading the database. Any other copy
        (behind by more, or caught up already) is left to its readers, which read what they
        miss from the database."""
        live = self.games.get(name.partition(":")[2])
        if live is None or live.seq != seq - 1:
            return
        async with live.lock:
            if live.seq == seq - 1:
                try:
                    self._apply(live, [(seq, data)], announce=False)
                except Exception:
                    self.forget(live.id)  # the next reader loads it from the database
                    raise
        self.kick(live)

    def _apply(
        self, live: AnyLive, missing: Sequence[tuple[int, JSON]], *, announce: bool = True
    ) -> None:
        """Apply the stored steps that follow the copy's version (the game's lock held); tell
        this process's pages (``announce``) of the new version: the other processes heard of
        it from the one that stored it."""
        if self.games.get(live.id) is not live:
            return  # a lost race left its state behind its version: it was forgotten
        before = live.seq
        for seq, data in missing:
            if seq <= live.seq:
                continue  # applied meanwhile (read before a step of this process)
            if seq != live.seq + 1:
                break
            live.state.apply(live.adapter.action_from_json(data, live.rules))
            live.seq = seq
            live.record_step()
        if live.seq != before and announce:
            self.hub.publish(channel(live.id), live.seq, remote=False)

    def _remember(self, live: AnyLive) -> None:
        self.games[live.id] = live
        self.games.move_to_end(live.id)
        while len(self.games) > self.cache_size:
            oldest = next(iter(self.games))
            victim = self.games[oldest]
            if victim.runner is not None and not victim.runner.done():
                self.games.move_to_end(oldest)
                break
            del self.games[oldest]

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (after a lost race): the next request reloads it."""
        self.games.pop(game_id, None)

    # --- seats -----------------------------------------------------------------------------

    async def seat_of(self, live: AnyLive, token: str | None) -> int:
        """The seat a token claims, or `NotYourGame`."""
        if not token:
            raise NotYourGame(live.id)
        digest = hash_token(token)
        seat = live.tokens.get(digest)
        if seat is None:
            seat = await self.repo.seat_of(live.id, token)
            if seat is None:
                raise NotYourGame(live.id)
            live.tokens[digest] = seat
        live.heard_from(seat)
        return seat

    # --- acting ----------------------------------------------------------------------------

    async def act(self, live: AnyLive, seat: int, seq: int | None, data: JSON) -> AnyLive:
        """Apply a person's action (seen at version ``seq``) and store it; start the computer
        seats if it is their turn. Raises `IllegalAction` (nothing changes) or `StaleVersion`."""
        async with live.lock:
            if self.games.get(live.id) is not live:
                raise StaleVersion(live.seq)
            if seq is not None and seq > live.seq:
                # The page saw a step another process wrote: this copy catches up first.
                await self._apply_missing(live)
            if seq is not None and seq != live.seq:
                raise StaleVersion(live.seq)
            action = live.adapter.action_from_json(data, live.rules)
            live.state.apply(action, seat)
            await self._store(live, action)
        self.kick(live)
        return live

    async def _store(self, live: AnyLive, action: Any) -> None:
        """Append an action the state has just applied; on a lost race forget the game."""
        try:
            data = action.to_json()
            async with self._writing:
                await self.repo.append_action(live.id, live.seq + 1, data)
        except BaseException:
            self.forget(live.id)
            raise
        live.seq += 1
        live.record_step()
        self.hub.publish(channel(live.id), live.seq, data)
        if live.is_over:
            async with self._writing:
                await self.repo.set_status(live.id, "over")

    # --- computer seats --------------------------------------------------------------------

    def kick(self, live: AnyLive) -> None:
        """Start the computer seats' task if one of them is to move and none is running."""
        if live.runner is not None and not live.runner.done():
            return
        if live.computer_to_move() is None:
            return
        task = asyncio.get_running_loop().create_task(self._run_bots(live))
        live.runner = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run_bots(self, live: AnyLive) -> None:
        try:
            while True:
                async with live.lock:
                    if self.games.get(live.id) is not live:
                        return
                    seat = live.computer_to_move()
                    if seat is None:
                        return
                    seq = live.seq
                    view = live.state.view(seat)
                    level = live.level_of(seat)
                    seed = live.bot_seed(seat)
                action = await self._think(live, seat, level, seed, view)
                async with live.lock:
                    if (
                        self.games.get(live.id) is not live
                        or live.seq != seq
                        or live.computer_to_move() != seat
                    ):
                        continue
                    try:
                        live.state.apply(action, seat)
                    except IllegalAction as err:
                        log.warning(
                            "game %s: bot at seat %s chose %r: %s", live.id, seat, action, err
                        )
                        action = live.adapter.fallback_action(live.state, seat)
                        live.state.apply(action, seat)
                    await self._store(live, action)
        except asyncio.CancelledError:
            raise
        except (Conflict, NotFound):
            return
        except Exception:
            log.exception("game %s: computer turn failed", live.id)
            self.forget(live.id)

    async def _think(self, live: AnyLive, seat: int, level: str, seed: int, view: Any) -> Any:
        budget = max(BOT_TIMEOUT, 10 * live.adapter.bot_budget)
        try:
            if live.travels:
                wire = live.adapter.view_to_wire(live.adapter.game.bot_view(view))
                args = (live.kind, level, seed, wire)
                data = await self.compute(live, workers.decide, *args, timeout=budget)
                return live.adapter.action_from_json(data, live.rules)
            bot = live.resident_bot(seat)
            return await asyncio.wait_for(asyncio.to_thread(bot.choose, view), budget)
        except (
            TimeoutError,
            WorkerLost,
            IllegalAction,
            ValueError,
            LookupError,
            AssertionError,
        ) as err:
            log.warning("game %s: seat %s failed (%r), plays a plain move", live.id, seat, err)
            live.bots.pop(seat, None)
            async with live.lock:
                return live.adapter.fallback_action(live.state, seat)

    async def settle(self, game_id: str, timeout: float = 60.0) -> AnyLive:
        """Wait until no computer seat is to move (for tests and the benchmark)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            live = await self.get(game_id)
            runner = live.runner
            if runner is None or runner.done():
                if live.computer_to_move() is None:
                    return live
                self.kick(live)
                runner = live.runner
            if loop.time() > deadline:
                raise TimeoutError(f"game {game_id} still has a computer seat to move")
            if runner is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(runner), deadline - loop.time())

    # --- hints and replays -----------------------------------------------------------------

    async def hint(self, live: AnyLive, seat: int, lang: str = DEFAULT_LANGUAGE) -> dict[str, JSON]:
        """The game's hint for ``seat`` (see `rummykit.web.play.adapter.PlayGame.hint`), with its
        reason in words for the reader (``text``) and the version it is for (``seq``). A copy
        on which ``seat`` is not on move first reads the steps it may have missed: another
        process may have passed the turn, and its news may not have come yet."""
        if live.state.to_move != seat:
            live = await self.get(live.id, fresh=True)
        async with live.lock:
            state = live.state
            if state.to_move != seat:
                raise IllegalAction("not_your_turn", seat=seat, to_move=state.to_move)
            seq = live.seq
            view = state.view(seat)
        timeout = live.adapter.bot_budget * 4 + 2 * BOT_MARGIN
        result: dict[str, JSON]
        if live.travels:
            wire = live.adapter.view_to_wire(view)
            result = await self.compute(live, workers.advise, live.kind, wire, timeout=timeout)
        else:
            result = await asyncio.wait_for(asyncio.to_thread(live.adapter.hint, view), timeout)
        result["text"] = hint_text(live.kind, result["reason"], live.reader(seat, lang))
        result["seq"] = seq
        return result

    async def replay(
        self, live: AnyLive, seat: int, lang: str = DEFAULT_LANGUAGE
    ) -> list[dict[str, JSON]]:
        """Every step of a finished game as ``seat`` saw it, its events told in ``lang``."""
        if not live.is_over:
            raise IllegalAction("game_not_over")
        if seat not in live.replay_cache:
            record = await self.repo.load_record(live.id)
            live.replay_cache[seat] = await asyncio.to_thread(_replay_frames, live, record, seat)
        return [live.told(frame, seat, lang) for frame in live.replay_cache[seat]]

    # --- live updates ----------------------------------------------------------------------

    async def follow(
        self,
        websocket: WebSocket,
        live: AnyLive,
        seat: int | None,
        seen: int,
        lang: str = DEFAULT_LANGUAGE,
    ) -> None:
        """Serve a page's WebSocket: ``{"t": "view", "v": seq, "d": view}`` for every step it
        has not seen, its events told in ``lang``, until it closes. Another process's writes
        arrive through the hub (Redis), or within its polling interval.

        The socket is one small `GameSocket` in the hub's set of the game's channel, and this
        task only waits for it to close: no queue and no task of its own."""
        await websocket.accept()
        game_id = live.id
        watcher = GameSocket(self, websocket, live, seat, seen, lang)
        name = channel(game_id)
        versions = self.versions(game_id)
        self.hub.watch(name, watcher, versions)
        try:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, NotFound):
                await watcher.send(await self.hub.version(name, versions), name)
                await drain(websocket)
        finally:
            self.hub.unwatch(name, watcher)
            watcher.closed()

    def versions(self, game_id: str) -> Callable[[], Awaitable[int]]:
        """Reads the game's newest version (the hub's poller of its channel asks it after a
        quiet interval: this process's copy catches up with another's writes)."""

        async def version() -> int:
            return (await self.get(game_id, fresh=True)).seq

        return version

    async def close(self) -> None:
        """Stop the computer seats' tasks (the server is shutting down; every action taken is
        already stored, so the games resume from the database)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()


class GameSocket(OneAtATime):
    """A page's socket on a game, as the hub keeps it (`rummykit.web.live.Watcher`): the
    version the page has seen, and the game's copy that keeps its seat's steps. ``send`` brings
    the page to the newest version, step by step (or the current view after a long absence);
    the announcements that come while it sends make it look again, so the page gets every step
    once and in order."""

    __slots__ = ("lang", "last", "live", "play", "seat", "seen")

    def __init__(
        self,
        play: PlayService,
        socket: WebSocket,
        live: AnyLive,
        seat: int | None,
        seen: int,
        lang: str,
    ) -> None:
        super().__init__(socket)
        self.play = play
        self.live = live
        self.seat = seat
        self.seen = seen
        self.lang = lang
        self.last = -1
        _watch(live, seat)

    async def send(self, version: int, channel: str = "") -> None:
        self.last = max(self.last, version)
        await self.pump()

    def _failed(self) -> None:
        log.exception("game %s: a page could not be brought up to date", self.live.id)

    async def _push(self) -> None:
        version = self.last
        # A version announced by another process (through Redis) that this process's copy
        # has not reached: the copy reads the missing steps (once for all its pages).
        live = await self.play.get(self.live.id, at_least=version)
        if live is not self.live:  # reloaded: the new copy keeps this seat's steps
            _unwatch(self.live, self.seat)
            self.live = live
            _watch(live, self.seat)
        # Under the game's lock: while a step is being stored the state is ahead of its
        # version, and a view read then would carry the wrong one.
        async with live.lock:
            messages = live.messages_since(self.seen, self.seat, self.lang)
        for seq, text in messages:
            await self.socket.send_text(f'{{"t":"view","v":{seq},"d":{text}}}')
            self.seen = seq

    def closed(self) -> None:
        _unwatch(self.live, self.seat)


def default_bot_workers() -> int:
    """Worker processes for the computer seats: ``$RUMMYKIT_BOT_WORKERS``, else one per CPU
    (at most 4); 0 keeps them in threads of the server process."""
    text = os.environ.get("RUMMYKIT_BOT_WORKERS", "")
    if text.strip().isdigit():
        return int(text)
    return max(1, min(4, os.cpu_count() or 1))


def dumps(data: JSON) -> str:
    """JSON text as the framework writes it (`starlette.responses.JSONResponse`: compact,
    UTF-8), by orjson: the views of every step, the answers and the sockets' messages are
    encoded here, which took 8% of the server's time with the standard library's encoder."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def _replay_frames(live: AnyLive, record: Record, seat: int) -> list[dict[str, JSON]]:
    game = live.adapter
    frames: list[dict[str, JSON]] = []
    seen = 0
    for step, state in enumerate(game.replay_states(record)):
        entries = game.log(state)
        data = game.client_view(state, seat)
        data.update(
            step=step,
            seat=seat,
            events=[game.client_event(e) for e in entries[seen:]],
        )
        seen = len(entries)
        frames.append(data)
    return frames


def _watch(live: AnyLive, seat: int | None) -> None:
    """A page of ``seat`` follows the game (a spectator's, seat ``None``, keeps no steps: it
    gets the public view)."""
    if seat is not None:
        live.watching[seat] += 1


def _unwatch(live: AnyLive, seat: int | None) -> None:
    if seat is None:
        return
    live.heard_from(seat)
    live.watching[seat] -= 1
    if live.watching[seat] <= 0:
        del live.watching[seat]


def service(app: Any) -> PlayService:
    """The app's play service, created on first use."""
    found = getattr(app.state, "play", None)
    if found is None:
        found = PlayService(app.state.db, app.state.hub)
        app.state.play = found
    return found
