"""The printable Rummoli cheat sheet: one A4 page, real text, every language, safe margins."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from rummykit.cli.apps import app
from rummykit.i18n import LANGUAGES
from rummykit.printing import CHEATSHEETS, rummoli_cheatsheet
from rummykit.printing.rummoli import BODY_SIZES, MARGIN_BOTTOM, MARGIN_TOP, MARGIN_X

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# The titles of the four phases, written out here so that a missing translation cannot pass.
PHASES = {
    "en": ("Ante and deal", "The widow", "The poker hand", "The sequence"),
    "fr": ("Mise et donne", "La veuve", "La main de poker", "La séquence"),
    "es": ("Puesta y reparto", "La viuda", "La mano de póquer", "La secuencia"),
    "de": ("Einsatz und Geben", "Die Witwe", "Die Pokerhand", "Die Sequenz"),
}
# A sentence-sized fragment of each language that the English sheet does not contain.
LOCAL_WORDS = {
    "en": ("The sequence in four rules", "Paying cards"),
    "fr": ("La séquence en quatre règles", "Cartes payantes", "V♦", "R♥"),
    "es": ("La secuencia en cuatro reglas", "Cartas que pagan"),
    "de": ("Die Sequenz in vier Regeln", "Gewinnkarten", "B♦"),
}


@cache
def sheet(lang: str) -> bytes:
    return rummoli_cheatsheet(lang)


def page_text(lang: str) -> str:
    reader = PdfReader(io.BytesIO(sheet(lang)))
    return " ".join(reader.pages[0].extract_text().split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheet_is_exactly_one_a4_page(lang: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(lang)))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(A4[0], abs=0.5)
    assert float(box.height) == pytest.approx(A4[1], abs=0.5)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_four_phases_are_titled_in_the_language_of_the_sheet(lang: str) -> None:
    text = page_text(lang)
    for title in PHASES[lang]:
        assert title in text
    for fragment in LOCAL_WORDS[lang]:
        assert fragment in text
    if lang != "en":
        for title in PHASES["en"]:
            assert title not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_suits_accents_and_the_board_come_out_as_text(lang: str) -> None:
    text = page_text(lang)
    for suit in "♠♥♦♣":
        assert suit in text
    assert "Rummoli" in text
    assert "10♠" in text
    assert "A♠" in text
    # Every poker example is on the sheet, whatever the language.
    assert "5♥ 6♥ 7♥ 8♥ 9♥" in text
    assert "A♦ 2♠ 3♥ 4♣ 5♦" in text


def test_accented_text_is_extracted_intact() -> None:
    assert "Le gagnant du poker" in page_text("fr")
    assert "Straße" in page_text("de")
    assert "Póquer" in page_text("es")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bundled_font_is_embedded(lang: str) -> None:
    reader = PdfReader(io.BytesIO(sheet(lang)))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = {str(font.get_object()["/BaseFont"]) for font in fonts.values()}
    assert names
    assert all("DejaVu" in name for name in names), names
    for font in fonts.values():
        descriptor = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()  # the TrueType program is inside


@pytest.mark.parametrize("lang", LANGUAGES)
def test_all_text_keeps_the_margins_needed_to_fit_us_letter(lang: str) -> None:
    """Scaled to letter (× 0.94) and centred, nothing may come within 9 mm of the paper's edge."""
    reader = PdfReader(io.BytesIO(sheet(lang)))
    positions: list[tuple[float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip():
            positions.append((tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]))

    reader.pages[0].extract_text(visitor_text=visit)
    assert len(positions) > 100
    xs = [x for x, _ in positions]
    ys = [y for _, y in positions]
    assert min(xs) >= MARGIN_X * MM - 0.5
    assert max(xs) <= A4[0] - MARGIN_X * MM  # text starts at least one margin from the right
    assert min(ys) >= MARGIN_BOTTOM * MM - 0.5
    assert max(ys) <= A4[1] - MARGIN_TOP * MM
    scale = min(215.9 / 210, 279.4 / 297)
    assert MARGIN_TOP * scale > 9 and MARGIN_X * scale > 9


@pytest.mark.parametrize("lang", LANGUAGES)
def test_body_text_stays_readable(lang: str) -> None:
    """Long translations shrink the type a little, never below the smallest allowed size."""
    reader = PdfReader(io.BytesIO(sheet(lang)))
    sizes: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if len(text.strip()) > 20:
            sizes.append(size * tm[0])

    reader.pages[0].extract_text(visitor_text=visit)
    assert min(sizes) >= BODY_SIZES[-1] - 2.0 - 0.01  # captions on the board are body − 2


def test_output_is_reproducible_byte_for_byte() -> None:
    assert rummoli_cheatsheet("de") == sheet("de")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        rummoli_cheatsheet("it")


def test_every_cheat_sheet_is_registered() -> None:
    assert set(CHEATSHEETS) == {"rummoli"}
    assert CHEATSHEETS["rummoli"] is rummoli_cheatsheet


def test_rendered_page_is_saved_as_an_artefact() -> None:
    """Render the French sheet with PDFium and keep the PNG for people to look at."""
    pdf = pypdfium2.PdfDocument(sheet("fr"))
    image = pdf[0].render(scale=150 / 72).to_pil()
    width, height = image.size
    assert abs(width - 1240) <= 1 and abs(height - 1754) <= 1  # A4 at 150 dpi
    ARTIFACTS.mkdir(exist_ok=True)
    image.save(ARTIFACTS / "rummoli-cheatsheet-fr.png")
    # The page is drawn: the felt green of the board and the red of the suits are there.
    colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    greenish = sum(n for n, (r, g, b) in colours if g > 90 and r < 60 and b < 100)
    reddish = sum(n for n, (r, g, b) in colours if r > 170 and g < 70 and b < 90)
    assert greenish > 10_000
    assert reddish > 1_000


def test_the_command_writes_the_pdf(tmp_path: Path) -> None:
    import rummykit.cli.printing  # noqa: F401  (attaches the command)

    target = tmp_path / "rummoli.pdf"
    result = CliRunner().invoke(app, ["cheatsheet", "rummoli", "--lang", "fr", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == sheet("fr")
    refused = CliRunner().invoke(app, ["cheatsheet", "rummoli", "--lang", "it"])
    assert refused.exit_code != 0
