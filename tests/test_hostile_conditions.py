"""The tool keeps its promises under bad conditions (issue: no false greens, no planted
code, no half-written tables): designer text, CLI options, scripts, saves, the disk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from conftest import ROOT


def invoke(*args, input=None, env=None):
    result = CliRunner().invoke(main, list(args), input=input, env=env)
    assert not (result.exception and not isinstance(result.exception, SystemExit)), \
        f"traceback: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def content(tmp_path):
    """A copy of the bundled content to spoil."""
    folder = tmp_path / "content"
    shutil.copytree(ROOT / "content", folder)
    return folder


# ------------------------------------------------------------ designer text is plain text


MARKUP_PAGE = '''ページ markup "[/]" {
  銘 36
  フレーバー "[bold red]x[/]"
  未来面 { 敵HP -= 1 }
}
'''


def test_designer_text_is_printed_as_plain_text_never_as_terminal_markup(content):
    (content / "pages" / "markup.page").write_text(MARKUP_PAGE, encoding="utf-8")
    result = invoke("battle", "--content", str(content), "--with", "markup", "--seed", "1",
                    input="play 1\nset 手札 [/]\nplay [bold]\nq\n")
    assert result.exit_code == 0, result.output
    assert "[/]（銘 36）をプレイ" in result.output  # the name, exactly as written
    assert "> play [bold]" in result.output and "> set 手札 [/]" in result.output
