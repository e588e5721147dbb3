"""Every consumer of the battle reads it through its public interface (issue 27, one game
interface): ``view()``, ``information()`` and Battle's public queries (runtime/queries.py)
— never the state's own containers (``battle.state.pages[uid].faces``,
``state.zones["hand"]``, ``state.enemy[...]``), and never a private name of an object the
module did not define.

The scan is a source scan with ``ast`` over every module outside runtime/ and journey/
(benchmarks/handwritten_battle.py excepted: a hand-written battle, the floor the engine is
timed against, reads its own state by design).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The rule sets themselves (they read their own state) and what is not the product.
NOT_CONSUMERS = {"runtime", "journey", "tests", "build", "dist", "node_modules"}
EXEMPT = {"benchmarks/handwritten_battle.py"}
#: The containers of runtime.state.State: the rules' own dicts and lists.
STATE_CONTAINERS = {"pages", "zones", "enemy", "effects", "mods", "counters", "marks",
                    "play_counters", "params", "defense"}
#: The methods of State that change it (or copy it whole): a consumer changes the battle
#: by ``apply`` (or a query that says it changes it), and copies it by ``copy``/``probe``.
STATE_CHANGES = {"copy", "move", "move_top", "move_all", "new_page", "count", "reset_scope",
                 "expire_mods", "add_defense"}
#: Names public despite their underscore (documented APIs of the standard library).
#: ``_page_box``: WeasyPrint's laid-out page, its only way to tell where a card's words
#: ended (printing/fitting.py reads it to fit them; a third party's, not the battle's).
PUBLIC_UNDERSCORED = {"_exit", "_replace", "_asdict", "_fields", "_make", "_page_box"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> list[Path]:
    """Every module of the project outside runtime/ and journey/ (and the tests): cli.py,
    commands/, terminal/, scenario/, sim/, lsp/, catalog/, benchmarks/, the compiler…"""
    found = []
    for entry in sorted(ROOT.iterdir()):
        if entry.name in NOT_CONSUMERS or entry.name.startswith("."):
            continue
        files = [entry] if entry.suffix == ".py" else \
            sorted(entry.rglob("*.py")) if entry.is_dir() else []
        found += [f for f in files if f.relative_to(ROOT).as_posix() not in EXEMPT
                  and not any(part.startswith(".") or part in NOT_CONSUMERS
                              for part in f.relative_to(ROOT).parts)]
    return found


def _is_room(name: str) -> bool:
    """Whether ``name`` is a top-level package or module of this project."""
    return (ROOT / name / "__init__.py").is_file() or (ROOT / f"{name}.py").is_file()


def _room(path: Path) -> str:
    """The top-level package (or module) a file belongs to."""
    return path.relative_to(ROOT).parts[0].removesuffix(".py")


class _Scan(ast.NodeVisitor):
    """The reads of one module that go past the battle's interface, as (line, text)."""

    def __init__(self, tree: ast.Module, room: str, package: str):
        self.room, self.package = room, package
        self.found: list[tuple[int, str]] = []
        # Private names this module defines itself: functions, classes, assigned names,
        # attributes it assigns (``self._x = …``) — reading those is its own business.
        self.own = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.own.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.own.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                self.own.add(node.attr)
        self.state_names: list[set[str]] = [set()]  # per scope: names bound to a ``.state``

    # -------------------------------------------------------------- state aliases
    def _scoped(self, node):
        self.state_names.append(set())
        self.generic_visit(node)
        self.state_names.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _scoped

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Attribute) and node.value.attr == "state":
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self.state_names[-1].add(target.id)
        self.generic_visit(node)

    def _is_state(self, node) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr == "state"
        return isinstance(node, ast.Name) and any(node.id in names for names in self.state_names)

    # ------------------------------------------------------------------ the reads
    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in STATE_CONTAINERS and self._is_state(node.value):
            self.found.append((node.lineno, f"{ast.unparse(node)} (the state's own container)"))
        elif node.attr in STATE_CHANGES and self._is_state(node.value):
            self.found.append((node.lineno, f"{ast.unparse(node)} (changes or copies the state)"))
        elif isinstance(node.ctx, ast.Store) and self._is_state(node.value):
            self.found.append((node.lineno, f"{ast.unparse(node)} (set in the state)"))
        elif (_private(node.attr) and node.attr not in self.own
              and node.attr not in PUBLIC_UNDERSCORED
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            self.found.append((node.lineno, f"{ast.unparse(node)} (a private name)"))
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        # A private name of another room (top-level package); within a package its
        # modules share their helpers.
        source = self.package if node.level else (node.module or "").split(".")[0]
        if not node.level and not _is_room(source):
            return  # a third party's internals are that party's business, not the battle's
        module_private = any(_private(part) for part in (node.module or "").split("."))
        for alias in node.names:
            if (_private(alias.name) or module_private) and source != self.room:
                self.found.append((node.lineno, f"from {node.module} import {alias.name} "
                                                "(a private name of another room)"))


def scan(path: Path) -> list[str]:
    """The reads of ``path`` past the battle's interface, as ``file:line: text``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    room = _room(path)
    visitor = _Scan(tree, room, room)
    visitor.visit(tree)
    rel = path.relative_to(ROOT).as_posix()
    return [f"{rel}:{line}: {text}" for line, text in sorted(visitor.found)]


def _scan_text(source: str, name: str = "terminal/x.py") -> list[str]:
    tree = ast.parse(source)
    room = name.split("/")[0]
    visitor = _Scan(tree, room, room)
    visitor.visit(tree)
    return [text for _, text in visitor.found]


# ------------------------------------------------------------------ the scan itself

@pytest.mark.parametrize("source", [
    'battle.state.pages[uid].faces[side]',
    's = battle.state\nfor uid in s.zones["hand"]: pass',
    'def f(b):\n    t = b.state\n    return t.enemy["hp"]',
    'lambda b: b.state.enemy["seat"]',
    'sum(v for v, e in trial.state.defense)',
    'battle._choice',
    'session.battle._records.clear()',
    'from runtime.playing import _blocked',
    'battle.state.move(uid, "hand")',
    'Battle(tables, battle.state.copy(), streams)',
    'session.battle.state.hp = 3',
])
def test_the_scan_flags_a_read_past_the_interface(source):
    assert _scan_text(source)


@pytest.mark.parametrize("source", [
    'battle.page_id(uid)',
    'battle.state.hp + battle.state.counter("run", "plays") + battle.state.param("pen_cap")',
    'outcome.state',
    'self._cache = {}\nself._cache.clear()',
    'class A:\n    def _x(self): pass\ndef f(a): return a._x()',
    'os._exit(1)',
    'from .features import _term_markdown',
    'from ray._private import worker',
    'TITLES[self.state]',
    'pages = {}\npages["x"]',
])
def test_the_scan_lets_the_interface_and_a_modules_own_names_pass(source):
    assert _scan_text(source, "lsp/x.py") == []


def test_the_scan_covers_the_consumers():
    scanned = {p.relative_to(ROOT).as_posix() for p in _modules()}
    assert "terminal/screen.py" in scanned and "sim/policies.py" in scanned
    assert "scenario/run.py" in scanned and "cli.py" in scanned
    assert not any(p.startswith(("runtime/", "journey/")) for p in scanned)
    assert "benchmarks/handwritten_battle.py" not in scanned


# ------------------------------------------------------------------ the rule

@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_consumers_read_the_battle_through_its_public_interface():
    found = [line for path in _modules() for line in scan(path)]
    assert found == [], "\n".join(found)


# ------------------------------------------------------------------ the queries

@functools.cache
def _tables():
    from runtime.tables import load

    return load()


def _battle_in_play():
    import random

    from runtime.battle import Battle

    battle = Battle.new(_tables(), seed=3, enemies=["haguruma"])
    rng = random.Random(3)
    for _ in range(12):  # a few actions in: pages on the discard, Intents spent
        if battle.over:
            break
        battle.apply(rng.choice(battle.actions()))
    assert not battle.over and battle.hand and battle.zone("draw")
    return battle


def test_the_queries_say_what_the_view_shows():
    battle = _battle_in_play()
    seen = battle.view()
    assert [page["uid"] for page in seen["hand"]] == battle.zone("hand") == battle.hand
    for page in seen["hand"]:
        assert battle.page_id(page["uid"]) == page["page"]
        assert battle.instance(page["uid"]) == {key: page[key] for key in
                                                ("page", "lifetime", "faces")}
        for side, face in page["faces"].items():
            assert battle.face(page["uid"], side) == face
    assert {zone: battle.zone_size(zone) for zone in seen["piles"]} == seen["piles"]
    enemy = seen["enemy"]
    assert (battle.enemy_id, battle.enemy_hp, battle.seat) == (enemy["id"], enemy["hp"],
                                                               enemy["seat"])
    assert battle.intents() == enemy["intents"]
    assert battle.intent_count() == len(enemy["intents"])
    assert battle.intent_count("attack") == sum(i["kind"] == "attack" for i in enemy["intents"])
    assert [p["fires"] for p in battle.placed()] == [p["fires"] for p in seen["board"]]


def test_changing_what_a_query_returns_changes_nothing_in_the_battle():
    battle = _battle_in_play()
    before = battle.information()
    uid = battle.hand[0]
    battle.zone("hand").clear()
    battle.face(uid, "future")["state"] = "blank"
    battle.instance(uid)["faces"]["past"]["state"] = "blank"
    for intent in battle.intents():
        intent.clear()
    for placed in battle.placed():
        placed.clear()
    for mod in battle.mods():
        mod.clear()
    assert battle.information() == before


def test_first_of_finds_the_first_instance_in_the_zones_order():
    battle = _battle_in_play()
    uid = battle.hand[-1]
    page = battle.page_id(uid)
    assert battle.first_of(page, ("hand",)) == next(u for u in battle.hand
                                                    if battle.page_id(u) == page)
    assert battle.first_of("no-such-page", ("hand", "draw")) is None


def test_dev_into_hand_puts_the_page_first_and_keeps_the_hand_cap():
    battle = _battle_in_play()
    size = len(battle.hand)
    page = battle.page_id(battle.zone("draw")[-1])
    battle.dev_into_hand(page)
    assert battle.page_id(battle.hand[0]) == page
    assert len(battle.hand) == min(size + 1, battle.state.param("hand_cap"))


def test_shuffle_draw_orders_the_pile_from_its_sorted_order():
    import random

    battle = _battle_in_play()
    twin = battle.copy()
    pile = sorted(battle.zone("draw"))
    battle.shuffle_draw(random.Random(7))
    random.Random(7).shuffle(pile)
    assert battle.zone("draw") == pile
    assert sorted(twin.zone("draw")) == sorted(pile)  # the copy keeps its own order
