"""The card model and its notation."""

from __future__ import annotations

import random

import pytest

from rummykit.cards import (
    Card,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    romme_pack,
    shuffled,
    sort_cards,
)
from rummykit.core import IllegalAction


def test_the_romme_pack_has_110_distinct_cards_with_two_of_each_face_and_six_jokers() -> None:
    pack = romme_pack()
    assert len(pack) == 110 and len(set(pack)) == 110
    assert sum(c.is_joker for c in pack) == 6
    assert sum(c.face == "8♠" for c in pack) == 2


def test_ids_number_the_pack_0_to_109_and_round_trip() -> None:
    assert sorted(c.id for c in romme_pack()) == list(range(110))
    assert all(Card.from_id(c.id) == c for c in romme_pack())


@pytest.mark.parametrize("bad", [-1, 110, "3", True, None])
def test_a_bad_card_id_is_rejected_with_a_code(bad: object) -> None:
    with pytest.raises(IllegalAction) as err:
        Card.from_id(bad)  # type: ignore[arg-type]
    assert err.value.code == "bad_card"


def test_notation_accepts_symbols_and_ascii_aliases() -> None:
    assert parse_cards("A♠ 10♥ Q♦ JK") == parse_cards("As 10h Qd *")
    assert parse_cards("Th")[0] == Card(Rank.TEN, Suit.HEARTS)
    assert parse_cards("kc")[0] == Card(Rank.KING, Suit.CLUBS)
    assert parse_cards("joker")[0].is_joker


def test_repeated_faces_take_successive_copies_and_format_back() -> None:
    cards = parse_cards("8♠ 8♠ JK JK JK")
    assert [c.copy for c in cards] == [0, 1, 0, 1, 2]
    assert format_cards(cards) == "8♠ 8♠#1 JK JK#1 JK#2"
    assert parse_cards(format_cards(cards)) == cards


def test_explicit_copies_are_respected_and_others_fill_around_them() -> None:
    assert [c.copy for c in parse_cards("8♠ 8♠#0")] == [1, 0]


@pytest.mark.parametrize("text", ["8♠ 8♠ 8♠", "1x", "11♠", "♠", "Zs", "8♠#9", "8♠#a"])
def test_impossible_cards_are_rejected(text: str) -> None:
    with pytest.raises(IllegalAction):
        parse_cards(text)


@pytest.mark.parametrize(
    ("text", "code", "card"),
    [
        ("xx 8♠#0 8♠#0", "bad_card", "xx"),
        ("8♠#0 8♠#0 8♠#zzzz", "duplicate_card", "8♠"),
        ("8♠ 8♠ 8♠ xx", "bad_card", "xx"),
        ("8♠ 8♠ 8♠ 8♠#0 8♠#0", "duplicate_card", "8♠"),
    ],
)
def test_errors_in_a_list_come_in_the_order_of_the_words(text: str, code: str, card: str) -> None:
    """The first wrong word is named; a face out of copies comes after every other error."""
    with pytest.raises(IllegalAction) as caught:
        parse_cards(text)
    assert (caught.value.code, caught.value.params["card"]) == (code, card)


def test_repr_round_trips() -> None:
    for card in romme_pack():
        assert eval(repr(card)) == card


def test_shuffles_depend_only_on_the_seed() -> None:
    pack = romme_pack()
    assert shuffled(pack, random.Random(5)) == shuffled(pack, random.Random(5))
    assert shuffled(pack, random.Random(5)) != shuffled(pack, random.Random(6))
    assert pack == romme_pack()


def test_sorting_by_suit_or_rank_puts_jokers_last() -> None:
    cards = parse_cards("JK 5♥ 3♣ 5♣")
    assert format_cards(sort_cards(cards)) == "3♣ 5♣ 5♥ JK"
    assert format_cards(sort_cards(cards, by="rank")) == "3♣ 5♣ 5♥ JK"
    assert format_cards(sort_cards(parse_cards("K♠ 2♥"), by="rank")) == "2♥ K♠"
