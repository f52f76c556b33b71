"""What the rummy games (Rommé and tile rummy) show alike: the fields of a seat's view that
follow the rounds and the scores, and the sentences at the end of a round and of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from rummykit.core import JSON
from rummykit.web.errors import N_
from rummykit.web.play.sentences import Reader


class RoundRules(Protocol):
    @property
    def rounds(self) -> int | None: ...

    @property
    def opening_min(self) -> int: ...


class RoundView(Protocol):
    """What a rummy game's view holds about rounds, first melds and scores."""

    @property
    def rules(self) -> RoundRules: ...

    @property
    def phase(self) -> str: ...

    @property
    def round(self) -> int: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def players(self) -> int: ...

    @property
    def opened(self) -> tuple[bool, ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def winners(self) -> tuple[int, ...]: ...


def round_fields(view: RoundView) -> dict[str, JSON]:
    """The part of a seat's page data that every rummy game draws the same way: the phase,
    the round and whose turn, who has opened, the scores; ``round_end`` is left to the game."""
    return {
        "phase": view.phase,
        "round": view.round,
        "rounds": view.rules.rounds,
        "to_move": view.to_move,
        "players": view.players,
        "opened": list(view.opened),
        "opening_min": view.rules.opening_min,
        "scores": list(view.scores),
        "round_scores": [list(r) for r in view.round_scores],
        "winners": list(view.winners),
        "round_end": None,
    }


def ended(event: Mapping[str, JSON], r: Reader) -> list[str]:
    """The end of a round (Rommé or tiles): who went out, or that nobody could go on."""
    winner, number = event.get("winner"), event.get("round")
    if winner is None:
        return [r.t.gettext(N_("Round %(round)s ends: nobody can go on.")) % {"round": number}]
    return [
        r.person(
            winner,
            N_("You go out and win round %(round)s."),
            N_("%(name)s goes out and wins round %(round)s."),
            round=number,
        )
    ]


def game_won(event: Mapping[str, JSON], r: Reader) -> list[str]:
    """The end of the game (Rommé or tiles): who won."""
    winners = [w for w in event.get("winners") or [] if isinstance(w, int)]
    if winners == [r.seat]:
        return [r.t.gettext(N_("The game is over: you won."))]
    text = r.t.ngettext(
        "The game is over: %(names)s won.", "The game is over: %(names)s won.", len(winners)
    )
    return [text % {"names": r.people(winners)}]
