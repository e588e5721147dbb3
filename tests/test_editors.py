"""Editor support: the VS Code extension folder (editors/vscode/) and its TextMate grammar,
written by editors/build.py from the vocabulary and the parser, tested with the standard
grammar test tool (vscode-tmgrammar-test; .ci/run installs it with npm ci)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from contract import vocabulary as vocab
from editors import build

VSCODE = ROOT / "editors" / "vscode"
NODE = shutil.which("node")
TOOL = VSCODE / "node_modules" / ".bin" / "vscode-tmgrammar-test"
SAMPLES = sorted((VSCODE / "tests").glob("*.test.*"))


def _repository() -> dict:
    return json.loads(build.GRAMMAR_PATH.read_text(encoding="utf-8"))["repository"]


def test_the_committed_grammar_is_what_editors_build_writes_now():
    assert build.GRAMMAR_PATH.read_text(encoding="utf-8") == build.grammar_text(), \
        "run python3 -m editors.build"
    assert build.main(["--check"]) == 0


def test_the_check_fails_on_a_stale_grammar(tmp_path, monkeypatch):
    stale = tmp_path / "jibunki.tmLanguage.json"
    stale.write_text(build.grammar_text().replace("storage.type.item", "storage.type"),
                     encoding="utf-8")
    monkeypatch.setattr(build, "GRAMMAR_PATH", stale)
    assert build.main(["--check"]) == 1


def test_every_keyword_of_the_grammar_is_a_keyword_of_the_textmate_grammar():
    from dsl.parser import get_parser

    repository = _repository()
    keyword = re.compile(repository["keyword"]["match"])
    item = re.compile(repository["item-keyword"]["match"])
    spelled = [t.pattern.value for t in get_parser().terminals
               if t.pattern.type == "str" and t.pattern.value[:1].isalpha()]
    assert set(spelled) == {w for pair in vocab.KEYWORDS.values() for w in pair}
    for word in spelled:
        assert keyword.fullmatch(word) or item.fullmatch(word), word


def test_the_id_after_every_item_keyword_journey_items_included_is_a_name_being_defined():
    head = re.compile(_repository()["item-head"]["match"])
    for rule in vocab.ID_KEYWORDS:
        for spelling in vocab.KEYWORDS[rule]:
            found = head.match(f"{spelling} 草案 {{")
            assert found and found.group(1, 2) == (spelling, "草案"), spelling
    assert head.match("バランス 草案") is None  # a balance and an example have no id


def test_every_term_that_is_one_name_is_scoped_by_its_table():
    repository = _repository()
    keywords = {w for pair in vocab.KEYWORDS.values() for w in pair}
    name = re.compile(r"[^\W\d][\w・（）]*")
    for table, lookup in vocab.tables().items():
        for spelling in lookup.spellings():
            if spelling in keywords or not name.fullmatch(spelling):
                continue
            owner = next(t for t, other in vocab.tables().items() if spelling in other.spellings())
            assert re.fullmatch(repository[f"term-{owner}"]["match"], spelling), (table, spelling)
    assert repository["term-timing"]["name"] == "support.constant.timing.jibunki"
    assert repository["term-counter"]["name"] == "variable.language.counter.jibunki"


def test_the_grammar_scopes_every_term_as_the_lexer_classifies_it_loose_terms_included():
    from catalog.lexer import term_words

    repository = _repository()
    keywords = {w for pair in vocab.KEYWORDS.values() for w in pair}
    name = re.compile(r"[^\W\d][\w・（）]*")
    for spelling, kind, token in term_words():
        if spelling in keywords or not name.fullmatch(spelling):
            continue
        rule = repository[f"term-{kind}"]
        assert re.fullmatch(rule["match"], spelling), (kind, spelling)
        assert rule["name"] == f"{build.TERM_SCOPES[str(token)]}.{kind}.jibunki", spelling
    for spelling in ("通過したマス", "内部フラグ", "未来"):  # outside vocab.tables()
        assert any(re.fullmatch(r["match"], spelling) for key, r in repository.items()
                   if key.startswith("term-")), spelling


def test_the_extension_contributes_the_content_files_the_grammar_and_starts_jibunki_lsp():
    from compiler.read import CONTENT_SUFFIXES

    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    assert tuple(language["extensions"]) == CONTENT_SUFFIXES
    assert (VSCODE / language["configuration"]).is_file()
    (grammar,) = manifest["contributes"]["grammars"]
    assert (VSCODE / grammar["path"]).resolve() == build.GRAMMAR_PATH.resolve()
    assert grammar["scopeName"] == build.SCOPE_NAME and grammar["language"] == language["id"]
    command = manifest["contributes"]["configuration"]["properties"]["jibunki.server.command"]
    assert command["default"] == ["jibunki", "lsp"]
    client = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert 'require("vscode-languageclient/node")' in client and "TransportKind.stdio" in client
    assert "vscode-languageclient" in manifest["dependencies"]
    lock = json.loads((VSCODE / "package-lock.json").read_text(encoding="utf-8"))
    assert "node_modules/vscode-tmgrammar-test" in lock["packages"]
    configuration = json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))
    assert configuration["comments"]["lineComment"] == "#"


needs_tool = pytest.mark.skipif(
    NODE is None or not TOOL.exists(),
    reason="node or vscode-tmgrammar-test is not installed (.ci/run installs it: "
           "npm ci in editors/vscode)")


def _tool(*files):
    return subprocess.run([str(TOOL), "-g", str(build.GRAMMAR_PATH), *map(str, files)],
                          cwd=VSCODE, capture_output=True, text=True, timeout=120)


@needs_tool
def test_the_grammar_gives_the_scopes_the_sample_files_assert():
    assert len(SAMPLES) >= 2
    done = _tool(*SAMPLES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("run successfuly") == len(SAMPLES)  # (the tool's spelling)


@needs_tool
def test_the_grammar_test_tool_catches_a_wrong_scope(tmp_path):
    text = (VSCODE / "tests" / "page.test.page").read_text(encoding="utf-8")
    assert "support.constant.timing.jibunki" in text
    wrong = tmp_path / "wrong.test.page"
    wrong.write_text(text.replace("support.constant.timing.jibunki",
                                  "support.constant.scope.jibunki"), encoding="utf-8")
    done = _tool(wrong)
    assert done.returncode != 0 and "missing required scopes" in done.stdout + done.stderr


def test_the_readme_neovim_snippet_names_the_server_command_and_its_file_types():
    from click.testing import CliRunner

    import cli
    from compiler.read import CONTENT_SUFFIXES

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (snippet,) = re.findall(r"```lua\n(.*?)```", readme, re.S)
    extensions = re.search(r"extension = \{(.*?)\}", snippet, re.S).group(1)
    assert {f".{e}" for e in re.findall(r"(\w+) = \"jibunki\"", extensions)} == set(CONTENT_SUFFIXES)
    command = re.search(r"cmd = \{(.*?)\}", snippet).group(1)
    assert re.findall(r'"([^"]+)"', command) == ["jibunki", "lsp"]
    assert 'filetypes = { "jibunki" }' in snippet and 'vim.lsp.enable("jibunki")' in snippet
    assert "lsp" in cli.main.commands  # the command the snippet starts
    done = CliRunner().invoke(cli.main, ["lsp", "--help"])
    assert done.exit_code == 0


@pytest.mark.parametrize("argv", [["--help"], ["--chek"]])
def test_help_or_a_misspelt_option_writes_no_grammar(argv, tmp_path, monkeypatch, capsys):
    """Any argument but --check wrote the grammar (a typo, --help too): now options are
    parsed, and only a run with none writes."""
    from editors import build

    target = tmp_path / "jibunki.tmLanguage.json"
    target.write_text("kept", encoding="utf-8")
    monkeypatch.setattr(build, "GRAMMAR_PATH", target)
    if argv == ["--help"]:
        assert build.main(argv) == 0
        assert "使い方: python3 -m editors.build [オプション]" in capsys.readouterr().out
    else:
        with pytest.raises(SystemExit) as stopped:
            build.main(argv)
        assert stopped.value.code == 2
        said = capsys.readouterr().err
        assert "エラー: オプション '--chek' はありません。" in said and "--check" in said
    assert target.read_text(encoding="utf-8") == "kept"
    assert build.main([]) == 0 and target.read_text(encoding="utf-8") == build.grammar_text()
