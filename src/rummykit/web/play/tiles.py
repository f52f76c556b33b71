"""Tile rummy in the play layer: options of the new-game form, the seat's view as the page draws
it, public events, hints and the computer seats' fallback move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from rummykit import tiles
from rummykit.core import JSON, Record
from rummykit.tiles import bots as tile_bots
from rummykit.tiles.hint import REWORK_STEPS
from rummykit.tiles.hint import hint as tile_hint
from rummykit.web.errors import N_
from rummykit.web.play.adapter import Level, Option, hint_json, levels_that_exist
from rummykit.web.play.messages import COLOURS
from rummykit.web.play.romme import ended, game_won, summary
from rummykit.web.play.sentences import Reader, advises, describes

LEVELS = (
    Level("random", N_("Beginner"), N_("Plays a simple legal move, without a plan.")),
    Level("greedy", N_("Easy"), N_("Plays as many tiles as it can, as soon as it can.")),
    Level("hard", N_("Hard"), N_("Reworks the whole table to play the most.")),
)

OPTIONS = (
    Option(
        "rack_size",
        N_("Tiles per rack"),
        N_("How many tiles each player is dealt."),
        choices=(
            (None, N_("10 with two players, 7 with three or four")),
            (14, "14"),
            (13, "13"),
        ),
    ),
    Option(
        "opening_min",
        N_("First meld"),
        N_("The least the sets of a player's first meld must be worth, made from the rack alone."),
        kind="number",
        low=0,
        high=100,
    ),
    Option(
        "joker_retrieval",
        N_("Taking back a joker"),
        N_("Which jokers on the table may be replaced by the tile they stand for."),
        choices=(
            ("end_only", N_("only at the end of a run or in a group")),
            ("anywhere", N_("anywhere")),
        ),
    ),
    Option(
        "jokers",
        N_("Jokers"),
        N_("How many jokers the set holds."),
        choices=tuple((n, str(n)) for n in (2, 0, 1, 3, 4)),
    ),
    Option(
        "joker_penalty",
        N_("Joker left on the rack"),
        N_("What a joker still on a rack counts at the end of a round."),
        kind="number",
        low=0,
        high=100,
    ),
    Option(
        "scoring",
        N_("Scoring"),
        N_("How the racks left at the end of a round are counted."),
        choices=(
            ("leaflet", N_("each player adds the own rack; the lowest total wins")),
            ("classic", N_("the winner scores the others' racks; the highest total wins")),
        ),
    ),
    Option(
        "rounds",
        N_("Rounds"),
        N_("How many rounds the game lasts."),
        kind="number",
        low=1,
        high=50,
    ),
)

PRESETS = ("leaflet", "classic")
PRESET_LABELS = {
    "leaflet": N_("The leaflet's rules: 10 or 7 tiles, first meld 30, one round"),
    "classic": N_("Tournament style: 14 tiles, jokers taken back anywhere, plus and minus scores"),
}


def _plain(value: Any) -> JSON:
    if isinstance(value, Mapping | MappingProxyType):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


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


class TilesAdapter:
    kind = "tiles"
    title = N_("Tile rummy")
    min_players = 2
    max_players = 4
    bot_budget = 0.3

    def __init__(self) -> None:
        self._levels: tuple[Level, ...] | None = None

    def levels(self) -> Sequence[Level]:
        if self._levels is None:
            self._levels = levels_that_exist(tile_bots.make_bot, LEVELS)
        return self._levels

    def default_level(self) -> str:
        names = [level.name for level in self.levels()]
        return "greedy" if "greedy" in names else names[-1]

    def options(self) -> Sequence[Option]:
        return OPTIONS

    def presets(self) -> Mapping[str, JSON]:
        return {name: tiles.Rules.preset(name).to_json() for name in PRESETS}

    def preset_labels(self) -> Mapping[str, str]:
        return PRESET_LABELS

    def rules_from_json(self, data: JSON) -> tiles.Rules:
        return tiles.Rules.from_json(data)

    def rules_to_json(self, rules: tiles.Rules) -> JSON:
        return rules.to_json()

    def new_state(self, rules: tiles.Rules, players: int, seed: int) -> tiles.State:
        return tiles.State(rules, players, seed)

    def replay(self, record: Record) -> tiles.State:
        return tiles.replay(record)

    def replay_states(self, record: Record) -> Any:
        return tiles.replay_states(record)

    def action_from_json(self, data: JSON, rules: tiles.Rules) -> tiles.Action:
        return tiles.action_from_json(data, rules)

    def make_bot(self, level: str, seed: int) -> Any:
        return tile_bots.make_bot(level, seed)

    def view_to_wire(self, view: tiles.View) -> JSON:
        return view.to_json()

    def view_from_wire(self, data: JSON) -> tiles.View:
        return tiles.View.from_json(data)

    def fallback_action(self, state: tiles.State, seat: int) -> tiles.Action:
        return state.legal_actions()[0]

    def log(self, state: tiles.State) -> Sequence[Mapping[str, JSON]]:
        return state.log

    def client_event(self, event: Mapping[str, JSON]) -> dict[str, JSON]:
        plain = _plain(event)
        assert isinstance(plain, dict)
        return plain

    def client_view(self, state: tiles.State, seat: int | None) -> dict[str, JSON]:
        view = state.view(seat)
        rules = view.rules
        data: dict[str, JSON] = {
            "phase": view.phase,
            "round": view.round,
            "rounds": rules.rounds,
            "to_move": view.to_move,
            "players": view.players,
            "rack": [t.code for t in view.rack],
            "last_drawn": None if view.last_drawn is None else view.last_drawn.code,
            "rack_sizes": list(view.rack_sizes),
            "opened": list(view.opened),
            "table": [set_json(s) for s in view.table],
            "pool": view.pool_size,
            "passes": view.passes,
            "opening_min": rules.opening_min,
            "scoring": rules.scoring,
            "scores": list(view.scores),
            "round_scores": [list(r) for r in view.round_scores],
            "winners": list(view.winners),
            "round_end": None,
        }
        if view.phase in ("round_over", "game_over"):
            ends = [e for e in view.log if e.get("code") == "round_end"]
            if ends:
                event = _plain(ends[-1])
                assert isinstance(event, dict)
                racks = [tiles.parse_tiles(r) if r else [] for r in event["racks"]]
                event["racks"] = [
                    [{"tile": t.code, "value": rules.penalty(t)} for t in rack] for rack in racks
                ]
                data["round_end"] = event
        return data

    def rules_summary(self, rules: tiles.Rules) -> list[tuple[str, str]]:
        return summary(OPTIONS, rules.to_json())

    def hint(self, view: tiles.View) -> dict[str, JSON]:
        """The engine's advice (`rummykit.tiles.hint`) from the strongest computer level, a play
        written as the page sends it (every set with its jokers' meanings)."""
        levels = self.levels()
        advice = tile_hint(view, levels[-1].name if levels else "random")
        action = advice.action
        page_form: JSON = None
        if isinstance(action, tiles.Play):
            page_form = {"t": "play", "table": [set_json(s) for s in action.table]}
        return hint_json(advice, view.seat, view.to_move, page_form)


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


ADAPTER = TilesAdapter()
