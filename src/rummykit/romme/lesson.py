"""The first game of Rommé as a lesson: a friendly deal and the twelve moves that teach it.

The learner (seat 0) plays one computer player. The computer starts (it is dealt fourteen
cards and discards); then the learner's four turns teach, in order: drawing, a first meld (a
run worth exactly 30, the joker standing for the jack), discarding, laying off a card on a
meld of the table, exchanging the joker for the card it stands for (the freed joker laid again
at once), and going out. Every card the learner needs is in the hand or comes from the stock
at the right turn. The computer's cards hold no meld and none of the learner's discards
completes one (the discard pile may be taken only to meld its card at once), so it can only
draw from the stock and discard: the stock gives each player the cards named here whatever
it throws away.

>>> from rummykit.lesson import run_script
>>> from rummykit.romme.bots import fallback_action
>>> game = run_script(LESSON, fallback_action)
>>> game.is_over, game.winners, len(game.hands[0])
(True, [0], 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from rummykit.cards import Card
from rummykit.core import JSON
from rummykit.lesson import Lesson, Step
from rummykit.romme.actions import Action, Discard, Draw, Exchange, LayOff, NewMeld, Play
from rummykit.romme.game import Deal, State
from rummykit.romme.rules import Rules

SEED = 16

RULES = Rules.preset("computer").replace(rounds=1, discard_pickup="must_use")
"""The computer's rules (opening at 30, going out on the discard pile) for one round; the
discard pile is taken only to meld its card, so the computer cannot take the lesson's cards."""


DEAL = Deal(
    hands=(
        Card.parse_each("10♠ JK 5♦ 5♣ 2♥ 3♥ 4♥ 7♣ 7♦ K♣ Q♦ 8♥ J♥"),
        Card.parse_each("A♠ 3♠ 5♠ 7♠ 2♦ 4♦ 6♦ 9♦ 8♣ 10♣ Q♣ 6♥ 9♥ K♥"),
    ),
    # Drawn in this order: the learner's cards at the learner's turns, junk for the computer.
    stock=Card.parse_each("Q♠ J♦ 9♠ A♥ J♠ 3♣ 7♥"),
    dealer=0,
)


def _meld_of(state: State, code: str) -> int:
    """The id of the table meld holding the card ``code``."""
    card = Card.parse(code)
    return next(m.id for m in state.table.values() if card in m.cards)


def _shapes(
    play: Play,
) -> tuple[set[frozenset[Card]], set[tuple[Card, int]], set[tuple[Card, int]]]:
    """A play as what it lays, whatever its order: its new melds as sets of cards, its
    lay-offs and its exchanges as (card, meld)."""
    return (
        {frozenset(m.cards) for m in play.melds},
        {(lo.card, lo.meld) for lo in play.layoffs},
        {(x.card, x.meld) for x in play.exchanges},
    )


def same_play(state: State, move: Action, wanted: Play) -> bool:
    """Whether ``move`` lays what ``wanted`` lays (in any order, a lay-off at either end)."""
    return isinstance(move, Play) and _shapes(move) == _shapes(wanted)


def _draw() -> Step[State, Action]:
    return Step("draw", lambda s: Draw("stock"), lambda s: ("stock",))


def _discard(code: str, step: str = "discard") -> Step[State, Action]:
    card = Card.parse(code)
    return Step(step, lambda s: Discard(card), lambda s: (code,))


def _play(
    step: str, build: Callable[[State], Play], params: Mapping[str, JSON] | None = None
) -> Step[State, Action]:
    return Step(
        step,
        build,
        lambda s: tuple(c.code for c in build(s).cards()),
        lambda s, move: same_play(s, move, build(s)),
        lambda s: dict(params or {}),
    )


def _opening(state: State) -> Play:
    return Play(melds=(NewMeld(Card.parse_each("10♠ JK Q♠")),))


def _layoff(state: State) -> Play:
    return Play(layoffs=(LayOff(Card.parse("9♠"), _meld_of(state, "10♠"), "low"),))


def _exchange(state: State) -> Play:
    run = _meld_of(state, "10♠")
    joker, jack = Card.parse("JK"), Card.parse("J♠")
    return Play(
        melds=(NewMeld(Card.parse_each("5♦ 5♣ JK")),), exchanges=(Exchange(run, joker, jack),)
    )


def _is_exchange(state: State, move: Action) -> bool:
    """The joker of the run exchanged for the J♠, the freed joker laid again in any legal way."""
    wanted = (Card.parse("J♠"), _meld_of(state, "10♠"))
    return isinstance(move, Play) and {(x.card, x.meld) for x in move.exchanges} == {wanted}


def _last_melds(state: State) -> Play:
    return Play(melds=(NewMeld(Card.parse_each("2♥ 3♥ 4♥")), NewMeld(Card.parse_each("7♣ 7♦ 7♥"))))


LESSON: Lesson[State, Action] = Lesson(
    game="romme",
    seed=SEED,
    deal=partial(State.dealt, DEAL, RULES, SEED),
    steps=(
        _draw(),
        _play("open", _opening, {"value": 30}),
        _discard("K♣"),
        _draw(),
        _play("lay_off", _layoff),
        _discard("Q♦"),
        _draw(),
        Step(
            "exchange",
            _exchange,
            lambda s: ("J♠", "5♦", "5♣"),
            _is_exchange,
        ),
        _discard("8♥"),
        _draw(),
        _play("last_melds", _last_melds),
        _discard("J♥", "go_out"),
    ),
)
"""The lesson: the learner at seat 0, one computer player at beginner level."""
