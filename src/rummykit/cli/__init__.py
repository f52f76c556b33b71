"""The ``rummykit`` command. Each module of this package adds the commands of one part."""

from __future__ import annotations

import importlib

from rummykit.cli.apps import app

# One module per part of the project; each attaches its commands to the groups in `apps`.
_PARTS = ("romme", "rummoli", "tiles", "web", "printing")


def main() -> None:
    for part in _PARTS:
        importlib.import_module(f"rummykit.cli.{part}")
    app()
