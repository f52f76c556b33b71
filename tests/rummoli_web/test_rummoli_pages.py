"""The Rummoli pages of the site: the board and the demonstration, in every language.

Every page renders in French, Spanish, German and English; every message of the domain
``rummoli`` is translated; no English sentence shows on a translated page and no word bypasses
the catalogs; every event the engine can log is put in words; the demonstration shows exactly
what the engine played.
"""

from __future__ import annotations

import gettext
import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from rummykit import rummoli
from rummykit.i18n import LANGUAGE_NAMES, LANGUAGES, catalog
from rummykit.rummoli import BOXES, Box, Rules, State, demo_hand
from rummykit.rummoli.bots import make_bot
from rummykit.web import catalogs, rendering
from rummykit.web.language import site_translations
from rummykit.web.play import rummoli as rummoli_play
from rummykit.web.routes import rummoli as rummoli_routes
from rummykit.web.rummoli import board as rummoli_board
from rummykit.web.rummoli import demo as rummoli_demo
from rummykit.web.rummoli import sentences as rummoli_sentences
from rummykit.web.rummoli import words as rummoli_words

from .helpers import Marking, visible_texts

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# Written out here, so that a catalog that lost its translations cannot pass.
TITLES = {
    "en": ("Rummoli board", "Rummoli demonstration"),
    "fr": ("Plateau de Rummoli", "Démonstration de Rummoli"),
    "es": ("Tablero de Rummoli", "Demostración de Rummoli"),
    "de": ("Rummoli-Spielplan", "Rummoli-Vorführung"),
}
NAMES = set(rummoli_demo.DEMO_NAMES)


def page_paths(lang: str) -> list[str]:
    """Every Rummoli page worth seeing, in several states."""
    demo = f"/{lang}/rummoli/demo"
    return [
        f"/{lang}/rummoli/board",
        demo,
        f"{demo}?step=30",
        f"{demo}?step=10000",
        f"{demo}?seed=5&hand=3&step=12",
    ]


def test_every_message_of_the_rummoli_domain_is_translated() -> None:
    messages = [m for m in catalogs.extract("rummoli") if m.id]
    assert len(messages) > 150
    for lang in TRANSLATED:
        own = catalog(lang, "rummoli")
        for message in messages:
            found = own.get(message.id, context=message.context)
            assert found is not None and not found.fuzzy, (lang, message.id)
            forms = found.string if isinstance(found.string, tuple) else (found.string,)
            assert forms and all(forms), (lang, message.id)
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            wanted = {p for text in ids for p in re.findall(r"%\(\w+\)s", text)}
            for form in forms:
                assert set(re.findall(r"%\(\w+\)s", form)) <= wanted, (lang, message.id, form)


def test_the_site_domain_does_not_take_the_rummoli_module() -> None:
    """The pages' own module belongs to the domain ``rummoli``, not to ``web``."""
    assert "Rummoli demonstration" in catalogs.msgids("rummoli")
    assert not any(
        "web/rummoli/" in path or "web/play/rummoli.py" in path
        for message in catalogs.extract("web")
        for path, _ in message.locations
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_renders_in_its_language(client: TestClient, lang: str) -> None:
    board_title, demo_title = TITLES[lang]
    for path in page_paths(lang):
        response = client.get(path)
        assert response.status_code == 200, path
        assert f'<html lang="{lang}">' in response.text
        texts = visible_texts(response.text)
        assert (board_title if "board" in path else demo_title) in texts, path


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_text_leaks_into_a_translated_page(client: TestClient, lang: str) -> None:
    translations = site_translations(lang)
    english = set()
    for message in catalogs.extract("rummoli"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            if text and len(text) >= 12 and translations.gettext(text) != text:
                english.update(p.strip() for p in re.split(r"%\(\w+\)s", text) if len(p) >= 12)
    for path in page_paths(lang):
        joined = unescape("\n".join(visible_texts(client.get(path).text)))
        for part in english:
            assert part not in joined, f"{path} shows the English {part!r}"


def test_every_word_on_every_page_comes_from_a_catalog(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    marking = Marking()
    monkeypatch.setattr(rendering, "site_translations", lambda lang: marking)
    monkeypatch.setattr(rummoli_routes, "site_translations", lambda lang: marking)
    rendering.environment.cache_clear()
    data = {
        *NAMES,
        "rummykit",
        "Rummoli",
        *LANGUAGE_NAMES.values(),
        *(c.upper() for c in LANGUAGES),
    }
    try:
        for path in page_paths("en"):
            html = client.get(path).text
            # A sentence may hold markup (a red suit): drop the tags first, so that its
            # brackets enclose all of its words.
            body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
            body = re.sub(r"<[^>]*>", " ", body)
            attributes = [t for t in visible_texts(html) if t not in body]
            for text in [*attributes, *unescape(body).splitlines()]:
                rest = text
                while "⟦" in rest:  # a translated card inside a translated sentence
                    rest, count = re.subn(r"⟦[^⟦⟧]*⟧", " ", rest)
                    assert count, text
                words = [w for w in re.findall(r"[^\W\d_]+", rest) if w not in data]
                assert not words, f"{path}: {text!r} is not translated"
    finally:
        rendering.environment.cache_clear()


def test_a_wrong_step_or_seed_is_refused(client: TestClient) -> None:
    assert client.get("/en/rummoli/demo?step=x").status_code == 422
    assert client.get("/en/rummoli/demo?hand=0").status_code == 422
    assert client.get("/en/rummoli/demo?seed=-1").status_code == 422
    assert client.get("/it/rummoli/demo").status_code == 404


def test_another_deal_goes_to_a_fresh_seed(client: TestClient) -> None:
    response = client.get("/de/rummoli/demo?new=1")
    assert response.status_code == 303
    assert re.fullmatch(r"/de/rummoli/demo\?seed=\d+", response.headers["location"])


# --- the words of the events ------------------------------------------------------------------


def every_kind_of_event() -> list[dict[str, object]]:
    """Events of whole games under every option, played by the computer."""
    events: list[dict[str, object]] = []
    variants = [
        (Rules(hands=2, final_split="poker"), 4, 1),
        (Rules(poker="betting", hands=3, final_split="cut"), 5, 2),
        (
            Rules(combos="last_card", widow_payers_barred=True, hands=2, final_split="extra_hands"),
            3,
            3,
        ),
        (Rules(starting_chips=12, poker="betting"), 2, 4),
    ]
    for rules, players, seed in variants:
        state = State(rules, players, seed)
        bots = [make_bot("random", seed * 10 + i) for i in range(players)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].choose(state.view(seat)), seat)
        events.extend(state.events)
    return events


@pytest.fixture(scope="module")
def events() -> list[dict[str, object]]:
    return every_kind_of_event()


def test_the_games_cover_the_events_worth_describing(events: list[dict[str, object]]) -> None:
    codes = {str(e["code"]) for e in events}
    assert {
        "hand_start",
        "ante",
        "deal",
        "widow_kept",
        "widow_swapped",
        "pass",
        "bid",
        "auction_won",
        "poker_show",
        "poker_won",
        "bet",
        "call",
        "fold",
        "lead",
        "play",
        "colour_change",
        "stop",
        "box_won",
        "went_out",
        "payment",
        "hand_end",
        "game_end",
        "game_over",
    } <= codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_is_put_in_words(events: list[dict[str, object]], lang: str) -> None:
    t = site_translations(lang)
    names = ["Ann", "Bea", "Cid", "Dee", "Eve"]
    fallback = t.gettext("Something happened that this page cannot describe (%(code)s).")
    fallback = fallback.split("%")[0]
    for event in events:
        for me in (None, 0, 1):
            text = rummoli_sentences.describe(event, t, names, me=me)
            assert text and fallback not in text, event
            assert "%(" not in text and "{" not in text, (event, text)
    # Every hand-made event the engine can log, with a reader or not.
    made = [
        {"code": "blocked"},
        {"code": "blocked_payment", "seat": 1, "cards": 3, "chips": 3},
        {"code": "lead_passes", "seat": 0, "to": 1, "colour": "red"},
        {"code": "lead_passes", "seat": 0, "to": 1, "colour": "black"},
        {"code": "stop", "reason": "already_played", "card": "5♦", "seat": 2, "missing": "6♦"},
        {"code": "player_out", "seat": 3, "chips": 4},
        {"code": "final_tie", "seats": [0, 2]},
        {"code": "cut", "seat": 1, "card": "Q♥"},
        {"code": "extra_hands", "count": 2},
        {"code": "final_share", "seat": 1, "chips": 7},
        {"code": "widow_dead"},
        {"code": "check", "seat": 0},
        {"code": "raise", "seat": 0, "chips": 2, "total": 3},
        {"code": "call", "seat": 1, "chips": 1, "all_in": True},
        {"code": "poker_won", "seats": [0, 1], "chips": 3, "pot": 0, "remainder": 1},
        {"code": "poker_won", "seats": [1], "chips": 2, "pot": 1, "remainder": 0},
        {"code": "box_won", "box": "poker", "seat": 0, "chips": 0},
        {"code": "game_over", "chips": [1, 1], "board": {}, "winners": [0, 1]},
    ]
    for event in made:
        for me in (None, 0, 1):
            text = rummoli_sentences.describe(event, t, names, me=me)
            assert text and fallback not in text and "%(" not in text, event


def test_the_sentences_say_why_a_sequence_stops_in_every_language() -> None:
    stops = {
        "ace": {"code": "stop", "reason": "ace", "card": "A♥", "seat": 0},
        "widow": {"code": "stop", "reason": "in_widow", "card": "10♠", "seat": 0, "missing": "J♠"},
        "played": {
            "code": "stop",
            "reason": "already_played",
            "card": "Q♦",
            "seat": 0,
            "missing": "K♦",
        },
    }
    expected = {
        "en": ("A♥ is an ace", "J♠ lies in the widow", "K♦ has already been played"),
        "fr": ("A♥ est un as", "V♠ est dans la veuve", "R♦ a déjà été joué"),
        "es": ("A♥ es un as", "J♠ está en la viuda", "K♦ ya se ha jugado"),
        "de": ("A♥ ist ein Ass", "B♠ liegt in der Witwe", "K♦ wurde schon gespielt"),
    }
    for lang, (ace, widow, played) in expected.items():
        t = site_translations(lang)
        assert ace in rummoli_sentences.describe(stops["ace"], t, ["Ann"])
        assert widow in rummoli_sentences.describe(stops["widow"], t, ["Ann"])
        assert played in rummoli_sentences.describe(stops["played"], t, ["Ann"])


def test_a_reader_is_said_you() -> None:
    t = site_translations("en")
    event = {"code": "payment", "seat": 1, "to": 0, "cards": 3, "chips": 2}
    names = ["Ann", "Bea"]
    said = rummoli_sentences.describe(event, t, names)
    assert said == "Bea pays Ann 2 chips for 3 cards left in hand."
    said = rummoli_sentences.describe(event, t, names, me=0)
    assert said == "Bea pays you 2 chips for 3 cards left in hand."
    said = rummoli_sentences.describe(event, t, names, me=1)
    assert said == "You pay Ann 2 chips for 3 cards left in your hand."


def test_a_share_of_the_leftover_is_told_to_each_player_who_gets_one() -> None:
    t = site_translations("en")
    event = {"code": "final_share", "seat": 1, "chips": 7}
    said = rummoli_sentences.describe(event, t, ["Ann", "Bea"])
    assert said == "Bea gets a share of the chips left on the board: 7 chips."
    said = rummoli_sentences.describe(event, t, ["Ann", "Bea"], me=1)
    assert said == "You get a share of the chips left on the board: 7 chips."


def test_cards_take_the_ranks_of_each_language() -> None:
    expected = {"en": "J♦ Q♣ K♥ A♠", "fr": "V♦ D♣ R♥ A♠", "es": "J♦ Q♣ K♥ A♠", "de": "B♦ D♣ K♥ A♠"}
    for lang, text in expected.items():
        t = site_translations(lang)
        assert rummoli_words.cards_text(["J♦", "Q♣", "K♥", "A♠"], t) == text
    assert rummoli_words.card_name("Q♣", site_translations("fr")) == "dame de trèfle"
    assert rummoli_words.card_name("10♥", site_translations("de")) == "Herz 10"


def test_the_players_own_seat_is_addressed_as_in_the_sentences() -> None:
    """The table names the player as its sentences address the player (German "du"), even
    where another part of the site translates a plain "You" otherwise."""
    expected = {"fr": "Vous", "es": "Tú", "de": "Du", "en": "You"}
    for lang, word in expected.items():
        assert rummoli_play.client_texts(site_translations(lang))["client"]["you"] == word


def test_each_box_says_how_it_is_won_under_the_options() -> None:
    t = gettext.NullTranslations()
    strict, loose = Rules(), Rules(combos="last_card", poker="betting")
    assert "One player" in rummoli_board.box_how(Box.SEVEN_EIGHT_NINE, strict, t)
    assert "by anyone" in rummoli_board.box_how(Box.SEVEN_EIGHT_NINE, loose, t)
    assert "by anyone" in rummoli_board.box_how(Box.KING_ACE_DIAMONDS, loose, t)
    assert "bets" in rummoli_board.box_how(Box.POKER, loose, t)
    assert "shows" in rummoli_board.box_how(Box.POKER, strict, t)
    assert "10♠" in rummoli_board.box_how(Box.TEN_SPADES, strict, t)
    assert [b.box for b in rummoli_board.board_boxes(strict, t)][4] == "rummoli"  # the centre
    assert {b.box for b in rummoli_board.board_boxes(strict, t)} == {box.value for box in BOXES}


# --- the demonstration shows what the engine played -------------------------------------------


def test_the_demo_frames_follow_the_engine_step_by_step() -> None:
    hand = demo_hand(4, rummoli_demo.DEMO_SEED)
    demo = rummoli_demo.build_demo(hand, 1, site_translations("en"))
    assert len(demo.frames) == len(hand.steps)
    for frame, step in zip(demo.frames, hand.steps, strict=True):
        assert frame.code == step.code
        assert frame.board == step.board and frame.chips == step.chips
    # Every card the hands lost was played, in order, and the runs end at the stops.
    played = [p.card for p in demo.plays]
    dealt = {c.code for h in hand.hands for c in h}
    left = {c.code for h in hand.steps[-1].hands for c in h}
    assert set(played) == dealt - left and len(played) == len(set(played))
    stops = [s for s in hand.steps if s.code == "stop"]
    ends = [hand.steps.index(s) for s in stops]
    ends.append(next(i for i, s in enumerate(hand.steps) if s.code == "went_out"))
    assert [r.stop_step for r in demo.runs] == ends
    # The default deal shows every reason for a stop, a passed lead and a combination.
    reasons = {s.params["reason"] for s in stops}
    assert reasons == {"ace", "in_widow", "already_played"}
    codes = {s.code for s in hand.steps}
    assert {"lead_passes", "went_out"} <= codes
    assert any(
        s.code == "box_won" and s.params["box"] in ("king_ace_diamonds", "seven_eight_nine")
        for s in hand.steps
    )


def test_the_demo_page_shows_the_engines_hand(client: TestClient) -> None:
    hand = demo_hand(4, rummoli_demo.DEMO_SEED)
    html = client.get("/en/rummoli/demo?step=10000").text
    for seat, cards in enumerate(hand.hands):
        shown = re.findall(
            r'data-card="([^"]+)"', html.split(f'data-seat="{seat}"')[1].split("</ul>")[0]
        )
        assert shown == [c.code for c in cards]
    widow = html.split('class="rm-widow"')[1].split("</ul>")[0]
    assert re.findall(r'data-card="([^"]+)"', widow) == [c.code for c in hand.widow]
    # At the end the board and each player's chips are the engine's.
    for box in BOXES:
        chips = hand.board_after[box.slot]
        button = html.split(f'data-box="{box.value}"')[1].split("</button>")[0]
        assert f"{chips} chip" in button, box
    for seat, chips in enumerate(hand.chips_after):
        assert f'data-chips-of="{seat}">{chips} chips<' in html


def test_the_next_hand_carries_the_unwon_boxes(client: TestClient) -> None:
    first = demo_hand(4, rummoli_demo.DEMO_SEED)
    second = first.next_hand()
    html = client.get("/en/rummoli/demo?hand=2").text
    assert second.board_before == first.board_after
    assert any(first.board_after)  # something to carry
    for box in BOXES:
        chips = second.steps[0].board[box.slot]
        assert chips == first.board_after[box.slot]
        button = html.split(f'data-box="{box.value}"')[1].split("</button>")[0]
        assert f">{chips} chip" in button


def test_a_demo_hand_can_be_reached_far_down_the_chain() -> None:
    hand = rummoli_demo.demo_chain(3, 5)
    assert hand.seed == 7
    assert isinstance(hand, rummoli.DemoHand)
