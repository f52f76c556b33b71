"""Computer players for Rummoli. A bot sees only a `View` and returns one of ``view.legal``.

- ``random``: any legal action, uniformly.
- ``easy``: rules of thumb from the poker category alone: swap or buy the widow with a hand
  that holds no pair (for at most 3 chips), bet two pairs or better, call with a pair.
- ``hard``: values a hand by playing the rest of the hand out on imagined deals of the unseen
  cards (determinized sampling, with the engine's own showdown and sequence code): the value is
  the chips the hand brings back, which weighs at once its poker strength, its paying cards
  and its chances in the sequence (going out first, not being caught with many cards). It
  buys the widow when that expected value is higher and bids up to the difference. Dealing,
  it weighs swapping against keeping and selling the widow: the price the auction brings
  (what a hand without a pair is thought to pay, or what it has seen auctions reach at this
  table, if more) and the bidder's new hand;
  it bets and calls on its chance to win the Poker box against the pot; it chooses a lead by
  the same playouts, on deals that keep to what the play has shown (`knowledge`: the best
  fives shown at the showdown and what they say of the rest of each hand, the cards missing at
  the stops, the cards each lead proves a player does not hold).

>>> from rummykit.rummoli import Rules, State
>>> game = State(Rules(), 4, seed=5)
>>> bots = [make_bot("hard", seed=i) for i in range(4)]
>>> while game.hand_number == 1 and not game.is_over:
...     seat = game.to_move
...     game.apply(bots[seat].choose(game.view(seat)), seat)
>>> game.total_chips()
160
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from rummykit.core import Computers, IllegalAction
from rummykit.rummoli import actions as act
from rummykit.rummoli.actions import Action
from rummykit.rummoli.game import State
from rummykit.rummoli.poker import Category, card_index, key_of_indices
from rummykit.rummoli.table import (
    ACE,
    BLACK_SUITS,
    PAYING_INDEX,
    PLAYED,
    POKER,
    RED_SUITS,
    WIDOW,
    SequenceRunner,
    share_poker,
)
from rummykit.rummoli.view import Phase, View

LEVELS = ("random", "easy", "hard")


class Bot(Protocol):
    """A computer player: a pure function of what its seat sees (and its own generator)."""

    level: str

    def choose(self, view: View) -> Action:
        """One of ``view.legal``."""
        ...


def make_bot(level: str, seed: int) -> Bot:
    """A bot of the given level (``random``, ``easy``, ``hard``), with its own seeded chance."""
    if level == "random":
        return RandomBot(seed)
    if level == "easy":
        return EasyBot(seed)
    if level == "hard":
        return HardBot(seed)
    raise IllegalAction("bad_bot", level=level, allowed=list(LEVELS))


class _Seeded:
    """What every level does alike: it keeps its own seeded chance, and refuses a view that
    awaits no action of its seat; `_decide` is the level's own judgement."""

    level: str

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if not view.legal:
            raise IllegalAction("not_your_turn", seat=view.seat, to_move=view.to_move)
        return self._decide(view)

    def _decide(self, view: View) -> Action:
        raise NotImplementedError


class RandomBot(_Seeded):
    """Any legal action, uniformly at random."""

    level = "random"

    def _decide(self, view: View) -> Action:
        return self.rng.choice(view.legal)


def _category(view: View) -> Category:
    return Category(key_of_indices(card_index(c) for c in view.hand) >> 20)


class EasyBot(_Seeded):
    """Rules of thumb on the poker category of the hand, nothing else."""

    level = "easy"

    def _decide(self, view: View) -> Action:
        legal = view.legal
        category = _category(view)
        if view.phase is Phase.WIDOW:
            return act.SwapWidow() if category == Category.HIGH_CARD else act.KeepHand()
        if view.phase is Phase.AUCTION:
            bid = act.Bid(view.high_bid + 1)
            if category == Category.HIGH_CARD and bid.chips <= 3 and bid in legal:
                return bid
            return act.Pass()
        if view.phase is Phase.LEAD:
            return legal[0]
        return _bet_by_category(legal, category)


def _bet_by_category(legal: Sequence[Action], category: Category) -> Action:
    if category >= Category.TWO_PAIR:
        for wanted in (act.Raise(1), act.Bet(1), act.Call(), act.Check()):
            if wanted in legal:
                return wanted
    if category == Category.PAIR:
        for wanted in (act.Check(), act.Call()):
            if wanted in legal:
                return wanted
    return act.Check() if act.Check() in legal else act.Fold()


class HardBot(_Seeded):
    """Values decisions by playing the hand out on sampled deals of the unseen cards."""

    level = "hard"

    weigh_auction = True
    """Whether the dealer counts the auction a kept hand brings (the price paid to it, and the
    bidder's new hand) against swapping for the widow."""
    bid_limit = 3
    """The most an opponent is thought to pay for the widow when its own hand holds no pair
    (with a pair or better, nothing more than what the others are seen to pay anyway)."""
    remembered = 12
    """How many auctions the price seen is averaged over."""

    def __init__(self, seed: int, samples: int = 128) -> None:
        super().__init__(seed)
        self.samples = samples
        self._widow_gain: tuple[tuple[int, int, int], float] | None = None
        self._seen_bids: list[int] = []
        self._seen_tag: tuple[int, int] | None = None

    def _decide(self, view: View) -> Action:
        if view.phase is Phase.WIDOW:
            gain = self.keep_loss(view) if self.weigh_auction else self.swap_gain(view)
            return act.SwapWidow() if gain > 0 else act.KeepHand()
        if view.phase is Phase.AUCTION:
            self._note_bid(view)
            limit = int(self.swap_gain(view))
            bid = act.Bid(view.high_bid + 1)
            return bid if bid.chips <= limit and bid in view.legal else act.Pass()
        if view.phase is Phase.LEAD:
            return self.lead(view)
        return self._bet(view)

    # --- imagined deals -------------------------------------------------------------------

    def _deals(self, view: View) -> list[list[int]]:
        """``samples`` deals of the unseen cards consistent with what the seat knows: holder
        lists. The cards shown at the showdown stay with their players, a card missing at a
        stop lies in the widow, and a player who led a card (or let the lead pass) holds no
        lower card of the suits it could lead (`knowledge`)."""
        assert view.seat is not None
        base, lacks = knowledge(view)
        unseen = [i for i in range(52) if base[i] == UNSEEN]
        room: dict[int, int] = {}
        for seat in view.in_hand:
            if seat != view.seat:
                room[seat] = view.hand_counts[seat]
        if view.widow is None:
            room[WIDOW] = view.widow_count
        for i in range(52):
            if base[i] in room:
                room[base[i]] -= 1
        slots = [holder for holder, n in room.items() for _ in range(n)]
        free = not any(lacks.values())
        deals = []
        for _ in range(self.samples):
            holder = list(base)
            if free or not _deal_constrained(holder, unseen, room, lacks, self.rng):
                self.rng.shuffle(unseen)
                for index, slot in zip(unseen, slots, strict=True):
                    holder[index] = slot
            deals.append(holder)
        return deals

    @staticmethod
    def _play_out(
        view: View, holder: list[int], live: Sequence[int], chips: list[int] | None = None
    ) -> int:
        """The seat's chips after the showdown and the sequence on this deal (from ``chips``,
        by default the view's)."""
        assert view.seat is not None
        board = list(view.board)
        chips = list(view.chips) if chips is None else chips
        keys = {s: key_of_indices(i for i in range(52) if holder[i] == s) for s in live}
        starter = share_poker(board, chips, view.in_hand, live, keys, None)
        runner = SequenceRunner(holder, view.in_hand, board, chips, view.rules.combos)
        runner.start(starter)
        runner.finish()
        return chips[view.seat]

    def swap_gain(self, view: View) -> float:
        """Expected chips from holding the widow rather than the own hand (same deals)."""
        assert view.seat is not None
        tag = (view.hand_number, view.seat, len(view.hand))
        if self._widow_gain is not None and self._widow_gain[0] == tag:
            return self._widow_gain[1]
        seat = view.seat
        total = 0
        for holder in self._deals(view):
            kept = self._play_out(view, list(holder), view.in_hand)
            swapped = [WIDOW if h == seat else seat if h == WIDOW else h for h in holder]
            total += self._play_out(view, swapped, view.in_hand) - kept
        gain = total / self.samples
        self._widow_gain = (tag, gain)
        return gain

    def keep_loss(self, view: View) -> float:
        """For the dealer: expected chips from swapping for the widow rather than keeping the
        hand and auctioning the widow. Keeping brings the auction's price, and the bidder who
        pays it plays the widow instead of its own hand; on each imagined deal the auction is
        played out with the other players bidding, one chip at a time, up to `bid_limit` when
        their hand holds no pair, and whatever their hand up to the price this player has seen
        auctions reach (`seen_price`)."""
        assert view.seat is not None
        seat = view.seat
        bidders = [s for s in view.in_hand if s != seat]
        anyway = self.seen_price()
        total = 0
        for holder in self._deals(view):
            swapped = [WIDOW if h == seat else seat if h == WIDOW else h for h in holder]
            kept = list(holder)
            chips = list(view.chips)
            winner, price = _auction(view, kept, bidders, self.bid_limit, anyway)
            if winner is not None:
                chips[winner] -= price
                chips[seat] += price
                kept = [WIDOW if h == winner else winner if h == WIDOW else h for h in kept]
            total += self._play_out(view, swapped, view.in_hand) - self._play_out(
                view, kept, view.in_hand, chips
            )
        return total / self.samples

    def _note_bid(self, view: View) -> None:
        """Remember the price an auction had reached when this player was asked (nought when
        nobody had bid yet): what the others are seen to pay for a widow, whatever their
        hands."""
        tag = (view.hand_number, view.dealer)
        if view.high_bidder == view.seat:
            return
        if self._seen_tag == tag and self._seen_bids:
            self._seen_bids[-1] = max(self._seen_bids[-1], view.high_bid)
        else:
            self._seen_bids.append(view.high_bid)
            self._seen_bids = self._seen_bids[-self.remembered :]
        self._seen_tag = tag

    def seen_price(self) -> int:
        """The price the others are seen to pay for a widow whatever their hands: the mean of
        the auctions remembered, rounded down."""
        if not self._seen_bids:
            return 0
        return sum(self._seen_bids) // len(self._seen_bids)

    # --- the sequence ---------------------------------------------------------------------

    def lead(self, view: View) -> Action:
        assert view.seat is not None
        options = [card_index(c) for c in view.choices]
        scores = [0] * len(options)
        for holder in self._deals(view):
            for n, index in enumerate(options):
                board, chips = list(view.board), list(view.chips)
                runner = SequenceRunner(list(holder), view.in_hand, board, chips, view.rules.combos)
                runner.awaiting = (view.seat, tuple(options))
                runner.choose(index)
                runner.finish()
                scores[n] += chips[view.seat]
        best = max(range(len(options)), key=lambda n: scores[n])
        return act.Play(view.choices[best])

    # --- betting --------------------------------------------------------------------------

    def equity(self, view: View) -> float:
        """The chance to win the Poker box against the players still in (ties shared)."""
        assert view.seat is not None
        live = [s for s in view.in_hand if s not in view.folded]
        won = 0.0
        for holder in self._deals(view):
            keys = {s: key_of_indices(i for i in range(52) if holder[i] == s) for s in live}
            best = max(keys.values())
            if keys[view.seat] == best:
                won += 1 / sum(1 for k in keys.values() if k == best)
        return won / self.samples

    def _bet(self, view: View) -> Action:
        return self.bet(view, self.equity(view))

    def bet(self, view: View, equity: float) -> Action:
        """The betting decision for a chance ``equity`` of winning the Poker box."""
        assert view.seat is not None
        legal = view.legal
        live = sum(1 for s in view.in_hand if s not in view.folded)
        owed = view.bet_level - view.contributed[view.seat]
        pot = view.board[POKER]
        strong = equity > min(0.85, 1.6 / live)
        raises = [a for a in legal if isinstance(a, act.Raise | act.Bet)]
        if strong and raises:
            return max(raises, key=lambda a: a.chips if equity > 0.6 else -a.chips)
        if owed == 0:
            return act.Check()
        if act.Call() in legal and equity * (pot + owed) >= owed:
            return act.Call()
        return act.Fold()


UNSEEN = -3
"""``holder`` value of a card the seat has not placed yet (in `knowledge`)."""


def knowledge(view: View) -> tuple[list[int], dict[int, set[int]]]:
    """What the seat knows of where each card is: a holder list (`UNSEEN` where it does not
    know) and, for each other player, the cards it cannot hold.

    Read from this hand's public play, as a careful player at the table reads it: the best five
    each player showed at the showdown; a stop on a card that is not an ace whose next card was
    not played puts that card in the widow; the first lead is the starter's lowest card (no lower
    rank in any suit), and after a stop each player who let the lead pass holds no card of the
    colour asked, the one who led none lower than its lead in either suit of that colour."""
    assert view.seat is not None
    holder = [UNSEEN] * 52
    for card in view.hand:
        holder[card_index(card)] = view.seat
    if view.widow is not None:
        for card in view.widow:
            holder[card_index(card)] = WIDOW
    lacks: dict[int, set[int]] = {s: set() for s in view.in_hand if s != view.seat}
    for seat, cards in view.shown:
        five = [card_index(card) for card in cards]
        for index in five:
            holder[index] = seat
        if seat in lacks:
            lacks[seat].update(beside_best_five(five))
    played: set[int] = set()
    order = list(view.in_hand)
    previous: tuple[int, int] | None = None
    for seat, card in view.plays:
        index = card_index(card)
        if previous is None:
            lacks.get(seat, set()).update(i for i in range(52) if i % 13 < index % 13)
        elif not (index == previous[1] + 1 and previous[1] % 13 != ACE):
            last_seat, last = previous
            if last % 13 != ACE and last + 1 not in played:
                holder[last + 1] = WIDOW
            suits = BLACK_SUITS if last // 13 >= 2 else RED_SUITS
            asked = [s * 13 + p for s in suits for p in range(13)]
            passer = last_seat
            while passer != seat and passer in order:
                lacks.get(passer, set()).update(asked)
                passer = order[(order.index(passer) + 1) % len(order)]
            lacks.get(seat, set()).update(i for i in asked if i % 13 < index % 13)
        played.add(index)
        holder[index] = PLAYED
        previous = (seat, index)
    return holder, lacks


def beside_best_five(five: Sequence[int]) -> set[int]:
    """The cards a hand cannot hold beside the best five it showed: with a hand that is made of
    ranks (high card, a pair, two pairs, three or four of a kind) the cards left out rank below
    the lowest odd card shown (two pairs, four of a kind: not above it, a pair may hide there),
    and none of a paired rank, which would have made a better hand."""
    category = Category(key_of_indices(five) >> 20)
    if category in (
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.STRAIGHT_FLUSH,
    ):
        return set()
    ranks = [i % 13 for i in five]
    made = {r for r in ranks if ranks.count(r) >= 2}
    odd = min(r for r in ranks if r not in made)
    limit = odd + 1 if category in (Category.TWO_PAIR, Category.FOUR_OF_A_KIND) else odd
    return {i for i in range(52) if i not in five and (i % 13 >= limit or i % 13 in made)}


def _deal_constrained(
    holder: list[int],
    unseen: list[int],
    room: dict[int, int],
    lacks: dict[int, set[int]],
    rng: random.Random,
    tries: int = 8,
) -> bool:
    """Place ``unseen`` into ``holder`` within each holder's ``room`` and none where ``lacks``
    forbids it: the most constrained cards first, each to a holder drawn in proportion to its
    room left. False when every try ran into a dead end (the caller then deals freely)."""
    allowed = {i: [h for h in room if i not in lacks.get(h, ())] for i in unseen}
    for _ in range(tries):
        left = dict(room)
        cards = list(unseen)
        rng.shuffle(cards)
        cards.sort(key=lambda i: len(allowed[i]))
        placed: list[tuple[int, int]] = []
        for index in cards:
            options = [h for h in allowed[index] if left[h] > 0]
            if not options:
                break
            weights = [left[h] for h in options]
            chosen = rng.choices(options, weights)[0]
            left[chosen] -= 1
            placed.append((index, chosen))
        else:
            for index, chosen in placed:
                holder[index] = chosen
            return True
    return False


def _auction(
    view: View, holder: list[int], bidders: Sequence[int], weak: int, anyway: int = 0
) -> tuple[int | None, int]:
    """The auction on an imagined deal: from the dealer's left, each bidder raises by one chip
    while the price stays within what it would pay (``weak`` with a hand without a pair,
    ``anyway`` whatever its hand, never more than its chips); a widow sold to a bidder who pays
    it whatever the hand goes for at least ``anyway``. Returns the winner and the price."""
    pays: dict[int, int] = {}
    for s in bidders:
        cards = [i for i in range(52) if holder[i] == s]
        barred = view.rules.widow_payers_barred and any(i in PAYING_INDEX for i in cards)
        no_pair = Category(key_of_indices(cards) >> 20) == Category.HIGH_CARD
        pays[s] = 0 if barred else min(max(anyway, weak if no_pair else 0), view.chips[s])
    high, winner = 0, None
    passed: set[int] = set()
    while True:
        moved = False
        for s in bidders:
            if s in passed or s == winner:
                continue
            if high + 1 <= pays[s]:
                high, winner, moved = high + 1, s, True
            else:
                passed.add(s)
        if not moved:
            if winner is not None and pays[winner] >= anyway > high:
                high = min(anyway, view.chips[winner])  # the price auctions are seen to reach
            return winner, high


__all__ = ["COMPUTERS", "LEVELS", "Bot", "EasyBot", "HardBot", "RandomBot", "make_bot"]


def fallback_action(state: State, seat: int) -> Action:
    """The safe decision at once (a computer seat out of time, a turn timer): keep the hand,
    pass, check or call, else the first choice offered (the lowest card to lead)."""
    actions = state.legal_actions()
    if not actions:
        raise IllegalAction("no_decision_awaited")
    for kind in (act.KeepHand, act.Pass, act.Check, act.Call):
        for action in actions:
            if isinstance(action, kind):
                return action
    return actions[0]


COMPUTERS = Computers(LEVELS, default="hard", make=make_bot, fallback=fallback_action)
"""The computer players as the game's descriptor takes them."""
