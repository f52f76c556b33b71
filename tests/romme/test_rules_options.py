"""The rules configuration: every option validated, the presets, the JSON form."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.core import IllegalAction
from rummykit.romme import Rules


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hand_size", 11),
        ("hand_size", 15),
        ("hand_size", "13"),
        ("deal_style", "dealer_right"),
        ("opening_min", 35),
        ("opening_min", -1),
        ("ace_low_value", 2),
        ("joker_penalty", 35),
        ("joker_penalty", True),
        ("discard_pickup", "never"),
        ("layoff_on_opening_turn", 1),
        ("opening_requires_run", "yes"),
        ("opening_without_jokers", None),
        ("go_out", "knock"),
        ("hand_romme", "triple"),
        ("never_opened", "flat50"),
        ("stock_exhausted", "redeal"),
        ("rounds", 0),
        ("rounds", 2.5),
        ("point_limit", -500),
        ("limit_rule", "passes"),
        ("jokers", 7),
        ("jokers", -1),
    ],
)
def test_every_option_is_validated_with_its_field(field: str, value: Any) -> None:
    with pytest.raises(IllegalAction) as info:
        Rules(**{field: value})
    assert info.value.code == "bad_rules" and info.value.params["field"] == field


def test_a_game_needs_a_round_count_or_a_point_limit() -> None:
    with pytest.raises(IllegalAction) as info:
        Rules(rounds=None, point_limit=None)
    assert info.value.params["field"] == "rounds"
    assert Rules(rounds=None, point_limit=300).point_limit == 300


def test_defaults_are_the_standard_rules() -> None:
    rules = Rules()
    assert rules == Rules.preset("standard")
    assert (rules.hand_size, rules.deal_style, rules.opening_min) == (13, "dealer_left_extra", 30)
    assert (rules.ace_low_value, rules.joker_penalty, rules.discard_pickup) == (11, 20, "must_use")
    assert rules.layoff_on_opening_turn and not rules.opening_requires_run
    assert not rules.opening_without_jokers
    assert (rules.go_out, rules.hand_romme, rules.never_opened) == ("discard", "double", "cards")
    assert (rules.stock_exhausted, rules.rounds, rules.point_limit) == ("reshuffle", 3, None)
    assert rules.limit_rule == "exceeds" and rules.jokers == 6


def test_preset_computer_takes_the_discard_freely_three_rounds_opening_30() -> None:
    rules = Rules.preset("computer")
    assert rules == Rules(discard_pickup="free")
    assert (rules.opening_min, rules.rounds) == (30, 3)


def test_preset_german_club_upcard_13_cards_limit_500_reached_no_round_count() -> None:
    rules = Rules.preset("german_club")
    assert (rules.hand_size, rules.deal_style, rules.opening_min) == (13, "upcard", 30)
    assert (rules.point_limit, rules.limit_rule, rules.rounds) == (500, "reaches", None)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(IllegalAction) as info:
        Rules.preset("vegas")
    assert info.value.code == "bad_rules"


@pytest.mark.parametrize("name", ["standard", "computer", "german_club"])
def test_rules_json_round_trip(name: str) -> None:
    rules = Rules.preset(name)
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_json({}) == Rules()


def test_rules_json_refuses_unknown_options_and_garbage() -> None:
    for data in ({"wild": 1}, [], "standard", None):
        with pytest.raises(IllegalAction) as info:
            Rules.from_json(data)
        assert info.value.code == "bad_rules"


def test_all_options_are_changeable_in_a_preset() -> None:
    rules = Rules.preset("computer").replace(opening_min=40, rounds=5, joker_penalty=25)
    assert (rules.discard_pickup, rules.opening_min, rules.rounds) == ("free", 40, 5)
