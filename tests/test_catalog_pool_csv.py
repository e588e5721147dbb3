"""The pool table as CSV (catalog/pool_csv.py): RFC 4180 quoting, the BOM, a designer's
text that begins like a formula kept as text, the same bytes every time, and the page
holding the very records the file has (its 「CSVで保存」 joins them)."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from catalog import pool_csv
from catalog.render import POOL_CSV, context, write
from compiler.build import compile_content
from conftest import ROOT, bundled_balance
from runtime.tables import from_dicts, load

BALANCE = bundled_balance()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The bundled content's catalog, written once: its folder."""
    out = tmp_path_factory.mktemp("catalog")
    write(load(), out)
    return out


def csv_of(tables, **kwargs) -> bytes:
    """The pool table's CSV computed afresh, without writing the catalog."""
    table = context(tables, **kwargs)["csv"]
    return pool_csv.document(table["header"], list(table["rows"].values()))


def parsed(data: bytes) -> list[list[str]]:
    """The records of a CSV file as a spreadsheet reads them (BOM dropped)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


@pytest.mark.parametrize("field", ["=HYPERLINK(\"http://x\",\"押す\")", "+1+2", "-2+3", "@SUM(A1)",
                                   "\tTAB", "\rCR", "＝１＋１", "＋１", "－１", "＠x", "-", "+"])
def test_a_field_that_begins_like_a_formula_is_kept_as_text(field):
    shown = pool_csv.neutralise(field)
    assert shown.startswith("'") and shown[1:] == field.replace("\r", "\n")


@pytest.mark.parametrize("field", ["-1.5", "+3", "0", "12", "-0.25", "産声", "a=b", "1-2"])
def test_a_plain_number_or_a_text_not_starting_with_a_sign_is_unchanged(field):
    assert pool_csv.neutralise(field) == field


def test_fields_with_comma_quote_or_line_break_are_quoted_as_rfc_4180_says():
    fields = ["a,b", 'say "hi"', "two\nlines", "cr\r\nlf", "plain", ""]
    line = pool_csv.record(fields)
    assert line == '"a,b","say ""hi""","two\nlines","cr\nlf",plain,'
    assert parsed(pool_csv.document(line, [])) == [
        ["a,b", 'say "hi"', "two\nlines", "cr\nlf", "plain", ""]]


def test_the_file_has_a_bom_one_header_and_crlf_after_every_record():
    data = pool_csv.document(pool_csv.record(["銘", "名前"]), [pool_csv.record(["1", "x"]),
                                                                pool_csv.record(["2", "y"])])
    assert data.startswith(b"\xef\xbb\xbf")
    assert data == "\ufeff銘,名前\r\n1,x\r\n2,y\r\n".encode("utf-8")


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_the_catalog_writes_pool_csv_with_every_page_in_the_table_order(written):
    tables = load()
    data = (written / POOL_CSV).read_bytes()
    records = parsed(data)
    header, rows = records[0], records[1:]
    assert header[:7] == ["銘", "id", "名前", "綻び倍率", "出自", "書かれた面", "初期デッキの枚数"]
    assert "刻 0 から出す歩" in header and "刻 80 で破る綻び" in header
    ordered = sorted(tables.pages.values(), key=lambda p: (p.year, p.id))
    assert [r[1] for r in rows] == [p.id for p in ordered]
    assert all(len(r) == len(header) for r in rows)
    sakamichi = dict(zip(header, next(r for r in rows if r[1] == "sakamichi")))
    assert sakamichi["名前"] == "坂道の自転車" and sakamichi["銘"] == "8"
    assert sakamichi["刻 0 から出す歩"] == pool_csv.CANNOT_PLAY  # the table's ×
    assert sakamichi["刻 20 から出す歩"] == "12"
    assert csv_of(tables) == data  # the same bytes every time


def test_lab_figures_are_numbers_a_spreadsheet_can_sort():
    from test_sim_report_html import sample_report

    records = parsed(csv_of(load(), lab_report=sample_report()))
    header = records[0]
    assert header[-5:] == [name for name, *_ in pool_csv.LAB_COLUMNS]
    deltas = [r[header.index("Δ 勝率（pt）")] for r in records[1:]]
    assert any(deltas) and all(re.fullmatch(r"-?[0-9]+\.[0-9]", d) for d in deltas if d)


def test_the_page_holds_the_records_of_the_file(written):
    page = (written / "index.html").read_text(encoding="utf-8")
    header = html.unescape(re.search(r'<table class="pool" id="pool-table" data-csv="([^"]*)"',
                                     page).group(1))
    rows = [html.unescape(r) for r in re.findall(r'<tr data-page="[^"]*" data-csv="([^"]*)"', page)]
    # what the button joins when every row is shown, in the table's first order
    assert pool_csv.document(header, rows) == (written / POOL_CSV).read_bytes()
    assert 'href="pool.csv"' in page and "CSVで保存" in page


def test_a_designer_name_like_a_formula_is_neutralised_in_the_file_and_escaped_in_the_page(
        tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / "b.balance").write_text(BALANCE, encoding="utf-8")
    name = '=HYPERLINK(\\"http://evil\\",\\"<b>押す</b>\\")'
    (content / "x.page").write_text(
        f'ページ x "{name}" {{\n 銘 3\n 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }}\n}}\n'
        f'ページ y "@SUM(1, 2)" {{\n 銘 5\n 未来面 {{ 敵HP -= 1 }}; ペン 過去面 {{ 歩 += 5 }}\n}}\n'
        'デッキ starter { x }\n敵 e "e" { HP 5; 座 1; 突破ライン 9; 予兆 [攻撃 1] }\n',
        encoding="utf-8")
    compiled = compile_content(content)
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    out = tmp_path / "catalog"
    index = write(from_dicts(compiled.tables), out)
    rows = {r[1]: r for r in parsed((out / POOL_CSV).read_bytes())[1:]}
    assert rows["x"][2] == "'=HYPERLINK(\"http://evil\",\"<b>押す</b>\")"
    assert rows["y"][2] == "'@SUM(1, 2)"
    page = index.read_text(encoding="utf-8")
    assert "<b>押す</b>" not in page and "&lt;b&gt;押す&lt;/b&gt;" in page


@pytest.mark.slow  # the whole CLI: compiles the content
def test_jibunki_catalog_says_where_the_csv_is(tmp_path, monkeypatch):
    from conftest import invoke_cli

    monkeypatch.chdir(ROOT)
    out = tmp_path / "catalog"
    result = invoke_cli("catalog", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"一覧の CSV: {(out / POOL_CSV).resolve().as_uri()}" in result.output.splitlines()
    assert (out / POOL_CSV).read_bytes().startswith(pool_csv.BOM.encode("utf-8"))


@pytest.mark.slow
def test_a_link_in_place_of_pool_csv_is_refused_in_japanese(tmp_path, monkeypatch):
    from conftest import invoke_cli

    monkeypatch.chdir(ROOT)
    out = tmp_path / "catalog"
    out.mkdir()
    outside = tmp_path / "mine.csv"
    outside.write_text("mine\n", encoding="utf-8")
    (out / POOL_CSV).symlink_to(outside)
    result = invoke_cli("catalog", "--out", str(out))
    assert result.exit_code == 1 and "pool.csv: 通常のファイルではありません" in result.output
    assert outside.read_text(encoding="utf-8") == "mine\n"


def _with_observed(report: dict, *, swapped: bool) -> dict:
    """``report`` with the lab's observed figures on its first two pages (known numbers)
    and, when ``swapped``, the swapped Δ on the first: the rest have none."""
    first, second = report["pages"][:2]
    first["observed"] = {"drawn": {"win_rate": {"estimate": 0.8, "low": 0.7, "high": 0.875}},
                         "improvement": {"estimate": 0.25, "low": 0.05, "high": 0.4},
                         "flags": ["long_games"]}
    second["observed"] = {"drawn": {"win_rate": None}, "improvement": None, "flags": []}
    if swapped:
        first["swap_delta"] = {"pairs": 100,
                               "delta": {"estimate": -0.031, "low": -0.06, "high": 0.002}}
    return report


def _pool_cells(page: str, ident: str) -> dict:
    """The pool table's header buttons → the cells of the row of page ``ident``."""
    pool = page[page.index('id="pool-table"'):page.index("</table>", page.index('id="pool-table"'))]
    heads = re.findall(r'<button type="button"(?: title="[^"]*")?>([^<]*)</button>', pool)
    row = re.search(rf'<tr data-page="{ident}".*?</tr>', pool, re.S).group(0)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    return dict(zip(["比べる", *heads], cells))


@pytest.mark.slow
@pytest.mark.parametrize("swapped", [False, True])
def test_the_pool_table_and_csv_show_the_lab_observed_figures_in_its_words(swapped):
    from test_sim_report_html import PAGES, sample_report

    from catalog.render import render
    from sim.observed import LABELS

    tables = load()
    ident, other, bare = PAGES[0][0], PAGES[1][0], PAGES[2][0]
    report = _with_observed(sample_report(pages=PAGES[:3], enemies=[]), swapped=swapped)
    records = parsed(csv_of(tables, lab_report=report))
    header, rows = records[0], {r[1]: dict(zip(records[0], r)) for r in records[1:]}
    drawn, better, swap = LABELS["drawn"], LABELS["improvement"], LABELS["swap_delta"]
    assert drawn == "引いた試合の勝率" and better == "引いた時の差（観測）"
    assert swap.startswith("入れ替えた時の勝率差")
    assert rows[ident][f"{drawn}（%）"] == "80.0"
    assert rows[ident][f"{drawn} 95% 区間の下端（%）"] == "70.0"
    assert rows[ident][f"{better}（pt）"] == "25.0"
    assert rows[ident][f"{better} 95% 区間の上端（pt）"] == "40.0"
    # a page the lab drew no figure for, and one not in the report: empty cells
    assert rows[other][f"{drawn}（%）"] == rows[bare][f"{better}（pt）"] == ""
    assert (f"{swap}（pt）" in header) == swapped
    if swapped:
        assert rows[ident][f"{swap}（pt）"] == "-3.1" and rows[other][f"{swap}（pt）"] == ""
    assert all(len(r) == len(header) for r in records)

    cells = _pool_cells(render(tables, lab_report=report), ident)
    assert cells[drawn] == "80.0% [70.0, 87.5]"
    assert cells[better] == "+25.0 pt [+5.0, +40.0]"
    assert (swap in cells) == swapped
    if swapped:
        assert cells[swap] == "−3.1 pt [−6.0, +0.2]"


def test_without_observed_figures_the_pool_table_and_csv_are_as_before():
    from test_sim_report_html import PAGES, sample_report

    from catalog.render import render

    tables = load()
    report = sample_report(pages=PAGES[:3], enemies=[])
    header = parsed(csv_of(tables, lab_report=report))[0]
    assert header[-5:] == [name for name, *_ in pool_csv.LAB_COLUMNS]
    cells = _pool_cells(render(tables, lab_report=report), PAGES[0][0])
    # plays per battle, in the lab's own words (it read as a share, プレイ率 1.48)
    assert list(cells)[-3:] == ["Δ 勝率", "出した回数/戦", "歩あたりダメージ"]
    assert not {"引いた試合の勝率", "引いた時の差（観測）"} & set(cells)
