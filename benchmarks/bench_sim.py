"""The balance lab's throughput: battles/s through ``jibunki sim``'s lab against the
runtime's raw rate on the very same battles, and the speed-up from 1 to 2 workers.

    python benchmarks/bench_sim.py [--repeats 3] [--policy random] [--pages 8]

One lab run (sim.lab.Lab) on the bundled content — ``--pages`` pages, 2 enemies, the
policy, precision 0.05 — is planned once; every repeat then times, interleaved:

* raw: the tasks that run played (``Lab.tasks``), replayed in this process by
  ``sim.lab.work`` one after the other — the runtime and the simulation API alone,
  no lab (no rounds, no statistics, no workers): the floor;
* lab, 1 worker: the whole lab run in this process;
* lab, 2 workers: the whole lab run on a local process pool (started inside the timing).

Printed: min and median battles/s of each; the lab's rate over the raw rate (target
≥ 80% with 1 worker); the speed-up from 1 to 2 workers. The reports of the two lab runs
are compared byte for byte. Then the results cache (sim/cache.py, in a temporary folder):
the run cold, warm, and after an edit to the first page, each in seconds next to the raw
floor and with the battles it played; their reports must be the bare run's. No timing is
asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus import interleaved, machine_line  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policy", default="random")
    parser.add_argument("--pages", type=int, default=8)
    args = parser.parse_args(argv)

    from compiler.build import compile_content
    from sim.lab import Lab, Settings, prepare, work

    literal = compile_content(HERE.parent / "content").tables
    tables = prepare(literal)
    settings = Settings(enemies=("haguruma", "wasure"), ladder=(args.policy,),
                        pages=tuple(sorted(tables.pages))[:args.pages], precision=0.05,
                        max_pairs=1000)
    plan = Lab(literal, tables, settings)
    plan.run()
    tasks = plan.tasks
    battles = sum(len(t.battles) for t in tasks)
    print(machine_line("bench_sim: battles/s through the lab vs the runtime's raw rate"))
    print(f"one lab run: {battles:,} battles in {len(tasks)} tasks ({args.policy}, "
          f"{args.pages} pages, haguruma + wasure, precision 0.05); {args.repeats} interleaved "
          "repeats")
    reports = {}

    def lab(workers: int):
        def run():
            reports[workers] = Lab(literal, tables, settings, workers=workers).run()
        return run

    def raw():
        for task in tasks:
            work(tables, task)

    times = interleaved({"raw": raw, "lab, 1 worker": lab(1), "lab, 2 workers": lab(2)},
                        args.repeats)
    rate = {name: [battles / t for t in ts] for name, ts in times.items()}
    for name, rates in rate.items():
        print(f"  {name:<15} min {min(rates):8,.0f} battles/s   median "
              f"{statistics.median(rates):8,.0f}")
    one = statistics.median(rate["lab, 1 worker"]) / statistics.median(rate["raw"])
    print(f"lab (1 worker) / raw: {one:.0%} (median over median; target ≥ 80%)")
    speedup = statistics.median(rate["lab, 2 workers"]) / statistics.median(rate["lab, 1 worker"])
    print(f"speed-up from 1 to 2 workers: ×{speedup:.2f} (median over median)")
    same = json.dumps(reports[1], sort_keys=True) == json.dumps(reports[2], sort_keys=True)
    print(f"reports of 1 and 2 workers byte-identical: {same}")
    cached = bench_cache(literal, settings, statistics.median(times["raw"]), reports[1])
    return 0 if same and cached else 1


def bench_cache(literal, settings, floor: float, bare: dict) -> bool:
    """The results cache (sim/cache.py), in a folder of its own: the same run cold (1
    worker, filling the cache), warm (reading it whole) and after an edit to one page of
    the pool (its pairs alone played again), next to the floor (the raw replay of the
    run's battles, measured above). The reports must be the bare run's."""
    import copy
    import os
    import tempfile

    from runtime.tables import from_dicts
    from sim.cache import ResultCache
    from sim.lab import Lab, Outcome

    def timed(lit, sets):
        results = ResultCache.open(lit, Outcome._make, Outcome._fields)
        start = time.perf_counter()
        try:
            lab = Lab(lit, from_dicts(lit), sets, workers=1, cache=results)
            report = lab.run()
        finally:
            results.close()
        return time.perf_counter() - start, lab, report

    edited = copy.deepcopy(literal)
    page = settings.pages[0]
    edited["pages"]["pages"][page]["year"] += 1
    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_CACHE_HOME"] = home
        os.environ.pop("JIBUNKI_NO_CACHE", None)
        cold, lab_cold, report_cold = timed(literal, settings)
        warm, lab_warm, report_warm = timed(literal, settings)
        edit, lab_edit, _ = timed(edited, settings)
    print(f"results cache (1 worker; floor: the raw replay, {floor:.2f} s):")
    for name, seconds, lab in (("cold", cold, lab_cold), ("warm", warm, lab_warm),
                               (f"{page} edited", edit, lab_edit)):
        print(f"  {name:<22} {seconds:7.2f} s  {seconds / floor:6.0%} of the floor   "
              f"{lab.played:,} of {lab.battles:,} battles played")
    same = report_cold == report_warm == bare
    print(f"reports cold, warm and without cache identical: {same}")
    return same


if __name__ == "__main__":
    sys.exit(main())
