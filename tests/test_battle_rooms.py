"""The battle as rooms of functions behind one facade, and its resolution as data
(issue 27, one game interface: "the resolution as data — a stack of what is being
resolved, not generators; Battle a facade of functions over the state, not mixins")."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import sys
from pathlib import Path

import runtime
from contract.tables import Sayou
from runtime.battle import Battle
from runtime.playing import PlayPlan
from runtime.sayou import Frame
from runtime.state import BattleFields
from conftest import bundled_tables

TABLES = bundled_tables()
#: The bundled pages that ask the player to choose (移動・複製・生成 with 選択).
CHOOSING = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari")
#: Generators of the runtime that are not a resolution: iterating a log's events, and
#: the tables' 作用 a save may name.
NOT_RESOLUTION = {"runtime.events.EventLog.__iter__", "runtime.save._table_effects"}
#: What a step's arguments may hold: plain values, the tables' frozen objects, frames,
#: plans — and the state's placed effects (dicts), which a copy takes as its own.
PLAIN = (int, float, str, bool, type(None), Sayou, Frame, PlayPlan, dict)


def _modules():
    for info in pkgutil.iter_modules(runtime.__path__):
        yield importlib.import_module(f"runtime.{info.name}")


def test_the_battle_is_one_class_not_a_stack_of_mixins():
    """Its behaviour is one class; its one base holds its fields and nothing else
    (runtime/state.py BattleFields: what the rooms read, a C struct when compiled)."""
    assert Battle.__mro__ == (Battle, BattleFields, object)
    assert not [name for name, value in vars(BattleFields).items()
                if callable(value) and not name.startswith("__")]


def _source(module) -> str:
    """The module's source (its file, or its compiled twin's source beside it)."""
    return (Path(runtime.__path__[0]) / f"{module.__name__.rpartition('.')[2]}.py").read_text(
        encoding="utf-8")


def _generator_functions(tree, prefix=""):
    """The qualified names of the generator functions of a module's source (read from
    the source: a compiled twin's functions are not inspect's functions)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _generator_functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(inner, (ast.Yield, ast.YieldFrom)) for inner in _own_nodes(node)):
                yield f"{prefix}{node.name}"
            yield from _generator_functions(node, f"{prefix}{node.name}.<locals>.")


def _own_nodes(function):
    """The nodes of ``function``'s body outside the functions and classes nested in it."""
    todo = list(function.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def test_no_resolution_of_the_runtime_is_a_suspended_generator():
    found = []
    for module in _modules():
        tree = ast.parse(_source(module))
        found += [f"{module.__name__}.{name}" for name in _generator_functions(tree)
                  if f"{module.__name__}.{name}" not in NOT_RESOLUTION]
    assert not found


def test_the_generators_left_are_the_ones_named():
    """The reading above sees a generator where there is one (it found these two)."""
    named = set()
    for module in _modules():
        tree = ast.parse(_source(module))
        named |= {f"{module.__name__}.{name}" for name in _generator_functions(tree)}
    assert named == NOT_RESOLUTION


def _plain(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_plain(item) for item in value)
    return isinstance(value, PLAIN)


def _waiting_battles(count: int):
    deck = TABLES.starter() + list(CHOOSING)
    for seed in range(200):
        battle = Battle.new(TABLES, seed=seed, enemies=["kodoku", "wasure"], deck=deck)
        rng = random.Random(seed)
        while battle.result is None and battle.pending is None:
            battle.apply(rng.choice(battle.actions()))
        if battle.pending is not None:
            yield battle
            count -= 1
            if not count:
                return


def test_a_pending_choice_waits_on_a_stack_of_plain_steps():
    """While a choice waits, the resolution is a list of (function of a room, arguments)
    — every function a module-level function of the runtime, every argument plain data
    — with the step that takes the answer on top: a copy copies it, and nothing in it is
    a suspended frame of Python."""
    battles = list(_waiting_battles(5))
    assert battles, "no battle reached a choice"
    for battle in battles:
        stack = battle._stack
        assert stack, "a pending choice waits in a resolution"
        for step, args in stack:
            # A module's own function (a compiled twin's too: not inspect.isfunction),
            # no method, no closure, no generator.
            assert step.__module__.startswith("runtime.")
            assert getattr(sys.modules[step.__module__], step.__name__, None) is step
            assert step.__qualname__ == step.__name__
            assert isinstance(args, tuple) and _plain(args), (step.__name__, args)
        top = stack[-1][0]
        assert top.__name__ in ("_picked", "_generated")  # the region step takes the answer


def test_a_copy_waits_on_its_own_stack():
    """A copy's resolution is its own list, of the same steps (the placed effects the
    steps name are the copy's: tests/test_runtime_rules.py, a choice mid-firing)."""
    for battle in _waiting_battles(3):
        twin = battle.copy(record=True)
        assert twin._stack is not battle._stack
        assert [step for step, _ in twin._stack] == [step for step, _ in battle._stack]
        twin.apply(twin.actions()[0])
        assert battle._stack and battle.pending is not None
