"""Lint grows linearly with the content: no pass walks all pages once per page.

These count work, never time it: the figures are benchmarks/bench_scale.py's to print.
"""

from __future__ import annotations

import gc
import pathlib
import subprocess
import sys

import pytest

import compiler.symbols
from compiler.lint import check, check_text
from conftest import ROOT

#: A service, a browser, a terminal or a search of seconds: left out of the fast loop.
pytestmark = pytest.mark.slow

ORIGINS = ("幼少期", "青年期", "老年期")


def _pages(count: int) -> str:
    """``count`` pages, each with an 出自 and a 生成 filtered by one."""
    return "".join(
        f"ページ p{i} {{\n  銘 {i % 100}\n  出自 {ORIGINS[i % 3]}\n  未来面 {{\n"
        f"    生成 出自 {ORIGINS[(i + 1) % 3]} -> 手札 寿命 ステージ\n  }}\n"
        f"  ペン 過去面 {{ 歩 += 5 }}\n}}\n"
        for i in range(count))


class _CountingPages(dict):
    walks = 0

    def values(self):
        type(self).walks += 1
        return super().values()


def test_the_origins_of_all_pages_are_gathered_once_per_run(monkeypatch):
    collect = compiler.symbols.collect

    def counting(files, diags):
        symbols = collect(files, diags)
        symbols.pages = _CountingPages(symbols.pages)
        return symbols

    monkeypatch.setattr(compiler.symbols, "collect", counting)
    _CountingPages.walks = 0
    result = check_text(_pages(60))
    assert result.diagnostics == []
    assert sum(1 for p in result.model["pages"] if p is not None) == 60
    # 60 出自 filters and their 生成 pools (W005), one walk over the pages (it was one
    # walk per filter: N²)
    assert _CountingPages.walks == 1


def test_context_files_are_matched_to_named_files_once_each(tmp_path, monkeypatch):
    files = 40
    for i in range(files):
        (tmp_path / f"f{i:02d}.page").write_text(f"ページ p{i} {{ 銘 1; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }} }}\n",
                                                 encoding="utf-8")
    calls = 0
    resolve = pathlib.Path.resolve

    def counting(self, *args, **kwargs):
        nonlocal calls
        calls += 1
        return resolve(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "resolve", counting)
    result = check([tmp_path], [tmp_path])
    assert result.errors == 0 and result.files == files
    # a few per file (discovery, matching); once per pair of files would be 1,600
    assert calls < 10 * files, calls


def test_the_collector_is_as_the_caller_left_it_after_a_check():
    text = _pages(3)
    assert gc.isenabled()
    check_text(text)
    assert gc.isenabled()
    gc.disable()
    try:
        check_text(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_bench_scale_runs_on_a_tiny_corpus():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_scale.py"),
                           "--sizes", "30", "--repeats", "1", "--memory-repeats", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for measure in ("floor", "lint", "compile"):
        assert f"  {measure}" in proc.stdout
    assert proc.stdout.count("floor") >= 3  # its own line, and lint's and compile's ratio


def test_did_you_mean_in_a_big_project_compares_few_names_and_still_finds_the_typo(
        monkeypatch):
    import compiler.names

    compared = []
    close_matches = compiler.names.difflib.get_close_matches

    def counting(word, possibilities, *args, **kwargs):
        compared.append(len(possibilities))
        return close_matches(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(compiler.names.difflib, "get_close_matches", counting)
    pages = compiler.names.LARGE * 2
    project = "".join(f"ページ page_{i}_name {{ 銘 1; 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }} }}\n"
                      for i in range(pages))
    text = "ページ t {\n  銘 2\n  未来面 { 条件 手札[page_42_nmae] >= 1; 敵HP -= 1 }\n  ペン 過去面 { 歩 += 5 }\n}\n"
    (diag,) = check_text(text, "t.page", {"project.page": project}).diagnostics
    assert (diag.code, diag.span.line, diag.span.col) == ("E011", 3, 15)
    assert "page_42_name" in diag.hint
    # difflib saw a narrowed handful, not every page of the project
    assert compared and max(compared) <= compiler.names.NARROWED
