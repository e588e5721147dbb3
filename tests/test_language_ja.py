"""The designer's docs in Japanese — the language reference (docs/language-ja.md), how
draft 17 is read (docs/journey-ja.md) and how its report measures the thinking load
(docs/journey-report-ja.md) — say what the English ones (docs/language.md,
docs/journey.md, docs/journey-report.md) say: the same sections, the same examples —
their code byte for byte, only the comments in Japanese — and every inline code span of
the English one; the designer's guide links to each."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from conftest import ROOT

#: Each English doc a designer reads → its Japanese edition, and how that one begins.
EDITIONS = {"language.md": ("language-ja.md", "# 自分紀 コンテンツ言語リファレンス"),
            "journey.md": ("journey-ja.md", "# 旅 — 草案17「明日、旅に出ます」"),
            "journey-report.md": ("journey-report-ja.md",
                                  "# `jibunki journey report`: 草案17 の思考負荷の測り方")}
FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
GUIDE = (ROOT / "docs" / "guide-ja.md").read_text(encoding="utf-8")


@pytest.fixture(params=sorted(EDITIONS))
def pair(request) -> tuple[str, str, str, str]:
    """(English text, Japanese text, the Japanese file's name, how it begins)."""
    name, (japanese, title) = request.param, EDITIONS[request.param]
    return ((ROOT / "docs" / name).read_text(encoding="utf-8"),
            (ROOT / "docs" / japanese).read_text(encoding="utf-8"), japanese, title)


def _code(block: str) -> list[str]:
    """A block's lines without their comments (a ``#`` outside a string) and the spaces
    before them."""
    lines = []
    for line in block.splitlines():
        kept = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: "\0" * len(m.group()), line)
        cut = kept.find("#")
        lines.append((line if cut < 0 else line[:cut]).rstrip())
    return lines


def _spans(text: str) -> Counter:
    return Counter(re.findall(r"`([^`]+)`", FENCE.sub("", text)))


def test_the_examples_are_the_english_ones_with_their_comments_in_japanese(pair):
    english, japanese = (FENCE.findall(text) for text in pair[:2])
    assert len(japanese) == len(english) >= 1
    assert [_code(b) for b in japanese] == [_code(b) for b in english]
    comments = [[line.split("#", 1)[1] for b in blocks for line in b.splitlines()
                 if re.search(r"\s#\s", line)] for blocks in (english, japanese)]
    assert len(comments[1]) == len(comments[0])
    assert not [c for c in comments[1] if re.search(r"[A-Za-z]{4,}", c)
                and not re.search(r"[ぁ-んァ-ヶ一-龯]", c)]


def test_every_inline_code_span_of_the_english_doc_is_in_the_japanese_one(pair):
    assert _spans(pair[1]) == _spans(pair[0])


def test_the_sections_are_the_english_ones_in_the_same_order(pair):
    english, japanese = (re.findall(r"^(#+) ", FENCE.sub("", text), re.M)
                         for text in pair[:2])
    assert japanese == english and len(english) >= 5


def test_the_prose_is_japanese_and_the_guide_links_to_it(pair):
    _, japanese, name, title = pair
    prose = FENCE.sub("", japanese)
    prose = re.sub(r"`[^`]+`", "", prose)
    sentences = [line for line in prose.splitlines() if line.strip()
                 and not line.startswith("|---")]
    english = [line for line in sentences
               if re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", line)]
    assert japanese.startswith(title) and not english, english
    assert f"]({name})" in GUIDE
