"""The Rommé score sheet: the pure rules of a paper score sheet for games with real cards.

Players enter their hand sums after each round; totals add up and whoever reaches (or, as chosen,
exceeds) the point limit has lost, or the game ends after a chosen number of rounds; the lowest
total wins, equal totals sharing the victory. Players may join (starting at 0 or at the current
highest total) and leave (ranked behind those who play on); any past round may be corrected. No
I/O here: the web layer stores the actions and renders the sheet.

>>> from rummykit import scoresheet
>>> sheet = scoresheet.Sheet(scoresheet.Settings("Sunday", limit=100), ["Ann", "Bob"])
>>> sheet.apply(scoresheet.EnterRound.of({0: 0, 1: 120}, went_out=0))
>>> sheet.is_over, [s.name for s in sheet.standings()]
(True, ['Ann', 'Bob'])
"""

from rummykit.scoresheet import chips, sheet
from rummykit.scoresheet.chips import *  # noqa: F403 (the package's API is its modules')
from rummykit.scoresheet.sheet import *  # noqa: F403

__all__ = []
__all__ += chips.__all__
__all__ += sheet.__all__
