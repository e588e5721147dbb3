"""Do lint and compile grow linearly with the number of pages?

    python benchmarks/bench_scale.py [--sizes 1000 5000 10000] [--repeats 3] [--quick]

For each size N the synthetic content (``corpus.write_content``: N varied, valid pages in
files of PAGES_PER_FILE, the project's balance, a starting deck, a few enemies) is written
once, then timed in interleaved repeats — so that a slow moment of the machine lands on
every measure alike, not on one:

* floor: a plain ``lark.Lark`` built here from the same grammar text with the same options
  parses every file's text (no AST, no checks) — the plainest tool doing the parse;
* lint: ``compiler.lint.check`` of the content folder;
* compile: ``compiler.build.compile_content`` in memory (check, lower, validate, render).

Printed per size: min and median seconds, milliseconds per page, and each measure's ratio
to the floor measured in the same run (min / min). Linear code shows the same per-page
figure and the same ratio at every size; a quadratic pass shows a ratio that grows with N.
Figures only; nothing here asserts on timing.

Two things to read the figures by. The floor keeps Python's cyclic collector on, as a
plain parse does, and so slows a little per page as the heap grows; lint pauses it while
it builds the model (compiler/lint.py), so at large sizes lint can come out near or under
the floor. And compile is mostly schema validation and rendering (jsonschema and pprint,
each about 1.8 ms a page): the default run takes about 5 minutes on 2 cores, ``--quick``
about 25 seconds.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from compiler.build import compile_content  # noqa: E402
from compiler.lint import check  # noqa: E402
from corpus import write_content  # noqa: E402
from dsl.parser import get_parser, grammar_text  # noqa: E402

SIZES = (1000, 5000, 10000)
QUICK_SIZES = (200, 500, 1000)
PAGES_PER_FILE = 100
MEASURES = ("floor", "lint", "compile")


def lark_floor():
    """A Lark of our grammar and options, built here: the parse with nothing of ours."""
    from lark import Lark

    return Lark(grammar_text(), parser="lalr", propagate_positions=True,
                maybe_placeholders=True, strict=True)


def _timed(action) -> tuple[float, object]:
    gc.collect()  # one run's garbage is not collected inside the next one's timing
    start = time.perf_counter()
    value = action()
    return time.perf_counter() - start, value


def measure(pages: int, repeats: int, floor_parser, folder: Path) -> dict[str, list[float]]:
    """Seconds of each measure, ``repeats`` times, interleaved; raises SystemExit when
    the corpus does not check clean (timing error paths would measure the wrong thing)."""
    content = write_content(folder, pages, -(-pages // PAGES_PER_FILE))
    texts = [p.read_text(encoding="utf-8") for p in sorted(content.rglob("*")) if p.is_file()]
    actions = {
        "floor": lambda: [floor_parser.parse(text) for text in texts],
        "lint": lambda: check([content]),
        "compile": lambda: compile_content(content),
    }
    times: dict[str, list[float]] = {name: [] for name in MEASURES}
    for _ in range(repeats):
        for name in MEASURES:
            seconds, value = _timed(actions[name])
            times[name].append(seconds)
            problems = getattr(value, "diagnostics", [])
            if problems:
                for diag in problems[:10]:
                    print(f"  {diag.span}: {diag.code} {diag.message}", file=sys.stderr)
                raise SystemExit(f"{name}: the corpus of {pages} pages is not clean")
            del value
    return times


def report(pages: int, times: dict[str, list[float]]) -> list[str]:
    floor = min(times["floor"])
    lines = [f"{pages:>6} pages"]
    for name in MEASURES:
        best, median = min(times[name]), statistics.median(times[name])
        ratio = "" if name == "floor" else f"  ×{best / floor:5.2f} floor"
        lines.append(f"  {name:<8} min {best:7.3f} s  median {median:7.3f} s  "
                     f"{best / pages * 1000:6.3f} ms/page{ratio}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=None,
                        help=f"pages per run (default: {' '.join(map(str, SIZES))})")
    parser.add_argument("--repeats", type=int, default=None, help="default 3 (--quick: 2)")
    parser.add_argument("--quick", action="store_true",
                        help=f"smaller sizes ({' '.join(map(str, QUICK_SIZES))}), 2 repeats")
    args = parser.parse_args(argv)
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    repeats = args.repeats or (2 if args.quick else 3)

    started = time.perf_counter()
    floor_parser = lark_floor()
    get_parser()  # our parser is built once per process, outside the timings
    print(f"lint and compile vs a plain lark parse; {repeats} interleaved repeats, "
          f"{PAGES_PER_FILE} pages per file")
    for pages in sizes:
        with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
            times = measure(pages, repeats, floor_parser, Path(tmp))
        print("\n".join(report(pages, times)), flush=True)
    print(f"whole run: {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
