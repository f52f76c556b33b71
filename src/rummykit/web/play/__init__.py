"""Games against the computer on the site, for any game: the play layer and its pages.

- `rummykit.web.play.adapter`: what a game tells the play layer (`GameAdapter`, `Option`,
  `Level`); ``ADAPTERS`` names each game's module.
- `rummykit.web.play.service`: `PlayService` stores games as records, replays them, applies
  a person's actions, runs the computer seats within their time budget and pushes each seat's
  view over a WebSocket with a version counter (``seq``).
- `rummykit.web.play.api`: the JSON API and the WebSocket; `rummykit.web.play.pages`: the
  new-game form, the table and the replay viewer of a game (``game_pages(kind)``).
- `rummykit.web.play.messages`: the engines' error codes and the table's texts (domain
  ``play``).

A new game (Rummoli) writes an adapter module with ``ADAPTER``, adds it to ``ADAPTERS``, adds
``routes/<game>.py`` with ``router = game_pages("<game>")`` and its templates
``<game>/game.html`` and ``<game>/replay.html``.
"""
