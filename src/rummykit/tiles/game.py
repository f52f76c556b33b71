"""A game of tile rummy: the state that applies the actions (`rummykit.tiles.actions`), views,
records and replay.

>>> state = State.from_position(
...     racks=["r10 r11 r12 b3", "k1 k2 k3 y9"], table="", to_move=0, seed=1
... )
>>> state.apply(Play.parse("play r10 r11 r12"))
>>> state.view(1).log[-1]["value"], state.view(1).rack_sizes, state.to_move
(33, (1, 4), 1)
>>> state.apply(Play.parse("play r10 r11 r12 | k1 k2 k3"))
Traceback (most recent call last):
...
rummykit.core.IllegalAction: first_meld_below_minimum: value=6, minimum=30
>>> state.apply(Draw())
>>> state.view(0).log[-1]
mappingproxy({'code': 'draw', 'seat': 1, 'pool': 97})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rummykit.core import JSON, Event, GameState, IllegalAction, freeze
from rummykit.core.codec import Codec, Encoded
from rummykit.tiles.actions import (
    CODEC,
    Action,
    Draw,
    NextRound,
    Play,
    action_from_json,
)
from rummykit.tiles.model import TableSet, parse_table, read_set, table_tiles
from rummykit.tiles.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, Tile, format_tiles, parse_tiles
from rummykit.tiles.turn import TurnCheck, check_turn, describe_rework
from rummykit.tiles.view import Phase, View


@dataclass(frozen=True)
class Start(Encoded):
    """A first deal set by hand that the game's record keeps (a lesson's friendly deal): the
    racks, the next tiles of the pool in the order they will be drawn (the rest lies below
    them, shuffled from the seed) and the seat that plays first. Its JSON form is the game's,
    like its actions' (a bad one is ``bad_record``).

    >>> start = Start.from_json({"racks": [["r1", "r2"], ["b5"]], "pool": ["k7"], "to_move": 1})
    >>> Start.from_json(start.to_json()) == start, start.pool[0].code
    (True, 'k7')
    """

    racks: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...] = ()
    to_move: int = 0

    codec: ClassVar[Codec] = CODEC
    json_error: ClassVar[str] = "bad_record"


class State(GameState[Rules, Action, View]):
    """A game of tile rummy between ``players`` seats (2–4), shuffled from ``seed``.

    Each round begins with the choice of the starter — every player draws a tile from the
    shuffled pool, the lowest number starts, a player who draws a joker draws again, players
    tied for the lowest draw again among themselves, and the tiles go back and the pool is
    shuffled — then each player is dealt a rack. The starter is drawn before the racks are dealt
    (as in the usual Rummikub rules): the tiles go back either way, and this way the pool is
    always full enough to settle it. Every round draws its starter afresh. Play goes clockwise,
    seat 0, 1, 2…

    Public attributes are read-only by convention; only `apply` changes them.
    """

    game: ClassVar[str] = "tiles"
    start_type = Start
    codec = CODEC
    start: Start | None = None
    """The first deal, when it was set by hand and the record keeps it (see `dealt`)."""

    def __init__(self, rules: Rules | None = None, players: int = 2, seed: int = 0) -> None:
        rules = rules or Rules()
        if not isinstance(rules, Rules):
            raise IllegalAction("bad_rules", field=None, value=None, expected="a Rules value")
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise IllegalAction(
                "bad_players", players=players, expected=f"{MIN_PLAYERS}..{MAX_PLAYERS}"
            )
        total = len(rules.pool())
        if players * rules.rack_for(players) > total:
            raise IllegalAction(
                "bad_rules",
                field="rack_size",
                value=rules.rack_for(players),
                expected=f"at most {total // players} with {players} players",
            )
        self._setup(rules, players, seed)
        self.round = 0
        self.phase: Phase = "play"
        self.turn = 0
        self.starter = 0
        self.racks: list[list[Tile]] = [[] for _ in range(players)]
        self.table: list[TableSet] = []
        self.pool: list[Tile] = []
        """The face-down tiles; the next tile drawn is the last one."""
        self.opened = [False] * players
        self.passes = 0
        """Passes in a row with the pool empty; the round ends when every player has passed."""
        self.last_drawn: list[Tile | None] = [None] * players
        self.scores = [0] * players
        self.round_scores: list[list[int]] = []
        self.winners: list[int] = []
        self.log: list[Event] = []
        self._start_round()

    # --- a round begins --------------------------------------------------------------------

    def _event(self, code: str, **params: JSON) -> None:
        self.log.append(freeze({"code": code, **params}))

    def _start_round(self) -> None:
        self.round += 1
        self._event("round_start", round=self.round)
        pool = self.rules.pool()
        self._rng.shuffle(pool)
        self.starter = self._choose_starter(pool)
        size = self.rules.rack_for(self.players)
        racks: list[list[Tile]] = [[] for _ in range(self.players)]
        for _ in range(size):
            for k in range(self.players):
                racks[(self.starter + k) % self.players].append(pool.pop())
        self._begin(racks, [], pool, self.starter)

    def _begin(
        self, racks: list[list[Tile]], table: list[TableSet], pool: list[Tile], to_move: int
    ) -> None:
        self.racks = racks
        self.table = table
        self.pool = pool
        self.opened = [False] * self.players
        self.passes = 0
        self.last_drawn = [None] * self.players
        self.turn = to_move
        self.phase = "play"
        self._event(
            "deal",
            round=self.round,
            rack_sizes=[len(r) for r in racks],
            pool=len(pool),
            to_move=to_move,
        )

    def _choose_starter(self, pool: list[Tile]) -> int:
        contenders = list(range(self.players))
        out: list[Tile] = []  # tiles drawn for the choice, returned at the end
        while True:
            numbers: dict[int, int] = {}
            for seat in contenders:
                while True:
                    if not pool:  # only with very small sets: put the drawn tiles back
                        pool.extend(out)
                        out.clear()
                        self._rng.shuffle(pool)
                    tile = pool.pop()
                    out.append(tile)
                    self._event("starter_draw", seat=seat, tile=tile.code)
                    if tile.number is not None:
                        numbers[seat] = tile.number
                        break
            low = min(numbers.values())
            tied = [s for s in contenders if numbers[s] == low]
            if len(tied) == 1:
                break
            self._event("starter_tie", seats=tied, number=low)
            contenders = tied
        pool.extend(out)
        self._rng.shuffle(pool)
        self._event("starter", seat=tied[0])
        return tied[0]

    @classmethod
    def from_position(
        cls,
        racks: Sequence[Sequence[Tile] | str],
        table: Sequence[TableSet] | str = (),
        *,
        rules: Rules | None = None,
        pool: Sequence[Tile] | str | None = None,
        to_move: int = 0,
        opened: Sequence[bool] | None = None,
        seed: int = 0,
    ) -> State:
        """A game in the middle of its first round, as given (for tests, examples, puzzles).

        Tiles written without ``#n`` take the lowest copy not yet named, the table first, then
        the racks in order, then the pool. ``pool`` lists the next tiles to be drawn, in order;
        the tiles named nowhere lie below them in a shuffled order (name every tile to leave
        the pool exactly as given). ``opened`` says who has made the first meld (by default
        everybody when the table holds sets, nobody when it is empty). Later rounds are dealt
        from the seed. Such a game has no `record`.
        """
        rules = rules or Rules()
        state = cls(rules, len(racks), seed)
        sets = parse_table(table, rules) if isinstance(table, str) else list(table)
        named = table_tiles(sets)
        given: list[list[Tile]] = []
        for rack in racks:
            given.append(parse_tiles(rack, named) if isinstance(rack, str) else list(rack))
            named += given[-1]
        top: list[Tile] = []
        if pool is not None:
            top = parse_tiles(pool, named) if isinstance(pool, str) else list(pool)
            named += top
        if len(set(named)) != len(named):
            raise IllegalAction("bad_position", reason="a tile is named twice")
        outside = [t.code for t in named if not rules.has_tile(t)]
        if outside:
            raise IllegalAction("bad_position", reason="not in this set", tiles=outside)
        known = set(named)
        rest = [t for t in rules.pool() if t not in known]
        state._rng.shuffle(rest)
        pool_tiles = rest + top[::-1]
        if not 0 <= to_move < len(racks):
            raise IllegalAction("bad_position", reason="to_move", to_move=to_move)
        state.log = []
        state.round = 1
        state._event("round_start", round=1)
        checked = [read_set(s.tiles, rules, s.jokers or None) for s in sets]
        state._begin(given, checked, pool_tiles, to_move)
        state.opened = list(opened) if opened is not None else [bool(sets)] * len(racks)
        if len(state.opened) != len(racks):
            raise IllegalAction("bad_position", reason="opened", opened=len(state.opened))
        state.starter = to_move
        state._set_by_hand()
        return state

    @classmethod
    def dealt(cls, start: Start, rules: Rules | None = None, seed: int = 0) -> State:
        """A game whose first round starts from ``start``, which its record keeps (the record
        replays it; later rounds are dealt from the seed).

        >>> game = State.dealt(Start.from_json({"racks": [["r1", "r2"], ["b5"]]}), seed=3)
        >>> [t.code for t in game.racks[0]], replay(game.record()).dumps() == game.dumps()
        (['r1', 'r2'], True)
        """
        state = cls.from_position(
            start.racks, rules=rules, pool=start.pool, to_move=start.to_move, seed=seed
        )
        state._set_by_hand(start)
        return state

    # --- the contract ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; ``None`` between rounds and at the end."""
        return self.turn if self.phase == "play" else None

    @property
    def is_over(self) -> bool:
        return self.phase == "game_over"

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check ``action`` (by ``seat`` when given) and apply all of it, or raise
        `IllegalAction` and change nothing."""
        check = self._check(action, seat)
        match action:
            case Draw():
                self._draw()
            case Play():
                assert check is not None
                self._play(check)
            case NextRound():
                self._start_round()
        self._actions.append(action)

    def check_play(self, action: Play) -> TurnCheck:
        """Judge a play by the seat on move without applying it: what it would do, or raise."""
        check = self._check(action, None)
        assert check is not None
        return check

    def legal_actions(self) -> list[Action]:
        """The draw (or pass), or the next round. Plays are far too many to list: ask
        `can_apply` about one, or a solver for good ones."""
        if self.phase == "play":
            return [Draw()]
        if self.phase == "round_over":
            return [NextRound()]
        return []

    def _check(self, action: Action, seat: int | None) -> TurnCheck | None:
        if not isinstance(action, Draw | Play | NextRound):
            raise IllegalAction("bad_action", action=repr(action))
        self._check_seat(seat)
        if self.phase == "game_over":
            raise IllegalAction("game_over")
        if isinstance(action, NextRound):
            if self.phase != "round_over":
                raise IllegalAction("round_not_over")
            return None
        if self.phase == "round_over":
            raise IllegalAction("round_over")
        if seat is not None and seat != self.turn:
            raise IllegalAction("not_your_turn", seat=seat, to_move=self.turn)
        if isinstance(action, Draw):
            return None
        return check_turn(
            self.rules,
            self.table,
            self.racks[self.turn],
            action.table,
            opened=self.opened[self.turn],
        )

    # --- turns -----------------------------------------------------------------------------

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players

    def _draw(self) -> None:
        seat = self.turn
        if self.pool:
            tile = self.pool.pop()
            self.racks[seat].append(tile)
            self.last_drawn[seat] = tile
            self._event("draw", seat=seat, pool=len(self.pool))
            self._next_turn()
            return
        self.passes += 1
        self._event("pass", seat=seat)
        self._next_turn()
        if self.passes >= self.players:
            self._end_round(None)

    def _play(self, check: TurnCheck) -> None:
        seat = self.turn
        steps = describe_rework(self.table, check.table, check.played)
        played = set(check.played)
        self.racks[seat] = [t for t in self.racks[seat] if t not in played]
        self.table = list(check.table)
        self.opened[seat] = True
        self.passes = 0
        self.last_drawn[seat] = None
        self._event(
            "play",
            seat=seat,
            tiles=format_tiles(check.played),
            value=check.value,
            first_meld=check.first_meld,
            jokers_moved=[j.code for j in check.moved_jokers],
            steps=list(steps),
            rack=len(self.racks[seat]),
        )
        if not self.racks[seat]:
            self._end_round(seat)
        else:
            self._next_turn()

    # --- end of a round and of the game ----------------------------------------------------

    def _end_round(self, winner: int | None) -> None:
        """Count the racks. ``winner`` emptied the rack; ``None``: the pool was empty and every
        player passed in turn.

        Leaflet scoring: each player adds what is left on the rack (the winner, nothing).
        Classic scoring: each other player scores minus the rack, the winner the sum of those
        as a plus. When a classic round ends blocked, the player with the lowest rack wins it:
        every player scores minus the difference between the own rack and the lowest, and the
        lowest scores the sum of those differences (shared in equal whole parts if several tie
        for the lowest, any remainder dropped) — the usual Rummikub rule.
        """
        values = [sum(self.rules.penalty(t) for t in rack) for rack in self.racks]
        n = self.players
        if self.rules.scoring == "leaflet":
            scores = [0 if s == winner else values[s] for s in range(n)]
        elif winner is not None:
            scores = [-values[s] for s in range(n)]
            scores[winner] = sum(values)
        else:
            low = min(values)
            lowest = [s for s in range(n) if values[s] == low]
            gain = sum(v - low for v in values) // len(lowest)
            scores = [gain if s in lowest else low - values[s] for s in range(n)]
        self.round_scores.append(scores)
        self.scores = [a + b for a, b in zip(self.scores, scores, strict=True)]
        self._event(
            "round_end",
            round=self.round,
            reason="out" if winner is not None else "blocked",
            winner=winner,
            racks=[format_tiles(r) for r in self.racks],
            rack_values=values,
            scores=scores,
            totals=list(self.scores),
        )
        self.phase = "round_over"
        if self.round >= self.rules.rounds:
            self.phase = "game_over"
            best = min(self.scores) if self.rules.scoring == "leaflet" else max(self.scores)
            self.winners = [s for s in range(n) if self.scores[s] == best]
            self._event("game_end", totals=list(self.scores), winners=list(self.winners))

    # --- what a seat sees, records, serialisation ------------------------------------------

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator, who sees no rack)."""
        self._check_seat(seat)
        return View(
            seat=seat,
            players=self.players,
            rules=self.rules,
            round=self.round,
            phase=self.phase,
            to_move=self.to_move,
            rack=tuple(self.racks[seat]) if seat is not None else (),
            last_drawn=self.last_drawn[seat] if seat is not None else None,
            rack_sizes=tuple(len(r) for r in self.racks),
            opened=tuple(self.opened),
            table=tuple(self.table),
            pool_size=len(self.pool),
            passes=self.passes,
            scores=tuple(self.scores),
            round_scores=tuple(tuple(r) for r in self.round_scores),
            winners=tuple(self.winners),
            log=tuple(self.log),
        )

    def public_log(self) -> Sequence[Event]:
        return self.log

    @classmethod
    def rules_from_json(cls, data: JSON) -> Rules:
        return Rules.from_json(data)

    @classmethod
    def action_from_json(cls, data: JSON, rules: Rules | None = None) -> Action:
        return action_from_json(data, rules)

    def tile_places(self) -> dict[Tile, str]:
        """Where each tile is: ``"pool"``, ``"table"`` or ``"rack <seat>"`` (for checks)."""
        places: dict[Tile, str] = {}
        for tile in self.pool:
            places[tile] = "pool"
        for tile in table_tiles(self.table):
            places[tile] = "table"
        for seat, rack in enumerate(self.racks):
            for tile in rack:
                places[tile] = f"rack {seat}"
        return places

    def __repr__(self) -> str:
        return (
            f"<tiles.State round {self.round}, {self.phase}, seat {self.turn}, "
            f"pool {len(self.pool)}, scores {self.scores}>"
        )


# --- records -------------------------------------------------------------------------------


new_game = State.new_game
replay = State.replay
replay_states = State.replay_states
