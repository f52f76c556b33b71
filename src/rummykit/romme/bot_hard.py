"""The ``hard`` computer player: it remembers, looks ahead exactly, and reads the opponent.

It plays like ``medium`` (goes out when it can, lays what leaves the least penalty) and,
seeing only its seat's `View`, it also

- remembers every card seen this round (the discard pile, the table, the cards an opponent took
  from the discard pile and still holds) and counts the unseen copies of each face;
- picks its discard by looking one draw ahead exactly (`ExactProspects`: what each unseen card
  would let it lay next turn, lay-offs and joker exchanges included) and by sampling the next
  opponent's possible hands (determinized sampling): a discard that would let the opponent go
  out is avoided, and one it could lay at once counts against a card more lightly;
- holds its hand back for Hand-Rommé like ``medium``, but longer: it lays only when an opened
  opponent is down to ``hold_until = 1`` card;
- stays within its time ``budget`` per decision (samples are cut short when time runs out).

Measured against ``medium`` (2 players, mirror-paired, seed 1): when any card a sampled hand
could lay was avoided as strongly as one that lets it go out, ``hard`` won 47.9% of 2,000
rounds; over 1,000 rounds, without the samples 50.5%, with the weights below 49.7% (even:
the intervals are ±3 points). Opening after ten draws, to cut what a held hand pays, changed
nothing (49.9%, tried without the samples). About half the rounds between the two are won by
taking the card the other just threw; counting a discard as riskier the more pairs of unseen
cards make a meld with it (and a copy of the card the next player just threw as safe) did not
help: 52.0% of 102 rounds against 53.9% without it on the same deals (weight 0.6), 45.8% of 48
at weight 1.0.
"""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.romme.bot_levels import MediumBot, penalty_weight
from rummykit.romme.solver import can_use_card, going_out
from rummykit.romme.strategy import (
    ExactProspects,
    Knowledge,
    knowledge,
    opponent_hands,
)
from rummykit.romme.view import View


class HardBot(MediumBot):
    """Card memory, held melds, exact one-draw lookahead and sampled opponent hands."""

    level = "hard"
    hold_until = 1
    memory = True
    shortlist = 5
    samples = 8
    out_weight = 2.0
    """How much a discard that lets the next opponent go out (share of sampled hands) costs."""
    use_weight = 0.5
    """How much a discard the next opponent could lay at once costs."""
    prospects = ExactProspects
    _hands: tuple[tuple[int, int], list[list[Card]]] | None = None

    def discard(self, view: View) -> Card:
        assert view.seat is not None
        know = knowledge(view, memory=True)
        scores = self.closest_to_going_out(view, self.discard_scores(view, know))
        ranked = sorted(scores, key=lambda c: (scores[c], -c.id))
        if len(ranked) <= 1:
            return ranked[0]
        prospects = self.prospects(view, know, self.counts_as_opened(view), self.deadline(0.6))
        weight = penalty_weight(view)
        shortlist = [c for c in ranked[: self.shortlist] if not c.is_joker] or ranked[:1]
        base: list[tuple[float, Card]] = []
        for card in shortlist:
            if base and self.time_left() < 0.4 * self.budget:
                break
            base.append((self.discard_value(view, card, prospects, weight, scores), card))
        # Best first; a card's danger can only lower its value, so once a card's value without
        # danger is below the best found with danger, no later card can win.
        base.sort(key=lambda vc: (-vc[0], vc[1].id))
        best: tuple[float, Card] | None = None
        for value, card in base:
            if best is not None and value <= best[0]:
                break
            value -= self._danger(view, know, card)
            if best is None or value > best[0]:
                best = (value, card)
        assert best is not None
        return best[1]

    def _danger(self, view: View, know: Knowledge, card: Card) -> float:
        """What discarding ``card`` may give the next opponent, over sampled hands of theirs:
        the share that could go out with it (weighted ``out_weight``) and the share that could
        lay it at once (weighted ``use_weight``)."""
        assert view.seat is not None
        seat = (view.seat + 1) % view.players
        if self._hands is None or self._hands[0] != (seat, len(view.log)):
            hands = opponent_hands(view, know, seat, self.samples, self._rng)
            self._hands = ((seat, len(view.log)), hands)
        hands = self._hands[1]
        opened = view.opened[seat]
        used = out = tried = 0
        for hand in hands:
            if tried and self.time_left() < 0.25 * self.budget:
                break
            tried += 1
            if not can_use_card(hand, card, view.table, view.rules, opened):
                continue
            used += 1
            found = going_out(
                [*hand, card], view.rules, opened=opened, table=view.table, picked=card
            )
            out += found is not None
        if not tried:
            return 0.0
        return (self.out_weight * out + self.use_weight * used) / tried
