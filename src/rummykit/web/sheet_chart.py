"""The chart of a score sheet: every player's total round by round, and the limit line.

Drawn on the server as SVG (no client library): `build_chart` computes the geometry from the
sheet, the template ``scoresheet/_chart.html`` writes it out with classes only, so the site's
colours apply (dark mode and print included) and no inline style is needed. The same numbers
are given beside it as a table.

>>> from rummykit.scoresheet import EnterRound, Settings, Sheet
>>> sheet = Sheet(Settings("x", limit=100), ["Ann", "Bob"])
>>> sheet.apply(EnterRound.of({0: 0, 1: 30}, went_out=0))
>>> chart = build_chart(sheet)
>>> [(s.name, [p.total for p in s.points]) for s in chart.series]
[('Ann', [0, 0]), ('Bob', [0, 30])]
>>> chart.limit_y is not None and chart.limit_y < chart.series[1].points[-1].y
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rummykit.scoresheet import Sheet

WIDTH = 520
HEIGHT = 300
LEFT = 52
RIGHT = 110
TOP = 16
BOTTOM = 34
COLOURS = 8
"""Series colours (classes ``s0``…``s7`` in the sheet's stylesheet), repeated beyond."""
LABEL_GAP = 17.0
"""Least vertical distance between two names at the right end of the lines."""


@dataclass(frozen=True)
class Point:
    """A player's total after a round, and its place on the chart."""

    round: int
    """The round after which the total is shown (0: the start)."""
    total: int
    x: float
    y: float


@dataclass(frozen=True)
class Series:
    """One player's line on the chart."""

    player: int
    name: str
    colour: int
    """The index of the line's colour class (``s0``…``s7``)."""
    points: tuple[Point, ...]
    label_y: float
    """Where the name goes at the end of the line, moved apart from the others."""

    @property
    def path(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def last(self) -> Point:
        return self.points[-1]


@dataclass(frozen=True)
class Tick:
    """A labelled mark on an axis: a round below the plot, a total on its left."""

    value: int
    position: float
    """Where the mark lies along its axis (x for a round, y for a total)."""


@dataclass(frozen=True)
class Chart:
    """The whole chart in SVG units: its size, the plot area, the lines, the axes and the limit."""

    width: int
    height: int
    left: int
    top: int
    plot_right: int
    plot_bottom: int
    rounds: int
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    limit: int | None
    limit_y: float | None


def nice_step(span: float, most: int = 6) -> int:
    """A step of 1, 2 or 5 times a power of ten giving at most ``most`` intervals over ``span``.

    >>> nice_step(500), nice_step(37), nice_step(0)
    (100, 10, 1)
    """
    if span <= 0:
        return 1
    raw = span / most
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)


def _spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Label positions as near as possible to ``wanted`` (sorted), at least `LABEL_GAP` apart."""
    out: list[float] = []
    for y in wanted:
        out.append(max(y, out[-1] + LABEL_GAP) if out else max(y, low))
    overflow = (out[-1] - high) if out else 0.0
    if overflow > 0:
        out = [y - overflow for y in out]
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - LABEL_GAP)
    return out


def build_chart(sheet: Sheet) -> Chart | None:
    """The chart of ``sheet``, or None before the first round."""
    if not sheet.rounds:
        return None
    running = sheet.running_totals()
    lines: list[tuple[int, list[tuple[int, int]]]] = []
    for player in sheet.players:
        start = player.first_round - 1
        values = [(start, player.start_total)]
        last = len(running) if player.last_round is None else player.last_round
        values += [(n, running[n - 1][player.id]) for n in range(start + 1, last + 1)]
        lines.append((player.id, values))
    totals = [t for _, values in lines for _, t in values]
    low = min(0, *totals)
    high = max(totals)
    if sheet.limit is not None:
        high = max(high, sheet.limit)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    plot_right, plot_bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    rounds = len(sheet.rounds)

    def x(n: int) -> float:
        return LEFT + (plot_right - LEFT) * n / rounds

    def y(total: int) -> float:
        return plot_bottom - (plot_bottom - TOP) * (total - low) / (high - low)

    ends = sorted(
        ((y(values[-1][1]), index) for index, (_, values) in enumerate(lines)),
        key=lambda pair: pair[0],
    )
    placed = dict(
        zip(
            (index for _, index in ends),
            _spread([wanted for wanted, _ in ends], TOP + 4, plot_bottom),
            strict=True,
        )
    )
    series = tuple(
        Series(
            player=player,
            name=sheet.players[player].name,
            colour=player % COLOURS,
            points=tuple(Point(n, t, x(n), y(t)) for n, t in values),
            label_y=placed[index],
        )
        for index, (player, values) in enumerate(lines)
    )
    every = max(1, math.ceil(rounds / 12))
    x_ticks = tuple(Tick(n, x(n)) for n in range(0, rounds + 1) if n % every == 0)
    y_ticks = tuple(Tick(v, y(v)) for v in range(int(low), int(high) + 1, step))
    limit_y = None if sheet.limit is None else y(sheet.limit)
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        top=TOP,
        plot_right=plot_right,
        plot_bottom=plot_bottom,
        rounds=rounds,
        series=series,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        limit=sheet.limit,
        limit_y=limit_y,
    )
