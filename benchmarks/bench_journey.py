"""Draft 17's runtime (journey/): actions per second of seeded random games, against the
least a search pays per node — a copy of the state and its key.

    python benchmarks/bench_journey.py [--games 200] [--repeats 3] [--setup 草案]

The games are played once to fix their actions (a seeded random choice among the legal
ones); every repeat then times, interleaved, on those same actions:

* floor: ``State.copy()`` and ``State.key()`` once per action — what a memoised search
  cannot avoid;
* play: ``legal_actions`` then ``apply(check=False)`` per action — a search's step;
* play checked: ``apply`` with its legality check, as the terminal calls it;
* journey: ``Journey.actions()`` then ``Journey.apply(action)`` — the same step on action
  values through the game interface, as the terminal and the player now take it (what the
  solver's search would pay if it left the rules' tuples).

Printed: min and median of each, per action, and the ratio to the floor. No timing is
asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus import figure_rows, interleaved, machine_line  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--setup", default="草案")
    args = parser.parse_args(argv)

    from journey import Journey, apply, legal_actions, load_rules
    from journey.play import deal_game

    rules = load_rules(args.setup)
    games = []  # (first state, the index of each action chosen)
    for seed in range(args.games):
        state = start = deal_game(rules, seed)[0]
        rng, picks = random.Random(seed), []
        while not state.over:
            actions = legal_actions(state)
            picks.append(rng.randrange(len(actions)))
            state = apply(state, actions[picks[-1]], check=False)[0]
        games.append((start, picks))
    count = sum(len(picks) for _, picks in games)

    def floor():
        for start, picks in games:
            state = start
            for _ in picks:
                state = state.copy()
                state.key()

    def play(check: bool):
        for start, picks in games:
            state = start
            for pick in picks:
                state = apply(state, legal_actions(state)[pick], check=check)[0]

    def journey():
        for start, picks in games:
            game = Journey(start)
            for pick in picks:
                game.apply(game.actions()[pick])

    times = interleaved({"floor": floor, "play": lambda: play(False),
                         "play checked": lambda: play(True), "journey": journey}, args.repeats)
    print(machine_line(f"bench_journey: {args.games} random games of {args.setup}, {count} actions"))
    for line in figure_rows(times, "floor", count, unit="action"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
