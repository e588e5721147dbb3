"""Every diagnostic code has an explanation page, and its examples do what they say.

``compiler/explain/<CODE>.md`` is a title line, one paragraph, then ``## 悪い例`` and
``## 良い例``, each with one fenced block. A ```jibunki block is a whole content file: the
bad one must report exactly its code, the good one nothing. A ```text block is prose (E000
and E004 cannot be shown as text, and E074 and W011 are found by jibunki print, not by lint) and is
only checked for shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from cli import main
from compiler.codes import CODES
from scenario.stage import lint_text as _check_text
from conftest import bundled_balance

#: Examples (例) run only with a balance to build the tables from: E044 needs one.
_BALANCE = {"balance.balance": bundled_balance()}


def check_text(text: str, path: str):
    return _check_text(text, path, _BALANCE if "例 " in text else None)
from conftest import ROOT

EXPLAIN = ROOT / "compiler" / "explain"
SECTIONS = ("悪い例", "良い例")
#: Codes whose examples cannot be content text (an internal error, an unreadable file).
NOT_TEXT = {"E000", "E004", "E074", "W011"}


@dataclass(frozen=True)
class Example:
    lang: str
    text: str


@dataclass(frozen=True)
class Page:
    code: str
    title: str
    paragraph: str
    examples: dict[str, Example]  # section name → its one fenced block


def parse_page(text: str) -> Page:
    """Split an explanation page into title, paragraph and the fenced block per section.

    Line-based, so that a ``#`` comment or a ``## `` inside a fenced block is content."""
    lines = text.split("\n")
    title = re.fullmatch(r"# ([EW]\d{3}): (.+)", lines[0])
    assert title, f"first line must be '# CODE: title', got {lines[0]!r}"
    intro: list[str] = []
    section: str | None = None
    blocks: dict[str, list[Example]] = {}
    fence: tuple[str, list[str]] | None = None
    for line in lines[1:]:
        if fence is not None:
            if line.rstrip() == "```":
                lang, body = fence
                blocks[section].append(Example(lang, "".join(f"{b}\n" for b in body)))
                fence = None
            else:
                fence[1].append(line)
        elif line.startswith("```"):
            assert section is not None, "a fenced block before the first section"
            fence = (line[3:].strip(), [])
        elif line.startswith("## "):
            section = line[3:].strip()
            assert section not in blocks, f"section {section} twice"
            blocks[section] = []
        elif section is None:
            intro.append(line)
    assert fence is None, "unclosed fenced block"
    assert tuple(blocks) == SECTIONS, f"sections must be {SECTIONS}, got {tuple(blocks)}"
    for name, found in blocks.items():
        assert len(found) == 1, f"{name}: expected one fenced block, got {len(found)}"
    return Page(title.group(1), title.group(2), "\n".join(intro).strip(),
                {name: found[0] for name, found in blocks.items()})


def _page(code: str) -> Page:
    return parse_page((EXPLAIN / f"{code}.md").read_text(encoding="utf-8"))


def _content_example(code: str, section: str) -> str:
    example = _page(code).examples[section]
    if example.lang == "text":
        pytest.skip(f"{code}: the example is prose, not content")
    return example.text


# ------------------------------------------------------------------ the pages


def test_every_code_has_an_explanation_and_nothing_else_does():
    files = {p.stem for p in EXPLAIN.glob("*.md")}
    assert sorted(set(CODES) - files) == []
    assert sorted(files - set(CODES)) == []


@pytest.mark.parametrize("code", sorted(CODES))
def test_an_explanation_points_the_designer_to_nothing_they_cannot_read(code):
    """A designer reads Japanese and the tool's own commands: no Python source file, no
    English developer document, and lint's own word for a note (補足)."""
    paragraph = _page(code).paragraph
    assert not re.search(r"\b[\w/]+\.py\b|language\.md|\bnote\b|DESIGN|ADR-", paragraph), paragraph


@pytest.mark.parametrize("code", sorted(CODES))
def test_page_has_title_paragraph_and_two_examples(code):
    page = _page(code)
    assert page.code == code
    assert page.title == CODES[code].title
    assert page.paragraph and "\n\n" not in page.paragraph, "one paragraph"
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", page.paragraph), "written in Japanese"
    for example in page.examples.values():
        # Only the codes that cannot be shown as content may use prose blocks; any other
        # ```text block would silently escape the checks below.
        assert example.lang == ("text" if code in NOT_TEXT else "jibunki")


@pytest.mark.parametrize("code", sorted(CODES))
def test_bad_example_reports_exactly_its_code(code):
    text = _content_example(code, "悪い例")
    diagnostics = check_text(text, "example.page").diagnostics
    assert code in [d.code for d in diagnostics]
    assert {d.code for d in diagnostics} == {code}, [
        (d.code, d.span.line, d.span.col, d.message) for d in diagnostics]


@pytest.mark.parametrize("code", sorted(CODES))
def test_good_example_is_accepted(code):
    text = _content_example(code, "良い例")
    diagnostics = check_text(text, "example.page").diagnostics
    assert not [d for d in diagnostics if d.is_error], [
        (d.code, d.span.line, d.span.col, d.message) for d in diagnostics]
    assert code not in [d.code for d in diagnostics]


@pytest.mark.parametrize("code", sorted(c for c in CODES if c not in NOT_TEXT))
def test_good_example_is_close_to_the_bad_one(code):
    """The good example is the bad one corrected, not an unrelated file."""
    page = _page(code)
    bad, good = (page.examples[s].text.splitlines() for s in SECTIONS)
    if not bad:  # W003: the bad example is the empty file
        return
    changed = len(set(bad) ^ set(good))
    assert changed <= 6, f"{changed} lines differ between the bad and the good example"


# --------------------------------------------------------------------- the CLI


def test_cli_explain_prints_the_page_whatever_the_case():
    result = CliRunner().invoke(main, ["explain", "e020"])
    assert result.exit_code == 0, result.output
    page = (EXPLAIN / "E020.md").read_text(encoding="utf-8")
    assert result.output.rstrip("\n") == page.rstrip()
    assert result.output.startswith("# E020: 累計量は作用の対象にならない")
    assert "## 悪い例" in result.output and "## 良い例" in result.output


@pytest.mark.parametrize("typed, code", [
    *((typed, "E020") for typed in ["E20", "e-20", "E 020", "Ｅ０２０", "e0020"]),
    ("30", "E030"), ("３０", "E030")])  # the number alone, of one code only (no W030)
def test_cli_explain_of_a_code_written_loosely_prints_its_page(typed, code):
    result = CliRunner().invoke(main, ["explain", typed])
    assert result.exit_code == 0, result.output
    assert result.output == CliRunner().invoke(main, ["explain", code]).output


def test_cli_explain_of_a_number_two_codes_share_asks_which():
    assert CliRunner().invoke(main, ["explain", "7"]).output.startswith("# W007")  # no E007
    result = CliRunner().invoke(main, ["explain", "5"])
    assert result.exit_code == 2
    assert "5 は E005 と W005 のどちらですか" in result.output
    assert "20 は E020 と W020 のどちらですか" in CliRunner().invoke(main, ["explain", "20"]).output


def test_cli_explain_unknown_code_is_a_usage_error():
    result = CliRunner().invoke(main, ["explain", "E999"])
    assert result.exit_code == 2
    assert "E999" in result.output


def test_cli_explain_of_bytes_that_are_not_utf8_shows_them_replaced():
    # A command line's non-UTF-8 bytes arrive as surrogates, which printed as "\udcff".
    result = CliRunner().invoke(main, ["explain", b"E\xff".decode("utf-8", "surrogateescape")])
    assert result.exit_code == 2
    assert "「E\ufffd」という診断コードはありません" in result.output
    assert "\\udcff" not in result.output
