"""The numbers of the rules pages come from the engines.

The Rommé page tells a first round turn by turn (Anna deals, Bruno begins, Clara follows:
openings of 30, 33 and 42, a 27 refused, and the count 0, 15 and 38); the engine plays the same
round here, move for move, from the same deal. The Rummoli page's table of cards per player
is the engine's own deal at 2 to 8 players, and follows the rule of the specification: the
first ``52 mod (n + 1)`` hands dealt get a card more.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from rummykit.cards import parse_cards
from rummykit.core import IllegalAction
from rummykit.romme import Rules, State, parse_action
from rummykit.romme.rules import hand_penalty
from rummykit.romme.solver.arrange import best_turn, going_out
from rummykit.web import create_app
from rummykit.web.rules import rummoli_deals

ANNA = "9♥ 9♦ 8♣ 7♣ 3♠ 2♠ 8♠ 9♥#1 5♦ 6♦ 4♣ A♣ Q♠"
BRUNO = "A♥ A♦ 10♣ 3♥ 4♥ 6♥ 7♥ 7♠ 6♣ 10♦ 5♠#1 K♣ K♦ J♦"
CLARA = "J♣ Q♣ 4♠ 5♠ 9♣ 2♥ 8♥ K♠ Q♦ 10♥ 8♦ K♥ J♥"
STOCK = "JK 6♠ 9♠ 5♥ 10♠ 7♦"


def act(game: State, text: str) -> None:
    game.apply(parse_action(text), seat=game.to_move)


def most_cards(game: State) -> int:
    """How many cards the seat on move could lay at most this turn (the solver's answer)."""
    seat = game.to_move
    assert seat is not None
    hand = game.hands[seat]
    found = best_turn(
        hand,
        game.rules,
        "cards",
        opened=game.opened[seat],
        table=list(game.table.values()),
        picked=game.picked,
    )
    return 0 if found is None else len(hand) - len(found.left)


def sensible(game: State, lays: int, out: bool = False) -> None:
    """The move the page tells lays as many cards as the hand allows, and goes out exactly when
    going out is possible: nobody in the story misses a better move of that kind."""
    seat = game.to_move
    assert seat is not None
    assert most_cards(game) == lays
    can_go_out = going_out(
        game.hands[seat],
        game.rules,
        opened=game.opened[seat],
        table=list(game.table.values()),
        picked=game.picked,
    )
    assert (can_go_out is not None) == out


def opening(game: State) -> int:
    value: int = game.log[-1]["opening_value"]
    return value


def test_the_first_round_told_on_the_romme_page() -> None:
    game = State.from_deal([ANNA, BRUNO, CLARA], rules=Rules(), dealer=0, stock=STOCK)
    assert [len(h) for h in game.hands] == [13, 14, 13] and game.to_move == 1

    # 1. Bruno has no meld at all; with fourteen cards he discards without drawing.
    sensible(game, 0)
    act(game, "discard K♣")
    # 2. Clara takes the K♣ for her J♣ Q♣: 30, she opens.
    act(game, "draw discard")
    sensible(game, 3)
    act(game, "play [J♣ Q♣ K♣]")
    assert opening(game) == 30
    act(game, "discard K♥")
    # 3. Anna draws a joker: 9♥ 9♦ and the joker are 27, refused.
    act(game, "draw stock")
    sensible(game, 0)
    with pytest.raises(IllegalAction) as refused:
        act(game, "play [9♥ 9♦ JK]")
    assert refused.value.code == "opening_below_minimum"
    assert refused.value.params == {"value": 27, "minimum": 30}
    act(game, "discard A♣")
    # 4. Bruno takes the A♣ for his A♥ A♦: 33; his 10♣ goes in front of Clara's run.
    act(game, "draw discard")
    sensible(game, 4)
    act(game, "play [A♣ A♥ A♦] +0<:10♣")
    assert opening(game) == 33
    act(game, "discard K♦")
    # 5. Clara draws the 6♠, lays 4♠ 5♠ 6♠ and puts her 9♣ in front of the clubs.
    act(game, "draw stock")
    sensible(game, 4)
    act(game, "play [4♠ 5♠ 6♠] +0<:9♣")
    act(game, "discard K♠")
    # 6. Anna draws the 9♠: three nines (27) and 5♦ 6♦ with the joker as the 4♦ (15) make
    # 42, she opens; four cards of hers go onto the table.
    act(game, "draw stock")
    sensible(game, 10)
    act(game, "play [9♥ 9♦ 9♠] [JK 5♦ 6♦] +0<:8♣ +0<:7♣ +2<:3♠ +2<:2♠")
    assert opening(game) == 42
    act(game, "discard Q♠")
    assert sorted(c.code for c in game.hands[0]) == sorted(["8♠", "9♥#1", "4♣"])
    # 7. Bruno draws the 5♥: a run of five hearts, and two cards added.
    act(game, "draw stock")
    sensible(game, 7)
    act(game, "play [3♥ 4♥ 5♥ 6♥ 7♥] +2>:7♠ +0<:6♣")
    act(game, "discard J♦")
    assert sorted(c.code for c in game.hands[1]) == sorted(["10♦", "5♠#1"])
    # 8. Clara draws the 10♠, adds 2♥ and 8♥ to the hearts, discards the 10♠; nothing else
    # she holds fits anywhere.
    act(game, "draw stock")
    sensible(game, 2)
    act(game, "play +5<:2♥ +5>:8♥")
    act(game, "discard 10♠")
    # 9. Anna draws the 7♦, adds it, the 8♠ and her second 9♥, discards the 4♣: out.
    act(game, "draw stock")
    sensible(game, 3, out=True)
    act(game, "play +4>:7♦ +2>:8♠ +5>:9♥#1")
    act(game, "discard 4♣")

    assert game.phase == "round_over"
    assert game.round_scores == [[0, 15, 38]]
    assert hand_penalty(parse_cards("10♦ 5♠")) == 15
    assert hand_penalty(parse_cards("J♥ Q♦ 10♥ 8♦")) == 38
    # The joker counts 20 in hand: 9♥ 9♦ and a joker would have cost 38 as well.
    assert hand_penalty(parse_cards("9♥ 9♦ JK")) == 38
    assert game.log[-1]["hand_romme"] is False


def test_the_rummoli_deal_table_is_the_engines_deal() -> None:
    deals = rummoli_deals()
    assert [d.players for d in deals] == list(range(2, 9))
    for deal in deals:
        hands = deal.players + 1
        extra = 52 % hands
        expected = [52 // hands + (1 if i < extra else 0) for i in range(hands)]
        assert [*deal.hands, deal.widow] == expected
        assert sum(deal.hands) + deal.widow == 52


@pytest.fixture
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("examples") / "rules.sqlite3"
    with TestClient(create_app(f"sqlite:///{database}", poll_seconds=0.2)) as test_client:
        yield test_client


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_pages_show_the_example_the_summary_and_the_deal_table(
    client: TestClient, lang: str
) -> None:
    romme = client.get(f"/{lang}/rules/romme").text
    for anchor in ("summary", "example", "history"):
        assert f'id="{anchor}"' in romme
    assert romme.count('class="rules-summary"') == 1
    assert romme.split('class="rules-summary"')[1].split("</ol>")[0].count("<li>") == 10
    example = romme.split('id="example"')[1].split("</section>")[0]
    for number in ("30", "33", "27", "42", "15", "38"):
        assert number in example, number
    rummoli = client.get(f"/{lang}/rules/rummoli").text
    assert 'id="history"' in rummoli and "1940" in rummoli and "Toronto" in rummoli
    table = rummoli.split('rules-deal"')[1].split("</table>")[0]
    for deal in rummoli_deals():
        row = f'<th scope="row">{deal.players}</th>'
        assert row in table
        cells = table.split(row)[1].split("</tr>")[0]
        assert ", ".join(str(n) for n in deal.hands) in cells
        assert f">{deal.widow}<" in cells
