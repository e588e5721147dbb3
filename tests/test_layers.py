"""The house rules of DESIGN §2 and §8: arrows only point down.

    contract/  (standard library only: the typed tables and the vocabulary)
       ^
    dsl/ -> compiler/ -> generated/          runtime/, journey/ (contract/ and the standard library)
                                                ^
                     scenario/ (examples: run on the tables)    catalog/  terminal/  sim/  lsp/
                                                ^
                                 commands/ (one module per group of commands)
                                                ^
                                             cli.py (the entry point: gathers them)

Every import of every module is read from its syntax tree — the whole tree, so an import
inside a function counts as much as one at the top — and each layer may import only the
first-party packages of its row in ALLOWED (a prefix: ``runtime.tables`` allows that
module and no other of runtime/), besides the standard library and the third-party
packages of its row.
"""

from __future__ import annotations

import ast
import sys

import pytest

from conftest import ROOT

#: The project's own top-level packages and modules.
FIRST_PARTY = {"catalog", "cli", "compiler", "contract", "dsl", "generated", "runtime",
               "scenario", "terminal", "benchmarks", "sim", "lsp", "journey", "commands"}

#: layer → (first-party prefixes it may import, third-party packages it may import).
ALLOWED = {
    "contract": ({"contract"}, set()),
    "runtime": ({"runtime", "contract"}, set()),
    "journey": ({"journey", "contract"}, set()),  # draft 17's rules (spec 004)
    "dsl": ({"dsl", "contract"}, {"lark"}),
    "compiler": ({"compiler", "dsl", "contract"}, {"lark", "jsonschema", "referencing"}),
    # runtime's pure rules the catalog draws with (escalation, seat moves, active faces)
    "catalog": ({"catalog", "contract", "runtime.tables", "runtime.escalation", "runtime.seat",
                 "runtime.sides"}, {"jinja2", "markupsafe", "pygments"}),
    "scenario": ({"scenario", "compiler", "dsl", "contract", "runtime"}, set()),
    # dsl.diskcache: where the prompt's history lives (the user's private cache folder);
    # click: terminal.click_ja gives the command line's own messages in Japanese
    "terminal": ({"terminal", "runtime", "journey", "contract", "catalog.phrasing", "dsl.diskcache"},
                 {"rich", "prompt_toolkit", "click"}),
    "sim": ({"sim", "runtime", "journey", "contract"}, {"rich", "jinja2", "markupsafe", "matplotlib", "ray"}),
    "lsp": ({"lsp", "compiler", "dsl", "contract", "catalog.phrasing", "scenario"},
            {"pygls", "lsprotocol"}),
    # the top room: each command calls on the rooms below it (inside its function, most)
    "commands": ({"commands", "compiler", "dsl", "contract", "runtime", "journey", "scenario",
                  "catalog", "terminal", "sim", "lsp"}, {"click", "rich", "watchfiles"}),
}


def imports(layer: str, root=ROOT) -> dict[str, set[str]]:
    """module file → every dotted name it imports (``from a import b`` reads as ``a.b``;
    a relative import is of its own package)."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / layer).rglob("*.py")):
        names = found.setdefault(path.relative_to(root).as_posix(), set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                module = layer if node.level else node.module
                names.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _allowed(name: str, layer: str) -> bool:
    first_party, third_party = ALLOWED[layer]
    top = name.split(".")[0]
    if top not in FIRST_PARTY:
        return top in sys.stdlib_module_names or top in third_party
    return any(name == prefix or name.startswith(prefix + ".") for prefix in first_party)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_lies_below_it(layer):
    wrong = {module: sorted(n for n in names if not _allowed(n, layer))
             for module, names in imports(layer).items()}
    assert {module: names for module, names in wrong.items() if names} == {}


def test_the_entry_point_imports_only_the_commands():
    """cli.py gathers the commands of commands/ under one group: no command or helper of
    its own, so nothing but click and commands/."""
    tree = ast.parse((ROOT / "cli.py").read_text(encoding="utf-8"))
    tops = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names}
    tops |= {node.module.split(".")[0] for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom)}
    assert tops - {"__future__"} == {"click", "commands"}


def test_the_runtime_and_the_contract_need_nothing_but_the_standard_library():
    """A game client ships runtime/ + contract/ + generated/ alone."""
    for layer in ("runtime", "contract"):
        for module, names in imports(layer).items():
            outside = {n for n in names if n.split(".")[0] not in sys.stdlib_module_names
                       and n.split(".")[0] not in ("runtime", "contract")}
            assert outside == set(), module


def test_imports_inside_functions_are_seen(tmp_path):
    """The rule reads the whole tree: a function-local import of scenario/ in compiler/,
    or of dsl/ in the catalog, is caught like one at the top."""
    (tmp_path / "compiler").mkdir()
    (tmp_path / "compiler" / "late.py").write_text(
        "def run():\n    if True:\n        from scenario.run import run\n", encoding="utf-8")
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "late.py").write_text(
        "class A:\n    def f(self):\n        import dsl.keywords\n", encoding="utf-8")
    assert imports("compiler", tmp_path) == {"compiler/late.py": {"scenario.run.run"}}
    assert not _allowed("scenario.run.run", "compiler")
    assert not _allowed("dsl.keywords", "catalog")
    assert _allowed("runtime.tables.load", "catalog") and not _allowed("runtime.battle", "catalog")
