"""axe-core (the copy bundled with axe-playwright-python) run on a Playwright page.

Only the WCAG 2.0, 2.1 and 2.2 A and AA rules are run. `audit` returns axe's own description
of each violation (rule id, help, the failing nodes' targets and axe's message for each), so a
failing test says what is wrong and where.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}

_axe = Axe()


def describe(violation: dict[str, Any]) -> str:
    lines = [f"{violation['id']} ({violation.get('impact')}): {violation['help']}"]
    for node in violation["nodes"]:
        target = " ".join(str(t) for t in node["target"])
        messages = [c["message"] for key in ("any", "all", "none") for c in node.get(key, [])]
        lines.append(f"  - {target}: {'; '.join(messages)}")
    return "\n".join(lines)


def audit(page: Any, where: str) -> list[str]:
    """The violations on ``page`` as it is now, each described and prefixed with ``where``."""
    results = _axe.run(page, options=OPTIONS)
    return [f"{where}: {describe(v)}" for v in results.response["violations"]]
