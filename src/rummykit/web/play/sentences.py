"""The engines' log events and hints in words, for every game, on the server, in the reader's
language.

Each game registers one function that tells an event (`describes`) and one that words a hint's
reason (`advises`); the first tells an event (as the play layer sends it: cards and
tiles by their codes) in sentences, for a `Reader`: the seat the sentences say "you" to, the
names of the seats as that reader's page shows them, and the translations of the page's
language. The play layer adds the result to every event it sends as ``text``, so two people
at one table can read the same log in two languages.

Every sentence whose subject is a person has a form for "you" and one for a name (`Reader.person`),
and a sentence with a count takes its form from ``ngettext``:

>>> from rummykit.web.language import site_translations
>>> reader = Reader(site_translations("en"), ("You", "Anna"), seat=0)
>>> deals = (N_("Round %(round)s: you deal."), N_("Round %(round)s: %(name)s deals."))
>>> reader.person(0, *deals, round=1), reader.person(1, *deals, round=1)
('Round 1: you deal.', 'Round 1: Anna deals.')
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rummykit.core import JSON
from rummykit.web.errors import N_
from rummykit.web.play.adapter import SeatInfo, adapter
from rummykit.web.play.messages import CLIENT

Translations = gettext.NullTranslations


@dataclass(frozen=True)
class Reader:
    """Who reads a log: the translations of their page, the seats' names as their page shows
    them, and their own seat (``None`` for a spectator)."""

    t: Translations
    names: Sequence[str]
    seat: int | None = None

    def name(self, seat: JSON) -> str:
        """The name of a seat (its number when there is no such seat)."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return str(seat)

    def is_me(self, seat: JSON) -> bool:
        return self.seat is not None and seat == self.seat

    def person(self, seat: JSON, you: str, other: str, **params: object) -> str:
        """The message ``you`` when the reader is the subject, else ``other`` with the seat's
        name as ``%(name)s``, translated."""
        return self.pick(seat, self.t.gettext(you), self.t.gettext(other), **params)

    def pick(self, seat: JSON, you: str, other: str, **params: object) -> str:
        """`person` for texts already translated (the forms ``ngettext`` chose)."""
        if self.is_me(seat):
            return you % params
        return other % {"name": self.name(seat), **params}

    def people(self, seats: Iterable[JSON]) -> str:
        """Names as a list: ``A``, ``A and B``, ``A, B and C``."""
        return join_names([self.name(s) for s in seats], self.t)


def join_names(items: Sequence[str], t: Translations) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return t.gettext("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def seat_names(seats: Sequence[SeatInfo], me: int | None, t: Translations) -> list[str]:
    """Each seat's name as the page of seat ``me`` shows it: "You", "Player 2", "Computer 1"."""
    names = []
    computers = humans = 0
    for index, info in enumerate(seats):
        if info.human:
            humans += 1
            key = "you" if index == me else "player"
            names.append(t.gettext(CLIENT[key]) % {"n": humans})
        else:
            computers += 1
            names.append(t.gettext(CLIENT["computer"]) % {"n": computers})
    return names


FunctionT = TypeVar("FunctionT", bound=Callable[..., object])


class Registry(Generic[FunctionT]):
    """One function per game kind, registered by the game's presentation module."""

    def __init__(self) -> None:
        self.functions: dict[str, FunctionT] = {}

    def register(self, kind: str) -> Callable[[FunctionT], FunctionT]:
        """A decorator: ``function`` serves game ``kind``."""

        def add(function: FunctionT) -> FunctionT:
            self.functions[kind] = function
            return function

        return add

    def __getitem__(self, kind: str) -> FunctionT:
        if kind not in self.functions:
            adapter(kind)  # importing the game's module registers its functions
        return self.functions[kind]


Describe = Callable[[Mapping[str, JSON], Reader], list[str]]
"""A game's event in sentences (none for an event its log does not show)."""

Advise = Callable[[Mapping[str, JSON], Reader], str]
"""A game's hint in words, from the hint's ``reason`` (its code and parameters)."""

DESCRIBE: Registry[Describe] = Registry()
ADVISE: Registry[Advise] = Registry()
describes = DESCRIBE.register
"""Register the function that puts the events of a game in words."""
advises = ADVISE.register
"""Register the function that puts the hints of a game in words."""


def hint_text(kind: str, reason: Mapping[str, JSON], reader: Reader) -> str:
    """A hint's reason as the reader's page says it."""
    return ADVISE[kind](reason, reader)


def event_text(kind: str, event: Mapping[str, JSON], reader: Reader) -> str:
    """One event as the reader's log shows it: its sentences, one after the other."""
    return " ".join(DESCRIBE[kind](event, reader))


def told(kind: str, events: Iterable[Mapping[str, JSON]], reader: Reader) -> list[JSON]:
    """The events with their ``text`` for the reader."""
    return [{**event, "text": event_text(kind, event, reader)} for event in events]


__all__ = [
    "N_",
    "Reader",
    "advises",
    "describes",
    "event_text",
    "hint_text",
    "join_names",
    "seat_names",
    "told",
]
