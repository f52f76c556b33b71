"""The computer players: legal moves only, under any rules, from nothing but their view."""

from __future__ import annotations

import gc
import os
import random
from collections.abc import Iterator

import pytest

from rummykit.cards import Card, parse_cards, romme_pack
from rummykit.core import IllegalAction
from rummykit.romme.actions import Discard, Draw, NextRound, Play
from rummykit.romme.bot_levels import SolverBot
from rummykit.romme.bots import LEVELS, make_bot
from rummykit.romme.game import State
from rummykit.romme.rules import Rules, random_rules
from rummykit.romme.view import View

SOLVER_LEVELS = ("easy", "medium", "hard")
# 200 games of random rules in every run of the tests; `make fuzz` plays 2,000
# (RUMMYKIT_BOT_CHUNKS=80): the bots think to a budget by the clock. Small chunks keep the two
# test workers evenly busy.
CHUNKS = int(os.environ.get("RUMMYKIT_BOT_CHUNKS", "8"))
GAMES_PER_CHUNK = 25


def play_game(
    state: State, levels: list[str], seed: int, max_actions: int = 2500, budget: float = 0.2
) -> int:
    """Let the bots play; ``apply`` raises on any illegal action. Returns the actions made."""
    bots = [make_bot(level, seed + i) for i, level in enumerate(levels)]
    for bot in bots:
        if isinstance(bot, SolverBot):
            bot.budget = budget
    made = 0
    while not state.is_over and made < max_actions:
        seat = state.to_move
        if seat is None:
            state.apply(NextRound())
            continue
        action = bots[seat].choose(state.view(seat))
        state.apply(action, seat)
        made += 1
    return made


def unhurried(level: str, seed: int) -> SolverBot:
    """A bot whose lookahead is never cut short by the machine's load: the tests of one decision
    ask what the level chooses, not what it manages in 0.2 s on a busy machine."""
    bot = make_bot(level, seed)
    assert isinstance(bot, SolverBot)
    bot.budget = bot.ceiling = 5.0
    return bot


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_bots_never_make_an_illegal_move_under_random_rules(chunk: int) -> None:
    rng = random.Random(900 + chunk)
    for game in range(GAMES_PER_CHUNK):
        rules = random_rules(rng)
        players = rng.choice((2, 2, 2, 3, 4))
        # The hard player in one game out of four (it thinks longest).
        pool = ["random", "easy", "medium"] + (["hard"] if game % 4 == 0 else [])
        levels = [rng.choice(pool) for _ in range(players)]
        if game % 4 == 0:
            levels[rng.randrange(players)] = "hard"
        state = State(rules, players, rng.getrandbits(32))
        # A shorter budget than in play: the same code runs, its lookahead cut sooner.
        play_game(state, levels, seed=game, budget=0.05)


def test_every_level_plays_whole_games_of_the_standard_rules() -> None:
    for level in SOLVER_LEVELS:
        state = State(Rules(), 2, seed=11)
        play_game(state, [level, "random"], seed=3)
        assert state.is_over


@pytest.mark.parametrize("level", SOLVER_LEVELS)
def test_a_decision_out_of_time_falls_back_to_a_legal_move(level: str) -> None:
    """With a ceiling of zero every search stops at once: the bot still moves legally (the
    stock, the picked card used, the highest dead card) and the round still ends."""
    for seed in range(3):
        rules = Rules(rounds=1, discard_pickup=("must_use", "free")[seed % 2])
        state = State(rules, 2, seed=seed)
        bots = [make_bot(level, seed), make_bot("random", seed)]
        bots[0].ceiling = 0.0  # type: ignore[attr-defined]
        made = 0
        while not state.is_over and made < 3000:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            action = bots[seat].choose(view)
            if seat == 0 and isinstance(action, Play):
                # Searches are cut short: the only play left is the one that uses a card
                # taken from the discard pile (it must be used).
                assert rules.discard_pickup == "must_use" and view.picked in action.cards()
            state.apply(action, seat)
            made += 1
        assert state.is_over


@pytest.mark.parametrize("level", SOLVER_LEVELS)
def test_out_of_time_after_taking_the_discard_the_card_is_still_used(level: str) -> None:
    rules = Rules(deal_style="upcard")
    hand = "J♣ Q♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ 2♠ 2♥ 2♦ 8♣"
    state = State.from_deal([hand, OTHER], rules=rules, dealer=1, discard_pile=parse_cards("K♣"))
    state.apply(Draw("discard"), 0)
    bot = make_bot(level, 1)
    bot.ceiling = 0.0  # type: ignore[attr-defined]
    play = bot.choose(state.view(0))
    assert isinstance(play, Play) and Card.parse("K♣") in play.cards()
    state.apply(play, 0)


def test_make_bot_knows_every_level_and_refuses_others() -> None:
    assert set(SOLVER_LEVELS) <= set(LEVELS)
    for level in LEVELS:
        assert make_bot(level, 1).level == level
    with pytest.raises(IllegalAction) as err:
        make_bot("grandmaster", 1)
    assert err.value.code == "bad_level"


# --- the bots see only their view ------------------------------------------------------------


def _reachable(root: object) -> Iterator[object]:
    seen = {id(root)}
    stack = [root]
    while stack:
        item = stack.pop()
        yield item
        for ref in gc.get_referents(item):
            if id(ref) not in seen and not isinstance(ref, type):
                seen.add(id(ref))
                stack.append(ref)


def test_a_view_holds_no_way_back_to_the_state() -> None:
    state = State(Rules(), 3, seed=5)
    view = state.view(state.to_move)
    assert not any(isinstance(obj, State) for obj in _reachable(view))
    hidden = [c for seat, hand in enumerate(state.hands) if seat != view.seat for c in hand]
    hidden += state.stock
    visible = set(view.hand) | set(view.discard_pile)
    assert visible.isdisjoint(hidden)


def _twin_deals(seed: int) -> tuple[State, State]:
    """Two games that look the same to seat 0 but hide different cards elsewhere."""
    rng = random.Random(seed)
    pack = romme_pack()
    rng.shuffle(pack)
    mine, pile, one, another = pack[:14], pack[14:17], pack[17:30], pack[30:43]
    rules = Rules.preset("computer")
    a = State.from_deal([mine, one], rules=rules, dealer=1, discard_pile=pile)
    b = State.from_deal([mine, another], rules=rules, dealer=1, discard_pile=pile)
    return a, b


@pytest.mark.parametrize("level", SOLVER_LEVELS)
def test_bots_decide_from_the_view_alone(level: str) -> None:
    """The same view (hidden cards different) gives the same decision, turn after turn; and a
    view rebuilt from its JSON gives the same decision as the original."""
    for seed in range(4):
        a, b = _twin_deals(seed)
        bot_a, bot_b, bot_c = (make_bot(level, seed) for _ in range(3))
        for bot in (bot_a, bot_b, bot_c):
            # No time cut, neither the budget nor the hard ceiling (0.8 s, which a loaded
            # machine reached once, and the bot played its plain move): same work each time.
            bot.budget = 60.0  # type: ignore[attr-defined]
            bot.ceiling = 60.0  # type: ignore[attr-defined]
        for _ in range(3):
            if a.to_move != 0:
                break
            view_a, view_b = a.view(0), b.view(0)
            assert view_a.to_json() == view_b.to_json()
            action = bot_a.choose(view_a)
            assert bot_b.choose(view_b) == action
            assert bot_c.choose(View.from_json(view_a.to_json())) == action
            a.apply(action, 0)
            b.apply(action, 0)
            if isinstance(action, Discard):
                break


# --- what each level does ------------------------------------------------------------------


def _state(hand: str, other: str, *, rules: Rules, pile: str = "", stock: str = "") -> State:
    return State.from_deal(
        [hand, other],
        rules=rules,
        dealer=1,
        discard_pile=parse_cards(pile),
        stock=parse_cards(stock),
    )


OTHER = "2♣ 3♦ 5♥ 6♠ 8♦ 9♣ J♥ Q♠ K♦ 4♠ 7♣ 10♥ A♦"


def test_easy_opens_at_once_and_discards_its_highest_dead_card() -> None:
    hand = "J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 5♦ 2♠ K♥ 7♣#1 3♥ 8♠ Q♦"
    state = _state(hand, OTHER, rules=Rules())
    bot = unhurried("easy", 1)
    play = bot.choose(state.view(0))
    assert isinstance(play, Play) and len(play.melds) == 2
    state.apply(play, 0)
    discard = bot.choose(state.view(0))
    # 4♦ 5♦ and Q♦ K♥… are near something; K♥ and Q♦ are the highest cards without one.
    assert isinstance(discard, Discard)
    assert discard.card in parse_cards("K♥ Q♦")


@pytest.mark.parametrize("level", SOLVER_LEVELS)
def test_every_level_goes_out_when_it_can(level: str) -> None:
    hand = "J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ 2♠ 2♥ 2♦ 8♣"
    state = _state(hand, OTHER, rules=Rules())
    bot = unhurried(level, 1)
    play = bot.choose(state.view(0))
    assert isinstance(play, Play)
    state.apply(play, 0)
    assert len(state.hands[0]) == 1
    state.apply(bot.choose(state.view(0)), 0)
    assert state.phase in ("round_over", "game_over")
    assert state.round_scores[0][0] == 0


def test_easy_takes_a_discard_that_opens() -> None:
    rules = Rules(deal_style="upcard")
    hand = "J♣ Q♣ 9♥ 9♦ 9♠ 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥"
    state = State.from_deal([hand, OTHER], rules=rules, dealer=1, discard_pile=parse_cards("K♣"))
    bot = unhurried("easy", 1)
    assert bot.choose(state.view(0)) == Draw("discard")
    state.apply(Draw("discard"), 0)
    play = bot.choose(state.view(0))
    assert isinstance(play, Play) and Card.parse("K♣") in play.cards()


HOLDERS = ("medium", "hard")
CAN_OPEN = "J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥"


@pytest.mark.parametrize("level", HOLDERS)
def test_medium_and_hard_hold_an_opening_back_while_no_opponent_is_close(level: str) -> None:
    """Melds on the table are places for the opponents to lay off: held back, they are not."""
    state = _state(CAN_OPEN, OTHER, rules=Rules())
    action = unhurried(level, 1).choose(state.view(0))
    assert isinstance(action, Discard)
    assert action.card not in parse_cards("J♣ Q♣ K♣ 9♥ 9♦ 9♠")


@pytest.mark.parametrize("level", HOLDERS)
def test_medium_and_hard_leave_a_discard_that_would_only_open(level: str) -> None:
    rules = Rules(deal_style="upcard")
    hand = "J♣ Q♣ 9♥ 9♦ 9♠ 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥"
    state = State.from_deal([hand, OTHER], rules=rules, dealer=1, discard_pile=parse_cards("K♣"))
    assert unhurried(level, 1).choose(state.view(0)) == Draw("stock")


@pytest.mark.parametrize("level", SOLVER_LEVELS)
def test_every_level_takes_a_discard_that_goes_out(level: str) -> None:
    rules = Rules(deal_style="upcard")
    hand = "J♣ Q♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ 2♠ 2♥ 2♦ 8♣"
    state = State.from_deal([hand, OTHER], rules=rules, dealer=1, discard_pile=parse_cards("K♣"))
    bot = unhurried(level, 1)
    assert bot.choose(state.view(0)) == Draw("discard")
    state.apply(Draw("discard"), 0)
    state.apply(bot.choose(state.view(0)), 0)
    assert state.hands[0] == parse_cards("8♣")


@pytest.mark.parametrize(("level", "cards_left"), [("medium", 3), ("hard", 1)])
def test_medium_and_hard_open_once_an_opened_opponent_is_close_to_going_out(
    level: str, cards_left: int
) -> None:
    """Then the penalty of a full hand outweighs what holding back gains."""
    spare = ["4♠", "7♣", "10♥", "A♦", "8♦"]
    close = " ".join(spare[:cards_left])
    table = [(1, "2♣ 3♣ 4♣"), (1, "5♥ 5♦ 5♠")]
    state = State.from_deal(
        [CAN_OPEN, close], rules=Rules(), dealer=1, table=table, opened=[False, True]
    )
    play = unhurried(level, 1).choose(state.view(0))
    assert isinstance(play, Play) and play.melds
    # One card more in the opponent's hand, and the opening is held back again.
    further = " ".join(spare[: cards_left + 1])
    state = State.from_deal(
        [CAN_OPEN, further], rules=Rules(), dealer=1, table=table, opened=[False, True]
    )
    assert isinstance(unhurried(level, 1).choose(state.view(0)), Discard)


# --- what a computer player remembers ----------------------------------------------------


def test_a_card_taken_discarded_and_taken_again_counts_once_as_held() -> None:
    """After a reshuffle a card an opponent discarded can reach it again through the discard
    pile; the memory holds it once, and forgets it while it is out of that hand."""
    from dataclasses import replace

    from rummykit.romme.strategy import knowledge, opponent_hands

    state = _state(CAN_OPEN, OTHER, rules=Rules())
    view = state.view(0)
    card = Card.parse("8♥")
    deal = [e for e in view.log if e.get("code") == "deal"]
    taken = {"code": "draw", "seat": 1, "source": "discard", "card": card.id}
    dropped = {"code": "discard", "seat": 1, "card": card.id}
    assert knowledge(replace(view, log=(*deal, taken, dropped))).known[1] == []
    view = replace(view, log=(*deal, taken, dropped, taken))
    know = knowledge(view)
    assert know.known[1] == [card]
    for hand in opponent_hands(view, know, 1, 20, random.Random(1)):
        assert len(set(hand)) == len(hand) and card in hand


def test_the_solver_refuses_a_card_listed_twice() -> None:
    from rummykit.romme.solver import can_use_card

    eight = Card.parse("8♥")
    hand = [eight, eight, *parse_cards("8♠ 8♦ 9♣")]
    with pytest.raises(IllegalAction) as err:
        can_use_card(hand, Card.parse("8♣"), [], Rules(), opened=True)
    assert err.value.code == "duplicate_card"


def test_hard_does_not_feed_an_opponent_the_card_that_lets_them_go_out() -> None:
    """Seat 1 (opened, three cards) took 7♥ and 8♥ from the discard pile and still holds them:
    a 9♥ lets it lay the run and go out. ``medium`` looks only at its own cards and throws the
    9♥ either way; ``hard`` throws it too while it does not know of the pickups, and keeps it
    once it remembers them."""
    from dataclasses import replace

    hand = "J♣ J♦ 9♥ 2♠ 3♦ 6♣ 7♣ Q♠ Q♦ 5♦ 5♠ A♦ A♣ 8♠"
    state = State.from_deal(
        [hand, "7♥ 8♥ 2♥"],
        rules=Rules(discard_pickup="free"),
        dealer=1,
        table=[(1, "4♣ 4♦ 4♥")],
        opened=[False, True],
    )
    unaware = state.view(0)
    taken = [
        {"code": "draw", "seat": 1, "source": "discard", "card": Card.parse(c).id}
        for c in ("7♥", "8♥")
    ]
    aware = replace(unaware, log=(*unaware.log, *taken))
    nine = Discard(Card.parse("9♥"))

    def bot(level: str) -> SolverBot:
        return unhurried(level, 1)

    assert bot("medium").choose(unaware) == nine
    assert bot("medium").choose(aware) == nine
    assert bot("hard").choose(unaware) == nine
    choice = bot("hard").choose(aware)
    assert isinstance(choice, Discard) and choice != nine
