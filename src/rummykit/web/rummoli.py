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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rummykit.core import JSON, IllegalAction
from rummykit.rummoli import BOXES, Box, DemoHand, Rules, demo_hand
from rummykit.web.errors import N_
from rummykit.web.errors import message as error_message
from rummykit.web.language import site_translations
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


def _names(seats: Iterable[Any], names: Sequence[str]) -> list[str]:
    return [names[int(s)] for s in seats]


def join_names(items: Sequence[str], t: Translations) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return t.gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def describe(
    event: Mapping[str, Any], t: Translations, names: Sequence[str], me: int | None = None
) -> str:
    """One engine event as a sentence; ``me`` is the seat of the reader (said "you")."""
    code = str(event.get("code"))
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    mine = seat is not None and seat == me
    _ = t.gettext
    card = card_text(str(event["card"]), t) if "card" in event else ""
    chips = chips_text(int(event["chips"]), t) if isinstance(event.get("chips"), int) else ""
    p: dict[str, Any] = {"seat": who, "card": card, "chips": chips}
    if code == "hand_start":
        if event.get("extra"):
            return _("Extra hand %(hand)s, dealt by %(dealer)s, without ante.") % {
                "hand": event["hand"],
                "dealer": names[int(event["dealer"])],
            }
        return _("Hand %(hand)s: %(dealer)s deals.") % {
            "hand": event["hand"],
            "dealer": names[int(event["dealer"])],
        }
    if code == "player_out":
        if mine:
            return _("You cannot pay the whole ante and leave the game with %(chips)s.") % p
        return _("%(seat)s cannot pay the whole ante and leaves the game with %(chips)s.") % p
    if code == "ante":
        return _("Everyone puts one chip on each of the nine boxes.")
    if code == "deal":
        dealt = [int(c) for c in event["cards"] if int(c)]
        widow = cards_count_text(int(event["widow"]), t)
        if len(set(dealt)) == 1:
            return _(
                "The whole pack is dealt: %(cards)s to each player and %(widow)s to the widow."
            ) % {"cards": cards_count_text(dealt[0], t), "widow": widow}
        return _(
            "The whole pack is dealt: %(most)s or %(fewest)s to each player and %(widow)s to "
            "the widow."
        ) % {
            "most": cards_count_text(max(dealt), t),
            "fewest": cards_count_text(min(dealt), t),
            "widow": widow,
        }
    if code == "widow_kept":
        if mine:
            return _("You keep your hand and put the widow up for auction.")
        return _("%(seat)s keeps the hand and puts the widow up for auction.") % p
    if code == "widow_swapped":
        if mine:
            return _("You take the widow without looking at it; your hand becomes the dead widow.")
        return _("%(seat)s takes the widow unseen; the hand given up becomes the dead widow.") % p
    if code == "bid":
        if mine:
            return _("You bid %(chips)s for the widow.") % p
        return _("%(seat)s bids %(chips)s for the widow.") % p
    if code == "pass":
        if mine:
            return _("You pass.")
        return _("%(seat)s passes.") % p
    if code == "widow_dead":
        return _("Nobody buys the widow: its cards stay out of play for this hand.")
    if code == "auction_won":
        p["to"] = names[int(event["to"])]
        if mine:
            return _("You buy the widow for %(chips)s, paid to %(to)s.") % p
        if event.get("to") == me:
            return _("%(seat)s buys the widow and pays you %(chips)s.") % p
        return _("%(seat)s buys the widow for %(chips)s, paid to %(to)s.") % p
    if code == "check":
        return _("You check.") if mine else _("%(seat)s checks.") % p
    if code == "bet":
        return _("You bet %(chips)s.") % p if mine else _("%(seat)s bets %(chips)s.") % p
    if code == "call":
        if event.get("all_in"):
            if mine:
                return _("You call with your last %(chips)s.") % p
            return _("%(seat)s calls with the last %(chips)s.") % p
        return _("You call: %(chips)s.") % p if mine else _("%(seat)s calls: %(chips)s.") % p
    if code == "raise":
        p["total"] = chips_text(int(event["total"]), t)
        if mine:
            return _("You raise by %(chips)s, to %(total)s.") % p
        return _("%(seat)s raises by %(chips)s, to %(total)s.") % p
    if code == "fold":
        return _("You fold.") if mine else _("%(seat)s folds.") % p
    if code in ("poker_show", "final_show"):
        p["hand"] = _(CATEGORIES[str(event["category"])])
        p["cards"] = cards_text(event["cards"], t)
        if mine:
            return _("You show %(hand)s: %(cards)s.") % p
        return _("%(seat)s shows %(hand)s: %(cards)s.") % p
    if code == "poker_won":
        winners = [int(s) for s in event["seats"]]
        p["seats"] = join_names(_names(winners, names), t)
        p["remainder"] = chips_text(int(event.get("remainder", 0)), t)
        if int(event.get("pot", 0)) > 0:
            text = _(
                "The part of the bets that only some could match goes to %(seats)s: %(chips)s."
            )
        elif len(winners) == 1 and winners[0] == me:
            text = _("You have the best hand and take the Poker box: %(chips)s.")
        elif len(winners) == 1:
            text = _("%(seats)s has the best hand and takes the Poker box: %(chips)s.")
        else:
            text = _("%(seats)s have equal hands and share the Poker box: %(chips)s each.")
        text = text % p
        if int(event.get("remainder", 0)):
            text += " " + _("%(remainder)s cannot be shared and stay on the box.") % p
        return text
    if code == "sequence_start":
        if mine:
            return _("You won the poker hand, so you start the sequence with your lowest card.")
        return _("%(seat)s won the poker hand and starts the sequence with the lowest card.") % p
    if code == "lead":
        if mine:
            return _("You lead %(card)s, your lowest card.") % p
        return _("%(seat)s leads %(card)s, the lowest card in hand.") % p
    if code == "play":
        if mine:
            return _("You hold %(card)s, the next card, and play it.") % p
        return _("%(seat)s holds %(card)s, the next card, and plays it.") % p
    if code == "colour_change":
        red = event.get("colour") == "red"
        if mine:
            if red:
                return _("You change colour with your lowest red card: %(card)s.") % p
            return _("You change colour with your lowest black card: %(card)s.") % p
        if red:
            return _("%(seat)s changes colour with the lowest red card in hand: %(card)s.") % p
        return _("%(seat)s changes colour with the lowest black card in hand: %(card)s.") % p
    if code == "stop":
        reason = event.get("reason")
        if "missing" in event:
            p["missing"] = card_text(str(event["missing"]), t)
        if reason == "ace":
            return _("%(card)s is an ace: the sequence stops.") % p
        if reason == "in_widow":
            return _("The sequence stops after %(card)s: %(missing)s lies in the widow.") % p
        return _("The sequence stops after %(card)s: %(missing)s has already been played.") % p
    if code == "lead_passes":
        p["to"] = names[int(event["to"])]
        black = event.get("colour") == "black"
        if mine:
            if black:
                return _("You have no black card left: the lead passes to %(to)s.") % p
            return _("You have no red card left: the lead passes to %(to)s.") % p
        if black:
            return _("%(seat)s has no black card left: the lead passes to %(to)s.") % p
        return _("%(seat)s has no red card left: the lead passes to %(to)s.") % p
    if code == "box_won":
        p["box"] = box_name(str(event["box"]), t)
        if int(event["chips"]) == 0:
            if mine:
                return _("You win the %(box)s box, but it is empty.") % p
            return _("%(seat)s wins the %(box)s box, but it is empty.") % p
        if mine:
            return _("You win the %(box)s box: %(chips)s.") % p
        return _("%(seat)s wins the %(box)s box: %(chips)s.") % p
    if code == "went_out":
        if mine:
            return _("You have played your last card: you win the hand.")
        return _("%(seat)s has played the last card and wins the hand.") % p
    if code == "payment":
        p["to"] = names[int(event["to"])]
        p["cards"] = cards_count_text(int(event["cards"]), t)
        if mine:
            return _("You pay %(to)s %(chips)s for %(cards)s left in your hand.") % p
        if event.get("to") == me:
            return _("%(seat)s pays you %(chips)s for %(cards)s left in hand.") % p
        return _("%(seat)s pays %(to)s %(chips)s for %(cards)s left in hand.") % p
    if code == "blocked":
        return _("Nobody can change colour: the hand is blocked.")
    if code == "blocked_payment":
        p["cards"] = cards_count_text(int(event["cards"]), t)
        if mine:
            return _("You put %(chips)s on the Rummoli box for %(cards)s left in your hand.") % p
        return _("%(seat)s puts %(chips)s on the Rummoli box for %(cards)s left in hand.") % p
    if code == "hand_end":
        if event.get("outcome") == "blocked":
            return _("End of hand %(hand)s: the Rummoli box waits for the next hand.") % {
                "hand": event["hand"]
            }
        return _("End of hand %(hand)s. Boxes nobody won keep their chips for the next hand.") % {
            "hand": event["hand"]
        }
    if code == "game_end":
        if event.get("reason") == "hands":
            return _("The last hand agreed on has been played: the game ends.")
        return _("Fewer than two players can pay the ante: the game ends.")
    if code == "extra_hands":
        count = int(event["count"])
        return t.ngettext(
            "%(n)s box still holds chips: one more hand is played for it.",
            "%(n)s boxes still hold chips: one more hand is played for each.",
            count,
        ) % {"n": count}
    if code == "final_tie":
        return _("%(seats)s are equal and go again.") % {
            "seats": join_names(_names(event["seats"], names), t)
        }
    if code == "cut":
        if mine:
            return _("You cut %(card)s.") % p
        return _("%(seat)s cuts %(card)s.") % p
    if code == "final_won":
        if mine:
            return _("You take the chips left on the board: %(chips)s.") % p
        return _("%(seat)s takes the chips left on the board: %(chips)s.") % p
    if code == "game_over":
        winners = [int(s) for s in event["winners"]]
        if me is not None and winners == [me]:
            return _("Game over: you have the most chips. Well played!")
        return t.ngettext(
            "Game over: %(seats)s has the most chips.",
            "Game over: %(seats)s share the most chips.",
            len(winners),
        ) % {"seats": join_names(_names(winners, names), t)}
    return _("Something happened that this page cannot describe (%(code)s).") % {"code": code}


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
