"""What the home page lists: every game and tool of the site, grouped in sections.

Each entry names the route that serves it. The home page links an entry whose route exists in
the app and shows the others as "coming", so a part that adds its page only has to give its
route the name listed here (or add an entry here when it brings something new). Titles and
descriptions are English messages marked with ``N_`` and translated by the catalogs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rummykit.web.errors import N_


@dataclass(frozen=True)
class Entry:
    route: str
    title: str
    blurb: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    title: str
    entries: tuple[Entry, ...]


SECTIONS: tuple[Section, ...] = (
    Section(
        N_("Play against the computer"),
        (
            Entry(
                "romme.play",
                N_("Rommé"),
                N_("Two packs and six jokers: meld sets and runs, lay off, go out first."),
            ),
            Entry(
                "tiles.play",
                N_("Tile rummy"),
                N_("Rummikub-style: play tiles and rework the table as you like."),
            ),
            Entry(
                "rummoli.play",
                N_("Rummoli"),
                N_(
                    "A poker hand, then the race through the stops, with chips on a nine-box board."
                ),
            ),
        ),
    ),
    Section(
        N_("Learn to play"),
        (
            Entry(
                "romme.learn",
                N_("Your first game of Rommé"),
                N_(
                    "A friendly deal against a beginner, with advice and the cards to use at "
                    "every move."
                ),
            ),
            Entry(
                "tiles.learn",
                N_("Your first game of tile rummy"),
                N_(
                    "A friendly deal against a beginner, with advice and the tiles to use at "
                    "every move."
                ),
            ),
        ),
    ),
    Section(
        N_("Play with friends"),
        (
            Entry(
                "tables.new",
                N_("Open a table"),
                N_(
                    "Rommé, tile rummy or Rummoli with friends on their own phones, by link or "
                    "code, with computers in the free seats if you like."
                ),
            ),
            Entry(
                "tables.join",
                N_("Join a table"),
                N_("Type the code a friend gave you and take your seat."),
            ),
        ),
    ),
    Section(
        N_("Rummoli"),
        (
            Entry(
                "rummoli.board",
                N_("Rummoli board"),
                N_("The nine boxes with their chips, for a game at your own table."),
            ),
            Entry(
                "rummoli.demo",
                N_("Rummoli demonstration"),
                N_("A whole deal played card by card, with the reason for every move."),
            ),
            Entry(
                "rummoli.cheatsheet",
                N_("Rummoli cheat sheet"),
                N_("One printable page with the boxes, the hands and the stops."),
            ),
        ),
    ),
    Section(
        N_("Rules"),
        (
            Entry("rules.romme", N_("Rommé rules"), N_("Dealing, melds, the first meld, scoring.")),
            Entry(
                "rules.rummoli", N_("Rummoli rules"), N_("The poker hand, the stops and the chips.")
            ),
            Entry(
                "rules.tiles", N_("Tile rummy rules"), N_("Sets, the first meld and the rework.")
            ),
        ),
    ),
    Section(
        N_("Tools"),
        (
            Entry(
                "scoresheet.new",
                N_("Rommé score sheet"),
                N_("Keep the score of a game with real cards, on one phone or several."),
            ),
        ),
    ),
)
