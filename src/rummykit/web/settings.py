"""Settings of the site, from command-line flags or the environment.

``RUMMYKIT_HOST`` (default 127.0.0.1), ``RUMMYKIT_PORT`` (8000) and ``RUMMYKIT_DATABASE_URL``
(default: the SQLite file ``rummykit.sqlite3`` in the working directory).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from rummykit.store import database_url


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = field(default_factory=database_url)

    @classmethod
    def from_env(cls) -> Settings:
        port = os.environ.get("RUMMYKIT_PORT", "8000")
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"RUMMYKIT_PORT must be a port number, not {port!r}")
        return cls(
            host=os.environ.get("RUMMYKIT_HOST", "127.0.0.1"),
            port=int(port),
            database_url=database_url(),
        )
