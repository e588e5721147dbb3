"""Do lint and compile grow linearly with the number of pages, and how much memory does a
big compile take — each next to a plain lark parse of the same text, measured in the run?

    python benchmarks/bench_scale.py [--sizes 1000,5000,10000] [--repeats 3] [--quick]
                                     [--memory-pages N] [--memory-repeats 2] [--seed 2024]

Time. For each size N the synthetic content (``corpus.write_content``, seeded: N varied,
valid pages in files of PAGES_PER_FILE, the project's balance, a starting deck, a few
enemies) is written once, then timed in ``--repeats`` interleaved rounds (floor, lint,
compile, floor, lint, compile, …), so that a slow moment of the machine lands on every
measure alike:

* floor: a plain ``lark.Lark`` of the project's grammar and options (``corpus.lark_floor``)
  parses every file's text, each tree dropped as the next file starts (no AST, no checks,
  nothing kept) — the plainest tool doing the parse;
* lint: ``compiler.lint.check`` of the content folder;
* compile: ``compiler.build.compile_content`` in memory (check, lower, validate, render).

Printed per size: min and median milliseconds, milliseconds per page, and each measure's
ratio to the floor of the same run. Then the growth: per-page time at the largest size
over that at the smallest (10,000 vs 1,000 by default), target within 1.3× for lint and
compile — linear code keeps the per-page figure flat, a quadratic pass makes it grow.

Memory. The peak resident set of a fresh ``python -c`` child that compiles
``--memory-pages`` pages (default: the largest size) — target under 300 MB — next to its
floor, a child that only reads and parses every file of the same content with a plain
lark of the same grammar and options, one tree at a time (nothing kept). Two more rows to
read it by: the same lark child keeping every tree (what holding the whole parse costs),
and a child that only imports what compile imports (the fixed part). The peak is
``ru_maxrss`` read as ``RUSAGE_CHILDREN`` by a small launcher that started the child (see
LAUNCHER); ``--memory-repeats`` interleaved children of each, min and median.

File caches are off throughout (``JIBUNKI_NO_CACHE=1``: set in this process once our
parser is built, and so in every child): every lint and compile parses every file, and
each memory child builds the LALR tables from the grammar, as the floor child does.

Two things to read the figures by. The floor keeps nothing, so its per-page time should
stay flat whatever the size; lint and compile keep their model, and pause Python's cyclic
collector while they build it (compiler/lint.py) so that a growing heap is not walked
again and again. And the default run (1,000 / 5,000 / 10,000 pages, 3 rounds, 2 memory children
of each kind at 10,000) takes about 3 minutes on 2 cores; ``--quick`` (200 / 500 / 1,000
pages, 2 rounds) about 20 seconds. Figures only; nothing here asserts on time or memory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from compiler.build import compile_content  # noqa: E402
from compiler.lint import check  # noqa: E402
from corpus import figure_rows, interleaved, lark_floor, machine_line, write_content  # noqa: E402
from dsl.parser import PARSER_OPTIONS, get_parser, grammar_text  # noqa: E402

SIZES = (1000, 5000, 10000)
QUICK_SIZES = (200, 500, 1000)
PAGES_PER_FILE = 100
MEASURES = ("floor", "lint", "compile")
GROWTH_TARGET = 1.3  # per-page time at the largest size ≤ 1.3× that at the smallest
MEMORY_TARGET_MB = 300  # peak of a compile of 10,000 pages

#: The memory floor: read and parse every file with plain lark, one tree at a time
#: (argv[4] == "keep": keep every tree instead).
FLOOR_CHILD = """\
import json, sys
from pathlib import Path
from lark import Lark
grammar, options, folder, keep = sys.argv[1:5]
parser = Lark(Path(grammar).read_text(encoding="utf-8"), **json.loads(options))
trees = []
for path in sorted(Path(folder).rglob("*")):
    if path.is_file():
        tree = parser.parse(path.read_text(encoding="utf-8"))
        if keep == "keep":
            trees.append(tree)
        del tree
print(len(trees))
"""
#: A compile in memory, as bench_compile and `jibunki compile` do it (without writing);
#: it fails on any finding but those of ``sys.argv[3]`` (CORPUS_FINDINGS, comma-separated),
#: as the timed compile does.
COMPILE_CHILD = """\
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from compiler.build import compile_content
compiled = compile_content(Path(sys.argv[2]))
problems = [d for d in compiled.diagnostics if d.code not in sys.argv[3].split(",")]
for diag in problems[:10]:
    print(diag.span, diag.code, diag.message, file=sys.stderr)
print(len(compiled.tables.get("pages", {}).get("pages", ())))
sys.exit(1 if problems else 0)
"""
#: What the compile child holds before it reads a file: the interpreter and the imports.
IMPORTS_CHILD = """\
import sys
sys.path.insert(0, sys.argv[1])
import compiler.build, compiler.lint, dsl.parser, jsonschema
"""


def _parse_each(parser, texts: list[str]) -> None:
    """The floor: every text parsed, each tree dropped before the next parse."""
    for text in texts:
        parser.parse(text)


#: Warnings a random corpus may rightly get: two random pages of the same 銘 and shape
#: where one is no better in any number (W010, "check by hand") — a few in 10,000 pages;
#: the lint does the same work with them as without.
CORPUS_FINDINGS = ("W010",)


def measure(pages: int, repeats: int, floor_parser, folder: Path,
            seed: int) -> dict[str, list[float]]:
    """Seconds of each measure, ``repeats`` rounds, interleaved; raises SystemExit when
    the corpus does not check clean (timing error paths would measure the wrong thing)."""
    content = write_content(folder, pages, -(-pages // PAGES_PER_FILE), seed)
    texts = [p.read_text(encoding="utf-8") for p in sorted(content.rglob("*")) if p.is_file()]
    actions = {
        "floor": lambda: _parse_each(floor_parser, texts),
        "lint": lambda: check([content]),
        "compile": lambda: compile_content(content),
    }

    def look(name: str, value) -> None:
        problems = [d for d in getattr(value, "diagnostics", []) if d.code not in CORPUS_FINDINGS]
        if problems:
            for diag in problems[:10]:
                print(f"  {diag.span}: {diag.code} {diag.message}", file=sys.stderr)
            raise SystemExit(f"{name}: the corpus of {pages} pages is not clean")

    return interleaved(actions, repeats, look)


def growth(sizes: list[int], per_page: dict[int, dict[str, float]]) -> list[str]:
    """Per-page min at the largest size over that at the smallest, for each measure."""
    small, large = min(sizes), max(sizes)
    lines = [f"growth: per-page time at {large:,} pages / at {small:,} pages (min over min)"]
    for name in MEASURES:
        ratio = per_page[large][name] / per_page[small][name]
        target = "" if name == "floor" else (
            f"  target ≤ {GROWTH_TARGET:g}×: "
            f"{'within' if ratio <= GROWTH_TARGET else 'NOT within'}")
        lines.append(f"  {name:<8} ×{ratio:.2f}{target}")
    return lines


#: Runs the measured child and reports its peak. The child is started from this small
#: process, not from the benchmark itself: on Linux a child's ru_maxrss starts from the
#: high-water mark of the process it was forked from, which here holds 10,000 pages.
LAUNCHER = """\
import resource, subprocess, sys
code = subprocess.run([sys.executable, *sys.argv[1:]]).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)
"""


def peak_mb(code: str, args: list[str], cwd: Path) -> float:
    """Peak resident set of a fresh ``python -c code args`` child, in MB (10^6 bytes):
    ``RUSAGE_CHILDREN`` of a small launcher that ran it (see LAUNCHER); SystemExit if the
    child fails."""
    proc = subprocess.run([sys.executable, "-c", LAUNCHER, "-c", code, *args], cwd=cwd,
                          capture_output=True, text=True)
    *_, last = proc.stdout.strip().splitlines() or [""]
    maxrss, status = (last.split() + ["", ""])[:2]
    if proc.returncode != 0 or status != "0":
        raise SystemExit(f"a memory child failed ({status or proc.returncode}): "
                         f"{(proc.stdout + proc.stderr)[-2000:]}")
    kilobytes = int(maxrss) / (1024 if sys.platform == "darwin" else 1)  # macOS: bytes
    return kilobytes * 1024 / 1e6


def memory(pages: int, repeats: int, seed: int) -> list[str]:
    """Peak memory of each child (floor, trees, imports, compile) on a content of
    ``pages`` pages, ``repeats`` interleaved rounds: the lines to print."""
    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        folder = Path(tmp)
        content = write_content(folder, pages, -(-pages // PAGES_PER_FILE), seed)
        grammar = folder / "grammar.lark"
        grammar.write_text(grammar_text(), encoding="utf-8")
        children = {
            "floor": (FLOOR_CHILD, [str(grammar), json.dumps(PARSER_OPTIONS), str(content),
                                    "drop"]),
            "trees": (FLOOR_CHILD, [str(grammar), json.dumps(PARSER_OPTIONS), str(content),
                                    "keep"]),
            "imports": (IMPORTS_CHILD, [str(ROOT)]),
            "compile": (COMPILE_CHILD, [str(ROOT), str(content), ",".join(CORPUS_FINDINGS)]),
        }
        peaks: dict[str, list[float]] = {name: [] for name in children}
        for _ in range(repeats):
            for name, (code, args) in children.items():
                peaks[name].append(peak_mb(code, args, folder))
    labels = {
        "floor": "plain lark: read + parse every file, one tree at a time (the floor)",
        "trees": "plain lark, every tree kept",
        "imports": "compile's imports only, no file read",
        "compile": "compile_content of the whole content",
    }
    floor_min, floor_median = min(peaks["floor"]), statistics.median(peaks["floor"])
    lines = [f"peak memory of a fresh child, {pages:,} pages, {repeats} interleaved children "
             f"of each (ru_maxrss, MB = 10^6 bytes)"]
    for name, values in peaks.items():
        best, median = min(values), statistics.median(values)
        line = f"  {name:<8} min {best:7.1f} MB  median {median:7.1f} MB"
        if name in ("trees", "compile"):
            line += (f"  {'×%.2f' % (best / floor_min):>6} floor "
                     f"(median ×{median / floor_median:.2f})")
        if name == "compile":
            verdict = "within" if best < MEMORY_TARGET_MB else "NOT within"
            line += f"  target < {MEMORY_TARGET_MB} MB" + (
                f" at 10,000 pages: {verdict}" if pages == 10000 else " (at 10,000 pages)")
        lines.append(f"{line}  — {labels[name]}")
    return lines


def _sizes(values: list[str] | None) -> list[int] | None:
    """``--sizes 1000,5000,10000`` or ``--sizes 1000 5000 10000``."""
    if not values:
        return None
    return [int(part) for value in values for part in value.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", default=None,
                        help=f"pages per run (default: {','.join(map(str, SIZES))})")
    parser.add_argument("--repeats", type=int, default=None, help="default 3 (--quick: 2)")
    parser.add_argument("--quick", action="store_true",
                        help=f"smaller sizes ({','.join(map(str, QUICK_SIZES))}), 2 repeats")
    parser.add_argument("--memory-pages", type=int, default=None,
                        help="pages of the memory children (default: the largest size; "
                             "0: no memory measure)")
    parser.add_argument("--memory-repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024, help="the corpus seed")
    args = parser.parse_args(argv)
    sizes = _sizes(args.sizes) or list(QUICK_SIZES if args.quick else SIZES)
    repeats = args.repeats or (2 if args.quick else 3)
    memory_pages = max(sizes) if args.memory_pages is None else args.memory_pages

    started = time.perf_counter()
    print(machine_line("bench_scale: lint and compile per page, and peak memory, "
                       "vs a plain lark parse"))
    floor_parser = lark_floor()
    get_parser()  # our parser is built once per process, outside the timings
    os.environ["JIBUNKI_NO_CACHE"] = "1"  # no file cache: every run parses every file
    print(f"{repeats} interleaved rounds per size, {PAGES_PER_FILE} pages per file, "
          f"seed {args.seed}, file caches off")
    per_page: dict[int, dict[str, float]] = {}
    for pages in sizes:
        with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
            times = measure(pages, repeats, floor_parser, Path(tmp), args.seed)
        per_page[pages] = {name: min(times[name]) / pages for name in MEASURES}
        print(f"{pages:>6} pages")
        print("\n".join(figure_rows(times, "floor", pages)), flush=True)
    if len(set(sizes)) > 1:
        print("\n".join(growth(sizes, per_page)), flush=True)
    if memory_pages > 0:
        print("\n".join(memory(memory_pages, args.memory_repeats, args.seed)))
    print(f"whole run: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
