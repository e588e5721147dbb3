"""Win rates of the starting deck against each enemy, under a simple greedy policy.

    python benchmarks/win_rates.py [--battles 100] [--seed 0] [--max-turns 40] [--enemy ID]

Each battle is a one-stage run (the balance's opening: 刻, HP, the starting deck) against
one enemy, seeded 0..N-1. The player is a greedy policy that looks one action ahead by
trying it on a copy of the battle:

- 破る: when tearing a hand page reaches the enemy's 突破ライン now, tear it (if the pen's
  10 years are what is missing, pen first, then tear).
- ペン: at most once a stage — as a rescue when nothing in hand is playable (write a blank
  firing face); from turn 4 on also without need: a blank firing face first, else an
  upgrade of a written face of a playable page.
- プレイ: try every playable page; score = damage dealt + 14 per Intent removed while
  Intents remain + half the defense gained + 0.25 per year of distance to 座 gained while
  attacks remain − HP paid + 1 (a small bonus for cycling the deck). Play the best while
  its score is positive — and the best in any case when nothing was played yet this turn
  (never stand still); a player choice takes the first candidates.
- otherwise end the turn. A battle still running after --max-turns turns is a loss.

Prints, per enemy, the win rate, how the wins came (HP / 突破ライン), the mean number of
turns of all battles and of the wins, the mean HP left after a win, and how the losses
came (HP 0 / no playable page / out of turns). Figures are
printed, never asserted (tests/ do not run this).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runtime.battle import SIDES, Battle, Refused  # noqa: E402
from runtime.tables import from_dicts, load  # noqa: E402
from contract.vocabulary import W  # noqa: E402


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


# ------------------------------------------------------------------ lookahead


def clone(battle: Battle) -> Battle:
    """An independent copy (the tables and the placed 作用, frozen objects of the tables,
    are shared; the RNG continues identically)."""
    memo = {id(battle.tables): battle.tables}
    for placed in battle.state.effects:
        memo[id(placed["effect"])] = placed["effect"]
    rng = random.Random()
    rng.setstate(battle.rng.getstate())
    return Battle(battle.tables, copy.deepcopy(battle.state, memo), rng)


def answer_choices(battle: Battle) -> None:
    """A player choice: take the first candidates (the policy does not search decks)."""
    while battle.choice is not None and not battle.over:
        choice = battle.choice
        battle.choose(list(choice["candidates"][:choice["count"]]))


def act(battle: Battle, action: tuple) -> None:
    getattr(battle, action[0])(*action[1:])
    answer_choices(battle)


def won_stage(battle: Battle, stage: int) -> bool:
    return battle.state.outcome == "won" or battle.state.stage_index > stage


def attacks_left(battle: Battle) -> int:
    return sum(1 for i in battle.state.enemy["turn_intents"] if i["kind"] == "attack")


#: The weights of the greedy score (see the module docstring).
CYCLE, CROSS, DEFENSE, DISTANCE = 1.0, 14.0, 0.5, 0.25
#: The turn from which the pen is spent even when something is playable.
PEN_TURN = 4


def score_play(battle: Battle, uid: int) -> float:
    s = battle.state
    stage = s.stage_index
    before = {"enemy": s.enemy["hp"], "intents": len(s.enemy["turn_intents"]), "hp": s.hp,
              "defense": s.defense_total(),
              "distance": abs(s.age - s.enemy["seat"]), "attacks": attacks_left(battle)}
    trial = clone(battle)
    try:
        act(trial, ("play", uid))
    except Refused:
        return float("-inf")
    t = trial.state
    if won_stage(trial, stage):
        return 10_000.0
    if t.outcome == "lost":
        return float("-inf")
    damage = before["enemy"] - t.enemy["hp"]
    removed = before["intents"] - len(t.enemy["turn_intents"])
    score = damage + CYCLE
    if before["intents"]:
        score += CROSS * removed
    score += DEFENSE * (t.defense_total() - before["defense"])
    if attacks_left(trial):
        score += DISTANCE * (abs(t.age - t.enemy["seat"]) - before["distance"])
    score -= before["hp"] - t.hp
    return score


# ------------------------------------------------------------ pen and tear


def pen_options(battle: Battle) -> list[tuple[int, str, bool]]:
    """(uid, side, fills a blank firing face) for every pen the rules allow now."""
    s = battle.state
    if s.pens_used >= s.param("pen_cap"):
        return []
    found = []
    for uid in battle.hand:
        page = battle.page_of(uid)
        firing = battle.sides_for(uid)
        for side in SIDES:
            face = s.pages[uid]["faces"][side]
            restorable = face["state"] == "blank" and face["blanked"] is not None
            if not restorable and (face["penned"] or page.pens[side] is None):
                continue
            fills = side in firing and battle.face_body(uid, side) is None
            found.append((uid, side, fills))
    return found


def try_breakthrough(battle: Battle) -> bool:
    """Tear (after a pen if that is what is missing) when it reaches the 突破ライン now."""
    s = battle.state
    if s.tears_used >= s.param("tear_cap") or not battle.hand:
        return False
    line = battle.tables.enemies[s.enemy["id"]].breakthrough
    best = max(battle.hand, key=lambda uid: battle.tear_preview(uid)["fray"])
    gain = battle.tear_preview(best)["fray"]
    if s.fray_stage + gain >= line:
        act(battle, ("tear", best))
        return True
    pens = pen_options(battle)
    pen_gain = battle.tables.balance.pen_fray
    others = [p for p in pens if p[0] != best]
    if others and s.fray_stage + pen_gain + gain >= line:
        uid, side, _ = others[0]
        act(battle, ("pen", uid, side))
        if not battle.over and best in battle.hand:
            act(battle, ("tear", best))
        return True
    return False


def use_pen(battle: Battle) -> None:
    """Rescue first: when nothing is playable, write a blank firing face. From turn
    PEN_TURN on, spend the pen anyway: fill a blank firing face, else upgrade a face."""
    options = pen_options(battle)
    fills = [o for o in options if o[2]]
    if not battle.playable_any():
        for uid, side, _ in fills:
            act(battle, ("pen", uid, side))
            return
        return
    if battle.state.turn < PEN_TURN:
        return
    upgrades = [o for o in options if not o[2] and battle.face_body(o[0], o[1]) is not None
                and battle.play_info(o[0])["playable"]]
    for uid, side, _ in fills or upgrades:
        act(battle, ("pen", uid, side))
        return


# ------------------------------------------------------------------- a battle


def pad(text: str, width: int) -> str:
    """Left-justify for a terminal: East Asian wide characters take two columns."""
    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - shown)


def play_turn(battle: Battle) -> None:
    stage = battle.state.stage_index
    use_pen(battle)
    played = 0
    while not battle.over and battle.state.stage_index == stage:
        if try_breakthrough(battle):
            continue
        options = [uid for uid in battle.hand if battle.play_info(uid)["playable"]]
        if not options:
            break
        scored = sorted(((score_play(battle, uid), uid) for uid in options), reverse=True)
        best_score, best = scored[0]
        if best_score <= 0 and played:
            break
        act(battle, ("play", best))
        played += 1
    if not battle.over and battle.state.stage_index == stage:
        act(battle, ("end_turn",))


def play_battle(tables, enemy: str, seed: int, max_turns: int) -> dict:
    battle = Battle.new(tables, seed=seed, enemies=[enemy])
    while not battle.over and battle.state.turn <= max_turns:
        play_turn(battle)
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
