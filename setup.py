"""Build hook: the hot modules of the battle runtime, the lab's players and draft 17's
rules and solver, compiled with Cython from their own source (nothing in them is Cython
syntax or typed for it: the same file runs as Python too).

Why: the balance lab and the journey solver spend their time in Python's interpreter
(some 190 calls an action, no function above 5 % of the time), and the compiled twins of
the same source play a battle about ×1.4 faster and expand journey positions about ×1.7
faster, with identical results (tests/test_compiled.py). ``contract/compiled.py`` uses a
twin only while its source is the one it was compiled from (``_compiled.json`` beside it
holds the sha256), so an edited module runs as Python until the next
``pip install -e .``; ``JIBUNKI_NO_COMPILED=1`` runs everything as Python.

Each twin is optional: without a C compiler the install succeeds and everything runs as
Python, the same results, slower.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _registry():
    """contract/compiled.py read by its path (the package's ``__init__`` is not run): the
    one list of the modules compiled, and the manifest's name."""
    spec = importlib.util.spec_from_file_location("_jibunki_compiled",
                                                  HERE / "contract" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_REGISTRY = _registry()
COMPILED, MANIFEST = _REGISTRY.COMPILED, _REGISTRY.MANIFEST
#: Cython reads the source as plain Python 3: annotations are not C types (a ``list``
#: annotation would refuse a tuple), functions stay introspectable.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: everything runs as Python
        return []
    modules = [Extension(f"{package}.{name}", [f"{package}/{name}.py"])
               for package, names in COMPILED.items() for name in names]
    built = cythonize(modules, compiler_directives=DIRECTIVES, quiet=True,
                      nthreads=os.cpu_count() or 1)
    for extension in built:  # cythonize's extensions do not keep ``optional``
        extension.optional = True
    return built


class BuildWithManifest(build_ext):
    """build_ext on every core, then each package's ``_compiled.json``: the sha256 of the source of
    every module whose twin was built, where the twins were put (in place for an
    editable install, the wheel's folder otherwise)."""

    def finalize_options(self):
        """Every core unless ``--parallel`` says otherwise."""
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        """Build the twins, then write each package's record of their sources."""
        super().run()
        root = HERE if self.inplace else Path(self.build_lib)
        for package, names in COMPILED.items():
            built = {name: _digest(HERE / package / f"{name}.py") for name in names
                     if self._built(root, package, name)}
            target = root / package / MANIFEST
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(built, indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")

    def _built(self, root: Path, package: str, name: str) -> bool:
        return (root / self.get_ext_filename(f"{package}.{name}")).exists()


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildWithManifest})
