"""The JSON API and WebSocket shared by every game against the computer (see
`rummykit.web.play.api`)."""

from rummykit.web.play.api import router

__all__ = ["router"]
