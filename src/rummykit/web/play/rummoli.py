"""Rummoli for the play layer: its computer levels, its rule options and presets on the new-game
form, the seat's view for the table, and the table's own words (domain ``rummoli``).

The play layer (`rummykit.web.play`) stores the games, runs the computer seats and sends each
seat its view; this adapter tells it what is particular to Rummoli. The table itself is drawn by
``static/js/rummoli-game.js`` from the views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.core import JSON
from rummykit.rummoli import ANTE, GAME, Action, Rules, State, View
from rummykit.rummoli.rules import MAX_RAISES, board_to_json
from rummykit.web.errors import N_, register_missing
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import FormPreset, Level, PlayGame, choice, flag, number
from rummykit.web.play.sentences import Reader, advises
from rummykit.web.rummoli.board import BoxView, board_boxes
from rummykit.web.rummoli.words import (
    CATEGORY_LABELS,
    Translations,
    card_name,
    card_text,
    chips_text,
    rank_text,
)

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
    number(
        "starting_chips",
        N_("Chips per player"),
        N_("Chips each player starts with; 30 to 50 is usual, and the ante is 9 a hand."),
        ANTE,
        1000,
    ),
    number(
        "hands",
        N_("Number of hands"),
        N_(
            "The game ends after this many hands; leave it empty to play on until one player "
            "has all the chips."
        ),
        1,
        1000,
        optional=True,
    ),
    choice(
        "poker",
        N_("The poker hand"),
        N_("How the Poker box is won."),
        ("showdown", N_("showdown: everyone shows, the best hand wins")),
        ("betting", N_("one round of bets, then the best hand still in wins")),
    ),
    number(
        "max_bet",
        N_("Highest bet"),
        N_("The most chips one bet or raise may add, with bets (at most three raises)."),
        1,
        100,
    ),
    choice(
        "combos",
        N_("Combinations"),
        N_("Who wins the 7-8-9 and K-A♦ boxes."),
        ("strict", N_("one player plays the whole combination in a row")),
        ("last_card", N_("its cards follow each other; whoever plays the last one wins")),
    ),
    flag(
        "widow_payers_barred",
        N_("No widow with a paying card"),
        N_("Nobody holding 10♠, J♦, Q♣, K♥ or A♠ may take the widow, by swap or by auction."),
    ),
    choice(
        "final_split",
        N_("Sharing the board at the end"),
        N_("What happens to the chips still on the board when the game ends."),
        ("poker", N_("one last poker hand of five cards: the best takes all")),
        ("cut", N_("everyone cuts the pack: the highest card takes all")),
        ("extra_hands", N_("one more hand for every box that still holds chips")),
    ),
)

PRESETS = {
    "standard": FormPreset(
        N_("Standard: showdown poker, strict combinations, 10 hands"), "standard", {"hands": 10}
    ),
    "betting": FormPreset(N_("With bets on the poker hand, 10 hands"), "betting", {"hands": 10}),
    "house": FormPreset(
        N_("House rules: no widow with a paying card, loose combinations, 10 hands"),
        "house",
        {"hands": 10},
    ),
    "long": FormPreset(N_("Standard, played on until one player has all the chips"), "standard"),
}
"""The new-game form's rule sets: the engine's preset each starts from, and its number of
hands."""


def hand_events(state: State) -> list[dict[str, JSON]]:
    """The public events of the hand in play (or of the last one, when the game is over)."""
    start = state.hand_starts[-1] if state.hand_starts else 0
    return [dict(e) for e in state.events[start:]]


def client_view(state: State, seat: int | None) -> dict[str, JSON]:
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


@dataclass(frozen=True)
class RummoliGame(PlayGame[Rules, State, View, Action]):
    """Rummoli for the play layer; its pages also draw the board."""

    def board(self, rules: Rules, lang: str, board: Sequence[int]) -> list[BoxView]:
        """The board of a game for the table's template (its chips as they are now)."""
        return board_boxes(rules, site_translations(lang), board)


HINTS: dict[str, str] = {
    "take_widow": N_("Take the widow: on average it brings back more chips than your hand."),
    "keep_hand": N_("Keep your hand: on average it brings back more chips than the widow."),
    "bid_for_widow": N_("Bid %(chips)s: the widow is worth up to %(most)s to you."),
    "pass_widow": N_("Pass: the widow is not worth a higher bid to you."),
    "bet_strong": N_("Bet %(chips)s: your chance of taking the Poker box is %(chance)s%%."),
    "check": N_("Check: your chance of taking the Poker box is %(chance)s%%."),
    "call_worth_it": N_(
        "Call %(owed)s: with a %(chance)s%% chance of taking %(pot)s, calling pays on average."
    ),
    "fold_weak": N_("Fold: a %(chance)s%% chance of taking the Poker box is not worth %(owed)s."),
    "lead_only_card": N_("Lead %(card)s: it is the only card you may lead."),
    "lead_best_card": N_(
        "Lead %(card)s: of the cards you may lead, it brings back the most chips on average."
    ),
}
"""The hints' reasons in words, by the codes of `rummykit.rummoli.hint`."""


@advises("rummoli")
def hint_words(reason: Mapping[str, JSON], reader: Reader) -> str:
    """A Rummoli hint's reason in words: chips counted, cards as printed."""
    t = reader.t
    params: dict[str, object] = dict(reason)
    for name in ("chips", "most", "owed", "pot"):
        value = reason.get(name)
        if isinstance(value, int):
            params[name] = chips_text(value, t)
    if isinstance(reason.get("card"), str):
        params["card"] = card_text(str(reason["card"]), t)
    return t.gettext(HINTS[str(reason.get("code"))]) % params


ADAPTER = RummoliGame(
    GAME,
    title=N_("Rummoli"),
    offered=LEVELS,
    option_list=OPTIONS,
    form_presets=PRESETS,
    bot_budget=0.3,
    draw_view=client_view,
    replay_template="rummoli/replay.html",
    travels=False,
)
"""Rummoli for the play layer; the replay page draws the Rummoli table (the play layer's own is
for the rummy games). Its computer seats keep one bot each for the whole game, thinking in
threads of the server, as before the descriptors: the hard bot keeps its valuation of the
widow from the dealer's decision to the auction."""

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
}
"""The sentences of the engine's refusals that the site does not word already."""


register_missing(ERRORS)


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
    # what the table is doing while the steps of the others and of the forced sequence pass
    "status_deal": N_("A new hand: the chips go on the board and the cards are dealt."),
    "status_widow": N_("The dealer decides about the widow."),
    "status_auction": N_("The widow is being auctioned."),
    "status_poker": N_("The poker hand is being played."),
    "status_sequence": N_("The sequence: whoever holds the next card plays it."),
    "status_end": N_("The game ends: the chips left on the board are won or shared out."),
    "status_own_card": N_("The sequence: you hold %(card)s, so it is played."),
    "your_card_now": N_("The sequence comes to you: you hold %(card)s."),
    "play_card": N_("Play %(card)s"),
}
"""The table's own words (buttons, prompts, labels)."""


def client_texts(t: Translations) -> dict[str, JSON]:
    """Everything the table's script words itself with, in one language: the table's own words
    (`CLIENT`), the ranks and names of the cards, the poker hands, and the forms of "n chips"
    and "n cards". The sentences of the log come with each event (its ``text``)."""
    plural: dict[str, JSON] = {}
    for key, (singular, many) in {
        "chips": ("%(n)s chip", "%(n)s chips"),
        "cards": ("%(n)s card", "%(n)s cards"),
    }.items():
        plural[key] = {"one": t.ngettext(singular, many, 1), "other": t.ngettext(singular, many, 2)}
    return {
        "plural": plural,
        "client": {key: t.gettext(text) for key, text in CLIENT.items()}
        | {"you": t.pgettext("the player's own seat", "You")},
        "ranks": {rank: rank_text(rank, t) for rank in ("J", "Q", "K", "A")},
        "names": {code: card_name(code, t) for code in _ALL_CODES},
        "labels": {key: t.gettext(text) for key, text in CATEGORY_LABELS.items()},
    }


_ALL_CODES = tuple(
    f"{rank}{suit}"
    for suit in "♣♠♥♦"
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
)


# The game pages (new-game form, table, replay) come last: their /{lang}/rummoli/{game_id}
