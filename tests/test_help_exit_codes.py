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


@pytest.mark.parametrize("words", list(_commands(cli.main)), ids=" ".join)
def test_the_exit_codes_are_a_list_a_code_a_line(words):
    """Each code opens a line of its own under 終了コード:, its meaning wrapped in a column
    beside it — a run-on sentence of five codes (battle, journey) was read for the code
    a script had just returned."""
    lines = invoke_cli(*words, "--help").output.splitlines()
    head = lines.index("  終了コード:")
    listed = []
    for line in lines[head + 1:]:
        if not line.strip():
            break
        code = line[:7].strip()
        if code:
            assert line.startswith("    ") and code.isdigit() and line[7:8] != " ", line
            listed.append(int(code))
        else:  # a meaning wrapped: in the column of the meanings
            assert line.startswith(" " * 7) and line[7] != " ", line
    assert listed == sorted(listed) and listed[0] == 0 and 2 in listed, lines[head:]


def test_a_long_meaning_wraps_under_itself():
    from terminal.click_ja import paragraphs

    text = "終了コード:\n0 できた\n1 " + "とても長い説明" * 8 + "\n  続き\n2 使い方の誤り"
    shown = paragraphs(text, 40, "  ")
    assert shown[:2] == ["  終了コード:", "    0  できた"]
    assert shown[2].startswith("    1  とても長い説明") and shown[-1] == "    2  使い方の誤り"
    middle = shown[3:-1]
    assert middle and all(line.startswith(" " * 7) and line[7] != " " for line in middle)
    assert "続き" in middle[-1]
