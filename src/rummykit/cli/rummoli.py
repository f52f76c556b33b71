"""Commands of the rummoli part."""

from __future__ import annotations

from rummykit.cli import apps  # noqa: F401
