"""Tiles, notation, the rules configuration and sets (spec: Material, Sets)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.core import IllegalAction
from rummykit.tiles.model import (
    JokerMeaning,
    TableSet,
    format_table,
    parse_table,
    read_set,
    set_value,
)
from rummykit.tiles.rules import Colour, Rules, Tile, format_tiles, parse_tiles, sort_tiles

# --- material ------------------------------------------------------------------------------


def test_the_set_holds_106_tiles_numbers_1_to_13_in_four_colours_twice_and_two_jokers() -> None:
    pool = Rules().pool()
    assert len(pool) == len(set(pool)) == 106
    naturals = [t for t in pool if not t.is_joker]
    assert {t.colour for t in naturals} == set(Colour)
    assert {t.number for t in naturals} == set(range(1, 14))
    assert all(sum(1 for u in naturals if u.face == t.face) == 2 for t in naturals)
    assert [t.code for t in pool if t.is_joker] == ["*", "*#1"]


@pytest.mark.parametrize("jokers", [0, 1, 2, 3, 4])
def test_the_jokers_option_takes_0_to_4_jokers(jokers: int) -> None:
    assert sum(t.is_joker for t in Rules(jokers=jokers).pool()) == jokers


def test_every_physical_tile_has_its_own_identity() -> None:
    ids = [t.id for t in Rules(numbers=100, jokers=4).pool()]
    assert len(ids) == len(set(ids)) == 804
    assert all(Tile.from_id(i).id == i for i in ids)


def test_the_number_range_and_copies_follow_the_rules() -> None:
    pool = Rules(numbers=20, copies=1, jokers=0).pool()
    assert len(pool) == 80 and max(t.number or 0 for t in pool) == 20


# --- notation ------------------------------------------------------------------------------


def test_notation_is_colour_letter_then_number_and_star_for_a_joker() -> None:
    assert Tile.parse("r5") == Tile(Colour.RED, 5)
    assert Tile.parse("k13") == Tile(Colour.BLACK, 13)
    assert Tile.parse("B1") == Tile(Colour.BLUE, 1)
    assert Tile.parse("y7#1") == Tile(Colour.YELLOW, 7, 1)
    assert Tile.parse("*").is_joker and Tile.parse("JK#1") == Tile.joker(1)


def test_parsing_a_list_assigns_copies_in_order() -> None:
    assert format_tiles(parse_tiles("r5 r5 * * *")) == "r5 r5#1 * *#1 *#2"
    assert format_tiles(parse_tiles("r5 r5#0")) == "r5#1 r5"


@pytest.mark.parametrize("text", ["r0", "g5", "r101", "5r", "r", "r5#2", "*#4", "r5#x", "**"])
def test_bad_tiles_are_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        Tile.parse(text)
    assert caught.value.code == "bad_tile"


def test_a_third_copy_is_refused_in_a_list() -> None:
    with pytest.raises(IllegalAction):
        parse_tiles("r5 r5 r5")
    with pytest.raises(IllegalAction) as caught:
        parse_tiles("r5#1 r5#1")
    assert caught.value.code == "duplicate_tile"


@pytest.mark.parametrize(
    ("text", "code", "tile"),
    [
        ("x9 r5#0 r5#0", "bad_tile", "x9"),
        ("r5#0 r5#0 r5#zz", "duplicate_tile", "r5"),
        ("x9 r5#zz", "bad_tile", "x9"),
        ("r5 r5 r5 x9", "bad_tile", "x9"),
        ("r5 r5 r5 r5#zz", "bad_tile", "r5#zz"),
    ],
)
def test_errors_in_a_list_come_in_the_order_of_the_words(text: str, code: str, tile: str) -> None:
    """As with cards: the first wrong word is named; a face out of copies comes last."""
    with pytest.raises(IllegalAction) as caught:
        parse_tiles(text)
    assert (caught.value.code, caught.value.params["tile"]) == (code, tile)


def test_repr_round_trips() -> None:
    for tile in Rules(jokers=4).pool():
        assert eval(repr(tile)) == tile
    table_set = TableSet.parse("r4 *(r5) r6")
    assert eval(repr(table_set)) == table_set


def test_racks_sort_by_colour_or_number_with_jokers_last() -> None:
    rack = parse_tiles("* y2 r9 b2 r1")
    assert format_tiles(sort_tiles(rack)) == "r1 r9 b2 y2 *"
    assert format_tiles(sort_tiles(rack, by="number")) == "r1 b2 y2 r9 *"


@given(st.lists(st.sampled_from(Rules(jokers=4).pool()), unique=True, max_size=30))
def test_formatting_then_parsing_gives_the_same_tiles(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


# --- rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("numbers", 2, "an integer in 3..100"),
        ("numbers", 101, "an integer in 3..100"),
        ("copies", 3, "an integer in 1..2"),
        ("jokers", 5, "an integer in 0..4"),
        ("jokers", -1, "an integer in 0..4"),
        ("rack_size", 0, "an integer in 1..400"),
        ("opening_min", -1, "an integer in 0..10000"),
        ("joker_retrieval", "never", "'end_only' or 'anywhere'"),
        ("joker_penalty", True, "an integer in 0..10000"),
        ("scoring", "golf", "'leaflet' or 'classic'"),
        ("rounds", 0, "an integer in 1..1000"),
    ],
)
def test_rules_are_validated_with_exact_messages(field: str, value: object, expected: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        Rules(**{field: value})  # type: ignore[arg-type]
    assert caught.value.code == "bad_rules"
    assert caught.value.params == {"field": field, "value": value, "expected": expected}


def test_the_defaults_are_the_leaflet() -> None:
    rules = Rules()
    assert (rules.numbers, rules.copies, rules.jokers, rules.opening_min) == (13, 2, 2, 30)
    assert (rules.joker_retrieval, rules.joker_penalty, rules.scoring, rules.rounds) == (
        "end_only",
        30,
        "leaflet",
        1,
    )
    assert Rules.preset("leaflet") == rules


def test_rack_size_is_10_with_two_players_7_with_three_or_four_unless_set() -> None:
    assert [Rules().rack_for(n) for n in (2, 3, 4)] == [10, 7, 7]
    assert [Rules(rack_size=14).rack_for(n) for n in (2, 3, 4)] == [14, 14, 14]


def test_the_classic_preset() -> None:
    rules = Rules.preset("classic")
    assert (rules.rack_size, rules.joker_retrieval, rules.scoring) == (14, "anywhere", "classic")
    with pytest.raises(IllegalAction):
        Rules.preset("nonsense")


def test_rules_json_round_trips_and_refuses_unknown_fields() -> None:
    rules = Rules(numbers=20, jokers=4, rack_size=14, scoring="classic", rounds=3)
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_json('{"jokers": 3}') == Rules(jokers=3)
    for bad in ({"colours": 5}, [], "{", {"rounds": "2"}):
        with pytest.raises(IllegalAction) as caught:
            Rules.from_json(bad)
        assert caught.value.code == "bad_rules"


# --- sets ----------------------------------------------------------------------------------


def test_a_run_is_three_or_more_consecutive_numbers_of_one_colour() -> None:
    assert read_set(parse_tiles("r3 r4 r5"), Rules()).kind == "run"
    assert read_set(parse_tiles("b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13"), Rules())


def test_a_run_never_goes_below_1_or_above_13_and_never_wraps() -> None:
    for text, code in [
        ("r12 r13 r1", "run_not_consecutive"),
        ("r12 r13 *", "run_out_of_range"),
        ("* r1 r2", "run_out_of_range"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            read_set(parse_tiles(text), Rules())
        assert caught.value.code == code


def test_a_run_is_one_colour_without_gaps_or_repeats() -> None:
    for text, code in [
        ("r3 b4 r5", "invalid_set"),
        ("r3 r5 r6", "run_not_consecutive"),
        ("r3 r3 r4", "duplicate_number_in_run"),
        ("r5 r4 r3", "run_not_consecutive"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            read_set(parse_tiles(text), Rules())
        assert caught.value.code == code


def test_a_group_is_three_or_four_tiles_of_one_number_in_different_colours() -> None:
    assert read_set(parse_tiles("r7 b7 y7"), Rules()).kind == "group"
    assert read_set(parse_tiles("r7 b7 k7 y7"), Rules()).kind == "group"
    for text, code in [
        ("r7 b7 r7", "duplicate_colour_in_group"),
        ("r7 b7 k7 y7 *", "group_too_large"),
        ("r7 b7", "set_too_small"),
        ("r7 b8 k7", "invalid_set"),
        ("* * *", "tile_out_of_range"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            read_set(parse_tiles(text), Rules())
        assert caught.value.code == code


def test_a_set_needs_a_natural_tile() -> None:
    with pytest.raises(IllegalAction) as caught:
        read_set(parse_tiles("* * *"), Rules(jokers=3))
    assert caught.value.code == "set_of_jokers"


def test_a_joker_stands_for_the_tile_at_its_place_and_counts_its_value() -> None:
    run = read_set(parse_tiles("r4 * r6 *"), Rules())
    assert run.jokers == (JokerMeaning(5, Colour.RED), JokerMeaning(7, Colour.RED))
    assert set_value(run) == 4 + 5 + 6 + 7
    group = read_set(parse_tiles("r9 b9 k9 *"), Rules())
    assert group.jokers == (JokerMeaning(9, Colour.YELLOW),) and set_value(group) == 36


def test_a_joker_in_a_group_of_three_stands_for_either_missing_colour() -> None:
    group = read_set(parse_tiles("r9 b9 *"), Rules())
    assert group.jokers == (JokerMeaning(9, None),) and group.code == "r9 b9 *(9)"


def test_a_set_that_reads_both_ways_is_a_run_unless_the_joker_says_otherwise() -> None:
    assert read_set(parse_tiles("* r5 *"), Rules()).kind == "run"
    group = read_set(parse_tiles("* r5 *"), Rules(), [JokerMeaning(5, None), None])
    assert group.kind == "group" and set_value(group) == 15


def test_a_stated_meaning_must_be_what_the_joker_stands_for() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_table("r4 *(r6) r6")
    assert caught.value.code == "joker_meaning_mismatch"
    with pytest.raises(IllegalAction) as caught:
        parse_table("r4 b4 *(r4)")
    assert caught.value.code == "joker_meaning_mismatch"
    with pytest.raises(IllegalAction) as caught:
        parse_table("r4 *(b4) *(b4)")
    assert caught.value.code == "duplicate_colour_in_group"


def test_sets_are_checked_by_the_shared_validator_with_the_number_range() -> None:
    assert read_set(parse_tiles("r98 r99 r100"), Rules(numbers=100)).kind == "run"
    with pytest.raises(IllegalAction) as caught:
        read_set(parse_tiles("r12 r13 r14"), Rules())
    assert caught.value.code == "tile_out_of_range"
    with pytest.raises(IllegalAction) as caught:
        read_set(parse_tiles("r5 r5#1 *"), Rules(copies=1))
    assert caught.value.code == "tile_out_of_range"


def test_table_notation_round_trips() -> None:
    text = "r4 r5 *(r6) | r9 b9 *#1(9) | k1 k2 k3"
    table = parse_table(text)
    assert format_table(table) == text
    assert parse_table(format_table(table)) == table
    assert parse_table("") == []
