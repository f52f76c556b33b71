"""A one-page printable sheet: the bundled Unicode font, colours, and rich text that wraps.

The built-in PDF fonts only know Latin-1, so a sheet embeds DejaVu Sans (shipped in
``rummykit/printing/fonts`` with its licence): accents, ``♠ ♥ ♦ ♣``, dashes and quotes of all
four languages render, and PDF readers can extract them again as text.

Paragraphs are written with a tiny markup: ``**bold**``, ``\\n`` for a line break, and a soft
hyphen (U+00AD) where a long word may be broken. Red suits (``♥ ♦``) are drawn in red wherever
they appear. :func:`wrap` measures a paragraph exactly, so a layout knows every block's height
before drawing anything and can guarantee that the whole sheet fits on its page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

FONT_DIR = Path(__file__).parent / "fonts"
FAMILY = "DejaVu"
PT = 25.4 / 72
"""One typographic point in millimetres."""

Colour = tuple[int, int, int]
INK: Colour = (33, 37, 41)
RED: Colour = (196, 30, 58)
GREEN: Colour = (22, 94, 64)
FELT: Colour = (35, 110, 76)
CREAM: Colour = (250, 245, 230)
GOLD: Colour = (214, 170, 62)
PALE_GOLD: Colour = (247, 236, 205)
GREY: Colour = (108, 117, 125)
RULE: Colour = (206, 212, 218)
WHITE: Colour = (255, 255, 255)

SUITS = frozenset("♠♥♦♣")
RED_SUITS = frozenset("♥♦")
SOFT_HYPHEN = "\u00ad"

# A fixed date keeps the output byte-for-byte reproducible (cacheable, comparable).
FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Piece:
    """A stretch of text in one weight."""

    text: str
    bold: bool


@dataclass(frozen=True)
class Line:
    """One wrapped line: its pieces and its width in millimetres."""

    pieces: tuple[Piece, ...]
    width: float


def parse_markup(text: str) -> list[Piece]:
    """Split ``text`` at its ``**`` markers into regular and bold pieces.

    >>> [(piece.text, piece.bold) for piece in parse_markup("take **1 chip** per card")]
    [('take ', False), ('1 chip', True), (' per card', False)]
    """
    pieces = []
    for index, part in enumerate(text.split("**")):
        if part:
            pieces.append(Piece(part, bold=index % 2 == 1))
    return pieces


class Sheet(FPDF):
    """An A4 portrait page in millimetres with the bundled font and no automatic page break."""

    def __init__(self, *, title: str, lang: str) -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self.set_auto_page_break(auto=False)
        self.set_margins(0, 0, 0)
        self.add_font(FAMILY, "", str(FONT_DIR / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        self.set_title(title)
        self.set_lang(lang)
        self.set_creator("rummykit")
        self.set_producer("rummykit (fpdf2)")
        self.set_creation_date(FIXED_DATE)
        self.add_page()

    def use(self, size: float, *, bold: bool = False, colour: Colour = INK) -> None:
        """Select the font size (points), weight and text colour."""
        self.set_font(FAMILY, "B" if bold else "", size)
        self.set_text_color(*colour)

    def width_of(self, text: str, size: float, *, bold: bool = False) -> float:
        """The width of ``text`` in millimetres (soft hyphens take no room)."""
        self.set_font(FAMILY, "B" if bold else "", size)
        return float(self.get_string_width(text.replace(SOFT_HYPHEN, "")))

    def wrap(self, text: str, width: float, size: float) -> list[Line]:
        """Break the marked-up ``text`` into lines no wider than ``width`` at ``size`` points.

        Lines break at spaces; a word too long for a whole line breaks at a soft hyphen when it
        has one, or else between letters, so no line ever overflows.
        """
        lines: list[Line] = []
        for paragraph in text.split("\n"):
            lines.extend(self._wrap_paragraph(paragraph, width, size))
        return lines

    def _wrap_paragraph(self, text: str, width: float, size: float) -> list[Line]:
        words: list[list[Piece]] = [[]]
        for piece in parse_markup(text):
            for index, chunk in enumerate(piece.text.split(" ")):
                if index:
                    words.append([])
                if chunk:
                    words[-1].append(Piece(chunk, piece.bold))
        words = [word for word in words if word]
        # Never break before a lone suit, as in "(♥ ♦)": glue it to the word before.
        glued: list[list[Piece]] = []
        for word in words:
            if glued and word[0].text[0] in SUITS:
                glued[-1] = [*glued[-1], Piece(" ", glued[-1][-1].bold), *word]
            else:
                glued.append(word)
        words = glued
        space = self.width_of(" ", size)
        lines: list[Line] = []
        current: list[Piece] = []
        current_width = 0.0
        queue = list(words)
        while queue:
            word = queue.pop(0)
            word_width = self._pieces_width(word, size)
            gap = space if current else 0.0
            if current_width + gap + word_width <= width + 1e-6:
                if current:
                    current = [*current, Piece(" ", current[-1].bold)]
                current = [*current, *word]
                current_width += gap + word_width
                continue
            head, tail = self._split_word(word, width - current_width - gap, size, hard=not current)
            if head:
                if current:
                    current = [*current, Piece(" ", current[-1].bold)]
                current = [*current, *head]
                current_width += gap + self._pieces_width(head, size)
            lines.append(Line(_merge(current), current_width))
            current, current_width = [], 0.0
            if tail:
                queue.insert(0, tail)
        if current:
            lines.append(Line(_merge(current), current_width))
        return lines

    def _pieces_width(self, pieces: list[Piece], size: float) -> float:
        return sum(self.width_of(piece.text, size, bold=piece.bold) for piece in pieces)

    def _split_word(
        self, word: list[Piece], room: float, size: float, *, hard: bool
    ) -> tuple[list[Piece], list[Piece]]:
        """Split ``word`` so that its head (plus a hyphen) fits in ``room``.

        At a soft hyphen if one fits; when ``hard`` (the word starts a line and cannot fit on
        any), between letters as a last resort; otherwise the whole word moves down a line.
        """
        flat = [(char, piece.bold) for piece in word for char in piece.text]
        best = None
        for index, (char, _bold) in enumerate(flat):
            if char == SOFT_HYPHEN:
                head = [
                    *_pieces_of(flat[:index]),
                    Piece("-", flat[index - 1][1] if index else False),
                ]
                if self._pieces_width(head, size) <= room + 1e-6:
                    best = index
        if best is not None:
            head = [*_pieces_of(flat[:best]), Piece("-", flat[best - 1][1])]
            return head, _pieces_of(flat[best + 1 :])
        if not hard:
            return [], word
        cut = 1
        while cut < len(flat) and self._pieces_width(_pieces_of(flat[: cut + 1]), size) <= room:
            cut += 1
        return _pieces_of(flat[:cut]), _pieces_of(flat[cut:])

    def text_height(self, text: str, width: float, size: float, leading: float = 1.28) -> float:
        """The height in millimetres that :meth:`paragraph` will take."""
        return len(self.wrap(text, width, size)) * size * PT * leading

    def paragraph(
        self,
        text: str,
        x: float,
        y: float,
        width: float,
        size: float,
        *,
        colour: Colour = INK,
        align: str = "L",
        leading: float = 1.28,
    ) -> float:
        """Draw the marked-up ``text`` in the column ``x``..``x + width`` from ``y`` down.

        Returns the height used. ``align`` is ``"L"`` (left) or ``"C"`` (centred).
        """
        line_height = size * PT * leading
        lines = self.wrap(text, width, size)
        for number, line in enumerate(lines):
            baseline = y + number * line_height + size * PT * (0.5 * (leading - 1) + 0.8)
            left = x + (width - line.width) / 2 if align == "C" else x
            self.draw_line(line, left, baseline, size, colour)
        return len(lines) * line_height

    def draw_line(self, line: Line, x: float, baseline: float, size: float, colour: Colour) -> None:
        """Draw one wrapped line at ``baseline``, red suits in red."""
        for piece in line.pieces:
            self.set_font(FAMILY, "B" if piece.bold else "", size)
            for run, red in _suit_runs(piece.text.replace(SOFT_HYPHEN, "")):
                self.set_text_color(*(RED if red else colour))
                self.text(x, baseline, run)
                x += float(self.get_string_width(run))

    def cards(
        self, text: str, x: float, baseline: float, size: float, *, bold: bool = False
    ) -> float:
        """Draw a line of cards such as ``"5♥ 6♥ 7♥"`` (red suits red); return its width."""
        line = Line((Piece(text, bold),), self.width_of(text, size, bold=bold))
        self.draw_line(line, x, baseline, size, INK)
        return line.width


def _pieces_of(chars: list[tuple[str, bool]]) -> list[Piece]:
    return list(_merge([Piece(char, bold) for char, bold in chars]))


def _merge(pieces: list[Piece]) -> tuple[Piece, ...]:
    """Join neighbouring pieces of the same weight (fewer, longer text runs in the PDF)."""
    merged: list[Piece] = []
    for piece in pieces:
        if merged and merged[-1].bold == piece.bold:
            merged[-1] = Piece(merged[-1].text + piece.text, piece.bold)
        else:
            merged.append(piece)
    return tuple(merged)


def _suit_runs(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into runs, each wholly red suits or wholly other characters.

    >>> _suit_runs("K♦ then A♠")
    [('K', False), ('♦', True), (' then A♠', False)]
    """
    runs: list[tuple[str, bool]] = []
    for char in text:
        red = char in RED_SUITS
        if runs and runs[-1][1] == red:
            runs[-1] = (runs[-1][0] + char, red)
        else:
            runs.append((char, red))
    return runs
