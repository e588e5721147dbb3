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

Then the solver (journey/solve.py through journey/search.py) on ``--solve`` deals of each
set-up of ``--solve-setups`` at ``--nodes`` positions (journey/lab/measure.py
``DEFAULT_NODES`` unless given), and while no win is found at ``--find-nodes`` (the
report's: ``FIND_FACTOR`` × nodes unless given; 0: none, the budget alone, as before
2026-12-03): positions expanded per CPU second beside the floor's
copy+key per second, CPU per deal, the answers (decided = won or proven lost; proven =
the best score proven), the transposition table's largest size in entries and its
bound (solve.MEMO_CAP), and the process's peak memory. Beside each set-up, the same deals
solved as the report solves them, with ``--polish-nodes`` more to raise a first win's
score (the report's ``POLISH_FACTOR`` × nodes unless given): the mean and median best
score without and with them, and the CPU per deal with them. Measured on this 2-core machine
(2026-12-02, seeds 0–9 of 草案, 3000 positions, CPU time): before issue 30 the search
expanded 5,700 positions/s; ``--solve-before N`` prints that figure beside today's.

That figure is another day's machine: ``--before REV`` (default 887f17f, the tree when
issue 30 was filed — "8–14 k positions per second" — whose solver has the same
``solve(rules, state, budget)``) times the two solvers in the same run instead. Each
repeat solves the first ``--solve`` deals of 草案 at the budget alone (no ``find``: the
older solver has none) in a child process per tree, interleaved (A B A B …), the
revision checked out in a temporary git worktree and run as Python from its own sources:
positions per CPU second of each, min and median, and their ratio (issue 30's target ×5).
``--before ''`` skips it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus import figure_rows, interleaved, machine_line, revision_tree  # noqa: E402

#: The tree when issue 30 was filed (the commit before its first change to the solver).
BEFORE = "887f17f"
#: A child's solve of the first N deals of 草案 at a budget: "positions CPU-seconds".
_SOLVE_CHILD = """
import sys, time
from journey import load_rules, new_game
from journey.solve import solve
from journey.search import JOURNEY
deals, nodes = int(sys.argv[1]), int(sys.argv[2])
rules = load_rules("草案")
positions = cpu = 0.0
for seed in range(deals):
    state = new_game(rules, seed)
    start = time.process_time()
    positions += solve(JOURNEY, state, budget=nodes).nodes
    cpu += time.process_time() - start
print(positions, cpu)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--setup", default="草案")
    parser.add_argument("--solve", type=int, default=10, help="deals solved per set-up (0: none)")
    parser.add_argument("--solve-setups", default="草案,手札二枚,手札三枚,高難易度,問題点")
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--find-nodes", type=int, default=None,
                        help="positions a first win may be looked for with (0: the budget alone)")
    parser.add_argument("--polish-nodes", type=int, default=None,
                        help="positions a first win's score may be raised with (0: none)")
    parser.add_argument("--solve-before", type=float, default=5700.0,
                        help="positions/s of the solver before issue 30 (measured, see above)")
    parser.add_argument("--before", default=BEFORE,
                        help="a revision whose solver is timed beside this tree's ('': none)")
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
    if args.solve:
        floor_per_second = count / min(times["floor"])
        solve_figures(args, floor_per_second)
        if args.before:
            return against_revision(args)
    return 0


def solve_figures(args, floor_per_second: float) -> None:
    """The solver on the first ``args.solve`` seeds of each set-up: positions per CPU
    second, CPU per deal, the answers, the transposition table and peak memory."""
    import resource
    import statistics
    import time

    from journey import load_rules, new_game
    from journey.solve import MEMO_CAP, solve
    from journey.lab.measure import DEFAULT_NODES, FIND_FACTOR, POLISH_FACTOR
    from journey.search import JOURNEY

    nodes = args.nodes or DEFAULT_NODES
    find = FIND_FACTOR * nodes if args.find_nodes is None else args.find_nodes or None
    polish = POLISH_FACTOR * nodes if args.polish_nodes is None else args.polish_nodes
    largest = 0
    finding = f" ({find} while no win is found)" if find else ""
    print(f"solve: {args.solve} deals per set-up at {nodes} positions{finding}; the floor "
          f"copies+keys {floor_per_second:,.0f} states/s")
    all_nodes = all_cpu = 0.0
    for setup in args.solve_setups.split(","):
        rules = load_rules(setup)
        verdicts = {"won": 0, "lost": 0, "unknown": 0}
        proven = expanded = 0
        cpu = polished_cpu = 0.0
        scores: dict[str, list[int]] = {"without": [], "with": []}
        for seed in range(args.solve):
            state = new_game(rules, seed)
            start = time.process_time()
            answer = solve(JOURNEY, state, budget=nodes, find=find)
            cpu += time.process_time() - start
            expanded += answer.nodes
            largest = max(largest, answer.table)
            verdicts[answer.verdict] += 1
            proven += answer.exact
            if polish:
                start = time.process_time()
                polished = solve(JOURNEY, state, budget=nodes, find=find, polish=polish)
                polished_cpu += time.process_time() - start
                if answer.score is not None and polished.score is not None:
                    scores["without"].append(answer.score)
                    scores["with"].append(polished.score)
        decided = verdicts["won"] + verdicts["lost"]
        all_nodes += expanded
        all_cpu += cpu
        print(f"  {setup:<8} decided {decided}/{args.solve} (won {verdicts['won']}, lost "
              f"{verdicts['lost']}, unknown {verdicts['unknown']}), proven best/lost "
              f"{proven}/{args.solve}, {cpu / args.solve:.3f} s CPU/deal, "
              f"{expanded / cpu:,.0f} positions/s")
        if scores["with"]:
            print(f"  {'':<8} best score (deals won both ways: {len(scores['with'])}) mean "
                  f"{statistics.mean(scores['without']):.1f} → {statistics.mean(scores['with']):.1f}"
                  f" with {polish:,} positions of polish (median "
                  f"{statistics.median(scores['without']):g} → {statistics.median(scores['with']):g}),"
                  f" {polished_cpu / args.solve:.3f} s CPU/deal")
    rate = all_nodes / all_cpu
    print(f"  positions/s {rate:,.0f} (before issue 30: {args.solve_before:,.0f}, "
          f"×{rate / args.solve_before:.2f}); a position costs "
          f"×{floor_per_second / rate:.0f} a copy+key")
    print(f"  transposition table: at most {largest:,} entries (bound "
          f"{MEMO_CAP:,}); peak memory of the process "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


def against_revision(args) -> int:
    """This tree's solver and ``args.before``'s, interleaved in child processes on the same
    deals and budget: positions per CPU second of each. 1 when a child fails."""
    import os
    import statistics
    import subprocess
    import tempfile

    from journey.lab.measure import DEFAULT_NODES

    nodes = args.nodes or DEFAULT_NODES
    rates: dict[str, list[float]] = {"this tree": [], args.before: []}
    with tempfile.TemporaryDirectory() as folder, \
            revision_tree(args.before, Path(folder)) as before:
        trees = {"this tree": HERE.parent, args.before: before}
        for _ in range(args.repeats):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": str(tree)}
                done = subprocess.run(
                    [sys.executable, "-c", _SOLVE_CHILD, str(args.solve), str(nodes)],
                    cwd=tree, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"{name}: the solver failed (exit {done.returncode}): "
                          f"{done.stderr.strip()[-400:]}")
                    return 1
                positions, cpu = map(float, done.stdout.split())
                rates[name].append(positions / cpu)
    print(f"solver against {args.before} (the tree when issue 30 was filed), {args.solve} deals "
          f"of 草案 at {nodes} positions, budget alone, {args.repeats} interleaved repeats "
          f"(positions per CPU second; {args.before} runs as Python):")
    for name, got in rates.items():
        print(f"  {name:<12} fastest {max(got):>10,.0f}   median {statistics.median(got):>10,.0f}"
              f"   slowest {min(got):>10,.0f}")
    ours, theirs = rates["this tree"], rates[args.before]
    print(f"  this tree / {args.before}: ×{max(ours) / max(theirs):.2f} (fastest over fastest), "
          f"×{statistics.median(ours) / statistics.median(theirs):.2f} (median over median); "
          "issue 30's target ×5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
