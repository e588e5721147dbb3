"""Completion by position (issue 26): what the editor offers is what the grammar lets stand
at the cursor — value terms after an assignment operator, targets and verbs at the start
of an effect, page ids in a デッキ, item keywords at the top level, a page's or an enemy's
field keywords in its block. The pure functions (dsl.position, lsp.completion) in the fast
loop; the real server over stdio (pytest-lsp) in the slow one."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import LSP_SERVER, compiled_tables
from contract import vocabulary as vocab
from dsl.position import place_at
from lsp.completion import Folder, candidates, completions


PAGE_OPEN = "ページ a {\n  銘 3\n  未来面 {\n    "
ITEM_WORDS = {vocab.KEYWORDS[rule][0] for rule in vocab.ITEM_KEYWORDS}
PAGE_FIELD_WORDS = {vocab.KEYWORDS[rule][0] for rule in (
    "year", "fray_mul", "origin", "dest", "deck_cap", "appears", "future", "past", "pen",
    "tear", "flavor", "target")}
ENEMY_FIELD_WORDS = {vocab.KEYWORDS[rule][0] for rule in (
    "hp", "seat", "breakthrough", "intents", "escalation", "traits", "flavor", "target")}
PAGES = {"tabidachi": SimpleNamespace(year=36, name="旅立ちの朝", origin="青年期"),
         "kekkon": SimpleNamespace(year=44, name="結婚", origin="壮年期")}


def _at_end(text: str, pages=None) -> dict:
    """The candidates at the end of ``text``, by label."""
    found = completions(text, len(text), None, pages or {}, {})
    return {c.label: c for c in found}


def _keywords(found: dict) -> set[str]:
    return {label for label, c in found.items() if c.kind == "keyword"}


# ------------------------------------------------------------------ fast: pure functions


@pytest.mark.parametrize("line, offered", [
    ("防御 ", ("+=", "-=", "*=", "=")),
    ("条件 刻 ", (">=", "<=", "==", "!=", ">", "<", "×", "/", "+", "-")),
    ("移動 1枚 山札 ", ("->", "+")),  # 山札+捨て札: a 合算
    # after a 作用's value: its arithmetic, never a comparison (E025 「作用の値に閾値（比較）
    # は書けません」, which completion offered)
    ("敵HP -= 2 ", ("×", "/", "+", "-")),
    ("敵HP -= 使用した歩[ターン] ", ("×", "/", "+", "-")),
])
def test_between_an_operand_and_its_operator_the_operators_are_offered(line, offered):
    """Completion was empty after 「防御 」 and 「条件 刻 」, and 「移動 1枚 山札 」 got no
    「->」: the operators the grammar accepts there are offered, as written."""
    found = _at_end(PAGE_OPEN + line)
    operators = tuple(label for label, c in found.items() if c.kind == "operator")
    assert operators == offered, found.keys()


def test_telegraphed_is_offered_in_an_enemys_traits_only():
    """予告 after a 作用's value: an enemy trait's word (E042 in a page), which completion
    offered in a page's face."""
    assert "予告" not in _keywords(_at_end(PAGE_OPEN + "敵HP -= 2 毎 ターン開始時 "))
    traits = '敵 e "e" {\n  HP 30\n  特性 {\n    座 -= 2 毎 ターン開始時 '
    assert "予告" in _keywords(_at_end(traits))


def test_every_operator_offered_is_one_its_terminal_reads():
    """The offered spellings are a table (dsl.position.OPERATORS): each must be what the
    grammar's terminal of that name reads, or completion would offer a syntax error."""
    import re

    from dsl.parser import get_parser
    from dsl.position import OPERATORS

    parser = get_parser()
    for terminal, spellings in OPERATORS.items():
        pattern = re.compile(parser.get_terminal(terminal).pattern.to_regexp())
        assert all(pattern.fullmatch(op) for op in spellings), terminal
    assert place_at(PAGE_OPEN + "防", len(PAGE_OPEN) + 1).operators == ()  # a word typed


@pytest.mark.parametrize("line", ["敵HP -= ", "攻撃倍率 *= ", "防御 += ", "敵HP -="])
def test_after_an_assignment_operator_the_value_terms_stand_and_no_keyword(line):
    found = _at_end(PAGE_OPEN + line)
    assert _keywords(found) == set()
    assert {"使用した歩[プレイ]", "跨いだ回数[ターン]", "防御", "刻", "距離", "手札"} <= set(found)
    assert "プレイ枚数[プレイ]" not in found  # a × cell of spec 002's table: never offered
    assert "使用した歩" not in found  # a cumulative quantity is read with its scope
    assert "W001" in found["使用した歩[ラン]"].detail  # ○: offered with its warning
    assert "ターン開始時" not in found and not ITEM_WORDS & set(found)


def test_at_the_start_of_an_effect_line_the_targets_and_verbs_stand():
    found = _at_end(PAGE_OPEN)
    assert {"敵HP", "防御", "歩", "攻撃倍率"} <= set(found)
    assert {vocab.KEYWORDS[rule][0] for rule in ("pay", "move", "cap", "cond")} <= _keywords(found)
    assert "使用した歩[プレイ]" not in found and "距離" not in found  # read, never targets
    assert not (ITEM_WORDS | PAGE_FIELD_WORDS) & _keywords(found)
    assert "+= -= *=" in found["敵HP"].detail


def test_in_a_deck_block_the_page_ids_of_the_folder_stand_and_nothing_else():
    for text in ("デッキ starter {\n  ", "デッキ starter {\n  tabidachi\n  ",
                 "デッキ starter {\n  tabidachi × 2, "):
        found = _at_end(text, PAGES)
        assert set(found) == set(PAGES)
        assert found["tabidachi"].detail == "銘 36 旅立ちの朝"


def test_at_the_top_level_the_item_keywords_stand():
    for text in ("", "ページ a {\n  銘 3\n}\n\n", "# 注釈\n"):
        assert set(_at_end(text)) == ITEM_WORDS


def test_inside_a_page_its_field_keywords_stand():
    for text in ("ページ a {\n  ", "ページ a {\n  銘 3\n  未来面 { 敵HP -= 3 }\n  "):
        assert set(_at_end(text)) == PAGE_FIELD_WORDS


def test_inside_an_enemy_its_field_keywords_stand():
    found = _at_end('敵 haguruma "歯車" {\n  HP 60\n  ')
    assert set(found) == ENEMY_FIELD_WORDS


def test_in_an_enemy_trait_block_its_targets_and_traits_stand():
    found = _at_end("敵 a {\n  特性 {\n    ")
    assert {"座", "不動", "封鎖"} <= set(found)
    assert "歩" not in found  # no enemy operation moves the player's 歩


def test_after_a_term_keyword_its_table_stands():
    lifetimes = _at_end(PAGE_OPEN + "防御 += 3 寿命 ")
    assert set(lifetimes) == {t.ja for t in vocab.LIFETIMES}
    timings = _at_end(PAGE_OPEN + "防御 += 3 毎 ")
    assert set(timings) == {t.ja for t in vocab.TIMINGS}
    tails = _keywords(_at_end(PAGE_OPEN + "防御 += 3 "))
    assert {"寿命", "毎", "範囲", "最大", "固定"} <= tails and not tails & PAGE_FIELD_WORDS


def test_a_subscript_offers_the_scopes_its_quantity_may_be_read_over():
    found = _at_end(PAGE_OPEN + "敵HP -= プレイ枚数[")
    assert {"ターン", "ステージ", "ラン"} <= set(found)
    assert "プレイ" not in found  # プレイ枚数[プレイ] is × (always 1)


def test_nothing_is_offered_in_a_comment_or_a_string_or_after_an_error_on_the_line():
    for text in (PAGE_OPEN + "# 敵HP -= ", 'ページ a "旅', PAGE_OPEN + "敵HP -= = "):
        assert place_at(text, len(text)) is None
        assert _at_end(text) == {}


def test_an_error_on_an_earlier_line_does_not_hide_the_position():
    text = "ページ a {\n  銘 = 3\n  未来面 {\n    敵HP -= "
    assert _at_end(text).keys() >= {"使用した歩[プレイ]", "防御"}


def test_the_position_is_read_from_the_text_before_the_cursor_only():
    text = PAGE_OPEN + "敵HP -= 3\n  }\n}\n"
    at = text.index("-= ") + 3
    found = {c.label for c in candidates(place_at(text, at), Folder(None, {}, {}))}
    assert "使用した歩[プレイ]" in found and not ITEM_WORDS & found


# ------------------------------------------------------------------ slow: over the wire


@pytest_lsp.fixture(config=ClientServerConfig(server_command=LSP_SERVER))
async def client(lsp_client: LanguageClient, content):
    lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=content.parent.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="jibunki", version=1,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    return uri


async def _labels(client: LanguageClient, uri: str, line: int, character: int) -> dict:
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(line, character)))
    return {item.label: item for item in found.items}


@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
@pytest.mark.asyncio
async def test_the_server_offers_value_terms_after_an_operator_and_ids_in_a_deck(
        client: LanguageClient, content):
    pages = set(compiled_tables(content).pages) | {"atarashii"}
    page = content / "pages" / "新しい.page"
    text = 'ページ atarashii "新しい" {\n  銘 30\n  未来面 {\n    敵HP -= \n  }\n  過去面 白紙\n}\n'
    page.write_text(text, encoding="utf-8")
    uri = await _open(client, page)
    after = await _labels(client, uri, 3, len("    敵HP -= "))
    assert {"使用した歩[プレイ]", "防御"} <= set(after)
    assert not ITEM_WORDS & set(after)
    assert all(item.kind != types.CompletionItemKind.Keyword for item in after.values())
    assert after["使用した歩[プレイ]"].kind == types.CompletionItemKind.Variable
    inside = await _labels(client, uri, 5, 2)
    assert set(inside) == PAGE_FIELD_WORDS
    top = await _labels(client, uri, 7, 0)
    assert set(top) == ITEM_WORDS

    deck = content / "starter.deck"
    deck_uri = await _open(client, deck)
    row = deck.read_text(encoding="utf-8").split("\n").index("  tabidachi")
    in_deck = await _labels(client, deck_uri, row, 2)
    assert set(in_deck) == pages
    assert all(item.kind == types.CompletionItemKind.Reference for item in in_deck.values())


@pytest.mark.slow
@pytest.mark.usefixtures("lsp_zygote")  # the server this test starts
@pytest.mark.asyncio
async def test_the_server_offers_enemy_fields_in_an_enemy_block(client: LanguageClient, content):
    enemy = content / "enemies" / "日々.enemy"
    text = enemy.read_text(encoding="utf-8")
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("敵 ")) + 1
    uri = await _open(client, enemy)
    found = await _labels(client, uri, row, 0)
    assert set(found) == ENEMY_FIELD_WORDS


@pytest.mark.parametrize("quantity, some, none", [
    ("出来事", {"被弾", "座の移動", "面の発動"}, {"ターン", "以降"}),
    ("未来面", {"tabidachi"}, {"ターン"}),
    ("過去", {"tabidachi"}, {"ラン"}),
    ("防御", {"被弾1回", "ターン", "ステージ", "ラン"}, {"プレイ", "以降"}),
    ("綻び", {"ステージ", "ラン"}, {"ターン", "プレイ"}),
])
def test_a_subscript_in_an_example_offers_what_its_quantity_takes(quantity, some, none):
    """In a 例's 確認, 出来事[ takes event kinds, 未来面[ a page, 防御[ an expiry, 綻び[ a
    scope of the fray: it offered the scopes of a counter, each an error once picked."""
    found = _at_end(f"例 {{\n 敵 e\n 確認 {quantity}[", PAGES)
    assert some <= set(found) and not none & set(found), sorted(found)
    assert _at_end("例 {\n 敵 e\n 確認 使用した歩[").keys() >= {"ターン", "ラン"}  # a counter's


@pytest.mark.parametrize("line, role", [
    ("選ぶ ", "page_id"),                       # what 選ぶ names: a page
    ("開始 手札 [hatsukoi, ", "page_id"),       # the list's next page, not only its first
    ("開始 手札 [hatsukoi, kekkon, ", "page_id"),
    ("開始 刻 20, ", "setting"),                # the next setting of 開始
    ("開始 手札 [hatsukoi], ", "setting"),       # … after a list
    ("開始 使用した歩[ターン] 3, ", "setting"),  # … after a subscripted one
    ("開始 刻 20, HP 3, ", "setting"),          # … after the second and later ones
    ("開始 手札 [hatsukoi, kekkon], 刻 20, 歩 4, ", "setting"),
    ("開始 刻 20, 手札 [hatsukoi, ", "page_id"),
])
def test_an_examples_steps_are_offered_what_they_name(line, role):
    """In a 例, 「選ぶ 」 and the second id of 「手札 [a, 」 got no candidate at all, nor
    the setting after 「手札 [a], 」 or after a second setting (lark's own rule for the
    repetition stood before the comma)."""
    text = '例 "x" {\n  デッキ [hatsukoi, kekkon]\n  ' + line
    assert place_at(text, len(text)).name == role


def test_after_an_at_sign_the_folders_flags_are_offered(tmp_path):
    """Nothing was offered after 「@」 though it opens a completion by itself: the flags
    written anywhere in the folder are, each with how often it is written — at an
    effect's start, in a condition, as a value — and none in a comment or a string."""
    from compiler.lint import check

    (tmp_path / "a.page").write_text(
        'ページ a "あ" {\n  銘 3\n  未来面 {\n    @来世 += 1\n    @夢 = 2\n  }\n}\n'
        'ページ b "い" {\n  銘 4\n  未来面 {\n    条件 @来世 >= 1\n    敵HP -= 1\n  }\n}\n',
        encoding="utf-8")
    result = check([tmp_path])
    for line in ("@", "条件 @来", "敵HP -= @"):
        found = {c.label: c for c in completions(PAGE_OPEN + line, len(PAGE_OPEN + line),
                                                 result, {}, {})}
        assert list(found) == ["夢", "来世"], line
        # written once, read once: said apart (a flag only read stays 0: it says so)
        assert found["来世"].detail == f"{vocab.FLAG.ja} · このフォルダで 書く 1 か所・読む 1 か所"
        assert vocab.FLAG.meaning in found["来世"].documentation
    for line in ("敵HP -= 1 # @", 'フレーバー "@'):
        assert completions(PAGE_OPEN + line, len(PAGE_OPEN + line), result, {}, {}) == [], line
    # a mail address's @ is no flag's
    assert "来世" not in _at_end(PAGE_OPEN + "敵HP -= a@")


def test_a_flag_and_an_origin_have_a_hover_of_what_they_are_in_the_folder(tmp_path):
    """Hovering 「@来世」 or the 青年期 of 「出自 青年期」 showed nothing (they are names the
    designer makes up, in no glossary): a flag is the vocabulary's 内部フラグ with how often
    the folder writes it; an origin, how many pages have it and their 銘."""
    from compiler.lint import check
    from lsp.features import hover

    (tmp_path / "a.page").write_text(
        'ページ a "あ" {\n  銘 3\n  出自 幼年期\n  未来面 {\n    @来世 += 1\n  }\n}\n'
        'ページ b "い" {\n  銘 8\n  出自 幼年期\n  未来面 {\n    条件 @来世 >= 1\n    敵HP -= 1\n  }\n}\n',
        encoding="utf-8")
    result = check([tmp_path])
    flag = hover("    @来世 += 1", 4, 6, result, {}, {})
    assert flag.startswith(f"**@来世** — {vocab.FLAG.ja}") and vocab.FLAG.meaning in flag
    assert "このフォルダで 書く 1 か所・読む 1 か所" in flag
    (tmp_path / "a.page").write_text(
        'ページ b "い" {\n  銘 8\n  未来面 {\n    条件 @幻 >= 1\n    敵HP -= 1\n  }\n}\n',
        encoding="utf-8")
    only_read = hover("    条件 @幻 >= 1", 3, 9, check([tmp_path]), {}, {})
    assert "書く 0 か所・読む 1 か所（書く作用がないので 0 のまま）" in only_read
    origin = hover("  出自 幼年期", 2, 7, result, {}, {})
    assert origin.startswith("**幼年期** — 出自") and "この出自のページ: 2 枚（銘 3〜8）" in origin
    assert hover("  出自 幼年", 2, 7, result, {}, {}) is None  # no page has that one


@pytest.mark.parametrize("line, col, said", [
    ("  条件 歩 >= 10", 8, "**>=**（≥）— 比較  \n左が右以上のときに成り立ちます"),
    ("  条件 刻 < 3", 7, "**<**（＜）— 比較  \n左が右より小さいときに成り立ちます"),
    ("    敵HP -= 12", 9, "**加算** — 演算 · `add`"),
    ("    防御 *= 2", 8, "**乗算** — 演算 · `mul`"),
    ("    銘[a] = 刻", 10, "**代入** — 演算 · `assign`"),
])
def test_an_operator_has_a_hover_of_what_it_does(line, col, said):
    """Hovering `>=` or `-=` showed nothing: an assignment's operator shows its operation
    from the vocabulary, a comparison what it asks of its two sides."""
    from lsp.features import hover

    assert hover(line, 0, col, None, {}, {}).startswith(said)


@pytest.mark.parametrize("line, col", [
    ("# 1 枚 銘 毎", 4),                      # a comment line
    ("    敵HP -= 4   # 枚 毎", 20),          # a comment after a 作用
    ('  フレーバー "未来面 敵HP"', 15),        # a keyword and a variable in a string
    ('  フレーバー "未来面 敵HP"', 9),         # the opening quote
    ("    敵HP -= 4   # 加算 -= 12", 23),     # an operator in a comment
])
def test_a_comment_or_a_string_has_no_hover_of_the_language(line, col):
    """The designer's own words — a comment, a フレーバー — were explained as keywords
    and variables (「枚」 in starter.deck's first comment); a trailing comment on a 作用
    also got what the 作用 sets off. Completion there was already empty."""
    from compiler.lint import check_text
    from lsp.features import hover

    result = check_text("ページ t {\n  銘 3\n  未来面 { 敵HP -= 4 }\n  過去面 白紙\n}\n", "t.page")
    said = "この作用が誘発するもの"
    assert hover(line, 0, col, result, {}, {}, triggers=said) is None
    # the same words outside a comment or string are explained, the 作用's triggers too
    assert hover("    敵HP -= 4", 0, 5, result, {}, {}).startswith("**敵HP**")
    assert hover("  1 枚", 0, 4, result, {}, {}).startswith("**枚**")
    assert said in hover("    敵HP -= 4   # x", 0, 5, result, {}, {}, triggers=said)


@pytest.mark.parametrize("line, col, head", [
    ("  目標 勝率 30%〜70%", 8, "**目標 勝率 30%〜70%** — 目標の範囲"),
    ("  目標 勝率 30%〜70%", 14, "**目標 勝率 30%〜70%** — 目標の範囲"),
    ("  目標 勝率差 -5%〜+10%", 10, "**目標 勝率差 -5%〜+10%** — 目標の範囲"),
    ("  target win_rate 30%..70%", 20, "**目標 勝率 30%..70%** — 目標の範囲"),
])
def test_a_target_band_has_a_hover_of_how_it_is_judged(line, col, head):
    """Hovering the band of a 目標 showed nothing: it says how the measured interval is
    judged against it, in the reports' words, and which check judges it."""
    from lsp.features import hover

    said = hover(line, 0, col, None, {}, {})
    assert said.startswith(head)
    for word in (vocab.W.report.met, vocab.W.report.missed, vocab.W.report.undecided,
                 "jibunki sim --check", "jibunki journey report --check"):
        assert word in said


def test_a_band_hover_is_only_the_bands(tmp_path):
    from compiler.lint import check
    from lsp.features import hover

    result = check([tmp_path])
    assert hover("  目標 勝率 30%〜70%", 0, 3, result, {}, {}).startswith("**目標** — キーワード")
    assert hover("  目標 未知 30%〜70%", 0, 8, result, {}, {}) is None  # no such measure
    assert hover("  目標 勝率 30%〜70%", 0, 1, result, {}, {}) is None  # before the line's words
    assert hover("    敵HP -= 30", 0, 12, result, {}, {}) is None  # a number of no band
