"""How long does `jibunki lint` of the bundled content take as a whole process, next to a
bare Python that only imports what the command line needs (click and lark)?

    python benchmarks/bench_lint.py [--repeats 7] [--content content]

Every row is a fresh process started from the repository root (output captured), timed
wall-clock in ``--repeats`` interleaved rounds (one of each row, then again …) after one
untimed warm-up round:

* floor: ``python -c "import click, lark"`` — the same interpreter the ``jibunki`` script
  runs (its shebang), so the row is the start of Python plus the two imports;
* start-up: ``jibunki --help`` (the command line imports lark only inside its commands);
* lint warm: ``jibunki lint`` with a cache folder (``XDG_CACHE_HOME``, private to this run)
  that earlier runs filled — the parser's tables and whatever per-file cache the project
  keeps there: a second lint when nothing changed, target ≤ 2× the floor;
* lint one edit: a lint after the designer changed one file — a private copy of the
  content (``--content`` pointing at it) whose first page file gets one more comment line
  before each run, with a cache folder earlier runs filled: the findings cannot come from
  the lint cache, the other files' parses do;
* lint cold files: a fresh ``XDG_CACHE_HOME`` for each run holding only the parser's
  tables (the ``grammar-*.cache`` files copied from the warm folder): every file parsed,
  the parser not rebuilt — a lint after every file changed;
* lint cold: a fresh, empty ``XDG_CACHE_HOME`` for each run: the LALR tables are built
  from the grammar too — the first lint after an install or a grammar change;
* lint no cache: ``JIBUNKI_NO_CACHE=1`` — nothing read from or written to a cache.

The project's modules are byte-compiled first (``compileall`` into their __pycache__,
ignored by git), as the libraries of the floor are by their install: with
PYTHONDONTWRITEBYTECODE set, Python would otherwise compile jibunki's sources on every
run and not the floor's, and the rows would time that difference.

Printed: min and median of each, its ratio to the floor of the same run (min/min, and
median/median), and the lint rows' ratio to the start-up row. Throughput per page on big
content is bench_scale.py's, compile is bench_compile.py's. Figures only, no assertion on
time. The default run takes about 25 seconds on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for corpus.py beside this file

from corpus import figure_rows, interleaved, machine_line  # noqa: E402

#: The project's packages, byte-compiled before timing.
PACKAGES = ("catalog", "commands", "compiler", "contract", "dsl", "runtime", "scenario", "sim", "terminal")
TARGET = 2.0  # a warm lint ≤ 2× the bare `python -c "import click, lark"`
FLOOR, STARTUP, WARM, EDIT = "floor", "start-up (--help)", "lint warm", "lint one edit"


def jibunki_command() -> list[str]:
    """The installed ``jibunki`` script beside this interpreter (not a shim in front of
    it, which would time the shim), else the one on PATH, else ``python cli.py``."""
    beside = Path(sys.executable).with_name("jibunki")
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("jibunki")
    return [found] if found else [sys.executable, str(ROOT / "cli.py")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--content", default=None,
                        help="what to lint (default: nothing named, i.e. content/)")
    args = parser.parse_args(argv)

    jibunki = jibunki_command()
    lint = [*jibunki, "lint", *([args.content] if args.content else [])]
    base = {k: v for k, v in os.environ.items() if k not in ("JIBUNKI_NO_CACHE", "XDG_CACHE_HOME")}

    import compileall

    for package in PACKAGES:
        compileall.compile_dir(str(ROOT / package), quiet=1)
    compileall.compile_file(str(ROOT / "cli.py"), quiet=1)
    print(machine_line("bench_lint: `jibunki lint` as a process vs a bare "
                       "`python -c \"import click, lark\"`"))
    print(f"floor: {sys.executable} -c \"import click, lark\"; lint: {' '.join(lint)} "
          f"(cwd {ROOT})")

    with tempfile.TemporaryDirectory(prefix="jibunki-bench-") as tmp:
        root = Path(tmp)
        warm_home = root / "warm"
        warm_home.mkdir(mode=0o700)
        edit_home = root / "edit"
        edit_home.mkdir(mode=0o700)
        source = Path(args.content) if args.content else ROOT / "content"
        copy = root / "content"
        shutil.copytree(source, copy)
        edited = sorted(copy.rglob("*.page"))[0]
        edits = iter(range(10 ** 9))
        fresh: dict[str, Path] = {}
        counter = iter(range(10 ** 9))

        def new_home(name: str, tables: bool) -> None:
            home = root / f"fresh-{next(counter)}"
            home.mkdir(mode=0o700)
            if tables:
                (home / "jibunki").mkdir(mode=0o700)
                for table in (warm_home / "jibunki").glob("grammar-*.cache"):
                    shutil.copy2(table, home / "jibunki" / table.name)
            fresh[name] = home

        def run(command: list[str], **env: str):
            return lambda: subprocess.run(command, cwd=ROOT, capture_output=True,
                                          env={**base, **env})

        def in_fresh(name: str):
            return lambda: run(lint, XDG_CACHE_HOME=str(fresh[name]))()

        actions = {
            FLOOR: run([sys.executable, "-c", "import click, lark"]),
            STARTUP: run([*jibunki, "--help"]),
            WARM: run(lint, XDG_CACHE_HOME=str(warm_home)),
            EDIT: run([*jibunki, "lint", "--content", str(copy)],
                      XDG_CACHE_HOME=str(edit_home)),
            "lint cold files": in_fresh("lint cold files"),
            "lint cold": in_fresh("lint cold"),
            "lint no cache": run(lint, JIBUNKI_NO_CACHE="1"),
        }
        def edit() -> None:
            with edited.open("a", encoding="utf-8") as out:
                out.write(f"# bench edit {next(edits)}\n")

        prepare = {EDIT: edit,
                   "lint cold files": lambda: new_home("lint cold files", tables=True),
                   "lint cold": lambda: new_home("lint cold", tables=False)}

        def look(name: str, proc) -> None:
            """Refuse to time an error path: every process must succeed."""
            if proc.returncode != 0:
                raise SystemExit(f"{name}: exit {proc.returncode}\n"
                                 f"{(proc.stdout + proc.stderr).decode(errors='replace')[-2000:]}")

        # Warm-up round (not counted): fills the warm cache, loads the files into the
        # page cache. The warm folder is filled by its own row before the cold-files row
        # copies the parser's tables out of it.
        interleaved(actions, 1, look, prepare)
        tables = sorted(p.name for p in (warm_home / "jibunki").glob("grammar-*.cache"))
        print(f"{args.repeats} interleaved rounds after 1 warm-up round; the warm cache holds "
              f"{sum(1 for p in warm_home.rglob('*') if p.is_file())} file(s), {len(tables)} of "
              f"them the parser's tables (copied into each 'cold files' folder)")

        times = interleaved(actions, args.repeats, look, prepare)

    print("\n".join(figure_rows(times, FLOOR, targets={WARM: f"≤ {TARGET:g}× floor"})))
    startup_min, startup_median = min(times[STARTUP]), statistics.median(times[STARTUP])
    print("vs start-up (jibunki --help), min over min (median over median):")
    for name in actions:
        if name.startswith("lint"):
            print(f"  {name:<16} ×{min(times[name]) / startup_min:.2f} "
                  f"(×{statistics.median(times[name]) / startup_median:.2f})")
    ratio = min(times[WARM]) / min(times[FLOOR])
    print(f"lint warm / floor: ×{ratio:.2f} — target ≤ {TARGET:g}×: "
          f"{'within' if ratio <= TARGET else 'NOT within'} (min over min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
