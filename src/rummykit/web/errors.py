"""Error codes and the sentences they become, in every language.

The engines raise `rummykit.core.IllegalAction` with a stable code and parameters; this module
turns a code into a translated sentence. ``MESSAGES`` maps each code to an English message
marked with ``N_`` (so that extraction finds it) whose ``%(name)s`` placeholders are filled from
the error's parameters. Another part adds its codes from its own module, with its own domain:

    from rummykit.web.errors import N_, register
    register({"opening_below_minimum": N_("Your first meld counts %(value)s of %(minimum)s.")})

A code without a message, or a message whose placeholders the parameters do not fill, falls
back to a generic sentence naming the code, so an error is never lost or garbled.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from typing import Any

from rummykit.core import IllegalAction


def N_(message: str) -> str:
    """Mark a message for extraction without translating it now."""
    return message


MESSAGES: dict[str, str] = {
    # Requests
    "bad_request": N_("This request is not valid."),
    "bad_json": N_("This request is not valid JSON."),
    "bad_action": N_("This action is not valid."),
    "not_found": N_("There is nothing at this address."),
    "not_a_number": N_("%(player)s: enter a whole number, such as 35 or -100."),
    "bad_version": N_("The form is out of date: reload the page."),
    # Score sheet
    "sheet_changed": N_(
        "Someone else changed the sheet a moment ago. It now shows their entry: check it, "
        "then enter yours again if it is still needed."
    ),
    "empty_sheet_name": N_("Give the sheet a name."),
    "sheet_name_too_long": N_("The name of the sheet may have at most %(maximum)s characters."),
    "bad_limit": N_("The point limit must be a whole number from %(minimum)s to %(maximum)s."),
    "bad_settings": N_("The settings of this sheet are not valid."),
    "bad_rounds": N_(
        "The number of rounds must be a whole number from %(minimum)s to %(maximum)s."
    ),
    "empty_player_name": N_("Every player needs a name."),
    "player_name_too_long": N_("A player's name may have at most %(maximum)s characters."),
    "bad_name": N_(
        "A name may not hold control characters or invisible ones (zero-width spaces, "
        "direction marks)."
    ),
    "duplicate_name": N_("There is already a player called %(name)s."),
    "too_few_players": N_("A game needs at least %(minimum)s players."),
    "too_many_players": N_("A sheet has room for at most %(maximum)s players."),
    "missing_entries": N_("Enter the points of every player: missing %(players)s."),
    "player_not_in_round": N_("%(player)s did not play this round."),
    "unknown_player": N_("There is no such player on this sheet."),
    "duplicate_entry": N_("A player was entered twice."),
    "several_went_out": N_("Only one player can go out in a round."),
    "points_out_of_bounds": N_(
        "%(player)s: the points must be between %(minimum)s and %(maximum)s."
    ),
    "went_out_with_points": N_(
        "%(player)s went out and cannot have %(value)s points: enter 0 or a credit such as -100."
    ),
    "game_over": N_("The game is over."),
    "unknown_round": N_("There is no round %(round)s."),
    "correction_ends_game_early": N_(
        "With this correction %(players)s would have lost by points in round %(round)s, "
        "before the last round: check the numbers."
    ),
    "player_already_left": N_("%(player)s has already left the game."),
    "bad_start": N_("Choose how the new player starts: at 0 or at the highest total."),
    "bad_chips": N_("Each player starts with %(minimum)s to %(maximum)s chips."),
    "unknown_place": N_("There is no such box or player."),
    "same_place": N_("Choose two different places to move chips between."),
    "bad_amount": N_("Move a whole number of chips, at least %(minimum)s."),
    "not_enough_chips": N_("There are only %(have)s chips there, not %(need)s."),
    "nobody_can_ante": N_("Nobody has the %(ante)s chips an ante needs."),
    "unknown_change": N_("There is no change %(change)s."),
    "cannot_undo_an_undo": N_("An undo cannot be undone: make the change again instead."),
    "already_undone": N_("Change %(change)s has already been undone."),
    "cannot_undo": N_(
        "This change cannot be undone now: its chips have moved on since (%(have)s left of "
        "%(need)s). Undo the later changes first."
    ),
    "plus_minus_needs_rounds": N_(
        "The classic tile scoring is played over a number of rounds: choose how many."
    ),
    "missing_winner": N_("Mark who won the round: the winner scores the others' racks."),
    "already_claimed": N_("%(player)s is already entered from another phone."),
    "already_claimed_here": N_("This phone already enters the hands of one player."),
    "not_own_hands": N_("On this sheet one phone enters the whole round."),
    "round_closed": N_(
        "Round %(round)s was completed in the meantime: check it in the list of rounds and "
        "correct it there if needed."
    ),
}

GENERIC = N_("This is not allowed (%(code)s).")


def register(messages: Mapping[str, str]) -> None:
    """Add the messages of more error codes; a code may not be given two different messages."""
    for code, message in messages.items():
        if MESSAGES.get(code, message) != message:
            raise ValueError(f"error code {code!r} already has another message")
        MESSAGES[code] = message


def register_missing(messages: Mapping[str, str]) -> None:
    """Add the messages of the codes that have none yet; a code the site words already keeps
    its sentence."""
    for code, message in messages.items():
        MESSAGES.setdefault(code, message)


def _param(value: Any) -> str:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(str(v) for v in value)
    return str(value)


def message(code: str, params: Mapping[str, Any], translations: gettext.NullTranslations) -> str:
    """The translated sentence for an error code and its parameters.

    >>> message("unknown_round", {"round": 7}, gettext.NullTranslations())
    'There is no round 7.'
    >>> message("no_such_code", {}, gettext.NullTranslations())
    'This is not allowed (no_such_code).'
    """
    values = {key: _param(value) for key, value in params.items()}
    template = MESSAGES.get(code)
    if template is not None:
        try:
            return translations.gettext(template) % values
        except (KeyError, ValueError, TypeError):
            pass
    return translations.gettext(GENERIC) % {"code": code}


def describe(error: IllegalAction, translations: gettext.NullTranslations) -> str:
    return message(error.code, error.params, translations)
