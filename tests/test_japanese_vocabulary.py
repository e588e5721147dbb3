"""One language for the designer (issue 26): the vocabulary speaks Japanese wherever a
designer reads it — ``jibunki vocab`` (text and JSON), the catalog, and the language
server's hovers and completions. Every table of contract.vocabulary is walked, so a term
added later with an English note fails here."""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import compiled_tables, invoke_cli
from contract import reference
from contract import vocabulary as vocab
from english import english_sentences
from lsp import completion, features

#: Hiragana, katakana and the CJK ideographs: a text the designer reads says something in
#: Japanese (a one-word English note such as "atomic" has no sentence, but no kana either).
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _terms() -> list[vocab.Term]:
    """Every term contract.vocabulary defines: each table of terms and each lone term,
    found by walking the module (not a list kept here)."""
    found: dict[int, vocab.Term] = {}
    for value in vars(vocab).values():
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if isinstance(item, vocab.Term):
                found.setdefault(id(item), item)
    return list(found.values())


def _spellings() -> list[str]:
    """Every spelling of every term and every keyword (Japanese and ASCII)."""
    words = [s for table in vocab.tables().values() for s in table.spellings()]
    words += [word for pair in vocab.KEYWORDS.values() for word in pair]
    return list(dict.fromkeys(words))


def _clean(what: str, text: str) -> None:
    assert english_sentences(text) == [], f"{what}: {text!r}"


def test_the_walk_finds_every_table_of_the_vocabulary():
    """The walk below must see the tables it claims to (so the tests on it can fail)."""
    codes = {(type(t).__name__, t.code) for t in _terms()}
    for table in vocab.tables().values():
        assert all((type(e).__name__, e.code) in codes for e in table.entries), table.name
    assert ("Term", vocab.TARGET.code) in codes and ("Variable", "flag") in codes


def test_every_note_meaning_and_phrase_of_the_vocabulary_is_japanese():
    for term in _terms():
        for field in ("note", "meaning", "phrase"):
            text = getattr(term, field) or ""
            _clean(f"{term.code}.{field}", text)
            if field == "note" and text:
                assert _JAPANESE.search(text), f"{term.code}.note is not Japanese: {text!r}"


def test_a_rule_note_says_the_rule_in_japanese():
    """The notes that state rules (DESIGN §6: what pages may not target) say them in the
    game's words."""
    notes = {v.code: v.note for v in vocab.VARIABLES}
    assert notes["fray"] == "ペンと破るでのみ増える"
    assert notes["age"] == "プレイでのみ動く。制御できるのは抑制だけ"
    assert notes["seat"] == "敵の座。動かせるのは敵の特性だけ"


def test_jibunki_vocab_prints_no_english_sentence():
    result = invoke_cli("vocab")
    assert result.exit_code == 0
    _clean("jibunki vocab", result.output)
    assert "ペンと破るでのみ増える" in result.output


@pytest.mark.slow
def test_jibunki_vocab_of_each_term_prints_no_english_sentence():
    for row in reference.entries():
        for spelling in (row.ja, row.code, *row.aliases):
            result = invoke_cli("vocab", spelling)
            assert result.exit_code == 0, spelling
            _clean(f"jibunki vocab {spelling}", result.output)


def test_an_operation_s_family_is_named_in_japanese():
    rows = {(r.section, r.code): r for r in reference.entries()}
    assert rows["operation", "add"].detail == "+=（数値族）"
    assert rows["operation", "cap"].detail == "上限（パラメータ族）"
    assert rows["operation", "suppress"].detail == "抑制（制御族）"


def test_jibunki_vocab_json_values_are_japanese():
    result = invoke_cli("vocab", "--format", "json")
    rows = json.loads(result.output)
    assert rows
    for row in rows:
        for key in ("meaning", "detail"):
            _clean(f"{row['code']}.{key}", row[key])
            assert _JAPANESE.search(row[key]), (row["code"], key)
        for scope, cell in row.get("scopes", {}).items():
            _clean(f"{row['code']}[{scope}]", cell["meaning"])


def test_every_hover_of_a_vocabulary_word_or_keyword_is_japanese():
    """The hover of each spelling (the editor's glossary): headings, labels, notes and what
    a keyword does, in Japanese; each hover's body says something in Japanese."""
    keywords = {w for pair in vocab.KEYWORDS.values() for w in pair}
    for word in _spellings():
        found = features.glossary(word)
        assert found, word
        for text in found:
            _clean(f"hover {word}", text)
            heading = text.partition("\n")[0]
            assert _JAPANESE.search(heading.split("—", 1)[1]), (word, heading)
        if word in keywords:  # the keyword's own hover comes first: what it does
            explained = found[0].partition("\n")[2]
            assert _JAPANESE.search(explained), f"the keyword {word} is not explained"


def test_a_journey_word_has_a_hover():
    """The journey's suits, effects and fields (spec 004) are tables of the vocabulary too:
    their hover names the table in Japanese."""
    [suit] = features.glossary("赤")
    assert suit.startswith("**赤** — 旅のスート")
    [field] = features.glossary("枠")
    assert "カードアイコン" in field


#: Positions in a page, an enemy and a deck, each with the cursor at its end: between
#: them they reach every kind of candidate the server offers.
_POSITIONS = ("", "ページ p {\n", "ページ p {\n 未来面 {\n  ", "ページ p {\n 未来面 {\n  敵HP -= ",
              "ページ p {\n 未来面 {\n  防御 += 3 寿命 ", "ページ p {\n 未来面 {\n  防御 += 3 毎 ",
              "ページ p {\n 未来面 {\n  敵HP -= 使用した歩[", "敵 e {\n", "敵 e {\n 特性 {\n  ",
              "デッキ d {\n  ")


def _every_candidate() -> list:
    return [c for text in _POSITIONS
            for c in completion.completions(text, len(text), None, {}, {})]


def test_every_keyword_s_completion_detail_and_documentation_is_japanese():
    """A keyword's completion says what the keyword does (the same text as its hover)."""
    keywords = {ja for ja, _ in vocab.KEYWORDS.values()}
    offered = _every_candidate()
    found = [c for c in offered if c.label in keywords]
    assert found
    for candidate in offered:
        _clean(f"completion {candidate.label} detail", candidate.detail)
        _clean(f"completion {candidate.label} documentation", candidate.documentation)
        assert _JAPANESE.search(candidate.detail), candidate


# ------------------------------------------------------------------ the catalog


class _Visible(HTMLParser):
    """The text a reader sees on a page: text outside <script> and <style>, and the
    titles and labels shown on hover."""

    def __init__(self):
        super().__init__()
        self.hidden = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [value for name, value in attrs
                       if name in ("title", "aria-label", "placeholder", "alt") and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_the_rendered_catalog_shows_no_english_sentence(tmp_path, at_root):
    """Both pages of the catalog, examples included. Ids of the content (``[kenka, shigoto,
    kekkon]`` in an example's hand) are the designer's ASCII names, not prose."""
    out = tmp_path / "catalog"
    assert invoke_cli("catalog", "--out", str(out)).exit_code == 0
    tables = compiled_tables(Path("content"))
    ids = re.compile(r"\b(?:%s)\b" % "|".join(
        map(re.escape, sorted({*tables.pages, *tables.enemies}, key=len, reverse=True))))
    pages = sorted(out.glob("*.html"))
    assert {p.name for p in pages} >= {"index.html", "vocabulary.html"}
    for page in pages:
        seen = _Visible()
        seen.feed(page.read_text(encoding="utf-8"))
        text = ids.sub(" ", "\n".join(seen.parts))
        assert english_sentences(text) == [], page.name
    vocabulary = (out / "vocabulary.html").read_text(encoding="utf-8")
    assert "ペンと破るでのみ増える" in vocabulary


# ------------------------------------------------------------------ the language server

#: The bundled files whose every word is hovered: a page file, an enemy, the deck, the
#: balance, an example and the journey.
HOVERED = ("pages/青年期.page", "enemies/日々.enemy", "starter.deck", "balance.balance",
           "tests/青年期.scenario", "journey/草案17.journey")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "lsp"]))
async def client(lsp_client: LanguageClient, content):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as an editor does
        pass

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=content.parent.as_uri(),
        workspace_folders=[types.WorkspaceFolder(content.parent.as_uri(), "project")]))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="jibunki", version=1, text=path.read_text(encoding="utf-8"))))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    return uri


def _first_words(text: str) -> dict[str, types.Position]:
    """Each distinct word of ``text`` (a name, a term, a keyword) at its first place,
    comments left out (0-based; these files are all in the BMP, so UTF-16 columns)."""
    found: dict[str, types.Position] = {}
    for row, line in enumerate(text.split("\n")):
        for match in re.finditer(r"[\w@]+", line.split("#", 1)[0]):
            found.setdefault(match.group(), types.Position(row, match.start()))
    return found


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_server_s_hover_over_every_word_of_the_bundled_files_is_japanese(
        client: LanguageClient, content):
    hovered = 0
    for name in HOVERED:
        path = content / name
        uri = await _open(client, path)
        for word, position in _first_words(path.read_text(encoding="utf-8")).items():
            found = await client.text_document_hover_async(types.HoverParams(
                types.TextDocumentIdentifier(uri), position))
            if found is not None:
                hovered += 1
                _clean(f"{name}: hover {word}", found.contents.value)
    assert hovered > 100


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_server_s_completion_items_and_their_resolved_documentation_are_japanese(
        client: LanguageClient, content):
    path = content / "pages" / "青年期.page"
    uri = await _open(client, path)
    row = next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"))
               if "敵HP" in line)
    found = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(row, 4)))
    items = found.items if isinstance(found, types.CompletionList) else found
    assert items
    for item in items:
        if item.documentation is None and item.data is not None:
            item = await client.completion_item_resolve_async(item)
        documentation = item.documentation
        text = getattr(documentation, "value", documentation) or ""
        _clean(f"completion {item.label} detail", item.detail or "")
        _clean(f"completion {item.label} documentation", text)


def test_a_word_the_vocabulary_uses_but_does_not_list_shows_the_terms_that_use_it():
    """`jibunki vocab 合算` said 「語彙にありません。もしかして「加算」？」 though the
    regions 山札+捨て札 and 山札+捨て札+手札 are each 「…の合算」: a word the meanings use
    shows those rows, said to be no headword; a word nothing uses is still refused."""
    result = invoke_cli("vocab", "合算")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "「合算」は語彙の見出しにはありません。説明に「合算」を使う語:"
    assert "山札+捨て札 " in result.output and "山札+捨て札+手札" in result.output
    refused = invoke_cli("vocab", "ほげほげ")
    assert refused.exit_code == 2 and "語彙にありません" in refused.output
    assert invoke_cli("vocab", "の").exit_code == 2  # one kana is in every meaning


def test_the_crossings_meaning_says_each_scope_apart():
    """spec 002: 跨いだ回数[ターン] leaves this play out; [プレイ] is this play's crossing
    (「このプレイで座を跨ぐか」). The meaning said 「このプレイを含まない」 of every scope,
    and a page reading 跨いだ回数[プレイ] counted the play it was written for."""
    from contract import vocabulary as vocab

    meaning = next(c for c in vocab.COUNTERS if c.code == "crossings").meaning
    assert "［プレイ］はこのプレイのぶん" in meaning and "［ターン］はこのプレイを含まない" in meaning
