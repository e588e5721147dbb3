"""The battle loop: interactive at the keyboard, or a script with a transcript.

Interactive: the screen after every action, then a prompt. Script (``--script`` or
commands on standard input): every command echoed with what it did, the final screen,
and the outcome — the same seed and script always print the same text. ``--json``
prints the event stream as JSON lines instead.
"""

from __future__ import annotations

import json
import sys

from .narrate import lines as narrate
from .session import Session
from contract.vocabulary import W

#: Exit status of a battle command: 0 played through (whatever the outcome).
EXIT_OK = 0
#: Width of the screen when not on a terminal, so transcripts do not depend on it.
PLAIN_WIDTH = 100


def _console(interactive: bool):
    from rich.console import Console

    if interactive:
        return Console(highlight=False)
    return Console(file=sys.stdout, width=PLAIN_WIDTH, color_system=None, highlight=False,
                   force_terminal=False, soft_wrap=False)


def play(tables, *, seed, enemies, deck, with_pages, lines, as_json) -> int:
    """Play a battle in the terminal: at the keyboard when ``lines`` is None, else the
    commands of ``lines`` with a transcript (``as_json``: JSON lines). The exit status."""
    session = Session(tables, seed=seed, enemies=enemies, deck=deck, with_pages=with_pages)
    if as_json:
        return _json_mode(session, lines)
    interactive = lines is None
    console = _console(interactive)
    from .screen import screen

    _say(console, narrate(session.opening, tables))
    console.print(screen(session.battle))
    if interactive:
        console.print("help でコマンド一覧。", style="dim")
    source = _prompt_lines(console) if interactive else lines
    for raw in source:
        line = raw.rstrip("\n")
        if not interactive:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            console.print(f"> {line}", style="bold", markup=False)
        outcome = session.run(line)
        _say(console, outcome.notes)
        if outcome.refused:
            console.print(f"× {outcome.refused}", style="yellow", markup=False)
        _say(console, narrate(outcome.events, tables))
        if outcome.quit:
            break
        if interactive and outcome.show:
            console.print(screen(session.battle))
        if session.battle.over:
            break
    if not interactive:
        console.print(screen(session.battle))
    _say(console, [_result(session)])
    return EXIT_OK


def _say(console, lines) -> None:
    for line in lines:
        console.print(line, markup=False)


def _prompt_lines(console):
    while True:
        try:
            yield console.input("[bold]> [/bold]")
        except (EOFError, KeyboardInterrupt):
            return


def _result(session: Session) -> str:
    outcome = session.battle.state.outcome
    s = session.battle.state
    if outcome == "won":
        return f"結果: {W.quantity.won}（{len(s.stages)} {W.scope.stage}、{W.scope.turn} {s.turns_run}）"
    if outcome == "lost":
        return f"結果: {W.quantity.lost}（{W.scope.stage} {s.stage_index + 1}、{W.scope.turn} {s.turns_run}）"
    return f"結果: 途中（{W.scope.stage} {s.stage_index + 1}、{W.scope.turn} {s.turn}）"


def _json_mode(session: Session, lines) -> int:
    def emit(obj):
        sys.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")

    for event in session.opening:
        emit(event.as_dict())
    for raw in lines or ():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        outcome = session.run(line)
        emit({"kind": "command", "line": line})
        if outcome.refused:
            emit({"kind": "refused", "reason": outcome.refused})
        for event in outcome.events:
            emit(event.as_dict())
        if outcome.quit or session.battle.over:
            break
    return EXIT_OK
