"""The Rommé game state: dealing, turns, opening, lay-offs, exchanges, scoring, rounds.

A `State` holds a whole game of several rounds. ``apply`` checks an action completely and then
either applies all of it or raises `IllegalAction` leaving the state exactly as it was.

>>> game = State(Rules.preset("computer"), players=3, seed=7)
>>> game.round, game.dealer, game.to_move, game.phase, [len(h) for h in game.hands]
(1, 1, 2, 'play', [13, 13, 14])
>>> game.apply(Discard(game.hands[2][0]))  # the first player does not draw
>>> game.to_move, game.phase, len(game.discard_pile)
(0, 'draw', 1)
>>> game.apply(Draw("stock"))
>>> game.view(1).to_json()["log"][-1]  # a draw from the stock never names the card
{'code': 'draw', 'seat': 0, 'source': 'stock'}
>>> replay(game.record()).snapshot() == game.snapshot()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rummykit.cards import Card, parse_cards, romme_pack
from rummykit.core import JSON, Event, GameState, IllegalAction, freeze
from rummykit.core.codec import Codec, Encoded
from rummykit.romme.actions import (
    CODEC,
    Action,
    Discard,
    Draw,
    NextRound,
    Play,
    action_from_json,
)
from rummykit.romme.rules import FLAT_NEVER_OPENED, HAND_ROMME_CREDIT, Rules, TableMeld, read_cards
from rummykit.romme.rules import hand_penalty as _hand_penalty
from rummykit.romme.turn import (
    PlayOutcome,
    TurnContext,
    check_play,
    find_use,
    might_use_card,
)
from rummykit.romme.view import Phase, View


def _can_use_card(
    hand: list[Card], card: Card, table: Sequence[TableMeld], rules: Rules, opened: bool
) -> bool:
    """Whether a card taken from the discard pile can be used this turn (the solver decides)."""
    from rummykit.romme.solver import can_use_card

    return can_use_card(hand, card, table, rules, opened)


@dataclass(frozen=True)
class Deal(Encoded):
    """A first deal set by hand that the game's record keeps (a lesson's friendly deal): the
    hands, the next cards of the stock in the order they will be drawn (the rest of the pack
    lies below them, shuffled from the seed), the discard pile (bottom first) and the dealer. Its
    JSON form is the game's, like its actions' (a bad one is ``bad_record``).

    >>> deal = Deal.from_json({"hands": [["J♣", "Q♣"], ["9♥", "9♦"]], "stock": ["K♣"]})
    >>> Deal.from_json(deal.to_json()) == deal, deal.stock[0].code
    (True, 'K♣')
    """

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    dealer: int = 0

    codec: ClassVar[Codec] = CODEC
    json_error: ClassVar[str] = "bad_record"


class State(GameState[Rules, Action, View]):
    """A game of Rommé between ``players`` seats, dealt from ``seed``.

    Public attributes are read-only by convention; only `apply` changes them.
    """

    game: ClassVar[str] = "romme"
    start_type = Deal
    codec = CODEC
    transient = frozenset({"_pickup_cache"})
    start: Deal | None = None
    """The first deal, when it was set by hand and the record keeps it (see `dealt`)."""

    def __init__(self, rules: Rules | None = None, players: int = 2, seed: int = 0) -> None:
        rules = rules or Rules()
        if not isinstance(rules, Rules):
            raise IllegalAction("bad_rules", field=None, reason="not_rules")
        rules.check_players(players)
        self._setup(rules, players, seed)
        self._pickup_cache: tuple[tuple[int, int], bool] | None = None
        self.round = 0
        self.dealer = self._rng.randrange(players)
        self.scores = [0] * players
        self.round_scores: list[list[int]] = []
        self._public_log: list[Event] = []
        self.winners: list[int] = []
        self.losers: list[int] = []
        self.next_meld_id = 0
        self.table: dict[int, TableMeld] = {}
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []
        self.discard_pile: list[Card] = []
        self.opened = [False] * players
        self.turn = 0
        self.phase: Phase = "draw"
        self.picked: Card | None = None
        self._opening_turn = False
        self._deal(None)

    # --- dealing ---------------------------------------------------------------------------

    def _deal(self, forced: tuple[list[list[Card]], list[Card], list[Card]] | None) -> None:
        rules, n = self.rules, self.players
        self.round += 1
        self.table = {}
        self.opened = [False] * n
        self.picked = None
        self._opening_turn = False
        first = (self.dealer + 1) % n
        self.turn = first
        if forced is not None:
            self.hands, self.stock, self.discard_pile = forced
        else:
            deck = romme_pack(rules.jokers)
            self._rng.shuffle(deck)
            extra = 1 if rules.deal_style == "dealer_left_extra" else 0
            hands: list[list[Card]] = [[] for _ in range(n)]
            # One card at a time, clockwise from the dealer's left; the top of a pile is its end.
            for _ in range(rules.hand_size):
                for k in range(n):
                    hands[(first + k) % n].append(deck.pop())
            if extra:
                hands[first].append(deck.pop())
            self.hands = hands
            self.discard_pile = [deck.pop()] if not extra else []
            self.stock = deck
        self.phase = "play" if rules.deal_style == "dealer_left_extra" else "draw"
        event: dict[str, JSON] = {
            "code": "deal",
            "round": self.round,
            "dealer": self.dealer,
            "first": first,
        }
        if self.discard_pile:
            event["upcard"] = self.discard_pile[-1].id
        self._event(**event)

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[Card] | str],
        *,
        rules: Rules | None = None,
        dealer: int = 0,
        stock: Sequence[Card] | str = (),
        discard_pile: Sequence[Card] | str = (),
        table: Sequence[tuple[int, Sequence[Card] | str]] = (),
        opened: Sequence[bool] | None = None,
        seed: int = 0,
    ) -> State:
        """A game whose first round starts from the given position (for tests, examples and
        puzzles): the hands, the first cards of the stock in the order they will be drawn (the
        rest of the pack goes below them, shuffled), the discard pile (bottom first), melds
        already on the table as ``(owner, cards)`` and who has opened. Later rounds are dealt
        from the seed. Such a game has no `record` (a record rebuilds the deal from the seed).

        >>> game = State.from_deal(["J♣ Q♣ K♣ 5♦", "9♥ 9♦ JK 2♠"], dealer=1,
        ...                        table=[(1, "7♠ 7♥ 7♦")], opened=[False, True])
        >>> str(game.table[0]), game.to_move, game.phase
        ('#0 group 7♠ 7♥ 7♦ (seat 1)', 0, 'play')
        """
        rules = rules or Rules()
        state = cls(rules, len(hands), seed)
        given_hands = [_cards(h) for h in hands]
        top = _cards(stock)
        pile = _cards(discard_pile)
        melds = []
        for meld_id, (owner, meld_cards) in enumerate(table):
            laid = tuple(_cards(meld_cards))
            reading = read_cards(laid)
            if reading is None or not 0 <= owner < state.players:
                raise IllegalAction("invalid_meld", cards=" ".join(c.code for c in laid))
            melds.append(TableMeld(laid, reading.kind, owner, meld_id))
        named = [c for h in given_hands for c in h] + top + pile
        named += [c for m in melds for c in m.cards]
        if len(set(named)) != len(named):
            twice = sorted({c.code for c in named if named.count(c) > 1})
            raise IllegalAction("duplicate_card", cards=" ".join(twice))
        pack = romme_pack(rules.jokers)
        rest = [c for c in pack if c not in set(named)]
        if len(rest) + len(named) != len(pack):
            raise IllegalAction("bad_card", reason="not in this pack")
        state._rng.shuffle(rest)
        state.round = 0
        state.dealer = dealer % state.players
        state._public_log = []
        state._deal((given_hands, rest + top[::-1], pile))
        state.table = {m.id: m for m in melds}
        state.next_meld_id = len(melds)
        if opened is not None:
            if len(opened) != state.players:
                raise IllegalAction("bad_players", players=len(opened))
            state.opened = [bool(o) for o in opened]
        state._set_by_hand()
        return state

    @classmethod
    def dealt(cls, deal: Deal, rules: Rules | None = None, seed: int = 0) -> State:
        """A game whose first round starts from ``deal``, which its record keeps (the record
        replays it; later rounds are dealt from the seed).

        >>> deal = Deal.from_json({"hands": [["J♣", "Q♣", "K♣", "5♦"], ["9♥", "9♦", "JK"]]})
        >>> game = State.dealt(deal, seed=3)
        >>> game.hands[0] == list(deal.hands[0]), replay(game.record()).dumps() == game.dumps()
        (True, True)
        """
        state = cls.from_deal(
            deal.hands,
            rules=rules,
            dealer=deal.dealer,
            stock=deal.stock,
            discard_pile=deal.discard_pile,
            seed=seed,
        )
        state._set_by_hand(deal)
        return state

    def _event(self, code: str, **params: JSON) -> None:
        self._public_log.append(freeze({"code": code, **params}))

    def public_log(self) -> Sequence[Event]:
        return self._public_log

    @property
    def log(self) -> Sequence[Event]:
        """The public events, read-only (lists as tuples); the views share them. One copy
        only: a long game's log is most of what its state keeps, and each read-only mapping
        is an object the garbage collector walks."""
        return self._public_log

    # --- the contract ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is awaited; ``None`` between rounds and at the end."""
        return self.turn if self.phase in ("draw", "play", "discard") else None

    @property
    def is_over(self) -> bool:
        return self.phase == "game_over"

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check ``action`` (by ``seat`` when given) and apply all of it, or raise."""
        outcome = self._check(action, seat)
        match action:
            case Draw():
                self._draw(action)
            case Discard():
                self._discard(action)
            case Play():
                assert outcome is not None
                self._play(action, outcome)
            case NextRound():
                self._next_round()
        self._actions.append(action)

    def _check(self, action: Action, seat: int | None) -> PlayOutcome | None:
        """Everything `apply` checks, written once for it and `can_apply`; for a play, its
        outcome (what applying it needs)."""
        if seat is not None:
            self._check_turn(seat, action)
        match action:
            case Draw():
                self._check_draw(action)
            case Discard():
                self._check_discard(action)
            case Play():
                return self._check_play(action)
            case NextRound():
                self._check_next_round()
            case _:
                raise IllegalAction("bad_action", action=repr(action))
        return None

    def legal_actions(self) -> list[Action]:
        """Every legal draw, discard and next-round step. Plays are far too many to list: ask
        `can_apply` about a play, or a solver for good ones."""
        if self.phase == "round_over":
            return [NextRound()]
        if self.phase == "game_over":
            return []
        if self.phase == "draw":
            found: list[Action] = [Draw("stock")]
            if self._discard_pickup_allowed():
                found.append(Draw("discard"))
            return found
        if self._picked_unused():
            return []
        return [Discard(c) for c in self.hands[self.turn] if c != self.picked]

    def _check_turn(self, seat: int, action: Action) -> None:
        self._check_seat(seat)
        if isinstance(action, NextRound):
            return
        if self.to_move is not None and seat != self.to_move:
            raise IllegalAction("not_your_turn", seat=seat, to_move=self.to_move)

    def _check_phase(self, wanted: tuple[Phase, ...], action: str) -> None:
        if self.phase in wanted:
            return
        if self.phase == "game_over":
            raise IllegalAction("game_over")
        if self.phase == "round_over":
            raise IllegalAction("round_over")
        if action == "draw":
            raise IllegalAction("already_drawn")
        if self.phase == "draw":
            raise IllegalAction("must_draw_first")
        raise IllegalAction("already_played")

    # --- draw ------------------------------------------------------------------------------

    def _discard_pickup_allowed(self) -> bool:
        if not self.discard_pile:
            return False
        if self.rules.discard_pickup == "free":
            return True
        # Asked by views and by the draw itself: decided once per position.
        key = (self.round, len(self._actions))
        if self._pickup_cache is not None and self._pickup_cache[0] == key:
            return self._pickup_cache[1]
        seat = self.turn
        hand, top = self.hands[seat], self.discard_pile[-1]
        table = list(self.table.values())
        opened = self.opened[seat]
        # A quick no, a quick yes with a concrete legal play, else the solver's exact answer.
        allowed = might_use_card(hand, top, table, self.rules, opened)
        if allowed and find_use(hand, top, table, self.rules, opened) is None:
            allowed = _can_use_card(list(hand), top, table, self.rules, opened)
        self._pickup_cache = (key, allowed)
        return allowed

    def _check_draw(self, action: Draw) -> None:
        self._check_phase(("draw",), "draw")
        if action.source == "discard":
            if not self.discard_pile:
                raise IllegalAction("discard_pile_empty")
            if not self._discard_pickup_allowed():
                raise IllegalAction("discard_unusable", card=self.discard_pile[-1].code)

    def _draw(self, action: Draw) -> None:
        seat = self.turn
        if action.source == "stock":
            self.hands[seat].append(self.stock.pop())
            self._event("draw", seat=seat, source="stock")
        else:
            card = self.discard_pile.pop()
            self.hands[seat].append(card)
            self.picked = card
            self._event("draw", seat=seat, source="discard", card=card.id)
        self.phase = "play"

    # --- play ------------------------------------------------------------------------------

    def turn_context(self) -> TurnContext:
        seat = self.turn
        return TurnContext(
            self.hands[seat],
            self.table,
            self.rules,
            seat,
            self.opened[seat],
            self.picked,
            self.next_meld_id,
        )

    def _check_play(self, action: Play) -> PlayOutcome:
        self._check_phase(("play",), "play")
        return check_play(action, self.turn_context())

    def _play(self, action: Play, outcome: PlayOutcome) -> None:
        seat = self.turn
        self.hands[seat] = outcome.hand
        self.table = outcome.table
        self.next_meld_id = outcome.next_meld_id
        opens = outcome.opening_value is not None
        if opens:
            self.opened[seat] = True
            self._opening_turn = True
        event: dict[str, JSON] = {"code": "play", "seat": seat}
        if action.exchanges:
            event["exchanges"] = [x.to_json() for x in action.exchanges]
        if outcome.new_melds:
            event["melds"] = [m.to_json() for m in outcome.new_melds]
        if action.layoffs:
            event["layoffs"] = [
                {"card": lo.card.id, "meld": lo.meld, "end": _end_of(self.table[lo.meld], lo.card)}
                for lo in action.layoffs
            ]
        if opens:
            event["opening_value"] = outcome.opening_value
        self._event(**event)
        self.phase = "discard"
        if outcome.goes_out:
            self._end_round(seat)

    # --- discard ---------------------------------------------------------------------------

    def _picked_unused(self) -> bool:
        return (
            self.rules.discard_pickup == "must_use"
            and self.picked is not None
            and self.picked in self.hands[self.turn]
        )

    def _check_discard(self, action: Discard) -> None:
        self._check_phase(("play", "discard"), "discard")
        card = action.card
        if card not in self.hands[self.turn]:
            raise IllegalAction("card_not_in_hand", card=card.code)
        if card == self.picked:
            raise IllegalAction("discard_picked_card", card=card.code)
        if self._picked_unused():
            assert self.picked is not None
            raise IllegalAction("picked_card_unused", card=self.picked.code)

    def _discard(self, action: Discard) -> None:
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(action.card)
        self.discard_pile.append(action.card)
        self._event("discard", seat=seat, card=action.card.id)
        if not hand:
            self._end_round(seat)
            return
        self.turn = (seat + 1) % self.players
        self.picked = None
        self._opening_turn = False
        self.phase = "draw"
        if not self.stock:
            self._stock_exhausted()

    def _stock_exhausted(self) -> None:
        if self.rules.stock_exhausted == "reshuffle" and len(self.discard_pile) > 1:
            top = self.discard_pile.pop()
            self.stock = self.discard_pile
            self._rng.shuffle(self.stock)
            self.discard_pile = [top]
            self._event("reshuffle", stock=len(self.stock))
        else:
            self._end_round(None)

    # --- end of a round and of the game ----------------------------------------------------

    def _end_round(self, winner: int | None) -> None:
        rules = self.rules
        hand_romme = winner is not None and self._opening_turn
        penalties = []
        for seat in range(self.players):
            if seat == winner:
                credit = hand_romme and rules.hand_romme == "credit"
                penalties.append(-HAND_ROMME_CREDIT if credit else 0)
                continue
            if rules.never_opened == "flat100" and not self.opened[seat]:
                penalty = FLAT_NEVER_OPENED
            else:
                penalty = _hand_penalty(self.hands[seat], rules)
            if hand_romme and rules.hand_romme == "double":
                penalty *= 2
            penalties.append(penalty)
        self.round_scores.append(penalties)
        self.scores = [s + p for s, p in zip(self.scores, penalties, strict=True)]
        self._event(
            "round_end",
            round=self.round,
            winner=winner,
            hand_romme=hand_romme,
            hands=[[c.id for c in hand] for hand in self.hands],
            penalties=penalties,
            scores=list(self.scores),
        )
        self.phase = "round_over"
        limit = rules.point_limit
        if limit is not None:
            over = [
                s
                for s, total in enumerate(self.scores)
                if (total > limit if rules.limit_rule == "exceeds" else total >= limit)
            ]
            if over:
                self.losers = over
                self.phase = "game_over"
        if rules.rounds is not None and self.round >= rules.rounds:
            self.phase = "game_over"
        if self.phase == "game_over":
            best = min(self.scores)
            self.winners = [s for s, total in enumerate(self.scores) if total == best]
            self._event(
                "game_end",
                winners=list(self.winners),
                losers=list(self.losers),
                scores=list(self.scores),
            )

    def _check_next_round(self) -> None:
        if self.phase == "game_over":
            raise IllegalAction("game_over")
        if self.phase != "round_over":
            raise IllegalAction("round_not_over")

    def _next_round(self) -> None:
        self.dealer = (self.dealer + 1) % self.players
        self._deal(None)

    # --- what a seat sees, records, serialisation ------------------------------------------

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator, who sees no hand)."""
        self._check_seat(seat)
        on_move = seat is not None and seat == self.to_move
        can_take = on_move and self.phase == "draw" and self._discard_pickup_allowed()
        return View(
            seat=seat,
            players=self.players,
            rules=self.rules,
            round=self.round,
            dealer=self.dealer,
            to_move=self.to_move,
            phase=self.phase,
            hand=tuple(self.hands[seat]) if seat is not None else (),
            hand_sizes=tuple(len(h) for h in self.hands),
            opened=tuple(self.opened),
            table=tuple(self.table.values()),
            discard_pile=tuple(self.discard_pile),
            stock_size=len(self.stock),
            scores=tuple(self.scores),
            round_scores=tuple(tuple(r) for r in self.round_scores),
            picked=self.picked if self.to_move is not None else None,
            can_take_discard=can_take,
            next_meld_id=self.next_meld_id,
            winners=tuple(self.winners),
            losers=tuple(self.losers),
            log=tuple(self._public_log),
        )

    @classmethod
    def rules_from_json(cls, data: JSON) -> Rules:
        return Rules.from_json(data)

    @classmethod
    def action_from_json(cls, data: JSON, rules: Rules | None = None) -> Action:
        return action_from_json(data)

    def __repr__(self) -> str:
        return (
            f"<romme.State round {self.round}, {self.phase}, seat {self.turn}, "
            f"scores {self.scores}>"
        )


def _end_of(meld: TableMeld, card: Card) -> str | None:
    if meld.kind == "group":
        return None
    return "low" if meld.cards[0] == card else "high"


def _cards(value: Sequence[Card] | str) -> list[Card]:
    return parse_cards(value) if isinstance(value, str) else list(value)


# --- records -------------------------------------------------------------------------------


new_game = State.new_game
replay = State.replay
replay_states = State.replay_states
