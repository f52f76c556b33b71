"""The Rummoli cheat sheet: the board, the four phases, the sequence, the paying cards, on one page.

The sheet is laid out for A4 with wide margins, so that printing it on US letter with "fit to
page" (a scale of about 94 %) loses nothing. All text comes from the ``rules`` catalog domain.
The layout is measured before it is drawn: the body text takes the largest size at which
everything fits on the page, so a longer translation shrinks the type a little instead of
spilling onto a second page.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from rummykit.i18n import LANGUAGES, translations
from rummykit.printing.sheet import (
    CREAM,
    FELT,
    GOLD,
    GREEN,
    GREY,
    INK,
    PALE_GOLD,
    PT,
    RED,
    RULE,
    WHITE,
    Colour,
    Sheet,
)

PAGE_WIDTH = 210.0
PAGE_HEIGHT = 297.0
MARGIN_X = 15.0
MARGIN_TOP = 13.0
MARGIN_BOTTOM = 13.0
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X
GUTTER = 6.0

BODY_SIZES = (8.6, 8.4, 8.2, 8.0, 7.8, 7.6, 7.4, 7.2, 7.0, 6.8, 6.6)
"""Body text sizes (points) tried from largest to smallest until the sheet fits."""

POKER_HANDS = (
    "5♥ 6♥ 7♥ 8♥ 9♥",
    "9♠ 9♥ 9♦ 9♣ 2♠",
    "8♠ 8♥ 8♣ 4♦ 4♣",
    "2♣ 5♣ 7♣ 9♣ 10♣",
    "A♦ 2♠ 3♥ 4♣ 5♦",
    "7♠ 7♥ 7♦ 10♣ 2♦",
    "6♠ 6♦ 3♥ 3♣ A♠",
    "10♥ 10♠ 8♦ 5♣ 2♥",
    "A♣ 9♦ 7♠ 4♥ 3♦",
)
"""An example of each poker hand, high to low (numbers and aces only: alike in every language)."""


COMBO_789 = ("7♣", "8♣", "9♣")
"""The 7-8-9 combo as shown on the sheet, in one suit (no letters: the same in every language)."""


class SheetDoesNotFit(RuntimeError):
    """Even the smallest body size leaves the sheet taller than its page."""


@dataclass(frozen=True)
class Texts:
    """Every text of the sheet, in one language."""

    lang: str
    title: str
    subtitle: str
    facts: str
    board: str
    singles: tuple[str, ...]
    single_caption: str
    combo_kings: str
    combo_kings_caption: str
    combo_789: str
    combo_789_caption: str
    poker_box: str
    poker_caption: str
    rummoli_caption: str
    poker_ranking: str
    poker_names: tuple[str, ...]
    poker_note: str
    paying: str
    paying_text: str
    combos_text: str
    phases_title: str
    phases: tuple[tuple[str, str], ...]
    rules_title: str
    rules: tuple[tuple[str, str], ...]
    hand_end: str
    hand_end_items: tuple[tuple[str, str], ...]
    game_end: str
    game_end_text: str
    footer: str


def texts(lang: str) -> Texts:
    """The sheet's texts in ``lang``, from the ``rules`` catalog (English is the source)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    catalog = translations(lang, "rules")
    _: Callable[[str], str] = catalog.gettext
    return Texts(
        lang=lang,
        title="Rummoli",
        subtitle=_("Cheat sheet"),
        facts=_(
            "2 to 8 players · a 52-card pack, no jokers · aces high · 30 to 50 chips each · "
            "a board (nine circles on paper will do)"
        ),
        board=_("The board: nine boxes"),
        singles=(_("10♠"), _("J♦"), _("Q♣"), _("K♥"), _("A♠")),
        single_caption=_("play it in the sequence"),
        combo_kings=_("K♦ A♦"),
        combo_kings_caption=_("K♦ then A♦ by one player"),
        combo_789=_("7 8 9"),
        combo_789_caption=_("one suit, one player"),
        poker_box=_("Poker"),
        poker_caption=_("the best poker hand"),
        rummoli_caption=_("the first player out"),
        poker_ranking=_("Poker hands, high to low"),
        poker_names=(
            _("Straight flush"),
            _("Four of a kind"),
            _("Full house"),
            _("Flush"),
            _("Straight"),
            _("Three of a kind"),
            _("Two pair"),
            _("One pair"),
            _("High card"),
        ),
        poker_note=_(
            "A-2-3-4-5 is the lowest straight. Suits never break a tie: equal hands share the "
            "Poker box."
        ),
        paying=_("Paying cards"),
        paying_text=_(
            "Play one of these five cards in the sequence and take its box at once. In the "
            "widow, or still in hand when the hand ends, it wins nothing."
        ),
        combos_text=_(
            "**Combos:** K♦ then A♦, or 7, 8 and 9 of one suit, played in a row by one player, "
            "take their box. House rule: the cards may come from several players; whoever plays "
            "the last one takes the box."
        ),
        phases_title=_("One hand in four phases"),
        phases=(
            (
                _("Ante and deal"),
                _(
                    "Everyone puts 1 chip on each box; a player who cannot pay is out. The dealer "
                    "deals the whole pack one card at a time, clockwise, to the players and to an "
                    "extra hand, the **widow**, served right after the dealer. The deal moves left "
                    "each hand."
                ),
            ),
            (
                _("The widow"),
                _(
                    "The dealer may swap the hand, unseen, for the widow, or keep it and "
                    "**auction** the widow: the highest bidder pays the dealer and swaps. Whoever "
                    "takes the widow keeps it; the hand left over is dead. House rule: no widow "
                    "for a player holding a paying card."
                ),
            ),
            (
                _("The poker hand"),
                _(
                    "Each player's best five cards. **Showdown:** the best hand takes the Poker "
                    "box. **Betting,** if agreed: one round, bets of 1 to 5 chips, at most 3 "
                    "raises, all on the Poker box; whoever folds cannot win it. Then all cards "
                    "go back into the hands."
                ),
            ),
            (
                _("The sequence"),
                _(
                    "The poker winner starts. Cards are played face up in order, suit by suit, by "
                    "the four rules below. A paying card takes its box at once. The first player "
                    "to play the last card wins the hand."
                ),
            ),
        ),
        rules_title=_("The sequence in four rules"),
        rules=(
            (
                _("Start"),
                _("The poker winner plays the **lowest card** in hand (equal ranks: any suit)."),
            ),
            (
                _("Follow"),
                _(
                    "Whoever holds the **next card of the same suit** plays it. Several in a row? "
                    "Play them all."
                ),
            ),
            (
                _("Stop"),
                _("**After an ace**, or when the next card is in the widow or already played."),
            ),
            (
                _("Change colour"),
                _(
                    "Whoever played last leads the **lowest card of the other colour**: red (♥ ♦) "
                    "after black, black (♠ ♣) after red. None? The lead passes left."
                ),
            ),
        ),
        hand_end=_("End of a hand"),
        hand_end_items=(
            (
                _("Out."),
                _(
                    "The first player out takes the **Rummoli box**, and each other player pays "
                    "**1 chip per card** left in hand (as far as their chips go)."
                ),
            ),
            (
                _("Blocked."),
                _(
                    "Nobody can change colour after a stop: each player puts **1 chip per card** "
                    "in hand on the Rummoli box, which waits for the next hand."
                ),
            ),
            (
                _("Left over."),
                _("Boxes nobody won keep their chips; the next ante makes them grow."),
            ),
        ),
        game_end=_("End of the game"),
        game_end_text=_(
            "No fixed end: stop after the agreed number of hands, or when all players but one "
            "are out of chips. Chips left on the board go to the best hand of one last "
            "five-card deal (or to the highest card in a cut, or to one extra hand per box "
            "still holding chips). Most chips wins."
        ),
        footer=_(
            "The full rules, with tips and answers to common questions, are on the Rummoli "
            "rules page."
        ),
    )


def rummoli_cheatsheet(lang: str) -> bytes:
    """The Rummoli cheat sheet in ``lang`` (``fr``, ``es``, ``de`` or ``en``) as a one-page PDF.

    >>> pdf = rummoli_cheatsheet("en")
    >>> pdf[:5]
    b'%PDF-'
    """
    words = texts(lang)
    measure = Sheet(title=f"{words.title} — {words.subtitle}", lang=lang)
    for size in BODY_SIZES:
        if _compose(measure, words, size, draw=False) <= PAGE_HEIGHT - MARGIN_BOTTOM:
            break
    else:
        raise SheetDoesNotFit(f"the {lang} Rummoli cheat sheet does not fit on one page")
    sheet = Sheet(title=f"{words.title} — {words.subtitle}", lang=lang)
    _compose(sheet, words, size, draw=True)
    return bytes(sheet.output())


def _compose(pdf: Sheet, words: Texts, size: float, *, draw: bool) -> float:
    """Lay the whole sheet out at body ``size``; draw it when ``draw``. Returns the bottom y."""
    x0 = MARGIN_X
    y = _header(pdf, words, size, MARGIN_TOP, draw=draw)

    # Row 1: the board on the left; poker hands and paying cards on the right.
    board_width = 76.0
    right_x = x0 + board_width + GUTTER
    right_width = CONTENT_WIDTH - board_width - GUTTER
    left_bottom = _board(pdf, words, size, x0, y, board_width, draw=draw)
    right_bottom = _poker_ranking(pdf, words, size, right_x, y, right_width, draw=draw)
    right_bottom = _paying_cards(
        pdf, words, size, right_x, right_bottom + 3.0, right_width, draw=draw
    )
    y = max(left_bottom, right_bottom) + 4.0

    y = _phases(pdf, words, size, x0, y, CONTENT_WIDTH, draw=draw) + 4.0
    y = _sequence_rules(pdf, words, size, x0, y, CONTENT_WIDTH, draw=draw) + 4.0

    # Last row: the end of a hand and the end of the game side by side.
    left_width = (CONTENT_WIDTH - GUTTER) * 0.58
    right_width = CONTENT_WIDTH - GUTTER - left_width
    bottom = max(
        _hand_end(pdf, words, size, x0, y, left_width, draw=draw),
        _game_end(pdf, words, size, x0 + left_width + GUTTER, y, right_width, draw=draw),
    )
    footer_top = PAGE_HEIGHT - MARGIN_BOTTOM - _footer(pdf, words, size, 0.0, draw=False)
    if draw:
        _footer(pdf, words, size, footer_top, draw=True)
    return bottom + 4.0 + (PAGE_HEIGHT - MARGIN_BOTTOM - footer_top)


def _heading(pdf: Sheet, text: str, x: float, y: float, width: float, *, draw: bool) -> float:
    """A section heading with a thin rule under it; returns the y below it."""
    size = 10.5
    if draw:
        pdf.paragraph(f"**{text}**", x, y, width, size, colour=GREEN, leading=1.15)
        pdf.set_draw_color(*GOLD)
        pdf.set_line_width(0.45)
        rule_y = y + size * PT * 1.15 + 0.6
        pdf.line(x, rule_y, x + width, rule_y)
    return y + size * PT * 1.15 + 2.6


def _header(pdf: Sheet, words: Texts, size: float, y: float, *, draw: bool) -> float:
    title_size = 26.0
    baseline = y + title_size * PT * 0.78
    if draw:
        pdf.use(title_size, bold=True, colour=GREEN)
        pdf.text(MARGIN_X, baseline, words.title)
        title_width = pdf.width_of(words.title, title_size, bold=True)
        pdf.use(13.0, colour=GREY)
        pdf.text(MARGIN_X + title_width + 4.0, baseline, words.subtitle)
        _suit_row(pdf, PAGE_WIDTH - MARGIN_X, baseline)
    y = baseline + 3.0
    facts_size = size
    height = pdf.text_height(words.facts, CONTENT_WIDTH, facts_size)
    if draw:
        pdf.paragraph(words.facts, MARGIN_X, y, CONTENT_WIDTH, facts_size, colour=GREY)
        pdf.set_draw_color(*GOLD)
        pdf.set_line_width(0.8)
        pdf.line(MARGIN_X, y + height + 1.5, PAGE_WIDTH - MARGIN_X, y + height + 1.5)
    return y + height + 5.0


def _suit_row(pdf: Sheet, right: float, baseline: float) -> None:
    """The four suits, right-aligned on the title's baseline."""
    size, gap = 20.0, 1.5
    suits = "♠♥♦♣"
    pdf.set_font("DejaVu", "", size)
    x = right - sum(float(pdf.get_string_width(suit)) for suit in suits) - gap * (len(suits) - 1)
    for suit in suits:
        pdf.set_text_color(*(RED if suit in "♥♦" else INK))
        pdf.text(x, baseline, suit)
        x += float(pdf.get_string_width(suit)) + gap


def _board(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    """The octagonal board: eight wedges round the Rummoli box, each saying how it is won."""
    y = _heading(pdf, words.board, x, y, width, draw=draw)
    side = width
    cx, cy = x + side / 2, y + side / 2
    outer = side / 2  # distance from the centre to the outer flats
    inner = outer - 2.2  # inside the frame
    hub = 15.0  # the Rummoli box
    if draw:
        _octagon(pdf, cx, cy, outer, fill=FELT, stroke=None)
        _octagon(pdf, cx, cy, inner, fill=CREAM, stroke=None)
        labels: list[tuple[str, str, Colour]] = [
            (words.singles[0], words.single_caption, CREAM),
            (words.singles[1], words.single_caption, PALE_GOLD),
            (words.singles[2], words.single_caption, CREAM),
            (words.singles[3], words.single_caption, PALE_GOLD),
            (words.singles[4], words.single_caption, CREAM),
            (words.combo_kings, words.combo_kings_caption, PALE_GOLD),
            (words.combo_789, words.combo_789_caption, CREAM),
            (words.poker_box, words.poker_caption, PALE_GOLD),
        ]
        vertex = inner / math.cos(math.radians(22.5))
        hub_vertex = (hub + 1.5) / math.cos(math.radians(22.5))
        for index, (label, caption, fill) in enumerate(labels):
            # Wedge `index` is centred on the direction `90° - 45° * index` (clockwise from top).
            middle = math.radians(90 - 45 * index)
            a, b = middle - math.radians(22.5), middle + math.radians(22.5)
            points = [
                (cx + vertex * math.cos(a), cy - vertex * math.sin(a)),
                (cx + vertex * math.cos(b), cy - vertex * math.sin(b)),
                (cx + hub_vertex * math.cos(b), cy - hub_vertex * math.sin(b)),
                (cx + hub_vertex * math.cos(a), cy - hub_vertex * math.sin(a)),
            ]
            pdf.set_fill_color(*fill)
            pdf.set_draw_color(*GOLD)
            pdf.set_line_width(0.5)
            pdf.polygon(points, style="DF")
            radius = (inner + hub) / 2 + 0.5
            tx, ty = cx + radius * math.cos(middle), cy - radius * math.sin(middle)
            # Upright text has less room in the diagonal wedges than in the straight ones.
            _box_text(pdf, label, caption, tx, ty, 16.0 if index % 2 else 20.0, size)
        pdf.set_fill_color(*FELT)
        pdf.set_draw_color(*GOLD)
        pdf.set_line_width(0.8)
        pdf.circle(cx, cy, hub, style="DF")
        _box_text(pdf, words.title, words.rummoli_caption, cx, cy, 2 * hub - 5, size, on_dark=True)
    return y + side


def _octagon(
    pdf: Sheet, cx: float, cy: float, flats: float, *, fill: Colour, stroke: Colour | None
) -> None:
    """A regular octagon with flat top and sides, ``flats`` from its centre to each side."""
    vertex = flats / math.cos(math.radians(22.5))
    points = [
        (
            cx + vertex * math.cos(math.radians(22.5 + 45 * k)),
            cy - vertex * math.sin(math.radians(22.5 + 45 * k)),
        )
        for k in range(8)
    ]
    pdf.set_fill_color(*fill)
    if stroke is not None:
        pdf.set_draw_color(*stroke)
    pdf.polygon(points, style="DF" if stroke is not None else "F")


def _box_text(
    pdf: Sheet,
    label: str,
    caption: str,
    cx: float,
    cy: float,
    width: float,
    size: float,
    *,
    on_dark: bool = False,
) -> None:
    """A box's name and, under it, how it is won, centred on ``(cx, cy)``."""
    label_size = 12.0
    while label_size > 7.0 and pdf.width_of(label, label_size, bold=True) > width:
        label_size -= 0.5
    caption_size = min(max(size - 2.0, 5.4), 5.8)
    label_height = label_size * PT * 1.1
    caption_height = pdf.text_height(caption, width, caption_size, leading=1.15)
    top = cy - (label_height + 0.6 + caption_height) / 2
    colour = WHITE if on_dark else INK
    pdf.paragraph(
        f"**{label}**",
        cx - width / 2,
        top,
        width,
        label_size,
        colour=colour,
        align="C",
        leading=1.1,
    )
    pdf.paragraph(
        caption,
        cx - width / 2,
        top + label_height + 0.6,
        width,
        caption_size,
        colour=PALE_GOLD if on_dark else GREY,
        align="C",
        leading=1.15,
    )


def _poker_ranking(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    y = _heading(pdf, words.poker_ranking, x, y, width, draw=draw)
    row = size * PT * 1.45
    cards_size = size + 0.2
    for number, (name, hand) in enumerate(zip(words.poker_names, POKER_HANDS, strict=True)):
        if draw:
            if number % 2 == 0:
                pdf.set_fill_color(*PALE_GOLD)
                pdf.rect(x, y, width, row, style="F")
            baseline = y + row * 0.72
            pdf.use(size - 0.6, bold=True, colour=GREEN)
            pdf.text(x + 1.2, baseline, str(number + 1))
            pdf.use(size)
            pdf.text(x + 5.0, baseline, name)
            hand_width = pdf.width_of(hand, cards_size)
            pdf.cards(hand, x + width - 1.2 - hand_width, baseline, cards_size)
        y += row
    y += 1.2
    note_height = pdf.text_height(words.poker_note, width, size - 0.4)
    if draw:
        pdf.paragraph(words.poker_note, x, y, width, size - 0.4, colour=GREY)
    return y + note_height


def _card(pdf: Sheet, label: str, x: float, y: float, width: float, height: float) -> None:
    """A small playing card: the rank of ``label`` (such as ``"10♠"``) over its suit."""
    pdf.set_fill_color(*WHITE)
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.3)
    pdf.rect(x, y, width, height, style="DF", round_corners=True, corner_radius=1.2)
    rank, suit = label[:-1], label[-1]
    rank_size = 9.0 if len(rank) < 2 else 8.0
    colour = RED if suit in "♥♦" else INK
    pdf.use(rank_size, bold=True, colour=colour)
    pdf.text(x + (width - pdf.width_of(rank, rank_size, bold=True)) / 2, y + height * 0.42, rank)
    pdf.use(12.0, colour=colour)
    pdf.text(x + (width - pdf.width_of(suit, 12.0)) / 2, y + height * 0.84, suit)


def _paying_cards(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    """The five paying cards, then the two combos, as a strip of cards with the rule below."""
    y = _heading(pdf, words.paying, x, y, width, draw=draw)
    groups = (words.singles, words.combo_kings.split(), COMBO_789)
    count = sum(len(group) for group in groups)
    group_gap, gap = 4.0, 1.0
    card_width = (width - group_gap * (len(groups) - 1) - gap * (count - len(groups))) / count
    card_height = card_width * 1.5
    if draw:
        left = x
        for group in groups:
            for label in group:
                _card(pdf, label, left, y, card_width, card_height)
                left += card_width + gap
            left += group_gap - gap
    y += card_height + 2.0
    for text in (words.paying_text, words.combos_text):
        height = pdf.text_height(text, width, size - 0.2)
        if draw:
            pdf.paragraph(text, x, y, width, size - 0.2)
        y += height + 1.0
    return y - 1.0


def _columns(
    pdf: Sheet,
    items: tuple[tuple[str, str], ...],
    size: float,
    x: float,
    y: float,
    width: float,
    *,
    draw: bool,
    badge: Colour,
    fill: Colour,
) -> float:
    """Numbered boxes side by side, one per item (title, text); returns the bottom y."""
    gap = 4.0
    count = len(items)
    column = (width - gap * (count - 1)) / count
    pad = 2.2
    inner = column - 2 * pad
    title_size = size + 1.2
    heights = []
    for title, text in items:
        title_height = pdf.text_height(f"**{title}**", inner - 7.5, title_size, leading=1.15)
        heights.append(max(title_height, 6.0) + 1.6 + pdf.text_height(text, inner, size))
    box_height = max(heights) + 2 * pad
    if draw:
        for number, (title, text) in enumerate(items):
            left = x + number * (column + gap)
            pdf.set_fill_color(*fill)
            pdf.rect(left, y, column, box_height, style="F", round_corners=True, corner_radius=2.0)
            _badge(pdf, number + 1, left + pad + 3.0, y + pad + 3.0, badge)
            title_height = pdf.text_height(f"**{title}**", inner - 7.5, title_size, leading=1.15)
            title_top = y + pad + max(0.0, (6.0 - title_height) / 2)
            pdf.paragraph(
                f"**{title}**",
                left + pad + 7.5,
                title_top,
                inner - 7.5,
                title_size,
                colour=GREEN,
                leading=1.15,
            )
            top = y + pad + max(title_height, 6.0) + 1.6
            pdf.paragraph(text, left + pad, top, inner, size)
    return y + box_height


def _phases(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    y = _heading(pdf, words.phases_title, x, y, width, draw=draw)
    return _columns(pdf, words.phases, size, x, y, width, draw=draw, badge=GREEN, fill=CREAM)


def _sequence_rules(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    """The four rules of the sequence in a two-by-two grid, each with its number and title."""
    y = _heading(pdf, words.rules_title, x, y, width, draw=draw)
    gap, pad, badge = 4.0, 2.2, 6.0
    cell = (width - gap) / 2
    text_width = cell - 2 * pad - badge - 2.0
    paragraphs = [f"**{title}.** {text}" for title, text in words.rules]
    heights = [max(badge, pdf.text_height(text, text_width, size)) for text in paragraphs]
    for row in range(2):
        row_height = max(heights[2 * row : 2 * row + 2]) + 2 * pad
        for column in range(2):
            number = 2 * row + column
            left = x + column * (cell + gap)
            if draw:
                pdf.set_fill_color(*PALE_GOLD)
                pdf.rect(
                    left, y, cell, row_height, style="F", round_corners=True, corner_radius=2.0
                )
                _badge(pdf, number + 1, left + pad + badge / 2, y + pad + badge / 2, RED)
                pdf.paragraph(
                    paragraphs[number], left + pad + badge + 2.0, y + pad, text_width, size
                )
        y += row_height + (gap / 2 if row == 0 else 0.0)
    return y


def _badge(pdf: Sheet, number: int, cx: float, cy: float, colour: Colour) -> None:
    """A filled circle with a white number in it."""
    pdf.set_fill_color(*colour)
    pdf.circle(cx, cy, 3.0, style="F")
    digit = str(number)
    pdf.use(10.0, bold=True, colour=WHITE)
    pdf.text(cx - pdf.width_of(digit, 10.0, bold=True) / 2, cy + 10.0 * PT * 0.36, digit)


def _hand_end(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    y = _heading(pdf, words.hand_end, x, y, width, draw=draw)
    for label, text in words.hand_end_items:
        paragraph = f"**{label}** {text}"
        height = pdf.text_height(paragraph, width, size)
        if draw:
            pdf.paragraph(paragraph, x, y, width, size)
        y += height + 1.0
    return y - 1.0


def _game_end(
    pdf: Sheet, words: Texts, size: float, x: float, y: float, width: float, *, draw: bool
) -> float:
    y = _heading(pdf, words.game_end, x, y, width, draw=draw)
    height = pdf.text_height(words.game_end_text, width, size)
    if draw:
        pdf.paragraph(words.game_end_text, x, y, width, size)
    return y + height


def _footer(pdf: Sheet, words: Texts, size: float, y: float, *, draw: bool) -> float:
    footer_size = size - 1.2
    text = f"{words.footer}  ·  rummykit"
    height = pdf.text_height(text, CONTENT_WIDTH, footer_size)
    if draw:
        pdf.set_draw_color(*RULE)
        pdf.set_line_width(0.3)
        pdf.line(MARGIN_X, y, PAGE_WIDTH - MARGIN_X, y)
        pdf.paragraph(text, MARGIN_X, y + 1.2, CONTENT_WIDTH, footer_size, colour=GREY, align="C")
    return y + 1.2 + height
