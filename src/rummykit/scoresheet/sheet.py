"""The score sheet's state and the actions that change it.

A sheet is created from its `Settings` (a name and how the game ends: a point limit reached or
exceeded, or a fixed number of rounds) and the first players. Four
actions change it: `EnterRound` (a finished round, one entry per active player), `CorrectRound`
(the same for a past round), `Join` and `Leave`. `Sheet.apply` checks the whole action first and
either applies all of it or raises `IllegalAction` with a stable code; the sheet is then unchanged.
Storage keeps the list of actions (see `Sheet.record` and `replay`), never a computed total.

>>> sheet = Sheet(Settings("Friday", limit=300), ["Ann", "Bob", "Cleo"])
>>> sheet.apply(EnterRound.of({0: 0, 1: 35, 2: 12}, went_out=0))
>>> sheet.apply(EnterRound.of({0: 40, 1: -100, 2: 7}, went_out=1))
>>> [(s.place, s.name, s.total, s.distance) for s in sheet.standings()]
[(1, 'Bob', -65, 365), (2, 'Cleo', 19, 281), (3, 'Ann', 40, 260)]
>>> sheet.apply(Join("Dana"))  # starts at the current highest total by default
>>> sheet.players[3].start_total
40
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeAlias

from rummykit import names
from rummykit.core import JSON, IllegalAction, Record

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_ROUNDS",
    "GAME",
    "LIMIT_MAX",
    "LIMIT_MIN",
    "LIMIT_PRESETS",
    "NAME_MAX",
    "PLAYERS_MAX",
    "PLAYERS_MIN",
    "PLAYER_NAME_MAX",
    "POINTS_MAX",
    "POINTS_MIN",
    "ROUNDS_MAX",
    "ROUNDS_MIN",
    "Action",
    "Claim",
    "CorrectRound",
    "End",
    "EnterHand",
    "EnterRound",
    "Entry",
    "Game",
    "Join",
    "Leave",
    "Player",
    "Round",
    "Scoring",
    "Settings",
    "Sheet",
    "Standing",
    "Start",
    "action_from_json",
    "clean_name",
    "replay",
]


GAME = "scoresheet"
"""The game kind of a sheet's `Record`."""

LIMIT_PRESETS: tuple[int, ...] = (300, 500, 1000)
"""The usual limits: a short evening, the usual game, a long game."""
DEFAULT_LIMIT = 500
LIMIT_MIN = 10
LIMIT_MAX = 100_000
POINTS_MIN = -999
POINTS_MAX = 999
NAME_MAX = 60
PLAYER_NAME_MAX = 30
PLAYERS_MIN = 2
PLAYERS_MAX = 20
ROUNDS_MIN = 1
ROUNDS_MAX = 100
DEFAULT_ROUNDS = 10


class Game(StrEnum):
    """The game the sheet keeps the score of."""

    ROMME = "romme"
    TILES = "tiles"
    """Tile rummy: the same sheet, with the tile leaflet's scoring or the classic one."""


class Scoring(StrEnum):
    """How a round's entries become points."""

    PENALTY = "penalty"
    """Each player's entry is added (Rommé, and the tile leaflet): the lowest total wins."""
    PLUS_MINUS = "plus_minus"
    """Tile rummy's classic scoring: each player enters the rack left (0 or more); the others
    score it as a minus and the winner of the round (marked as gone out) scores their sum as a
    plus. The highest total wins; the game is a number of rounds."""


class End(StrEnum):
    """How the game ends, chosen when the sheet is created."""

    REACH = "reach"
    """A player who reaches the limit has lost (the German club rule)."""
    EXCEED = "exceed"
    """A player who goes over the limit has lost; reaching it exactly plays on."""
    ROUNDS = "rounds"
    """After a fixed number of rounds; nobody loses by points."""


class Start(StrEnum):
    """The starting total a joining player chooses."""

    ZERO = "zero"
    HIGHEST = "highest"


def clean_name(text: str) -> str:
    """A name as `rummykit.names.normalise` writes it (NFKC, runs of white space collapsed to
    one space and none at either end; ``bad_name`` for invisible or control characters).

    >>> clean_name("  Anna   Maria ")
    'Anna Maria'
    """
    return names.normalise(text)


def _check_int(value: object, code: str, low: int, high: int, **facts: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(code, value=value, minimum=low, maximum=high, **facts)
    if not low <= value <= high:
        raise IllegalAction(code, value=value, minimum=low, maximum=high, **facts)
    return value


def check_players(players: Sequence[object], most: int = PLAYERS_MAX) -> list[str]:
    """The first players of a shared record, named as `clean_name` writes them: at least
    `PLAYERS_MIN`, at most ``most``, no two alike."""
    if len(players) > most:
        raise IllegalAction("too_many_players", maximum=most)
    cleaned = [_check_player_name(name) for name in players]
    if len(cleaned) < PLAYERS_MIN:
        raise IllegalAction("too_few_players", minimum=PLAYERS_MIN)
    seen: set[str] = set()
    for name in cleaned:
        if names.key(name) in seen:
            raise IllegalAction("duplicate_name", name=name)
        seen.add(names.key(name))
    return cleaned


def _check_player_name(name: object) -> str:
    if not isinstance(name, str) or not clean_name(name):
        raise IllegalAction("empty_player_name")
    cleaned = clean_name(name)
    if len(cleaned) > PLAYER_NAME_MAX:
        raise IllegalAction("player_name_too_long", name=cleaned, maximum=PLAYER_NAME_MAX)
    return cleaned


@dataclass(frozen=True)
class Settings:
    """What is chosen when a sheet is created: its name and how the game ends.

    With a point limit (`End.REACH`, the default, or `End.EXCEED`) ``rounds`` is None; with a
    fixed number of rounds (`End.ROUNDS`) ``limit`` is None: the one that does not apply is
    dropped, so a form may send both.

    >>> Settings("  Friday  night ").name
    'Friday night'
    >>> s = Settings("x", end=End.ROUNDS, rounds=6)
    >>> s.limit, s.end, s.rounds
    (None, <End.ROUNDS: 'rounds'>, 6)
    >>> Settings("x", limit=5)
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_limit: value=5, minimum=10, maximum=100000
    """

    name: str
    limit: int | None = DEFAULT_LIMIT
    end: End = End.REACH
    rounds: int | None = None
    own_hands: bool = False
    """Whether each player enters their own hand on their own phone (`EnterHand`)."""
    game: Game = Game.ROMME
    scoring: Scoring = Scoring.PENALTY

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not clean_name(self.name):
            raise IllegalAction("empty_sheet_name")
        name = clean_name(self.name)
        if len(name) > NAME_MAX:
            raise IllegalAction("sheet_name_too_long", maximum=NAME_MAX)
        object.__setattr__(self, "name", name)
        if not isinstance(self.end, End) or not isinstance(self.own_hands, bool):
            raise IllegalAction("bad_settings")
        if not isinstance(self.game, Game) or not isinstance(self.scoring, Scoring):
            raise IllegalAction("bad_settings")
        if self.scoring is Scoring.PLUS_MINUS and self.game is not Game.TILES:
            raise IllegalAction("bad_settings")
        if self.scoring is Scoring.PLUS_MINUS and self.end is not End.ROUNDS:
            raise IllegalAction("plus_minus_needs_rounds")
        if self.end is End.ROUNDS:
            _check_int(self.rounds, "bad_rounds", ROUNDS_MIN, ROUNDS_MAX)
            object.__setattr__(self, "limit", None)
        else:
            _check_int(self.limit, "bad_limit", LIMIT_MIN, LIMIT_MAX)
            object.__setattr__(self, "rounds", None)

    def to_json(self) -> dict[str, JSON]:
        """The settings as stored; a sheet of the first version (a limit one reaches) keeps
        its short form."""
        data: dict[str, JSON] = {"name": self.name, "limit": self.limit}
        if self.end is not End.REACH:
            data["end"] = self.end.value
        if self.rounds is not None:
            data["rounds"] = self.rounds
        if self.own_hands:
            data["own"] = True
        if self.game is not Game.ROMME:
            data["game"] = self.game.value
        if self.scoring is not Scoring.PENALTY:
            data["scoring"] = self.scoring.value
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Settings:
        if not isinstance(data, dict) or "name" not in data or "limit" not in data:
            raise IllegalAction("bad_settings")
        end = data.get("end", End.REACH.value)
        game = data.get("game", Game.ROMME.value)
        scoring = data.get("scoring", Scoring.PENALTY.value)
        if (
            end not in {e.value for e in End}
            or game not in {g.value for g in Game}
            or scoring not in {s.value for s in Scoring}
        ):
            raise IllegalAction("bad_settings")
        own = data.get("own", False)
        return cls(
            data["name"],
            data["limit"],
            End(end),
            data.get("rounds"),
            own,
            Game(game),
            Scoring(scoring),
        )

    @property
    def high_wins(self) -> bool:
        """Whether the highest total wins (the classic tile scoring) instead of the lowest."""
        return self.scoring is Scoring.PLUS_MINUS

    def scores(self, entries: Entries) -> dict[int, int]:
        """The points each player of a round scores from the entries.

        >>> tiles = Settings("x", None, End.ROUNDS, 3, game=Game.TILES, scoring=Scoring.PLUS_MINUS)
        >>> tiles.scores(_entries({0: Entry(0, True), 1: Entry(12), 2: Entry(30)}))
        {0: 42, 1: -12, 2: -30}
        """
        if self.scoring is Scoring.PENALTY:
            return {p: e.points for p, e in entries}
        racks = sum(e.points for _, e in entries if not e.went_out)
        return {p: racks if e.went_out else -e.points for p, e in entries}

    def has_lost(self, total: int) -> bool:
        """Whether a player with this total has lost by points (never with a round count).

        >>> Settings("x", 500).has_lost(500), Settings("x", 500, End.EXCEED).has_lost(500)
        (True, False)
        """
        if self.limit is None:
            return False
        return total >= self.limit if self.end is End.REACH else total > self.limit


@dataclass(frozen=True)
class Entry:
    """One player's result of one round: the hand sum, and whether the player went out.

    The player who went out scores 0, or a credit (a negative number) for Hand-Rommé.
    """

    points: int
    went_out: bool = False


Entries: TypeAlias = tuple[tuple[int, Entry], ...]


def _entries(data: Mapping[int, Entry | int]) -> Entries:
    pairs = ((p, e if isinstance(e, Entry) else Entry(e)) for p, e in data.items())
    return tuple(sorted(pairs, key=lambda pair: pair[0]))


def _entries_to_json(entries: Entries) -> list[JSON]:
    out: list[JSON] = []
    for player, entry in entries:
        item: dict[str, JSON] = {"p": player, "v": entry.points}
        if entry.went_out:
            item["out"] = True
        out.append(item)
    return out


def _entries_from_json(data: JSON) -> Entries:
    if not isinstance(data, list):
        raise IllegalAction("bad_action", reason="entries")
    pairs: list[tuple[int, Entry]] = []
    for item in data:
        if not isinstance(item, dict):
            raise IllegalAction("bad_action", reason="entry")
        player, points, out = item.get("p"), item.get("v"), item.get("out", False)
        if not isinstance(player, int) or isinstance(player, bool):
            raise IllegalAction("bad_action", reason="player")
        if not isinstance(points, int) or isinstance(points, bool):
            raise IllegalAction("bad_action", reason="points")
        if not isinstance(out, bool):
            raise IllegalAction("bad_action", reason="out")
        pairs.append((player, Entry(points, out)))
    if len({p for p, _ in pairs}) != len(pairs):
        raise IllegalAction("duplicate_entry")
    return tuple(sorted(pairs, key=lambda pair: pair[0]))


@dataclass(frozen=True)
class EnterRound:
    """Close the next round with one entry per active player.

    >>> EnterRound.of({0: 12, 1: 0}, went_out=1).to_json()
    {'t': 'round', 'entries': [{'p': 0, 'v': 12}, {'p': 1, 'v': 0, 'out': True}]}
    """

    entries: Entries

    @classmethod
    def of(cls, points: Mapping[int, int], went_out: int | None = None) -> EnterRound:
        """Build the action from ``{player: points}`` and the player who went out, if any."""
        return cls(_entries({p: Entry(v, p == went_out) for p, v in points.items()}))

    def to_json(self) -> dict[str, JSON]:
        return {"t": "round", "entries": _entries_to_json(self.entries)}


@dataclass(frozen=True)
class CorrectRound:
    """Replace the entries of a past round (numbered from 1) by corrected ones."""

    round: int
    entries: Entries

    @classmethod
    def of(
        cls, round_number: int, points: Mapping[int, int], went_out: int | None = None
    ) -> CorrectRound:
        return cls(round_number, EnterRound.of(points, went_out).entries)

    def to_json(self) -> dict[str, JSON]:
        return {"t": "correct", "round": self.round, "entries": _entries_to_json(self.entries)}


@dataclass(frozen=True)
class Join:
    """A player joins before the next round, starting at 0 or at the current highest total."""

    name: str
    start: Start = Start.HIGHEST

    def to_json(self) -> dict[str, JSON]:
        return {"t": "join", "name": self.name, "start": self.start.value}


@dataclass(frozen=True)
class Leave:
    """A player leaves: the total is kept, the place is behind everyone who plays on."""

    player: int

    def to_json(self) -> dict[str, JSON]:
        return {"t": "leave", "player": self.player}


@dataclass(frozen=True)
class Claim:
    """A phone claims a player's name, once, for entering that player's own hands.

    ``key`` is the SHA-256 (hex) of the secret the phone keeps; the secret itself is never
    stored, and the sheet never shows the key.
    """

    player: int
    key: str

    def to_json(self) -> dict[str, JSON]:
        return {"t": "claim", "player": self.player, "key": self.key}


@dataclass(frozen=True)
class EnterHand:
    """One player's hand in the open round, entered on a phone (own-hand sheets).

    ``round`` is the round the entry was made for, so an entry kept on a phone while another
    phone closed that round is refused instead of landing in the next one. ``by`` is the
    player whose phone entered it (the player themself, or someone correcting the entry), or
    None when it came from a phone that claimed nobody. An entry may be replaced until the round
    is complete; the round closes by itself once every active player has entered.

    >>> EnterHand(1, 12, round=1, by=1).to_json()
    {'t': 'hand', 'round': 1, 'p': 1, 'v': 12, 'by': 1}
    """

    player: int
    points: int
    went_out: bool = False
    round: int = 1
    by: int | None = None

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"t": "hand", "round": self.round, "p": self.player}
        data["v"] = self.points
        if self.went_out:
            data["out"] = True
        data["by"] = self.by
        return data


Action: TypeAlias = EnterRound | CorrectRound | Join | Leave | Claim | EnterHand


def action_from_json(data: JSON) -> Action:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    >>> action_from_json({"t": "leave", "player": 2})
    Leave(player=2)
    >>> action_from_json({"t": "join", "name": "Eve", "start": "zero"})
    Join(name='Eve', start=<Start.ZERO: 'zero'>)
    """
    if not isinstance(data, dict):
        raise IllegalAction("bad_action", reason="not an object")
    kind = data.get("t")
    if kind == "round":
        return EnterRound(_entries_from_json(data.get("entries")))
    if kind == "correct":
        number = data.get("round")
        if not isinstance(number, int) or isinstance(number, bool):
            raise IllegalAction("bad_action", reason="round")
        return CorrectRound(number, _entries_from_json(data.get("entries")))
    if kind == "join":
        name, start = data.get("name"), data.get("start", Start.HIGHEST.value)
        if not isinstance(name, str) or not isinstance(start, str):
            raise IllegalAction("bad_action", reason="join")
        if start not in {s.value for s in Start}:
            raise IllegalAction("bad_action", reason="join")
        return Join(name, Start(start))
    if kind == "leave":
        return Leave(_int_field(data, "player"))
    if kind == "claim":
        key = data.get("key")
        if not isinstance(key, str):
            raise IllegalAction("bad_action", reason="key")
        return Claim(_int_field(data, "player"), key)
    if kind == "hand":
        out, by = data.get("out", False), data.get("by")
        if not isinstance(out, bool):
            raise IllegalAction("bad_action", reason="out")
        if by is not None:
            by = _int_field(data, "by")
        points = _int_field(data, "v")
        return EnterHand(_int_field(data, "p"), points, out, _int_field(data, "round"), by)
    raise IllegalAction("bad_action", reason="type")


def _int_field(data: dict[str, JSON], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction("bad_action", reason=name)
    return value


@dataclass(frozen=True)
class Player:
    """A player of the sheet. ``first_round`` is the first round played (1 for the first
    players); ``last_round`` is set when the player leaves: the last round played (0 if none)."""

    id: int
    name: str
    start_total: int = 0
    first_round: int = 1
    last_round: int | None = None

    @property
    def has_left(self) -> bool:
        return self.last_round is not None


@dataclass(frozen=True)
class Round:
    """A closed round: its number, the entries of the players who took part, corrections made."""

    number: int
    entries: Entries
    corrections: int = 0
    scores: tuple[tuple[int, int], ...] | None = None
    """What each player scored, when it differs from the entries (the classic tile scoring)."""

    @property
    def went_out(self) -> int | None:
        """The player who went out, or None when nobody did (the stock ran out)."""
        return next((p for p, e in self.entries if e.went_out), None)

    def points(self, player: int) -> int | None:
        """The player's points in this round, or None when the player did not take part."""
        if self.scores is not None:
            return next((v for p, v in self.scores if p == player), None)
        return next((e.points for p, e in self.entries if p == player), None)


@dataclass(frozen=True)
class Standing:
    """A line of the ranking: shared places for equal totals, leavers behind the others."""

    place: int
    player: int
    name: str
    total: int
    distance: int | None
    """Points left before the limit (None when the game is a number of rounds)."""
    has_left: bool
    has_lost: bool
    has_won: bool = False
    """Whether the game is over and this player has the lowest total of those who played on."""


class Sheet:
    """A score sheet: players, closed rounds and the totals they make.

    Points are bad: a player who reaches (or exceeds, as chosen) the limit has lost and the game
    is over, or it is over after the chosen number of rounds; the fewest points win, and equal
    lowest totals share the victory.
    """

    def __init__(self, settings: Settings, players: Sequence[str]) -> None:
        cleaned = check_players(players)
        self.settings = settings
        self.players: list[Player] = [Player(i, name) for i, name in enumerate(cleaned)]
        self._first_names = tuple(cleaned)
        self.rounds: list[Round] = []
        self._actions: list[Action] = []
        self.pending: dict[int, Entry] = {}
        """Own-hand sheets: the entries of the open round so far (player -> entry)."""
        self.pending_by: dict[int, int | None] = {}
        """Who entered each pending entry (see `EnterHand.by`)."""
        self._claims: dict[int, str] = {}
        # Kept up to date by `apply`, so that a long evening stays cheap to replay.
        self._totals: dict[int, int] = {p.id: 0 for p in self.players}

    # -- reading -------------------------------------------------------------------------

    @property
    def limit(self) -> int | None:
        """The point limit, or None when the game is a number of rounds."""
        return self.settings.limit

    @property
    def end(self) -> End:
        return self.settings.end

    @property
    def rounds_left(self) -> int | None:
        """Rounds still to play when the game is a number of rounds, else None."""
        if self.settings.rounds is None:
            return None
        return max(0, self.settings.rounds - len(self.rounds))

    @property
    def active_players(self) -> list[Player]:
        """The players who play the next round, in joining order."""
        return [p for p in self.players if not p.has_left]

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @property
    def waiting_for(self) -> list[int]:
        """The active players whose hand of the open round is not entered yet."""
        return [p.id for p in self.active_players if p.id not in self.pending]

    @property
    def claimed(self) -> list[int]:
        """The players whose name a phone has claimed."""
        return sorted(self._claims)

    def claim_key(self, player: int) -> str | None:
        """The key (a hash of the phone's secret) that claims ``player``, or None."""
        return self._claims.get(player)

    def total(self, player: int) -> int:
        """Starting total plus every round's points."""
        return self._totals[player]

    def totals(self) -> dict[int, int]:
        return dict(self._totals)

    def running_totals(self) -> list[dict[int, int]]:
        """The totals after each round, of the players who had joined by then."""
        totals: dict[int, int] = {}
        out: list[dict[int, int]] = []
        for rnd in self.rounds:
            for player in self.players:
                if player.first_round == rnd.number:
                    totals[player.id] = player.start_total
            for player_id, _ in rnd.entries:
                totals[player_id] = totals.get(player_id, 0) + (rnd.points(player_id) or 0)
            out.append(dict(totals))
        return out

    @property
    def losers(self) -> list[int]:
        """The players whose total has reached (or exceeded, as chosen) the limit."""
        return [p.id for p in self.players if self.settings.has_lost(self.total(p.id))]

    @property
    def is_over(self) -> bool:
        """Whether the game is over: someone has lost by points, or every round is played."""
        if self.settings.end is End.ROUNDS:
            return self.rounds_left == 0
        return bool(self.losers)

    @property
    def winners(self) -> list[int]:
        """Once the game is over, the players who played on with the lowest total (several
        share the victory); before that, nobody.

        >>> s = Sheet(Settings("x", end=End.ROUNDS, rounds=1), ["A", "B", "C"])
        >>> s.apply(EnterRound.of({0: 10, 1: 0, 2: 0}, went_out=1))
        >>> s.winners
        [1, 2]
        """
        if not self.is_over:
            return []
        playing = self.active_players
        pick = max if self.settings.high_wins else min
        best = pick(self.total(p.id) for p in playing)
        return [p.id for p in playing if self.total(p.id) == best]

    def standings(self) -> list[Standing]:
        """The ranking: fewest points first, equal totals share the place, and players who
        left rank behind everyone who played on.

        >>> s = Sheet(Settings("x"), ["A", "B", "C", "D"])
        >>> s.apply(EnterRound.of({0: 10, 1: 0, 2: 10, 3: 4}, went_out=1))
        >>> s.apply(Leave(3))
        >>> [(x.place, x.name) for x in s.standings()]
        [(1, 'B'), (2, 'A'), (2, 'C'), (4, 'D')]
        """
        totals = self.totals()
        winners = set(self.winners)
        limit = self.limit
        out: list[Standing] = []
        for group in (
            [p for p in self.players if not p.has_left],
            [p for p in self.players if p.has_left],
        ):
            sign = -1 if self.settings.high_wins else 1
            ordered = sorted(group, key=lambda p: (sign * totals[p.id], p.id))
            offset = len(out)
            place = 0
            for index, player in enumerate(ordered):
                if index == 0 or totals[player.id] != totals[ordered[index - 1].id]:
                    place = offset + index + 1
                total = totals[player.id]
                out.append(
                    Standing(
                        place=place,
                        player=player.id,
                        name=player.name,
                        total=total,
                        distance=None if limit is None else limit - total,
                        has_left=player.has_left,
                        has_lost=self.settings.has_lost(total),
                        has_won=player.id in winners,
                    )
                )
        return out

    # -- changing ------------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise `IllegalAction` if `apply` would refuse the action; change nothing."""
        check = _CHECKS.get(type(action))
        if check is None:
            raise IllegalAction("bad_action", reason="type")
        check(self, action)

    def can_apply(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> None:
        """Check the whole action, then apply all of it, or raise `IllegalAction`."""
        self.check(action)
        if isinstance(action, EnterRound):
            self._close_round(action.entries)
        elif isinstance(action, Claim):
            self._claims[action.player] = action.key
        elif isinstance(action, EnterHand):
            self.pending[action.player] = Entry(action.points, action.went_out)
            self.pending_by[action.player] = action.by
            if not self.waiting_for:
                self._close_round(_entries(self.pending))
        elif isinstance(action, CorrectRound):
            old = self.rounds[action.round - 1]
            new = self._round(old.number, action.entries, old.corrections + 1)
            self.rounds[action.round - 1] = new
            for player_id, _ in old.entries:
                self._totals[player_id] += (new.points(player_id) or 0) - (
                    old.points(player_id) or 0
                )
        elif isinstance(action, Join):
            joining = Player(
                id=len(self.players),
                name=clean_name(action.name),
                start_total=self._start_total(action.start),
                first_round=self.next_round,
            )
            self.players.append(joining)
            self._totals[joining.id] = joining.start_total
        else:
            leaving = self.players[action.player]
            self.players[action.player] = replace(leaving, last_round=len(self.rounds))
            self.pending.pop(action.player, None)
            self.pending_by.pop(action.player, None)
            if self.pending and not self.waiting_for:
                self._close_round(_entries(self.pending))
        self._actions.append(action)

    def _round(self, number: int, entries: Entries, corrections: int = 0) -> Round:
        if self.settings.scoring is Scoring.PENALTY:
            return Round(number, entries, corrections)
        scores = tuple(sorted(self.settings.scores(entries).items()))
        return Round(number, entries, corrections, scores)

    def _close_round(self, entries: Entries) -> None:
        closed = self._round(self.next_round, entries)
        self.rounds.append(closed)
        for player_id, _ in entries:
            self._totals[player_id] += closed.points(player_id) or 0
        self.pending = {}
        self.pending_by = {}

    def _start_total(self, start: Start) -> int:
        if start is Start.ZERO:
            return 0
        return max(self.total(p.id) for p in self.active_players)

    def _check_not_over(self) -> None:
        if self.is_over:
            raise IllegalAction("game_over")

    def _check_entries(self, entries: Entries, expected: Iterable[int]) -> None:
        wanted = set(expected)
        given = [p for p, _ in entries]
        if len(set(given)) != len(given):
            raise IllegalAction("duplicate_entry")
        for player in given:
            if not 0 <= player < len(self.players):
                raise IllegalAction("unknown_player", player=player)
            if player not in wanted:
                raise IllegalAction("player_not_in_round", player=self.players[player].name)
        missing = [self.players[p].name for p in sorted(wanted - set(given))]
        if missing:
            raise IllegalAction("missing_entries", players=missing)
        out = [p for p, e in entries if e.went_out]
        if len(out) > 1:
            raise IllegalAction("several_went_out", players=[self.players[p].name for p in out])
        if self.settings.scoring is Scoring.PLUS_MINUS and not out:
            raise IllegalAction("missing_winner")
        low = 0 if self.settings.scoring is Scoring.PLUS_MINUS else POINTS_MIN
        for player, entry in entries:
            name = self.players[player].name
            _check_int(entry.points, "points_out_of_bounds", low, POINTS_MAX, player=name)
            if entry.went_out and entry.points > 0:
                raise IllegalAction("went_out_with_points", player=name, value=entry.points)

    def _check_round(self, action: EnterRound) -> None:
        self._check_not_over()
        self._check_entries(action.entries, (p.id for p in self.active_players))

    def _check_correction(self, action: CorrectRound) -> None:
        number = action.round
        if isinstance(number, bool) or not 1 <= number <= len(self.rounds):
            raise IllegalAction("unknown_round", round=number)
        old = self.rounds[number - 1]
        self._check_entries(action.entries, (p for p, _ in old.entries))
        # A correction may not make someone lose by points before the last round: the table
        # would have stopped there. Check on a trial copy of the rounds.
        saved = self.rounds
        self.rounds = [*saved[: number - 1], self._round(number, action.entries), *saved[number:]]
        try:
            for rnd, totals in zip(self.rounds[:-1], self.running_totals()[:-1], strict=True):
                reached = sorted(p for p, total in totals.items() if self.settings.has_lost(total))
                if reached:
                    raise IllegalAction(
                        "correction_ends_game_early",
                        round=rnd.number,
                        players=[self.players[p].name for p in reached],
                    )
        finally:
            self.rounds = saved

    def _check_join(self, action: Join) -> None:
        self._check_not_over()
        name = _check_player_name(action.name)
        if any(names.key(p.name) == names.key(name) for p in self.players):
            raise IllegalAction("duplicate_name", name=name)
        if len(self.active_players) >= PLAYERS_MAX:
            raise IllegalAction("too_many_players", maximum=PLAYERS_MAX)
        if not isinstance(action.start, Start):
            raise IllegalAction("bad_action", reason="start")

    def _check_own_hands(self) -> None:
        if not self.settings.own_hands:
            raise IllegalAction("not_own_hands")

    def _check_active(self, player: object) -> int:
        if not isinstance(player, int) or isinstance(player, bool):
            raise IllegalAction("unknown_player", player=player)
        if not 0 <= player < len(self.players):
            raise IllegalAction("unknown_player", player=player)
        if self.players[player].has_left:
            raise IllegalAction("player_already_left", player=self.players[player].name)
        return player

    def _check_claim(self, action: Claim) -> None:
        self._check_own_hands()
        player = self._check_active(action.player)
        if player in self._claims:
            raise IllegalAction("already_claimed", player=self.players[player].name)
        key = action.key
        if not isinstance(key, str) or len(key) != 64 or key.strip("0123456789abcdef"):
            raise IllegalAction("bad_action", reason="key")

    def _check_hand(self, action: EnterHand) -> None:
        self._check_own_hands()
        self._check_not_over()
        player = self._check_active(action.player)
        name = self.players[player].name
        if action.round != self.next_round:
            raise IllegalAction("round_closed", round=action.round)
        by = action.by
        if by is not None and (isinstance(by, bool) or by not in self._claims):
            raise IllegalAction("unknown_player", player=by)
        plus_minus = self.settings.scoring is Scoring.PLUS_MINUS
        low = 0 if plus_minus else POINTS_MIN
        _check_int(action.points, "points_out_of_bounds", low, POINTS_MAX, player=name)
        if not isinstance(action.went_out, bool):
            raise IllegalAction("bad_action", reason="out")
        if action.went_out and action.points > 0:
            raise IllegalAction("went_out_with_points", player=name, value=action.points)
        others = [p for p, e in self.pending.items() if e.went_out and p != player]
        if action.went_out and others:
            both = [self.players[p].name for p in [*others, player]]
            raise IllegalAction("several_went_out", players=both)
        completes = self.waiting_for == [player]
        if plus_minus and completes and not (action.went_out or others):
            raise IllegalAction("missing_winner")

    def _check_leave(self, action: Leave) -> None:
        self._check_not_over()
        player = action.player
        if isinstance(player, bool) or not 0 <= player < len(self.players):
            raise IllegalAction("unknown_player", player=player)
        if self.players[player].has_left:
            raise IllegalAction("player_already_left", player=self.players[player].name)
        if len(self.active_players) <= PLAYERS_MIN:
            raise IllegalAction("too_few_players", minimum=PLAYERS_MIN)

    # -- records -------------------------------------------------------------------------

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    def record(self) -> Record:
        """The record that rebuilds this sheet: settings, the first players, every action."""
        return Record(
            game=GAME,
            rules=self.settings.to_json(),
            seed=0,
            seats=self._first_names,
            actions=tuple(a.to_json() for a in self._actions),
        )

    def to_json(self) -> dict[str, JSON]:
        """Everything a page or a client shows: settings, players, rounds, ranking."""
        return {
            "settings": self.settings.to_json(),
            "players": [
                {
                    "id": p.id,
                    "name": p.name,
                    "start_total": p.start_total,
                    "first_round": p.first_round,
                    "last_round": p.last_round,
                    "total": self.total(p.id),
                }
                for p in self.players
            ],
            "rounds": [
                {
                    "number": r.number,
                    "entries": _entries_to_json(r.entries),
                    "corrections": r.corrections,
                    **({} if r.scores is None else {"scores": [v for _, v in r.scores]}),
                }
                for r in self.rounds
            ],
            "standings": [
                {
                    "place": s.place,
                    "player": s.player,
                    "name": s.name,
                    "total": s.total,
                    "distance": s.distance,
                    "left": s.has_left,
                    "lost": s.has_lost,
                    "won": s.has_won,
                }
                for s in self.standings()
            ],
            "over": self.is_over,
            "winners": list(self.winners),
            "pending": _entries_to_json(_entries(self.pending)),
            "waiting": self.waiting_for,
            "claimed": self.claimed,
        }


_CHECKS: dict[type, Callable[[Sheet, Any], None]] = {
    EnterRound: Sheet._check_round,
    CorrectRound: Sheet._check_correction,
    Join: Sheet._check_join,
    Leave: Sheet._check_leave,
    Claim: Sheet._check_claim,
    EnterHand: Sheet._check_hand,
}
"""How `Sheet.check` checks each kind of action."""


def with_names_salvaged(record: Record) -> Record:
    """A stored record whose names all follow today's name rule (`rummykit.names`).

    A sheet stored before that rule may hold names it refuses (an invisible character, a
    control character): such a name loses them (`rummykit.names.salvage`), and one left
    empty, or alike another name of the sheet after that, is numbered (``Bob 2``). The sheet's
    own name is cleaned the same way. Names that follow the rule are kept as they are, so a
    record that needs nothing comes back unchanged.
    """
    joins = [
        i
        for i, data in enumerate(record.actions)
        if isinstance(data, dict) and data.get("t") == "join" and isinstance(data.get("name"), str)
    ]
    players = [*record.seats, *(_join_name(record.actions[i]) for i in joins)]
    name = record.rules.get("name")
    if all(names.follows(n) for n in players) and (
        not isinstance(name, str) or names.follows(name)
    ):
        return record
    fixed = _salvaged_players(players)
    actions = list(record.actions)
    for i, new in zip(joins, fixed[len(record.seats) :], strict=True):
        actions[i] = {**_join(actions[i]), "name": new}
    rules = dict(record.rules)
    if isinstance(name, str) and not names.follows(name):
        rules["name"] = names.salvage(name)[:NAME_MAX].strip() or "?"
    return replace(
        record, rules=rules, seats=tuple(fixed[: len(record.seats)]), actions=tuple(actions)
    )


def _join(data: JSON) -> dict[str, JSON]:
    assert isinstance(data, dict)
    return data


def _join_name(data: JSON) -> str:
    return str(_join(data)["name"])


def _salvaged_players(players: Sequence[str]) -> list[str]:
    taken = {names.key(n) for n in players if names.follows(n)}
    out = []
    for name in players:
        if names.follows(name):
            out.append(name)
            continue
        base = names.salvage(name)[:PLAYER_NAME_MAX].strip() or "?"
        candidate, number = base, 2
        while names.key(candidate) in taken:
            suffix = f" {number}"
            candidate = base[: PLAYER_NAME_MAX - len(suffix)].rstrip() + suffix
            number += 1
        taken.add(names.key(candidate))
        out.append(candidate)
    return out


def replay(record: Record) -> Sheet:
    """Rebuild a sheet from its record, checking every action again (its names salvaged
    first: `with_names_salvaged`)."""
    if record.game != GAME:
        raise IllegalAction("bad_record", reason="game")
    record = with_names_salvaged(record)
    sheet = Sheet(Settings.from_json(record.rules), list(record.seats))
    for data in record.actions:
        sheet.apply(action_from_json(data))
    return sheet
