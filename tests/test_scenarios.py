"""Every scenario (例) of the bundled content and of the fixtures, collected by pytest.

A scenario lives in content/tests/*.scenario or right under a page or enemy; each one
becomes a test here, named by its file, line and title.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from scenario.stage import lint as check
from conftest import ROOT

FOLDERS = (ROOT / "content", ROOT / "tests" / "fixtures" / "worked" / "content")


@cache
def results(folder: Path):
    result = check([folder])
    errors = [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics
              if d.is_error and d.code != "E044"]
    return errors, {(Path(r.path).resolve(), r.line): r for r in result.examples}


def _cases():
    cases = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".page", ".enemy", ".scenario"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if line.startswith(("例", "example")):
                    rel = path.relative_to(ROOT).as_posix()
                    cases.append(pytest.param(folder, rel, number, id=f"{rel}:{number}"))
    return cases


@pytest.mark.parametrize("folder, path, line", _cases())
def test_scenario(folder, path, line):
    errors, by_place = results(folder)
    assert not errors, errors
    result = by_place.get(((ROOT / path).resolve(), line))
    assert result is not None, f"{path}:{line} did not run"
    assert result.passed, "\n".join(
        f"{path}:{f.line}:{f.col}: {f.message}" for f in result.failures)
