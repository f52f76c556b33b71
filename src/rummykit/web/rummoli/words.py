"""Rummoli's words: cards, counts of chips and cards, and poker hands, in the page's language.

The English texts are translated by the catalog domain ``rummoli``.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable
from dataclasses import dataclass

from rummykit.web.errors import N_

Translations = gettext.NullTranslations

# --- cards ------------------------------------------------------------------------------------

SUIT_NAMES = {
    "♣": N_("%(rank)s of clubs"),
    "♠": N_("%(rank)s of spades"),
    "♥": N_("%(rank)s of hearts"),
    "♦": N_("%(rank)s of diamonds"),
}
RANK_NAMES = {"J": N_("jack"), "Q": N_("queen"), "K": N_("king"), "A": N_("ace")}
RED = frozenset("♥♦")


def split_code(code: str) -> tuple[str, str]:
    """``"10♠"`` -> ``("10", "♠")``."""
    return code[:-1], code[-1]


def rank_text(rank: str, t: Translations) -> str:
    """The rank as printed on the card in the page's language (``J`` is ``V`` in French)."""
    if rank == "J":
        return t.pgettext("card rank", "J")
    if rank == "Q":
        return t.pgettext("card rank", "Q")
    if rank == "K":
        return t.pgettext("card rank", "K")
    if rank == "A":
        return t.pgettext("card rank", "A")
    return rank


def card_text(code: str, t: Translations) -> str:
    """A card as written in a sentence: the translated rank and the suit symbol (``V♦``)."""
    rank, suit = split_code(code)
    return rank_text(rank, t) + suit


def card_name(code: str, t: Translations) -> str:
    """A card's full name, for screen readers (``queen of clubs``)."""
    rank, suit = split_code(code)
    spoken = t.gettext(RANK_NAMES[rank]) if rank in RANK_NAMES else rank
    return t.gettext(SUIT_NAMES[suit]) % {"rank": spoken}


def cards_text(codes: Iterable[str], t: Translations) -> str:
    return " ".join(card_text(c, t) for c in codes)


@dataclass(frozen=True)
class CardFace:
    """What a template needs to draw a card."""

    code: str
    rank: str
    suit: str
    red: bool
    name: str


def card_face(code: str, t: Translations) -> CardFace:
    rank, suit = split_code(code)
    return CardFace(code, rank_text(rank, t), suit, suit in RED, card_name(code, t))


def chips_text(n: int, t: Translations) -> str:
    return t.ngettext("%(n)s chip", "%(n)s chips", n) % {"n": n}


def cards_count_text(n: int, t: Translations) -> str:
    return t.ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}


CATEGORIES = {
    "high_card": N_("a high card"),
    "pair": N_("a pair"),
    "two_pair": N_("two pair"),
    "three_of_a_kind": N_("three of a kind"),
    "straight": N_("a straight"),
    "flush": N_("a flush"),
    "full_house": N_("a full house"),
    "four_of_a_kind": N_("four of a kind"),
    "straight_flush": N_("a straight flush"),
}
"""The poker hands as said in a sentence ("shows a flush")."""

CATEGORY_LABELS = {
    "high_card": N_("High card"),
    "pair": N_("One pair"),
    "two_pair": N_("Two pair"),
    "three_of_a_kind": N_("Three of a kind"),
    "straight": N_("Straight"),
    "flush": N_("Flush"),
    "full_house": N_("Full house"),
    "four_of_a_kind": N_("Four of a kind"),
    "straight_flush": N_("Straight flush"),
}
"""The poker hands' names on their own (a label next to a player)."""
