"""The house rules of DESIGN §2 and §8: arrows only point down.

    contract/  (standard library only: the typed tables and the vocabulary)
       ^
    dsl/ -> compiler/ -> generated/      runtime/, journey/'s rules (contract/, standard library)
                                                ^
                     scenario/ (examples: run on the tables)    catalog/  terminal/  sim/  lsp/
                                                ^                          ^         ^
                                                |                 journey/screen/  journey/lab/
                                 commands/ (one module per group of commands)
                                                ^
                                             cli.py (the entry point: gathers them)

Every import of every module is read from its syntax tree — the whole tree, so an import
inside a function counts as much as one at the top — and each layer may import only the
first-party packages of its row in ALLOWED (a prefix: ``runtime.tables`` allows that
module and no other of runtime/), besides the standard library and the third-party
packages of its row. A folder inside a room may have a row of its own (``journey/screen``):
its modules are read against that row, not the room's.

The solitaire of draft 17 is one package, journey/, layered within (JOURNEY_LAYERS): the
rules at the bottom, the solver and the player above them, and on top, side by side, its
screen and its lab — the only parts that reach the terminal, the lab and their libraries.
"""

from __future__ import annotations

import ast
import sys

import pytest

from conftest import ROOT

#: The project's own top-level packages and modules.
FIRST_PARTY = {"analysis", "catalog", "cli", "compiler", "contract", "dsl", "generated", "runtime",
               "scenario", "terminal", "benchmarks", "sim", "lsp", "journey", "commands",
               "printing"}

#: layer → (first-party prefixes it may import, third-party packages it may import).
ALLOWED = {
    "contract": ({"contract"}, set()),
    "runtime": ({"runtime", "contract"}, set()),
    # draft 17 (spec 004): its rules, solver and player; its screen and lab have rows of their own
    "journey": ({"journey", "contract"}, set()),
    # the journey at a terminal, on the terminal's shared parts (the exit codes, the line editor)
    "journey/screen": ({"journey", "contract", "terminal.script", "terminal.prompt"},
                       {"rich", "prompt_toolkit"}),
    # the journey's report, on the labs' shared runner, statistics and renderers (its
    # tables are data drawn by sim.render_text and sim.render_html, never the battle's report;
    # its results kept as the battles are, by sim.store)
    "journey/lab": ({"journey", "contract", "sim.stats", "sim.backends", "sim.render_text",
                     "sim.render_html", "sim.store", "sim.oneshot"},
                    {"rich", "jinja2", "markupsafe", "matplotlib"}),
    "dsl": ({"dsl", "contract"}, {"lark"}),
    # what a page can set off, from the effect lists alone (issue 31): lint, the catalog,
    # the language server and jibunki analyze read the same findings
    "analysis": ({"analysis", "contract"}, {"networkx"}),
    "compiler": ({"compiler", "dsl", "contract", "analysis"},
                 {"lark", "jsonschema", "referencing"}),
    # runtime's pure rules the catalog draws with (escalation, seat moves, active faces, a
    # tear's growth, how a value lands)
    # (sim.render_html: the plots' settings and SVG inlining, for the trigger graph's picture)
    "catalog": ({"catalog", "contract", "runtime.tables", "runtime.escalation", "runtime.seat",
                 "runtime.sides", "runtime.tearing", "runtime.bounds", "analysis",
                 "sim.render_html"},
                {"jinja2", "markupsafe", "pygments", "networkx", "matplotlib"}),
    "scenario": ({"scenario", "compiler", "dsl", "contract", "runtime", "analysis"}, set()),
    # dsl.diskcache: where the prompt's history lives (the user's private cache folder);
    # click: terminal.click_ja gives the command line's own messages in Japanese
    # (the journey's screen is journey/screen/, above the terminal: the terminal imports none of it)
    "terminal": ({"terminal", "runtime", "contract", "catalog.phrasing", "dsl.diskcache"},
                 {"rich", "prompt_toolkit", "click"}),
    # (the journey's lab is journey/lab/, above the sim layer: sim/ imports none of it)
    # dsl.diskcache: where the lab's battle outcomes are kept (sim/cache.py)
    "sim": ({"sim", "runtime", "contract", "dsl.diskcache"}, {"rich", "jinja2", "markupsafe", "matplotlib", "ray"}),
    # the lab's report format and verdict words, for the pages' lenses (the lab itself is
    # run as a process of its own: python -m sim.one_page); the journey report's format
    # and its words, for the set-ups' lenses (the report is run likewise: python -m
    # journey.lab.one_setup, through sim.oneshot)
    "lsp": ({"lsp", "compiler", "dsl", "contract", "catalog.phrasing", "scenario", "sim.lab",
             "sim.stats", "sim.oneshot", "journey.lab.measure", "journey.lab.text", "analysis"},
            {"pygls", "lsprotocol"}),
    # print and play: the catalog's words on cards (the journey's through its rules), laid out
    # and rendered to PDF (pypdfium2 reads PDFs back: the Tabletop Simulator's faces), the
    # manifest checked by its schema; cffi: Pango's count of the characters no font has,
    # which WeasyPrint's own bindings do not declare (printing/fitting.py)
    "printing": ({"printing", "catalog", "contract", "runtime.tables", "journey.rules"},
                 {"jinja2", "markupsafe", "weasyprint", "pypdfium2", "PIL", "jsonschema",
                  "cffi"}),
    # the top room: each command calls on the rooms below it (inside its function, most)
    "commands": ({"commands", "compiler", "dsl", "contract", "runtime", "journey", "scenario",
                  "catalog", "terminal", "sim", "lsp", "printing", "analysis"},
                 {"click", "rich", "watchfiles"}),
}


#: journey/'s own layers, bottom first: the modules of each (a prefix; the longest that
#: fits a name decides, so a module not listed is of the rules) and the layers it may import.
#: The screen and the lab stand side by side: neither imports the other.
JOURNEY_MODULES = {"journey": "rules", "journey.solve": "solver", "journey.search": "solver",
                   "journey.player": "solver", "journey.screen": "screen", "journey.lab": "lab"}
JOURNEY_LAYERS = {"rules": {"rules"}, "solver": {"rules", "solver"},
                  "screen": {"rules", "solver", "screen"}, "lab": {"rules", "solver", "lab"}}


def _package(path, root) -> list[str]:
    """The dotted package a module's relative imports start from."""
    return list(path.relative_to(root).parent.parts)


def imports(layer: str, root=ROOT) -> dict[str, set[str]]:
    """module file → every dotted name it imports (``from a import b`` reads as ``a.b``;
    a relative import is resolved from the module's own package). A folder of ``layer``
    that has a row of its own in ALLOWED is left to that row."""
    own_rows = [key for key in ALLOWED if key.startswith(layer + "/")]
    found: dict[str, set[str]] = {}
    for path in sorted((root / layer).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if any(where.startswith(row + "/") for row in own_rows):
            continue
        names = found.setdefault(where, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                module = node.module
                if node.level:
                    package = _package(path, root)
                    package = package[:len(package) - node.level + 1]
                    module = ".".join(package + ([node.module] if node.module else []))
                names.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def journey_layer(name: str) -> str:
    """The layer of journey/ a dotted name (a module, or a name in one) belongs to."""
    fits = [prefix for prefix in JOURNEY_MODULES
            if name == prefix or name.startswith(prefix + ".")]
    return JOURNEY_MODULES[max(fits, key=len)]


def journey_wrong(root=ROOT) -> dict[str, list[str]]:
    """module file of journey/ → the names of journey/ it imports from a layer it may not."""
    found: dict[str, set[str]] = {}
    for row in ALLOWED:
        if row.split("/")[0] == "journey" and (root / row).is_dir():
            found.update(imports(row, root))
    wrong = {}
    for where, names in found.items():
        module = where.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        bad = sorted(n for n in names if n.split(".")[0] == "journey"
                     and journey_layer(n) not in JOURNEY_LAYERS[journey_layer(module)])
        if bad:
            wrong[where] = bad
    return wrong


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


def test_the_journey_package_is_layered():
    """Within journey/ arrows point down too: the rules import neither the solver nor the
    screen or the lab, the solver neither of those, and the screen and the lab not each
    other — so the rules ship alone, and the game plays without rich or a terminal."""
    assert journey_wrong() == {}


def test_an_upward_import_inside_the_journey_is_caught(tmp_path):
    """A rule importing the screen, the solver importing the lab (a relative import two
    levels up counts), or the lab importing the screen, is named; the layers below stay
    free to be imported."""
    (tmp_path / "journey" / "screen").mkdir(parents=True)
    (tmp_path / "journey" / "lab").mkdir()
    (tmp_path / "journey" / "play.py").write_text(
        "def f():\n    from journey.screen.terminal import play\n", encoding="utf-8")
    (tmp_path / "journey" / "player.py").write_text(
        "from .lab.measure import run\nfrom .play import apply\n", encoding="utf-8")
    (tmp_path / "journey" / "lab" / "text.py").write_text(
        "from ..screen import commands\nfrom ..search import JOURNEY\nfrom . import measure\n",
        encoding="utf-8")
    (tmp_path / "journey" / "screen" / "complete.py").write_text(
        "from .. import State\nfrom ..notation import labels\n", encoding="utf-8")
    assert journey_wrong(tmp_path) == {
        "journey/lab/text.py": ["journey.screen.commands"],
        "journey/play.py": ["journey.screen.terminal.play"],
        "journey/player.py": ["journey.lab.measure.run"],
    }
    assert not _allowed("terminal.screen", "journey/screen")
    assert _allowed("sim.stats", "journey/lab") and not _allowed("sim.lab", "journey/lab")
    assert not _allowed("rich.table", "journey") and _allowed("rich.table", "journey/lab")
