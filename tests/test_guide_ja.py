"""The designer's guide in Japanese (docs/guide-ja.md) says what the tools do: its example
passes as written, and every ``jibunki`` command line it shows is one the command line
accepts (each command, subcommand and option exists and takes what is written)."""

from __future__ import annotations

import re
import shlex
import warnings

import click
import pytest

from cli import main
from conftest import ROOT
from scenario.stage import lint_text

GUIDE = (ROOT / "docs" / "guide-ja.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", GUIDE, re.S)


def _commands() -> list[list[str]]:
    found = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("jibunki "):
                found.append(shlex.split(line)[1:])
    return found


def test_the_guide_is_in_japanese_and_shows_commands():
    assert GUIDE.startswith("# 自分紀 jibunki — デザイナーのための手引き")
    assert len(_commands()) >= 15


def _rest(ctx: click.Context) -> list[str]:
    """What a group's context left for its subcommand (click 8 keeps the subcommand's
    name apart, in a field it deprecates for click 9, where ``args`` holds it all)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return [*getattr(ctx, "protected_args", ()), *ctx.args]


@pytest.mark.parametrize("args", _commands(), ids=lambda a: " ".join(a))
def test_every_command_line_of_the_guide_is_accepted(args, monkeypatch):
    monkeypatch.chdir(ROOT)  # the paths it names are the bundled content's
    ctx = main.make_context("jibunki", list(args))
    command, rest = main, _rest(ctx)
    while isinstance(command, click.Group) and rest:
        name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(name, rest, parent=ctx)  # a bad option is a UsageError
        rest = _rest(ctx) if isinstance(command, click.Group) else []


def test_the_guides_example_passes_as_written():
    (example,) = _blocks("jibunki")
    result = lint_text(example, "guide.scenario", {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in (ROOT / "content").rglob("*") if p.suffix in (".page", ".enemy", ".balance")})
    assert result.diagnostics == [] and [r.passed for r in result.examples] == [True]
