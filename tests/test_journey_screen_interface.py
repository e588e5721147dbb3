"""The journey's screen reads the game through its public interface only (one game
interface: every consumer through it, the terminal's journey screen too): ``Journey``'s
``view()``, ``information()``, ``pending``, ``actions()``, ``apply`` and ``result``, and
the rules' static tables — never the solitaire's ``State``. An ast scan of journey/screen/
finds an import of the state module (or of the rules' functions over a state: play,
steps, effects), the name ``State``, or a ``.state`` read; and the view carries what the
screen shows (the days' room, the face-up top card, the lit lanterns, what a moment comes
before) as plain data.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from journey import Journey, load_rules
from journey.actions import Next, UseItem
from journey.screen.terminal import screen

ROOT = Path(__file__).resolve().parent.parent
SCREEN = ROOT / "journey" / "screen"
#: journey's modules that hold the raw state or the rules' functions over it.
STATE_MODULES = {"state", "play", "steps", "effects"}


def state_reads(source: str) -> list[str]:
    """Where ``source`` (a module of journey/screen/) reaches the solitaire's state."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level != 1:  # not screen/'s own
            module = node.module.split(".") if node.module else []
            inside = module[1:] if node.level == 0 and module[:1] == ["journey"] else \
                module if node.level else None
            if inside is None:
                continue  # another package (contract, terminal…)
            names = {a.name for a in node.names}
            if (inside and inside[0] in STATE_MODULES) or (
                    not inside and names & (STATE_MODULES | {"State"})):
                found.append(_where(node))
        elif isinstance(node, ast.Import):
            if any(a.name.split(".")[:2] in (["journey", m] for m in STATE_MODULES)
                   for a in node.names):
                found.append(_where(node))
        elif isinstance(node, ast.Name) and node.id == "State":
            found.append(_where(node))
        elif isinstance(node, ast.Attribute) and node.attr in ("state", "State"):
            found.append(_where(node))
    return found


def _where(node: ast.AST) -> str:
    if isinstance(node, ast.ImportFrom):  # unparse cannot write ``from .. import x``
        names = ", ".join(a.name for a in node.names)
        return f"from {'.' * node.level}{node.module or ''} import {names} (line {node.lineno})"
    return f"{ast.unparse(node)} (line {node.lineno})"


@pytest.mark.parametrize("line", [
    "from ..state import Deal", "from .. import state", "from journey.state import Deal",
    "import journey.state", "from ..play import open_top", "from journey import State",
    "from .. import Journey, State", "def f(s: State): pass", "x = journey.state.phase",
    "import journey.steps as steps", "x = journey.State"])
def test_the_scan_finds_every_way_of_reaching_the_state(line):
    assert state_reads(line) != []


def test_the_scan_leaves_the_interface_and_the_rules_tables_alone():
    assert state_reads("from ..game import Journey\nfrom .. import Journey, JourneyError\n"
                       "from ..notation import action_labels\nfrom ..rules import Rules\n"
                       "from .commands import help_lines\nfrom contract.game import Pending\n"
                       "import journey.notation\n"
                       "def f(j):\n    return j.view()['phase'], j.rules.suits, j.pending\n") == []


@pytest.mark.parametrize("path", sorted(SCREEN.glob("*.py")), ids=lambda p: p.name)
def test_the_screen_reads_no_state(path):
    assert state_reads(path.read_text(encoding="utf-8")) == []


# ------------------------------------------------------------------ what the view carries


def _walk(rules, seed: int, items, moves: int = 400):
    """The positions a seeded random player reaches (the same game each time)."""
    rng = random.Random(seed)
    game = Journey.new(rules, seed, items)
    for _ in range(moves):
        yield game
        if not game.actions():
            return
        game.apply(rng.choice(game.actions()))


def test_the_view_gives_each_days_room_as_the_deal_laid_it():
    game = Journey.new(load_rules("草案"), 3)
    deal = next(e for e in game.opening if e["event"] == "deal")
    assert game.view()["capacity"] == deal["capacity"]
    assert screen(game)[2].split()[2] == f"{len(game.view()['stacks'][0])}/{deal['capacity'][0]}"


@pytest.mark.parametrize("setup, shown", [("草案", False), ("手札二枚と公開", True)])
def test_the_view_says_whether_the_top_card_lies_face_up(setup, shown):
    game = Journey.new(load_rules(setup), 5)
    view = game.view()
    assert view["open_top"] is shown and (view["top"] is not None) is shown
    assert ("山の上: " in screen(game)[0]) is shown


def test_the_view_names_the_step_a_moment_comes_before():
    rules = load_rules("草案")
    seen = set()
    for game in _walk(rules, 2, ["地図", "テント"]):
        view = game.view()
        assert (view["moment"] is not None) == (view["phase"] == "moment")
        if view["phase"] == "moment":
            assert game.pending is None and Next() in game.actions()
            seen.add(view["moment"])
    assert seen  # the random game met a moment


def test_the_view_lists_the_suits_a_lit_lantern_treats_as_unresolved():
    rules = load_rules("草案")
    lit = None
    for seed in range(30):
        for game in _walk(rules, seed, ["ランタン", "地図"]):
            lantern = [a for a in game.actions() if isinstance(a, UseItem) and a.index == 0]
            assert game.view()["lantern"] == []  # no lantern before it is used
            if lantern:
                game.apply(lantern[0])
                lit = game
                break
        if lit:
            break
    assert lit is not None, "no random game could use its ランタン"
    suit = rules.suits[lantern[0].args[0]]
    assert lit.view()["lantern"] == [suit] and suit in lit.view()["resolved"]
    word = rules.suit_word(lantern[0].args[0])
    assert f"ランタン: {word}は手番終了まで未解決として扱う" in screen(lit)
