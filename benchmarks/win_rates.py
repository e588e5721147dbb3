"""Win rates of the starting deck against each enemy, under a simple greedy policy.

    python benchmarks/win_rates.py [--battles 100] [--seed 0] [--max-turns 40] [--enemy ID]

Each battle is a one-stage run (the balance's opening: 刻, HP, the starting deck) against
one enemy, seeded 0..N-1. The player is ``sim.policies.greedy_policy`` (its docstring
says how it plays); a battle still running after --max-turns turns is a loss.

Prints, per enemy, the win rate, how the wins came (HP / 突破ライン), the mean number of
turns of all battles and of the wins, the mean HP left after a win, and how the losses
came (HP 0 / no playable page / out of turns). Figures are
printed, never asserted (tests/ do not run this).
"""

from __future__ import annotations

import argparse
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runtime.battle import Battle  # noqa: E402
from runtime.tables import from_dicts, load  # noqa: E402
from contract.vocabulary import W  # noqa: E402
from sim.policies import greedy_policy  # noqa: E402
from sim.simulate import policy_rng  # noqa: E402


def tables_from(content: Path | None):
    """The compiled content folder (fresh), or generated/ when no folder is given."""
    if content is None:
        return load()
    from compiler.build import compile_content

    compiled = compile_content(content)
    if not compiled.ok:
        for d in compiled.diagnostics:
            if d.is_error:
                print(f"{d.span}: {d.code} {d.message}", file=sys.stderr)
        raise SystemExit("content does not compile")
    return from_dicts(compiled.tables)


def pad(text: str, width: int) -> str:
    """Left-justify for a terminal: East Asian wide characters take two columns."""
    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - shown)


def play_battle(tables, enemy: str, seed: int, max_turns: int) -> dict:
    battle = Battle.new(tables, seed=seed, enemies=[enemy])
    rng = policy_rng(seed)
    while not battle.over and battle.state.turn <= max_turns:
        battle.apply(greedy_policy(battle, rng))
    s = battle.state
    won = s.outcome == "won"
    how = next((e.data["by"] for e in battle.log if e.kind in ("stage_won", "run_lost")),
               "time")
    return {"won": won, "by": how, "turns": s.turn, "hp": s.hp if won else 0}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=40)
    parser.add_argument("--enemy", action="append", default=None)
    parser.add_argument("--content", type=Path, default=ROOT / "content",
                        help="content folder compiled in memory (default: content/)")
    parser.add_argument("--generated", action="store_true",
                        help="use generated/ instead of compiling the content folder")
    args = parser.parse_args(argv)

    tables = tables_from(None if args.generated else args.content)
    enemies = args.enemy or sorted(tables.enemies)
    start = time.perf_counter()
    print(f"starting deck: {', '.join(tables.starter())}")
    print(f"{args.battles} battles per enemy, seeds {args.seed}..{args.seed + args.battles - 1}")
    header = (f"{'enemy':<12} {pad('name', 16)} {'HP':>4} {pad(W.variable.seat, 3)} {pad('突破', 4)}  "
              f"{'win%':>5}  {'by HP':>5} {pad('by 突破', 7)}  {'turns':>5} {'win turns':>9} "
              f"{'HP left':>7}  {'lost: HP':>8} {'no page':>7} {'time':>4}")
    print(header)
    print("-" * (len(header) + 3))
    for enemy in enemies:
        results = [play_battle(tables, enemy, args.seed + i, args.max_turns)
                   for i in range(args.battles)]
        wins = [r for r in results if r["won"]]
        data = tables.enemies[enemy]
        mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
        print(f"{enemy:<12} {pad(data.name, 16)} {data.hp:>4} {data.seat:>3} "
              f"{data.breakthrough:>4}  {100 * len(wins) / len(results):>4.0f}%  "
              f"{sum(r['by'] == 'hp' for r in wins):>5} "
              f"{sum(r['by'] == 'breakthrough' for r in wins):>7}  "
              f"{mean([r['turns'] for r in results]):>5.1f} "
              f"{mean([r['turns'] for r in wins]):>9.1f} {mean([r['hp'] for r in wins]):>7.1f}  "
              f"{sum(r['by'] == 'hp' and not r['won'] for r in results):>8} "
              f"{sum(r['by'] == 'no_playable_page' for r in results):>7} "
              f"{sum(r['by'] == 'time' for r in results):>4}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
