"""The command groups that each game's commands attach to (``rummykit simulate romme``…)."""

from __future__ import annotations

import typer

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
