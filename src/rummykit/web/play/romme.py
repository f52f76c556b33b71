"""Rommé in the play layer: options of the new-game form, the seat's view as the page draws it,
public events with cards by their codes, hints and the computer seats' fallback move."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from rummykit import romme
from rummykit.cards import Card
from rummykit.core import JSON, Hint, IllegalAction, thaw
from rummykit.romme.rules import card_value, joker_stands_for
from rummykit.web.errors import N_
from rummykit.web.play.adapter import FormPreset, Level, PlayGame, choice, flag, number
from rummykit.web.play.messages import CLIENT
from rummykit.web.play.rummy import ended, game_won, round_fields
from rummykit.web.play.sentences import Reader, advises, describes

LEVELS = (
    Level("random", N_("Beginner"), N_("Plays any legal move, without a plan.")),
    Level("easy", N_("Easy"), N_("Lays what it can as soon as it can.")),
    Level("medium", N_("Medium"), N_("Keeps its melds in hand and lays them all at once.")),
    Level(
        "hard",
        N_("Hard"),
        N_("Waits longer, counts the cards it lacks and reckons with those it cannot see."),
    ),
)

OPTIONS = (
    choice(
        "hand_size",
        N_("Cards per hand"),
        N_("How many cards each player is dealt."),
        12,
        13,
        14,
    ),
    choice(
        "deal_style",
        N_("Dealing"),
        N_("Who starts and how the discard pile begins."),
        (
            "dealer_left_extra",
            N_("The player left of the dealer gets one card more and starts by discarding"),
        ),
        ("upcard", N_("Everyone gets the same number; one card is turned face up")),
    ),
    choice(
        "opening_min",
        N_("First meld"),
        N_("The least a player's first melds must be worth together; lay-offs do not count."),
        30,
        40,
        (0, N_("no minimum")),
    ),
    choice(
        "ace_low_value",
        N_("Ace below the 2"),
        N_("What an ace counts in a run A-2-3 (anywhere else it counts 11)."),
        11,
        1,
    ),
    choice(
        "joker_penalty",
        N_("Joker left in hand"),
        N_("The penalty of a joker still in hand when the round ends."),
        20,
        25,
        30,
        40,
    ),
    choice(
        "discard_pickup",
        N_("Taking the discard"),
        N_("When a player may take the top card of the discard pile instead of drawing."),
        ("free", N_("always")),
        ("must_use", N_("only to meld it in the same turn")),
    ),
    flag(
        "layoff_on_opening_turn",
        N_("Lay off on the opening turn"),
        N_("Once the first melds reach the minimum, cards may go onto the table's melds at once."),
    ),
    flag(
        "opening_requires_run",
        N_("The first meld needs a run"),
        N_("A player opens only with at least one run among the new melds."),
    ),
    flag(
        "opening_without_jokers",
        N_("No joker in the first meld"),
        N_("The melds that open may not hold a joker."),
    ),
    choice(
        "go_out",
        N_("Going out"),
        N_("How the last card leaves the hand."),
        ("discard", N_("on the discard pile")),
        ("meld", N_("on the discard pile or in a meld")),
    ),
    choice(
        "hand_romme",
        N_("Hand-Rommé"),
        N_("A player who lays every card in one turn without having opened before."),
        ("double", N_("the others pay double")),
        ("credit", N_("the winner is credited 100 points")),
        ("none", N_("nothing special")),
    ),
    choice(
        "never_opened",
        N_("Never opened"),
        N_("What a player who has not opened by the end of the round pays."),
        ("cards", N_("the cards in hand")),
        ("flat100", N_("100 points")),
    ),
    choice(
        "stock_exhausted",
        N_("Stock used up"),
        N_("What happens when nobody can draw from the stock any more."),
        ("reshuffle", N_("the discard pile, but its top card, becomes the new stock")),
        ("end_round", N_("the round ends and everyone counts")),
    ),
    number(
        "rounds",
        N_("Rounds"),
        N_("The game ends after this many rounds; leave it empty to play to a point limit."),
        1,
        50,
        optional=True,
    ),
    number(
        "point_limit",
        N_("Point limit"),
        N_("The game also ends when a total passes this limit; empty for none."),
        50,
        5000,
        optional=True,
    ),
    choice(
        "limit_rule",
        N_("Limit reached"),
        N_(
            "Whether a total ends the game when it goes over the limit or as soon as it reaches it."
        ),
        ("exceeds", N_("over the limit")),
        ("reaches", N_("at the limit")),
    ),
    choice(
        "jokers",
        N_("Jokers in the pack"),
        N_("The pack holds two decks and up to six jokers."),
        6,
        4,
        3,
        2,
        0,
    ),
)

PRESETS = {
    "computer": FormPreset(
        N_("Against the computer: opening 30, the discard may always be taken, 3 rounds"),
        "computer",
    ),
    "standard": FormPreset(N_("Standard: the discard only to meld it, 3 rounds"), "standard"),
    "german_club": FormPreset(
        N_("German club table: one card face up, play to 500 points"), "german_club"
    ),
}
"""The new-game form's rule sets: the engine's presets, labelled."""


def code(card: Card) -> str:
    return card.code


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _face(card: Card) -> dict[str, JSON]:
    """A face a joker stands for, written so that it is never mistaken for a physical card."""
    return {
        "rank": card.rank.symbol if card.rank else "",
        "suit": card.suit.symbol if card.suit else "",
    }


def meld_json(meld: romme.TableMeld) -> dict[str, JSON]:
    """A meld as the page draws it: its cards, what each joker stands for, its numbers."""
    return dict(_meld_json(meld))


@functools.lru_cache(maxsize=4096)
def _meld_json(meld: romme.TableMeld) -> dict[str, JSON]:
    # Every step sends the whole table again, and reading a meld was most of the cost of the
    # page's view: a meld is a frozen value, so its form is kept. `meld_json` hands out a copy
    # of the top level; the lists inside are shared and only ever read (encoded as JSON).
    reading = meld.reading()
    stands: list[JSON] = []
    for index, card in enumerate(meld.cards):
        if not card.is_joker:
            stands.append(None)
            continue
        faces = joker_stands_for(meld.cards, index, reading)
        stands.append([_face(f) for f in faces])
    return {
        "id": meld.id,
        "kind": meld.kind,
        "owner": meld.owner,
        "cards": codes(meld.cards),
        "stands": stands,
        "numbers": list(reading.numbers),
    }


def _card_field(value: JSON) -> JSON:
    return Card.from_id(value).code if isinstance(value, int) else value


def event_json(event: Mapping[str, JSON]) -> dict[str, JSON]:
    """A log event as plain JSON, its card ids replaced by their codes."""
    return _cards_as_codes(thaw(event))


def _cards_as_codes(event: dict[str, JSON]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for key, value in event.items():
        if key in ("card", "upcard", "joker"):
            out[key] = _card_field(value)
        elif key == "cards" and isinstance(value, list):
            out[key] = [_card_field(v) for v in value]
        elif key == "hands" and isinstance(value, list):
            out[key] = [[_card_field(v) for v in hand] for hand in value]
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out[key] = [_cards_as_codes(v) for v in value]
        else:
            out[key] = value
    return out


def client_view(state: romme.State, seat: int | None) -> dict[str, JSON]:
    """What the page of ``seat`` draws: its hand, the others' counts, the table, the discards."""
    view = state.view(seat)
    rules = view.rules
    data = round_fields(view)
    data.update(
        point_limit=rules.point_limit,
        dealer=view.dealer,
        hand=codes(view.hand),
        hand_sizes=list(view.hand_sizes),
        table=[meld_json(m) for m in view.table],
        discard=codes(view.discard_pile[-3:]),
        discard_count=len(view.discard_pile),
        stock=view.stock_size,
        picked=None if view.picked is None else view.picked.code,
        can_take_discard=view.can_take_discard,
        discard_pickup=rules.discard_pickup,
        go_out=rules.go_out,
        next_meld_id=view.next_meld_id,
        losers=list(view.losers),
    )
    if view.phase in ("round_over", "game_over"):
        data["round_end"] = _round_end(view)
    return data


def _round_end(view: romme.View) -> JSON:
    ends = [e for e in view.log if e.get("code") == "round_end"]
    if not ends:
        return None
    event = ends[-1]
    rules = view.rules
    hands = event["hands"]
    return {
        "round": event["round"],
        "winner": event["winner"],
        "hand_romme": event["hand_romme"],
        "penalties": list(event["penalties"]),
        "scores": list(event["scores"]),
        "flat": [
            rules.never_opened == "flat100" and not view.opened[s] and s != event["winner"]
            for s in range(view.players)
        ],
        "hands": [
            [
                {"card": Card.from_id(c).code, "value": card_value(Card.from_id(c), rules)}
                for c in hand
            ]
            for hand in hands
        ],
    }


def meld_values(state: romme.State, melds: JSON) -> list[int | IllegalAction]:
    """What each new meld the page is building counts towards the opening, as the engine
    reads it when the play is laid (`rummykit.romme.new_meld_value`), or the engine's refusal.
    ``melds`` is the ``melds`` field of a play: ``[{"cards": [code, ...]}, ...]``."""
    play = romme.action_from_json({"t": "play", "melds": melds})
    assert isinstance(play, romme.Play)
    found: list[int | IllegalAction] = []
    for meld in play.melds:
        try:
            found.append(romme.new_meld_value(meld, state.rules))
        except IllegalAction as refusal:
            found.append(refusal)
    return found


def hint_json(advice: Hint[romme.Action]) -> dict[str, JSON]:
    """The engine's advice (`rummykit.romme.hint`) with its cards written as codes; a play's
    reason also lists its melds and lay-offs, which the page words after the reason."""
    assert advice.action is not None
    action = event_json(advice.action.to_json())
    reason: dict[str, JSON] = {"code": advice.reason, **advice.params}
    if isinstance(advice.action, romme.Play):
        reason["melds"] = [m["cards"] for m in action.get("melds", [])]
        reason["layoffs"] = [lo["card"] for lo in action.get("layoffs", [])]
    return {"action": action, "reason": reason}


@advises("romme")
def hint_words(reason: Mapping[str, JSON], r: Reader) -> str:
    """A Rommé hint's reason in words, a play's melds and lay-offs after it."""
    params: dict[str, object] = dict(reason)
    if "card" in reason:
        params["card"] = face_text(reason["card"], r)
    text = r.t.gettext(CLIENT["hint_" + str(reason.get("code"))]) % params
    melds = [" ".join(face_text(c, r) for c in m) for m in _lists(reason.get("melds"))]
    layoffs = [face_text(c, r) for c in reason.get("layoffs") or [] if isinstance(c, str)]
    if melds or layoffs:
        text += f" ({' · '.join([*melds, *layoffs])})"
    return text


def _lists(value: JSON) -> list[list[JSON]]:
    return [v for v in value if isinstance(v, list)] if isinstance(value, list) else []


def face_text(code: JSON, reader: Reader) -> str:
    """A card as the log writes it: its face (``8♠``, without the copy number), a joker by
    its name."""
    face = str(code).split("#")[0]
    return reader.t.gettext(N_("joker")) if face == "JK" else face


@describes("romme")
def sentences(event: Mapping[str, JSON], r: Reader) -> list[str]:
    """A Rommé event in words (several sentences for a play)."""
    seat, code, t = event.get("seat"), event.get("code"), r.t
    if code == "deal":
        lines = [
            r.person(
                event.get("dealer"),
                N_("Round %(round)s: you deal."),
                N_("Round %(round)s: %(name)s deals."),
                round=event.get("round"),
            )
        ]
        if event.get("upcard"):
            card = face_text(event["upcard"], r)
            lines.append(t.gettext(N_("%(card)s is turned face up.")) % {"card": card})
        return lines
    if code == "draw":
        if event.get("source") == "discard":
            return [
                r.person(
                    seat,
                    N_("You take %(card)s from the discard pile."),
                    N_("%(name)s takes %(card)s from the discard pile."),
                    card=face_text(event.get("card"), r),
                )
            ]
        return [
            r.person(seat, N_("You draw from the stock."), N_("%(name)s draws from the stock."))
        ]
    if code == "play":
        return _play_sentences(event, r)
    if code == "discard":
        card = face_text(event.get("card"), r)
        return [
            r.person(
                seat, N_("You discard %(card)s."), N_("%(name)s discards %(card)s."), card=card
            )
        ]
    if code == "reshuffle":
        return [t.gettext(N_("The discard pile is shuffled into a new stock."))]
    if code == "round_end":
        return ended(event, r) + ([t.gettext(N_("Hand-Rommé!"))] if event.get("hand_romme") else [])
    if code == "game_end":
        return game_won(event, r)
    return []


def _play_sentences(event: Mapping[str, JSON], r: Reader) -> list[str]:
    seat, t = event.get("seat"), r.t
    lines = []
    for exchange in _items(event.get("exchanges")):
        lines.append(
            r.person(
                seat,
                N_("You exchange %(card)s for a joker."),
                N_("%(name)s exchanges %(card)s for a joker."),
                card=face_text(exchange.get("card"), r),
            )
        )
    for meld in _items(event.get("melds")):
        cards = " ".join(face_text(c, r) for c in meld.get("cards") or [])
        lines.append(
            r.person(seat, N_("You lay %(cards)s."), N_("%(name)s lays %(cards)s."), cards=cards)
        )
    for layoff in _items(event.get("layoffs")):
        lines.append(
            r.person(
                seat,
                N_("You add %(card)s to a meld."),
                N_("%(name)s adds %(card)s to a meld."),
                card=face_text(layoff.get("card"), r),
            )
        )
    value = event.get("opening_value")
    if isinstance(value, int):
        you = t.ngettext("You open with %(value)s point.", "You open with %(value)s points.", value)
        other = t.ngettext(
            "%(name)s opens with %(value)s point.", "%(name)s opens with %(value)s points.", value
        )
        lines.append(r.pick(seat, you, other, value=value))
    return lines


def _items(value: JSON) -> list[Mapping[str, JSON]]:
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


ADAPTER = PlayGame(
    romme.GAME,
    title=N_("Rommé"),
    offered=LEVELS,
    option_list=OPTIONS,
    form_presets=PRESETS,
    bot_budget=0.2,
    draw_view=client_view,
    draw_event=event_json,
    draw_hint=hint_json,
    value_melds=meld_values,
)
"""Rommé for the play layer."""
