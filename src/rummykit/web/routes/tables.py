"""The JSON API and WebSockets of tables with friends (see `rummykit.web.play.tables_api`)."""

from rummykit.web.play.tables_api import router

__all__ = ["router"]
