"""The demonstration hand: one hand of four players played by the engine
(`rummykit.rummoli.demo_hand`), every hand and the widow face up, as frames of the page."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rummykit.core import JSON
from rummykit.rummoli import BOXES, Box, DemoHand, demo_hand
from rummykit.web.rummoli.sentences import describe
from rummykit.web.rummoli.words import CATEGORY_LABELS, Translations, chips_text

DEMO_PLAYERS = 4
DEMO_SEED = 13
"""The first deal shown: every kind of stop, a colour change passed on, a combination won."""
DEMO_NAMES = ("Anna", "Bruno", "Chloé", "David")
MAX_DEMO_HANDS = 40
SEED_LIMIT = 10**9

PHASES = {
    "hand_start": "deal",
    "player_out": "deal",
    "ante": "deal",
    "deal": "deal",
    "widow_kept": "widow",
    "widow_swapped": "widow",
    "bid": "widow",
    "pass": "widow",
    "widow_dead": "widow",
    "auction_won": "widow",
    "poker_show": "poker",
    "poker_won": "poker",
}
PLAYS = ("lead", "play", "colour_change")


@lru_cache(maxsize=64)
def demo_chain(seed: int, hand: int) -> DemoHand:
    """Hand ``hand`` (1 for the first) of the demonstration that starts with deal ``seed``."""
    current = demo_hand(DEMO_PLAYERS, seed)
    for _ in range(hand - 1):
        current = current.next_hand()
    return current


@dataclass(frozen=True)
class Frame:
    """The table just after one step of the demonstration, as the page shows it."""

    code: str
    text: str
    phase: str
    """The part of the hand the step belongs to: deal, widow, poker, sequence or end."""
    board: tuple[int, ...]
    """The chips on each box, in `BOXES` order."""
    chips: tuple[int, ...]
    seats: tuple[int, ...]
    """The seats that act in this step (the page highlights them)."""
    marks: tuple[str, ...]
    """The cards this step is about (the page marks them)."""
    won: str | None
    """The box won in this step, if any."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "phase": self.phase,
            "board": list(self.board),
            "chips": list(self.chips),
            "seats": list(self.seats),
            "marks": list(self.marks),
            "won": self.won,
        }


@dataclass(frozen=True)
class SeqCard:
    """A card of the sequence: who played it, at which step, in which run (between stops)."""

    seat: int
    card: str
    step: int
    run: int


@dataclass(frozen=True)
class Run:
    """The cards played between two stops, and the step and words of the stop that ended it."""

    plays: tuple[SeqCard, ...]
    stop_step: int | None
    stop_text: str


@dataclass(frozen=True)
class Demo:
    """Everything the demonstration page shows of one hand."""

    hand: DemoHand
    number: int
    frames: tuple[Frame, ...]
    plays: tuple[SeqCard, ...]
    runs: tuple[Run, ...]
    played_at: dict[str, int]
    """Card code -> the step at which it was played."""
    poker: dict[int, tuple[int, str]]
    """Seat -> (the step of its showdown, the hand's name)."""
    tags: dict[str, tuple[int, str]]
    """Box -> (the step it was won, who won it and how much)."""
    out: tuple[int, int] | None
    """(The seat that went out first, the step), or None for a blocked hand."""


def build_demo(hand: DemoHand, number: int, t: Translations) -> Demo:
    """The frames, the sequence's runs and the per-card steps of one demonstration hand."""
    names = DEMO_NAMES[: hand.players]
    frames: list[Frame] = []
    plays: list[SeqCard] = []
    runs: list[Run] = []
    current: list[SeqCard] = []
    played_at: dict[str, int] = {}
    poker: dict[int, tuple[int, str]] = {}
    tags: dict[str, tuple[int, str]] = {}
    phase = "deal"
    last_card: str | None = None
    out: tuple[int, int] | None = None
    for i, step in enumerate(hand.steps):
        code = step.code
        params: dict[str, Any] = dict(step.params)
        event = {"code": code, **params}
        phase = PHASES.get(code, "end" if code == "hand_end" else "sequence")
        seats: tuple[int, ...] = ()
        marks: tuple[str, ...] = ()
        won: str | None = None
        seat = params.get("seat")
        if isinstance(seat, int):
            seats = (seat,)
        if code in PLAYS:
            card = str(params["card"])
            play = SeqCard(int(params["seat"]), card, i, len(runs))
            plays.append(play)
            current.append(play)
            played_at[card] = i
            last_card = card
            marks = (card,)
        elif code == "stop":
            marks = (str(params["card"]),)
            if "missing" in params:
                marks += (str(params["missing"]),)
            runs.append(Run(tuple(current), i, describe(event, t, names)))
            current = []
        elif code == "poker_show":
            marks = tuple(str(c) for c in params["cards"])
            poker[int(params["seat"])] = (
                i,
                t.gettext(CATEGORY_LABELS[str(params["category"])]),
            )
        elif code == "poker_won":
            seats = tuple(int(s) for s in params["seats"])
        elif code == "box_won":
            won = str(params["box"])
            if last_card is not None and won != Box.RUMMOLI.value:
                marks = (last_card,)
            tags[won] = (i, f"{names[int(params['seat'])]} +{params['chips']}")
        elif code == "went_out":
            out = (int(params["seat"]), i)
        elif code == "payment":
            seats = (int(params["seat"]), int(params["to"]))
        frames.append(
            Frame(
                code=code,
                text=describe(event, t, names),
                phase=phase,
                board=step.board,
                chips=step.chips,
                seats=seats,
                marks=marks,
                won=won,
            )
        )
    if current:
        # The last run ends the hand: the player who went out, or the block.
        ending = next((i for i, f in enumerate(frames) if f.code in ("went_out", "blocked")), None)
        text = "" if ending is None else frames[ending].text
        runs.append(Run(tuple(current), ending, text))
    return Demo(
        hand=hand,
        number=number,
        frames=tuple(frames),
        plays=tuple(plays),
        runs=tuple(runs),
        played_at=played_at,
        poker=poker,
        tags=tags,
        out=out,
    )


def frames_json(frames: Sequence[Frame], t: Translations) -> str:
    """The frames for the page's script, with the chip counts already in words."""
    data = [
        {
            **frame.to_json(),
            "chips_text": [chips_text(n, t) for n in frame.chips],
            "board_text": {box.value: chips_text(frame.board[box.slot], t) for box in BOXES},
        }
        for frame in frames
    ]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
