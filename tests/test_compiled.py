"""The compiled twins of the hot modules (setup.py, contract/compiled.py): the same
battles and the same journey answers as the source, and never a twin older than its
source."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from contract import compiled
from contract.compiled import MANIFEST, SourceWhenStale

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _package(root: Path, source: str = "VALUE = 1\n", manifest=None, twin: bool = True) -> Path:
    """A package ``runtime`` under ``root`` with one module ``x``: its source, a twin file
    (never loaded: the finder only decides where the import goes) and a manifest — by
    default the sha256 of the source as written."""
    folder = root / "runtime"
    folder.mkdir()
    (folder / "x.py").write_text(source, encoding="utf-8")
    if twin:
        (folder / f"x{compiled.TWIN}{SUFFIX}").write_bytes(b"not loaded")
    if manifest is None:
        manifest = {"x": hashlib.sha256(source.encode()).hexdigest()}
    (folder / MANIFEST).write_text(manifest if isinstance(manifest, str) else json.dumps(manifest),
                                   encoding="utf-8")
    return folder


def _goes_to(finder: SourceWhenStale, name: str = "runtime.x") -> str:
    """Where the import of ``name`` goes: "twin", or "source" (the usual finders, which
    never take a twin: its name is not the module's)."""
    spec = finder.find_spec(name)
    return "source" if spec is None else "twin"


def test_a_twin_compiled_from_the_source_as_it_is_runs(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.OFF, raising=False)
    _package(tmp_path)
    assert _goes_to(SourceWhenStale(tmp_path)) == "twin"


def test_an_edited_module_runs_its_source_not_its_older_twin(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.OFF, raising=False)
    folder = _package(tmp_path)
    (folder / "x.py").write_text("VALUE = 2\n", encoding="utf-8")
    assert _goes_to(SourceWhenStale(tmp_path)) == "source"


def test_a_changed_declaration_makes_the_twins_compiled_against_it_stale(tmp_path, monkeypatch):
    """A module with a .pxd beside it was compiled against the .pxd it cimports
    (journey/play.pxd cimports journey/state.pxd's struct): one of them changed, its twin
    would read another layout, so the source runs; a module without one is not concerned."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    folder = _package(tmp_path)
    (folder / "x.pxd").write_text("from runtime.y cimport Y\n", encoding="utf-8")
    (folder / "y.pxd").write_text("cdef class Y:\n    cdef public object a\n", encoding="utf-8")
    (folder / "z.py").write_text("VALUE = 3\n", encoding="utf-8")
    (folder / f"z{compiled.TWIN}{SUFFIX}").write_bytes(b"not loaded")
    (folder / MANIFEST).write_text(json.dumps(
        {name: compiled.source_digest(folder / f"{name}.py") for name in ("x", "z")}),
        encoding="utf-8")
    finder = SourceWhenStale(tmp_path)
    assert _goes_to(finder) == "twin" and _goes_to(finder, "runtime.z") == "twin"
    (folder / "y.pxd").write_text("cdef class Y:\n    cdef public object a, b\n",
                                  encoding="utf-8")
    assert _goes_to(SourceWhenStale(tmp_path)) == "source"
    assert _goes_to(SourceWhenStale(tmp_path), "runtime.z") == "twin"


def test_a_typed_twin_is_stale_once_a_class_it_reads_as_a_struct_is_edited(tmp_path,
                                                                            monkeypatch):
    """x's twin reads y's Y as a C struct (y.pxd): y.py edited, y runs from its source —
    a class whose slots may lie in another order — so x's twin must not run either."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    folder = _package(tmp_path)
    (folder / "x.pxd").write_text("from runtime.y cimport Y\n", encoding="utf-8")
    (folder / "y.pxd").write_text("cdef class Y:\n    cdef public object a\n", encoding="utf-8")
    (folder / "y.py").write_text("class Y:\n    __slots__ = ('a',)\n", encoding="utf-8")
    (folder / MANIFEST).write_text(json.dumps({"x": compiled.source_digest(folder / "x.py")}),
                                   encoding="utf-8")
    assert _goes_to(SourceWhenStale(tmp_path)) == "twin"
    (folder / "y.py").write_text("class Y:\n    __slots__ = ('b', 'a')\n", encoding="utf-8")
    assert _goes_to(SourceWhenStale(tmp_path)) == "source"


def test_a_twin_is_stale_once_a_class_of_another_package_it_reads_is_edited(tmp_path,
                                                                             monkeypatch):
    """sim/x.pxd cimports runtime/y.pxd (the lab's players read the battle's fields): the
    declarations a twin is compiled against are followed across packages."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    runtime = _package(tmp_path)
    (runtime / "y.pxd").write_text("cdef class Y:\n    cdef public object a\n", encoding="utf-8")
    (runtime / "y.py").write_text("class Y:\n    __slots__ = ('a',)\n", encoding="utf-8")
    sim = tmp_path / "sim"
    sim.mkdir()
    (sim / "x.py").write_text("VALUE = 1\n", encoding="utf-8")
    (sim / f"x{compiled.TWIN}{SUFFIX}").write_bytes(b"not loaded")
    (sim / "x.pxd").write_text("from runtime.y cimport Y\n", encoding="utf-8")
    (sim / MANIFEST).write_text(json.dumps({"x": compiled.source_digest(sim / "x.py")}),
                                encoding="utf-8")
    assert [path.relative_to(tmp_path).as_posix()
            for path in compiled.declarations_read(sim / "x.py")] == ["runtime/y.pxd", "sim/x.pxd"]
    assert _goes_to(SourceWhenStale(tmp_path), "sim.x") == "twin"
    (runtime / "y.py").write_text("class Y:\n    __slots__ = ('b', 'a')\n", encoding="utf-8")
    assert _goes_to(SourceWhenStale(tmp_path), "sim.x") == "source"


def test_only_modules_with_declarations_read_their_annotations_as_types():
    """setup.py types annotations only where a .pxd stands beside the module (``TYPED``);
    every other twin reads its source as plain Python (``DIRECTIVES``). Every .pxd is a
    compiled module's: a stray one would type nothing and make its package's twins stale."""
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '"annotation_typing": False' in setup and '"annotation_typing": True' in setup
    typed = {package: sorted(path.stem for path in (ROOT / package).glob("*.pxd"))
             for package in compiled.COMPILED}
    assert typed["journey"] == ["effects", "game", "play", "player", "search", "solve", "state",
                                "steps"]
    assert "state" in typed["runtime"] and "battle" in typed["runtime"]
    for package, names in typed.items():
        assert set(names) <= set(compiled.COMPILED[package]), package


@pytest.mark.parametrize("manifest", ["", "{not json", json.dumps(["x"]), json.dumps({"x": 1}),
                                      json.dumps({"y": "0" * 64})])
def test_a_twin_without_a_readable_record_of_its_source_never_runs(tmp_path, monkeypatch, manifest):
    monkeypatch.delenv(compiled.OFF, raising=False)
    _package(tmp_path, manifest=manifest)
    assert _goes_to(SourceWhenStale(tmp_path)) == "source"


def test_a_missing_record_runs_the_source(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.OFF, raising=False)
    folder = _package(tmp_path)
    (folder / MANIFEST).unlink()
    assert _goes_to(SourceWhenStale(tmp_path)) == "source"


@pytest.mark.parametrize("value, where", [("1", "source"), ("yes", "source"), ("0", "twin"),
                                          ("", "twin")])
def test_jibunki_no_compiled_runs_every_module_as_python(tmp_path, monkeypatch, value, where):
    monkeypatch.setenv(compiled.OFF, value)
    _package(tmp_path)
    assert _goes_to(SourceWhenStale(tmp_path)) == where


def test_a_twin_that_will_not_load_runs_its_source(tmp_path, monkeypatch):
    """A damaged twin (here: not a library at all), current by its record, gives the
    module from its source, not an ImportError for every command."""
    monkeypatch.delenv(compiled.OFF, raising=False)
    _package(tmp_path, source="VALUE = 7\n")
    spec = SourceWhenStale(tmp_path).find_spec("runtime.x")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.VALUE == 7
    assert module.__file__ == str(tmp_path / "runtime" / "x.py")
    assert spec.loader.get_source("runtime.x") == "VALUE = 7\n"


def test_modules_without_a_twin_and_other_packages_are_left_to_python(tmp_path, monkeypatch):
    monkeypatch.setenv(compiled.OFF, "1")
    _package(tmp_path, twin=False)
    finder = SourceWhenStale(tmp_path)
    assert finder.find_spec("runtime.x") is None
    assert finder.find_spec("runtime") is None
    assert finder.find_spec("catalog.x") is None
    assert finder.find_spec("runtime.x.y") is None


def test_pythons_own_finders_never_load_a_twin(tmp_path, monkeypatch):
    """A revision that knows nothing of twins (no finder) runs its sources, whatever twins
    an earlier build left in the folder."""
    _package(tmp_path)
    found = importlib.machinery.FileFinder(
        str(tmp_path / "runtime"), (importlib.machinery.ExtensionFileLoader, [SUFFIX]),
        (importlib.machinery.SourceFileLoader, [".py"])).find_spec("runtime.x")
    assert found.origin == str(tmp_path / "runtime" / "x.py")


def test_the_finder_stands_first_once_every_package_with_twins_is_imported():
    import journey  # noqa: F401
    import runtime  # noqa: F401
    import sim  # noqa: F401

    finders = [f for f in sys.meta_path if isinstance(f, SourceWhenStale)]
    assert len(finders) == 1
    assert sys.meta_path.index(finders[0]) < sys.meta_path.index(importlib.machinery.PathFinder)


# The same answers compiled and as Python: battles of both players against every kind of
# enemy, with pages that make choices, and journey deals solved and played.
def _run(env: dict) -> str:
    script = ROOT / "tests" / "compiled_twins_play.py"
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow  # two processes playing 300 battles and 3 journeys: some 6 s
def test_the_compiled_twins_play_the_same_battles_and_journeys_as_the_source():
    base = {k: v for k, v in os.environ.items() if k != compiled.OFF}
    as_built = _run(base)
    as_python = _run({**base, compiled.OFF: "1"})
    twins = as_built.splitlines()[0]
    assert as_python.splitlines()[0].startswith("compiled 0 ")
    if twins.startswith("compiled 0 "):
        message = "no compiled twin is current here (no C compiler at install?): " + twins
        if os.environ.get("CI"):
            pytest.fail("CI must test the twins: " + message)
        pytest.skip(message)
    assert as_built.splitlines()[1:] == as_python.splitlines()[1:]
    assert len(as_built.splitlines()) > 5
