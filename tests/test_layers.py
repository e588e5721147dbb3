"""The house rules of DESIGN §2: runtime/ imports only the standard library and its own
modules (a game client can ship runtime/ + generated/ alone); dsl/ knows syntax only."""

from __future__ import annotations

import ast
import sys

import pytest

from conftest import ROOT


def imports(folder: str) -> set[str]:
    found = set()
    for path in (ROOT / folder).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_runtime_imports_only_the_standard_library():
    outside = {name for name in imports("runtime")
               if name not in sys.stdlib_module_names and name != "contract"}
    assert outside == set()


@pytest.mark.parametrize("layer, forbidden", [
    ("runtime", {"lark", "dsl", "compiler", "catalog", "terminal", "scenario", "jinja2"}),
    ("dsl", {"compiler", "runtime", "catalog", "terminal", "scenario"}),
    ("compiler", {"catalog", "terminal"}),
])
def test_layers_flow_one_way(layer, forbidden):
    assert imports(layer) & forbidden == set()
