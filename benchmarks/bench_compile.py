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
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from compiler.build import compile_content  # noqa: E402
from corpus import best_of, write_content  # noqa: E402
from dsl.parser import get_parser, parse  # noqa: E402

PAGES_PER_FILE = 100


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--pages", type=int, default=2000)
    args.add_argument("--repeat", type=int, default=3)
    opts = args.parse_args()

    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        content = write_content(Path(tmp), opts.pages, -(-opts.pages // PAGES_PER_FILE))
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
