"""Tables built card by card, and readable traces of what the engine did."""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import parse_cards
from rummykit.rummoli import Box, KeepHand, Pass, Phase, Rules, Start, State
from rummykit.rummoli.rules import BOXES
from rummykit.rummoli.view import Event

SHOWN = ("lead", "play", "colour_change", "stop", "lead_passes", "box_won", "went_out", "blocked")


class Table:
    """A state built from given hands (the rest of the deck is the widow), with the chips and
    the board recorded after every event."""

    def __init__(
        self,
        *hands: str,
        rules: Rules | None = None,
        dealer: int = 0,
        chips: Sequence[int] | None = None,
        board: dict[Box, int] | None = None,
        seed: int = 0,
    ) -> None:
        self.after: list[tuple[Event, list[int], list[int]]] = []
        start = Start(
            chips=None if chips is None else tuple(chips),
            board=None if board is None else tuple(board.get(b, 0) for b in BOXES),
            dealer=dealer,
            hands=tuple(tuple(parse_cards(h)) for h in hands),
        )
        self.state = State(rules or Rules(), len(hands), seed, start=start, listener=self._note)

    def _note(self, event: Event, state: State) -> None:
        self.after.append((event, list(state.chips), list(state.board)))

    def keep_and_pass(self) -> Table:
        """The dealer keeps the hand and nobody bids: the widow stays dead."""
        self.state.apply(KeepHand())
        while self.state.phase is Phase.AUCTION:
            self.state.apply(Pass())
        return self

    def events(self, code: str, hand: int = 1) -> list[Event]:
        return [e for e in self.hand_events(hand) if e["code"] == code]

    def hand_events(self, hand: int = 1) -> list[Event]:
        out: list[Event] = []
        current = 0
        for event, _, _ in self.after:
            if event["code"] == "hand_start":
                current = int(event["hand"])
            if current == hand:
                out.append(event)
        return out

    def at(self, code: str, hand: int = 1) -> tuple[list[int], list[int]]:
        """Chips and board just after the first event ``code`` of the given hand."""
        current = 0
        for event, chips, board in self.after:
            if event["code"] == "hand_start":
                current = int(event["hand"])
            if current == hand and event["code"] == code:
                return chips, board
        raise AssertionError(f"no {code} in hand {hand}")

    def trace(self, hand: int = 1, codes: Sequence[str] = SHOWN) -> list[str]:
        """The sequence as short lines: ``lead 0 2♣``, ``stop in_widow 7♣``, ``box_won 1 …``."""
        lines = []
        for e in self.hand_events(hand):
            code = e["code"]
            if code not in codes:
                continue
            if code in ("lead", "play", "colour_change"):
                lines.append(f"{code} {e['seat']} {e['card']}")
            elif code == "stop":
                lines.append(f"stop {e['reason']} {e.get('missing', e['card'])}")
            elif code == "lead_passes":
                lines.append(f"lead_passes {e['seat']}")
            elif code == "box_won":
                lines.append(f"box_won {e['seat']} {e['box']} {e['chips']}")
            elif code == "went_out":
                lines.append(f"went_out {e['seat']}")
            else:
                lines.append(str(code))
        return lines


def box(board: Sequence[int], which: Box) -> int:
    return board[which.slot]
