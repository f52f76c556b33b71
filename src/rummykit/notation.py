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

from rummykit.core import IllegalAction


class Copied:
    """A piece of a pack that holds several copies of each face (a card, a tile): its code is
    its face, with ``#n`` after it for any copy but the first; ``str`` is the code, and ``repr``
    reads it back. A dataclass keeps these only when declared with ``repr=False``."""

    __slots__ = ()
    copy: int

    @property
    def face(self) -> str:
        """The face in the notation, without the copy."""
        raise NotImplementedError

    @property
    def code(self) -> str:
        """The exact notation, with ``#n`` when the copy is not the first."""
        return self.face if self.copy == 0 else f"{self.face}#{self.copy}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.code!r})"


def split_copy(text: str, digits: int, code: str, key: str) -> tuple[str, int]:
    """A written piece's face and copy number (-1 when it names none); a copy that is not a
    number of at most ``digits`` digits is ``IllegalAction(code, **{key: text})``."""
    face, sep, copy_text = text.strip().partition("#")
    if not sep:
        return face, -1
    if not (copy_text.isascii() and copy_text.isdigit()) or len(copy_text) > digits:
        raise IllegalAction(code, **{key: text})
    return face, int(copy_text)
