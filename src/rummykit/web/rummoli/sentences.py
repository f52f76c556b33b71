"""Rummoli's engine events in words, for the reader at a seat (said "you").

The sentences come from the engine's event codes and parameters (`describe`), so the same words
serve the demonstration and the log of a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rummykit.core import JSON
from rummykit.web.errors import N_
from rummykit.web.play.sentences import Reader, describes, join_names
from rummykit.web.rummoli.board import box_name
from rummykit.web.rummoli.words import (
    CATEGORIES,
    Translations,
    card_text,
    cards_count_text,
    cards_text,
    chips_text,
)

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
"""Every sentence of the log, by key (see `sentence`), translated on the server for the reader."""

CARD_PARAMS = frozenset({"card", "missing"})
COUNT_PARAMS = frozenset({"widow", "most", "fewest"})
CHIP_PARAMS = frozenset({"chips", "total", "remainder"})
SEAT_PARAMS = frozenset({"seat", "to", "dealer"})


def sentence(event: Mapping[str, Any], me: int | None = None) -> tuple[str, dict[str, Any]]:
    """Which sentence tells an event to the reader at seat ``me``, and its raw parameters.

    The parameters stay data (seats, card codes, counts); `say` puts them in words.
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
        text = t.ngettext(
            "%(n)s box still holds chips: one more hand is played for it.",
            "%(n)s boxes still hold chips: one more hand is played for each.",
            int(raw["n"]),
        )
    elif key == "game_over":
        text = t.ngettext(
            "Game over: %(seats)s has the most chips.",
            "Game over: %(seats)s share the most chips.",
            len(raw["seats"]),
        )
    else:
        text = t.gettext(SAY[key])
    text %= params
    if key.startswith("poker_") and int(raw.get("remainder", 0)):
        text += " " + t.gettext(SAY["poker_remainder"]) % params
    return text


def describe(
    event: Mapping[str, Any], t: Translations, names: Sequence[str], me: int | None = None
) -> str:
    """One engine event as a sentence; ``me`` is the seat of the reader (said "you")."""
    key, raw = sentence(event, me)
    return say(key, raw, t, names)


@describes("rummoli")
def sentences(event: Mapping[str, JSON], reader: Reader) -> list[str]:
    """A Rummoli event for the play layer's log (one sentence, see `describe`)."""
    return [describe(event, reader.t, reader.names, reader.seat)]
