"""A デッキ line's count (``ページ × n``): written the ways a designer types it."""

from __future__ import annotations

import pytest

from dsl.parser import parse


def counts(line: str):
    result = parse(f'デッキ d {{\n  {line}\n}}\n', "d.deck")
    assert not result.diagnostics, [d.message for d in result.diagnostics]
    (deck,) = result.file.items
    return [(e.page.text, e.count.value if e.count else None) for e in deck.entries]


@pytest.mark.parametrize("line", ["hatsukoi × 2", "hatsukoi ×2", "hatsukoi ×２", "hatsukoi x 2",
                                  "hatsukoi x2", "hatsukoi * 2", "hatsukoi *2"])
def test_a_count_is_read_with_or_without_a_space_after_its_sign(line):
    assert counts(line) == [("hatsukoi", 2)]


def test_an_id_beginning_with_x_is_still_an_id():
    assert counts("xenon, x_ray") == [("xenon", None), ("x_ray", None)]
