"""The JSON forms kept per value (a meld's page form, the rules' options) are handed out as
copies: what one answer changes never reaches the next."""

from __future__ import annotations

from rummykit import romme, rummoli
from rummykit.cards import parse_cards
from rummykit.web.play.romme import meld_json


def test_a_melds_page_form_is_a_fresh_copy_each_time() -> None:
    meld = romme.TableMeld(tuple(parse_cards("7♥ JK 9♥")), "run", owner=1, id=4)
    first = meld_json(meld)
    assert first["stands"] == [None, [{"rank": "8", "suit": "♥"}], None]
    first["owner"] = 0
    first.clear()
    again = meld_json(meld)
    assert again["owner"] == 1 and again["id"] == 4 and again["numbers"] == [7, 8, 9]


def test_the_rules_json_is_a_fresh_copy_each_time() -> None:
    for rules in (romme.Rules.preset("german_club"), rummoli.Rules.preset("betting")):
        options = rules.to_json()
        expected = dict(options)
        options.clear()
        assert rules.to_json() == expected
        assert type(rules).from_json(rules.to_json()) == rules
