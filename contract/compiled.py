"""編纂 (compiled twins) — a hot module runs compiled only while its source is the one it
was compiled from.

``setup.py`` compiles the battle runtime's, the lab players' and draft 17's hot modules
(``COMPILED``, the one list) with Cython from their own source, each into a *twin* beside
it named ``<module>.twin<extension suffix>`` (``runtime/state.twin.cpython-311-….so``),
and writes each package's ``_compiled.json``: the sha256 of every source it compiled.
Python's own finders never load a twin (the name is not the module's), so a checkout of
a revision that knows nothing of twins runs its sources, and only this module's finder
(``install``) does: the twin of a module whose source is the one it was compiled from.
An edited module runs as Python until the next build — else the edit would go unseen, and
a lab's cache key, made of the sources, would file the old code's results under the new
code — and so does every module while ``JIBUNKI_NO_COMPILED`` is set (to profile the
Python, or to compare the two). A twin that will not load runs its source too
(``TwinOrSource``).

Standard library only: every package with twins installs it in its ``__init__`` before
importing any of them.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

MANIFEST = "_compiled.json"
#: A twin's name is the module's, this, then an extension suffix of this Python.
TWIN = ".twin"
#: Set to anything but "" or "0": every module runs as Python.
OFF = "JIBUNKI_NO_COMPILED"
_ROOT = Path(__file__).resolve().parent.parent
#: The modules setup.py compiles, by package: what a battle or a journey position runs
#: through. Not sim/lab.py: its cache key reads the source of what ``work`` reaches
#: (sim/store.py), which a twin does not have.
COMPILED = {
    "runtime": ["battle", "board", "bounds", "defense", "enemy", "escalation", "events",
                "named", "outcome", "pen_tear", "playing", "queries", "refusal",
                "resolution", "sayou", "seat", "sides", "state", "streams", "tables",
                "turn", "view", "zones"],
    "sim": ["policies", "simulate", "observed", "stats", "cache", "store"],
    "contract": ["game"],
    "journey": ["actions", "effects", "game", "play", "player", "rules", "search", "solve",
                "state", "steps"],
}
#: The packages that may hold twins.
PACKAGES = tuple(COMPILED)


def disabled() -> bool:
    """Whether ``JIBUNKI_NO_COMPILED`` asks for Python everywhere."""
    return os.environ.get(OFF, "") not in ("", "0")


def declared(path: Path) -> bool:
    """Whether the module of source ``path`` has declarations for the compiler beside it
    (its ``.pxd``): setup.py compiles it reading its annotations as types."""
    return path.with_suffix(".pxd").exists()


#: A line of a ``.pxd`` that reads another module's declarations.
_CIMPORT = re.compile(rb"^\s*from\s+([\w.]+)\s+cimport\b", re.MULTILINE)


def declarations_read(path: Path) -> list[Path]:
    """The declarations a module of source ``path`` is compiled against: its own ``.pxd``
    and, by their ``cimport`` lines, every ``.pxd`` they read, however far (the root is
    the folder of the packages). Each has a source beside it or not. Sorted; [] for a
    module without declarations."""
    root = path.parent.parent
    todo, seen = [path.with_suffix(".pxd")], set()
    while todo:
        declarations = todo.pop()
        if declarations in seen or not declarations.exists():
            continue
        seen.add(declarations)
        for module in _CIMPORT.findall(declarations.read_bytes()):
            todo.append(root.joinpath(*module.decode().split(".")).with_suffix(".pxd"))
    return sorted(seen)


def source_digest(path: Path) -> str | None:
    """The sha256 (hex) of a module's source as ``_compiled.json`` records it — and, for a
    module with declarations for the compiler (its ``.pxd``), of every declaration it is
    compiled against (``declarations_read``) and the source beside each: its twin reads
    the records they declare as C structs. One of them changed, it is stale with them: a
    typed twin given the instance of a class edited since (run from its source, its
    slots in another order) would read the wrong fields. None when it cannot be read."""
    try:
        digest = hashlib.sha256(path.read_bytes())
        root = path.parent.parent
        for declarations in declarations_read(path):
            for part in (declarations, declarations.with_suffix(".py")):
                if part.exists():  # a .pxd may declare what no source defines
                    name = part.relative_to(root).as_posix().encode()
                    digest.update(name + b"\0" + part.read_bytes())
        return digest.hexdigest()
    except OSError:
        return None


class SourceWhenStale:
    """A meta path finder: a module of PACKAGES whose twin is current (``current_twin``) is
    imported from its twin. Any other module, and one whose twin is not current: the
    usual finders, which read the source."""

    def __init__(self, root: Path = _ROOT):
        self.root = root
        self._manifests: dict[str, dict] = {}

    def manifest(self, package: str) -> dict:
        """The package's manifest (module → sha256 of the source compiled); {} when it is
        missing or is not such a map."""
        if package not in self._manifests:
            try:
                data = json.loads((self.root / package / MANIFEST).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            ok = isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
            self._manifests[package] = data if ok else {}
        return self._manifests[package]

    def twin(self, package: str, name: str) -> Path | None:
        """The compiled twin's file, if one was built."""
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = self.root / package / f"{name}{TWIN}{suffix}"
            if path.exists():
                return path
        return None

    def current_twin(self, package: str, name: str) -> Path | None:
        """The twin of ``package.name`` if it may run: built, listed, not turned off, and
        compiled from the source as it is now; else None."""
        twin = None if disabled() else self.twin(package, name)
        if twin is None:
            return None
        listed = self.manifest(package).get(name)
        source = source_digest(self.root / package / f"{name}.py")
        return twin if listed is not None and listed == source else None

    def find_spec(self, fullname, path=None, target=None):
        """The twin's spec when ``fullname`` has a current twin (run from its source if
        it will not load); else None."""
        package, _, name = fullname.partition(".")
        if package not in PACKAGES or not name or "." in name:
            return None
        twin = self.current_twin(package, name)
        if twin is None:
            return None
        source = self.root / package / f"{name}.py"
        return importlib.util.spec_from_file_location(
            fullname, twin, loader=TwinOrSource(fullname, twin, source))


class TwinOrSource(importlib.abc.Loader):
    """Loads a current twin; a twin that will not load (a damaged file, a library it
    needs gone) runs its source instead — the same module, only slower — rather than
    stopping every command that imports it."""

    def __init__(self, fullname: str, twin: Path, source: Path):
        self.twin = importlib.machinery.ExtensionFileLoader(fullname, str(twin))
        self.source = importlib.machinery.SourceFileLoader(fullname, str(source))
        self.fell_back = False

    def create_module(self, spec):
        """The twin's module, or None (a plain module for the source) when it will not load."""
        try:
            return self.twin.create_module(spec)
        except ImportError:
            self.fell_back = True
            spec.origin = self.source.path
            return None

    def get_source(self, fullname):
        """The source the twin was compiled from (a traceback's lines read it)."""
        return self.source.get_source(fullname)

    def exec_module(self, module):
        """Run the twin's initialisation, or the source."""
        if self.fell_back:
            module.__file__ = self.source.path
            self.source.exec_module(module)
        else:
            self.twin.exec_module(module)


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once."""
    if not any(isinstance(f, SourceWhenStale) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceWhenStale())


def report() -> dict[str, bool]:
    """Module → whether it runs compiled now, for every module that has a twin (the
    benchmarks print it: a figure means nothing without it)."""
    finder = SourceWhenStale()
    found = {}
    for package in PACKAGES:
        for path in sorted((finder.root / package).glob("*.py")):
            if finder.twin(package, path.stem) is not None:
                current = finder.current_twin(package, path.stem)
                found[f"{package}.{path.stem}"] = current is not None
    return found
