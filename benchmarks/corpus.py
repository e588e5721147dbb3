"""The synthetic content the benchmarks run on, and their timer.

``write_corpus`` writes varied, valid pages (different faces, play conditions, continuing
effects, pens, tears, fields) spread over several files; ``write_content`` makes of them a
compilable ``content/`` folder (the pages, the project's balance, a starting deck of 10 of
the pages and a few enemies); both are seeded, so the same arguments write the same bytes.

Measuring: ``machine_line`` is the date / CPU line every benchmark prints first;
``lark_floor`` is the plain ``lark.Lark`` of the project's grammar and options, the floor
of every parse; ``interleaved`` times several actions round-robin (A B A B …) and
``figure_rows`` prints each one's min and median next to the floor's from the same run.
``best_of`` times a call (kept for older callers). Not a package: the benchmarks put this
folder on ``sys.path`` and ``import corpus``.
"""

from __future__ import annotations

import gc
import os
import platform
import random
import re
import statistics
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------ pages

ORIGINS = ("幼少期", "青年期", "壮年期", "老年期")
#: One-shot and continuing 作用 of a face; {n} {c} {k} are filled per page.
EFFECTS = (
    "敵HP -= {n}",
    "敵HP -= {n} 固定",
    "敵HP -= 使用した歩[プレイ] × 0.{c}",
    "敵HP -= 跨いだ回数[ターン] × {k}",
    "敵HP -= {k} 毎 ターン終了時 範囲 ステージ",
    "敵HP -= {k} 最大 3 回 毎 ターン開始時 範囲 ステージ",
    "防御 += {n}",
    "防御 += {n} 寿命 被弾1回",
    "防御 += {k} 寿命 ステージ",
    "防御 += {k} 毎 ターン開始時 範囲 ステージ",
    "防御 += 得た防御[ターン] × 0.{c}",
    "defense += {n} life on_hit",
    "歩 += {k}",
    "攻撃力補正 += {k} 範囲 以降 {k} プレイ",
    "攻撃倍率 *= 1.{c} 範囲 ラン",
    "防御補正 += {k} 範囲 ステージ",
    "移動 1枚 捨て札 -> 手札 選択",
    "移動 2枚 山札 -> 手札 上から",
    "生成 出自 {origin} 銘 0..200 -> 手札 寿命 ステージ",  # never an empty pool (W005) by 銘
    "複製 手札 -> 山札 寿命 ラン",
    "支払う HP {k}",
    "通貨 += {k}",
    "抑制 刻",
    "@覚醒 += 1",
    "上限 破り回数上限 += 1 寿命 ステージ",
    "銘[{other}] = {n}",
)
CONDITIONS = (
    "跨ぐ", "跨がない", "歩 >= {k}", "刻 >= {n}", "|銘 - 刻| >= {k}", "手札 >= 2",
    "山札+捨て札 >= 5", "跨いだ回数[ターン] >= 1", "HP >= 50", "@覚醒", "20 <= 刻 <= 40",
    "残りペン回数 >= 1", "手札[{other}] >= 1", "通貨 >= 10", "破った回数[ステージ] >= 1",
)
TEARS = ("攻撃力補正 += {k}", "防御 += {k} 毎 ターン開始時", "攻撃倍率 *= 1.{c}",
         "歩 += 1 毎 ターン開始時")
DESTINATIONS = ("捨て札", "除外（ステージ）", "除外（ラン）")


def _fill(template: str, rng: random.Random, ids: list[str], own: str | None = None) -> str:
    other = rng.choice(ids)
    while other == own and len(ids) > 1:  # a page may not assign its own 銘 (E024)
        other = rng.choice(ids)
    return template.format(n=rng.randint(1, 60), c=rng.randint(1, 9), k=rng.randint(1, 5),
                           origin=rng.choice(ORIGINS), other=other)


#: Conditions a face may not ask, by side, given its page's 銘 (the corpus is clean
#: content: no face whose conditions cannot hold, W008 — the 未来面 fires only while
#: 刻 ≤ 銘, the 過去面 only while 刻 ≥ 銘; 20..40 is kept 5 away from 銘, which a face may
#: also ask |銘 - 刻| >= 5 of).
UNFIT = {"未来面": lambda year: {"刻 >= {n}"} | ({"20 <= 刻 <= 40"} if year < 25 else set()),
         "過去面": lambda year: {"20 <= 刻 <= 40"} if year > 35 else set()}
#: Conditions that cannot hold together: never drawn for one face.
EXCLUSIVE = {frozenset({"跨ぐ", "跨がない"}), frozenset({"刻 >= {n}", "20 <= 刻 <= 40"})}


def _face(rng: random.Random, ids: list[str], indent: str = "    ",
          conditions: bool = True, own: str | None = None, side: str = "未来面",
          year: int = 0) -> str:
    lines = []
    if conditions and rng.random() < 0.5:
        unfit = UNFIT[side](year)
        conds = [c for c in rng.sample(CONDITIONS, rng.randint(1, 2)) if c not in unfit]
        if frozenset(conds) in EXCLUSIVE:
            conds = conds[:1]
        if conds:
            lines.append("条件 " + ", ".join(_fill(c, rng, ids, own) for c in conds))
    lines += [_fill(e, rng, ids, own) for e in rng.sample(EFFECTS, rng.randint(1, 3))]
    return "{\n" + "".join(f"{indent}{line}\n" for line in lines) + "  }"


def page(i: int, rng: random.Random, ids: list[str]) -> str:
    # 銘 at least 5 inside the line's walls (0 and the balance's 寿命上限 80): a face asks
    # |銘 - 刻| up to 5 on its own side of 銘 (W008 nearer a wall)
    year = rng.randint(5, 75)
    out = [f'ページ p{i} "ページ{i}" {{', f"  銘 {year}"]
    if rng.random() < 0.6:
        out.append(f"  綻び倍率 {rng.choice(['0.5', '0.8', '1.0', '1.2', '1.5', '2.0'])}")
    # The first pages take each origin in turn, so that an origin a 生成 filter names is
    # one some page has (E011); the draw is made anyway, so the pages after stay as they were.
    drawn = rng.choice(ORIGINS)
    out.append(f"  出自 {ORIGINS[i] if i < len(ORIGINS) else drawn}")
    if rng.random() < 0.3:
        out.append(f"  行き先 {rng.choice(DESTINATIONS)}")
    if rng.random() < 0.2:
        out.append(f"  上限枚数 {rng.randint(1, 4)}")
    if rng.random() < 0.2:
        out.append(f"  出現条件 クリアしたステージ数 >= {rng.randint(1, 5)}")
    if rng.random() < 0.4:
        out.append(f'  フレーバー "{i} 年目の、ありふれた一日。"')
    sides = rng.choice([("未来面",), ("過去面",), ("未来面", "過去面")])
    for side in ("未来面", "過去面"):
        out.append(f"  {side} {_face(rng, ids, own=f'p{i}', side=side, year=year)}"
                   if side in sides else f"  {side} 白紙")
    if rng.random() < 0.3:
        # a pen on a written face keeps that face's conditions: it may not write its own (E045)
        out.append(f"  ペン {rng.choice(sides)} {_face(rng, ids, conditions=False, own=f'p{i}')}")
    if rng.random() < 0.3:
        out.append(f"  破却 {{ {_fill(rng.choice(TEARS), rng, ids, f'p{i}')} }}")
    # every blank face says what the pen writes (E066); drawn from the page number, not
    # the generator, so the pages after this one stay what they were
    out += [f"  ペン {side} {{ 防御 += {3 + i % 5} }}" for side in ("未来面", "過去面")
            if side not in sides]
    return "\n".join(out) + "\n}\n"


def page_ids(pages: int) -> list[str]:
    return [f"p{i}" for i in range(pages)]


def write_corpus(folder: Path, pages: int, files: int, seed: int = 2024) -> list[Path]:
    """``pages`` pages ``p0`` … in at most ``files`` files ``corpus_NNN.page`` in ``folder``."""
    rng = random.Random(seed)
    ids = page_ids(pages)
    per_file = -(-pages // files)
    paths = []
    for f in range(files):
        chunk = range(f * per_file, min(pages, (f + 1) * per_file))
        if not chunk:
            break
        path = folder / f"corpus_{f:03d}.page"
        path.write_text(f"# 合成コーパス {f}\n\n" + "\n".join(page(i, rng, ids) for i in chunk),
                        encoding="utf-8")
        paths.append(path)
    return paths


# ------------------------------------------------------------------ a whole project


def _enemies(rng: random.Random, count: int = 5) -> str:
    return "\n".join(
        f'敵 e{i} "敵{i}" {{\n  HP {rng.randint(50, 300)}\n  座 {rng.randint(0, 80)}\n'
        f'  突破ライン {rng.randint(20, 100)}\n  予兆 [ 攻撃 {rng.randint(5, 20)}, '
        f'白紙化 手札 ]\n  エスカレーション 2 ターンごと 攻撃 {rng.randint(5, 20)}\n'
        f'  特性 {{\n    座 += 2 毎 ターン開始時 予告\n    軽減 1\n  }}\n}}\n'
        for i in range(count))


def write_content(folder: Path, pages: int, files: int, seed: int = 2024) -> Path:
    """A compilable ``folder/content``: the corpus under ``pages/``, the project's balance,
    ``デッキ starter`` of the first 10 pages and a few enemies. Returns the content folder."""
    content = folder / "content"
    (content / "pages").mkdir(parents=True)
    (content / "enemies").mkdir()
    write_corpus(content / "pages", pages, files, seed)
    first = page_ids(pages)[:10]
    balance = (ROOT / "content" / "balance.balance").read_text(encoding="utf-8")
    # The balance lab's 基準ページ names a page of the starting deck: here, the corpus's.
    balance = re.sub(r"(?m)^([ \t]*基準ページ[ \t]+)\S+", rf"\g<1>{first[0]}", balance)
    (content / "balance.balance").write_text(balance, encoding="utf-8")
    starter = "".join(f"  {ident}\n" for ident in first)
    (content / "starter.deck").write_text(f'デッキ starter "合成" {{\n{starter}}}\n',
                                          encoding="utf-8")
    (content / "enemies" / "synth.enemy").write_text(_enemies(random.Random(seed)),
                                                     encoding="utf-8")
    return content


# ------------------------------------------------------------------ measuring


def best_of(runs: int, action) -> tuple[float, object]:
    """Best wall time of ``runs`` calls, and the last call's value. Each run starts from a
    collected heap, so that one run's garbage is not timed in the next."""
    best, value = float("inf"), None
    for _ in range(runs):
        value = None
        gc.collect()
        start = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - start)
    return best, value


def machine_line(title: str) -> str:
    """The first line of every benchmark: what it is, when, on how many CPUs, which Python
    and lark — figures from two machines, or two days, are not to be compared."""
    from lark import __version__ as lark_version

    cpus = os.cpu_count() or 0
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    return (f"{title} — {time.strftime('%Y-%m-%d %H:%M:%S %z')}, {usable} of {cpus} CPUs "
            f"usable, Python {platform.python_version()} ({platform.machine()}), "
            f"lark {lark_version}, {twins_line()}")


def twins_line() -> str:
    """How many of the hot modules run compiled (setup.py, contract/compiled.py): a
    figure of the battles or the solver means nothing without it."""
    from contract.compiled import OFF, disabled, report

    twins = report()
    running = sum(twins.values())
    if disabled():
        return f"compiled twins off ({OFF}=1): all as Python"
    return f"compiled twins {running} of {len(twins)} current" if twins else \
        "no compiled twins (installed without a C compiler?): all as Python"


def lark_floor():
    """The floor of every parse: a plain ``lark.Lark`` built here, from the project's
    grammar text (``dsl.parser.grammar_text``) with the project's options
    (``dsl.parser.PARSER_OPTIONS``) and no disk cache — nothing of ours but the grammar.
    Its ``parse(text)`` gives lark's tree: no AST, no recovery, no checks."""
    from lark import Lark

    from dsl.parser import PARSER_OPTIONS, grammar_text

    return Lark(grammar_text(), **PARSER_OPTIONS)


def interleaved(actions: dict[str, Callable[[], object]], repeats: int,
                look: Callable[[str, object], None] | None = None,
                prepare: dict[str, Callable[[], None]] | None = None) -> dict[str, list[float]]:
    """Wall seconds of each action, ``repeats`` rounds of all of them in turn (A B C A B C
    …), so that a slow moment of the machine lands on every measure alike. Each call
    starts from a collected heap; ``prepare[name]()`` runs untimed just before that
    action's call (a fresh folder …); ``look(name, value)`` sees what the call returned,
    untimed (to refuse a run that measured an error path)."""
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeats):
        for name, action in actions.items():
            if prepare and name in prepare:
                prepare[name]()
            value = None
            gc.collect()
            start = time.perf_counter()
            value = action()
            times[name].append(time.perf_counter() - start)
            if look is not None:
                look(name, value)
            del value
    return times


def figure_rows(times: dict[str, list[float]], floor: str, count: int | None = None,
                unit: str = "page", targets: dict[str, str] | None = None) -> list[str]:
    """One line per measure: min and median milliseconds (and per ``unit`` when
    ``count`` is given), then its ratio to ``floor`` — min over min and median over
    median, both from the same run — and the target, if it has one."""
    targets = targets or {}
    width = max(map(len, times))
    floor_min, floor_median = min(times[floor]), statistics.median(times[floor])
    lines = []
    for name, seconds in times.items():
        best, median = min(seconds), statistics.median(seconds)
        line = f"  {name:<{width}}  min {best * 1000:9.1f} ms  median {median * 1000:9.1f} ms"
        if count:
            line += f"  {best / count * 1000:7.3f} ms/{unit}"
        if name == floor:
            line += "  (the floor)"
        else:
            line += (f"  {'×%.2f' % (best / floor_min):>6} floor (median "
                     f"×{median / floor_median:.2f})")
        if name in targets:
            line += f"  target {targets[name]}"
        lines.append(line)
    return lines


@contextmanager
def revision_tree(revision: str, folder: Path):
    """``revision`` of this repository checked out (detached) into ``folder``/before for
    the time of the block, then removed: another revision's tree to time against.
    RuntimeError when git cannot check it out."""
    root = Path(__file__).resolve().parent.parent
    tree = folder / "before"
    done = subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet",
                           str(tree), revision], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"cannot check out {revision}: {done.stderr.strip()}")
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)
