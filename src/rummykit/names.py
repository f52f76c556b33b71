"""Names people type: the players of a score sheet, sheet names, and any name a table shows.

One rule for all of them, so that a name looks the same everywhere and two names that look
alike are the same name:

- `normalise` applies Unicode NFKC (a full-width ``Ｂｏｂ`` or a ligature ``ﬁ`` become
  ``Bob`` and ``fi``), collapses runs of white space of any kind (tabs and line breaks
  included) to one space, and trims both ends;
- it refuses (``IllegalAction("bad_name")``) every other control character (NUL among them),
  format characters (the invisible ones: zero-width spaces and joiners, soft hyphens,
  byte-order marks, and the bidirectional overrides and isolates that can make a name read
  backwards), private-use, unassigned and surrogate code points and the letters that draw
  nothing (Hangul fillers, the blank Braille pattern). Emoji sequences joined with a
  zero-width joiner are refused with them: a name is text, not a picture.
- `salvage` makes a name stored before this rule follow it: the characters it refuses are
  dropped instead;
- `key` is what uniqueness is judged on: the normalised name, case-folded (``Bob``, ``BOB``
  and ``bob`` are one player, as the paper sheet's players would expect), normalised again.

>>> normalise("  Ｂｏｂ   Smith ")
'Bob Smith'
>>> normalise("Bob\\u200b")
Traceback (most recent call last):
...
rummykit.core.IllegalAction: bad_name: name='Bob\\u200b'
>>> key("BOB") == key("ｂｏｂ")
True
"""

from __future__ import annotations

import unicodedata

from rummykit.core import IllegalAction

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
"""Unicode general categories no name may hold."""

INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters of visible categories that draw nothing."""


SPACES = frozenset(" \t\n\r\x0b\x0c\x85\u1680\u2028\u2029")
"""White space left by NFKC (which turns the other spaces into ``" "``): collapsed, not
refused."""


def refused(char: str) -> bool:
    """Whether a name may not hold ``char``.

    >>> [refused(c) for c in ("a", "\\u202e", "\\x00", "\\u3164", " ")]
    [False, True, True, True, False]
    """
    return char in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES


def normalise(text: str) -> str:
    """The name as it is stored and shown (NFKC, white space collapsed); ``bad_name`` if it
    holds a character no name may hold. An empty result is the caller's to refuse."""
    folded = unicodedata.normalize("NFKC", text)
    if any(refused(char) for char in folded if char not in SPACES):
        raise IllegalAction("bad_name", name=text)
    return " ".join(folded.split())


def key(text: str) -> str:
    """What two names are compared by: equal keys are the same name."""
    return unicodedata.normalize("NFKC", normalise(text).casefold())


def follows(text: object) -> bool:
    """Whether ``text`` is a name `normalise` accepts as it is written.

    >>> follows("Bob"), follows("Bob\\u200b"), follows(" Bob"), follows(3)
    (True, False, False, False)
    """
    if not isinstance(text, str):
        return False
    try:
        return normalise(text) == text
    except IllegalAction:
        return False


def salvage(text: str) -> str:
    """A name stored before this rule, made to follow it: what `normalise` refuses is dropped
    (not refused), the rest normalised. The result may be empty.

    >>> salvage("Bo\\u200bb\\u202e "), salvage("\\u200b")
    ('Bob', '')
    """
    folded = unicodedata.normalize("NFKC", text)
    return normalise("".join(c for c in folded if c in SPACES or not refused(c)))


# Written here, small on purpose: the Python packages for Unicode confusables either only detect
# mixed scripts (confusable-homoglyphs gives no comparison key) or are unmaintained (confusables,
# last released 2021), and a nickname needs one key for the letters people really mix up.
LOOKALIKES = str.maketrans(
    {
        # Cyrillic letters drawn like Latin ones
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l", "ї": "l",
        "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ь": "b",
        # Greek letters drawn like Latin ones
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
        # Latin letters and digits that a sans-serif font draws alike
        "i": "l", "1": "l", "|": "l", "ı": "l", "0": "o", "5": "s", "ɡ": "g",
    }
)  # fmt: skip
"""Characters folded to the letter they are drawn like, for `skeleton`."""


def skeleton(text: str) -> str:
    """What two names that must not *look* alike are compared by: `key`, with letters of other
    scripts drawn like Latin ones, and ``i``/``l``/``1``, ``0``/``o``, folded together
    (a Cyrillic ``Аnna`` is ``Anna``; ``Bill`` and ``BiII`` are one name at a table).

    >>> skeleton("Аnna") == skeleton("anna"), skeleton("Bi11") == skeleton("BILL")
    (True, True)
    >>> skeleton("Ana") == skeleton("Anna")
    False
    """
    return key(text).translate(LOOKALIKES)
