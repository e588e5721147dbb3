"""Build hook: the hot modules of the battle runtime, the lab's players and draft 17's
rules and solver (contract/compiled.py ``COMPILED``), compiled with Cython from their own
source (nothing in them is Cython syntax: the same file runs as Python). Only a module
with a ``.pxd`` beside it has declarations for the compiler (``TYPED``: a battle, its state
and its records as C structs, runtime/state.pxd; draft 17's state, journey/state.pxd).

Why: the balance lab and the journey solver spend their time in Python's interpreter
(some 190 calls an action, no function above 5 % of the time), and the compiled twins of
the same source play a greedy battle about ×2.5 faster and expand journey positions about
×1.5 faster, with identical results (tests/test_compiled.py). Each twin is named
``<module>.twin<suffix>``, which Python's own finders never load; ``contract/compiled.py``
loads it only while its source is the one it was compiled from (``_compiled.json`` in
each package holds the sha256), so an edited module runs as Python until the next
``pip install -e .``; ``JIBUNKI_NO_COMPILED=1`` runs everything as Python.

Each twin is optional: without a C compiler the install succeeds and everything runs as
Python, the same results, slower.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _registry():
    """contract/compiled.py read by its path (the package's ``__init__`` is not run): the
    one list of the modules compiled, the names of a twin and a record, and how a source
    is digested."""
    spec = importlib.util.spec_from_file_location("_jibunki_compiled",
                                                  HERE / "contract" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_REGISTRY = _registry()
COMPILED, MANIFEST, TWIN = _REGISTRY.COMPILED, _REGISTRY.MANIFEST, _REGISTRY.TWIN
#: Cython reads the source as plain Python 3: annotations are not C types (a ``list``
#: annotation would refuse a tuple), functions stay introspectable.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
#: A module with declarations beside it (``journey/play.pxd``: the extension type of
#: journey/state.pxd) is compiled reading its annotations as types, so that ``s: State``
#: reads the state's fields as a C struct. Its other annotations are then checked on every
#: call (a ``tuple`` refuses a list, an ``int`` None): such a module's annotations say
#: exactly what it is given.
TYPED = {**DIRECTIVES, "annotation_typing": True}


#: The sha256 of each compiled module's source, read before Cython reads it: what the
#: twin is compiled from (an edit during the build makes the twin not current).
DIGESTS: dict[str, str] = {}


def _extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: everything runs as Python
        return []
    plain, typed = [], []
    for package, names in COMPILED.items():
        for name in names:
            source = HERE / package / f"{name}.py"
            DIGESTS[f"{package}.{name}"] = _REGISTRY.source_digest(source)
            (typed if _REGISTRY.declared(source) else plain).append(
                Extension(f"{package}.{name}", [f"{package}/{name}.py"]))
    _forget_stale_c()
    built = [extension for modules, directives in ((plain, DIRECTIVES), (typed, TYPED))
             if modules
             for extension in cythonize(modules, compiler_directives=directives, quiet=True,
                                        nthreads=os.cpu_count() or 1)]
    _replace(C_SOURCES, lambda path: path.write_text(json.dumps(DIGESTS, sort_keys=True),
                                                     encoding="utf-8"))
    for extension in built:  # cythonize's extensions do not keep ``optional``
        extension.optional = True
    return built


#: The sha256 of the source each generated C file (``runtime/state.c``) was made from.
C_SOURCES = HERE / "build" / "twins" / "c_sources.json"


def _forget_stale_c() -> None:
    """Remove the C files not made from their module's source as it is now: Cython makes
    a C file again only when the source is newer by its clock, and a source put back
    with an older time (``cp -p``, an archive) would keep the C of another text."""
    try:
        made = json.loads(C_SOURCES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        made = {}
    for module, digest in DIGESTS.items():
        if not isinstance(made, dict) or made.get(module) != digest:
            (HERE / (module.replace(".", "/") + ".c")).unlink(missing_ok=True)
    C_SOURCES.parent.mkdir(parents=True, exist_ok=True)


def _replace(target: Path, write) -> None:
    """``write(temporary)``, then the temporary put in ``target``'s place: a new file,
    never the old one written over."""
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        write(temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


class BuildWithManifest(build_ext):
    """build_ext on every core, kept between builds (an editable install compiles again
    only what changed), then each package's ``_compiled.json``: the sha256 of the source
    of every module whose twin this build made, where the twins were put (in place for an
    editable install, the wheel's folder otherwise). A twin this build did not make (its
    compile failed) is removed, never left to pass for a current one."""

    def finalize_options(self):
        """Every core unless ``--parallel`` says otherwise; in place, the objects and
        libraries in build/twins/."""
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        if self.inplace or getattr(self, "editable_mode", False):
            self.build_temp = str(HERE / "build" / "twins" / "temp")
            self.build_lib = str(HERE / "build" / "twins" / "lib")

    def run(self):
        """Build the twins, then write each package's record of their sources."""
        self._made: set[str] = set()
        super().run()
        root = HERE if self.inplace else Path(self.build_lib)
        for package, names in COMPILED.items():
            record = {}
            for name in names:
                module = f"{package}.{name}"
                twin = root / self.get_ext_filename(module)
                if module in self._made and twin.exists():
                    record[name] = DIGESTS[module]
                else:
                    twin.unlink(missing_ok=True)
            folder = root / package
            folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps(record, indent=1, sort_keys=True) + "\n"
            _replace(folder / MANIFEST, lambda path: path.write_text(text, encoding="utf-8"))

    def build_extension(self, ext):
        """Compile one twin (or find it up to date); only then is it this build's."""
        super().build_extension(ext)
        self._made.add(ext.name)

    def copy_file(self, infile, outfile, *args, **kwargs):
        """A twin is put in place as a new file: a running process (the language server,
        a lab) has the old one mapped, and writing over it would crash that process."""
        if not str(outfile).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            return super().copy_file(infile, outfile, *args, **kwargs)
        _replace(Path(outfile), lambda path: shutil.copy2(infile, path))
        return os.fspath(outfile), True

    def get_ext_filename(self, fullname):
        """``runtime/state.twin.cpython-311-….so``: a name Python's own finders never load
        for ``runtime.state`` (contract/compiled.py loads it, while it is current)."""
        filename = super().get_ext_filename(fullname)
        stem = fullname.rpartition(".")[2]
        head, _, tail = filename.rpartition(stem)
        return f"{head}{stem}{TWIN}{tail}"


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildWithManifest})
