"""How long the long randomised tests run: `make test` runs each at its base count, `make fuzz`
sets RUMMYKIT_TEST_SCALE (10) to run the same tests ten times over with other seeds' draws."""

from __future__ import annotations

import os

SCALE = float(os.environ.get("RUMMYKIT_TEST_SCALE", "1"))


def scaled(count: int) -> int:
    """``count`` times the scale, at least one."""
    return max(1, round(count * SCALE))
