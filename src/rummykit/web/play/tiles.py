"""Tile rummy in the play layer: options of the new-game form, the seat's view as the page draws
it, public events, hints and the computer seats' fallback move."""

from __future__ import annotations

from collections.abc import Mapping

from rummykit import tiles
from rummykit.core import JSON, Hint, thaw
from rummykit.tiles.hint import REWORK_STEPS
from rummykit.web.errors import N_
from rummykit.web.play.adapter import FormPreset, Level, PlayGame, choice, number
from rummykit.web.play.messages import COLOURS
from rummykit.web.play.rummy import ended, game_won, round_fields
from rummykit.web.play.sentences import Reader, advises, describes

LEVELS = (
    Level("random", N_("Beginner"), N_("Plays a simple legal move, without a plan.")),
    Level("greedy", N_("Easy"), N_("Plays as many tiles as it can, as soon as it can.")),
    Level("hard", N_("Hard"), N_("Reworks the whole table to play the most.")),
)

OPTIONS = (
    choice(
        "rack_size",
        N_("Tiles per rack"),
        N_("How many tiles each player is dealt."),
        (None, N_("10 with two players, 7 with three or four")),
        14,
        13,
    ),
    number(
        "opening_min",
        N_("First meld"),
        N_("The least the sets of a player's first meld must be worth, made from the rack alone."),
        0,
        100,
    ),
    choice(
        "joker_retrieval",
        N_("Taking back a joker"),
        N_("Which jokers on the table may be replaced by the tile they stand for."),
        ("end_only", N_("only at the end of a run or in a group")),
        ("anywhere", N_("anywhere")),
    ),
    choice(
        "jokers",
        N_("Jokers"),
        N_("How many jokers the set holds."),
        2,
        0,
        1,
        3,
        4,
    ),
    number(
        "joker_penalty",
        N_("Joker left on the rack"),
        N_("What a joker still on a rack counts at the end of a round."),
        0,
        100,
    ),
    choice(
        "scoring",
        N_("Scoring"),
        N_("How the racks left at the end of a round are counted."),
        ("leaflet", N_("each player adds the own rack; the lowest total wins")),
        ("classic", N_("the winner scores the others' racks; the highest total wins")),
    ),
    number("rounds", N_("Rounds"), N_("How many rounds the game lasts."), 1, 50),
)

PRESETS = {
    "leaflet": FormPreset(
        N_("The leaflet's rules: 10 or 7 tiles, first meld 30, one round"), "leaflet"
    ),
    "classic": FormPreset(
        N_("Tournament style: 14 tiles, jokers taken back anywhere, plus and minus scores"),
        "classic",
    ),
}
"""The new-game form's rule sets: the engine's presets, labelled."""


def set_json(table_set: tiles.TableSet) -> dict[str, JSON]:
    """A set with each joker's meaning written apart from the tile codes."""
    return {
        "tiles": [t.code for t in table_set.tiles],
        "jokers": [
            {"n": m.number, "c": None if m.colour is None else m.colour.letter}
            for m in table_set.jokers
        ],
        "kind": table_set.kind,
    }


def client_event(event: Mapping[str, JSON]) -> dict[str, JSON]:
    """A public event as plain JSON (its tiles are already written in notation)."""
    plain: dict[str, JSON] = thaw(event)
    return plain


def client_view(state: tiles.State, seat: int | None) -> dict[str, JSON]:
    """What the page of ``seat`` draws: its rack, the others' counts, the table, the pool."""
    view = state.view(seat)
    rules = view.rules
    data = round_fields(view)
    data.update(
        rack=[t.code for t in view.rack],
        last_drawn=None if view.last_drawn is None else view.last_drawn.code,
        rack_sizes=list(view.rack_sizes),
        table=[set_json(s) for s in view.table],
        pool=view.pool_size,
        passes=view.passes,
        scoring=rules.scoring,
    )
    if view.phase in ("round_over", "game_over"):
        ends = [e for e in view.log if e.get("code") == "round_end"]
        if ends:
            event: dict[str, JSON] = thaw(ends[-1])
            racks = [tiles.parse_tiles(r) if r else [] for r in event["racks"]]
            event["racks"] = [
                [{"tile": t.code, "value": rules.penalty(t)} for t in rack] for rack in racks
            ]
            data["round_end"] = event
    return data


def hint_json(advice: Hint[tiles.Action]) -> dict[str, JSON]:
    """The engine's advice (`rummykit.tiles.hint`), a play written as the page sends it: every
    set with its jokers' meanings."""
    action = advice.action
    assert action is not None
    reason: dict[str, JSON] = {"code": advice.reason, **advice.params}
    if isinstance(action, tiles.Play):
        return {
            "action": {"t": "play", "table": [set_json(s) for s in action.table]},
            "reason": reason,
        }
    return {"action": action.to_json(), "reason": reason}


def tiles_text(text: JSON, r: Reader) -> str:
    """Tiles as the log names them: ``red 5, joker``."""
    names = []
    for code in str(text or "").split():
        face = code.split("#")[0]
        if face == "*" or not face[1:].isdigit() or face[0] not in COLOURS:
            names.append(r.t.gettext(N_("joker")))
        else:
            colour = r.t.gettext(COLOURS[face[0]])
            names.append(r.t.gettext(N_("%(colour)s %(n)s")) % {"colour": colour, "n": face[1:]})
    return ", ".join(names)


@advises("tiles")
def hint_words(reason: Mapping[str, JSON], r: Reader) -> str:
    """A tile hint's reason in words (`rummykit.tiles.hint`'s codes)."""
    t, code = r.t, reason.get("code")
    if code == "next_round":
        return t.gettext(N_("Start the next round."))
    if code == "draw_tile":
        return t.gettext(N_("No play found that helps you: draw a tile."))
    value = reason.get("value")
    count = value if isinstance(value, int) else 0
    names = reason.get("tiles")
    params = {"tiles": tiles_text(" ".join(names) if isinstance(names, list) else "", r)}
    params["value"] = str(value)
    if code == "first_meld":
        text = t.ngettext(
            "Make your first meld with %(tiles)s (%(value)s point).",
            "Make your first meld with %(tiles)s (%(value)s points).",
            count,
        )
    elif code == "rework_table":
        text = t.ngettext(
            "Play %(tiles)s (%(value)s point) by reworking the table.",
            "Play %(tiles)s (%(value)s points) by reworking the table.",
            count,
        )
    else:
        text = t.ngettext(
            "Play %(tiles)s (%(value)s point).", "Play %(tiles)s (%(value)s points).", count
        )
    return text % params


@describes("tiles")
def sentences(event: Mapping[str, JSON], r: Reader) -> list[str]:
    """A tile-rummy event in words (the round's start says nothing: its deal says the round)."""
    seat, code, t = event.get("seat"), event.get("code"), r.t
    if code == "deal":
        return [t.gettext(N_("Round %(round)s")) % {"round": event.get("round")}]
    if code == "starter":
        return [
            r.person(
                seat,
                N_("You drew the lowest tile and start."),
                N_("%(name)s drew the lowest tile and starts."),
            )
        ]
    if code == "starter_draw":
        tile = tiles_text(event.get("tile"), r)
        return [r.person(seat, N_("You draw %(tile)s."), N_("%(name)s draws %(tile)s."), tile=tile)]
    if code == "starter_tie":
        tied = event.get("seats")
        names = r.people(tied if isinstance(tied, list) else [])
        text = t.gettext(N_("%(names)s drew the same lowest number and draw again."))
        return [text % {"names": names}]
    if code == "draw":
        return [r.person(seat, N_("You draw a tile."), N_("%(name)s draws a tile."))]
    if code == "pass":
        return [r.person(seat, N_("You pass."), N_("%(name)s passes."))]
    if code == "play":
        value = event.get("value")
        count = value if isinstance(value, int) else 0
        params = {"tiles": tiles_text(event.get("tiles"), r), "value": value}
        if event.get("first_meld"):
            you = t.ngettext(
                "You make your first meld: %(tiles)s (%(value)s point).",
                "You make your first meld: %(tiles)s (%(value)s points).",
                count,
            )
            other = t.ngettext(
                "%(name)s makes the first meld: %(tiles)s (%(value)s point).",
                "%(name)s makes the first meld: %(tiles)s (%(value)s points).",
                count,
            )
        else:
            you = t.ngettext(
                "You play %(tiles)s (%(value)s point).",
                "You play %(tiles)s (%(value)s points).",
                count,
            )
            other = t.ngettext(
                "%(name)s plays %(tiles)s (%(value)s point).",
                "%(name)s plays %(tiles)s (%(value)s points).",
                count,
            )
        lines = [r.pick(seat, you, other, **params)]
        steps = event.get("steps")
        if isinstance(steps, list) and any(
            isinstance(s, Mapping) and s.get("code") in REWORK_STEPS for s in steps
        ):
            lines.append(
                r.person(seat, N_("You rework the table."), N_("%(name)s reworks the table."))
            )
        return lines
    if code == "round_end":
        return ended(event, r)
    if code == "game_end":
        return game_won(event, r)
    return []


ADAPTER = PlayGame(
    tiles.GAME,
    title=N_("Tile rummy"),
    offered=LEVELS,
    option_list=OPTIONS,
    form_presets=PRESETS,
    bot_budget=0.3,
    draw_view=client_view,
    draw_event=client_event,
    draw_hint=hint_json,
)
"""Tile rummy for the play layer."""
