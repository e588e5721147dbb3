"""benchmarks/sim_verdicts.py: how bench_sim_report compares the lab's verdicts with another
revision's — a page clear of 0 there must not be contradicted here (the opposite verdict,
or an interval with no value in common); a verdict moved to 差なし within the other's
interval is told, not failed."""

from __future__ import annotations

import json
import sys

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import sim_verdicts  # noqa: E402


def _page(ident: str, low: float, high: float) -> dict:
    verdict = "stronger" if low > 0 else "weaker" if high < 0 else "no_effect"
    return {"id": ident, "verdict": verdict, "delta": {"estimate": (low + high) / 2,
                                                      "low": low, "high": high},
            "verdicts_by_policy": {"greedy": verdict}}


def _report(*pages) -> dict:
    return {"run": {"battles": 1000}, "settings": {"policy": "greedy"}, "pages": list(pages)}


@pytest.mark.parametrize("before, after, failed", [
    ((-0.06, -0.002), (-0.048, 0.006), False),  # e658d86's tabidachi, and since: they meet
    ((0.001, 0.057), (-0.0, 0.059), False),     # umarekawari
    ((0.03, 0.09), (-0.01, 0.02), True),        # 差なし, but wholly below the old interval
    ((0.01, 0.09), (-0.05, -0.005), True),      # the opposite verdict
    ((0.01, 0.09), (0.02, 0.05), False),        # the same verdict
    ((-0.01, 0.05), (0.02, 0.08), False),       # touching 0 before: any verdict now
])
def test_a_page_clear_of_zero_fails_only_when_the_other_report_contradicts_it(
        tmp_path, capsys, before, after, failed):
    paths = []
    for name, interval in (("old", before), ("new", after)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(_report(_page("p", *interval))), encoding="utf-8")
        paths.append(str(path))
    assert sim_verdicts.main(paths) == (1 if failed else 0)
    said = capsys.readouterr().out
    assert f"verdicts contradicted where the old interval was clear of 0: {int(failed)}" in said


def test_a_page_missing_from_the_new_report_fails(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(_report(_page("p", 0.01, 0.05))), encoding="utf-8")
    new.write_text(json.dumps(_report()), encoding="utf-8")
    assert sim_verdicts.main([str(old), str(new)]) == 1
