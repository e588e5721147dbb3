"""sim/blocking: how often a page is playable when in the hand, and which condition stops it."""

from __future__ import annotations

import pytest

import runtime.tables
from conftest import compiled_tables
from sim.blocking import measure

NEVER = """ページ muri "無理な願い" {
  銘 30
  未来面 {
    条件 手札 >= 20
    敵HP -= 5
  }
  過去面 {
    条件 手札 >= 20
    防御 += 5
  }
}
"""


def test_a_condition_that_always_fails_is_the_blocker(content):
    (content / "pages" / "無理.page").write_text(NEVER, encoding="utf-8")
    found = measure(compiled_tables(content), "muri", range(20))
    assert found.decisions > 0 and found.playable == 0 and found.plays == 0
    blocker, share = found.top_blocker()
    assert blocker.endswith(": 手札 >= 20") and share > 0.5
    assert sum(found.sides.values()) > 0 and sum(found.sides_held.values()) == 0


@pytest.mark.slow
def test_hatsukoi_future_face_is_rarely_playable_blocked_by_age_or_crossing():
    found = measure(runtime.tables.load(), "hatsukoi", range(60))
    assert found.decisions > 500
    assert found.side_share("future") < 0.2
    assert found.playable_share < 0.2
    blocker, share = found.top_blocker()
    assert blocker in ("過去面が白紙（刻 > 銘 17）", "未来面: 跨いだ回数[ターン] >= 1")
    assert share > 0.5


def test_a_blank_face_to_fire_is_counted_as_the_side_to_fire_and_as_blank():
    """初恋's 過去面 is blank as dealt: it stopped ~72% of the decisions (the top blocker)
    while its own line said it was the side to fire in 205 decisions, its conditions
    holding in all — blank decisions never reached the count. Every decision has a side to
    fire at least, so the sides' counts cover the decisions."""
    found = measure(runtime.tables.load(), "hatsukoi", range(60))
    blocker, share = found.top_blocker()
    blank = found.sides_blank["past"]
    assert blocker == "過去面が白紙（刻 > 銘 17）"
    assert blank >= found.blockers[blocker] and found.sides["past"] >= blank
    assert sum(found.sides.values()) >= found.decisions
    figures = found.to_dict()["sides"]["past"]
    assert figures["blank"] == blank
    written = figures["decisions"] - blank
    assert figures["share"] == round(figures["held"] / written, 4)


def test_the_same_seeds_give_the_same_figures():
    tables = runtime.tables.load()
    assert measure(tables, "hatsukoi", range(10)).to_dict() == \
        measure(tables, "hatsukoi", range(10)).to_dict()


def test_an_unknown_page_is_a_key_error():
    with pytest.raises(KeyError):
        measure(runtime.tables.load(), "nai", range(1))
