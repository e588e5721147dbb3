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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from compiler.lint import check, read  # noqa: E402
from corpus import best_of, write_corpus  # noqa: E402
from dsl.parser import get_parser, parse  # noqa: E402


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
