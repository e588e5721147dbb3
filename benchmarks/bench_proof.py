"""The solver's proof horizon: how far from a game's end its exhaustive search proves the
best score — the measure of issue 30's last target (≥ 80% of the draft's deals with a
proven best score), which no default budget meets.

    python benchmarks/bench_proof.py [--deals 6] [--setup 草案] [--polish-nodes 300000]
                                     [--nodes 1000000] [--seed 0]

For each deal, the solver first finds a line as the report does, with ``--polish-nodes``
to raise its score (the best line this run knows). Then it takes the position at the start
of each turn of that line, from the last turn back, and solves it with ``--nodes``
positions (after a polish of ``PROOF_POLISH``, counted in) until one position is not
proven. Each line printed gives:

* at the deal: the score bound (``journey.search.bound``) and the line's score;
* for each number of turns left: the bound at that position, the proven best, and the
  positions and CPU seconds the proof took. A proven best above the line's score means
  the line was not best from there.

At the end, for each number of turns left: the median positions over the deals proven
there. The growth per turn is the geometric mean of the ratios from one number of turns
left to the next, over all deals. The extrapolation to a whole deal is only that: the
positions of a deal's last proof, times the growth to the power of the turns still ahead
of it, at this run's positions per CPU second. The floor is the runtime's copy+key rate
from the same run (the least a memoised search pays a position), so a later, faster
solver reads against its own machine.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus import machine_line  # noqa: E402

#: Each proof first polishes for this many positions (solve's ``polish``, counted in its
#: positions): a floor near the line's score, as the report's solver starts from one.
PROOF_POLISH = 20_000


def turn_starts(rules, start, line) -> tuple[dict, object]:
    """The position at the start of each turn of ``line`` (its play phase first reached),
    by turn, and the line's last state."""
    starts, state = {}, start
    for action in line:
        if state.phase == "play" and state.turn not in starts:
            starts[state.turn] = state
        state = rules.apply(state, action)
    return starts, state


def copy_key_rate(states: list, repeats: int = 3) -> float:
    """Copies and keys a second of ``states`` (the best of ``repeats`` rounds)."""
    best = float("inf")
    for _ in range(repeats):
        begin = time.perf_counter()
        for _ in range(200):
            for state in states:
                state.copy().key()
        best = min(best, time.perf_counter() - begin)
    return 200 * len(states) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--setup", default="草案")
    parser.add_argument("--polish-nodes", type=int, default=300_000,
                        help="positions the line's score is raised with")
    parser.add_argument("--nodes", type=int, default=1_000_000,
                        help="positions each proof from a turn's start may expand")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.nodes < 1 or args.polish_nodes < 0:
        parser.error("--deals and --nodes are at least 1, --polish-nodes at least 0")

    from journey import JourneyError, load_rules, new_game
    from journey.lab.measure import DEFAULT_NODES, FIND_FACTOR
    from journey.search import JOURNEY, bound
    from journey.solve import Verdict, solve

    try:
        rules = load_rules(args.setup)
    except JourneyError as error:
        parser.error(str(error))
    print(machine_line(f"bench_proof: {args.deals} deals of {args.setup}, lines polished "
                       f"with {args.polish_nodes:,} positions, each proof at most "
                       f"{args.nodes:,}"))
    proofs: dict[int, list[int]] = {}  # turns left → positions of each deal's proof
    growths: list[float] = []
    wholes: list[float] = []
    positions = cpu = 0.0
    starts_seen: list = []
    for seed in range(args.seed, args.seed + args.deals):
        deal = new_game(rules, seed)
        found = solve(JOURNEY, deal, budget=DEFAULT_NODES, find=FIND_FACTOR * DEFAULT_NODES,
                      polish=args.polish_nodes)
        if found.verdict != Verdict.WON:
            print(f"  seed {seed}: no win found ({found.verdict}); not measured")
            continue
        starts, end = turn_starts(JOURNEY, deal, found.line)
        starts_seen += list(starts.values())
        last = max(starts)
        cells, previous, horizon = [], None, 0
        for left in range(1, last + 1):
            state = starts.get(last - left + 1)
            if state is None:
                break
            begin = time.process_time()
            answer = solve(JOURNEY, state, budget=args.nodes, polish=PROOF_POLISH)
            spent = time.process_time() - begin
            positions += answer.nodes
            cpu += spent
            if not answer.exact:
                cells.append(f"{left}: {bound(state)} → ≥{answer.score} unproven at "
                             f"{answer.nodes:,} ({spent:.0f} s)")
                break
            horizon = left
            proofs.setdefault(left, []).append(answer.nodes)
            if previous:
                growths.append(answer.nodes / previous)
            previous = max(answer.nodes, 1)
            cells.append(f"{left}: {bound(state)} → {answer.score} in {answer.nodes:,}")
        print(f"  seed {seed}: bound {bound(deal)}, line {found.score} in {last} turns; "
              f"proven from {horizon} turns left")
        print("    turns left: bound → best, positions — " + "; ".join(cells))
        if horizon and horizon < last:
            wholes.append((horizon, last, previous))
    if not proofs:
        print("no proof at all: nothing to measure", file=sys.stderr)
        return 1
    print("  median positions to prove, by turns left: " + ", ".join(
        f"{left}: {statistics.median(n):,.0f} ({len(n)})" for left, n in sorted(proofs.items())))
    rate = positions / cpu if cpu else 0.0
    floor = copy_key_rate(starts_seen[:200])
    print(f"  positions/s {rate:,.0f} over the proofs; the floor copies+keys {floor:,.0f} "
          f"states/s (a position ×{floor / rate:.0f} a copy+key)" if rate else
          f"  the floor copies+keys {floor:,.0f} states/s")
    if growths and rate:
        growth = math.exp(statistics.mean(math.log(g) for g in growths if g > 0))
        print(f"  growth a turn back: ×{growth:.1f} (geometric mean of {len(growths)} ratios)")
        for horizon, last, nodes in wholes:
            whole = nodes * growth ** (last - horizon)
            print(f"    a whole deal of {last} turns from {horizon} proven: ~{whole:.1e} "
                  f"positions, ~{whole / rate / 86400 / 365:.1e} CPU-years at this speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
