"""Battle throughput: random legal play on the bundled content, seeded, against a floor.

    python benchmarks/bench_battle.py [--battles 500] [--repeats 5] [--seed 0]

Each battle is the starter deck against the single enemy haguruma (歯車塔の番人), one
stage, driven by a random policy that picks uniformly among the legal actions (playable
plays, pens, tears, the end of the turn, the answer to a pending choice), at most 400
actions (``handwritten_battle.play_random``, the same policy for every variant).

The variants (VARIANTS: name → how to play one battle, and the variant that is its
floor) are the interpreter with its event log, and the same matchup hand-written in plain
Python (benchmarks/handwritten_battle.py) with an event log and without one. Each repeat
plays the same ``--battles`` seeds with every variant in turn (round-robin, the order
rotated each repeat); for each variant the min and median over the repeats of battles/s
and actions/s are printed next to its floor's figure from the same run, with the ratio.

Then the cost per action of a long battle against a short one: a battle made to last
(``dev_set``: 敵HP 10^9 and 10^9 run-long defense, the same on both sides) played to 200
and to 2,000 actions — µs per action for each and the ratio, for the interpreter and the
floor. The enemy gains an Intent every 3 turns, so a long battle's actions do more (the
events per action are printed): the floor's ratio is what the rules themselves cost.

No timing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from corpus import twins_line  # noqa: E402
from handwritten_battle import DEFAULT_MAX_ACTIONS, HandwrittenBattle, play_random  # noqa: E402
from runtime.battle import Battle  # noqa: E402
from runtime.tables import load  # noqa: E402

ENEMY = "haguruma"
#: What keeps a battle going for the long-vs-short measurement (developer settings).
LASTING = {"enemy_hp": 10**9, "defense": (10**9, "run")}
SHORT, LONG = 200, 2000


class Result(NamedTuple):
    actions: int
    events: int | None  # None: no event log kept
    outcome: str


#: A variant's play: (seed, max_actions, lasting) → Result.
Play = Callable[[int, int, bool], Result]


def interpreter(record: bool):
    """The runtime's Battle, keeping its event log (``record``) or only counting events
    (``Battle.new(record=False)``, as ``sim.simulate`` plays)."""
    def make(tables) -> Play:
        def play(seed: int, max_actions: int = DEFAULT_MAX_ACTIONS, lasting: bool = False):
            battle = Battle.new(tables, seed=seed, enemies=[ENEMY], record=record)
            if lasting:
                battle.dev_set(**LASTING)
            actions = play_random(battle, seed, max_actions)
            events = len(battle.log) if record else None
            return Result(actions, events, battle.state.outcome or "unfinished")
        return play
    return make


def handwritten(log: bool):
    def make(tables) -> Play:
        def play(seed: int, max_actions: int = DEFAULT_MAX_ACTIONS, lasting: bool = False):
            battle = HandwrittenBattle(seed, log=log)
            if lasting:
                battle.dev_set(**LASTING)
            actions = play_random(battle, seed, max_actions)
            return Result(actions, len(battle.log) if log else None,
                          battle.outcome or "unfinished")
        return play
    return make


class Variant(NamedTuple):
    make: Callable  # tables → Play
    floor: str | None  # the variant it is measured against


#: name → variant, each measured against its floor.
VARIANTS: dict[str, Variant] = {
    "interpreter, event log": Variant(interpreter(True), "hand-written, event log"),
    "interpreter, counters only": Variant(interpreter(False), "hand-written, no log"),
    "hand-written, event log": Variant(handwritten(True), "hand-written, no log"),
    "hand-written, no log": Variant(handwritten(False), None),
}


def run_batch(play: Play, seeds: range) -> tuple[float, list[Result]]:
    gc.collect()
    start = time.perf_counter()
    results = [play(seed) for seed in seeds]
    return time.perf_counter() - start, results


def throughput(variants: dict, seeds: range, repeats: int):
    """Interleaved repeats: per variant, the battles/s and actions/s of each repeat and
    the results of the battles (the same in every repeat)."""
    rates = {name: {"battles": [], "actions": []} for name in variants}
    results = {}
    names = list(variants)
    for repeat in range(repeats):
        order = names[repeat % len(names):] + names[:repeat % len(names)]
        for name in order:
            elapsed, got = run_batch(variants[name], seeds)
            results[name] = got
            rates[name]["battles"].append(len(seeds) / elapsed)
            rates[name]["actions"].append(sum(r.actions for r in got) / elapsed)
    return rates, results


def lasting_seed(play: Play, start: int) -> int:
    """The first seed from ``start`` whose lasting battle takes all LONG actions."""
    seed = start
    while play(seed, LONG, True).actions < LONG:
        seed += 1
    return seed


def per_action(variants: dict, seed: int, repeats: int):
    """µs per action (the min over the repeats) and events per action, short and long."""
    best = {(name, n): float("inf") for name in variants for n in (SHORT, LONG)}
    events = {}
    for _ in range(repeats):
        for name, play in variants.items():
            for n in (SHORT, LONG):
                gc.collect()
                start = time.perf_counter()
                result = play(seed, n, True)
                elapsed = time.perf_counter() - start
                best[name, n] = min(best[name, n], elapsed / result.actions * 1e6)
                events[name, n] = None if result.events is None else result.events / result.actions
    return best, events


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    tables = load()
    plays = {name: variant.make(tables) for name, variant in VARIANTS.items()}
    seeds = range(args.seed, args.seed + args.battles)
    rates, results = throughput(plays, seeds, args.repeats)

    reference = next(iter(results.values()))
    outcomes = Counter(r.outcome for r in reference)
    actions = sum(r.actions for r in reference)
    print(f"bench_battle — {twins_line()}")
    print(f"matchup: the starter deck ({len(tables.starter())} pages) against {ENEMY}, "
          f"one stage; seeds "
          f"{seeds.start}..{seeds.stop - 1}, {args.repeats} interleaved repeats")
    print(f"battles: {len(seeds)} ({', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))}),"
          f" {actions} actions ({actions / len(seeds):.1f} per battle)")
    for name, got in results.items():
        if [(r.actions, r.outcome) for r in got] != [(r.actions, r.outcome) for r in reference]:
            print(f"WARNING: {name} did not play the same battles: its figures do not compare")
        if got[0].events is not None:
            print(f"events per battle, {name}: {sum(r.events for r in got) / len(got):.1f}")
    print()
    width = max(map(len, VARIANTS))
    for name, variant in VARIANTS.items():
        for unit, label in (("battles", "battles/s"), ("actions", "actions/s")):
            low, mid = min(rates[name][unit]), statistics.median(rates[name][unit])
            head = f"{name:<{width}}" if unit == "battles" else " " * width
            line = f"{head} : {fmt(low):>9} {label} (min) / {fmt(mid):>9} (median)"
            if variant.floor is not None:
                f_low = min(rates[variant.floor][unit])
                f_mid = statistics.median(rates[variant.floor][unit])
                line += (f" — floor {variant.floor} {fmt(f_mid)}/s (median): "
                         f"×{f_mid / mid:.2f} (median), ×{f_low / low:.2f} (min)")
            print(line)

    seed = lasting_seed(plays["hand-written, no log"], args.seed)
    best, events = per_action(plays, seed, args.repeats)
    print()
    print(f"cost per action, a battle made to last (seed {seed}, dev_set "
          f"{', '.join(f'{k}={v}' for k, v in LASTING.items())}): {SHORT} vs {LONG} actions, "
          f"min of {args.repeats}")
    for name, variant in VARIANTS.items():
        short, long = best[name, SHORT], best[name, LONG]
        line = (f"{name:<{width}} : {short:8.1f} µs/action ({SHORT}) / {long:8.1f} ({LONG}):"
                f" ×{long / short:.2f}")
        if events[name, SHORT] is not None:
            e_short, e_long = events[name, SHORT], events[name, LONG]
            line += (f"   events/action {e_short:.1f} / {e_long:.1f}, µs/event "
                     f"{short / e_short:.2f} / {long / e_long:.2f}")
        if variant.floor is not None:
            f_short, f_long = best[variant.floor, SHORT], best[variant.floor, LONG]
            line += (f"   — ×{short / f_short:.2f} the floor's µs/action ({SHORT}), "
                     f"×{long / f_long:.2f} ({LONG})")
        print(line)

    # The targets, next to what this run measured (never asserted).
    log, counted = "interpreter, event log", "interpreter, counters only"
    floor_log = VARIANTS[log].floor

    def median(name: str) -> float:
        return statistics.median(rates[name]["battles"])
    print()
    print("targets (issue 13), this run's medians:")
    print(f"  random battles per second, counting events : {fmt(median(counted))} "
          f"(target ≥ 2,500 per core)")
    print(f"  against the hand-written battle with a log : "
          f"×{median(floor_log) / median(log):.2f} (target ≤ ×3, the floor to approach ×2)")
    print(f"  growth per action, 200 → 2,000 actions     : "
          + ", ".join(f"{name} ×{best[name, LONG] / best[name, SHORT]:.2f}"
                      for name in VARIANTS)
          + " (target ×1.00; the rules do more per action as Intents pile up: the floors"
            " grow too)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
