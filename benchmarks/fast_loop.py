"""The fast loop's slowest tests: which tests of ``pytest -m "not slow"`` took half a second
or more in a run of the whole suite, the candidates for ``@pytest.mark.slow``.

The fast loop (``python3 -m pytest -m "not slow"``) is to stay under a minute on 2 cores
while the whole suite runs everything. Its time is spread over thousands of tests, so it
grows by tests that each take a little too long; this lists them from a run's JUnit file,
with their share of the loop. Figures, not a verdict: a test's time moves with the hour's
calibration (benchmarks/calibrate.py) and with what the other worker runs beside it.

    python3 -m pytest --junitxml=/tmp/suite.xml
    python3 benchmarks/fast_loop.py /tmp/suite.xml [--over 0.5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fast_ids() -> set[str]:
    """The ids of the tests the fast loop collects."""
    shown = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow",
         "-p", "no:cacheprovider", "-o", "addopts="],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return {line.strip() for line in shown.splitlines() if "::" in line}


def times_by_function(junit: Path, wanted: set[str]) -> dict[str, list[float]]:
    """Each wanted test function's times (one per parameter set), from a JUnit file."""
    found: dict[str, list[float]] = defaultdict(list)
    for case in ET.parse(junit).iter("testcase"):
        module = case.get("classname", "").split(".")
        name = case.get("name", "")
        test_id = f"tests/{module[-1]}.py::{name}"
        if test_id in wanted:
            found[test_id.split("[")[0]].append(float(case.get("time", 0)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junit", type=Path, help="the JUnit XML of a whole-suite run")
    parser.add_argument("--over", type=float, default=0.5,
                        help="list the test functions one case of which took this many seconds")
    options = parser.parse_args()
    found = times_by_function(options.junit, fast_ids())
    if not found:
        print("no test of the fast loop in that file", file=sys.stderr)
        return 1
    total = sum(sum(times) for times in found.values())
    over = sorted(((max(t), sum(t), len(t), f) for f, t in found.items() if max(t) >= options.over),
                  reverse=True)
    print(f"fast loop: {sum(len(t) for t in found.values())} tests, {total:.1f} s of test time")
    for longest, summed, cases, function in over:
        print(f"{longest:6.2f} s  ({summed:5.2f} s in {cases} case{'s' if cases > 1 else ''})  "
              f"{function}")
    share = sum(row[1] for row in over)
    print(f"{len(over)} functions over {options.over} s: {share:.1f} s, "
          f"{100 * share / total:.0f}% of the fast loop's test time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
