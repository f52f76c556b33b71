"""The sentences of the game pages: the engines' error codes and the texts the table's scripts
show (events of the log, hints, prompts), all in the catalog domain ``play``.

Error codes go through the site's mechanism (`rummykit.web.errors.register_missing`); the
scripts get their texts already translated, as one JSON object per page (`client_messages`), and
fill the ``%(name)s`` placeholders themselves.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from typing import Any

from rummykit.core import IllegalAction
from rummykit.web import errors
from rummykit.web.errors import N_

ERRORS: dict[str, str] = {
    # The play layer
    "bad_game": N_("There is no such game."),
    "not_your_game": N_("This game was started in another browser: only that browser can play it."),
    "game_not_over": N_("A game can be replayed once it is over."),
    "rematch_too_soon": N_("A rematch can start once the game is over."),
    "game_changed": N_("The game moved on a moment ago: here it is as it is now."),
    "game_finished": N_("The game is over."),
    "hint_timeout": N_("The computer needed too long to think: ask again."),
    "bad_level": N_("There is no computer player of that level."),
    "bad_bot": N_("There is no computer player of that level."),
    "bad_seat": N_("There is no such seat at this table."),
    "bad_rules": N_("This option is not valid: %(field)s."),
    "bad_opponents": N_("Choose from %(minimum)s to %(maximum)s computer opponents."),
    "bad_players": N_("This game is not played by that number of players."),
    # Both games
    "not_your_turn": N_("It is not your turn."),
    "round_over": N_("The round is over: start the next one."),
    "round_not_over": N_("The round is still being played."),
    # Rommé
    "must_draw_first": N_("Draw a card first, from the stock or the discard pile."),
    "already_drawn": N_("You have already drawn a card in this turn."),
    "already_played": N_("You have laid your cards for this turn: now discard one."),
    "discard_pile_empty": N_("The discard pile is empty."),
    "discard_unusable": N_(
        "You may take %(card)s only to meld it in this turn, and your hand cannot use it."
    ),
    "card_not_in_hand": N_("%(card)s is not in your hand."),
    "discard_picked_card": N_(
        "%(card)s came from the discard pile in this turn: it cannot go straight back."
    ),
    "picked_card_unused": N_("Meld %(card)s, taken from the discard pile, before you discard."),
    "picked_card_not_in_opening": N_(
        "%(card)s, taken from the discard pile, must be part of your first meld."
    ),
    "empty_play": N_("Lay at least one card first."),
    "not_a_joker": N_("%(card)s is not a joker."),
    "exchange_needs_natural": N_("A joker is exchanged for a natural card, not another joker."),
    "card_used_twice": N_("%(card)s is used twice."),
    "invalid_meld": N_("%(cards)s is neither a group nor a run."),
    "ambiguous_meld": N_(
        "%(cards)s can be read in several ways: put the joker where you mean it and lay again."
    ),
    "layoff_before_opening": N_(
        "You can add cards to the melds on the table once you have opened."
    ),
    "exchange_before_opening": N_("You can exchange a joker once you have opened."),
    "opening_below_minimum": N_(
        "Your first meld counts %(value)s points: it needs at least %(minimum)s."
    ),
    "opening_needs_run": N_("Your first meld needs a run."),
    "opening_with_joker": N_("Your first meld may not hold a joker."),
    "unknown_meld": N_("There is no such meld on the table."),
    "joker_not_in_meld": N_("That joker is not in this meld."),
    "wrong_exchange_card": N_("This joker stands for %(stands_for)s, not for %(card)s."),
    "invalid_layoff": N_("%(card)s does not fit this meld."),
    "freed_joker_not_laid": N_("Lay the joker you took from the table again in this turn."),
    "last_card_melded": N_("Keep a card to discard: you go out by discarding your last card."),
    "no_card_to_discard": N_(
        "Keep a card you can discard: %(card)s came from the discard pile in this turn."
    ),
    "bad_joker_meaning": N_("This joker cannot stand for that card."),
    "bad_card": N_("This is not a card of the game."),
    "duplicate_card": N_("A card is named twice."),
    # Tile rummy
    "duplicate_tile": N_("A tile is used twice."),
    "tile_not_held": N_("%(tile)s is not on your rack."),
    "table_tile_missing": N_("Every tile on the table must stay there: %(tiles)s is missing."),
    "joker_kept_in_rack": N_("A joker taken from the table must be played again on the table."),
    "no_rack_tile_played": N_("Play at least one tile from your rack, or draw."),
    "first_meld_uses_table": N_(
        "Your first meld is made from your rack alone: leave the sets on the table as they are."
    ),
    "first_meld_below_minimum": N_(
        "Your first meld counts %(value)s points: it needs at least %(minimum)s."
    ),
    "set_too_small": N_("%(tiles)s: a set needs at least 3 tiles."),
    "set_of_jokers": N_("%(tiles)s: a set needs a tile that is not a joker."),
    "duplicate_colour_in_group": N_("%(tiles)s: the tiles of a group all have different colours."),
    "group_too_large": N_("%(tiles)s: a group has at most 4 tiles."),
    "duplicate_number_in_run": N_("%(tiles)s: a run cannot hold a number twice."),
    "run_not_consecutive": N_("%(tiles)s: the numbers of a run follow each other."),
    "run_out_of_range": N_("%(tiles)s: a run stays between 1 and 13."),
    "tile_out_of_range": N_("%(tile)s is not a tile of this game."),
    "joker_meaning_mismatch": N_("%(joker)s cannot stand for %(stated)s here."),
    "invalid_set": N_("%(tiles)s is neither a group nor a run."),
    "joker_retrieval_not_at_end": N_(
        "Only a joker at the end of a run, or in a group, may be taken back."
    ),
    "joker_not_replaced": N_(
        "To move the joker that stands for %(stands)s, play that tile from your rack in this turn."
    ),
    "bad_tile": N_("This is not a tile of the game."),
}

RENAMED = {"game_over": "game_finished"}
"""Engine codes whose site-wide sentence means something else (the score sheet's limit)."""


errors.register_missing(ERRORS)

COLOURS = {"r": N_("red"), "b": N_("blue"), "k": N_("black"), "y": N_("yellow")}
_COPY = re.compile(r"#\d+")
_TILE = re.compile(r"^([rbky])(\d{1,3})$")


def _readable(value: Any, translations: gettext.NullTranslations) -> Any:
    """A card or tile parameter as a person reads it: no copy numbers, colours in words."""
    if isinstance(value, list | tuple):
        return ", ".join(str(_readable(v, translations)) for v in value)
    if isinstance(value, Mapping):
        rank, suit = value.get("rank"), value.get("suit")
        return f"{rank}{suit}" if rank else value
    if not isinstance(value, str):
        return value
    words = []
    for word in _COPY.sub("", value).split():
        word = word.split("(")[0]
        tile = _TILE.match(word)
        if tile:
            word = f"{translations.gettext(COLOURS[tile[1]])} {tile[2]}"
        elif word in ("*", "JK"):
            word = translations.gettext(N_("joker"))
        words.append(word)
    return " ".join(words)


def describe(error: IllegalAction, translations: gettext.NullTranslations) -> dict[str, Any]:
    """The error as the API answers it: its code, its parameters and the translated sentence."""
    code = RENAMED.get(error.code, error.code)
    params = error.to_json()["params"]
    shown = {k: _readable(v, translations) for k, v in params.items()}
    return {"code": code, "params": params, "message": errors.message(code, shown, translations)}


# --- texts of the table's scripts -----------------------------------------------------------

CLIENT: dict[str, str] = {
    # seats and status
    "you": N_("You"),
    "computer": N_("Computer %(n)s"),
    "player": N_("Player %(n)s"),
    "opened": N_("opened"),
    "not_opened": N_("not opened yet"),
    "cards_left": N_("%(n)s cards"),
    "card_left": N_("1 card"),
    "tiles_left": N_("%(n)s tiles"),
    "tile_left": N_("1 tile"),
    "dealer": N_("dealer"),
    "round_of": N_("Round %(round)s of %(rounds)s"),
    "round_n": N_("Round %(round)s"),
    "stock_count": N_("Stock: %(n)s cards"),
    "pool_count": N_("Pool: %(n)s tiles"),
    "discard_count": N_("Discard pile: %(n)s cards"),
    "discard_empty": N_("The discard pile is empty"),
    "discard_top": N_("Discard pile, top card %(card)s"),
    "meld_of": N_("Meld of %(name)s"),
    "new_meld": N_("New meld"),
    "meld_value": N_("%(value)s points"),
    "melds_total": N_("New melds: %(value)s points."),
    "opening_short": N_("New melds: %(value)s points of the %(minimum)s needed to open."),
    "opening_reached": N_("New melds: %(value)s points, enough to open (%(minimum)s needed)."),
    "new_set": N_("New set"),
    "set_n": N_("Set %(n)s"),
    "add_to_set": N_("Put the selected tiles in set %(n)s"),
    "split_here": N_("Split the set between %(before)s and %(after)s"),
    "joker_for": N_("joker for %(card)s"),
    "joker_for_any": N_("joker for %(rank)s of any missing suit"),
    # prompts
    "your_turn_draw": N_("Your turn: draw from the stock or take the discard."),
    "your_turn_draw_stock": N_("Your turn: draw from the stock."),
    "your_turn_play": N_(
        "Lay melds, add to the table's melds or exchange a joker, then discard a card."
    ),
    "your_turn_first": N_("You start: lay melds if you can, then discard a card."),
    "your_turn_discard": N_("Your melding for this turn is laid down: now discard a card."),
    "your_turn_tiles": N_("Your turn: play tiles and rework the table, or draw a tile."),
    "your_turn_tiles_first": N_(
        "Your turn: lay sets from your rack worth %(minimum)s or more, or draw a tile."
    ),
    "waiting_for": N_("%(name)s is playing…"),
    "round_over": N_("The round is over."),
    "game_over": N_("The game is over."),
    "select_first": N_("Select cards in your hand first."),
    "select_tiles_first": N_("Select tiles first."),
    "select_one_discard": N_("Select the one card to discard."),
    "select_one_exchange": N_("Select the card that replaces the joker."),
    "table_tile_back": N_("Tiles from the table stay on the table."),
    "draw_laid_out": N_(
        "Drawing a tile ends your turn: take your tiles back first (Undo or Reset turn)."
    ),
    "connection_lost": N_("Connection lost: reconnecting…"),
    "sent": N_("Sending…"),
    "rejected": N_("Not allowed: %(message)s Your cards are back in your hand."),
    "rejected_tiles": N_("Not allowed: %(message)s"),
    "moved": N_("%(card)s moved to place %(n)s."),
    # who won a round (the round-end dialog)
    "ev_round_end": N_("%(name)s goes out and wins round %(round)s."),
    "ev_round_end_blocked": N_("Round %(round)s ends: nobody can go on."),
    "ev_hand_romme": N_("Hand-Rommé!"),
    "ev_round_end_you": N_("You go out and win round %(round)s."),
    # end of a round
    "penalty": N_("Penalty"),
    "doubled": N_("doubled"),
    "flat100": N_("never opened: 100"),
    "went_out": N_("went out"),
    "credit": N_("credited -100"),
    "total": N_("Total"),
    "low_wins": N_("Points count against you: the lowest total wins."),
    "high_wins": N_("The highest total wins."),
    "won_by": N_("%(names)s won the game."),
    "round": N_("Round"),
    # replay
    "step_of": N_("Step %(n)s of %(total)s"),
    "start_of_game": N_("Start of the game"),
    # hint
    "hint_next_round": N_("Start the next round."),
    "hint_take_discard_to_open": N_("Take %(card)s from the discard pile: it helps you open."),
    "hint_take_discard_to_meld": N_("Take %(card)s from the discard pile: you can meld it now."),
    "hint_take_discard_to_build": N_("Take %(card)s from the discard pile: it fits your cards."),
    "hint_draw_from_stock": N_("Draw from the stock: the discard does not help you."),
    "hint_go_out": N_("You can go out: lay your cards (%(value)s points in new melds)."),
    "hint_go_out_hand_romme": N_("Hand-Rommé: lay all your cards at once!"),
    "hint_open_with_best_melds": N_("Open with your best melds: %(value)s points."),
    "hint_use_picked_card": N_("Meld the card you took from the discard pile."),
    "hint_exchange_joker": N_("Exchange a joker on the table and lay it again."),
    "hint_lay_new_melds": N_("Lay new melds: %(value)s points."),
    "hint_lay_off_cards": N_("Add cards to the melds on the table."),
    "hint_discard_highest_dead_card": N_(
        "Discard %(card)s: the highest of your cards that fit nothing."
    ),
    "hint_discard_dead_card": N_("Discard %(card)s: it fits nothing in your hand."),
    "hint_discard_least_useful_card": N_("Discard %(card)s: of your cards it helps you least."),
    "hint_discard_last_card": N_("Discard %(card)s, your last card, and go out."),
    # names of cards and tiles for screen readers
    "joker": N_("joker"),
    "card_name": N_("%(rank)s of %(suit)s"),
    "tile_name": N_("%(colour)s %(n)s"),
    "rank_A": N_("ace"),
    "rank_J": N_("jack"),
    "rank_Q": N_("queen"),
    "rank_K": N_("king"),
    "suit_♣": N_("clubs"),
    "suit_♠": N_("spades"),
    "suit_♥": N_("hearts"),
    "suit_♦": N_("diamonds"),
    "colour_r": N_("red"),
    "colour_b": N_("blue"),
    "colour_k": N_("black"),
    "colour_y": N_("yellow"),
}


def client_messages(translations: gettext.NullTranslations) -> dict[str, str]:
    """Every text of the table's scripts, translated."""
    return {key: translations.gettext(text) for key, text in CLIENT.items()}
