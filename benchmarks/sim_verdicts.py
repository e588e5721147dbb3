"""Compare the verdicts of two ``jibunki sim --format json`` reports (a faster lab against
the one before it, on the same settings).

    python benchmarks/sim_verdicts.py OLD.json NEW.json

Printed: the battles of each run and their ratio; for every page, its verdict in each
(the main policy's and every rung's); the pages the two reports contradict (the ones that
must agree); the pages whose verdict differs otherwise. Two reports contradict each other
on a page whose interval is clear of 0 in OLD when NEW's verdict is the opposite one (強い
against 弱い) or NEW's interval does not meet OLD's: each report measures the page to its
own precision on its own pairs, so an interval that clears 0 by less than that may touch
0 in the other (差なし) without either being wrong — e658d86's tabidachi [-6.0, -0.2] and
umarekawari [+0.1, +5.7] points did, against [-4.8, +0.6] and [0.0, +5.9] since. Exit 1
when a page is contradicted (or missing).
"""

from __future__ import annotations

import json
import sys


def clear(row: dict) -> bool:
    return row["delta"]["low"] > 0 or row["delta"]["high"] < 0


def contradicted(old: dict, new: dict) -> bool:
    """Whether ``new``'s figure for a page contradicts ``old``'s, whose interval is clear of
    0: the opposite verdict, or two intervals with no value in common."""
    a, b = old["delta"], new["delta"]
    opposite = clear(new) and (a["low"] > 0) != (b["low"] > 0)
    return opposite or b["high"] < a["low"] or b["low"] > a["high"]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python benchmarks/sim_verdicts.py OLD.json NEW.json", file=sys.stderr)
        return 2
    try:
        old, new = (json.loads(open(path, encoding="utf-8").read()) for path in argv)
    except (OSError, ValueError) as exc:
        print(f"sim_verdicts: cannot read a report: {exc}", file=sys.stderr)
        return 2
    ob, nb = old["run"]["battles"], new["run"]["battles"]
    print(f"battles: {ob:,} → {nb:,} ({nb / ob:.2f}×)")
    rows = {r["id"]: r for r in new["pages"]}
    must, may = [], []
    for row in old["pages"]:
        other = rows.get(row["id"])
        if other is None:
            must.append((row["id"], row["verdict"], "missing"))
            continue
        if row["verdict"] != other["verdict"]:
            (must if clear(row) and contradicted(row, other) else may).append(
                (row["id"], row["verdict"], other["verdict"]))
        for policy, verdict in row["verdicts_by_policy"].items():
            if policy != old["settings"]["policy"] and \
                    other["verdicts_by_policy"].get(policy) != verdict:
                may.append((f"{row['id']} ({policy})", verdict,
                            other["verdicts_by_policy"].get(policy)))
    pages = len(old["pages"])
    print(f"pages: {pages}; clear of 0 in the old report: {sum(map(clear, old['pages']))}")
    print(f"verdicts contradicted where the old interval was clear of 0: {len(must)}")
    for item in must:
        print("  ", *item)
    print("other changes (an interval touching 0 in either report, within the other's "
          f"interval, or a lower rung): {len(may)}")
    for item in may:
        print("  ", *item)
    return 1 if must else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
