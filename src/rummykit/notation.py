"""The notation cards and tiles share: a face (``8♠``, ``r5``; a joker ``JK`` or ``*``) and, for
every copy of that face after the first, ``#n`` (``8♠#1`` is the second eight of spades).

>>> split_copy("8♠#1", 3, "bad_card", "card"), split_copy("r5", 2, "bad_tile", "tile")
(('8♠', 1), ('r5', -1))
>>> split_copy("r5#x", 2, "bad_tile", "tile")
Traceback (most recent call last):
...
rummykit.core.IllegalAction: bad_tile: tile='r5#x'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Self, TypeVar

from rummykit.core import IllegalAction


class Copied:
    """A piece of a pack that holds several copies of each face (a card, a tile): its code is
    its face, with ``#n`` after it for any copy but the first; ``str`` is the code, and ``repr``
    reads it back. A dataclass keeps these only when declared with ``repr=False``.

    A subclass names itself (`noun`), bounds its copies and reads a face (`_from_face`); the
    reading of one piece (`parse`) and of several (`parse_pieces`) is written here, once.
    """

    __slots__ = ()
    copy: int
    noun: ClassVar[str]
    """The piece's name in error codes and their parameters (``bad_card``, ``card='8♠'``)."""
    copy_digits: ClassVar[int]
    """How many digits a written copy number may have."""
    joker_copies: ClassVar[int]
    """How many jokers a pack holds at most."""
    natural_copies: ClassVar[int]
    """How many copies of each other face a pack holds at most."""

    @property
    def face(self) -> str:
        """The face in the notation, without the copy."""
        raise NotImplementedError

    @property
    def is_joker(self) -> bool:
        """Whether the piece is a joker (its copies are bounded apart)."""
        raise NotImplementedError

    @property
    def copies(self) -> int:
        """How many copies of this face a pack holds at most."""
        return self.joker_copies if self.is_joker else self.natural_copies

    @property
    def code(self) -> str:
        """The exact notation, with ``#n`` when the copy is not the first."""
        return self.face if self.copy == 0 else f"{self.face}#{self.copy}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.code!r})"

    def _check_copy(self) -> None:
        if not 0 <= self.copy < self.copies:
            raise ValueError(f"copy must be in 0..{self.copies - 1}, got {self.copy}")

    @classmethod
    def _from_face(cls, face: str, copy: int) -> Self:
        """The piece with ``face`` as written and ``copy``; `ValueError` if there is none."""
        raise NotImplementedError

    @classmethod
    def _read(cls, face: str, copy: int, word: str) -> Self:
        """The piece with ``face`` as written and ``copy``; a face that names no piece is
        ``bad_<noun>`` with the whole ``word``."""
        try:
            return cls._from_face(face, copy)
        except IllegalAction:
            raise
        except ValueError:
            raise IllegalAction(f"bad_{cls.noun}", **{cls.noun: word}) from None

    @classmethod
    def _split(cls, word: str) -> tuple[str, int]:
        """A written piece's face and copy (-1 when it names none)."""
        return split_copy(word, cls.copy_digits, f"bad_{cls.noun}", cls.noun)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse one piece; a missing ``#n`` means copy 0. A bad one is ``bad_<noun>``."""
        face, copy = cls._split(text)
        return cls._read(face, max(copy, 0), text)

    @classmethod
    def parse_each(cls, text: str) -> tuple[Self, ...]:
        """The pieces written in ``text`` (separated by spaces), each read by `parse`: copy 0
        unless a ``#n`` names another, as in a deal written out by hand."""
        return tuple(cls.parse(word) for word in text.split())


def split_copy(text: str, digits: int, code: str, key: str) -> tuple[str, int]:
    """A written piece's face and copy number (-1 when it names none); a copy that is not a
    number of at most ``digits`` digits is ``IllegalAction(code, **{key: text})``."""
    face, sep, copy_text = text.strip().partition("#")
    if not sep:
        return face, -1
    if not (copy_text.isascii() and copy_text.isdigit()) or len(copy_text) > digits:
        raise IllegalAction(code, **{key: text})
    return face, int(copy_text)


PieceT = TypeVar("PieceT", bound=Copied)


def parse_pieces(
    kind: type[PieceT], text: str | Iterable[str], taken: Iterable[PieceT] = ()
) -> list[PieceT]:
    """The pieces written in ``text`` (separated by spaces or commas), in order: a word with
    ``#n`` is that copy; one without takes the first copy of its face not named elsewhere nor
    in ``taken``.

    Errors come in the order of the words (a bad word is ``bad_<noun>``, a copy named twice
    ``duplicate_<noun>``); a face whose copies run out is ``bad_<noun>``, after any other error.
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    used: set[PieceT] = set(taken)
    read: list[tuple[str, str, int, PieceT]] = []
    for word in words:
        face, copy = kind._split(word)
        piece = kind._read(face, max(copy, 0), word)
        if copy >= 0:
            if piece in used:
                raise IllegalAction(f"duplicate_{kind.noun}", **{kind.noun: piece.code})
            used.add(piece)
        read.append((word, face, copy, piece))
    result: list[PieceT] = []
    for word, face, copy, piece in read:
        if copy < 0:
            free = (kind._read(face, c, word) for c in range(piece.copies))
            found = next((p for p in free if p not in used), None)
            if found is None:
                raise IllegalAction(f"bad_{kind.noun}", **{kind.noun: word})
            used.add(found)
            piece = found
        result.append(piece)
    return result
