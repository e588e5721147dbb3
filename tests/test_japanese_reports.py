"""What the commands report is Japanese too (issue 26, "one language for the designer"):
a diagnostic's severity, hint and notes, every explanation page, the examples' outcomes
and closing count, the language server's lens titles, and the editor extension's
descriptions. (The help and click's framing: test_japanese_cli.py; the vocabulary and
the hovers: test_japanese_vocabulary.py.)
"""

from __future__ import annotations

import json
import re

import pytest

import compiler.codes  # noqa: F401  (defines every code)
from conftest import ROOT, invoke_cli
from dsl.codes import CODES
from dsl.diagnostics import Diagnostic, Note, Span, render
from english import english_sentences
from lsp import examples

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: English words a rendered diagnostic once framed itself with.
FRAMING_WORDS = re.compile(r"\b(?:error|warning|hint|note)\b")


def test_a_rendered_diagnostic_names_its_severity_hint_and_note_in_japanese():
    span = Span("p.page", 1, 1, 1, 3)
    shown = "\n".join(render(Diagnostic(code, severity, "説明", span, hint="直し方",
                                        notes=(Note("補足の文", span),)), {"p.page": "銘 3"})
                      for code, severity in (("E020", "error"), ("W001", "warning")))
    assert "エラー[E020]" in shown and "警告[W001]" in shown
    assert "= ヒント: 直し方" in shown and "= 補足: 補足の文" in shown
    assert not FRAMING_WORDS.search(shown), shown


def test_lint_of_a_broken_page_prints_no_english(tmp_path):
    (tmp_path / "p.page").write_text("ページ p {\n  銘 3\n  未來面 {\n    敵HP -= 3\n  }\n}\n",
                                     encoding="utf-8")
    result = invoke_cli("lint", str(tmp_path / "p.page"))
    assert result.exit_code == 1 and "エラー[E" in result.output
    assert not FRAMING_WORDS.search(result.output), result.output
    assert english_sentences(result.output) == []


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_explanation_is_japanese(code):
    result = invoke_cli("explain", code)
    assert result.exit_code == 0 and JAPANESE.search(result.output)
    assert english_sentences(result.output) == [], code


def test_every_explanation_page_file_is_japanese():
    pages = sorted((ROOT / "compiler" / "explain").glob("*.md"))
    assert pages
    for page in pages:
        assert english_sentences(page.read_text(encoding="utf-8")) == [], page.name


def test_the_examples_outcomes_and_count_are_said_in_japanese():
    """The bundled content's examples: each line and the closing count."""
    result = invoke_cli("test", "content")
    lines = result.output.splitlines()
    assert result.exit_code == 0 and any(line.startswith("成功  ") for line in lines)
    assert re.fullmatch(r"成功 \d+、失敗 0（\d+ ファイルの例 \d+ 件）", lines[-1]), lines[-1]
    assert not re.search(r"\b(?:PASS|FAIL|passed|failed)\b", result.output)
    assert english_sentences(result.output) == []


def test_the_lens_titles_of_an_example_are_japanese():
    for title in examples.TITLES.values():
        assert JAPANESE.search(title) and not re.search(r"\b(?:PASS|FAIL)\b", title)


def test_the_editor_extension_describes_itself_in_japanese():
    manifest = json.loads((ROOT / "editors/vscode/package.json").read_text(encoding="utf-8"))
    texts = [manifest["displayName"], manifest["description"]]
    for setting in manifest["contributes"]["configuration"]["properties"].values():
        texts.append(setting["description"])
    for text in texts:
        assert JAPANESE.search(text) and english_sentences(text) == [], text
