"""Every command's --help states its exit codes (docs/guide-ja.md promises it): build,
catalog, explain, vocab, watch and lsp said none, and a designer's CI step reads them."""

from __future__ import annotations

import click
import pytest

import cli
from conftest import invoke_cli


def _commands(group: click.Group, prefix=()):
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize("words", list(_commands(cli.main)), ids=" ".join)
def test_every_commands_help_states_its_exit_codes(words):
    result = invoke_cli(*words, "--help")
    assert result.exit_code == 0, result.output
    said = "".join(result.output.split())  # as wrapped to the terminal's width
    assert "終了コード:0" in said and "使い方の誤り" in said, result.output
