"""The chart of a sheet: every player's total round by round and the limit line, drawn on the
server as SVG, with the same numbers in a table beside it."""

from __future__ import annotations

import itertools
import re
from html import unescape

from fastapi.testclient import TestClient

from rummykit.scoresheet import End, EnterRound, Join, Leave, Settings, Sheet
from rummykit.web.sheet_chart import LABEL_GAP, build_chart, nice_step

from .helpers import create_sheet, enter


def played() -> Sheet:
    sheet = Sheet(Settings("x", limit=300), ["Ann", "Bob", "Cleo"])
    sheet.apply(EnterRound.of({0: 0, 1: 25, 2: 40}, went_out=0))
    sheet.apply(Join("Dora"))  # at the highest total, 40
    sheet.apply(EnterRound.of({0: 30, 1: -100, 2: 12, 3: 5}, went_out=1))
    sheet.apply(Leave(2))
    sheet.apply(EnterRound.of({0: 15, 1: 20, 3: 0}, went_out=3))
    return sheet


def test_nothing_is_drawn_before_the_first_round() -> None:
    assert build_chart(Sheet(Settings("x"), ["Ann", "Bob"])) is None


def test_each_line_holds_the_player_s_total_after_every_round_played() -> None:
    chart = build_chart(played())
    assert chart is not None
    lines = {s.name: [(p.round, p.total) for p in s.points] for s in chart.series}
    assert lines == {
        "Ann": [(0, 0), (1, 0), (2, 30), (3, 45)],
        "Bob": [(0, 0), (1, 25), (2, -75), (3, -55)],
        "Cleo": [(0, 0), (1, 40), (2, 52)],  # left after round 2
        "Dora": [(1, 40), (2, 45), (3, 45)],  # joined before round 2 at 40
    }


def test_the_last_point_of_each_line_is_the_total_in_the_standings() -> None:
    sheet = played()
    chart = build_chart(sheet)
    assert chart is not None
    assert {s.player: s.last.total for s in chart.series} == sheet.totals()


def test_higher_totals_are_drawn_higher_and_the_limit_line_above_them_all() -> None:
    chart = build_chart(played())
    assert chart is not None and chart.limit == 300 and chart.limit_y is not None
    points = [p for s in chart.series for p in s.points]
    for a in points:
        for b in points:
            if a.total > b.total:
                assert a.y < b.y
    assert all(chart.limit_y < p.y for p in points)
    assert all(chart.top <= p.y <= chart.plot_bottom for p in points)
    assert chart.y_ticks[0].value <= -75 and chart.y_ticks[-1].value >= 300


def test_a_game_of_a_number_of_rounds_has_no_limit_line() -> None:
    sheet = Sheet(Settings("x", end=End.ROUNDS, rounds=3), ["Ann", "Bob"])
    sheet.apply(EnterRound.of({0: 0, 1: 25}, went_out=0))
    chart = build_chart(sheet)
    assert chart is not None and chart.limit is None and chart.limit_y is None


def test_names_at_the_end_of_the_lines_never_overlap() -> None:
    sheet = Sheet(Settings("x"), ["Ann", "Bob", "Cleo", "Dan"])
    sheet.apply(EnterRound.of({0: 10, 1: 10, 2: 11, 3: 0}, went_out=3))
    chart = build_chart(sheet)
    assert chart is not None
    ys = sorted(s.label_y for s in chart.series)
    assert all(b - a >= LABEL_GAP - 1e-9 for a, b in itertools.pairwise(ys))


def test_ticks_are_round_numbers() -> None:
    assert [nice_step(s) for s in (5, 60, 500, 1200, 100_000)] == [1, 10, 100, 200, 20000]


def test_the_sheet_and_print_pages_show_the_chart_and_its_table(client: TestClient) -> None:
    path = create_sheet(client, "de", limit="300")
    assert "data-chart" not in client.get(path).text
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    enter(client, path, {0: "30", 1: "-100", 2: "12"}, out=1)
    for page in (client.get(path).text, client.get(f"{path}/print").text):
        html = unescape(page)
        assert 'role="img"' in html and "<title id=" in html and "<desc id=" in html
        assert "Punktestand Runde für Runde" in html and "Limit von 300" in html
        assert "Stand nach jeder Runde" in html
        ends = dict(re.findall(r'class="series-label"[^>]*>(\w+) (-?\d+)</text>', html))
        assert ends == {"Ann": "30", "Bob": "-75", "Cleo": "52"}
        assert "style=" not in html
