"""The web part's commands: database maintenance and the catalogs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import rummykit.cli.web  # noqa: F401  (attaches the commands)
from rummykit.cli.apps import app

runner = CliRunner()


def test_db_upgrade_creates_the_tables_and_current_names_the_revision(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    assert runner.invoke(app, ["db", "current", "--database", url]).output.strip() == "none"
    result = runner.invoke(app, ["db", "upgrade", "--database", url])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
    assert runner.invoke(app, ["db", "current", "--database", url]).output.strip() == "0003"


def test_the_web_catalogs_are_complete() -> None:
    result = runner.invoke(app, ["translations", "check", "web"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "web: complete"


def test_serve_has_host_port_and_database_options() -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database", "RUMMYKIT_DATABASE_URL"):
        assert option in result.output


def test_the_scoresheet_benchmark_prints_its_figures_as_json() -> None:
    import json

    result = runner.invoke(app, ["bench", "scoresheet", "--rounds", "12", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [row["rounds"] for row in data["replay"]] == [30, 12]
    assert data["store_sqlite"]["rounds"] == 12
