"""Rummoli's presentation on the site, apart from the play layer: words, board, sentences, demo.

- `rummykit.web.rummoli.words`: cards, counts and poker hands in words;
- `rummykit.web.rummoli.board`: the nine boxes and how each is won;
- `rummykit.web.rummoli.sentences`: the engine's events as sentences;
- `rummykit.web.rummoli.demo`: the demonstration hand, frame by frame.

The play layer's adapter is `rummykit.web.play.rummoli`, the pages are
`rummykit.web.routes.rummoli`. Every text here belongs to the catalog domain ``rummoli``.
"""
