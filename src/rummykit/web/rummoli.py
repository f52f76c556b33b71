"""Rummoli on the site: the board, the demonstration hand, and games against the computer.

- ``/{lang}/rummoli/board`` (``rummoli.board``): the nine boxes; touching or focusing a box says
  how it is won. For a game with real cards the page also keeps the chips on each box.
- ``/{lang}/rummoli/demo`` (``rummoli.demo``): one hand of four players played by the engine
  (`rummykit.rummoli.demo_hand`), every hand and the widow face up, stepped through card by
  card with each step said in words; ``?seed=`` picks the deal, ``?hand=`` how many hands were
  played since (the boxes nobody won carry over), ``?step=`` the step shown first.

The sentences come from the engine's event codes and parameters (`describe`), so the same
words serve the demonstration and the log of a game. Their English text is translated by the
catalog domain ``rummoli``.
"""

from __future__ import annotations

import gettext
import json
import secrets
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rummykit.core import JSON, IllegalAction, Record
from rummykit.rummoli import (
    ANTE,
    BOXES,
    Action,
    Box,
    Call,
    Check,
    DemoHand,
    KeepHand,
    Pass,
    Rules,
    State,
    View,
    action_from_json,
    demo_hand,
    replay,
    replay_states,
)
from rummykit.rummoli.bots import make_bot
from rummykit.rummoli.rules import MAX_PLAYERS, MAX_RAISES, MIN_PLAYERS, board_to_json
from rummykit.web.errors import MESSAGES, N_, register
from rummykit.web.errors import message as error_message
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import Level, Option, levels_that_exist
from rummykit.web.rendering import render, request_language, url_for

router = APIRouter()

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


def box_how(box: Box | str, rules: Rules, t: Translations) -> str:
    """How a box is won, under these rules."""
    box = Box(box)
    if box is Box.POKER:
        if rules.poker == "betting":
            return t.gettext(
                "After one round of bets, the last player still in, or the best poker hand "
                "among those still in, takes this box and every bet on it."
            )
        return t.gettext(
            "Everyone shows the best five cards of the hand; the best poker hand takes this "
            "box. Equal hands share it, and a chip that cannot be shared stays."
        )
    if box is Box.RUMMOLI:
        return t.gettext(
            "The first player to play the last card of the hand takes this box, and one chip "
            "from every other player for each card left in hand. When the hand is blocked, "
            "everyone pays one chip per card left onto this box instead."
        )
    if box is Box.SEVEN_EIGHT_NINE:
        if rules.combos == "last_card":
            return t.gettext(
                "A 7, 8 and 9 of one suit played one after the other, by anyone: whoever plays "
                "the 9 takes this box."
            )
        return t.gettext(
            "One player plays the 7, 8 and 9 of one suit, one straight after the other, and "
            "takes this box."
        )
    if box is Box.KING_ACE_DIAMONDS:
        params = {"king": card_text("K♦", t), "ace": card_text("A♦", t)}
        if rules.combos == "last_card":
            return (
                t.gettext(
                    "The %(king)s and then the %(ace)s, played one after the other by anyone: "
                    "whoever plays the %(ace)s takes this box."
                )
                % params
            )
        return (
            t.gettext("One player plays the %(king)s and straight after it the %(ace)s.") % params
        )
    return t.gettext("Whoever plays the %(card)s during the sequence takes this box at once.") % {
        "card": card_text(BOX_CARDS[box][0], t)
    }


def chips_text(n: int, t: Translations) -> str:
    return t.ngettext("%(n)s chip", "%(n)s chips", n) % {"n": n}


def cards_count_text(n: int, t: Translations) -> str:
    return t.ngettext("%(n)s card", "%(n)s cards", n) % {"n": n}


@dataclass(frozen=True)
class BoxView:
    """One box of the board for a template."""

    box: str
    name: str
    how: str
    cards: tuple[CardFace, ...]
    chips: int | None


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


# --- events in words --------------------------------------------------------------------------

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

SAY: dict[str, str] = {
    "hand_start": N_("Hand %(hand)s: %(dealer)s deals."),
    "hand_start_you": N_("Hand %(hand)s: you deal."),
    "hand_start_extra": N_("Extra hand %(hand)s, dealt by %(dealer)s, without ante."),
    "hand_start_extra_you": N_("Extra hand %(hand)s, dealt by you, without ante."),
    "player_out": N_("%(seat)s cannot pay the whole ante and leaves the game with %(chips)s."),
    "player_out_you": N_("You cannot pay the whole ante and leave the game with %(chips)s."),
    "ante": N_("Everyone puts one chip on each of the nine boxes."),
    "deal": N_("The whole pack is dealt: %(cards)s to each player and %(widow)s to the widow."),
    "deal_uneven": N_(
        "The whole pack is dealt: %(most)s or %(fewest)s to each player and %(widow)s to the widow."
    ),
    "widow_kept": N_("%(seat)s keeps the hand and puts the widow up for auction."),
    "widow_kept_you": N_("You keep your hand and put the widow up for auction."),
    "widow_swapped": N_(
        "%(seat)s takes the widow unseen; the hand given up becomes the dead widow."
    ),
    "widow_swapped_you": N_(
        "You take the widow without looking at it; your hand becomes the dead widow."
    ),
    "bid": N_("%(seat)s bids %(chips)s for the widow."),
    "bid_you": N_("You bid %(chips)s for the widow."),
    "pass": N_("%(seat)s passes."),
    "pass_you": N_("You pass."),
    "widow_dead": N_("Nobody buys the widow: its cards stay out of play for this hand."),
    "auction_won": N_("%(seat)s buys the widow for %(chips)s, paid to %(to)s."),
    "auction_won_you": N_("You buy the widow for %(chips)s, paid to %(to)s."),
    "auction_won_to_you": N_("%(seat)s buys the widow and pays you %(chips)s."),
    "check": N_("%(seat)s checks."),
    "check_you": N_("You check."),
    "bet": N_("%(seat)s bets %(chips)s."),
    "bet_you": N_("You bet %(chips)s."),
    "call": N_("%(seat)s calls: %(chips)s."),
    "call_you": N_("You call: %(chips)s."),
    "call_all_in": N_("%(seat)s calls with the last %(chips)s."),
    "call_all_in_you": N_("You call with your last %(chips)s."),
    "raise": N_("%(seat)s raises by %(chips)s, to %(total)s."),
    "raise_you": N_("You raise by %(chips)s, to %(total)s."),
    "fold": N_("%(seat)s folds."),
    "fold_you": N_("You fold."),
    "show": N_("%(seat)s shows %(hand)s: %(cards)s."),
    "show_you": N_("You show %(hand)s: %(cards)s."),
    "poker_won": N_("%(seats)s has the best hand and takes the Poker box: %(chips)s."),
    "poker_won_you": N_("You have the best hand and take the Poker box: %(chips)s."),
    "poker_split": N_("%(seats)s have equal hands and share the Poker box: %(chips)s each."),
    "poker_side_pot": N_(
        "The part of the bets that only some could match goes to %(seats)s: %(chips)s."
    ),
    "poker_remainder": N_("%(remainder)s cannot be shared and stay on the box."),
    "sequence_start": N_(
        "%(seat)s won the poker hand and starts the sequence with the lowest card."
    ),
    "sequence_start_you": N_(
        "You won the poker hand, so you start the sequence with your lowest card."
    ),
    "lead": N_("%(seat)s leads %(card)s, the lowest card in hand."),
    "lead_you": N_("You lead %(card)s, your lowest card."),
    "play": N_("%(seat)s holds %(card)s, the next card, and plays it."),
    "play_you": N_("You hold %(card)s, the next card, and play it."),
    "colour_red": N_("%(seat)s changes colour with the lowest red card in hand: %(card)s."),
    "colour_red_you": N_("You change colour with your lowest red card: %(card)s."),
    "colour_black": N_("%(seat)s changes colour with the lowest black card in hand: %(card)s."),
    "colour_black_you": N_("You change colour with your lowest black card: %(card)s."),
    "stop_ace": N_("%(card)s is an ace: the sequence stops."),
    "stop_widow": N_("The sequence stops after %(card)s: %(missing)s lies in the widow."),
    "stop_played": N_("The sequence stops after %(card)s: %(missing)s has already been played."),
    "lead_passes_black": N_("%(seat)s has no black card left: the lead passes to %(to)s."),
    "lead_passes_black_you": N_("You have no black card left: the lead passes to %(to)s."),
    "lead_passes_red": N_("%(seat)s has no red card left: the lead passes to %(to)s."),
    "lead_passes_red_you": N_("You have no red card left: the lead passes to %(to)s."),
    "lead_passes_black_to_you": N_("%(seat)s has no black card left: the lead passes to you."),
    "lead_passes_red_to_you": N_("%(seat)s has no red card left: the lead passes to you."),
    "box_won": N_("%(seat)s wins the %(box)s box: %(chips)s."),
    "box_won_you": N_("You win the %(box)s box: %(chips)s."),
    "box_empty": N_("%(seat)s wins the %(box)s box, but it is empty."),
    "box_empty_you": N_("You win the %(box)s box, but it is empty."),
    "went_out": N_("%(seat)s has played the last card and wins the hand."),
    "went_out_you": N_("You have played your last card: you win the hand."),
    "payment": N_("%(seat)s pays %(to)s %(chips)s for %(cards)s left in hand."),
    "payment_you": N_("You pay %(to)s %(chips)s for %(cards)s left in your hand."),
    "payment_to_you": N_("%(seat)s pays you %(chips)s for %(cards)s left in hand."),
    "blocked": N_("Nobody can change colour: the hand is blocked."),
    "blocked_payment": N_("%(seat)s puts %(chips)s on the Rummoli box for %(cards)s left in hand."),
    "blocked_payment_you": N_(
        "You put %(chips)s on the Rummoli box for %(cards)s left in your hand."
    ),
    "hand_end": N_("End of hand %(hand)s. Boxes nobody won keep their chips for the next hand."),
    "hand_end_blocked": N_("End of hand %(hand)s: the Rummoli box waits for the next hand."),
    "game_end_hands": N_("The last hand agreed on has been played: the game ends."),
    "game_end_players": N_("Fewer than two players can pay the ante: the game ends."),
    "final_tie": N_("%(seats)s are equal and go again."),
    "cut": N_("%(seat)s cuts %(card)s."),
    "cut_you": N_("You cut %(card)s."),
    "final_won": N_("%(seat)s takes the chips left on the board: %(chips)s."),
    "final_won_you": N_("You take the chips left on the board: %(chips)s."),
    "final_share": N_("%(seat)s gets a share of the chips left on the board: %(chips)s."),
    "final_share_you": N_("You get a share of the chips left on the board: %(chips)s."),
    "game_over_you": N_("Game over: you have the most chips. Well played!"),
    "unknown": N_("Something happened that this page cannot describe (%(code)s)."),
}
"""Every sentence of the log, by key (see `sentence`); the table's script gets them translated."""

SAY_PLURAL: dict[str, tuple[str, str]] = {
    "extra_hands": (
        "%(n)s box still holds chips: one more hand is played for it.",
        "%(n)s boxes still hold chips: one more hand is played for each.",
    ),
    "game_over": (
        "Game over: %(seats)s has the most chips.",
        "Game over: %(seats)s share the most chips.",
    ),
}
"""Sentences whose form follows a number: ``n`` for the boxes, the winners for the end (the
same texts as the ``ngettext`` calls of `say`, which the catalogs are extracted from)."""


CARD_PARAMS = frozenset({"card", "missing"})
COUNT_PARAMS = frozenset({"widow", "most", "fewest"})
CHIP_PARAMS = frozenset({"chips", "total", "remainder"})
SEAT_PARAMS = frozenset({"seat", "to", "dealer"})


def sentence(event: Mapping[str, Any], me: int | None = None) -> tuple[str, dict[str, Any]]:
    """Which sentence tells an event to the reader at seat ``me``, and its raw parameters.

    The parameters stay data (seats, card codes, counts); `say` puts them in words. The table's
    script has the same function (``static/js/rummoli-say.js``), checked against this one.
    """
    code = str(event.get("code"))
    seat = event.get("seat")
    you = "_you" if seat is not None and seat == me else ""
    raw = {k: v for k, v in event.items() if k != "code"}
    if code == "hand_start":
        dealer = "_you" if event.get("dealer") == me else ""
        return ("hand_start_extra" if event.get("extra") else "hand_start") + dealer, raw
    if code in ("player_out", "widow_kept", "widow_swapped", "bid", "pass", "check", "bet"):
        return code + you, raw
    if code in ("raise", "fold", "sequence_start", "lead", "play", "went_out", "cut"):
        return code + you, raw
    if code in ("final_won", "final_share", "blocked_payment", "box_won"):
        if code == "box_won" and event.get("chips") == 0:
            return "box_empty" + you, raw
        return code + you, raw
    if code in ("ante", "widow_dead", "blocked", "final_tie"):
        return code, raw
    if code == "deal":
        dealt = [int(c) for c in event["cards"] if int(c)]
        if len(set(dealt)) == 1:
            return "deal", {"cards": dealt[0], "widow": event["widow"]}
        return "deal_uneven", {"most": max(dealt), "fewest": min(dealt), "widow": event["widow"]}
    if code == "auction_won":
        if not you and event.get("to") == me:
            return "auction_won_to_you", raw
        return "auction_won" + you, raw
    if code == "call":
        return ("call_all_in" if event.get("all_in") else "call") + you, raw
    if code in ("poker_show", "final_show"):
        return "show" + you, raw
    if code == "poker_won":
        winners = list(event["seats"])
        if int(event.get("pot", 0)) > 0:
            return "poker_side_pot", raw
        if len(winners) > 1:
            return "poker_split", raw
        return ("poker_won_you" if winners[0] == me else "poker_won"), raw
    if code == "colour_change":
        return f"colour_{event.get('colour')}" + you, raw
    if code == "stop":
        reason = event.get("reason")
        return {"ace": "stop_ace", "in_widow": "stop_widow"}.get(str(reason), "stop_played"), raw
    if code == "lead_passes":
        to_you = "_to_you" if not you and event.get("to") == me else ""
        return f"lead_passes_{event.get('colour')}" + (you or to_you), raw
    if code == "payment":
        if not you and event.get("to") == me:
            return "payment_to_you", raw
        return "payment" + you, raw
    if code == "hand_end":
        return ("hand_end_blocked" if event.get("outcome") == "blocked" else "hand_end"), raw
    if code == "game_end":
        return ("game_end_hands" if event.get("reason") == "hands" else "game_end_players"), raw
    if code == "extra_hands":
        return "extra_hands", {"n": event["count"]}
    if code == "game_over":
        winners = list(event["winners"])
        if me is not None and winners == [me]:
            return "game_over_you", raw
        return "game_over", {"seats": winners}
    return "unknown", {"code": code}


def _names(seats: Iterable[Any], names: Sequence[str]) -> list[str]:
    return [names[int(s)] for s in seats]


def join_names(items: Sequence[str], t: Translations) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return t.gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def words(name: str, value: Any, t: Translations, names: Sequence[str]) -> str:
    """One parameter of a sentence in words, by its name and kind (see `sentence`)."""
    if name in SEAT_PARAMS and isinstance(value, int):
        return names[value] if 0 <= value < len(names) else str(value)
    if name == "seats" and isinstance(value, list):
        return join_names(_names(value, names), t)
    if name in CARD_PARAMS and isinstance(value, str):
        return card_text(value, t)
    if name == "cards" and isinstance(value, list):
        return cards_text(value, t)
    if (name == "cards" or name in COUNT_PARAMS) and isinstance(value, int):
        return cards_count_text(value, t)
    if name in CHIP_PARAMS and isinstance(value, int):
        return chips_text(value, t)
    if name == "hand" and isinstance(value, str):
        return t.gettext(CATEGORIES[value]) if value in CATEGORIES else value
    if name == "box" and isinstance(value, str):
        return box_name(value, t)
    return str(value)


def say(key: str, raw: Mapping[str, Any], t: Translations, names: Sequence[str]) -> str:
    """The sentence ``key`` with its parameters in words."""
    params = {name: words(name, value, t, names) for name, value in raw.items()}
    if key.startswith("show"):
        params["hand"] = words("hand", raw.get("category"), t, names)
    if key == "extra_hands":
        return (
            t.ngettext(
                "%(n)s box still holds chips: one more hand is played for it.",
                "%(n)s boxes still hold chips: one more hand is played for each.",
                int(raw["n"]),
            )
            % params
        )
    if key == "game_over":
        return (
            t.ngettext(
                "Game over: %(seats)s has the most chips.",
                "Game over: %(seats)s share the most chips.",
                len(raw["seats"]),
            )
            % params
        )
    text = t.gettext(SAY[key]) % params
    if key.startswith("poker_") and int(raw.get("remainder", 0)):
        text += " " + t.gettext(SAY["poker_remainder"]) % params
    return text


def describe(
    event: Mapping[str, Any], t: Translations, names: Sequence[str], me: int | None = None
) -> str:
    """One engine event as a sentence; ``me`` is the seat of the reader (said "you")."""
    key, raw = sentence(event, me)
    return say(key, raw, t, names)


# --- the demonstration hand -------------------------------------------------------------------

DEMO_PLAYERS = 4
DEMO_SEED = 13
"""The first deal shown: every kind of stop, a colour change passed on, a combination won."""
DEMO_NAMES = ("Anna", "Bruno", "Chloé", "David")
MAX_DEMO_HANDS = 40
SEED_LIMIT = 10**9

PHASES = {
    "hand_start": "deal",
    "player_out": "deal",
    "ante": "deal",
    "deal": "deal",
    "widow_kept": "widow",
    "widow_swapped": "widow",
    "bid": "widow",
    "pass": "widow",
    "widow_dead": "widow",
    "auction_won": "widow",
    "poker_show": "poker",
    "poker_won": "poker",
}
PLAYS = ("lead", "play", "colour_change")


@lru_cache(maxsize=64)
def demo_chain(seed: int, hand: int) -> DemoHand:
    """Hand ``hand`` (1 for the first) of the demonstration that starts with deal ``seed``."""
    current = demo_hand(DEMO_PLAYERS, seed)
    for _ in range(hand - 1):
        current = current.next_hand()
    return current


@dataclass(frozen=True)
class Frame:
    """The table just after one step of the demonstration, as the page shows it."""

    code: str
    text: str
    phase: str
    board: tuple[int, ...]
    chips: tuple[int, ...]
    seats: tuple[int, ...]
    marks: tuple[str, ...]
    won: str | None

    def to_json(self) -> dict[str, JSON]:
        return {
            "phase": self.phase,
            "board": list(self.board),
            "chips": list(self.chips),
            "seats": list(self.seats),
            "marks": list(self.marks),
            "won": self.won,
        }


@dataclass(frozen=True)
class SeqCard:
    """A card of the sequence: who played it, at which step, in which run (between stops)."""

    seat: int
    card: str
    step: int
    run: int


@dataclass(frozen=True)
class Run:
    """The cards played between two stops, and the step and words of the stop that ended it."""

    plays: tuple[SeqCard, ...]
    stop_step: int | None
    stop_text: str


@dataclass(frozen=True)
class Demo:
    """Everything the demonstration page shows of one hand."""

    hand: DemoHand
    number: int
    frames: tuple[Frame, ...]
    plays: tuple[SeqCard, ...]
    runs: tuple[Run, ...]
    played_at: dict[str, int]
    """Card code -> the step at which it was played."""
    poker: dict[int, tuple[int, str]]
    """Seat -> (the step of its showdown, the hand's name)."""
    tags: dict[str, tuple[int, str]]
    """Box -> (the step it was won, who won it and how much)."""
    out: tuple[int, int] | None
    """(The seat that went out first, the step), or None for a blocked hand."""


def build_demo(hand: DemoHand, number: int, t: Translations) -> Demo:
    """The frames, the sequence's runs and the per-card steps of one demonstration hand."""
    names = DEMO_NAMES[: hand.players]
    frames: list[Frame] = []
    plays: list[SeqCard] = []
    runs: list[Run] = []
    current: list[SeqCard] = []
    played_at: dict[str, int] = {}
    poker: dict[int, tuple[int, str]] = {}
    tags: dict[str, tuple[int, str]] = {}
    phase = "deal"
    last_card: str | None = None
    out: tuple[int, int] | None = None
    for i, step in enumerate(hand.steps):
        code = step.code
        params: dict[str, Any] = dict(step.params)
        event = {"code": code, **params}
        phase = PHASES.get(code, "end" if code == "hand_end" else "sequence")
        seats: tuple[int, ...] = ()
        marks: tuple[str, ...] = ()
        won: str | None = None
        seat = params.get("seat")
        if isinstance(seat, int):
            seats = (seat,)
        if code in PLAYS:
            card = str(params["card"])
            play = SeqCard(int(params["seat"]), card, i, len(runs))
            plays.append(play)
            current.append(play)
            played_at[card] = i
            last_card = card
            marks = (card,)
        elif code == "stop":
            marks = (str(params["card"]),)
            if "missing" in params:
                marks += (str(params["missing"]),)
            runs.append(Run(tuple(current), i, describe(event, t, names)))
            current = []
        elif code == "poker_show":
            marks = tuple(str(c) for c in params["cards"])
            poker[int(params["seat"])] = (
                i,
                t.gettext(CATEGORY_LABELS[str(params["category"])]),
            )
        elif code == "poker_won":
            seats = tuple(int(s) for s in params["seats"])
        elif code == "box_won":
            won = str(params["box"])
            if last_card is not None and won != Box.RUMMOLI.value:
                marks = (last_card,)
            tags[won] = (i, f"{names[int(params['seat'])]} +{params['chips']}")
        elif code == "went_out":
            out = (int(params["seat"]), i)
        elif code == "payment":
            seats = (int(params["seat"]), int(params["to"]))
        frames.append(
            Frame(
                code=code,
                text=describe(event, t, names),
                phase=phase,
                board=step.board,
                chips=step.chips,
                seats=seats,
                marks=marks,
                won=won,
            )
        )
    if current:
        # The last run ends the hand: the player who went out, or the block.
        ending = next((i for i, f in enumerate(frames) if f.code in ("went_out", "blocked")), None)
        text = "" if ending is None else frames[ending].text
        runs.append(Run(tuple(current), ending, text))
    return Demo(
        hand=hand,
        number=number,
        frames=tuple(frames),
        plays=tuple(plays),
        runs=tuple(runs),
        played_at=played_at,
        poker=poker,
        tags=tags,
        out=out,
    )


def frames_json(frames: Sequence[Frame], t: Translations) -> str:
    """The frames for the page's script, with the chip counts already in words."""
    data = [
        {
            **frame.to_json(),
            "chips_text": [chips_text(n, t) for n in frame.chips],
            "board_text": {box.value: chips_text(frame.board[box.slot], t) for box in BOXES},
        }
        for frame in frames
    ]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise IllegalAction("bad_request", field=name) from None
    if not low <= value <= high:
        raise IllegalAction("bad_request", field=name)
    return value


@router.get("/{lang:lang}/rummoli/demo", name="rummoli.demo")
async def demo_page(request: Request, lang: str) -> Response:
    """The demonstration hand, at ``?step=`` (the first step unless said)."""
    if request.query_params.get("new") is not None:
        seed = secrets.randbelow(SEED_LIMIT)
        target = url_for(request, lang, "rummoli.demo") + f"?seed={seed}"
        return Response(status_code=303, headers={"Location": target})
    t = site_translations(lang)
    seed = _int_param(request, "seed", DEMO_SEED, 0, SEED_LIMIT)
    number = _int_param(request, "hand", 1, 1, MAX_DEMO_HANDS)
    try:
        hand = demo_chain(seed, number)
    except IllegalAction as err:
        if err.code != "demo_over":
            raise
        return render(
            request,
            "rummoli/demo_over.html",
            title=t.gettext("Rummoli demonstration"),
            seed=seed,
            number=number,
        )
    demo = build_demo(hand, number, t)
    last = len(demo.frames) - 1
    step = _int_param(request, "step", 0, 0, 10_000)
    step = min(step, last)
    base = url_for(request, lang, "rummoli.demo")
    can_continue = number < MAX_DEMO_HANDS and sum(1 for c in hand.chips_after if c >= 9) >= 2
    return render(
        request,
        "rummoli/demo.html",
        title=t.gettext("Rummoli demonstration"),
        demo=demo,
        step=step,
        last=last,
        frame=demo.frames[step],
        names=DEMO_NAMES[: hand.players],
        boxes=board_boxes(Rules.preset("demo"), t, demo.frames[step].board),
        hands=[[card_face(c.code, t) for c in h] for h in hand.hands],
        widow=[card_face(c.code, t) for c in hand.widow],
        face=lambda code: card_face(code, t),
        frames_json=frames_json(demo.frames, t),
        step_url=lambda n: f"{base}?seed={seed}&hand={number}&step={n}",
        next_url=f"{base}?seed={seed}&hand={number + 1}" if can_continue else None,
        first_url=f"{base}?seed={seed}" if number > 1 else None,
        new_url=f"{base}?new=1",
        rules_url=url_for(request, lang, "rules.rummoli"),
        board_url=url_for(request, lang, "rummoli.board"),
        chips_text=lambda n: chips_text(n, t),
    )


# --- games against the computer ---------------------------------------------------------------
#
# The play layer (`rummykit.web.play`) stores the games, runs the computer seats and sends each
# seat its view; this adapter tells it what is particular to Rummoli. The table itself is
# drawn by ``static/js/rummoli-game.js`` from the views.

LEVELS = (
    Level("random", N_("Beginner"), N_("Any legal decision, without a plan.")),
    Level(
        "easy",
        N_("Easy"),
        N_("Buys the widow with a poor hand, bets two pairs or better, calls with a pair."),
    ),
    Level(
        "hard",
        N_("Hard"),
        N_("Plays the hand out many times over in its head before each decision."),
    ),
)

OPTIONS = (
    Option(
        "starting_chips",
        N_("Chips per player"),
        N_("Chips each player starts with; 30 to 50 is usual, and the ante is 9 a hand."),
        kind="number",
        low=ANTE,
        high=1000,
    ),
    Option(
        "hands",
        N_("Number of hands"),
        N_(
            "The game ends after this many hands; leave it empty to play on until one player "
            "has all the chips."
        ),
        kind="number",
        low=1,
        high=1000,
        optional=True,
    ),
    Option(
        "poker",
        N_("The poker hand"),
        N_("How the Poker box is won."),
        choices=(
            ("showdown", N_("showdown: everyone shows, the best hand wins")),
            ("betting", N_("one round of bets, then the best hand still in wins")),
        ),
    ),
    Option(
        "max_bet",
        N_("Highest bet"),
        N_("The most chips one bet or raise may add, with bets (at most three raises)."),
        kind="number",
        low=1,
        high=100,
    ),
    Option(
        "combos",
        N_("Combinations"),
        N_("Who wins the 7-8-9 and K-A♦ boxes."),
        choices=(
            ("strict", N_("one player plays the whole combination in a row")),
            ("last_card", N_("its cards follow each other; whoever plays the last one wins")),
        ),
    ),
    Option(
        "widow_payers_barred",
        N_("No widow with a paying card"),
        N_("Nobody holding 10♠, J♦, Q♣, K♥ or A♠ may take the widow, by swap or by auction."),
        kind="bool",
    ),
    Option(
        "final_split",
        N_("Sharing the board at the end"),
        N_("What happens to the chips still on the board when the game ends."),
        choices=(
            ("poker", N_("one last poker hand of five cards: the best takes all")),
            ("cut", N_("everyone cuts the pack: the highest card takes all")),
            ("extra_hands", N_("one more hand for every box that still holds chips")),
        ),
    ),
)

PRESETS: dict[str, tuple[str, dict[str, JSON]]] = {
    "standard": (N_("Standard: showdown poker, strict combinations, 10 hands"), {"hands": 10}),
    "betting": (N_("With bets on the poker hand, 10 hands"), {"poker": "betting", "hands": 10}),
    "house": (
        N_("House rules: no widow with a paying card, loose combinations, 10 hands"),
        {"widow_payers_barred": True, "combos": "last_card", "hands": 10},
    ),
    "long": (N_("Standard, played on until one player has all the chips"), {}),
}
"""The new-game form's rule sets: a label and the options that differ from the defaults."""


def _summary_value(option: Option, value: JSON) -> str:
    if option.kind == "bool":
        return N_("yes") if value else N_("no")
    if option.kind == "number":
        return N_("none") if value is None else str(value)
    return next((text for v, text in option.choices if v == value), str(value))


def hand_events(state: State) -> list[dict[str, JSON]]:
    """The public events of the hand in play (or of the last one, when the game is over)."""
    start = state.hand_starts[-1] if state.hand_starts else 0
    return [dict(e) for e in state.events[start:]]


class RummoliAdapter:
    """Rummoli for the play layer (see `rummykit.web.play.adapter.GameAdapter`)."""

    kind = "rummoli"
    title = N_("Rummoli")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bot_budget = 0.3
    replay_template = "rummoli/replay.html"
    """The replay page draws the Rummoli table (the play layer's own is for the rummy games)."""

    def levels(self) -> Sequence[Level]:
        return levels_that_exist(make_bot, LEVELS)

    def default_level(self) -> str:
        return "hard"

    def options(self) -> Sequence[Option]:
        return OPTIONS

    def presets(self) -> Mapping[str, JSON]:
        return {
            name: Rules().replace(**changes).to_json() for name, (_, changes) in PRESETS.items()
        }

    def preset_labels(self) -> Mapping[str, str]:
        return {name: label for name, (label, _) in PRESETS.items()}

    def rules_from_json(self, data: JSON) -> Rules:
        return Rules.from_json(data)

    def rules_to_json(self, rules: Rules) -> JSON:
        return rules.to_json()

    def new_state(self, rules: Rules, players: int, seed: int) -> State:
        return State(rules, players, seed)

    def replay(self, record: Record) -> State:
        return replay(record)

    def replay_states(self, record: Record) -> Iterator[State]:
        return replay_states(record)

    def action_from_json(self, data: JSON, rules: Rules) -> Action:
        return action_from_json(data)

    def make_bot(self, level: str, seed: int) -> Any:
        return make_bot(level, seed)

    def fallback_action(self, state: State, seat: int) -> Action:
        """A plain legal decision: keep the hand, pass, check or call, lead the first card."""
        actions = state.legal_actions()
        for kind in (KeepHand, Pass, Check, Call):
            for action in actions:
                if isinstance(action, kind):
                    return action
        return actions[0]

    def log(self, state: State) -> Sequence[Mapping[str, JSON]]:
        return state.events

    def client_event(self, event: Mapping[str, JSON]) -> dict[str, JSON]:
        return dict(event)  # cards are already written by their codes

    def client_view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """The seat's view for the page: its own hand only, the other hands as counts, the
        widow's cards only for the seat that gave them up."""
        view = state.view(seat, since=len(state.events))
        rules = view.rules
        shows: dict[str, JSON] = {}
        won: dict[str, JSON] = {}
        for event in hand_events(state):
            if event["code"] == "poker_show":
                shows[str(event["seat"])] = {"category": event["category"], "cards": event["cards"]}
            elif event["code"] == "box_won":
                won[str(event["box"])] = event["seat"]
        return {
            "phase": view.phase.value,
            "hand_number": view.hand_number,
            "hands": rules.hands,
            "dealer": view.dealer,
            "to_move": view.to_move,
            "players": view.players,
            "in_game": list(view.in_game),
            "in_hand": list(view.in_hand),
            "chips": list(view.chips),
            "board": board_to_json(view.board),
            "hand": [c.code for c in view.hand],
            "hand_counts": list(view.hand_counts),
            "widow_count": view.widow_count,
            "widow": None if view.widow is None else [c.code for c in view.widow],
            "plays": [[s, c.code] for s, c in view.plays],
            "high_bid": view.high_bid,
            "high_bidder": view.high_bidder,
            "passed": list(view.passed),
            "contributed": list(view.contributed),
            "folded": list(view.folded),
            "bet_level": view.bet_level,
            "raises": view.raises,
            "max_raises": MAX_RAISES,
            "choices": [c.code for c in view.choices],
            "legal": [a.to_json() for a in view.legal],
            "poker": rules.poker,
            "max_bet": rules.max_bet,
            "combos": rules.combos,
            "shows": shows,
            "won": won,
            "is_over": view.is_over,
        }

    def rules_summary(self, rules: Rules) -> list[tuple[str, str]]:
        values = rules.to_json()
        return [(o.field, _summary_value(o, values[o.field])) for o in OPTIONS]

    def board(self, rules: Rules, lang: str, board: Sequence[int]) -> list[BoxView]:
        """The board of a game for the table's template (its chips as they are now)."""
        return board_boxes(rules, site_translations(lang), board)

    def hint(self, view: View) -> dict[str, JSON]:
        """What the strongest computer player would decide now."""
        if view.seat is None or view.to_move != view.seat:
            raise IllegalAction("not_your_turn", seat=view.seat, to_move=view.to_move)
        action = make_bot("hard", view.hand_number * 1000 + len(view.log)).choose(view)
        return {"action": action.to_json(), "reason": {"code": "hint_" + action.t}}


ADAPTER = RummoliAdapter()

ERRORS = {
    "widow_barred": N_("Holding a paying card, you may not take the widow."),
    "wrong_phase": N_("That cannot be done at this moment of the hand."),
    "bid_too_low": N_("Bid at least %(minimum)s."),
    "bid_above_chips": N_("You have only %(available)s chips."),
    "card_not_held": N_("%(card)s is not in your hand."),
    "not_playable": N_("Lead one of these cards: %(playable)s."),
    "no_betting_round": N_("There are no bets in this game: the poker hand is a showdown."),
    "cannot_check": N_("You owe %(owed)s: call, raise or fold."),
    "already_bet": N_("There is already a bet: call, raise or fold."),
    "nothing_to_raise": N_("Nobody has bet yet: bet or check."),
    "raise_limit": N_("No more raises: there have been %(limit)s."),
    "bet_out_of_range": N_("A bet is 1 to %(maximum)s chips."),
    "bet_above_chips": N_("You have only %(available)s chips."),
    "nothing_to_call": N_("There is nothing to call: check or bet."),
    "bad_players": N_("A game of Rummoli has 2 to 8 players."),
}
"""The sentences of the engine's refusals that the site does not word already."""


def _register_errors() -> None:
    for code, text in ERRORS.items():
        if code not in MESSAGES:
            register({code: text})


_register_errors()


# --- the board --------------------------------------------------------------------------------


@router.get("/{lang:lang}/rummoli/board", name="rummoli.board")
async def board_page(request: Request, lang: str) -> Response:
    """The board: what each box pays, and the chips on each box for a game with real cards."""
    t = site_translations(request_language(request))
    return render(
        request,
        "rummoli/board.html",
        title=t.gettext("Rummoli board"),
        boxes=board_boxes(Rules(), t, [0] * len(BOXES)),
        rules_url=url_for(request, lang, "rules.rummoli"),
        demo_url=url_for(request, lang, "rummoli.demo"),
        chips_text=lambda n: chips_text(n, t),
    )


def error_text(code: str, params: Mapping[str, Any], t: Translations) -> str:
    """A refused action in words (the site's messages, or the generic one)."""
    return error_message(code, params, t)


@router.get("/{lang:lang}/rummoli/say.json", name="rummoli.say")
async def say_json(request: Request, lang: str) -> Response:
    """The sentences and words of the Rummoli table's script, translated (see `client_texts`)."""
    body = json.dumps(client_texts(site_translations(lang)), ensure_ascii=False)
    return Response(
        body,
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"},
    )


CLIENT: dict[str, str] = {
    "computer": N_("Computer %(n)s"),
    "dealer": N_("dealer"),
    "passed": N_("passed"),
    "folded": N_("folded"),
    "bid_of": N_("bid %(chips)s"),
    "in_pot": N_("%(chips)s in the Poker box"),
    "cards_in_hand": N_("%(cards)s in hand"),
    "out_of_game": N_("out of the game"),
    "hand_of": N_("Hand %(hand)s of %(hands)s"),
    "hand_n": N_("Hand %(hand)s"),
    "widow_face_down": N_("The widow: %(cards)s face down"),
    "widow_yours": N_("The widow holds your old hand: it is out of play."),
    "your_turn_widow": N_(
        "You deal. Look at your hand: take the widow unseen, or keep your hand and auction the "
        "widow."
    ),
    "your_turn_bid": N_("The widow is for sale: bid more than %(chips)s, or pass."),
    "your_turn_bid_first": N_("The widow is for sale: make the first bid, or pass."),
    "your_turn_bet": N_("Bets on the poker hand: check or bet."),
    "your_turn_call": N_("Bets on the poker hand: %(owed)s to call. Call, raise or fold."),
    "your_turn_lead": N_("Your lead: choose which of your lowest cards to play."),
    "waiting_for": N_("%(name)s is thinking…"),
    "game_over": N_("The game is over."),
    "take_widow": N_("Take the widow"),
    "keep_hand": N_("Keep my hand and auction the widow"),
    "bid": N_("Bid"),
    "pass": N_("Pass"),
    "check": N_("Check"),
    "bet": N_("Bet"),
    "call": N_("Call %(chips)s"),
    "raise": N_("Raise by"),
    "fold": N_("Fold"),
    "chips_label": N_("Chips"),
    "lead_card": N_("Lead %(card)s"),
    "next_hand": N_("Go on"),
    "hand_over": N_("Hand %(hand)s is over."),
    "standings": N_("Chips"),
    "sent": N_("Sending…"),
    "connection_lost": N_("Connection lost: reconnecting…"),
    "winner": N_("most chips"),
    "step_of": N_("Step %(n)s of %(total)s"),
    "start_of_game": N_("Start of the game"),
    "played_by": N_("%(card)s, played by %(name)s"),
}
"""The table's own words (buttons, prompts, labels)."""


def client_texts(t: Translations) -> dict[str, JSON]:
    """Everything the table's script words itself with, in one language: the sentences of the
    log (`SAY`, by key, and the two that follow a number), the table's own words (`CLIENT`),
    the ranks, the boxes and the poker hands, and the forms of "n chips" and "n cards"."""
    plural: dict[str, JSON] = {}
    for key, (singular, many) in SAY_PLURAL.items():
        plural[key] = {"one": t.ngettext(singular, many, 1), "other": t.ngettext(singular, many, 2)}
    for key, (singular, many) in {
        "chips": ("%(n)s chip", "%(n)s chips"),
        "cards": ("%(n)s card", "%(n)s cards"),
    }.items():
        plural[key] = {"one": t.ngettext(singular, many, 1), "other": t.ngettext(singular, many, 2)}
    return {
        "say": {key: t.gettext(text) for key, text in SAY.items()},
        "plural": plural,
        "client": {key: t.gettext(text) for key, text in CLIENT.items()}
        | {"you": t.pgettext("the player's own seat", "You")},
        "ranks": {rank: rank_text(rank, t) for rank in ("J", "Q", "K", "A")},
        "names": {code: card_name(code, t) for code in _ALL_CODES},
        "boxes": {box.value: box_name(box, t) for box in BOXES},
        "how": {
            f"{box.value}:{poker}:{combos}": box_how(box, Rules(poker=poker, combos=combos), t)
            for box in BOXES
            for poker in ("showdown", "betting")
            for combos in ("strict", "last_card")
        },
        "categories": {key: t.gettext(text) for key, text in CATEGORIES.items()},
        "labels": {key: t.gettext(text) for key, text in CATEGORY_LABELS.items()},
        "and": t.gettext("%(first)s and %(last)s"),
    }


_ALL_CODES = tuple(
    f"{rank}{suit}"
    for suit in "♣♠♥♦"
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
)


# The game pages (new-game form, table, replay) come last: their /{lang}/rummoli/{game_id}
# must not take the fixed paths above.
from rummykit.web.play.pages import game_pages  # noqa: E402

router.include_router(game_pages("rummoli"))
