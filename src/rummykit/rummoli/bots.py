"""Computer players for Rummoli. A bot sees only a `View` and returns one of ``view.legal``.

- ``random``: any legal action, uniformly.
- ``easy``: rules of thumb from the poker category alone: swap or buy the widow with a hand
  that holds no pair (for at most 3 chips), bet two pairs or better, call with a pair.
- ``hard``: values a hand by playing the rest of the hand out on imagined deals of the unseen
  cards (determinized sampling, with the engine's own showdown and sequence code): the value is
  the chips the hand brings back, which weighs at once its poker strength, its paying cards
  and its chances in the sequence (going out first, not being caught with many cards). It
  takes or buys the widow when that expected value is higher and bids up to the difference;
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
from rummykit.rummoli.table import PLAYED, POKER, WIDOW, SequenceRunner, share_poker
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


def _need_turn(view: View) -> None:
    if not view.legal:
        raise IllegalAction("not_your_turn", seat=view.seat, to_move=view.to_move)


class RandomBot:
    """Any legal action, uniformly at random."""

    level = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        _need_turn(view)
        return self.rng.choice(view.legal)


def _category(view: View) -> Category:
    return Category(key_of_indices(card_index(c) for c in view.hand) >> 20)


class EasyBot:
    """Rules of thumb on the poker category of the hand, nothing else."""

    level = "easy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        _need_turn(view)
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


class HardBot:
    """Values decisions by playing the hand out on sampled deals of the unseen cards."""

    level = "hard"

    def __init__(self, seed: int, samples: int = 128) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self._widow_gain: tuple[tuple[int, int, int], float] | None = None

    def choose(self, view: View) -> Action:
        _need_turn(view)
        if view.phase is Phase.WIDOW:
            return SwapWidow() if self.swap_gain(view) > 0 else KeepHand()
        if view.phase is Phase.AUCTION:
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
    def _play_out(view: View, holder: list[int], live: Sequence[int]) -> int:
        """The seat's chips after the showdown and the sequence on this deal."""
        assert view.seat is not None
        board = list(view.board)
        chips = list(view.chips)
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
