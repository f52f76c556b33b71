"""Commands of the romme part."""

from __future__ import annotations

from rummykit.cli import apps  # noqa: F401
