"""Seeded Rommé games between computer players, every action and its thinking time recorded.

Run it on two versions of the code (``PYTHONPATH`` pointing at each one's ``src``) over the
same seeds, then ``compare`` the two records: a change meant to make the computers faster
without changing any decision must give the same actions, game after game.

    python bench/romme-decisions/record.py play --levels easy,easy,easy --games 200 --out new.json
    python bench/romme-decisions/record.py compare old.json new.json

``play`` prints the decisions' CPU time per level (``time.process_time``, so other work on the
machine counts less than in wall time). The medium and hard levels think to a wall-clock
budget: a decision that ran long enough to be cut short may differ between two runs of the
same code. ``--unlimited`` lifts the budget (every decision then does its whole work and
depends on nothing but the view); otherwise ``compare`` compares each game up to its first
decision that either record marks as possibly cut (wall time past 30% of the budget, where
the first cut is) and says how many decisions it left out.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import random
import statistics
import sys
import time
from typing import Any

from rummykit.romme.actions import Action, Discard, Draw, NextRound
from rummykit.romme.bot_levels import SolverBot
from rummykit.romme.bots import make_solver_bot
from rummykit.romme.game import State
from rummykit.romme.rules import Rules, card_value, random_rules
from rummykit.romme.view import View

CUT_SHARE = 0.3
"""A decision of ``medium`` or ``hard`` that took longer than this share of its budget may
have been cut short (`MediumBot.closest_to_going_out` is the first to stop)."""


class Player:
    """The person of ``rummykit bench web``: draws from the stock, discards its highest card."""

    def choose(self, view: View) -> Action:
        if view.phase == "draw":
            return Draw("stock")
        cards = [c for c in view.hand if c != view.picked]
        return Discard(max(cards, key=lambda c: (card_value(c, view.rules), c.id)))


def play(args: argparse.Namespace) -> dict[str, Any]:
    levels = args.levels.split(",")
    rng = random.Random(args.seed)
    games = []
    view_cpu = 0.0
    views = 0
    for number in range(args.games):
        if args.rules == "random":
            rules = random_rules(rng)
        else:
            rules = Rules.preset(args.rules).replace(rounds=args.rounds)
        seed = rng.getrandbits(32)
        state = State(rules, len(levels), seed)
        bots: list[SolverBot | Player] = []
        for seat, level in enumerate(levels):
            if level == "player":
                bots.append(Player())
                continue
            bot = make_solver_bot(level, seed * 31 + seat, args.budget)
            if args.unlimited:
                bot.budget = bot.ceiling = 1e9
            bots.append(bot)
        actions: list[list[Any]] = []
        while not state.is_over and len(actions) < args.max_actions:
            seat = state.to_move
            if seat is None:
                state.apply(NextRound())
                continue
            c0 = time.process_time()
            view = state.view(seat)
            c1, w1 = time.process_time(), time.perf_counter()
            action = bots[seat].choose(view)
            c2, w2 = time.process_time(), time.perf_counter()
            view_cpu += c1 - c0
            views += 1
            actions.append([seat, action.to_json(), round(c2 - c1, 6), round(w2 - w1, 6)])
            state.apply(action, seat)
        games.append({"game": number, "seed": seed, "rules": rules.to_json(), "actions": actions})
    return {
        "levels": levels,
        "budget": None if args.unlimited else args.budget,
        "games": games,
        "view_cpu": view_cpu,
        "views": views,
    }


def summary(record: dict[str, Any]) -> str:
    levels = record["levels"]
    per: dict[str, list[float]] = {}
    for game in record["games"]:
        for seat, _action, cpu, _wall in game["actions"]:
            per.setdefault(levels[seat], []).append(cpu)
    lines = []
    for level, cpus in sorted(per.items()):
        cpus.sort()
        lines.append(
            f"{level}: {len(cpus)} decisions, CPU mean {1000 * statistics.fmean(cpus):.2f} ms, "
            f"p50 {1000 * cpus[len(cpus) // 2]:.2f} ms, "
            f"p99 {1000 * cpus[int(len(cpus) * 0.99)]:.2f} ms, total {sum(cpus):.2f} s"
        )
    views = max(record["views"], 1)
    lines.append(
        f"views: {record['views']}, CPU mean {1000 * record['view_cpu'] / views:.3f} ms "
        "(the seat on move's view, discard-pickup check included)"
    )
    return "\n".join(lines)


def compare(old: dict[str, Any], new: dict[str, Any]) -> int:
    """Compare two records action by action; 0 when every compared action is the same."""
    if old["levels"] != new["levels"] or len(old["games"]) != len(new["games"]):
        print("the records are not of the same games")
        return 2
    levels = old["levels"]
    budget = old["budget"]
    compared = left_out = differing = 0
    for a, b in zip(old["games"], new["games"], strict=True):
        if a["seed"] != b["seed"] or a["rules"] != b["rules"]:
            print(f"game {a['game']}: not the same deal")
            return 2
        for i, (x, y) in enumerate(zip(a["actions"], b["actions"], strict=False)):
            level = levels[x[0]]
            timed = budget is not None and level not in ("easy", "player")
            cut = timed and max(x[3], y[3]) > CUT_SHARE * budget
            if cut:
                left_out += len(a["actions"]) - i
                break
            compared += 1
            if x[:2] != y[:2]:
                differing += 1
                print(f"game {a['game']} action {i}: {x[:2]} != {y[:2]}")
                break
        else:
            if len(a["actions"]) != len(b["actions"]):
                differing += 1
                print(f"game {a['game']}: {len(a['actions'])} != {len(b['actions'])} actions")
    print(
        f"{len(old['games'])} games, {compared} actions compared, {differing} games differing, "
        f"{left_out} actions left out after a decision possibly cut by the budget"
    )
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument(
        "--levels",
        default="easy,easy,easy",
        help="one level a seat; 'player' plays like the person of 'rummykit bench web'",
    )
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="standard", help="a preset, or 'random' (one round)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--budget", type=float, default=0.2)
    p.add_argument("--unlimited", action="store_true", help="no time budget at all")
    p.add_argument("--max-actions", type=int, default=3000)
    p.add_argument("--out")
    p.add_argument("--profile", help="write cProfile statistics to this file")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    args = parser.parse_args()
    if args.command == "compare":
        with open(args.old) as f_old, open(args.new) as f_new:
            return compare(json.load(f_old), json.load(f_new))
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    record = play(args)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    print(summary(record))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(record, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
