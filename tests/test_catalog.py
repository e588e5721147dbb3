"""The catalog: phrasing rules, completeness of rules text, templates, escaping."""

from __future__ import annotations

import ast
import dataclasses
import os
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from catalog import phrasing, render as render_module
from catalog.highlight import highlight
from catalog.phrasing import phrase
from catalog.render import histogram, render
from compiler.build import compile_content
from compiler.lint import check_text
from conftest import ROOT, bundled_balance, full_disk_from
from contract import vocabulary as vocab
from contract.tables import (REFS, Const, CounterRef, DistanceRef, FlagRef, PageAttrRef,
                             PageCountRef, RegionCountRef, Sayou, Scaled, TilesPassedRef,
                             VariableRef)
from runtime.tables import from_dicts, load

BALANCE = bundled_balance()


def lowered(lines: list[str]):
    """Check 作用 lines on one face; their 作用 as the tables hold them (None when
    invalid)."""
    body = "\n".join(lines)
    # Each text is new: caching its parse on disk would only write and sweep the cache.
    with mock.patch.dict(os.environ, {"JIBUNKI_NO_CACHE": "1"}):
        result = check_text(f"ページ t {{\n 銘 30\n 未来面 {{\n{body}\n }}\n ペン 過去面 {{ 歩 += 5 }}\n}}\n")
    if result.errors:
        return None
    return list(result.model["pages"][0].faces["future"].effects)


@pytest.fixture(scope="module")
def vocabulary():
    return load().vocabulary


# ----------------------------------------------------------------- phrasing


@pytest.mark.parametrize("line, text", [
    ("敵HP -= 12", "敵HPに 12 のダメージ"),
    ("敵HP -= 使用した歩[プレイ] × 0.5", "敵HPに 使用した歩［このプレイ］×0.5 のダメージ"),
    ("敵HP -= 8 固定", "敵HPに 8 のダメージ（補正を受けない）"),
    ("防御 += 5 毎 ターン開始時 範囲 ステージ", "このステージ中、毎ターン開始時に 防御+5（ターン終了まで）"),
    ("防御 += 6 寿命 被弾1回", "防御+6（1回被弾するまで）"),
    ("攻撃力補正 += 2 範囲 以降 2 プレイ", "以降 2 プレイの間、攻撃力補正+2"),
    ("上限 破り回数上限 += 1 寿命 ステージ", "破り回数上限+1（ステージ終了まで）"),
    ("支払う HP 5", "HPを 5 支払う"),
    ("抑制 刻", "刻を更新しない"),
    ("移動 1枚 捨て札 -> 手札 選択", "捨て札から1枚を選んで手札へ移す"),
    ("@覚醒 = 1", "@覚醒を 1 にする（ラン終了まで）"),
    # issue 18 item 4: the forms a card would print
    ("HP += 8", "HPを 8 回復"),
    ("移動 2枚 山札 -> 手札 上から", "山札の上から2枚を手札へ移す"),
    ("複製 手札 -> 山札 選択 寿命 ステージ", "手札の1枚を選んで複製し、山札へ加える（ステージ限り）"),
    ("HP += 12 毎 敵のHPが0になった時 範囲 ラン 最大 1 回",
     "このラン中に最大 1 回、敵のHPが0になった時に HPを 12 回復"),
    ("防御 += 6 毎 被弾時 範囲 ターン", "このターン中、被弾するたびに 防御+6（ターン終了まで）"),
    ("防御 *= 2", "防御を 2 倍にする（ターン終了まで）"),
    ("攻撃倍率 *= 1.5 範囲 プレイ", "このプレイ中、攻撃倍率×1.5"),
])
def test_each_operation_has_a_phrasing_rule(line, text, vocabulary):
    (effect,) = lowered([line])
    assert phrase(effect, vocabulary) == text


TARGETS = ["敵HP", "防御", "歩", "HP", "通貨", "@旗", "攻撃力補正", "攻撃倍率", "防御補正"]
OPS = ["+=", "-=", "*=", "="]
VALUES = ["3", "5", "0.5", "使用した歩[プレイ] × 0.5", "跨いだ回数[ターン] × 2",
          "使用した歩[以降 2 プレイ]", "与えたダメージ[プレイ]"]
TAILS = ["", "固定", "寿命 ターン", "寿命 被弾1回", "寿命 ステージ", "毎 ターン開始時 範囲 ラン",
         "毎 敵の行動後 範囲 ステージ 最大 2 回", "範囲 ターン", "範囲 以降 3 プレイ",
         "毎 座を跨いだ時 範囲 ステージ"]
line = st.builds(lambda t, o, v, tail: f"{t} {o} {v} {tail}".strip(),
                 st.sampled_from(TARGETS), st.sampled_from(OPS), st.sampled_from(VALUES),
                 st.sampled_from(TAILS))


def _terms(effect: Sayou) -> Sayou:
    """The six terms and the region terms: where it was written and its display words
    aside."""
    return dataclasses.replace(effect, line=1, names=None)


@pytest.mark.slow  # 300 pairs phrased: half a minute
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(first=line, second=line)
def test_two_sayou_differing_in_any_term_never_read_the_same(first, second, vocabulary):
    effects = lowered([first, second])
    assume(effects is not None)
    a, b = effects
    assume(_terms(a) != _terms(b))
    assert phrase(a, vocabulary) != phrase(b, vocabulary), (first, second)


# ---------------------------------------------------------------- templates


def _shown(html: str) -> str:
    """The text a reader sees of an HTML fragment: tags dropped, entities read."""
    import html as html_module
    import re

    return html_module.unescape(re.sub(r"<[^>]+>", "", html))


def test_histogram_counts_pages_per_band():
    hist = histogram([0, 5, 12, 95], top=80)
    counts = {b["label"]: b["count"] for b in hist["bars"]}
    assert counts["0"] == 2 and counts["10"] == 1 and counts["90"] == 1
    assert [b["beyond"] for b in hist["bars"] if b["label"] == "90"] == [True]


def test_catalog_lists_every_page_and_enemy_with_rules_text_and_anchor():
    tables = load()
    html = render(tables)
    for page_id, page in tables.pages.items():
        assert f'id="page-{page_id}"' in html
    for enemy_id in tables.enemies:
        assert f'id="enemy-{enemy_id}"' in html
    assert "敵HPに 使用した歩［このプレイ］×0.5 のダメージ" in _shown(html)
    assert "<svg" in html and "出自別" in html and "量ごとの索引" in html


@pytest.mark.slow
def test_catalog_is_deterministic():
    tables = load()
    assert render(tables) == render(tables)


def test_hostile_names_appear_escaped(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    hostile = '<script>alert(1)</script> & "quote" \\\' {{ 7*7 }}'
    escaped = hostile.replace("\\", "\\\\").replace('"', '\\"')
    (content / "x.page").write_text(
        f'ページ x "{escaped}" {{\n 銘 3\n フレーバー "{escaped}"\n 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }}\n}}\n'
        'デッキ starter { x }\n敵 e "<img src=x onerror=alert(1)>" { HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1] }\n',
        encoding="utf-8")
    compiled = compile_content(content)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    html = render(from_dicts(compiled.tables))
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "{{ 7*7 }}" in html  # designer text is data: never evaluated as a template


def test_each_page_and_enemy_shows_the_examples_that_prove_it():
    from pathlib import Path

    from catalog.render import example_views
    from scenario.stage import compile_content as compile_with_examples

    compiled = compile_with_examples(Path(ROOT / "content"))
    views = example_views(compiled.examples, compiled.sources)
    tables = from_dicts(compiled.tables)
    html = render(tables, views)
    for ident in list(tables.pages) + list(tables.enemies):
        assert views.get(ident), f"no example proves {ident}"
    card = html.split('id="page-tabidachi"')[1].split("</article>")[0]
    assert 'class="example"' in card and "出す" in card


def test_the_examples_places_are_the_same_wherever_the_content_lies(tmp_path):
    """Content outside the working folder used to give the 例 absolute paths (the
    machine's home in the catalog's bytes) while the cards' sources were relative."""
    import shutil

    from catalog.render import example_views
    from scenario.stage import compile_content as compile_with_examples

    shutil.copytree(ROOT / "content", tmp_path / "content_copy")
    compiled = compile_with_examples(tmp_path / "content_copy")
    views = example_views(compiled.examples, compiled.sources, compiled.shown)
    places = [view["where"] for found in views.values() for view in found]
    assert places and all(p.startswith("content_copy/tests/") or p.startswith("content_copy/")
                          for p in places), places[:3]
    assert not any(str(tmp_path) in p for p in places)
    sources = {page.source.path for page in from_dicts(compiled.tables).pages.values()}
    assert all(s.startswith("content_copy/") for s in sources)


# ------------------------------------------------------- tables, not switches


REF_SAMPLES = [CounterRef("steps_used", "play", None, None),
               CounterRef("steps_used", "anchored", "play", 2), VariableRef("age"), FlagRef("夢"), RegionCountRef("hand"),
               PageCountRef("hand", "x"), PageAttrRef("year", "x"), DistanceRef(),
               TilesPassedRef("history")]


def test_every_reference_class_and_base_class_has_one_phrasing_row():
    assert set(phrasing.REF_TEXT) == set(REFS)
    assert set(phrasing.BASE_TEXT) == set(REFS) | {Const, Scaled}
    assert set(render_module.READS) <= set(REFS)


def test_every_operation_condition_test_and_intent_has_one_row():
    assert set(phrasing.OPERATION_TEXT) == {o.code for o in vocab.OPERATIONS}
    assert set(phrasing.CONDITION_TEXT) == set(vocab.CONDITION_TESTS)
    assert set(render_module.INTENT_TEXT) == {i.code for i in vocab.INTENT_KINDS}
    assert phrasing.PAGE_MAKING <= {o.code for o in vocab.OPERATIONS}


def test_each_reference_kind_reads_differently():
    assert {type(r) for r in REF_SAMPLES} == set(REFS)
    texts = [phrasing.ref_text(r) for r in REF_SAMPLES]
    assert len(set(texts)) == len(texts), texts
    assert phrasing.ref_text(TilesPassedRef("history")) == "通過したマス［歴史］"
    assert phrasing.base_text(Scaled(CounterRef("steps_used", "play", None, None), 0.5)) \
        == "使用した歩［このプレイ］×0.5"


def test_every_scope_lifetime_pick_and_trait_has_its_phrase():
    scopes = [(s.said(), s.during) for s in vocab.SCOPES]
    assert all(a and b for a, b in scopes) and len({w for pair in scopes for w in pair}) == 8
    lifetimes = [l.said() for l in vocab.LIFETIMES if l.code != "permanent"]
    assert all(lifetimes) and len(set(lifetimes)) == len(lifetimes)
    assert len({p.said() for p in vocab.PICKS}) == len(vocab.PICKS)
    assert set(vocab.GENERATED_LIFETIME_PHRASES) == set(vocab.GENERATED_LIFETIMES)
    for trait in vocab.TRAITS:
        said = trait.said().format(value=7, low=3, high=9)
        assert trait.phrase and ("7" in said or trait.arg != "int") \
            and ("3〜9" in said or trait.arg != "range")


def _literals(path) -> list[str]:
    """The string literals of a module (f-string parts included), docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def _vocabulary_words() -> set[str]:
    entries = [e for table in vocab.tables().values() for e in table.entries]
    entries += [*vocab.FACES, vocab.FLAG, vocab.PAGES, vocab.TILES_PASSED]
    words = {w for e in entries for w in (*e.spellings(), e.said())}
    words |= set(vocab.COMPARISONS.values()) | set(vocab.GENERATED_LIFETIME_PHRASES.values())
    # One-character keywords (枚, 回, 例, 敵 …) are also ordinary glue (回復, 枚数): only
    # keywords of two characters or more are words the catalog must not spell itself.
    words |= {ja for ja, _ in vocab.KEYWORDS.values() if len(ja) > 1}
    return {w for w in words if w and not w.isascii()}


def test_the_catalog_code_spells_no_word_of_the_vocabulary():
    # Issue 12: every word comes from contract.vocabulary; the catalog's code holds
    # only the glue between them (templates aside).
    words = _vocabulary_words()
    found = {(path.name, literal, word)
             for path in (ROOT / "catalog").glob("*.py") for literal in _literals(path)
             for word in words if word in literal}
    assert not found


def test_source_is_highlighted_by_the_vocabulary_words():
    pieces = highlight('未来面 { 敵HP -= 使用した歩[プレイ] × 0.5  # 「一撃」\n 移動 1枚 }\n'
                       'ページ 歩兵 "歩"')
    marked = [(c, t) for c, t in pieces if c != "name"]
    assert ("term", "敵HP") in marked and ("term", "使用した歩") in marked
    assert ("number", "0.5") in marked and ("number", "1") in marked
    assert ("comment", "# 「一撃」") in marked and ("string", '"歩"') in marked
    assert ("term", "歩") not in marked  # 歩兵 is a name that merely starts with a term
    assert "".join(t for _, t in pieces).endswith('ページ 歩兵 "歩"')


def test_a_flag_condition_is_phrased_and_indexed(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    (content / "x.page").write_text(
        "ページ x {\n 銘 3\n 未来面 { 条件 @夢 >= 2; 敵HP -= 1 }\n"
        " 過去面 { @夢 += 1 }\n}\nデッキ starter { x }\n"
        "敵 e { HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1] }\n", encoding="utf-8")
    compiled = compile_content(content)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    html = render(from_dicts(compiled.tables))
    assert "条件: フラグ「夢」 ≥ 2" in html and 'id="var-@夢"' in html


def test_the_catalog_imports_only_the_contract_the_table_loader_and_jinja2():
    # DESIGN §8: the catalog stands on the tables, not on the compiler that makes them
    # (pygments: the lexer of its code view, catalog.lexer).
    import sys

    # and the runtime's pure rules it draws with (escalation, seat moves, active faces,
    # a tear's growth, how a value lands);
    # the trigger graph (analysis) and its picture (networkx, matplotlib, the labs' plot
    # settings: sim.render_html; markupsafe: the picture inlined as markup)
    allowed = {"contract", "runtime.tables", "runtime.escalation", "runtime.seat",
               "runtime.sides", "runtime.tearing", "runtime.bounds", "jinja2", "catalog",
               "pygments", "analysis", "networkx", "matplotlib", "markupsafe", "sim.render_html"}
    found = set()
    for path in (ROOT / "catalog").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # local ones too
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found.add(node.module)
    outside = {name for name in found if name.split(".")[0] not in sys.stdlib_module_names
               and not any(name == a or name.startswith(a + ".") for a in allowed)}
    assert outside == set()


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_a_failed_write_leaves_the_old_index_whole_and_no_temporary(tmp_path, monkeypatch):
    import os

    tables, out = load(), tmp_path / "catalog"
    index = render_module.write(tables, out)
    vocabulary = out / "vocabulary.html"
    before, words = index.read_bytes(), vocabulary.read_bytes()
    umask = os.umask(0)
    os.umask(umask)
    assert index.stat().st_mode & 0o777 == 0o666 & ~umask  # an ordinary file of the user
    assert vocabulary.stat().st_mode & 0o777 == 0o666 & ~umask

    # the same files, not others with the same bytes (the vocabulary page does not change)
    files = {p.name: p.stat().st_ino for p in out.iterdir()}
    for fails_at in (1, 3):  # the first file, or the third once two are written
        full_disk_from(monkeypatch, fails_at)
        with pytest.raises(OSError):
            render_module.write(tables, out, {"tabidachi": []})
        monkeypatch.undo()
        assert index.read_bytes() == before and vocabulary.read_bytes() == words
        assert {p.name: p.stat().st_ino for p in out.iterdir()} == files, fails_at
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "pool.csv", "triggers.html",
                                                   "vocabulary.html"]


# ------------------------------------------- the phrasing table, every combination


def _every_firing():
    """One 作用 (防御 += 5) under every timing, repeat range (each scope, anchored plays and
    turns; no most-fires count, one, two), lifetime and telegraphing the vocabulary has."""
    (base,) = lowered(["防御 += 5"])
    ranges = [(s.code, None, None) for s in vocab.SCOPES]
    ranges += [(vocab.ANCHORED, u.code, 2) for u in vocab.ANCHOR_UNITS]
    for timing in vocab.TIMINGS:
        for scope, unit, n in ranges:
            for most in (None, 1, 2):
                for lifetime in vocab.LIFETIMES:
                    for telegraphed in (False, True):
                        yield dataclasses.replace(
                            base, timing=timing.code, lifetime=lifetime.code,
                            telegraphed=telegraphed,
                            repeat=dataclasses.replace(base.repeat, scope=scope, unit=unit,
                                                       n=n, max=most))


def test_every_timing_range_and_lifetime_has_a_phrasing_and_none_read_the_same():
    effects = list(_every_firing())
    for default in ("on_play", "on_tear"):  # a face's block and a 破却 block
        texts: dict[str, tuple] = {}
        for effect in effects:
            said = phrase(effect, default_timing=default)
            assert said and "None" not in said and "{" not in said, effect
            key = (effect.timing, effect.repeat, effect.lifetime, effect.telegraphed)
            assert texts.setdefault(said, key) == key, (said, texts[said], key)
        assert len(texts) == len(effects)


def test_no_phrase_prefixes_mai_to_a_timing_name():
    # 「毎座を跨いだ時に」(issue 18): 毎 is the written form's word; rules text folds it into
    # the timing's own phrase (座を跨ぐたびに, 毎ターン開始時に).
    import re

    for effect in _every_firing():
        said = phrase(effect)
        assert not re.search("毎(?!ターン)", said), said
    (effect,) = lowered(["敵HP -= 5 毎 座を跨いだ時 範囲 ターン"])
    assert phrase(effect) == "このターン中、座を跨ぐたびに 敵HPに 5 のダメージ"
    (effect,) = lowered(["敵HP -= 6 毎 敵の行動前 範囲 ステージ 最大 3 回"])
    assert phrase(effect) == "このステージ中に最大 3 回、毎ターンの敵の行動前に 敵HPに 6 のダメージ"
    (effect,) = lowered(["敵HP -= 3 範囲 ステージ"])
    assert phrase(effect) == "このステージ中、この後ページをプレイするたびに 敵HPに 3 のダメージ"
    (effect,) = lowered(["敵HP -= 3 範囲 ステージ 最大 1 回"])  # placed by this play: the next
    assert phrase(effect) == "このステージ中に最大 1 回、次にページをプレイした時に 敵HPに 3 のダメージ"


def test_every_timing_and_scope_has_its_phrases():
    for timing in vocab.TIMINGS:
        # 常時 alone goes without saying when repeated: only modifiers have it (E038)
        assert timing.once() and (timing.every or timing.code == "always"), timing.code
    assert len({t.every for t in vocab.TIMINGS}) == len(vocab.TIMINGS)
    assert len({t.once() for t in vocab.TIMINGS}) == len(vocab.TIMINGS)
    for scope in vocab.SCOPES:
        assert scope.during and scope.within and scope.within != scope.during
    assert set(phrasing.RANGE_TEXT) == set(phrasing.TIMING_TEXT) \
        == {"as_written", "once", "first", "every"}


def test_phrase_pieces_join_to_the_phrase_and_link_only_vocabulary_entries():
    from contract import reference

    anchors = {row.anchor for row in reference.entries()}
    tables = load()
    for page in tables.pages.values():
        for side in page.faces:
            for body in (page.faces[side], page.pens[side]):
                for line, pieces in zip(phrasing.body_lines(body), phrasing.body_pieces(body)):
                    assert phrasing.text(pieces) == line
                    assert {p.anchor for p in pieces if p.anchor} <= anchors, line


def test_another_pages_variable_and_a_generation_read_like_a_card():
    lines = {phrase(e) for page in load().pages.values() for side in page.faces
             for e in page.faces[side].effects}
    # 銘[nyuugaku] = 40 reads as a reference to another page's 銘 does
    assert "「nyuugaku」の銘を 40 にする（ターン終了まで）" in lines
    assert "出自「幼少期」・銘 0〜12のページを1枚ランダムに生成し、手札へ加える（ステージ限り）" in lines


def test_the_catalog_says_another_page_by_its_name():
    """Rules text names another page by its id (銘[nyuugaku]); the catalog, and the cards
    printed from its views, say it by the page's name, as a reader knows it."""
    from catalog.render import page_view

    tables = load()
    view = page_view(tables.pages["doukai"], tables)
    said = [phrasing.text(line) for face in view["faces"] for line in face["lines"]]
    pen = [phrasing.text(row["pieces"]) for face in view["faces"] for row in face["pen"] or ()]
    assert "「入学式」の銘を 40 にする（ターン終了まで）" in said
    assert "山札+捨て札から「入学式」の1枚をランダムに手札へ移す" in pen
    assert not any("nyuugaku" in line for line in said + pen)


OPERATION_SAMPLES = ["敵HP -= 12", "敵HP += 4", "HP += 8", "防御 *= 2", "@旗 = 1",
                     "上限 破り回数上限 += 1 寿命 ステージ", "支払う HP 5", "抑制 刻",
                     "移動 1枚 捨て札 -> 手札 選択", "移動 2枚 山札 -> 手札 上から",
                     "公開 3枚 山札", "複製 手札 -> 山札 選択 寿命 ステージ",
                     "生成 2枚 -> 手札 寿命 ラン"]


def test_every_operation_under_every_timing_and_range_reads_uniquely():
    samples = [lowered([line]) for line in OPERATION_SAMPLES]
    assert all(samples), OPERATION_SAMPLES
    assert {e.op for (e,) in samples} == {o.code for o in vocab.OPERATIONS}
    ranges = [(s.code, None, None) for s in vocab.SCOPES]
    ranges += [(vocab.ANCHORED, u.code, 3) for u in vocab.ANCHOR_UNITS]
    texts: dict[str, tuple] = {}
    for (effect,) in samples:
        for timing in vocab.TIMINGS:
            for scope, unit, n in ranges:
                for most in (None, 1, 4):
                    repeat = dataclasses.replace(effect.repeat, scope=scope, unit=unit, n=n,
                                                 max=most)
                    said = phrase(dataclasses.replace(effect, timing=timing.code, repeat=repeat))
                    key = (_terms(effect), timing.code, repeat)
                    assert texts.setdefault(said, key) == key, said


@pytest.mark.slow
def test_what_a_condition_reads_is_among_what_a_page_reads_and_writes(tmp_path):
    """A condition on the pages in a region (手札の枚数, 除外の枚数, a page in 手札) or on the
    distance |銘 − 刻| reads those quantities: the page is found under them in the 変数
    filter and the index (受験の冬, 思い出の箱, 還暦 and 迷子の商店街 were missing)."""
    import re

    index = render_module.write(load(), tmp_path / "catalog")
    html = index.read_text(encoding="utf-8")
    reads = {m.group(1): set(m.group(2).split()) for m in re.finditer(
        r'id="page-([a-z_0-9]+)"[^>]*?data-vars="([^"]*)"', html, re.S)}
    for page in ("juken", "omoide_bako", "kanreki"):
        assert vocab.PAGES.code in reads[page], page
    assert "distance" in reads["mayoigo"]


def test_a_long_enemy_name_is_cut_to_fit_left_of_the_number_line_and_said_whole_by_its_tooltip():
    """A 26-character enemy name ran over the axis to about year 20."""
    from catalog.numberline import NAME_COLUMNS, label
    from contract.linebreak import columns

    long = "夜更けまで光り続ける手のひらの画面と終わらない通知の群れ"
    cut = label(long)
    assert cut.endswith("…") and columns(cut) <= NAME_COLUMNS and long.startswith(cut[:-1])
    assert label("歯車塔の番人") == "歯車塔の番人" and label("x" * NAME_COLUMNS) == "x" * NAME_COLUMNS


def test_a_torn_multiplier_is_said_as_it_lands_by_its_excess_over_one():
    """銀婚式's 破却 攻撃倍率 *= 1.2: the card said 「×1.2」 and 「距離 20 で ×2」, read as ×2.4;
    a tear at distance 20 lands ×1.4 (its excess over 1 grows), as the battle does."""
    import html as html_module
    from catalog.compare import tear_at

    tables = load()
    shown = html_module.unescape(render(tables))
    assert "乗算の作用は 1 を超えるぶんが伸びる（例: 距離 20 で ×2: ラン中ずっと、攻撃倍率×1.4）" \
        in shown
    kekkon = tables.pages["kekkon"]
    assert tear_at(kekkon, 35, tables.balance)["excess"] == phrasing.EXCESS_GROWS
    additive = next(p for p in tables.pages.values()
                    if p.tear and all(e.op != "mul" for e in p.tear))
    assert tear_at(additive, 0, tables.balance)["excess"] is None
    # The phrase's number is the runtime's: 1 + (1.2 − 1) × 2.75 at 刻 20.
    landed, how = phrasing.torn(kekkon.tear[0], 2.75)
    assert landed.base.value == pytest.approx(1.55) and how == "1 + (1.2 − 1) × 2.75"


def test_a_modifier_a_play_places_over_plays_to_come_says_it_covers_that_plays_rest():
    """攻撃力補正 += 2 範囲 以降 2 プレイ before 敵HP -= 5 deals 7 on its own play: the page
    said only 「以降 2 プレイの間」, and with 最大 1 回 a designer read the one use as a later
    play's. The page says its play's rest; the board, after that play, does not."""
    from catalog.phrasing import body_lines
    from contract.tables import Body

    effects = lowered(["攻撃力補正 += 2 範囲 以降 2 プレイ", "敵HP -= 5"])
    lines = body_lines(Body(conditions=(), effects=tuple(effects)))
    assert lines[0] == "このプレイの残りと以降 2 プレイの間、攻撃力補正+2"
    assert phrase(effects[0]) == "以降 2 プレイの間、攻撃力補正+2"  # on the board
    (once,) = lowered(["攻撃力補正 += 2 範囲 以降 2 プレイ 最大 1 回"])
    assert body_lines(Body(conditions=(), effects=(once,)))[0] == \
        "このプレイの残りと以降 2 プレイの間に最大 1 回、常に 攻撃力補正+2"
    (turns,) = lowered(["攻撃力補正 += 2 範囲 以降 2 ターン"])  # a turn's range says it already
    assert body_lines(Body(conditions=(), effects=(turns,)))[0] == "以降 2 ターンの間、攻撃力補正+2"
    # a 作用 waiting for a moment its own play can hold (an exile) fires in its rest too;
    # one waiting for プレイ時 fires from the next play (runtime/board.py), one for 被弾時
    # never inside a play
    for written, rest in (("敵HP -= 5 毎 ページが除外された時 範囲 以降 1 プレイ", True),
                          ("敵HP -= 5 毎 プレイ時 範囲 以降 1 プレイ", False),
                          ("防御 += 5 毎 被弾時 範囲 以降 1 ターン", False)):
        (effect,) = lowered([written])
        said = body_lines(Body(conditions=(), effects=(effect,)))[0]
        assert said.startswith("このプレイの残りと") == rest, said


def test_the_compare_tables_tear_fray_lands_as_the_battle_lands_it():
    """45 × 1.4 is 63 (残業 torn at 刻 78): the compare table said 62, the float's trunc."""
    from catalog.compare import tear_at

    tables = load()
    assert tear_at(tables.pages["zangyou"], 78, tables.balance)["fray"] == 63


def test_a_tear_that_moves_pages_is_not_said_to_grow_with_distance():
    """DESIGN §tear effect strength: a 破却's numeric bases scale with distance; a 移動's
    count of pages is no base (runtime/zones.py reads it as written). 入学式's card said
    「距離で強化 … 距離 20 で ×2: …山札の上から1枚を手札へ移す」, a doubling that never
    happens; the catalog and the printed card now say it does not grow."""
    from conftest import bundled_tables
    from printing.page_cards import page_cards

    tables = bundled_tables()
    [card] = [c for c in page_cards(tables) if c.key == "page/nyuugaku"]
    [tear] = [s for s in card.sections if s.heading.startswith("破却効果")]
    assert tear.lines[-1] == "距離で強化: なし（移動は距離で変わらない）"
    html = render(tables)
    assert html.count("距離で強化: なし") == 1  # 入学式's: no other tear is a 移動 alone
    # a 公開 and a 抑制 are named for what they are, a mixed tear's example names them too
    from catalog.render import _tear_scale

    reveal, suppress, grows = tables.pages["nyuugaku"].tear[0], None, None
    reveal = dataclasses.replace(reveal, op="reveal")
    [grows] = [e for p in tables.pages.values() for e in p.tear or () if e.op == "add"][:1]
    suppress = dataclasses.replace(grows, op="suppress", base=None)
    assert _tear_scale(0.05, (reveal, suppress)) == "距離で強化: なし（公開・抑制は距離で変わらない）"
    assert _tear_scale(0.05, (grows, reveal)).endswith("。公開は距離で変わらない）")
    grown = [c for c in page_cards(tables) if c.key == "page/hitoritabi"]
    assert all("なし" not in s.lines[-1] for c in grown for s in c.sections
               if s.heading.startswith("破却効果"))
