"""The Rummoli game state: hands of ante, deal, widow, poker and sequence, until the game ends.

The engine plays every forced step by itself and waits only where a player has a choice:

- the dealer's choice: `SwapWidow` or `KeepHand` (skipped, as a keep, when the house rule
  ``widow_payers_barred`` forbids the dealer to take the widow);
- each bid of the auction: `Bid` or `Pass` (a player who cannot bid, for want of chips or
  because of ``widow_payers_barred``, passes without being asked);
- each turn of the betting round (``poker = "betting"``): `Check`, `Bet`, `Call`, `Raise`,
  `Fold` (a player with no chips left is all in and is not asked);
- in the sequence, the lead: only when the lowest rank the rules allow is held in several
  suits (the opening lead, or a colour change with equal lowest red or black ranks), the player
  chooses the card with `Play`. Every other card of the sequence is forced.

``to_move`` names the seat awaited. Seats are numbered clockwise: the left of seat ``s`` is the
next seat still in the game after ``s``.

Choices the spec leaves open, settled as a family table plays:

- Seat 0 deals the first hand (unless a `Start` says otherwise); the deal then passes left.
- Before each hand, the players who cannot pay the whole ante (one chip per box) are out and
  keep the chips they have; they count in the final standings. If fewer than two players can
  pay, the game ends instead (this is "all players but one have no chips"): the one who can pay
  takes the board; if nobody can, everyone still in shares it by the final split.
- In the auction a pass is final for that auction. The dealer does not bid.
- In the betting round a player may fold at any turn; a player who cannot match a bet may call
  with all the chips left and stays in, but can then win only the part of the Poker box that
  the player matched (side pots, see `rummykit.rummoli.table.share_poker`). When at most one
  player can still put in chips and owes nothing, the round ends.
- The final poker hand deals five cards to each player still in; equal best hands deal again
  among themselves. The cut draws one card each from a shuffled deck, ace high; equal ranks cut
  again. ``extra_hands`` plays, without ante, one more hand for each box holding chips when the
  game ends, and stops early once the board is empty.
- Chips still on the board after the extra hands (boxes nobody won, a blocked hand's payments,
  the indivisible part of a split Poker box) are shared out, as the rules ask, among the
  players still in, in equal parts. The chips that do not divide evenly are handed out one each
  from the dealer's left, the way the cards are dealt and the order the final poker hand and
  the cut go round: with 7 chips among 3 players, the dealer's left gets 3 and the two others 2.
  So every split leaves the board empty: the game ends with every chip in a player's hands.

>>> s = State(Rules(), 4, seed=7)
>>> s.phase, s.to_move, s.dealer
(<Phase.WIDOW: 'widow'>, 0, 0)
>>> s.apply(KeepHand()); s.phase, s.to_move
(<Phase.AUCTION: 'auction'>, 1)
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rummykit.cards import Card, shuffled, standard_deck
from rummykit.core import JSON, IllegalAction
from rummykit.core import Event as PublicEvent
from rummykit.core.state import GameState
from rummykit.rummoli.actions import (
    CODEC,
    Action,
    Bet,
    Bid,
    Call,
    Check,
    Fold,
    KeepHand,
    Pass,
    Play,
    Raise,
    SwapWidow,
    action_from_json,
)
from rummykit.rummoli.poker import card_index, evaluate, index_card, key_of_indices
from rummykit.rummoli.rules import (
    ANTE,
    BOXES,
    MAX_RAISES,
    Rules,
    board_from_json,
    board_to_json,
)
from rummykit.rummoli.table import (
    PAYING_INDEX,
    PLAYED,
    POKER,
    WIDOW,
    SequenceRunner,
    share_poker,
)
from rummykit.rummoli.view import Event, Phase, View

Listener = Callable[[Event, "State"], None]


@dataclass(frozen=True)
class Start:
    """A table to start from instead of a fresh one (a carried-over board, a position to test).

    ``chips``: each player's chips before the first ante (default: ``starting_chips`` each).
    ``board``: chips already on the boxes, in `BOXES` order (default: none). ``dealer``: the
    first dealer. ``hands``: the first deal, one list of cards per seat, the rest of the deck
    being the widow (default: a shuffled deal); every player must then be able to pay the ante.
    """

    chips: tuple[int, ...] | None = None
    board: tuple[int, ...] | None = None
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] | None = None

    def check(self, players: int) -> None:
        """Raise ``IllegalAction("bad_start")`` unless this start fits ``players`` seats."""
        if self.chips is not None and (
            len(self.chips) != players or any(not _is_count(c) for c in self.chips)
        ):
            raise IllegalAction("bad_start", field="chips", value=list(self.chips))
        if self.board is not None and (
            len(self.board) != len(BOXES) or any(not _is_count(c) for c in self.board)
        ):
            raise IllegalAction("bad_start", field="board", value=list(self.board))
        if not _is_count(self.dealer) or self.dealer >= players:
            raise IllegalAction("bad_start", field="dealer", value=self.dealer)
        if self.hands is None:
            return
        if len(self.hands) != players or any(len(h) == 0 for h in self.hands):
            raise IllegalAction("bad_start", field="hands", reason="one_non_empty_hand_per_seat")
        seen: set[int] = set()
        for hand in self.hands:
            for card in hand:
                index = card_index(card)
                if index in seen or card.copy != 0:
                    raise IllegalAction("bad_start", field="hands", card=card.code)
                seen.add(index)
        if self.chips is not None and min(self.chips) < ANTE:
            raise IllegalAction("bad_start", field="chips", reason="every_dealt_player_pays_ante")

    def to_json(self) -> dict[str, JSON]:
        return {
            "chips": None if self.chips is None else list(self.chips),
            "board": None if self.board is None else board_to_json(self.board),
            "dealer": self.dealer,
            "hands": None if self.hands is None else [[c.code for c in h] for h in self.hands],
        }

    @classmethod
    def from_json(cls, data: JSON) -> Start:
        if not isinstance(data, Mapping) or set(data) - {"chips", "board", "dealer", "hands"}:
            raise IllegalAction("bad_start", reason="not_a_start")
        chips = data.get("chips")
        board = data.get("board")
        hands = data.get("hands")
        dealer = data.get("dealer", 0)
        if chips is not None and not isinstance(chips, list):
            raise IllegalAction("bad_start", field="chips", value=repr(chips))
        if hands is not None and not (
            isinstance(hands, list)
            and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands)
        ):
            raise IllegalAction("bad_start", field="hands", value=repr(hands))
        return cls(
            chips=None if chips is None else tuple(chips),
            board=None if board is None else board_from_json(board),
            dealer=dealer,
            hands=None
            if hands is None
            else tuple(tuple(Card.parse(c) for c in hand) for hand in hands),
        )


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def shares(amount: int, parts: int) -> list[int]:
    """``amount`` chips shared out in ``parts`` equal parts, the rest one each to the first parts.

    >>> shares(7, 3)
    [3, 2, 2]
    >>> shares(2, 4)
    [1, 1, 0, 0]
    """
    share, rest = divmod(amount, parts)
    return [share + (1 if n < rest else 0) for n in range(parts)]


def _sorted_cards(indices: Sequence[int]) -> tuple[Card, ...]:
    return tuple(index_card(i) for i in sorted(indices, key=lambda i: (i // 13, i % 13)))


class State(GameState[Rules, Action, View]):
    """A whole Rummoli game, from the first ante to the final split.

    ``State(rules, players, seed)`` deals the first hand at once and waits for the dealer.
    ``start`` sets up another table (see `Start`); ``listener`` is called with every event
    from the first one on (see `listen`).
    `apply` checks the whole action, then applies it and every forced step that follows, or
    raises `IllegalAction` and changes nothing.
    """

    game: ClassVar[str] = "rummoli"
    codec = CODEC
    start: Start | None = None
    """The table the game started from, when one was given (`Start`): the record keeps it."""
    transient = frozenset({"_listeners"})

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        *,
        start: Start | None = None,
        listener: Listener | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise IllegalAction("bad_rules", field=None, reason="not_rules")
        Rules.check_players(players)
        self._setup(rules, players, seed)
        if start is not None:
            start.check(players)
        self.start = start
        self.chips: list[int] = (
            list(start.chips)
            if start is not None and start.chips is not None
            else [rules.starting_chips] * players
        )
        self.board: list[int] = (
            list(start.board) if start is not None and start.board is not None else [0] * len(BOXES)
        )
        self.in_game = [True] * players
        self.dealer = -1
        self.hand_number = 0
        self.regular_hands = 0
        self.extra_hands_left: int | None = None
        self.order: tuple[int, ...] = ()
        self.holder: list[int] = [WIDOW] * 52
        self.widow_known_by: int | None = None
        self.shown: tuple[tuple[int, tuple[int, ...]], ...] = ()
        self.phase = Phase.WIDOW
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.passed: set[int] = set()
        self.turn = 0
        self.contributed: dict[int, int] = {}
        self.folded: set[int] = set()
        self.bet_level = 0
        self.raises = 0
        self.acted: set[int] = set()
        self.sequence: SequenceRunner | None = None
        self.events: list[Event] = []
        self.hand_starts: list[int] = []
        self.end_reason: str | None = None
        self._listeners: list[Listener] = [] if listener is None else [listener]
        self._next_hand = False
        self._begin_hand()
        self._run_pending()

    # --- observing ------------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """Call ``listener(event, state)`` after each new event, once its effect is applied."""
        self._listeners.append(listener)

    def _emit(self, code: str, params: dict[str, JSON]) -> None:
        event: Event = {"code": code, **params}
        self.events.append(event)
        for listener in self._listeners:
            listener(event, self)

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is awaited, or None when the game is over."""
        if self.phase is Phase.WIDOW:
            return self.dealer
        if self.phase is Phase.AUCTION:
            bidders = self.order[:-1]
            return bidders[self.turn % len(bidders)]
        if self.phase is Phase.BETTING:
            return self.order[self.turn % len(self.order)]
        if self.phase is Phase.LEAD:
            assert self.sequence is not None and self.sequence.awaiting is not None
            return self.sequence.awaiting[0]
        return None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand_of(self, seat: int) -> list[int]:
        """The Rummoli indices of a seat's cards (see `rummykit.rummoli.poker.card_index`)."""
        return [i for i, h in enumerate(self.holder) if h == seat]

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards, sorted by suit then rank (ace high)."""
        return _sorted_cards(self.hand_of(seat))

    @property
    def widow(self) -> tuple[Card, ...]:
        """The widow's cards (hidden information: views show them only to who knows them)."""
        return _sorted_cards([i for i, h in enumerate(self.holder) if h == WIDOW])

    @property
    def played(self) -> tuple[Card, ...]:
        """The cards played in this hand's sequence, in order."""
        return tuple(index_card(i) for i, h in enumerate(self.holder) if h == PLAYED)

    def _holds_paying(self, seat: int) -> bool:
        return any(self.holder[i] == seat for i in PAYING_INDEX)

    def _barred(self, seat: int) -> bool:
        return self.rules.widow_payers_barred and self._holds_paying(seat)

    # --- the flow of a hand ---------------------------------------------------------------

    def _begin_hand(self) -> None:
        self.phase = Phase.PLAYING
        seats = range(self.players)
        if self.extra_hands_left is None:
            payers = [s for s in seats if self.in_game[s] and self.chips[s] >= ANTE]
            if len(payers) < 2:
                if len(payers) == 1:
                    for s in seats:
                        if self.in_game[s] and s not in payers:
                            self.in_game[s] = False
                            self._emit("player_out", {"seat": s, "chips": self.chips[s]})
                self._end_game("players", [s for s in seats if self.in_game[s]])
                return
        else:
            payers = [s for s in seats if self.in_game[s]]
        self.hand_number += 1
        self.hand_starts.append(len(self.events))
        if self.dealer < 0:
            self.dealer = self.start.dealer if self.start is not None else 0
            if self.dealer not in payers:
                self.dealer = self._next_payer(self.dealer, payers)
        else:
            self.dealer = self._next_payer(self.dealer, payers)
        self._emit(
            "hand_start",
            {
                "hand": self.hand_number,
                "dealer": self.dealer,
                "extra": self.extra_hands_left is not None,
            },
        )
        for s in seats:
            if self.in_game[s] and s not in payers:
                self.in_game[s] = False
                self._emit("player_out", {"seat": s, "chips": self.chips[s]})
        if self.extra_hands_left is None:
            for s in payers:
                self.chips[s] -= ANTE
            for b in range(len(BOXES)):
                self.board[b] += len(payers)
            self._emit("ante", {"seats": payers, "chips": ANTE})
        d = self.dealer
        self.order = tuple(
            payers[(payers.index(d) + 1 + i) % len(payers)] for i in range(len(payers))
        )
        self._deal()
        self.widow_known_by = None
        self.shown = ()
        self.sequence = None
        self.high_bid, self.high_bidder, self.passed, self.turn = 0, None, set(), 0
        self.contributed, self.folded, self.bet_level, self.raises = {}, set(), 0, 0
        self.acted = set()
        counts = [sum(1 for h in self.holder if h == s) for s in range(self.players)]
        self._emit(
            "deal",
            {"dealer": d, "cards": counts, "widow": sum(1 for h in self.holder if h == WIDOW)},
        )
        if self._barred(d):
            self._emit("widow_kept", {"seat": d})
            self._start_auction()
        else:
            self.phase = Phase.WIDOW

    def _run_pending(self) -> None:
        """Deal the following hands for as long as they play without a decision."""
        while self._next_hand:
            self._next_hand = False
            self._begin_hand()

    def _next_payer(self, seat: int, payers: Sequence[int]) -> int:
        nxt = (seat + 1) % self.players
        while nxt not in payers:
            nxt = (nxt + 1) % self.players
        return nxt

    def _deal(self) -> None:
        holder = [WIDOW] * 52
        if self.start is not None and self.start.hands is not None and self.hand_number == 1:
            for seat, hand in enumerate(self.start.hands):
                for card in hand:
                    holder[card_index(card)] = seat
        else:
            deck = [card_index(c) for c in shuffled(standard_deck(), self._rng)]
            targets = [*self.order, WIDOW]
            for i, index in enumerate(deck):
                holder[index] = targets[i % len(targets)]
        self.holder = holder

    def _swap_with_widow(self, seat: int) -> None:
        holder = self.holder
        for i, h in enumerate(holder):
            if h == seat:
                holder[i] = WIDOW
            elif h == WIDOW:
                holder[i] = seat
        self.widow_known_by = seat

    def _start_auction(self) -> None:
        self.phase = Phase.PLAYING
        self.high_bid, self.high_bidder, self.passed, self.turn = 0, None, set(), 0
        self._advance_auction()

    def _can_bid(self, seat: int) -> bool:
        return self.chips[seat] > self.high_bid and not self._barred(seat)

    def _advance_auction(self) -> None:
        bidders = self.order[:-1]
        while True:
            remaining = [s for s in bidders if s not in self.passed]
            if self.high_bidder is not None and remaining == [self.high_bidder]:
                winner, price = self.high_bidder, self.high_bid
                self.chips[winner] -= price
                self.chips[self.dealer] += price
                self._swap_with_widow(winner)
                self._emit("auction_won", {"seat": winner, "chips": price, "to": self.dealer})
                self._poker()
                return
            if not remaining:
                self._emit("widow_dead", {})
                self._poker()
                return
            current = bidders[self.turn % len(bidders)]
            if current in self.passed or current == self.high_bidder:
                self.turn += 1
                continue
            if not self._can_bid(current):
                self.passed.add(current)
                self._emit("pass", {"seat": current})
                self.turn += 1
                continue
            self.phase = Phase.AUCTION
            return

    def _poker(self) -> None:
        self.phase = Phase.PLAYING
        if self.rules.poker == "betting":
            self.contributed = {s: 0 for s in self.order}
            self.folded, self.bet_level, self.raises, self.acted = set(), 0, 0, set()
            self.turn = 0
            self._advance_betting()
        else:
            self._showdown(list(self.order), None)

    def _advance_betting(self) -> None:
        while True:
            live = [s for s in self.order if s not in self.folded]
            if len(live) == 1:
                self._showdown(live, self.contributed)
                return
            can_act = [s for s in live if self.chips[s] > 0]
            level = self.bet_level
            done = all(s in self.acted and self.contributed[s] == level for s in can_act) or (
                len(can_act) <= 1 and all(self.contributed[s] >= level for s in can_act)
            )
            if done:
                self._showdown(live, self.contributed)
                return
            current = self.order[self.turn % len(self.order)]
            if (
                current in self.folded
                or self.chips[current] == 0
                or (current in self.acted and self.contributed[current] == level)
            ):
                self.turn += 1
                continue
            self.phase = Phase.BETTING
            return

    def _showdown(self, live: list[int], contributed: dict[int, int] | None) -> None:
        keys: dict[int, int] = {}
        shown: list[tuple[int, tuple[int, ...]]] = []
        for s in live:
            cards = self.hand_of(s)
            keys[s] = key_of_indices(cards)
            if len(live) > 1:
                value = evaluate(index_card(i) for i in cards)
                shown.append((s, tuple(card_index(c) for c in value.best_five)))
                self._emit(
                    "poker_show",
                    {
                        "seat": s,
                        "category": value.category.name.lower(),
                        "cards": [c.code for c in value.best_five],
                    },
                )
        self.shown = tuple(shown)
        starter = share_poker(
            self.board, self.chips, self.order, live, keys, contributed, self._emit
        )
        self.sequence = SequenceRunner(
            self.holder, self.order, self.board, self.chips, self.rules.combos, self._emit
        )
        self._emit("sequence_start", {"seat": starter})
        self.sequence.start(starter)
        self._after_sequence()

    def _after_sequence(self) -> None:
        sequence = self.sequence
        assert sequence is not None
        if sequence.awaiting is not None:
            self.phase = Phase.LEAD
            return
        assert sequence.outcome is not None
        kind, seat = sequence.outcome
        self._emit("hand_end", {"hand": self.hand_number, "outcome": kind, "seat": seat})
        if self.extra_hands_left is not None:
            self.extra_hands_left -= 1
            if self.extra_hands_left <= 0 or sum(self.board) == 0:
                self._share_board(self._from_dealers_left(list(self.order)))
                self._finish()
            else:
                self._next_hand = True
            return
        self.regular_hands += 1
        if self.rules.hands is not None and self.regular_hands >= self.rules.hands:
            self._end_game("hands", [s for s in range(self.players) if self.in_game[s]])
        else:
            self._next_hand = True

    # --- the end of the game --------------------------------------------------------------

    def _end_game(self, reason: str, contenders: list[int]) -> None:
        self.end_reason = reason
        self._emit("game_end", {"reason": reason, "seats": contenders})
        if sum(self.board) == 0:
            self._finish()
            return
        if len(contenders) == 1:
            self._take_board(contenders[0], "last_player")
            self._finish()
            return
        ordered = self._from_dealers_left(contenders)
        if self.rules.final_split == "poker":
            self._final_draw(ordered, "poker", self._show_poker)
        elif self.rules.final_split == "cut":
            self._final_draw(ordered, "cut", self._cut)
        else:
            count = sum(1 for chips in self.board if chips > 0)
            self._emit("extra_hands", {"count": count})
            self.extra_hands_left = count
            self.in_game = [s in contenders for s in range(self.players)]
            self._next_hand = True

    def _from_dealers_left(self, seats: Sequence[int]) -> list[int]:
        start = self.dealer if self.dealer >= 0 else 0
        return sorted(seats, key=lambda s: (s - start - 1) % self.players)

    def _share_board(self, seats: Sequence[int]) -> None:
        """Share out what is left on the board among ``seats`` (given from the dealer's left)."""
        amount = sum(self.board)
        if amount == 0:
            return
        self.board[:] = [0] * len(BOXES)
        for seat, share in zip(seats, shares(amount, len(seats)), strict=True):
            if share:
                self.chips[seat] += share
                self._emit("final_share", {"seat": seat, "chips": share})

    def _take_board(self, seat: int, mode: str) -> None:
        amount = sum(self.board)
        self.board = [0] * len(BOXES)
        self.chips[seat] += amount
        self._emit("final_won", {"seat": seat, "chips": amount, "mode": mode})

    def _final_draw(
        self, seats: list[int], mode: str, draw: Callable[[list[int], list[int]], dict[int, int]]
    ) -> None:
        """Deal ``seats`` from a fresh deck (``draw`` gives each seat's key) until one seat's key
        is highest alone: that seat takes the board; the tied seats deal again."""
        while True:
            deck = [card_index(c) for c in shuffled(standard_deck(), self._rng)]
            keys = draw(seats, deck)
            best = max(keys.values())
            tied = [s for s in seats if keys[s] == best]
            if len(tied) == 1:
                self._take_board(tied[0], mode)
                self._finish()
                return
            self._emit("final_tie", {"seats": tied})
            seats = tied

    def _show_poker(self, seats: list[int], deck: list[int]) -> dict[int, int]:
        """Five cards each, shown; a seat's key is its poker hand's."""
        keys: dict[int, int] = {}
        for n, s in enumerate(seats):
            five = deck[5 * n : 5 * n + 5]
            keys[s] = key_of_indices(five)
            value = evaluate(index_card(i) for i in five)
            self._emit(
                "final_show",
                {
                    "seat": s,
                    "category": value.category.name.lower(),
                    "cards": [index_card(i).code for i in five],
                },
            )
        return keys

    def _cut(self, seats: list[int], deck: list[int]) -> dict[int, int]:
        """One card each; a seat's key is its card's rank."""
        ranks: dict[int, int] = {}
        for n, s in enumerate(seats):
            ranks[s] = deck[n] % 13
            self._emit("cut", {"seat": s, "card": index_card(deck[n]).code})
        return ranks

    def _finish(self) -> None:
        self.phase = Phase.OVER
        top = max(self.chips)
        self._emit(
            "game_over",
            {
                "chips": list(self.chips),
                "board": board_to_json(self.board),
                "winners": [s for s in range(self.players) if self.chips[s] == top],
            },
        )

    # --- actions --------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the awaited seat may take (empty when the game is over)."""
        seat = self.to_move
        if seat is None:
            return []
        if self.phase is Phase.WIDOW:
            return [SwapWidow(), KeepHand()]
        if self.phase is Phase.AUCTION:
            bids: list[Action] = [Pass()]
            bids.extend(Bid(c) for c in range(self.high_bid + 1, self.chips[seat] + 1))
            return bids
        if self.phase is Phase.LEAD:
            assert self.sequence is not None and self.sequence.awaiting is not None
            return [Play(index_card(i)) for i in self.sequence.awaiting[1]]
        out: list[Action] = []
        owed = self.bet_level - self.contributed[seat]
        have = self.chips[seat]
        top = self.rules.max_bet
        if owed == 0:
            out.append(Check())
        if self.bet_level == 0:
            out.extend(Bet(c) for c in range(1, min(top, have) + 1))
        else:
            if owed > 0:
                out.append(Call())
            if self.raises < MAX_RAISES:
                out.extend(Raise(c) for c in range(1, min(top, have - owed) + 1))
        out.append(Fold())
        return out

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a decision of the awaited seat, then every forced step that follows.

        With ``seat``, the action is refused (``not_your_turn``) unless that seat is awaited.
        Raises `IllegalAction` with a stable code, the state unchanged, on anything illegal.
        """
        self._check(action, seat)
        current = self.to_move
        assert current is not None
        self._actions.append(action)
        self.phase = Phase.PLAYING
        if isinstance(action, SwapWidow):
            self._swap_with_widow(current)
            self._emit("widow_swapped", {"seat": current})
            self._poker()
        elif isinstance(action, KeepHand):
            self._emit("widow_kept", {"seat": current})
            self._start_auction()
        elif isinstance(action, Bid):
            self.high_bid, self.high_bidder = action.chips, current
            self._emit("bid", {"seat": current, "chips": action.chips})
            self.turn += 1
            self._advance_auction()
        elif isinstance(action, Pass):
            self.passed.add(current)
            self._emit("pass", {"seat": current})
            self.turn += 1
            self._advance_auction()
        elif isinstance(action, Play):
            assert self.sequence is not None
            self.sequence.choose(card_index(action.card))
            self._after_sequence()
        else:
            self._bet(action, current)
        self._run_pending()

    def _put_in(self, seat: int, chips: int) -> None:
        self.chips[seat] -= chips
        self.board[POKER] += chips
        self.contributed[seat] += chips

    def _bet(self, action: Check | Bet | Call | Raise | Fold, seat: int) -> None:
        if isinstance(action, Check):
            self.acted.add(seat)
            self._emit("check", {"seat": seat})
        elif isinstance(action, Bet):
            self._put_in(seat, action.chips)
            self.bet_level = action.chips
            self.acted = {seat}
            self._emit("bet", {"seat": seat, "chips": action.chips})
        elif isinstance(action, Call):
            paid = min(self.bet_level - self.contributed[seat], self.chips[seat])
            self._put_in(seat, paid)
            self.acted.add(seat)
            self._emit("call", {"seat": seat, "chips": paid, "all_in": self.chips[seat] == 0})
        elif isinstance(action, Raise):
            self._put_in(seat, self.bet_level - self.contributed[seat] + action.chips)
            self.bet_level += action.chips
            self.raises += 1
            self.acted = {seat}
            self._emit("raise", {"seat": seat, "chips": action.chips, "total": self.bet_level})
        else:
            self.folded.add(seat)
            self._emit("fold", {"seat": seat})
        self.turn += 1
        self._advance_betting()

    def _check(self, action: object, seat: int | None) -> None:
        """Raise `IllegalAction` unless the awaited seat may take this action now."""
        if not isinstance(
            action, SwapWidow | KeepHand | Bid | Pass | Check | Bet | Call | Raise | Fold | Play
        ):
            raise IllegalAction("bad_action", reason="not_an_action", action=repr(action))
        if self.phase is Phase.OVER:
            raise IllegalAction("game_over")
        current = self.to_move
        if current is None:  # only a listener can ask while the engine is moving
            raise IllegalAction("no_decision_awaited", phase=self.phase.value)
        if seat is not None and seat != current:
            raise IllegalAction("not_your_turn", seat=seat, to_move=current)
        phase = self.phase
        if isinstance(action, SwapWidow | KeepHand):
            if phase is not Phase.WIDOW:
                raise IllegalAction("wrong_phase", action=action.t, phase=phase.value)
            if isinstance(action, SwapWidow) and self._barred(current):
                raise IllegalAction("widow_barred", seat=current)
        elif isinstance(action, Bid | Pass):
            if phase is not Phase.AUCTION:
                raise IllegalAction("wrong_phase", action=action.t, phase=phase.value)
            if isinstance(action, Bid):
                self._check_bid(action, current)
        elif isinstance(action, Play):
            if phase is not Phase.LEAD:
                raise IllegalAction("wrong_phase", action=action.t, phase=phase.value)
            self._check_play(action, current)
        else:
            if self.rules.poker != "betting":
                raise IllegalAction("no_betting_round", action=action.t, poker=self.rules.poker)
            if phase is not Phase.BETTING:
                raise IllegalAction("wrong_phase", action=action.t, phase=phase.value)
            self._check_bet(action, current)

    def _check_bid(self, action: Bid, seat: int) -> None:
        if not isinstance(action.chips, int) or isinstance(action.chips, bool):
            raise IllegalAction("bad_action", reason="chips_not_an_integer")
        if action.chips <= self.high_bid:
            raise IllegalAction("bid_too_low", chips=action.chips, minimum=self.high_bid + 1)
        if action.chips > self.chips[seat]:
            raise IllegalAction("bid_above_chips", chips=action.chips, available=self.chips[seat])
        if self._barred(seat):
            raise IllegalAction("widow_barred", seat=seat)

    def _check_play(self, action: Play, seat: int) -> None:
        card = action.card
        if card.is_joker or card.copy != 0:
            raise IllegalAction("bad_card", card=card.code)
        index = card_index(card)
        assert self.sequence is not None and self.sequence.awaiting is not None
        if self.holder[index] != seat:
            raise IllegalAction("card_not_held", card=card.code, seat=seat)
        choices = self.sequence.awaiting[1]
        if index not in choices:
            raise IllegalAction(
                "not_playable", card=card.code, playable=[index_card(i).code for i in choices]
            )

    def _check_bet(self, action: Check | Bet | Call | Raise | Fold, seat: int) -> None:
        owed = self.bet_level - self.contributed[seat]
        have = self.chips[seat]
        if isinstance(action, Check):
            if owed > 0:
                raise IllegalAction("cannot_check", owed=owed)
        elif isinstance(action, Bet | Raise):
            amount = action.chips
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalAction("bad_action", reason="chips_not_an_integer")
            if isinstance(action, Bet) and self.bet_level > 0:
                raise IllegalAction("already_bet", bet=self.bet_level)
            if isinstance(action, Raise):
                if self.bet_level == 0:
                    raise IllegalAction("nothing_to_raise")
                if self.raises >= MAX_RAISES:
                    raise IllegalAction("raise_limit", raises=self.raises, limit=MAX_RAISES)
            if not 1 <= amount <= self.rules.max_bet:
                raise IllegalAction("bet_out_of_range", chips=amount, maximum=self.rules.max_bet)
            needed = amount + (owed if isinstance(action, Raise) else 0)
            if needed > have:
                raise IllegalAction("bet_above_chips", chips=needed, available=have)
        elif isinstance(action, Call) and owed == 0:
            raise IllegalAction("nothing_to_call")

    # --- what a seat sees -----------------------------------------------------------------

    def view(self, seat: int | None, since: int | None = None) -> View:
        """What ``seat`` may see; the log from event ``since`` (default: the previous hand's start).

        Hidden cards never appear: other hands only as counts, the widow only for the seat
        whose hand it was.
        """
        self._check_seat(seat)
        if since is None:
            since = self.hand_starts[-2] if len(self.hand_starts) >= 2 else 0
        since = max(0, min(since, len(self.events)))
        counts = [0] * self.players
        widow_count = 0
        for h in self.holder:
            if h >= 0:
                counts[h] += 1
            elif h == WIDOW:
                widow_count += 1
        to_move = self.to_move
        choices: tuple[Card, ...] = ()
        if self.phase is Phase.LEAD and seat == to_move:
            assert self.sequence is not None and self.sequence.awaiting is not None
            choices = tuple(index_card(i) for i in self.sequence.awaiting[1])
        plays = (
            ()
            if self.sequence is None
            else tuple((s, index_card(i)) for s, i in self.sequence.plays)
        )
        return View(
            seat=seat,
            players=self.players,
            rules=self.rules,
            phase=self.phase,
            to_move=to_move,
            hand_number=self.hand_number,
            dealer=self.dealer,
            in_game=tuple(self.in_game),
            in_hand=self.order,
            chips=tuple(self.chips),
            board=tuple(self.board),
            hand=() if seat is None else self.cards_of(seat),
            hand_counts=tuple(counts),
            widow_count=widow_count,
            widow=self.widow if seat is not None and seat == self.widow_known_by else None,
            plays=plays,
            shown=tuple((s, tuple(index_card(i) for i in cards)) for s, cards in self.shown),
            high_bid=self.high_bid,
            high_bidder=self.high_bidder,
            passed=tuple(sorted(self.passed)),
            contributed=tuple(self.contributed.get(s, 0) for s in range(self.players)),
            folded=tuple(sorted(self.folded)),
            bet_level=self.bet_level,
            raises=self.raises,
            choices=choices,
            legal=tuple(self.legal_actions()) if seat is not None and seat == to_move else (),
            log=tuple(dict(e) for e in self.events[since:]),
            log_start=since,
            is_over=self.is_over,
        )

    # --- records --------------------------------------------------------------------------

    @property
    def actions(self) -> list[Action]:
        """The decisions applied so far, in order."""
        return list(self._actions)

    def public_log(self) -> Sequence[PublicEvent]:
        return self.events

    @classmethod
    def rules_from_json(cls, data: JSON) -> Rules:
        return Rules.from_json(data)

    @classmethod
    def from_start(cls, start: JSON, rules: Rules, players: int, seed: int) -> State:
        return cls(rules, players, seed, start=Start.from_json(start))

    @classmethod
    def action_from_json(cls, data: JSON, rules: Rules | None = None) -> Action:
        return action_from_json(data)

    def _after_copy(self, twin: State) -> None:
        """Listeners are not copied; the sequence runner works on the copy's own lists."""
        twin._listeners = []
        if self.sequence is not None:
            shared = (self.holder, self.board, self.chips, self)
            memo = {
                id(old): new
                for old, new in zip(
                    shared, (twin.holder, twin.board, twin.chips, twin), strict=True
                )
            }
            twin.sequence = copy.deepcopy(self.sequence, memo)

    def total_chips(self) -> int:
        """Chips in the players' hands plus chips on the board (constant through a game)."""
        return sum(self.chips) + sum(self.board)

    def __repr__(self) -> str:
        return (
            f"<rummoli.State hand={self.hand_number} phase={self.phase.value} "
            f"to_move={self.to_move} chips={self.chips} board={self.board}>"
        )


replay = State.replay
replay_states = State.replay_states


__all__ = [
    "Event",
    "Phase",
    "Start",
    "State",
    "View",
    "replay",
    "replay_states",
]
