"""Shared helpers: check text in memory and look at the codes it produced."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# pytest keeps each test file's assert-rewritten bytecode only while bytecode may be
# written: with PYTHONDONTWRITEBYTECODE set, every run and every worker rewrote the 220
# test modules afresh (10 s of the fast loop's minute). The suite's bytecode goes to
# __pycache__ folders, which git ignores and nothing of the suite reads as content.
sys.dont_write_bytecode = False

from compiler.lint import check_text  # noqa: E402



@functools.cache
def bundled_tables():
    """The bundled tables (generated/), loaded once per test process and shared by the
    modules that read them at import: each worker imports every test module to collect
    it, and a load parses generated/ afresh (some 0.13 s). Read only: a test that changes
    tables builds its own."""
    from runtime.tables import load

    return load()


def bundled_balance() -> str:
    """content/balance.balance, for content of a test's own: less its 基準ページ line, which
    names a page of the bundled starting deck that such content need not hold (E011)."""
    text = (ROOT / "content" / "balance.balance").read_text(encoding="utf-8")
    return re.sub(r"(?m)^[ \t]*基準ページ[ \t].*\n", "", text)


def codes(text: str, path: str = "t.page", context: dict | None = None) -> list[str]:
    return [d.code for d in check_text(text, path, context).diagnostics]


#: small_content's starting deck and enemy.
SMALL_STARTER = """デッキ starter "はじめの自分紀" {
  hatsu_koe
  sakamichi
  himitsu_kichi
  ehon
  kenka
}
"""
SMALL_ENEMY = """敵 kiri "霧" {
  HP 80
  座 30
  突破ライン 140
  予兆 [ 攻撃 10 ]
}
"""


def small_content(folder: Path) -> Path:
    """A small content in ``folder``: the bundled balance, 幼少期's ten pages, a five-page
    starter deck and one enemy — what the print tests render in seconds."""
    import shutil

    (folder / "pages").mkdir(parents=True)
    (folder / "enemies").mkdir()
    shutil.copy(ROOT / "content" / "balance.balance", folder)
    shutil.copy(ROOT / "content" / "pages" / "幼少期.page", folder / "pages")
    (folder / "starter.deck").write_text(SMALL_STARTER, encoding="utf-8")
    (folder / "enemies" / "霧.enemy").write_text(SMALL_ENEMY, encoding="utf-8")
    return folder


def loaded_by(statement: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` (top-level names or dotted) a fresh interpreter has loaded after
    running ``statement`` in the project: what a lazy import keeps out of start-up."""
    import subprocess
    import sys

    import json

    code = (f"import json, sys; {statement}; "
            f"print(json.dumps(sorted(m for m in {list(modules)!r} if m in sys.modules "
            f"or any(k.startswith(m + '.') for k in sys.modules))))")
    shown = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout
    return json.loads(shown)


def invoke_cli(*args: str, input: str | None = None, env: dict | None = None):
    """``jibunki ARGS`` through click's test runner, which must end without a traceback
    (a SystemExit is how a command gives its exit status), whatever it prints."""
    from click.testing import CliRunner

    from cli import main

    result = CliRunner().invoke(main, list(args), input=input, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"traceback: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output, result.output
    return result


def full_disk_from(monkeypatch, call: int) -> None:
    """``os.fsync`` failing with ENOSPC from its ``call``-th call on: a disk that fills
    part-way through a write (``monkeypatch.undo()`` gives the disk back)."""
    real, calls = os.fsync, []

    def full(fd):
        calls.append(fd)
        if len(calls) >= call:
            raise OSError(28, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", full)


@pytest.fixture
def at_root(monkeypatch):
    """Run from the project's root, where content/ is the default content."""
    monkeypatch.chdir(ROOT)


@pytest.fixture
def lint_text():
    return check_text


def compiled_tables(content: Path):
    """Runtime tables compiled in memory from a content folder (which must be clean)."""
    from compiler.build import compile_content
    from runtime.tables import from_dicts

    compiled = compile_content(content)
    assert compiled.ok, [f"{d.span}: {d.code} {d.message}" for d in compiled.diagnostics]
    return from_dicts(compiled.tables)


@pytest.fixture
def content(tmp_path):
    """A copy of the bundled content in a temporary folder, free to change or spoil."""
    import shutil

    folder = tmp_path / "content"
    shutil.copytree(ROOT / "content", folder)
    return folder


@pytest.fixture
def project(content, tmp_path, monkeypatch):
    """A project folder holding a copy of the bundled content, as the working folder, with
    the cache in its own ``cache/`` (XDG_CACHE_HOME) and caching on."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    return tmp_path


@pytest.fixture(scope="module")
def catalog_browser(tmp_path_factory):
    """Chromium with the bundled catalog written to a folder of its own (``.index``);
    at the end no request left the folder and no script failed."""
    from playwright.sync_api import sync_playwright

    import chromium

    from catalog.render import write
    from runtime.tables import load

    index = write(load(), tmp_path_factory.mktemp("catalog"))
    with sync_playwright() as p:
        browser = chromium.launch(p)
        browser.index = index
        yield browser
        browser.close()
    assert browser.blocked == [] and browser.errors == []


#: The command a test's language client starts: a fresh server forked from this worker's
#: zygote (tests/lsp_zygote.py), which a test or a module asks for with
#: ``pytestmark = pytest.mark.usefixtures("lsp_zygote")``.
LSP_ZYGOTE = Path(tempfile.gettempdir()) / f"jibunki-lsp-{os.getpid()}.sock"
LSP_SERVER = [sys.executable, "-I", "-S", str(ROOT / "tests" / "lsp_zygote.py"), "spawn",
              str(LSP_ZYGOTE)]


@pytest.fixture(scope="session")
def lsp_zygote():
    """This worker's zygote of language servers, started once and stopped at the end."""
    LSP_ZYGOTE.unlink(missing_ok=True)
    zygote = subprocess.Popen([sys.executable, str(ROOT / "tests" / "lsp_zygote.py"), "serve",
                               str(LSP_ZYGOTE)], cwd=ROOT, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, text=True)
    assert zygote.stdout.readline() == "ready\n", "the LSP zygote did not start"
    yield
    zygote.terminate()
    zygote.wait()
    LSP_ZYGOTE.unlink(missing_ok=True)


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux: each of its threads' /proc …/children). A
    thread or the process that ends while they are read counts for none: a test polling
    for a child never fails on that race."""
    found = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []
    for task in tasks:
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found
