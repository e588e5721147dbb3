"""Battle throughput: random legal play on the bundled content, seeded.

    python benchmarks/bench_battle.py [--battles 2000] [--seed 0] [--max-steps 200]

Each battle is a run against every enemy of generated/ in turn, with the starter deck,
driven by a random policy that picks uniformly among the legal actions (playable plays,
pens, tears, the end of the turn, the answer to a pending choice). Prints battles per
second, turns per second and 作用 applied per second. No timing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.battle import Battle  # noqa: E402
from runtime.tables import load  # noqa: E402

#: Events that stand for one 作用 applied: one-shots and continuing effects firing
#: ("sayou"), and the enemy's telegraphed seat movement, applied in the enemy phase.
SAYOU_EVENTS = ("sayou", "seat_moved")


def play_battle(tables, seed: int, max_steps: int) -> tuple[Battle, int]:
    policy = random.Random(seed * 7919 + 1)
    battle = Battle.new(tables, seed=seed, enemies=sorted(tables.enemies))
    steps = 0
    while not battle.over and steps < max_steps:
        action = policy.choice(battle.legal_actions())
        if action[0] == "choose":
            request = battle.choice
            battle.choose(policy.sample(list(request["candidates"]), request["count"]))
        else:
            getattr(battle, action[0])(*action[1:])
        steps += 1
    return battle, steps


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=200)
    args = parser.parse_args(argv)

    tables = load()
    totals, outcomes = Counter(), Counter()
    start = time.perf_counter()
    for i in range(args.battles):
        battle, steps = play_battle(tables, args.seed + i, args.max_steps)
        outcomes[battle.state.outcome or "unfinished"] += 1
        totals["actions"] += steps
        totals["turns"] += battle.state.turns_run
        totals["events"] += len(battle.log)
        totals["sayou"] += sum(1 for e in battle.log if e.kind in SAYOU_EVENTS)
    elapsed = time.perf_counter() - start

    print(f"content: {len(tables.pages)} pages, {len(tables.enemies)} enemies "
          f"(stages: {', '.join(sorted(tables.enemies))}); seeds {args.seed}.."
          f"{args.seed + args.battles - 1}")
    print(f"battles: {args.battles} in {elapsed:.2f} s  "
          f"({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))})")
    print(f"battles/s : {args.battles / elapsed:10.1f}")
    print(f"turns/s   : {totals['turns'] / elapsed:10.1f}   ({totals['turns']} turns)")
    print(f"actions/s : {totals['actions'] / elapsed:10.1f}   ({totals['actions']} actions)")
    print(f"作用/s    : {totals['sayou'] / elapsed:10.1f}   ({totals['sayou']} applied)")
    print(f"events/s  : {totals['events'] / elapsed:10.1f}   ({totals['events']} events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
