"""The installed program is the whole program: every package folder is declared."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_package_folder_is_declared_in_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = set(project["tool"]["setuptools"]["packages"])
    folders = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"generated"}
    assert folders == declared


def test_console_script_is_the_same_program_as_cli_py():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["jibunki"] == "cli:main"
