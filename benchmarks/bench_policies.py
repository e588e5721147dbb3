"""Players' decisions: what a decision of the greedy and of the search player costs, above
all at a pending choice, against a floor measured in the same run.

    python benchmarks/bench_policies.py [--battles 6] [--repeats 3] [--seed 0]

The battles are the starting deck plus the bundled pages that ask the player to choose
(CHOOSING: 移動・複製・生成 with 選択) against three stages, so that choices come up,
early and late in a run. Each
repeat plays the same seeds with every player in turn (round-robin, the order rotated
each repeat): the random player (the floor: the rules' own cost of the same number of
actions, no look-ahead), the greedy player and the search player (sim/policies.py). For
each player the min and median over the repeats of µs per decision are printed — every
decision, and the decisions made at a pending choice alone — next to the floor's µs per
action, with the ratio — and battles per second (whole battles: the decisions and the
rules' own work), the random player's being the floor.

A search decision tries each candidate on copies of the battle (``Battle.copy``). While
a choice is pending the battle waits inside a resolution: that resolution is data (the
battle's stack of steps) and is copied with the state, so a decision at a choice costs
about what any other decision costs — where a resolution held in a generator could only
be copied by replaying the run. No timing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import twins_line  # noqa: E402
from runtime.battle import Battle  # noqa: E402
from runtime.tables import load  # noqa: E402
from sim.policies import POLICIES  # noqa: E402

#: Three stages, so that choices come up late in a run too.
ENEMIES = ["kodoku", "wasure", "haguruma"]
#: The bundled pages whose faces ask the player to choose.
CHOOSING = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari")
TURN_CAP = 30
PLAYERS = ("random", "greedy", "search")


def play(tables, deck: list[str], player: str, seed: int
         ) -> tuple[list[float], list[float], float]:
    """One battle to its end or the turn cap: the seconds of each decision, of each
    decision made at a pending choice, and of the whole battle."""
    policy = POLICIES[player]
    battle = Battle.new(tables, seed=seed, enemies=ENEMIES, deck=deck, record=False)
    rng = random.Random(seed)
    every, at_choice = [], []
    clock = time.perf_counter
    began = clock()
    while not battle.over and battle.state.turns_run <= TURN_CAP:
        choosing = battle.pending is not None
        start = clock()
        action = policy(battle, rng)
        spent = clock() - start
        every.append(spent)
        if choosing:
            at_choice.append(spent)
        battle.apply(action)
    return every, at_choice, clock() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    tables = load()
    deck = tables.starter() + list(CHOOSING)
    seeds = range(args.seed, args.seed + args.battles)
    per_decision = {p: [] for p in PLAYERS}
    per_choice = {p: [] for p in PLAYERS}
    rates = {p: [] for p in PLAYERS}  # battles per second, one per repeat
    counts = {}
    for repeat in range(args.repeats):
        order = PLAYERS[repeat % len(PLAYERS):] + PLAYERS[:repeat % len(PLAYERS)]
        for player in order:
            every, at_choice, whole = [], [], 0.0
            for seed in seeds:
                e, c, w = play(tables, deck, player, seed)
                every += e
                at_choice += c
                whole += w
            rates[player].append(args.battles / whole)
            per_decision[player].append(1e6 * sum(every) / max(1, len(every)))
            per_choice[player].append(1e6 * sum(at_choice) / max(1, len(at_choice)))
            counts[player] = (len(every), len(at_choice))
    floor = per_decision["random"]
    print(f"bench_policies — {twins_line()}")
    print(f"{args.battles} battles × {args.repeats} repeats, {'・'.join(ENEMIES)}, deck + {len(CHOOSING)} "
          f"choosing pages; µs per decision (min / median), floor: the random player")
    print(f"{'player':<8} {'decisions':>9} {'at choice':>9}   {'every decision':>22}   "
          f"{'at a choice':>22}   {'× floor (median)':>16}   {'battles/s (max / median)':>24}")
    for player in PLAYERS:
        d, c = per_decision[player], per_choice[player]
        n, k = counts[player]
        ratio = statistics.median(d) / statistics.median(floor)
        r = rates[player]
        print(f"{player:<8} {n:>9} {k:>9}   {min(d):>10.1f} / {statistics.median(d):>9.1f}   "
              f"{min(c):>10.1f} / {statistics.median(c):>9.1f}   ×{ratio:>15.1f}   "
              f"{max(r):>12.1f} / {statistics.median(r):>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
