"""The battle loop: interactive at the keyboard, or a script with a transcript.

Interactive: the screen, redrawn in place after every action (the terminal is cleared,
the screen drawn to fit its size, then the last command and what it did just above the
prompt), so the enemy stays in view on an 80×24 terminal; a pen or a tear shows its
preview and asks first (``--yes`` does not ask). The line editor (history, completion)
is the caller's ``keyboard``. Script (``--script`` or commands on standard input): every
command echoed with what it did, the final screen, the outcome and a summary — the same
seed and script always print the same text. ``--json`` prints the event stream as JSON
lines instead.

A battle that ends (won or lost) stays open until quit, or to the script's last line: its
actions are refused, and a record, a save or an undo of the ending still work.

The exit status says how the battle ended: EXIT_WON, EXIT_LOST, or EXIT_UNFINISHED for a
battle left before its end (quit, or a script that runs out first); EXIT_STOPPED for a
script stopped at a ``save`` or ``record`` that could not write its file (an existing
file is replaced only with ``force``, or at the keyboard when the player says yes).
"""

from __future__ import annotations

import errno
import inspect
import os
import sys
import unicodedata

from .narrate import Kept, lines as narrate
from .record import dev_line, summary
# The exit codes are read from here too (tests, callers of play).
from .script import (EXIT_LOST, EXIT_STOPPED, EXIT_UNFINISHED, EXIT_WON,  # noqa: F401
                     commands, emit, exit_code)
from .session import Session
from contract import linebreak
from contract.vocabulary import W

#: Width of the screen when not on a terminal, so transcripts do not depend on it.
PLAIN_WIDTH = 100
#: Lines kept for the prompt below the screen and the narration.
PROMPT_LINES = 1
#: At least this many narration lines fit under the screen at the keyboard (the command
#: and what it did: a play's line, its damage, the move, the crossing), the screen giving
#: up detail rows of the hand for them.
MIN_NARRATION = 5
#: Said at the keyboard when the battle ends: the session goes on until quit.
ENDED = "戦闘は終わりました。record で例に書く、save で保存、undo で戻す、quit で終わります。"
#: Answers that mean yes to a confirmation.
YES = {"y", "yes", "はい", "ok"}


def _console(interactive: bool):
    from rich.console import Console

    class RunConsole(Console):
        def on_broken_pipe(self) -> None:
            # rich exits 1 — a lost run's status — when the reader has gone
            # (``| head``); the command group ends the run unplayed instead.
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    if interactive:
        return RunConsole(highlight=False)
    return RunConsole(file=sys.stdout, width=PLAIN_WIDTH, color_system=None, highlight=False,
                      force_terminal=False, soft_wrap=False)


def exit_status(session: Session) -> int:
    """0 won, 1 lost, 3 not finished."""
    return exit_code(session.battle.state.outcome)


def screen_for(battle, *, width=None, height=None, ascii=False, only=None):
    """terminal.screen.screen with the keywords its signature has (the size of the terminal,
    ascii, one part alone) — an older screen takes the battle alone."""
    from .screen import screen

    params = inspect.signature(screen).parameters
    wanted = {"width": width, "height": height, "ascii": ascii, "only": only}
    return screen(battle, **{k: v for k, v in wanted.items()
                             if k in params and (v is not None and v is not False)})


def narration(events, tables) -> list[str]:
    """The events as lines: developer-mode settings in the designer's words (terminal.record),
    every other kind as terminal.narrate says it."""
    out: list[str] = []
    for event in events:
        out += [dev_line(event.data, tables)] if event.kind == "dev_set" else narrate([event], tables)
    return out


def play(tables, *, seed, enemies, deck, with_pages, lines, as_json, keyboard=None,
         ascii=False, yes=False, hint=None, force=False) -> int:
    """Play a battle in the terminal: at the keyboard when ``lines`` is None (``keyboard``
    reads lines: ``read()``, ``ask(question)``, ``bind(session)``; without one, rich's
    input), else the commands of ``lines`` with a transcript (``as_json``: JSON lines).
    ``force``: ``save``/``record`` replace an existing file without asking.
    The exit status (EXIT_WON, EXIT_LOST, EXIT_UNFINISHED, EXIT_STOPPED)."""
    session = Session(tables, seed=seed, enemies=enemies, deck=deck, with_pages=with_pages,
                      hint=hint)
    if force:
        session.overwrite = lambda path: True
    if as_json:
        return _json_mode(session, lines)
    if lines is None:
        return _keyboard_mode(session, keyboard or _PlainKeyboard(_console(True)),
                              ascii=ascii, yes=yes)
    console = _console(False)
    _say(console, narration(session.opening, tables))
    console.print(screen_for(session.battle, ascii=ascii))
    stopped = False
    for _, line in commands(lines, strip=False):  # echoed as written
        console.print(linebreak.shown(f"> {linebreak.clipped(line)}"), style="bold", markup=False)
        outcome = session.run(line)
        _say(console, _outcome_lines(session, outcome))
        if outcome.part is not None:
            console.print(screen_for(session.battle, ascii=ascii, only=outcome.part))
        if outcome.stop:
            stopped = True
            _say(console, [f"スクリプトをここで止めました（{outcome.stop}）"])
        # A battle that has ended still takes the lines after it: a record, a save or an
        # undo of the ending (its actions are refused, saying the run is over).
        if stopped or outcome.quit:
            break
    console.print(screen_for(session.battle, ascii=ascii))
    _say(console, ["── まとめ ──", _result(session), *summary(session)])
    return EXIT_STOPPED if stopped else exit_status(session)


def _outcome_lines(session: Session, outcome) -> list[str]:
    lines = list(outcome.notes)
    if outcome.refused:
        lines.append(f"× {outcome.refused}")
    return lines + narration(outcome.events, session.tables)


class _PlainKeyboard:
    """Lines read by rich's console.input (no history, no completion)."""

    def __init__(self, console):
        self.console = console

    def bind(self, session) -> None:
        pass

    def read(self) -> str:
        return self.console.input("[bold]> [/bold]")

    def ask(self, question: str) -> str:
        return self.console.input(question)


def _keyboard_mode(session: Session, keyboard, *, ascii: bool, yes: bool) -> int:
    console = _console(True)
    tables = session.tables
    keyboard.bind(session)

    def confirm(preview: list[str]) -> bool:
        _say(console, preview)
        return _ask_yes(keyboard, "実行しますか？ [y/N] ")

    if not yes:
        session.confirm = confirm
    if session.overwrite is None:
        session.overwrite = lambda path: _ask_yes(keyboard, f"{path} はもうあります。上書きしますか？ [y/N] ")
    told = narration(session.opening, tables)[-MIN_NARRATION:] + ["help でコマンド一覧。"]
    _draw(console, session, told, ascii=ascii)
    # Until quit: a battle that has ended stays on screen for a record, a save or an undo.
    while True:
        try:
            line = keyboard.read()
        except (EOFError, KeyboardInterrupt):
            break
        if not line.strip():
            continue  # an empty line does nothing
        over = session.battle.over
        outcome = session.run(line)
        told = [f"> {linebreak.clipped(line.strip())}", *_outcome_lines(session, outcome)]
        if outcome.quit:
            break
        if session.battle.over and not over:
            told += [Kept(_result(session)), Kept(ENDED)]  # what to do now: never folded
        if outcome.below or (not outcome.show and len(told) > _room(console) - 1):
            # long (help): printed below, the screen scrolls; the command typed is still on
            # screen just above, so it is not echoed again
            _say(console, told[1:])
            if outcome.part is not None:
                console.print(screen_for(session.battle, ascii=ascii, only=outcome.part))
        else:
            _draw(console, session, told, ascii=ascii)
    _say(console, ["── まとめ ──", _result(session), *summary(session)])
    return exit_status(session)


def _ask_yes(keyboard, question: str) -> bool:
    """The player's answer to a y/n question; no answer (Ctrl-D, Ctrl-C) is no."""
    try:
        answer = keyboard.ask(question)
    except (EOFError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in YES


def _room(console) -> int:
    """Lines for the narration under a screen of average height."""
    return max(MIN_NARRATION, console.size.height // 3)


def _draw(console, session: Session, told: list[str], *, ascii: bool) -> None:
    """Clear the terminal, draw the screen to fit it, and the narration under it (its last
    lines when it is longer than the room left)."""
    width, height = console.size
    want = min(len([line for line in told if not _explains(line)]) + 1, MIN_NARRATION)
    with console.capture() as captured:
        console.print(screen_for(session.battle, width=width,
                                 height=height - PROMPT_LINES - want, ascii=ascii))
    drawn = captured.get().rstrip("\n").split("\n")
    budget = max(want, height - PROMPT_LINES - len(drawn))
    shown = fit_narration(told, budget)
    # A line wider than the terminal takes more than one row: the narration gives way,
    # its first lines first, until the screen's top line and the notice below it fit.
    while shown and height - PROMPT_LINES - _rows(shown, width) < 2:
        shown = shown[1:]
    room = height - PROMPT_LINES - _rows(shown, width)
    if len(drawn) > room:  # the screen alone does not fit: keep its top (the enemy)
        drawn = drawn[:max(1, room - 1)] + [_one_line(CUT, width)]
    console.clear()
    console.file.write("\n".join(drawn) + "\n")
    console.file.flush()
    _say(console, shown)


#: Said under a screen cut short by a small terminal (no character of ambiguous width:
#: a terminal may draw those two columns wide).
CUT = "（端末が小さいので画面の続きは省略）"


def _cells(text: str) -> int:
    """The columns ``text`` may take: a kanji two, and a character of ambiguous width (…, →,
    −) two as well — rich counts it as one, a terminal in a CJK setting draws it as two."""
    from rich.cells import cell_len

    return cell_len(text) + sum(unicodedata.east_asian_width(c) == "A" for c in text)


def _rows(lines: list[str], width: int) -> int:
    """The terminal rows ``lines`` may take at ``width`` columns (``_cells``)."""
    return sum(max(1, -(-_cells(str(line)) // max(1, width))) for line in lines)


def _one_line(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns (``_cells``), so that it takes one row: a line that
    wrapped would push the screen's top line off a small terminal."""
    while text and _cells(text) > width:
        text = text[:-1]
    return text


def fit_narration(told: list[str], budget: int) -> list[str]:
    """The narration in ``budget`` lines: first without the indented lines that say how a
    number came about (``log`` shows them); then the lines of what was dealt (Kept), the
    first two lines and as many of the last as fit, and one line in place of the others
    that says how many they are. What was dealt is never folded, even when its lines
    alone pass the budget."""
    if len(told) <= budget:
        return told
    plain = [at for at, line in enumerate(told) if not _explains(line)]
    if len(plain) < budget:
        return [told[at] for at in plain] + [f"（数の出どころ {len(told) - len(plain)} 行は log で）"]
    shown = {at for at in plain if isinstance(told[at], Kept)}
    for at in (*plain[:2], *reversed(plain[2:])):  # the command and its first line, the end
        if at not in shown and len(_folded(told, shown | {at})) > budget:
            break
        shown.add(at)
    return _folded(told, shown)


def _explains(line: str) -> bool:
    """An indented line: how the number of the line above came about."""
    return line.startswith("  ")


def _folded(told: list[str], shown: set[int]) -> list[str]:
    """The lines of ``told`` at ``shown``, in order, with one line that counts the others
    where the last line left out was (so the end of the narration stays last) — also
    when only lines that explain a number are left out: nothing goes without a word."""
    left_out = [at for at in range(len(told)) if at not in shown]
    out = [line for at, line in enumerate(told) if at in shown]
    if left_out:
        before = sum(at < left_out[-1] for at in shown)
        out.insert(before, f"…（ほか {len(left_out)} 行: log で全部）")
    return out


def _say(console, lines) -> None:
    for line in lines:  # designer text among them: printed as plain text, and shown
        console.print(linebreak.shown(line), markup=False)


def _result(session: Session) -> str:
    outcome = session.battle.state.outcome
    s = session.battle.state
    if outcome == "won":
        return f"結果: {W.quantity.won}（{len(s.stages)} {W.scope.stage}、{W.scope.turn} {s.turns_run}）"
    if outcome == "lost":
        return f"結果: {W.quantity.lost}（{W.scope.stage} {s.stage_index + 1}、{W.scope.turn} {s.turns_run}）"
    return f"結果: 途中（{W.scope.stage} {s.stage_index + 1}、{W.scope.turn} {s.turn}）"


def _json_mode(session: Session, lines) -> int:
    for event in session.opening:
        emit(event.as_dict())
    for _, line in commands(lines or ()):
        outcome = session.run(line)
        emit({"kind": "command", "line": line})
        if outcome.refused:
            emit({"kind": "refused", "reason": outcome.refused})
        for event in outcome.events:
            emit(event.as_dict())
        if outcome.stop:
            return EXIT_STOPPED
        if outcome.quit:
            break
    return exit_status(session)
