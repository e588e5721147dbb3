"""How does `jibunki compile` of a big content folder compare with a plain lark parse of it?

    python benchmarks/bench_compile.py [--pages 2000] [--repeats 5] [--seed 2024]

Synthesizes ``--pages`` varied, valid pages (``corpus.write_content``, seeded: the same
arguments write the same bytes; files of PAGES_PER_FILE pages, plus the project's balance,
a starting deck and a few enemies) in a temporary folder, then times, in ``--repeats``
interleaved rounds (floor, our parse, compile, floor, our parse, compile, …):

* floor: a plain ``lark.Lark`` of the project's grammar and options (``corpus.lark_floor``,
  built once here) parses every file's text — lark's tree, nothing else, each tree
  dropped before the next parse;
* our parse: ``dsl.parser.parse`` of every file's text (lark plus our AST), an extra row;
* compile: ``compiler.build.compile_content`` in memory (read, parse, check, lower,
  validate, render the tables).

Printed: min and median of each, milliseconds per page, and each one's ratio to the floor
of the same run (min/min and median/median). The ratio that matters is compile vs the
floor, target ≤ 3×; compile vs our parse is printed too. Both parsers are built before
the timings, and one untimed warm-up round runs first (imports, first-use caches). File
caches are turned off (``JIBUNKI_NO_CACHE=1`` once our parser is built), so every compile
parses every file: this measures the compile, not a cache. Per-page growth with the size
of the content, and peak memory, are bench_scale.py's. Figures only, no assertion on time.
The default run takes about 40 seconds on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from compiler.build import compile_content  # noqa: E402
from corpus import figure_rows, interleaved, lark_floor, machine_line, write_content  # noqa: E402
from dsl.parser import get_parser, parse  # noqa: E402

PAGES_PER_FILE = 100
TARGET = 3.0  # compile ≤ 3× the plain lark parse of the same text


def _parse_each(parser, texts: list[tuple[str, str]]) -> None:
    """The floor: every text parsed, each tree dropped before the next parse."""
    for text, _ in texts:
        parser.parse(text)


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--pages", type=int, default=2000)
    args.add_argument("--repeats", "--repeat", type=int, default=5,
                      help="interleaved rounds (default 5)")
    args.add_argument("--seed", type=int, default=2024, help="the corpus seed")
    opts = args.parse_args(argv)

    print(machine_line("bench_compile: compile vs a plain lark parse of the same text"))
    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        content = write_content(Path(tmp), opts.pages, -(-opts.pages // PAGES_PER_FILE),
                                opts.seed)
        files = sorted(p for p in content.rglob("*") if p.is_file())
        texts = [(p.read_text(encoding="utf-8"), str(p)) for p in files]
        size = sum(len(t.encode("utf-8")) for t, _ in texts)
        floor = lark_floor()
        get_parser()  # ours, built once per process, outside the timings
        os.environ["JIBUNKI_NO_CACHE"] = "1"  # no file cache from here on: every run parses

        actions = {
            "lark parse (floor)": lambda: _parse_each(floor, texts),
            "our parse": lambda: [parse(t, p) for t, p in texts],
            "compile": lambda: compile_content(content),
        }

        def look(name: str, value) -> None:
            """Refuse to time error paths: the synthesized content must compile clean."""
            diagnostics = getattr(value, "diagnostics", None)
            if name == "our parse":
                diagnostics = [d for result in value for d in result.diagnostics]
            errors = [d for d in diagnostics or () if d.is_error]
            if errors:
                for diag in errors[:10]:
                    print(f"  {diag.span}: {diag.code} {diag.message}", file=sys.stderr)
                raise SystemExit(f"{name}: the synthesized content has {len(errors)} errors")

        interleaved(actions, 1, look)  # warm-up round, not counted
        compiled = compile_content(content)
        pages = len(compiled.tables["pages"]["pages"])
        output = sum(len(text.encode("utf-8")) for text in compiled.files.values())
        del compiled
        print(f"content: {pages} pages in {len(files)} files (seed {opts.seed}), "
              f"{size / 1024:.0f} KiB → tables {output / 1024:.0f} KiB; "
              f"{opts.repeats} interleaved rounds after 1 warm-up round; file caches off")

        times = interleaved(actions, opts.repeats, look)

    print("\n".join(figure_rows(times, "lark parse (floor)", pages,
                                targets={"compile": f"≤ {TARGET:g}× floor"})))
    compile_min, ours_min = min(times["compile"]), min(times["our parse"])
    compile_med, ours_med = (statistics.median(times["compile"]),
                             statistics.median(times["our parse"]))
    ratio = compile_min / min(times["lark parse (floor)"])
    print(f"compile / our parse: ×{compile_min / ours_min:.2f} (median "
          f"×{compile_med / ours_med:.2f})")
    print(f"compile / lark floor: ×{ratio:.2f} — target ≤ {TARGET:g}×: "
          f"{'within' if ratio <= TARGET else 'NOT within'} (min over min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
