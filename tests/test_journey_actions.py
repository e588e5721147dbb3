"""The journey's tools above the rules play through ``Journey`` (contract.game.Game) with
action values: journey/screen/ and journey/lab/ never call the rules' ``apply`` or
``legal_actions`` themselves (an ast scan), and the words a player types name the action
values of every legal action and read back to them (journey.notation)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from contract.game import Action
from journey import Journey, load_rules
from journey.notation import action_label, action_labels, read

ROOT = Path(__file__).resolve().parent.parent
#: The layers that must go through the game interface.
ABOVE_THE_RULES = ("journey/screen", "journey/lab")
#: The rules' own functions (journey/play.py, re-exported by journey/__init__.py).
RULES_CALLS = {"apply", "legal_actions"}
RULES_MODULES = {"journey", "journey.play"}
#: The relative module names that are the rules, from a subpackage of journey/.
RELATIVE_RULES = {(2, None), (2, "play")}


def rules_calls(source: str) -> list[str]:
    """Where ``source`` reaches the rules' apply/legal_actions: a name imported from
    journey or journey.play, or an attribute of the play module (``play.apply``)."""
    tree = ast.parse(source)
    found = []
    modules = set()  # local names bound to journey.play
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            rules = node.module in RULES_MODULES or (node.level, node.module) in RELATIVE_RULES
            for alias in node.names:
                if rules and alias.name in RULES_CALLS:
                    found.append(f"import {alias.name} (line {node.lineno})")
                if rules and alias.name == "play":
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "journey.play":
                    modules.add(alias.asname or "journey")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in RULES_CALLS
                and isinstance(node.value, (ast.Name, ast.Attribute))
                and ast.unparse(node.value).split(".")[-1] in modules | {"play"}):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


def _sources():
    for folder in ABOVE_THE_RULES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_the_scan_finds_every_way_of_reaching_the_rules():
    planted = ("from .. import JourneyError, apply\nfrom ..play import legal_actions as la\n"
               "from .. import play\nimport journey.play\n"
               "def f(s):\n    play.apply(s, ('end',))\n    journey.play.legal_actions(s)\n")
    assert len(rules_calls(planted)) == 4
    assert rules_calls("from ..game import Journey\nfrom ..play import score\n"
                       "def f(j):\n    return j.apply(j.actions()[0])\n") == []


def test_screen_and_lab_never_call_the_rules_apply_or_legal_actions():
    wrong = {path: calls for path, source in _sources() if (calls := rules_calls(source))}
    assert wrong == {}


def _walk(seed: int, setup: str | None, moves: int):
    """The games a seeded random player reaches, position after position."""
    rng = random.Random(seed)
    game = Journey.new(load_rules(setup), seed)
    for _ in range(moves):
        yield game
        actions = game.actions()
        if not actions:
            return
        game.apply(rng.choice(actions))


@pytest.mark.parametrize("setup,seed", [(None, 1), (None, 4), ("問題点", 2), ("高難易度", 3)])
def test_every_legal_action_value_has_a_label_that_reads_back_to_it(setup, seed):
    seen = 0
    for game in _walk(seed, setup, 60):
        known = action_labels(game)
        assert len(known) == len(game.actions())  # one label per action
        for typed, action in known.items():
            assert isinstance(action, Action)
            assert action_label(game, action) == typed
            assert read(game, typed) == action
            seen += 1
    assert seen > 60


def test_reading_a_japanese_spelling_gives_the_same_action_value():
    game = Journey.new(load_rules(), 1)
    typed = next(iter(action_labels(game)))  # a play: "play 赤3 黒2"
    assert read(game, "出す " + typed.split(" ", 1)[1]) == read(game, typed)
