"""W009 (analysis/listeners.py): a continuing 作用 waiting for an event nothing in the
content or the rules produces is reported at its line; a page that produces the event
takes the finding away; a timing W004 already reports is not reported twice."""

from __future__ import annotations

from conftest import check_text

#: A page waiting for an exile, in content where nothing exiles a page.
LISTENER = """
ページ omoide "思い出箱" {
  銘 40
  未来面 {
    敵HP -= 8 毎 ページが除外された時 範囲 ステージ
  }
  ペン 過去面 { 防御 += 6 }
}
"""

#: A page that exiles a hand page when played.
PRODUCER = """
ページ sutete "捨てる" {
  銘 30
  未来面 {
    移動 1枚 手札 -> 除外 選択
  }
  ペン 過去面 { 防御 += 6 }
}
"""

#: A page that is exiled after its play.
EXILED = """
ページ kieru "消える" {
  銘 20
  行き先 除外（ステージ）
  未来面 { 防御 += 3 }
  ペン 過去面 { 防御 += 6 }
}
"""


def diagnostics(text: str, code: str):
    found = check_text(text, "t.page").diagnostics
    assert not [d for d in found if d.is_error], found
    return [d for d in found if d.code == code]


def test_a_listener_nothing_produces_is_reported_at_its_line():
    (diag,) = diagnostics(LISTENER, "W009")
    assert diag.span.line == 5 and diag.span.col == 5
    assert "ページが除外された時" in diag.message and "omoide" in diag.message
    assert "移動 1枚 手札 -> 除外" in diag.hint


def test_a_page_that_exiles_makes_the_listener_heard():
    assert diagnostics(LISTENER + PRODUCER, "W009") == []


def test_a_page_exiled_after_its_play_makes_the_listener_heard():
    assert diagnostics(LISTENER + EXILED, "W009") == []


def test_a_listener_of_what_the_rules_produce_is_no_finding():
    heard = LISTENER.replace("ページが除外された時", "被弾時").replace("範囲 ステージ", "範囲 ターン")
    assert diagnostics(heard, "W009") == []


def test_a_timing_w004_reports_is_not_reported_again():
    early = LISTENER.replace("毎 ページが除外された時 範囲 ステージ", "毎 ラン開始時 範囲 ラン")
    assert [d.code for d in check_text(early, "t.page").diagnostics] == ["W004"]


def test_findings_name_the_effect_node_and_the_event():
    from analysis.content import Content
    from analysis.listeners import findings

    (found,) = findings(Content.of_model(check_text(LISTENER, "t.page").model))
    assert (found.code, found.kind, found.item, found.line) == ("W009", "page", "omoide", 5)
    assert found.data == {"effect": "page:omoide:future:0", "timing": "on_exile",
                          "event": "exile"}


def test_the_language_server_does_not_run_the_pass_on_a_partial_model():
    """An editor's check (``checked`` set) holds one document's items: no finding there
    can be trusted, so the pass leaves it to the server (lsp)."""
    from compiler.pipeline import Compilation, Source, run

    c = run(Compilation([Source("t.page", LISTENER)], checked={"t.page"}, reported={"t.page"}))
    assert not [d for d in c.diagnostics if d.code == "W009"]
