"""Games against the computer on the site, for any game: the play layer and its pages.

- `rummykit.web.play.adapter`: `PlayGame`, a game for the play layer: the engine's descriptor
  (`rummykit.core.GameDescriptor`) and the game's presentation (`Option`, `Level`,
  `FormPreset`, how its page draws a view, an event and a hint); ``ADAPTERS`` names each game's
  module.
- `rummykit.web.play.service`: `PlayService` stores games as records, replays them, applies
  a person's actions, runs the computer seats within their time budget and pushes each seat's
  view over a WebSocket with a version counter (``seq``).
- `rummykit.web.play.api`: the JSON API and the WebSocket; `rummykit.web.play.pages`: the
  new-game form, the table and the replay viewer of a game (``game_pages(kind)``).
- `rummykit.web.play.sentences`: every game's events and hints in words, for the reader's seat
  and language.
- `rummykit.web.play.messages`: the engines' error codes and the table's texts (domain
  ``play``).

A new game writes its engine package (with its ``GAME`` descriptor), then a presentation module
here with ``ADAPTER = PlayGame(GAME, …)`` and its sentences, names it in ``ADAPTERS``, adds
``routes/<game>.py`` with ``router = game_pages("<game>")`` and its template ``<game>/game.html``.
"""
