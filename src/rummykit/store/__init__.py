"""Storage: games as append-only action logs, score sheets as versioned entry logs.

Conventions for every part that stores something:

- Open one `Database` per process (the web app keeps it in ``app.state.db``) and call
  `Database.migrate` once; SQLite by default, PostgreSQL by URL (``$RUMMYKIT_DATABASE_URL``).
- A game is stored as its record: `GameRepository.create_game` (kind, rules JSON, seed, seats,
  which seats are human) returns the id and one secret token per human seat; each action goes
  through `GameRepository.append_action` with the position the caller expects, and a lost race
  raises `Conflict` instead of overwriting; `GameRepository.load_record` gives the
  `rummykit.core.Record` to replay.
- Schema changes are Alembic revisions in ``rummykit/store/migrations/versions``
  (``rummykit db revision -m "…"`` writes one from the models in `rummykit.store.models`).
"""

from rummykit.store.database import DEFAULT_URL, URL_VARIABLE, Database, async_url, database_url
from rummykit.store.errors import Conflict, NotFound
from rummykit.store.games import GameInfo, GameRepository, NewGame, hash_token, new_token
from rummykit.store.sheets import SheetRepository, StoredSheet, view_token

__all__ = [
    "DEFAULT_URL",
    "URL_VARIABLE",
    "Conflict",
    "Database",
    "GameInfo",
    "GameRepository",
    "NewGame",
    "NotFound",
    "SheetRepository",
    "StoredSheet",
    "async_url",
    "database_url",
    "hash_token",
    "new_token",
    "view_token",
]
