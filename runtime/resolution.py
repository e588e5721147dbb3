"""解決 — the resolution as data: the battle's stack of steps, run until it is empty or a step asks the player.

``battle._stack`` holds the steps left of the action being resolved, the next one last,
each a ``(function, arguments)`` pair: a function of the battle and those arguments, from
the rooms' modules (playing, board, turn …). A step does its work and, when something
must follow it, pushes that — what follows first, then what it sets off on top (a firing
of the board, an effect list), so that the pushed work resolves first and the step's own
rest after it. A step that calls another inline and finds the stack grown puts its rest
beneath what was pushed (``list.insert`` at the height it began at): the usual case —
nothing fired — pushes nothing and costs no step. A step that needs the player returns a
``Pending`` with the step that takes the answer on top (``ask``); every other step
returns None. Nothing but plain values, the tables' frozen objects and the state's placed
effects is ever pushed, and no step changes its arguments once pushed: a copy of the
battle copies the stack (``Battle.copy``), where a suspended generator could not be.
"""

from __future__ import annotations

from contract.game import Pending

from . import board, outcome
from .state import BattleFields, Placed


def begin(battle: BattleFields, *steps) -> None:
    """Resolve a player action's steps (the last given first), then settle the stage
    when it is over (``outcome.settle``, which may ask the player too)."""
    if battle._links_made:  # a step's chains are its own (board.CHAIN_BOUND)
        battle._links_made = 0
        battle._links = {}
    battle._stack = [(outcome.settle, ()), *steps]
    resolve(battle)


def resolve(battle: BattleFields) -> None:
    """Run steps until the stack is empty or a step asks the player (``_choice``)."""
    stack = battle._stack
    pop = stack.pop
    while stack:
        step, args = pop()
        request = step(battle, *args)
        if request is not None:
            battle._choice = request
            battle.emit(("choice_requested", list(request.candidates), request.count))
            return


def ask(battle: BattleFields, request: Pending, step, args: tuple) -> Pending:
    """Wait for the player: ``step`` takes the answer after ``args`` when it comes."""
    battle._stack.append((step, args))
    return request


def answer(battle: BattleFields, chosen) -> None:
    """Give the waiting step its answer (the step on top of the stack, ``ask``)."""
    stack = battle._stack
    step, args = stack.pop()
    stack.append((step, (*args, chosen)))


def drain(battle: BattleFields, timing: str) -> None:
    """Fire ``timing`` to its end where no choice can have an answer (the run is over):
    each request is answered with no pages; the resolution that was under way is left
    as it was."""
    outer = battle._stack
    stack = battle._stack = []
    if board.fire(battle, timing):
        while stack:
            step, args = stack.pop()
            if step(battle, *args) is not None:
                answer(battle, [])
    battle._stack = outer


def remapped(value, own: dict):
    """A step's arguments with each placed effect of the state (a dict the state's
    ``effects`` holds: ``own`` maps its id to the copy's) taken as the copy's, lists and
    tuples made anew; every other value is shared — no step changes its arguments once
    pushed."""
    kind = type(value)
    if kind is Placed:
        return own.get(id(value), value)
    if kind is list or kind is tuple:
        return kind(remapped(item, own) for item in value)
    return value
