"""The Rummoli board: its nine boxes, what each one pays under the rules, and its chips."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.rummoli import Box, Rules
from rummykit.web.errors import N_
from rummykit.web.rummoli.words import CardFace, Translations, card_face, card_text

# --- the boxes --------------------------------------------------------------------------------

LAYOUT: tuple[Box, ...] = (
    Box.TEN_SPADES,
    Box.JACK_DIAMONDS,
    Box.QUEEN_CLUBS,
    Box.POKER,
    Box.RUMMOLI,
    Box.KING_HEARTS,
    Box.SEVEN_EIGHT_NINE,
    Box.KING_ACE_DIAMONDS,
    Box.ACE_SPADES,
)
"""The boxes as the board shows them, row by row, the Rummoli box in the centre."""

BOX_CARDS: dict[Box, tuple[str, ...]] = {
    Box.TEN_SPADES: ("10♠",),
    Box.JACK_DIAMONDS: ("J♦",),
    Box.QUEEN_CLUBS: ("Q♣",),
    Box.KING_HEARTS: ("K♥",),
    Box.ACE_SPADES: ("A♠",),
    Box.KING_ACE_DIAMONDS: ("K♦", "A♦"),
    Box.SEVEN_EIGHT_NINE: ("7♥", "8♥", "9♥"),
    Box.POKER: (),
    Box.RUMMOLI: (),
}
"""The cards drawn on each box (the 7-8-9 box shows one suit as an example)."""


def box_name(box: Box | str, t: Translations) -> str:
    """The name of a box as said in a sentence."""
    box = Box(box)
    if box is Box.POKER:
        return t.gettext("Poker")
    if box is Box.RUMMOLI:
        return "Rummoli"
    if box is Box.SEVEN_EIGHT_NINE:
        return t.gettext("7-8-9")
    if box is Box.KING_ACE_DIAMONDS:
        return f"{card_text('K♦', t)}-{card_text('A♦', t)}"
    return card_text(BOX_CARDS[box][0], t)


RULED: dict[Box, dict[str, str]] = {
    Box.POKER: {
        "showdown": N_(
            "Everyone shows the best five cards of the hand; the best poker hand takes this "
            "box. Equal hands share it, and a chip that cannot be shared stays."
        ),
        "betting": N_(
            "After one round of bets, the last player still in, or the best poker hand "
            "among those still in, takes this box and every bet on it."
        ),
    },
    Box.SEVEN_EIGHT_NINE: {
        "strict": N_(
            "One player plays the 7, 8 and 9 of one suit, one straight after the other, and "
            "takes this box."
        ),
        "last_card": N_(
            "A 7, 8 and 9 of one suit played one after the other, by anyone: whoever plays "
            "the 9 takes this box."
        ),
    },
    Box.KING_ACE_DIAMONDS: {
        "strict": N_("One player plays the %(king)s and straight after it the %(ace)s."),
        "last_card": N_(
            "The %(king)s and then the %(ace)s, played one after the other by anyone: "
            "whoever plays the %(ace)s takes this box."
        ),
    },
}
"""How the boxes that a rule changes are won, by box and that rule's value: ``poker`` for the
Poker box, ``combos`` for the two combinations (``%(king)s`` and ``%(ace)s``: the K♦ and A♦)."""


def box_how(box: Box | str, rules: Rules, t: Translations) -> str:
    """How a box is won, under these rules."""
    box = Box(box)
    if box in RULED:
        rule = rules.poker if box is Box.POKER else rules.combos
        params = {"king": card_text("K♦", t), "ace": card_text("A♦", t)}
        return t.gettext(RULED[box][rule]) % params
    if box is Box.RUMMOLI:
        return t.gettext(
            "The first player to play the last card of the hand takes this box, and one chip "
            "from every other player for each card left in hand. When the hand is blocked, "
            "everyone pays one chip per card left onto this box instead."
        )
    return t.gettext("Whoever plays the %(card)s during the sequence takes this box at once.") % {
        "card": card_text(BOX_CARDS[box][0], t)
    }


@dataclass(frozen=True)
class BoxView:
    """One box of the board for a template."""

    box: str
    name: str
    how: str
    cards: tuple[CardFace, ...]
    """The cards drawn on the box (see `BOX_CARDS`)."""
    chips: int | None
    """The chips on the box; None when `board_boxes` is given no board."""


def board_boxes(rules: Rules, t: Translations, board: Sequence[int] | None = None) -> list[BoxView]:
    """The nine boxes in `LAYOUT` order; ``board`` (chips in `BOXES` order) when in a game."""
    return [
        BoxView(
            box=box.value,
            name=box_name(box, t),
            how=box_how(box, rules, t),
            cards=tuple(card_face(c, t) for c in BOX_CARDS[box]),
            chips=None if board is None else board[box.slot],
        )
        for box in LAYOUT
    ]
