"""Rummoli speed: whole hands per second between random players, poker evaluations per second.

Figures are measured on the machine that runs them and printed as JSON by
``rummykit bench rummoli --json``; nothing here asserts a speed.
"""

from __future__ import annotations

import os
import platform
import random
import time

from rummykit import arena
from rummykit.core import JSON
from rummykit.rummoli import GAME
from rummykit.rummoli.poker import evaluate, index_card, key_of_indices
from rummykit.rummoli.rules import Rules


def hands_per_second(hands: int = 2000, players: int = 4, seed: int = 1) -> dict[str, JSON]:
    """Play at least ``hands`` whole hands (ante to end of sequence) with random bots."""
    rng = random.Random(seed)
    played = 0
    decisions = 0
    start = time.perf_counter()
    while played < hands:
        game_seed = rng.getrandbits(32)
        game = arena.play_game(
            GAME,
            Rules(hands=50),
            ["random"] * players,
            game_seed,
            bot_seeds=[game_seed + s for s in range(players)],
            view=lambda state, seat: state.view(seat, since=len(state.events)),
        )
        decisions += sum(game.decisions)
        played += game.state.hand_number
    elapsed = time.perf_counter() - start
    return {
        "hands": played,
        "players": players,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "hands_per_second": round(played / elapsed, 1),
    }


def evaluations_per_second(cards: int, count: int = 50_000, seed: int = 1) -> dict[str, JSON]:
    """Evaluate ``count`` random hands of ``cards`` cards (deals drawn before the clock starts):
    the key alone from card indices (what the engine and the bots use), and the full
    `evaluate` of `Card` objects (the key and the best five cards)."""
    rng = random.Random(seed)
    deck = list(range(52))
    hands = [rng.sample(deck, cards) for _ in range(count)]
    start = time.perf_counter()
    for hand in hands:
        key_of_indices(hand)
    keys = time.perf_counter() - start
    card_hands = [[index_card(i) for i in hand] for hand in hands]
    start = time.perf_counter()
    for card_hand in card_hands:
        evaluate(card_hand)
    full = time.perf_counter() - start
    return {
        "cards": cards,
        "evaluations": count,
        "key_of_indices_per_second": round(count / keys),
        "evaluate_per_second": round(count / full),
    }


def run(hands: int = 2000, evaluations: int = 50_000, seed: int = 1) -> dict[str, JSON]:
    """Every Rummoli benchmark, with the Python version that ran it and the machine's load
    average when it started (figures taken on a busy machine are lower)."""
    return {
        "benchmark": "rummoli",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_average_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "whole_hands_random_bots": hands_per_second(hands, seed=seed),
        "poker_7_cards": evaluations_per_second(7, evaluations, seed),
        "poker_17_cards": evaluations_per_second(17, evaluations, seed),
    }
