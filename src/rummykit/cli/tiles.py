"""Commands of the tiles part."""

from __future__ import annotations

from rummykit.cli import apps  # noqa: F401
