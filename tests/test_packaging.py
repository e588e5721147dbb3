"""The installed program is the whole program: every package folder is declared."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _packages() -> dict[str, object]:
    """Every package folder of the program, at any depth (journey.screen too), by its
    dotted name: setuptools installs only the packages listed, never a folder inside one."""
    tops = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"generated", "tests"}
    return {".".join(p.parent.relative_to(ROOT).parts): p.parent
            for top in tops for p in (ROOT / top).rglob("__init__.py")}


def test_every_package_folder_is_declared_in_pyproject():
    assert set(_packages()) == set(_project()["tool"]["setuptools"]["packages"])


#: The files beside the modules that the program reads at run time.
DATA = ("*.lark", "*.j2", "*.md", "*.schema.json")


def test_every_data_file_of_a_package_ships_as_its_package_data():
    """A grammar, a template (the journey report's, in journey/lab/templates/), an
    explanation or a schema a module reads (the print manifest's) left out of
    package-data would be missing from an installed jibunki."""
    package_data = _project()["tool"]["setuptools"]["package-data"]
    packages = _packages()
    missing = []
    for name, folder in packages.items():
        inner = [f for f in packages.values() if f != folder and f.is_relative_to(folder)]
        for pattern in DATA:
            for path in folder.rglob(pattern):
                if any(path.is_relative_to(f) for f in inner):
                    continue  # its own package's
                inside = path.relative_to(folder)  # a glob's * stays within one folder
                if not any(len(inside.parts) == glob.count("/") + 1 and inside.match(glob)
                           for glob in package_data.get(name, [])):
                    missing.append(path.relative_to(ROOT).as_posix())
    assert missing == []


def test_console_script_is_the_same_program_as_cli_py():
    assert _project()["project"]["scripts"]["jibunki"] == "cli:main"
