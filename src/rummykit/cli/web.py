"""Commands of the web part: ``serve``, ``db upgrade|revision|current``, ``translations``."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from rummykit.cli import apps

if TYPE_CHECKING:
    from rummykit.store import Database

T = TypeVar("T")

translations_app = typer.Typer(help="Update and check the message catalogs.")
apps.app.add_typer(translations_app, name="translations", no_args_is_help=True)


@apps.app.command()
def serve(
    host: Annotated[
        str, typer.Option(envvar="RUMMYKIT_HOST", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="RUMMYKIT_PORT", help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            envvar="RUMMYKIT_DATABASE_URL",
            help="Database URL (default: the SQLite file rummykit.sqlite3 here).",
        ),
    ] = None,
    poll_seconds: Annotated[
        float,
        typer.Option(
            envvar="RUMMYKIT_POLL_SECONDS",
            help="How often live pages also ask the database for changes made by other "
            "processes serving the same database.",
        ),
    ] = 5.0,
    redis_poll_seconds: Annotated[
        float,
        typer.Option(
            envvar="RUMMYKIT_REDIS_POLL_SECONDS",
            help="The same while Redis brings every change at once (the polls are then only "
            "a safety net).",
        ),
    ] = 30.0,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="RUMMYKIT_REDIS_URL",
            help="Redis URL linking the live updates of several processes (optional).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            envvar="RUMMYKIT_WORKERS",
            min=1,
            help="Server processes, on consecutive ports from --port (a reverse proxy in front "
            "spreads the requests): more than one needs PostgreSQL and Redis.",
        ),
    ] = 1,
) -> None:
    """Serve the site (created and migrated on first start)."""
    import uvicorn

    from rummykit.store import database_url
    from rummykit.web import create_app
    from rummykit.web.security import server_options

    url = database_url(database)
    # Children of this process (and the app) see the same database.
    os.environ["RUMMYKIT_DATABASE_URL"] = url
    if workers > 1:
        from rummykit.web import processes

        refusal = processes.refusal(url, redis)
        if refusal:
            typer.echo(f"rummykit: {refusal}", err=True)
            raise typer.Exit(2)
        raise typer.Exit(
            processes.supervise(host, port, workers, url, redis, poll_seconds, redis_poll_seconds)
        )
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"rummykit: serving http://{shown}:{port}/ (database {_safe(url)})")
    uvicorn.run(
        create_app(
            url,
            poll_seconds=poll_seconds,
            redis_poll_seconds=redis_poll_seconds,
            redis_url=redis,
            settle=True,
        ),
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        **server_options(),
    )


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


DatabaseUrl = Annotated[str | None, typer.Option("--database", envvar="RUMMYKIT_DATABASE_URL")]
"""The ``--database`` option of the ``db`` commands."""


def _on_database(url: str | None, work: Callable[[Database], Awaitable[T]]) -> T:
    """Run ``work`` on the database at ``url`` (opened for it, closed after)."""
    from rummykit.store import Database

    async def run() -> T:
        db = Database(url)
        try:
            return await work(db)
        finally:
            await db.dispose()

    return asyncio.run(run())


@apps.db.command("upgrade")
def db_upgrade(database: DatabaseUrl = None) -> None:
    """Create the tables or bring them to the newest revision."""
    from rummykit.store import database_url

    _on_database(database, lambda db: db.migrate())
    typer.echo(f"database {_safe(database_url(database))} is up to date")


@apps.db.command("current")
def db_current(database: DatabaseUrl = None) -> None:
    """Print the database's revision."""
    from sqlalchemy import text

    async def revision(db: Database) -> str:
        try:
            async with db.engine.connect() as connection:
                result = await connection.execute(text("SELECT version_num FROM alembic_version"))
                return str(result.scalar_one_or_none() or "none")
        except Exception:  # no table yet
            return "none"

    typer.echo(_on_database(database, revision))


@apps.db.command("revision")
def db_revision(
    message: Annotated[str, typer.Option("--message", "-m", help="What the revision changes.")],
) -> None:
    """Write a new migration from the difference between the models and a fresh database."""
    import tempfile

    from alembic import command

    from rummykit.store.database import migrations_config

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/revision.sqlite3"

        _on_database(url, lambda db: db.migrate())
        os.environ["RUMMYKIT_DATABASE_URL"] = url
        command.revision(migrations_config(), message=message, autogenerate=True)


@apps.bench.command("scoresheet")
def bench_scoresheet(
    rounds: Annotated[int, typer.Option(help="Rounds of the long evening.")] = 300,
    seed: apps.Seed = 1,
    as_json: apps.AsJson = False,
) -> None:
    """Replaying sheets, and each entry's load-replay-check-append on SQLite."""
    from rummykit.bench.scoresheet import run

    result = run(rounds, seed)
    lines = [f"replay {row['rounds']} rounds: {row['median_ms']} ms" for row in result["replay"]]
    store = result["store_sqlite"]
    lines.append(
        f"entry on SQLite: {store['entry_median_ms_first_10']} ms at first, "
        f"{store['entry_median_ms_last_10']} ms after {store['rounds']} rounds; "
        f"load and replay {store['load_and_replay_median_ms']} ms"
    )
    apps.show(result, as_json, lines, ensure_ascii=True)


@translations_app.command("update")
def translations_update(
    domain: Annotated[str, typer.Argument(help="The catalog domain, e.g. web.")] = "web",
) -> None:
    """Extract the messages of a domain and update its French, Spanish and German catalogs."""
    from rummykit.web import catalogs

    for path, added, removed in catalogs.update(domain):
        typer.echo(f"{path}: {added} new, {removed} obsolete")


@translations_app.command("check")
def translations_check(
    domain: Annotated[str, typer.Argument(help="The catalog domain, e.g. web.")] = "web",
) -> None:
    """List the messages a language does not translate yet; fail if there is any."""
    from rummykit.web import catalogs

    missing = catalogs.missing(domain)
    for lang, messages in missing.items():
        for message in sorted(messages):
            context, _, text = message.rpartition("\x04")
            typer.echo(f"{lang}: {text}" + (f" ({context})" if context else ""))
    if any(missing.values()):
        raise typer.Exit(1)
    typer.echo(f"{domain}: complete")


@apps.bench.command("web")
def bench_web(
    games: Annotated[int, typer.Option(help="Games played at the same time.")] = 20,
    seconds: Annotated[float, typer.Option(help="How long to keep them going.")] = 20.0,
    game: Annotated[str, typer.Option(help="romme or tiles.")] = "romme",
    level: Annotated[str, typer.Option(help="Level of the computer players.")] = "easy",
    opponents: Annotated[int, typer.Option(help="Computer players per game.")] = 2,
    database: Annotated[
        str | None,
        typer.Option(
            "--database", help="Database URL of the server (default: a fresh SQLite file)."
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(help="Run the server under cProfile and write its statistics to this file."),
    ] = None,
    as_json: apps.AsJson = False,
) -> None:
    """One server process on SQLite (or ``--database``), many games against the computer at
    once: a player's actions per second and their latency (the computer's thinking excluded)."""
    from rummykit.bench.web import run

    result = run(
        games=games,
        seconds=seconds,
        kind=game,
        level=level,
        opponents=opponents,
        database=database,
        profile=profile,
    )
    latency = result["action_latency_ms"]
    line = (
        f"{result['simultaneous_games']} games at once for {result['seconds']} s: "
        f"{result['player_actions_per_second']} player actions/s "
        f"(p50 {latency['p50']} ms, p99 {latency['p99']} ms), "
        f"{result['stored_steps_per_second']} stored steps/s, {result['errors']} errors"
    )
    apps.show(result, as_json, [line], indent=None, ensure_ascii=True)


@apps.bench.command("tables")
def bench_tables(
    tables: Annotated[int, typer.Option(help="Tables played at the same time.")] = 50,
    players: Annotated[int, typer.Option(help="People at each table.")] = 4,
    seconds: Annotated[float, typer.Option(help="How long to keep them going.")] = 30.0,
    processes: Annotated[int, typer.Option(help="Server processes (several: --database).")] = 1,
    database: Annotated[
        str | None, typer.Option(help="Database URL shared by the processes (else SQLite).")
    ] = None,
    redis: Annotated[str | None, typer.Option(help="Redis URL linking the processes.")] = None,
    poll: Annotated[
        float | None,
        typer.Option(help="Seconds between database looks (default 5; 30 with Redis)."),
    ] = None,
    as_json: apps.AsJson = False,
) -> None:
    """Tables of people: from a player's action to the other players' sockets (p50, p99)."""
    from rummykit.bench.tables import run

    result = run(tables, players, seconds, processes, database, redis, poll)
    delivery = result["delivery_ms"]
    assert isinstance(delivery, dict)
    line = (
        f"{result['tables']} tables of {result['players_per_table']} on "
        f"{result['processes']} process(es): {result['moves_per_second']} moves/s, delivery "
        f"p50 {delivery.get('p50')} ms, p99 {delivery.get('p99')} ms, {result['errors']} errors"
    )
    apps.show(result, as_json, [line], indent=None, ensure_ascii=True)


@apps.bench.command("load")
def bench_load(
    computer: Annotated[
        int, typer.Option(help="People playing against the computer at once.")
    ] = 20,
    watchers: Annotated[int, typer.Option(help="Idle score-sheet pages (open sockets).")] = 0,
    fanout: Annotated[
        int, typer.Option(help="Pages following one sheet that gets a round every second.")
    ] = 0,
    tables: Annotated[
        int,
        typer.Option(
            help="Tables of four people, spread over the processes (they play "
            "for --seconds after they are set up)."
        ),
    ] = 0,
    think: Annotated[
        float,
        typer.Option(
            help="Seconds a person (at a table, or against the computer) takes before each "
            "move, on average (each pause drawn between half and one and a half times that)."
        ),
    ] = 0.0,
    seconds: Annotated[float, typer.Option(help="How long the load lasts.")] = 20.0,
    processes: Annotated[
        int, typer.Option(help="Server processes to start (nginx in front of several).")
    ] = 1,
    database: Annotated[
        str | None,
        typer.Option("--database", help="Database URL (PostgreSQL: a scratch database on it)."),
    ] = None,
    redis: Annotated[str | None, typer.Option("--redis", help="Redis URL.")] = None,
    url: Annotated[
        str | None, typer.Option("--url", help="Drive this running site instead of starting one.")
    ] = None,
    port: Annotated[
        int | None,
        typer.Option(help="The first server's port, the others on the next ones (else free)."),
    ] = None,
    front_port: Annotated[int | None, typer.Option(help="nginx's port (else a free one).")] = None,
    front: Annotated[
        bool,
        typer.Option(
            "--front",
            help="nginx in front of a single process too (it holds the sheets' sockets).",
        ),
    ] = False,
) -> None:
    """Real WebSocket clients against the site; prints its figures as JSON."""
    import json

    from rummykit.bench.load import run

    scenarios = {"computer": computer, "watchers": watchers, "fanout": fanout, "tables": tables}
    try:
        result = run(
            scenarios, seconds, processes, database, redis, url, think, port, front_port, front
        )
    except ValueError as err:
        typer.echo(f"rummykit: {err}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(result))
