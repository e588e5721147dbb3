"""Greedy battles per second: this tree's runtime and greedy player against another
revision's on the same decks, enemies and seeds — by default e658d86, the lab when issue
28 was filed (its target: at least ×1.6 that revision's rate).

    python benchmarks/bench_greedy.py [--repeats 5] [--before e658d86] [--seeds 3]

The tree is timed twice, with its compiled twins (setup.py) and as Python
(``JIBUNKI_NO_COMPILED=1``): the other revision has no twins, so "this tree as Python"
against it is the runtime's own gain, and "this tree" over "as Python" the compiler's.

The battles: the starting deck plus one page, against one enemy, for a spread of the
bundled (page, enemy) pairs — every seventh of the grid — each on seeds 0 … ``--seeds``−1,
as the lab plays them (``sim.simulate.play_one``, events counted, not kept). Each repeat
times both trees in turn (A B A B …), each a child process reading its own tree (CPU
seconds of the battles alone, not the start-up). Printed: battles/s of each at its
fastest repeat (the min of the times) and at the median, the ratio of each next to the
target, and the mean
actions per battle of each: the rules changed between the two (rules round 3), so the
battles are alike, not identical. No timing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import machine_line, revision_tree  # noqa: E402

#: The lab when issue 28 was filed (benchmarks/bench_sim_report.py TODAY).
TODAY = "e658d86"
#: Issue 28's target for this figure: greedy battles/s over that revision's.
TARGET = 1.6

#: What a child runs, in its own tree: the battles' CPU seconds, their count and actions.
CHILD = """
import json, sys, time
from runtime.tables import load
from sim.policies import POLICIES
from sim.simulate import play_one
seeds = int(sys.argv[1])
tables = load()
pages, enemies, deck = sorted(tables.pages), sorted(tables.enemies), tables.starter()
grid = [(deck + [p], [e]) for i, p in enumerate(pages) for j, e in enumerate(enemies)
        if (i + j) % 7 == 0]
greedy = POLICIES["greedy"]
start = time.process_time()
actions = [play_one(tables, d, e, greedy, s, 60).actions for d, e in grid for s in range(seeds)]
print(json.dumps([time.process_time() - start, len(actions), sum(actions)]))
"""


#: The contenders: (tree, as Python). The other revision's tree has no twins.
THIS, PYTHON = "this tree", "this tree as Python"


def _run(tree: Path, seeds: int, python: bool = False) -> tuple[float, int, int]:
    """(CPU s, battles, actions) of the battles in ``tree`` (``python``: twins off)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("JIBUNKI_NO_COMPILED", None)
    if python:
        env["JIBUNKI_NO_COMPILED"] = "1"
    done = subprocess.run([sys.executable, "-c", CHILD, str(seeds)], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the battles of {tree} failed (exit {done.returncode}):\n"
                           f"{done.stderr[-2000:]}")
    cpu, battles, actions = json.loads(done.stdout)
    return cpu, battles, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", default=TODAY, help="the revision to compare with")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seeds < 1:
        parser.error("--repeats and --seeds must be at least 1")

    print(machine_line("bench_greedy: greedy battles/s against another revision"))
    names = (THIS, PYTHON, args.before)
    rates: dict[str, list[float]] = {name: [] for name in names}
    actions: dict[str, float] = {}
    try:
        with tempfile.TemporaryDirectory() as folder, \
                revision_tree(args.before, Path(folder)) as before:
            trees = {THIS: ROOT, PYTHON: ROOT, args.before: before}
            for repeat in range(args.repeats):
                order = names if repeat % 2 == 0 else names[::-1]
                for name in order:
                    cpu, battles, acted = _run(trees[name], args.seeds, name == PYTHON)
                    rates[name].append(battles / cpu)
                    actions[name] = acted / battles
    except (RuntimeError, OSError, ValueError) as exc:
        print(f"bench_greedy: {exc}", file=sys.stderr)
        return 1
    print(f"{battles:,} greedy battles a run (seeds 0–{args.seeds - 1}), {args.repeats} "
          "interleaved repeats")
    for name in names:
        print(f"  {name:<20} fastest {max(rates[name]):7.1f} battles/s   median "
              f"{statistics.median(rates[name]):7.1f} battles/s   "
              f"{actions[name]:.1f} actions a battle")
    for new, old in ((THIS, args.before), (PYTHON, args.before), (THIS, PYTHON)):
        a, b = rates[new], rates[old]
        print(f"{new} / {old}: ×{max(a) / max(b):.2f} (fastest over fastest), "
              f"×{statistics.median(a) / statistics.median(b):.2f} (median over median)"
              + (f"; target ≥ ×{TARGET}" if old == args.before else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
