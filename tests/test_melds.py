"""The shared group/run validator, under the switches of both games."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rummykit.melds import MeldRules, Piece, read_group, read_meld, read_run, readings

CARDS = MeldRules(ace_high=True, adjacent_jokers=False)
TILES = MeldRules()


def test_a_group_is_three_or_four_of_one_number_in_different_colours() -> None:
    assert read_group([(8, 0), (8, 1), (8, 2)], CARDS) is not None
    assert read_group([(8, 0), (8, 1), (8, 2), (8, 3)], CARDS) is not None
    assert read_group([(8, 0), (8, 1)], CARDS) is None
    assert read_group([(8, 0), (8, 1), (8, 2), (8, 3), None], CARDS) is None


def test_two_identical_faces_never_stand_in_one_group() -> None:
    assert read_group([(8, 1), (8, 1), (8, 2)], CARDS) is None


def test_a_joker_in_a_full_group_stands_for_the_missing_colour() -> None:
    reading = read_group([(8, 0), (8, 1), (8, 2), None], CARDS)
    assert reading is not None and reading.colours[3] == 3


def test_a_run_is_consecutive_in_one_colour_ace_low_or_high_never_around() -> None:
    assert read_run([(1, 0), (2, 0), (3, 0)], CARDS) is not None
    assert read_run([(12, 0), (13, 0), (1, 0)], CARDS) is not None
    assert read_run([(13, 0), (1, 0), (2, 0)], CARDS) is None
    assert read_run([(12, 0), (13, 0), (1, 0)], TILES) is None
    assert read_run([(5, 0), (6, 1), (7, 0)], CARDS) is None


def test_a_run_holds_the_ace_once_so_at_most_13_cards() -> None:
    thirteen: list[Piece] = [(n, 1) for n in range(2, 14)] + [(1, 1)]
    assert read_run(thirteen, CARDS) is not None
    assert read_run([(1, 1), *thirteen], CARDS) is None
    assert read_run([None, *thirteen], CARDS) is None


def test_jokers_take_their_position_and_may_not_touch_in_card_runs() -> None:
    assert read_run([(5, 2), None, (7, 2)], CARDS) is not None
    assert read_run([(5, 2), None, None, (8, 2)], CARDS) is None
    assert read_run([(5, 2), None, None, (8, 2)], TILES) is not None
    assert read_run([None, None, (1, 0)], CARDS) is None


def test_a_meld_holds_at_least_one_natural_piece() -> None:
    assert read_meld([None, None, None], TILES) is None


def test_a_lone_natural_between_jokers_reads_as_run_then_group() -> None:
    assert [r.kind for r in readings([None, (5, 2), None], CARDS)] == ["run", "group"]
    assert read_meld([None, (5, 2), None], CARDS, kind="group") is not None


def test_no_run_goes_beyond_the_numbers() -> None:
    assert read_run([(12, 0), (13, 0), None], TILES) is None
    assert read_run([None, (1, 0), (2, 0)], TILES) is None
    assert read_run([(99, 0), (100, 0), None], MeldRules(numbers=100)) is None


pieces = st.lists(
    st.one_of(st.none(), st.tuples(st.integers(1, 13), st.integers(0, 3))), min_size=0, max_size=14
)


@given(pieces)
def test_every_reading_is_consistent_with_its_pieces(ps: list[Piece]) -> None:
    for rules in (CARDS, TILES):
        for reading in readings(ps, rules):
            assert len(reading.numbers) == len(ps) >= 3
            assert any(p is not None for p in ps)
            for p, n, c in zip(ps, reading.numbers, reading.colours, strict=True):
                if p is not None:
                    assert p[1] == c and (p[0] == n or (p[0] == 1 and n == 14))
            if reading.kind == "run":
                assert list(reading.numbers) == list(
                    range(reading.numbers[0], reading.numbers[0] + len(ps))
                )
                assert len(set(reading.colours)) == 1
            else:
                assert len(set(reading.numbers)) == 1
                named = [c for c in reading.colours if c is not None]
                assert len(named) == len(set(named))
