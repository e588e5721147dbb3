"""W010 ほかのページに劣るページ: same 銘 and shape, every number no better, one worse."""

from __future__ import annotations

from analysis import dominance
from analysis.content import Content
from compiler.lint import check_text


def _page(pid: str, year: int, damage: int, need: int, defense: int = 8) -> str:
    return f"""ページ {pid} "{pid}" {{
  銘 {year}
  未来面 {{
    条件 歩 >= {need}
    敵HP -= {damage}
  }}
  ペン 過去面 {{ 防御 += {defense} }}
}}
"""


def _findings(*pages: str):
    result = check_text("".join(pages), "t.page")
    assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
    return dominance.findings(Content.of_model(result.compilation.model))


def test_a_page_worse_in_one_number_and_equal_in_the_rest_is_dominated():
    (found,) = _findings(_page("tsuyoi", 30, 12, 5), _page("yowai", 30, 8, 5))
    assert (found.code, found.item, found.line) == ("W010", "yowai", 9)
    assert found.data["by"] == "tsuyoi"
    assert "未来面の敵HP 8（相手は 12）" in found.message


def test_the_hint_names_the_number_to_change_where_it_is_written_and_which_way():
    (found,) = _findings(_page("tsuyoi", 30, 12, 5), _page("yowai", 30, 8, 5))
    assert found.hint.startswith("未来面の敵HP を tsuyoi の 12 と同じか、それより大きくすれば")
    # Doing what it says leaves no warning.
    assert _findings(_page("tsuyoi", 30, 12, 5), _page("yowai", 30, 12, 5)) == []
    (pen,) = _findings(_page("a", 30, 12, 5, defense=9), _page("b", 30, 12, 5, defense=4))
    assert pen.hint.startswith("ペン 過去面の防御 を a の 9 と同じか、それより大きく")


def test_a_harder_condition_is_worse():
    (found,) = _findings(_page("yasui", 30, 12, 5), _page("takai", 30, 12, 9))
    assert found.item == "takai"
    assert found.hint.startswith("未来面の条件「")
    assert "を yasui の 5 と同じか、それより小さくすれば" in found.hint


def test_a_page_better_in_one_number_and_worse_in_another_is_not_dominated():
    assert _findings(_page("a", 30, 12, 9), _page("b", 30, 8, 5)) == []


def test_pages_had_in_other_ways_are_not_compared_and_more_copies_is_better():
    """A page that comes later (出現条件) or of another 出自 (what 出自 filters pick) is no
    worse for being weaker: W010 compared them. A page a deck may hold more copies of is
    better in that (上限枚数), so a weaker number alone does not make it dominated."""
    later = _page("tsuyoi", 30, 12, 5).replace("  銘 30\n", "  銘 30\n  出現条件 クリアしたステージ数 >= 3\n")
    assert _findings(later, _page("yowai", 30, 8, 5)) == []
    other = _page("tsuyoi", 30, 12, 5).replace("  銘 30\n", "  銘 30\n  出自 老年期\n")
    assert _findings(other, _page("yowai", 30, 8, 5)) == []
    def capped(page: str, cap: int) -> str:
        return page.replace("  銘 30\n", f"  銘 30\n  上限枚数 {cap}\n")

    assert _findings(capped(_page("tsuyoi", 30, 12, 5), 2), capped(_page("yowai", 30, 8, 5), 5)) == []
    (found,) = _findings(capped(_page("tsuyoi", 30, 12, 5), 5), capped(_page("yowai", 30, 8, 5), 2))
    assert found.item == "yowai" and "上限枚数 2（相手は 5）" in found.message


def test_pages_of_different_years_are_not_compared():
    assert _findings(_page("a", 30, 12, 5), _page("b", 31, 8, 5)) == []


def test_pages_of_different_shapes_are_not_compared():
    other = _page("b", 30, 8, 5).replace("敵HP -= 8", "敵HP -= 8 固定")
    assert _findings(_page("a", 30, 12, 5), other) == []


def test_shapes_whose_hashes_collide_are_still_told_apart(monkeypatch):
    """Pages are grouped by their shapes' hashes first (only those sharing one keep their
    profiles): a collision groups them, and their shapes, compared whole, part them."""
    monkeypatch.setattr(dominance, "hash", lambda shape: 0, raising=False)
    other = _page("b", 30, 8, 5).replace("敵HP -= 8", "敵HP -= 8 固定")
    assert _findings(_page("a", 30, 12, 5), other) == []
    (found,) = _findings(_page("a", 30, 12, 5), other, _page("c", 30, 10, 5))
    assert (found.item, found.data["by"]) == ("c", "a")


def test_each_dominated_page_is_named_once_in_page_order_beside_the_first_that_beats_it():
    """Among many shapes, each page of a shared one is compared with the others of it
    alone, in page order."""
    pages = [_page(f"p{i:02d}", 30 + i % 5, 12, 5) for i in range(20)]
    found = _findings(*pages, _page("q", 30, 10, 5), _page("r", 31, 6, 5))
    assert [(f.item, f.data["by"]) for f in found] == [("q", "p00"), ("r", "p01")]


def test_the_bundled_content_has_no_dominated_page():
    import runtime.tables

    assert dominance.findings(Content.of_tables(runtime.tables.load())) == []
