"""The balance lab's full answer, cold: ``jibunki sim --format json`` on the bundled content
with no cache, timed against the same command of another revision in the same run — by
default e658d86, the lab as it was when issue 28 was filed ("today's method": 149 s then)
— and the two reports' verdicts compared.

    python benchmarks/bench_sim_report.py [--repeats 3] [--before e658d86] [--seed 0]

The revision is checked out into a temporary git worktree (removed afterwards). Each repeat
runs the two commands in turn (A B A B …, so that a slow moment of the machine lands on
both alike), each a child process reading its own tree: its wall seconds and its CPU
seconds (user + system of the child, the workers included). Printed: min and median of
each, their ratios (min over min, median over median), the target (≤ 30 s on 2 cores),
the battles each report rests on, and the verdicts of the last repeat's reports
(benchmarks/sim_verdicts.py): no page whose interval is clear of 0 in the revision's
report may be contradicted (the opposite verdict, or an interval that does not meet the
revision's). Exit 1 when one is, or when a run fails; no timing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from corpus import machine_line, revision_tree  # noqa: E402
import sim_verdicts  # noqa: E402

#: The lab when issue 28 was filed: the commit before its first change to sim/.
TODAY = "e658d86"
#: Issue 28's target for this figure, in wall seconds on 2 cores.
TARGET = 30.0
#: What the issue measured for TODAY's full report (its 2 cores): the target's ratio.
TODAY_SECONDS = 149.0


def _command(seed: int) -> list[str]:
    """The report, through the command line's own entry point, read from the working
    directory's tree (the child's PYTHONPATH names it before any installed copy)."""
    argv = ["jibunki", "sim", "--format", "json", "--seed", str(seed)]
    return [sys.executable, "-c",
            f"import sys; sys.argv = {argv!r}; from cli import main; main()"]


def _run(tree: Path, seed: int) -> tuple[float, float, dict]:
    """(wall s, CPU s, the report) of one cold report of ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "JIBUNKI_NO_CACHE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(_command(seed), cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"the report of {tree} failed (exit {done.returncode}):\n"
                           f"{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def _row(name: str, values: list[float], unit: str) -> str:
    return f"  {name:<28} min {min(values):8.1f} {unit}   median {statistics.median(values):8.1f} {unit}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", default=TODAY, help="the revision to compare with")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")

    print(machine_line("bench_sim_report: a cold full jibunki sim against another revision"))
    print(f"this tree against {args.before}, seed {args.seed}, {args.repeats} interleaved "
          "repeats, no cache")
    walls: dict[str, list[float]] = {"this tree": [], args.before: []}
    cpus: dict[str, list[float]] = {"this tree": [], args.before: []}
    reports: dict[str, dict] = {}
    try:
        with tempfile.TemporaryDirectory() as folder, \
                revision_tree(args.before, Path(folder)) as before:
            trees = {"this tree": ROOT, args.before: before}
            for _ in range(args.repeats):
                for name, tree in trees.items():
                    wall, cpu, reports[name] = _run(tree, args.seed)
                    walls[name].append(wall)
                    cpus[name].append(cpu)
    except (RuntimeError, OSError, ValueError) as exc:
        print(f"bench_sim_report: {exc}", file=sys.stderr)
        return 1
    for name in walls:
        print(_row(f"{name}, wall", walls[name], "s"))
        print(_row(f"{name}, CPU", cpus[name], "s"))
    new, old = walls["this tree"], walls[args.before]
    print(f"this tree / {args.before}, wall: {min(new) / min(old):.3f} (min over min), "
          f"{statistics.median(new) / statistics.median(old):.3f} (median over median)")
    print(f"this tree / {args.before}, CPU: "
          f"{statistics.median(cpus['this tree']) / statistics.median(cpus[args.before]):.3f} "
          "(median over median)")
    print(f"target: ≤ {TARGET:.0f} s wall on 2 cores against {TODAY_SECONDS:.0f} s for {TODAY} "
          f"(×{TARGET / TODAY_SECONDS:.3f}); median {statistics.median(new):.1f} s")
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name in (args.before, "this tree"):
            path = Path(folder) / f"{len(paths)}.json"
            path.write_text(json.dumps(reports[name]), encoding="utf-8")
            paths.append(str(path))
        return sim_verdicts.main(paths)


if __name__ == "__main__":
    sys.exit(main())
