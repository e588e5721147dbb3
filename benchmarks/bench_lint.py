"""Lint throughput on a synthetic corpus, parse-only time, and CLI start-up time.

    python benchmarks/bench_lint.py [--pages 2000] [--files 40]

Writes a corpus of varied, valid pages (different faces, play conditions, continuing
effects, pens, tears, fields) to a temporary folder, spread over several files, then:

* lints it with ``compiler.lint.check`` — pages per second, best of 3 runs;
* parses it only (``dsl.parser.parse`` on every file's text) — best of 3;
* starts the CLI (``python cli.py --help``) — milliseconds, best of 5.

Figures only; nothing here asserts on timing. The corpus must lint clean: if it does not,
the benchmark stops and shows why (a benchmark of error paths would measure the wrong thing).
"""

from __future__ import annotations

import argparse
import gc
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.lint import check, read  # noqa: E402
from dsl.parser import get_parser, parse  # noqa: E402

# ------------------------------------------------------------------ the corpus

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
    "bougyo += {n} life on_hit",
    "歩 += {k}",
    "攻撃力補正 += {k} 範囲 以降 {k} プレイ",
    "攻撃倍率 *= 1.{c} 範囲 ラン",
    "防御補正 += {k} 範囲 ステージ",
    "移動 1枚 捨て札 -> 手札 選択",
    "移動 2枚 山札 -> 手札 上から",
    "生成 出自 {origin} 銘 0..{n} -> 手札 寿命 ステージ",
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


def _fill(template: str, rng: random.Random, ids: list[str]) -> str:
    return template.format(n=rng.randint(1, 60), c=rng.randint(1, 9), k=rng.randint(1, 5),
                           origin=rng.choice(ORIGINS), other=rng.choice(ids))


def _face(rng: random.Random, ids: list[str], indent: str = "    ") -> str:
    lines = []
    if rng.random() < 0.5:
        conds = rng.sample(CONDITIONS, rng.randint(1, 2))
        lines.append("条件 " + ", ".join(_fill(c, rng, ids) for c in conds))
    lines += [_fill(e, rng, ids) for e in rng.sample(EFFECTS, rng.randint(1, 3))]
    return "{\n" + "".join(f"{indent}{line}\n" for line in lines) + "  }"


def page(i: int, rng: random.Random, ids: list[str]) -> str:
    out = [f'ページ p{i} "ページ{i}" {{', f"  銘 {rng.randint(0, 120)}"]
    if rng.random() < 0.6:
        out.append(f"  綻び倍率 {rng.choice(['0.5', '0.8', '1.0', '1.2', '1.5', '2.0'])}")
    out.append(f"  出自 {rng.choice(ORIGINS)}")
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
        out.append(f"  {side} {_face(rng, ids)}" if side in sides else f"  {side} 白紙")
    if rng.random() < 0.3:
        out.append(f"  ペン {rng.choice(sides)} {_face(rng, ids)}")
    if rng.random() < 0.3:
        out.append(f"  破却 {{ {_fill(rng.choice(TEARS), rng, ids)} }}")
    return "\n".join(out) + "\n}\n"


def write_corpus(folder: Path, pages: int, files: int, seed: int = 2024) -> list[Path]:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(pages)]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--files", type=int, default=40)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        folder = Path(tmp)
        paths = write_corpus(folder, args.pages, args.files)
        size = sum(p.stat().st_size for p in paths)
        print(f"corpus: {args.pages} pages in {len(paths)} files, {size / 1024:.0f} KiB")

        start = time.perf_counter()
        get_parser()
        print(f"parser build (once per process): {(time.perf_counter() - start) * 1000:.0f} ms")

        cold, result = best_of(1, lambda: check([folder]))
        if result.errors or result.diagnostics:
            for diag in result.diagnostics[:10]:
                print(f"  {diag.span}: {diag.code} {diag.message}", file=sys.stderr)
            raise SystemExit(f"the corpus is not clean ({len(result.diagnostics)} diagnostics)")
        checked = sum(1 for p in result.model["pages"] if p is not None)
        if checked != args.pages:
            raise SystemExit(f"only {checked} of {args.pages} pages were checked")
        del result

        lint_time, _ = best_of(3, lambda: check([folder]))
        print(f"lint (check, best of 3): {lint_time * 1000:.0f} ms — "
              f"{args.pages / lint_time:,.0f} pages/s  (first run: {cold * 1000:.0f} ms)")

        texts = {str(p): read(p, str(p))[0] for p in paths}
        parse_time, _ = best_of(3, lambda: [parse(t, name) for name, t in texts.items()])
        print(f"parse only (best of 3): {parse_time * 1000:.0f} ms — "
              f"{args.pages / parse_time:,.0f} pages/s  "
              f"({parse_time / lint_time:.0%} of lint)")

    startup, proc = best_of(5, lambda: subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "--help"], capture_output=True, cwd=ROOT))
    if proc.returncode != 0:
        raise SystemExit(f"cli.py --help failed: {proc.stderr.decode(errors='replace')}")
    print(f"CLI start-up (python cli.py --help, best of 5): {startup * 1000:.0f} ms")


if __name__ == "__main__":
    main()
