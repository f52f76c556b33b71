"""Every refusal of the rules reaches the player as a sentence in the player's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rummykit
from rummykit.core import IllegalAction
from rummykit.i18n import LANGUAGES, translations
from rummykit.web import catalogs, errors
from rummykit.web.language import site_translations
from rummykit.web.play.messages import CLIENT, ERRORS, describe

SOURCES = Path(rummykit.__file__).parent
RULE_MODULES = [
    "romme/turn.py",
    "romme/game.py",
    "romme/actions.py",
    "romme/rules.py",
    "tiles/turn.py",
    "tiles/model.py",
    "tiles/game.py",
    "cards.py",
]
NEVER_FROM_A_PLAYER = {
    "bad_meld": "a table meld read back from JSON",
    "bad_position": "a position set up by hand (tests, puzzles)",
    "bad_record": "a stored record of another game",
    "bad_seats": "a record's seat names",
    "bad_seed": "a seed that is not an integer",
    "bad_view": "a view read back from JSON",
    "no_record": "a game dealt by hand has no record",
}


def engine_codes() -> set[str]:
    codes: set[str] = set()
    for name in RULE_MODULES:
        text = (SOURCES / name).read_text()
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', text))
        for pair in re.findall(r'code = "([a-z_]+)" if .* else "([a-z_]+)"', text):
            codes |= set(pair)
    return codes


def test_every_rule_code_of_the_engines_has_a_sentence() -> None:
    codes = engine_codes()
    assert {"opening_below_minimum", "first_meld_below_minimum", "exchange_before_opening"} <= codes
    missing = sorted(c for c in codes if c not in errors.MESSAGES and c not in NEVER_FROM_A_PLAYER)
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_fills_its_placeholders_in_every_language(lang: str) -> None:
    translations = site_translations(lang)
    generic = translations.gettext(errors.GENERIC)
    for code, english in ERRORS.items():
        params = {name: "7" for name in re.findall(r"%\((\w+)\)s", english)}
        text = describe(IllegalAction(code, **params), translations)["message"]
        assert "%(" not in text and generic.split("(")[0] not in text, (lang, code, text)
        if lang != "en":
            assert text != english % params, (lang, code)


def test_the_catalogs_of_the_play_pages_are_complete() -> None:
    assert catalogs.missing("play") == {lang: set() for lang in LANGUAGES}
    ids = catalogs.msgids("play")
    assert set(CLIENT.values()) <= ids and set(ERRORS.values()) <= ids


def test_cards_and_tiles_are_named_as_people_read_them() -> None:
    french = site_translations("fr")
    found = describe(IllegalAction("tile_not_held", tile="r5#1"), french)
    assert found["message"] == "rouge 5 n'est pas sur votre chevalet."
    assert found["params"] == {"tile": "r5#1"}
    card = describe(IllegalAction("card_not_in_hand", card="8♠#1"), site_translations("de"))
    assert card["message"] == "8♠ ist nicht auf deiner Hand."
    joker = describe(IllegalAction("invalid_meld", cards="9♥ 9♦#1 JK#2"), site_translations("es"))
    assert joker["message"] == "9♥ 9♦ comodín no es ni un grupo ni una escalera."
    renamed = describe(IllegalAction("game_over"), site_translations("en"))
    assert renamed["code"] == "game_finished" and renamed["message"] == "The game is over."


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_other_domain_overrides_a_translation_of_the_play_pages(lang: str) -> None:
    """Every domain is searched when a page renders: the game pages' messages come out as the
    ``play`` catalog translates them (and a message shared with another part of the site is
    translated the same way there)."""
    own = translations(lang, "play")
    site = site_translations(lang)
    for message in catalogs.msgids("play"):
        assert site.gettext(message) == own.gettext(message), message
