"""The actions of a game of tile rummy, their JSON form and their text notation.

A turn is submitted as the table it leaves: ``Play(table)`` lists every set on the table after
the turn (tiles with their identities, each joker with what it stands for), and the engine
judges it as a whole with `rummykit.tiles.turn.check_turn`. ``Draw()`` draws a tile and passes;
with the pool empty it is a plain pass. ``NextRound()`` deals the next round once a round has
been counted.

>>> parse_action("play r1 r2 r3").to_json()
{'t': 'play', 'table': ['r1 r2 r3']}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import ClassVar, TypeAlias

from rummykit.core import JSON, Codec, IllegalAction, Leaf, json_form
from rummykit.core.codec import EncodedAction, action
from rummykit.tiles.model import TableSet, format_table, parse_table, table_tiles
from rummykit.tiles.rules import Rules, Tile


def _rules(context: object) -> Rules | None:
    return context if isinstance(context, Rules) else None


def _table_from_json(data: JSON, context: object, *, check: bool) -> tuple[TableSet, ...]:
    if not isinstance(data, list) or not all(isinstance(s, str) for s in data):
        raise IllegalAction("bad_action", reason="table must be a list of sets")
    if check:
        return tuple(parse_table(list(data), _rules(context)))
    return tuple(_read_table(data, _rules(context)))


def _table_to_json(table: tuple[TableSet, ...]) -> JSON:
    return [s.code for s in table]


_PLAYED_TABLE = Leaf(
    _table_to_json, lambda data, context: _table_from_json(data, context, check=False)
)
"""A played table is read as written; the engine judges it when the play is applied."""
SEEN_TABLE = Leaf(_table_to_json, lambda data, context: _table_from_json(data, context, check=True))
"""A table in a view: every set checked as it is read."""

CODEC = Codec(
    {
        Tile: Leaf(lambda tile: tile.code, lambda data, context: Tile.parse(_text(data))),
        TableSet: Leaf(lambda s: s.code, lambda data, context: parse_table([_text(data)])[0]),
        Rules: Leaf(Rules.to_json, lambda data, context: Rules.from_json(data)),
    }
)
"""The JSON form of tile rummy's actions and views: tiles and sets by their codes."""


def _text(data: JSON) -> str:
    if not isinstance(data, str):
        raise TypeError("a tile or a set is written as text")
    return data


class _Value(EncodedAction):
    __slots__ = ()
    codec = CODEC


# --- actions -------------------------------------------------------------------------------


@action
class Draw(_Value):
    """Draw one tile from the pool and pass; with the pool empty, just pass."""


@action
class NextRound(_Value):
    """Start the next round after a round has been counted (any seat may ask)."""

    word: ClassVar[str | None] = "next round"


@action
class Play(_Value):
    """The whole table as the player leaves it: every set, old and new, in any order.

    >>> play = Play.parse("play r4 r5 *(r6) | b7 k7 y7")
    >>> play
    Play.parse('play r4 r5 *(r6) | b7 k7 y7')
    >>> action_from_json(play.to_json()) == play
    True
    """

    repr_by_parse: ClassVar[bool] = True

    table: tuple[TableSet, ...] = field(
        default=(), metadata=json_form(_PLAYED_TABLE, required=True)
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", tuple(self.table))

    def __str__(self) -> str:
        return f"play {format_table(self.table)}".rstrip()

    @staticmethod
    def parse(text: str, rules: Rules | None = None) -> Play:
        """Parse ``play <set> | <set> …`` with exact tile identities (``r5#1`` for the second
        red five). To write tiles by face alone and let the position pick the copies, use
        `resolve_play`."""
        action = parse_action(text, rules)
        if not isinstance(action, Play):
            raise IllegalAction("bad_action", text=text)
        return action


Action: TypeAlias = Draw | Play | NextRound
_read_action = CODEC.reader(Action)


def parse_action(text: str, rules: Rules | None = None) -> Action:
    """``draw``, ``next round`` or ``play <set> | <set> …``."""
    words = text.strip().split(maxsplit=1)
    head = words[0].lower() if words else ""
    rest = words[1] if len(words) > 1 else ""
    if head == "draw" and not rest:
        return Draw()
    if head == "next" and rest.strip().lower() == "round":
        return NextRound()
    if head == "play":
        return Play(tuple(_read_table(rest.split("|") if rest.strip() else [], rules)))
    raise IllegalAction("bad_action", text=text)


def action_from_json(data: JSON, rules: Rules | None = None) -> Action:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    A play's sets are carried as written and judged when the play is applied. A joker written
    without its meaning takes the one its set implies under ``rules`` (the default rules when
    not given), so such a set must already be valid, or its own code (``set_too_small``…) is
    raised here.

    >>> action_from_json({"t": "draw"}), action_from_json({"t": "play", "table": ["r1 r2 r3"]})
    (Draw(), Play.parse('play r1 r2 r3'))
    >>> action_from_json({"t": "play", "table": "r1"})
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_action: reason='table must be a list of sets'
    """
    action: Action = _read_action(data, rules)
    return action


def _read_table(sets: Sequence[str], rules: Rules | None) -> list[TableSet]:
    try:
        return parse_table(list(sets), rules, check=False)
    except IllegalAction as err:
        if err.code in ("bad_tile", "duplicate_tile"):
            raise IllegalAction("bad_action", reason=err.code, **err.params) from None
        raise


def resolve_play(
    text: str, table: Sequence[TableSet], rack: Sequence[Tile], rules: Rules | None = None
) -> Play:
    """A play written by faces (``r5``, ``*``), its copies taken from the position.

    Each face takes a copy still on the table first, then one from the rack (a ``#n`` suffix
    names a copy exactly). A joker takes the table joker that stands for what it stands for
    here, else another table joker, else one from the rack. What the sets mean is then checked
    by the engine.

    >>> from rummykit.tiles.rules import parse_tiles
    >>> table = parse_table("r5 r6 r7 | r5#1 b5 k5")
    >>> resolve_play("r5 r6 r7 r8 | r5 b5 k5", table, parse_tiles("r8"))
    Play.parse('play r5 r6 r7 r8 | r5#1 b5 k5')
    """
    try:
        return _resolve(text, table, rack, rules or Rules())
    except IllegalAction as err:
        if err.code in ("bad_tile", "duplicate_tile"):
            raise IllegalAction("bad_action", reason=err.code, **err.params) from None
        raise


def _resolve(text: str, table: Sequence[TableSet], rack: Sequence[Tile], rules: Rules) -> Play:
    words = text.strip()
    if words.lower().startswith("play"):
        words = words[4:]
    texts = words.split("|") if words.strip() else []
    raw = [t.replace(",", " ").split() for t in texts]
    on_table = table_tiles(table)
    joker_meaning = {j: m for s in table for j, (_, m) in s.joker_meanings().items()}
    used: set[Tile] = set()
    pinned = {Tile.parse(w.split("(")[0]) for ws in raw for w in ws if "#" in w.split("(")[0]}
    used |= pinned
    sources = [*on_table, *rack]
    result: list[list[str]] = []
    for ws in raw:
        codes: list[str] = []
        for word in ws:
            face, _, meaning = word.partition("(")
            if "#" in face:
                codes.append(word)
                continue
            base = Tile.parse(face)
            candidates = [t for t in sources if t.face == base.face and t not in used]
            if base.is_joker and meaning:
                wanted = meaning.rstrip(")")
                same = [t for t in candidates if t in joker_meaning]
                same = [t for t in same if joker_meaning[t].code == wanted] or same
                candidates = same + [t for t in candidates if t not in same]
            if not candidates:
                codes.append(word)
                continue
            tile = candidates[0]
            used.add(tile)  # written with its copy, so that unresolved faces avoid it
            codes.append(f"{tile.face}#{tile.copy}" + (f"({meaning}" if meaning else ""))
        result.append(codes)
    return Play(tuple(_read_table([" ".join(c) for c in result], rules)))
