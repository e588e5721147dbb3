"""How fast does `jibunki compile` go on a big content folder?

Synthesizes 2,000 varied, valid pages (plus a balance, a starting deck and a few enemies)
in a temporary folder, then times

* the full compile (``compile_content``: read, parse, check, lower, validate, render),
* parsing alone (``dsl.parser.parse`` over every file),

each the best of 3 runs (the LALR parser is built once beforehand and not timed), and
prints pages per second and the ratio full compile / parse only. No assertion on time.

    python benchmarks/bench_compile.py [--pages 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.build import compile_content  # noqa: E402
from dsl.parser import get_parser, parse  # noqa: E402

ORIGINS = ("幼少期", "青年期", "壮年期", "老年期")
PAGES_PER_FILE = 100

#: 作用 lines; {n} small int, {k} digit, {other} another page's id, {m} a 銘.
EFFECTS = (
    "敵HP -= {n}",
    "敵HP -= {n} 固定",
    "敵HP -= 使用した歩[プレイ] × 0.{k}",
    "敵HP -= 使用した歩[以降 3 プレイ] × 0.{k} 毎 ターン開始時 範囲 ステージ 最大 3 回",
    "防御 += {n}",
    "防御 += {n} 寿命 被弾1回",
    "防御 += {n} 寿命 ステージ",
    "歩 += {n}",
    "攻撃力補正 += {k} 範囲 以降 2 プレイ",
    "攻撃倍率 *= 1.{k} 範囲 ステージ",
    "@flag{k} += 1",
    "移動 1枚 捨て札 -> 手札 選択",
    "移動 2枚 山札 -> 手札 上から",
    "生成 出自 幼少期 銘 0..20 -> 手札 寿命 ステージ",
    "複製 手札 -> 山札 寿命 ラン",
    "支払う HP {k}",
    "抑制 刻 範囲 ターン",
    "上限 手札上限 += 1 寿命 ステージ",
    "銘[{other}] = {m}",
    "bougyo += {n} life on_hit",
    "enemy_hp -= ho_used[play] * 0.{k}",
)
CONDITIONS = (
    "跨ぐ",
    "跨がない",
    "歩 >= {n}",
    "手札 >= 2",
    "山札+捨て札 >= {k}",
    "跨いだ回数[ターン] >= 1",
    "@flag{k} >= 1",
    "手札[{other}] >= 1",
    "20 <= 刻 <= 60",
    "残りペン回数 >= 1",
)
TEARS = ("攻撃力補正 += 1 範囲 ラン", "防御 += 3 毎 ターン開始時", "支払い倍率 *= 0.9",
         "上限 破り回数上限 += 1 寿命 ステージ")


def _fill(template: str, rng: random.Random, ids: list[str]) -> str:
    return template.format(n=rng.randint(1, 30), k=rng.randint(1, 9), m=rng.randint(0, 200),
                           other=rng.choice(ids))


def _body(rng: random.Random, ids: list[str]) -> str:
    lines = []
    if rng.random() < 0.4:
        conds = rng.sample(CONDITIONS, rng.randint(1, 2))
        lines.append("条件 " + ", ".join(_fill(c, rng, ids) for c in conds))
    lines.extend(_fill(e, rng, ids) for e in rng.sample(EFFECTS, rng.randint(1, 3)))
    return "{\n    " + "\n    ".join(lines) + "\n  }"


def synth_page(index: int, rng: random.Random, ids: list[str]) -> str:
    ident = ids[index]
    fields = [f"銘 {rng.randint(0, 200)}"]
    if rng.random() < 0.5:
        fields.append(f"綻び倍率 {rng.choice(('0.5', '0.8', '1.0', '1.2', '1.5', '2.0'))}")
    if rng.random() < 0.7:
        fields.append(f"出自 {rng.choice(ORIGINS)}")
    if rng.random() < 0.1:
        fields.append("行き先 " + rng.choice(("除外（ステージ）", "除外（ラン）")))
    if rng.random() < 0.1:
        fields.append("出現条件 クリアしたステージ数 >= 2")
    if rng.random() < 0.3:
        fields.append(f'フレーバー "ページ {index} の一行 \\"引用\\" と # 記号"')
    written = rng.choice(("future", "past", "both", "both"))
    fields.append("未来面 " + (_body(rng, ids) if written in ("future", "both") else "白紙"))
    fields.append("過去面 " + (_body(rng, ids) if written in ("past", "both") else "白紙"))
    if rng.random() < 0.2:
        side = "過去面" if written == "future" else "未来面"
        fields.append(f"ペン {side} {{ 歩 += {rng.randint(1, 9)} }}")
    if rng.random() < 0.2:
        fields.append(f"破却 {{ {rng.choice(TEARS)} }}")
    title = f'"ページ{index}"' if index % 3 else f"「頁{index}」"
    return f"ページ {ident} {title} {{\n  " + "\n  ".join(fields) + "\n}\n"


def synthesize(folder: Path, pages: int, seed: int = 2024) -> Path:
    rng = random.Random(seed)
    content = folder / "content"
    (content / "pages").mkdir(parents=True)
    (content / "enemies").mkdir()
    balance = (ROOT / "content" / "balance.balance").read_text(encoding="utf-8")
    (content / "balance.balance").write_text(balance, encoding="utf-8")
    ids = [f"p{i:05d}" for i in range(pages)]
    for start in range(0, pages, PAGES_PER_FILE):
        text = "\n".join(synth_page(i, rng, ids)
                         for i in range(start, min(start + PAGES_PER_FILE, pages)))
        (content / "pages" / f"batch{start // PAGES_PER_FILE:03d}.page").write_text(
            f"# synthesized pages {start}..\n{text}", encoding="utf-8")
    starter = "\n".join(f"  {ident}" for ident in ids[:10])
    (content / "starter.deck").write_text(f'デッキ starter "合成" {{\n{starter}\n}}\n',
                                          encoding="utf-8")
    enemies = []
    for i in range(5):
        enemies.append(
            f'敵 e{i} "敵{i}" {{\n  HP {rng.randint(50, 300)}\n  座 {rng.randint(0, 80)}\n'
            f'  突破ライン {rng.randint(20, 100)}\n  予兆 [ 攻撃 {rng.randint(5, 20)}, '
            f'白紙化 手札 ]\n  エスカレーション 2 ターンごと 攻撃 {rng.randint(5, 20)}\n'
            f'  特性 {{\n    座 += 2 毎 ターン開始時 予告\n    軽減 1\n  }}\n}}\n')
    (content / "enemies" / "synth.enemy").write_text("\n".join(enemies), encoding="utf-8")
    return content


def best_of(repeat: int, run) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--pages", type=int, default=2000)
    args.add_argument("--repeat", type=int, default=3)
    opts = args.parse_args()

    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        content = synthesize(Path(tmp), opts.pages)
        files = sorted(p for p in content.rglob("*") if p.is_file())
        texts = [(p.read_text(encoding="utf-8"), str(p)) for p in files]
        size = sum(len(t.encode("utf-8")) for t, _ in texts)
        get_parser()  # build the LALR parser once, outside the timings

        compile_time, compiled = best_of(opts.repeat, lambda: compile_content(content))
        errors = [d for d in compiled.diagnostics if d.is_error]
        if errors:
            for diag in errors[:10]:
                print(f"{diag.span.path}:{diag.span.line}: {diag.code} {diag.message}")
            print(f"the synthesized content has {len(errors)} errors; nothing timed")
            return 1
        parse_time, _ = best_of(opts.repeat, lambda: [parse(t, p) for t, p in texts])

        pages = len(compiled.tables["pages"]["pages"])
        output = sum(len(text.encode("utf-8")) for text in compiled.files.values())
        print(f"content: {pages} pages, {len(files)} files, {size / 1024:.0f} KiB "
              f"→ tables {output / 1024:.0f} KiB")
        print(f"full compile (best of {opts.repeat}): {compile_time:.3f} s  "
              f"({pages / compile_time:,.0f} pages/s)")
        print(f"parse only   (best of {opts.repeat}): {parse_time:.3f} s  "
              f"({pages / parse_time:,.0f} pages/s)")
        print(f"full compile / parse only: {compile_time / parse_time:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
