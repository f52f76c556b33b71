"""Read-only JSON data: the public log's events are frozen once logged and thawed for JSON.

>>> event = freeze({"code": "draw", "seats": [0, 1]})
>>> event["seats"], thaw(event) == {"code": "draw", "seats": [0, 1]}
((0, 1), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from rummykit.core.records import JSON

_SCALARS = frozenset({int, str, bool, float, type(None)})


def freeze(value: JSON) -> Any:
    """A read-only copy of JSON data: mappings behind a proxy, lists as tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType(
            {k: v if type(v) in _SCALARS else freeze(v) for k, v in value.items()}
        )
    if isinstance(value, list | tuple):
        return tuple(v if type(v) in _SCALARS else freeze(v) for v in value)
    return value


def thaw(value: Any) -> JSON:
    """Plain JSON data again (dicts and lists)."""
    kind = type(value)
    # The frozen kinds first, by their exact type: the ABC checks below cost more than the
    # copy itself, and a game's whole log is thawed for each computer decision.
    if kind is MappingProxyType or kind is dict:
        return {k: v if type(v) in _SCALARS else thaw(v) for k, v in value.items()}
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else thaw(v) for v in value]
    if kind in _SCALARS:
        return value
    if isinstance(value, Mapping):
        return {k: v if type(v) in _SCALARS else thaw(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [v if type(v) in _SCALARS else thaw(v) for v in value]
    return value
