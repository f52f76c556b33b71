"""Shared test settings: Hypothesis profiles (CI runs the thorough one)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Fixtures for browser tests of every part: live_server, browser, new_page, screenshot.
pytest_plugins = ["browser"]

# Rate and socket limits far above what any test sends from its one client; the tests of the
# limits give the app their own low ones.
for _name, _value in (
    ("RUMMYKIT_RATE_CREATE", "100000/minute"),
    ("RUMMYKIT_RATE_ACTIONS", "100000/minute"),
    ("RUMMYKIT_SOCKETS_PER_CLIENT", "10000"),
    ("RUMMYKIT_SOCKETS_PER_TABLE", "10000"),
):
    os.environ.setdefault(_name, _value)

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")
