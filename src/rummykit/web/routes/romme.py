"""Rommé against the computer: the new-game form, the table and the replay (see
`rummykit.web.play.pages`)."""

from rummykit.web.play.pages import game_pages

router = game_pages("romme")
