"""Games between computer players, for the command line and for measuring bots.

>>> result = simulate(["random", "random"], rounds=1, games=2, seed=5)
>>> [seat["bot"] for seat in result["seats"]], result["rounds_played"]
(['random', 'random'], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummykit import arena
from rummykit.core import JSON, IllegalAction
from rummykit.tiles import GAME
from rummykit.tiles.bots import BOTS
from rummykit.tiles.game import State
from rummykit.tiles.rules import Rules


def play_game(rules: Rules, bots: Sequence[str], seed: int, bot_seed: int) -> arena.Played[State]:
    """One whole game with ``bots[seat]`` at each seat: the final state and each seat's
    thinking."""
    bot_seeds = [bot_seed * 31 + seat for seat in range(len(bots))]
    return arena.play_game(GAME, rules, bots, seed, bot_seeds=bot_seeds)


def simulate(
    bots: Sequence[str],
    *,
    rounds: int = 1,
    games: int = 1,
    seed: int = 0,
    rules: Rules | None = None,
) -> dict[str, JSON]:
    """Play ``games`` games of ``rounds`` rounds between ``bots`` (one per seat, 2 to 4).

    Game ``g`` is shuffled from ``seed + g``. For each seat the result gives the bot, its total
    score over all games, its mean score per round, the games it won (a shared victory counts
    for each winner) and the rounds it won by emptying its rack; the scores follow the rules'
    scoring (``leaflet``: lower is better; ``classic``: higher is better).
    """
    arena.check_match(bots, BOTS, games=games)
    if not 2 <= len(bots) <= 4:
        raise IllegalAction("bad_players", players=len(bots), expected="2..4")
    rules = replace(rules or Rules(), rounds=rounds)
    n = len(bots)
    totals = [0] * n
    wins = [0] * n
    out = [0] * n
    blocked = actions = rounds_played = 0
    for g in range(games):
        state = play_game(rules, bots, seed + g, seed + g).state
        actions += len(state.actions)
        for seat in state.winners:
            wins[seat] += 1
        for seat in range(n):
            totals[seat] += state.scores[seat]
        for event in state.log:
            if event["code"] == "round_end":
                rounds_played += 1
                if event["winner"] is None:
                    blocked += 1
                else:
                    out[event["winner"]] += 1
    return {
        "game": "tiles",
        "players": n,
        "bots": list(bots),
        "rules": rules.to_json(),
        "seed": seed,
        "games": games,
        "rounds_played": rounds_played,
        "rounds_blocked": blocked,
        "actions": actions,
        "seats": [
            {
                "seat": seat,
                "bot": bots[seat],
                "total": totals[seat],
                "mean_per_round": round(totals[seat] / rounds_played, 3),
                "games_won": wins[seat],
                "rounds_won": out[seat],
            }
            for seat in range(n)
        ],
    }
