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

from rummykit.scoresheet.chips import (
    Ante,
    ChipAction,
    ChipKeeper,
    ChipSettings,
    Move,
    Undo,
    chip_action_from_json,
    is_chip_record,
    replay_chips,
)
from rummykit.scoresheet.sheet import (
    DEFAULT_LIMIT,
    DEFAULT_ROUNDS,
    GAME,
    LIMIT_MAX,
    LIMIT_MIN,
    LIMIT_PRESETS,
    NAME_MAX,
    PLAYER_NAME_MAX,
    PLAYERS_MAX,
    PLAYERS_MIN,
    POINTS_MAX,
    POINTS_MIN,
    ROUNDS_MAX,
    ROUNDS_MIN,
    Action,
    Claim,
    CorrectRound,
    End,
    EnterHand,
    EnterRound,
    Entry,
    Game,
    Join,
    Leave,
    Player,
    Round,
    Scoring,
    Settings,
    Sheet,
    Standing,
    Start,
    action_from_json,
    clean_name,
    replay,
)

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_ROUNDS",
    "GAME",
    "LIMIT_MAX",
    "LIMIT_MIN",
    "LIMIT_PRESETS",
    "NAME_MAX",
    "PLAYERS_MAX",
    "PLAYERS_MIN",
    "PLAYER_NAME_MAX",
    "POINTS_MAX",
    "POINTS_MIN",
    "ROUNDS_MAX",
    "ROUNDS_MIN",
    "Action",
    "Ante",
    "ChipAction",
    "ChipKeeper",
    "ChipSettings",
    "Claim",
    "CorrectRound",
    "End",
    "EnterHand",
    "EnterRound",
    "Entry",
    "Game",
    "Join",
    "Leave",
    "Move",
    "Player",
    "Round",
    "Scoring",
    "Settings",
    "Sheet",
    "Standing",
    "Start",
    "Undo",
    "action_from_json",
    "chip_action_from_json",
    "clean_name",
    "is_chip_record",
    "replay",
    "replay_chips",
]
