"""The language reference in Japanese (docs/language-ja.md), for designers, says what the
English one (docs/language.md) says: the same sections, the same examples — their code
byte for byte, only the comments in Japanese — and every inline code span of the English
one; the designer's guide links to it."""

from __future__ import annotations

import re
from collections import Counter

from conftest import ROOT

ENGLISH = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
JAPANESE = (ROOT / "docs" / "language-ja.md").read_text(encoding="utf-8")
FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)


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


def test_the_examples_are_the_english_ones_with_their_comments_in_japanese():
    english, japanese = FENCE.findall(ENGLISH), FENCE.findall(JAPANESE)
    assert len(japanese) == len(english) >= 8
    assert [_code(b) for b in japanese] == [_code(b) for b in english]
    comments = [line.split("#", 1)[1] for b in japanese for line in b.splitlines()
                if re.search(r"\s#\s", line)]
    assert comments and not [c for c in comments if re.search(r"[A-Za-z]{4,}", c)
                             and not re.search(r"[ぁ-んァ-ヶ一-龯]", c)]


def test_every_inline_code_span_of_the_english_reference_is_in_the_japanese_one():
    assert _spans(JAPANESE) == _spans(ENGLISH)


def test_the_sections_are_the_english_ones_in_the_same_order():
    english, japanese = (re.findall(r"^(#+) ", FENCE.sub("", text), re.M)
                         for text in (ENGLISH, JAPANESE))
    assert japanese == english and len(english) >= 10


def test_the_prose_is_japanese_and_the_guide_links_to_it():
    prose = FENCE.sub("", JAPANESE)
    prose = re.sub(r"`[^`]+`", "", prose)
    sentences = [line for line in prose.splitlines() if line.strip()
                 and not line.startswith("|---")]
    english = [line for line in sentences
               if re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", line)]
    assert JAPANESE.startswith("# 自分紀 コンテンツ言語リファレンス") and not english, english
    guide = (ROOT / "docs" / "guide-ja.md").read_text(encoding="utf-8")
    assert "](language-ja.md)" in guide
