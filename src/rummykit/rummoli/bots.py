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
  the same playouts.

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

from rummykit.core import IllegalAction
from rummykit.rummoli.actions import (
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
)
from rummykit.rummoli.game import State
from rummykit.rummoli.poker import Category, card_index, key_of_indices
from rummykit.rummoli.table import (
    PAYING_INDEX,
    PLAYED,
    POKER,
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
            return SwapWidow() if category == Category.HIGH_CARD else KeepHand()
        if view.phase is Phase.AUCTION:
            bid = Bid(view.high_bid + 1)
            if category == Category.HIGH_CARD and bid.chips <= 3 and bid in legal:
                return bid
            return Pass()
        if view.phase is Phase.LEAD:
            return legal[0]
        return _bet_by_category(legal, category)


def _bet_by_category(legal: Sequence[Action], category: Category) -> Action:
    if category >= Category.TWO_PAIR:
        for wanted in (Raise(1), Bet(1), Call(), Check()):
            if wanted in legal:
                return wanted
    if category == Category.PAIR:
        for wanted in (Check(), Call()):
            if wanted in legal:
                return wanted
    return Check() if Check() in legal else Fold()


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
            return SwapWidow() if gain > 0 else KeepHand()
        if view.phase is Phase.AUCTION:
            self._note_bid(view)
            limit = int(self.swap_gain(view))
            bid = Bid(view.high_bid + 1)
            return bid if bid.chips <= limit and bid in view.legal else Pass()
        if view.phase is Phase.LEAD:
            return self.lead(view)
        return self._bet(view)

    # --- imagined deals -------------------------------------------------------------------

    def _deals(self, view: View) -> list[list[int]]:
        """``samples`` deals of the unseen cards consistent with the view: holder lists."""
        assert view.seat is not None
        base = [-3] * 52
        for card in view.hand:
            base[card_index(card)] = view.seat
        for _, card in view.plays:
            base[card_index(card)] = PLAYED
        if view.widow is not None:
            for card in view.widow:
                base[card_index(card)] = WIDOW
        unseen = [i for i in range(52) if base[i] == -3]
        slots: list[int] = []
        for seat in view.in_hand:
            if seat != view.seat:
                slots.extend([seat] * view.hand_counts[seat])
        if view.widow is None:
            slots.extend([WIDOW] * view.widow_count)
        deals = []
        for _ in range(self.samples):
            self.rng.shuffle(unseen)
            holder = list(base)
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
        return Play(view.choices[best])

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
        raises = [a for a in legal if isinstance(a, Raise | Bet)]
        if strong and raises:
            return max(raises, key=lambda a: a.chips if equity > 0.6 else -a.chips)
        if owed == 0:
            return Check()
        if Call() in legal and equity * (pot + owed) >= owed:
            return Call()
        return Fold()


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


__all__ = ["LEVELS", "Bot", "EasyBot", "HardBot", "RandomBot", "make_bot"]


def fallback_action(state: State, seat: int) -> Action:
    """The safe decision at once (a computer seat out of time, a turn timer): keep the hand,
    pass, check or call, else the first choice offered (the lowest card to lead)."""
    actions = state.legal_actions()
    if not actions:
        raise IllegalAction("no_decision_awaited")
    for kind in (KeepHand, Pass, Check, Call):
        for action in actions:
            if isinstance(action, kind):
                return action
    return actions[0]
