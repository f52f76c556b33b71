"""The command groups that each game's commands attach to (``rummykit simulate romme``…)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from rummykit.core import IllegalAction

app = typer.Typer(
    name="rummykit",
    help="Rommé, Rummoli and tile rummy: play, simulate, benchmark, serve the site.",
    no_args_is_help=True,
    add_completion=False,
)
simulate = typer.Typer(help="Play many games between computer players and report the results.")
bench = typer.Typer(help="Measure speed; prints JSON.")
demo = typer.Typer(help="Print a demonstration game as steps.")
cheatsheet = typer.Typer(help="Write a printable cheat sheet (PDF).")
db = typer.Typer(help="Database maintenance.")
app.add_typer(simulate, name="simulate", no_args_is_help=True)
app.add_typer(bench, name="bench", no_args_is_help=True)
app.add_typer(demo, name="demo", no_args_is_help=True)
app.add_typer(cheatsheet, name="cheatsheet", no_args_is_help=True)
app.add_typer(db, name="db", no_args_is_help=True)


AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
"""The ``--json`` switch of every command that reports figures."""
Seed = Annotated[int, typer.Option(help="Seed.")]
DealSeed = Annotated[int, typer.Option(help="Seed of the deals.")]


def show(
    data: Any,
    as_json: bool,
    lines: Iterable[str],
    *,
    indent: int | None = 2,
    ensure_ascii: bool = False,
) -> None:
    """Print a command's result: its JSON form with ``--json`` (``indent`` and ``ensure_ascii``
    as `json.dumps` takes them), else its lines of text."""
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=ensure_ascii, indent=indent))
    else:
        typer.echo("\n".join(lines))


RowT = TypeVar("RowT")


def show_rows(
    data: Any,
    as_json: bool,
    head: str,
    rows: Iterable[RowT],
    line: Callable[[RowT], str],
    *,
    indent: int | None = 2,
) -> None:
    """Print a result that is a line of totals and a line per row (a seat, a level…)."""
    show(data, as_json, [head, *(line(row) for row in rows)], indent=indent)


def fail(err: IllegalAction) -> NoReturn:
    """Refuse a command's input: the error's JSON form on stderr, exit status 2."""
    typer.echo(json.dumps(err.to_json(), ensure_ascii=False), err=True)
    raise typer.Exit(2)


def seat_levels(bots: str, players: int, one_for_all: bool = True) -> list[str]:
    """The computer level of each seat from ``--bots`` (comma-separated; with
    ``one_for_all``, a single level plays every seat)."""
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if one_for_all and len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        raise IllegalAction("bad_bots", bots=len(levels), players=players)
    return levels
