"""Whole games between computer players, and what each seat did.

>>> result = simulate(["random", "random"], games=1, seed=3, rules=Rules(rounds=1))
>>> result["games"], result["rounds"], [s["bot"] for s in result["seats"]]
(1, 1, ['random', 'random'])
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rummykit import arena
from rummykit.core import JSON, IllegalAction
from rummykit.romme import GAME
from rummykit.romme.game import State
from rummykit.romme.rules import Rules

MAX_ACTIONS_PER_ROUND = 3000
"""A round still running after this many actions is abandoned. With reshuffles a round can
last for ever: players with one card each and no meld to add it to can only draw and
discard (the rules do not end such a round)."""


def play_game(
    rules: Rules, levels: Sequence[str], seed: int, max_actions: int = MAX_ACTIONS_PER_ROUND
) -> State:
    """One whole game, seat ``i`` played by a bot of level ``levels[i]``, dealt from ``seed``.
    Every action is checked by the engine; between rounds the next round is dealt. The game
    is left unfinished (``is_over`` false) when a round lasts more than ``max_actions``."""
    bot_seeds = [seed * 31 + seat for seat in range(len(levels))]
    played = arena.play_game(
        GAME, rules, levels, seed, bot_seeds=bot_seeds, max_decisions_per_round=max_actions
    )
    return played.state


def simulate(
    levels: Sequence[str], games: int = 1, seed: int = 1, rules: Rules | None = None
) -> dict[str, JSON]:
    """Play ``games`` whole games (seeds drawn from ``seed``) and report per seat: penalty
    points, points per round, rounds won (went out), Hand-Rommé, games won (a shared victory
    counts for each winner) and games lost over a point limit. Games with a round that never
    ended (see `MAX_ACTIONS_PER_ROUND`) are counted apart and left out of the figures."""
    rules = rules or Rules()
    rules.check_players(len(levels))
    if games < 1:
        raise IllegalAction("bad_games", games=games)
    seeds = random.Random(seed)
    n = len(levels)
    points, rounds_won, hand_rommes, games_won, games_lost = (
        [0] * n,
        [0] * n,
        [0] * n,
        [0] * n,
        [0] * n,
    )
    rounds = actions = abandoned = 0
    start = time.perf_counter()
    for _ in range(games):
        state = play_game(rules, levels, seeds.getrandbits(32))
        if not state.is_over:
            abandoned += 1
            continue
        rounds += state.round
        actions += len(state.actions)
        for seat in range(n):
            points[seat] += state.scores[seat]
        for event in state.log:
            if event["code"] == "round_end" and event["winner"] is not None:
                rounds_won[event["winner"]] += 1
                hand_rommes[event["winner"]] += bool(event["hand_romme"])
        for seat in state.winners:
            games_won[seat] += 1
        for seat in state.losers:
            games_lost[seat] += 1
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "abandoned": abandoned,
        "rounds": rounds,
        "actions": actions,
        "seed": seed,
        "rules": rules.to_json(),
        "seconds": round(elapsed, 3),
        "seats": [
            {
                "seat": seat,
                "bot": levels[seat],
                "points": points[seat],
                "points_per_round": round(points[seat] / max(rounds, 1), 2),
                "rounds_won": rounds_won[seat],
                "hand_romme": hand_rommes[seat],
                "games_won": games_won[seat],
                "games_lost": games_lost[seat],
            }
            for seat in range(n)
        ],
    }
