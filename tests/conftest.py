"""Shared test settings: Hypothesis profiles (CI runs the thorough one)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Fixtures for browser tests of every part: live_server, browser, new_page, screenshot.
pytest_plugins = ["browser"]

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")
