"""Shared test settings: Hypothesis profiles (CI runs the thorough one), and a second try for
the tests whose outcome hangs on the machine's timing."""

from __future__ import annotations

import os

import pytest
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


# Tests that drive a real browser or start servers of their own wait on the clock: on a loaded
# 2-core machine a page, a socket or a process can be late past a test's wait. They get up to
# two more tries (pytest-rerunfailures); a test that fails three times in a row still fails,
# and every try is in the report. The tests of rules, engines and the API get none.
TIMED_FILES = ("test_processes.py", "test_store_processes.py", "test_tables_processes.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") or item.path.name in TIMED_FILES:
            item.add_marker(pytest.mark.flaky(reruns=2, reruns_delay=2))


# Why each retried try failed, kept for the summary: a test that passes on its second try says
# nothing more in pytest's report than its name, and the cause of a timing failure is what the
# next person needs to make the test wait on the right thing.
_RETRIED: list[tuple[str, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        crash = getattr(report.longrepr, "reprcrash", None)
        cause = crash.message if crash is not None else str(report.longrepr)
        first_line = (cause.strip().splitlines() or [""])[0]
        _RETRIED.append((report.nodeid, first_line[:300]))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _RETRIED:
        terminalreporter.section("why the retried tries failed")
        for nodeid, cause in _RETRIED:
            terminalreporter.write_line(f"{nodeid}: {cause}")
