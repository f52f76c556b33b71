"""The mechanics of one Rummoli hand on plain lists: sharing the Poker box and the sequence.

This module is the single implementation of those rules. `rummykit.rummoli.game.State` drives it
(with a public event log), and the computer players run it on imagined deals to value a hand
(without a log). Cards are Rummoli indices (`rummykit.rummoli.poker.card_index`): suit * 13 +
rank position, ace high, so the card after ``i`` in its suit is ``i + 1`` unless ``i`` is an ace.

Where each card is: ``holder[i]`` is a seat (0..7), `WIDOW` or `PLAYED`.

How the sequence runs (spec, "The sequence"), and what counts as a choice:

- The starter leads the lowest card of the hand. If the lowest rank is held in several suits,
  the player chooses which: that is a choice (the engine waits).
- The holder of the next card of the suit plays it, whoever that is; a player holding several
  following cards plays them all. These plays are forced: the engine makes them.
- The sequence stops after an ace, or when the next card is in the widow or already played.
- After a stop the player who played the last card leads the lowest card of the other colour
  (red after black, black after red). With equal lowest ranks in the two suits of that colour,
  the player chooses (a choice). Holding no card of that colour, the lead passes to the left,
  to the next player in the hand, and so on; when nobody holds one, the hand is blocked.
- A paying card wins its box the moment it is played; a combo (7-8-9 of one suit, K♦ then A♦)
  wins its box on its last card, under ``combos = "strict"`` only when one player played the
  whole combo in a row, under ``"last_card"`` whoever played the cards before.
- The first player to play the last card wins the hand at once (taking the boxes won by that
  card first): the Rummoli box, and from every other player in the hand one chip per card left,
  as much as each has. A blocked hand costs every player one chip per card left (as much as each
  has), paid onto the Rummoli box.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummykit.core import JSON
from rummykit.rummoli.poker import index_card
from rummykit.rummoli.rules import Box, ComboMode

WIDOW = -1
"""``holder`` value of a card in the widow."""
PLAYED = -2
"""``holder`` value of a card played in this hand's sequence."""

SPADES_10 = 1 * 13 + 8
DIAMONDS_J = 3 * 13 + 9
CLUBS_Q = 0 * 13 + 10
HEARTS_K = 2 * 13 + 11
SPADES_A = 1 * 13 + 12
DIAMONDS_K = 3 * 13 + 11
DIAMONDS_A = 3 * 13 + 12
ACE = 12
NINE = 7  # rank position of the 9 (2 is 0)

PAYING_INDEX: dict[int, int] = {
    SPADES_10: Box.TEN_SPADES.slot,
    DIAMONDS_J: Box.JACK_DIAMONDS.slot,
    CLUBS_Q: Box.QUEEN_CLUBS.slot,
    HEARTS_K: Box.KING_HEARTS.slot,
    SPADES_A: Box.ACE_SPADES.slot,
}
"""Paying card index -> index of its box."""

POKER = Box.POKER.slot
RUMMOLI = Box.RUMMOLI.slot
KING_ACE = Box.KING_ACE_DIAMONDS.slot
SEVEN_EIGHT_NINE = Box.SEVEN_EIGHT_NINE.slot

BLACK_SUITS = (0, 1)  # clubs, spades
RED_SUITS = (2, 3)  # hearts, diamonds
ALL_SUITS = (0, 1, 2, 3)

Emit = Callable[[str, dict[str, JSON]], None]
"""Receives each event (code, parameters) after its effect is applied."""


def colour_of(index: int) -> str:
    """``"red"`` or ``"black"``."""
    return "red" if index // 13 >= 2 else "black"


def code(index: int) -> str:
    """The notation of a card index (``"10♠"``)."""
    return index_card(index).code


def lowest(holder: Sequence[int], seat: int, suits: Sequence[int]) -> list[int]:
    """The seat's cards of lowest rank among the given suits (several when ranks are equal)."""
    for position in range(13):
        found = [s * 13 + position for s in suits if holder[s * 13 + position] == seat]
        if found:
            return found
    return []


def share_poker(
    board: list[int],
    chips: list[int],
    order: Sequence[int],
    live: Sequence[int],
    keys: dict[int, int],
    contributed: dict[int, int] | None = None,
    emit: Emit | None = None,
) -> int:
    """Pay the Poker box to the best hands; return the winner (who starts the sequence).

    ``order`` is every seat in the hand from the dealer's left, ``live`` those who did not fold,
    ``keys`` their hand keys. Without bets (``contributed`` empty or None) the best live hand
    takes the box; equal hands split it and the indivisible chips stay on the box. With bets,
    a player who could not match a bet (all chips in) can win only up to the level put in: the
    box is shared layer by layer (side pots), each layer among the live players who reached it,
    the chips on the box before the betting going with the first layer. The returned winner is
    the winner of the first layer, the tied player nearest the dealer's left on a tie.
    """
    live_set = set(live)
    live_order = [s for s in order if s in live_set]
    if len(live_order) == 1:
        winner = live_order[0]
        amount = board[POKER]
        board[POKER] = 0
        chips[winner] += amount
        if emit is not None:
            emit("poker_won", {"seats": [winner], "chips": amount, "pot": 0, "remainder": 0})
        return winner
    contributed = contributed or {}
    levels = sorted({contributed.get(s, 0) for s in live_order})
    total_bets = sum(contributed.values())
    base = board[POKER] - total_bets
    first_winner = -1
    previous = 0
    for layer, level in enumerate(levels):
        amount = sum(
            min(contributed.get(s, 0), level) - min(contributed.get(s, 0), previous) for s in order
        )
        if layer == 0:
            amount += base
        if layer == len(levels) - 1:
            amount += sum(max(0, contributed.get(s, 0) - level) for s in order)
        eligible = [s for s in live_order if contributed.get(s, 0) >= level]
        best = max(keys[s] for s in eligible)
        winners = [s for s in eligible if keys[s] == best]
        share, remainder = divmod(amount, len(winners))
        for s in winners:
            chips[s] += share
        board[POKER] -= share * len(winners)
        if emit is not None:
            emit(
                "poker_won",
                {"seats": winners, "chips": share, "pot": layer, "remainder": remainder},
            )
        if layer == 0:
            first_winner = winners[0]
        previous = level
    return first_winner


class SequenceRunner:
    """The sequence of one hand, run until a player must choose or the hand ends.

    ``holder``, ``board`` and ``chips`` are the caller's lists, changed in place. ``order`` is
    the seats in the hand, clockwise (each one's left neighbour follows it). After `start` or
    `choose`, either ``awaiting`` holds ``(seat, candidate indices)`` or ``outcome`` is set:
    ``("out", seat)`` or ``("blocked", -1)``.
    """

    __slots__ = (
        "awaiting",
        "board",
        "chips",
        "combos",
        "counts",
        "emit",
        "holder",
        "left_of",
        "order",
        "outcome",
        "plays",
    )

    def __init__(
        self,
        holder: list[int],
        order: Sequence[int],
        board: list[int],
        chips: list[int],
        combos: ComboMode,
        emit: Emit | None = None,
    ) -> None:
        self.holder = holder
        self.order = tuple(order)
        self.board = board
        self.chips = chips
        self.combos = combos
        self.emit = emit
        self.counts = [0] * 8
        for h in holder:
            if h >= 0:
                self.counts[h] += 1
        self.left_of = {s: self.order[(i + 1) % len(self.order)] for i, s in enumerate(self.order)}
        self.plays: list[tuple[int, int]] = []
        self.awaiting: tuple[int, tuple[int, ...]] | None = None
        self.outcome: tuple[str, int] | None = None

    # --- driving ------------------------------------------------------------------------

    def start(self, starter: int) -> None:
        """The starter leads the lowest card of the hand."""
        candidates = lowest(self.holder, starter, ALL_SUITS)
        if len(candidates) > 1:
            self.awaiting = (starter, tuple(candidates))
            return
        self._run(starter, candidates[0], "lead")

    def choose(self, index: int) -> None:
        """The awaited player leads ``index`` (one of the candidates; the caller checked)."""
        assert self.awaiting is not None
        seat, _ = self.awaiting
        self.awaiting = None
        self._run(seat, index, "lead" if not self.plays else "colour_change")

    def finish(self, policy: Callable[[int, tuple[int, ...]], int] | None = None) -> None:
        """Play on to the end of the hand, ``policy(seat, candidates)`` making each choice
        (default: the first candidate, clubs before spades before hearts before diamonds)."""
        while self.awaiting is not None:
            seat, candidates = self.awaiting
            self.choose(candidates[0] if policy is None else policy(seat, candidates))

    # --- the rules ----------------------------------------------------------------------

    def _run(self, seat: int, index: int, kind: str) -> None:
        holder = self.holder
        emit = self.emit
        while True:
            # one lead, then every forced card up to a stop
            self._play(seat, index, kind)
            if self.outcome is not None:
                return
            while True:
                if index % 13 == ACE:
                    reason = "ace"
                    break
                following = index + 1
                h = holder[following]
                if h < 0:
                    reason = "in_widow" if h == WIDOW else "already_played"
                    break
                seat, index = h, following
                self._play(seat, index, "play")
                if self.outcome is not None:
                    return
            red = index // 13 >= 2
            suits = BLACK_SUITS if red else RED_SUITS
            if emit is not None:
                params: dict[str, JSON] = {"reason": reason, "card": code(index), "seat": seat}
                if reason != "ace":
                    params["missing"] = code(index + 1)
                emit("stop", params)
            # the colour change: the last player first, then to the left
            leader = seat
            candidates: list[int] = []
            for _ in range(len(self.order)):
                candidates = lowest(holder, leader, suits)
                if candidates:
                    break
                if emit is not None:
                    emit(
                        "lead_passes",
                        {
                            "seat": leader,
                            "to": self.left_of[leader],
                            "colour": "black" if red else "red",
                        },
                    )
                leader = self.left_of[leader]
            if not candidates:
                self._blocked()
                return
            if len(candidates) > 1:
                self.awaiting = (leader, tuple(candidates))
                return
            seat, index, kind = leader, candidates[0], "colour_change"

    def _play(self, seat: int, index: int, kind: str) -> None:
        self.holder[index] = PLAYED
        self.counts[seat] -= 1
        plays = self.plays
        plays.append((seat, index))
        emit = self.emit
        if emit is not None:
            params: dict[str, JSON] = {"seat": seat, "card": code(index)}
            if kind == "colour_change":
                params["colour"] = colour_of(index)
            emit(kind, params)
        box = PAYING_INDEX.get(index)
        if box is not None:
            self._win(box, seat)
        position = index % 13
        strict = self.combos == "strict"
        if index == DIAMONDS_A and len(plays) >= 2:
            before = plays[-2]
            if before[1] == DIAMONDS_K and (not strict or before[0] == seat):
                self._win(KING_ACE, seat)
        elif position == NINE and len(plays) >= 3:
            eight, seven = plays[-2], plays[-3]
            if (
                eight[1] == index - 1
                and seven[1] == index - 2
                and (not strict or eight[0] == seven[0] == seat)
            ):
                self._win(SEVEN_EIGHT_NINE, seat)
        if self.counts[seat] == 0:
            self._out(seat)

    def _win(self, box: int, seat: int) -> None:
        amount = self.board[box]
        self.board[box] = 0
        self.chips[seat] += amount
        if self.emit is not None:
            self.emit("box_won", {"box": _BOX_NAMES[box], "seat": seat, "chips": amount})

    def _out(self, seat: int) -> None:
        self.outcome = ("out", seat)
        if self.emit is not None:
            self.emit("went_out", {"seat": seat})
        self._win(RUMMOLI, seat)
        start = self.order.index(seat)
        for i in range(1, len(self.order)):
            other = self.order[(start + i) % len(self.order)]
            left = self.counts[other]
            paid = min(left, self.chips[other])
            self.chips[other] -= paid
            self.chips[seat] += paid
            if self.emit is not None:
                self.emit("payment", {"seat": other, "to": seat, "cards": left, "chips": paid})

    def _blocked(self) -> None:
        self.outcome = ("blocked", -1)
        if self.emit is not None:
            self.emit("blocked", {})
        for seat in self.order:
            left = self.counts[seat]
            paid = min(left, self.chips[seat])
            self.chips[seat] -= paid
            self.board[RUMMOLI] += paid
            if self.emit is not None:
                self.emit("blocked_payment", {"seat": seat, "cards": left, "chips": paid})


_BOX_NAMES = [box.value for box in Box]
