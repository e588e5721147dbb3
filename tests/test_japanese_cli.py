"""The command line speaks Japanese (issue 26, "one language for the designer"): its help,
click's own framing ("Usage:", "Error:", "Try … for help"), every usage error and the
reasons of the system's errors — whatever the locale (LANG=C, no LANG, an English one).

Every command and option is found by walking the click group, so a command or an option
added with English help fails here; every message of click is found by walking click's
source, so a click that adds a message missing from terminal.click_ja fails here too.
The in-process checks run in the fast loop; the few that start the program are slow.
"""

from __future__ import annotations

import ast
import errno
import functools
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import cli
from conftest import ROOT, invoke_cli
from english import english_sentences
from terminal import click_ja

CLICK = Path(click.__file__).parent

#: Locales a designer may have: none is Japanese, and none may matter.
LOCALES = {
    "LANG=C": {"LANG": "C", "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None},
    "no LANG": {"LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None},
    "English": {"LANG": "en_US.UTF-8", "LC_ALL": None, "LC_MESSAGES": None,
                "LANGUAGE": "en_US"},
}
#: Japanese: hiragana, katakana or a kanji.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def commands(group: click.Group = cli.main, path: tuple[str, ...] = ()):
    """(command path, command) of the program and of every command and subcommand."""
    if not path:
        yield (), group
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


COMMANDS = dict(commands())


def run(args, env=None):
    return CliRunner().invoke(cli.main, list(args), env=env or LOCALES["LANG=C"],
                              prog_name="jibunki")


def japanese_only(output: str) -> None:
    assert english_sentences(output) == [], output
    assert "Traceback" not in output, output


# ------------------------------------------------------------------ click's messages


@functools.cache
def click_calls() -> tuple:
    """Every ``_(…)`` and ``ngettext(…)`` call in click's source: (file, name, literal
    arguments or None when an argument is not a literal, source of the first argument)."""
    return tuple(_calls())


def _calls():
    for path in sorted(CLICK.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("_", "ngettext"):
                count = 2 if node.func.id == "ngettext" else 1
                args = node.args[:count]
                literal = all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                              for a in args)
                yield (path.name, node.func.id,
                       tuple(a.value for a in args) if literal else None,
                       ast.unparse(args[0]))


#: Calls of ``_`` with a computed argument, and the messages they can pass: a command's
#: own help (left as it is) and the "required" of an option's help.
COMPUTED = {"text": (), "extra['required']": ("required",)}


def test_the_walk_of_clicks_source_finds_its_messages():
    found = {literal for _, _, literal, _ in click_calls()}
    assert ("Usage:",) in found and ("Missing argument",) in found
    assert ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)") in found


def test_every_message_of_click_has_its_japanese():
    missing = []
    for file, name, literal, source in click_calls():
        if literal is None:
            assert source in COMPUTED, f"{file}: _({source}) — a new computed message"
            missing += [m for m in COMPUTED[source] if m not in click_ja.MESSAGES]
        elif name == "_" and literal[0] not in click_ja.MESSAGES:
            missing.append(literal[0])
        elif name == "ngettext" and literal not in click_ja.PLURALS:
            missing.append(literal)
    assert missing == []


def test_the_tables_hold_only_messages_click_has():
    """An entry click no longer has is dead weight that hides what a new click says."""
    singles = {lit[0] for _, name, lit, _ in click_calls() if name == "_" and lit}
    singles |= {m for ms in COMPUTED.values() for m in ms}
    plurals = {lit for _, name, lit, _ in click_calls() if name == "ngettext" and lit}
    assert set(click_ja.MESSAGES) - singles == set()
    assert set(click_ja.PLURALS) - plurals == set()


def fields(template: str) -> set[str]:
    named = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
    return {re.split(r"[.\[!:]", f)[0] for f in named} | set(re.findall(r"%\((\w+)\)", template))


def test_each_japanese_message_uses_only_clicks_placeholders():
    for english, japanese in click_ja.MESSAGES.items():
        assert fields(japanese) <= fields(english), english
    for (one, many), (ja_one, ja_many) in click_ja.PLURALS.items():
        assert fields(ja_one) | fields(ja_many) <= fields(one) | fields(many), one


def test_each_japanese_message_is_japanese():
    every = [*click_ja.MESSAGES.values(), *(m for p in click_ja.PLURALS.values() for m in p)]
    assert [m for m in every if english_sentences(m)] == []
    assert [m for m in every if not JAPANESE.search(m) and m != "%(prog)s バージョン %(version)s"
            ] == []


def test_every_module_of_click_that_speaks_is_bound_to_the_japanese_table():
    speaking = {file.removesuffix(".py") for file, *_ in click_calls()}
    assert speaking <= set(click_ja.CLICK_MODULES) | set(click_ja.WINDOWS_MODULES)
    for name in click_ja.CLICK_MODULES:
        module = sys.modules[f"click.{name}"]
        assert getattr(module, "_", click_ja.JAPANESE.gettext) == click_ja.JAPANESE.gettext
        assert getattr(module, "ngettext", click_ja.JAPANESE.ngettext) == \
            click_ja.JAPANESE.ngettext


def test_clicks_english_words_in_a_placeholder_are_said_in_japanese():
    """A number type's name reaches the message as a value ("integer range")."""
    with pytest.raises(click.BadParameter) as caught:
        click.IntRange(1, 9).convert("x", None, None)
    assert caught.value.message == "'x' は整数ではありません。"


def test_a_message_click_does_not_know_stays_as_it_is():
    assert click_ja.JAPANESE.gettext("自分紀のヘルプ") == "自分紀のヘルプ"
    assert click_ja.JAPANESE.ngettext("one", "many", 2) == "many"


# ------------------------------------------------------------------ help


def test_the_walk_finds_every_command_and_subcommand():
    assert {(), ("lint",), ("battle",), ("journey",), ("journey", "report")} <= set(COMMANDS)


@pytest.mark.parametrize("locale", sorted(LOCALES))
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "jibunki")
def test_every_help_is_japanese(path, locale):
    result = run([*path, "--help"], LOCALES[locale])
    assert result.exit_code == 0, result.output
    japanese_only(result.output)
    assert result.output.startswith(f"使い方: jibunki {' '.join(path)}".rstrip())
    assert "オプション:" in result.output and "このヘルプを表示して終わります。" in result.output


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "jibunki")
def test_every_command_and_option_says_in_japanese_what_it_does(path):
    command = COMMANDS[path]
    assert JAPANESE.search(command.help or ""), path
    assert english_sentences(command.help) == []
    for param in command.params:
        if isinstance(param, click.Option):
            assert JAPANESE.search(param.help or ""), (path, param.opts)
            assert english_sentences(param.help) == [], (path, param.opts)


#: Words of click's that may name what an option takes: its types' names and its usage line.
CLICK_METAVARS = re.compile(r"\b(?:INTEGER|FLOAT|TEXT|PATH|FILENAME|BOOLEAN|RANGE|OPTIONS|COMMAND|ARGS"
                            r"|NAME|PAGE|FILE|DIR|CODE|TERM|PATHS)\b|\d<=x|x[<>]=?\d")


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "jibunki")
def test_what_each_option_and_argument_takes_is_named_in_japanese(path):
    """The usage line and each option's column name what they take in the designer's words
    (整数, ページ, [オプション]), and a range reads 「1〜99」, not click's ``1<=x<=99``."""
    help_text = run([*path, "--help"]).output
    assert CLICK_METAVARS.findall(help_text) == []


def test_the_list_of_commands_shows_each_summary_whole_even_on_a_narrow_terminal():
    """click cuts a summary longer than the room left to "…": a Japanese first paragraph
    has no spaces to cut at, so all of it would become "…"."""
    for path, command in COMMANDS.items():
        if not isinstance(command, click.Group):
            continue
        narrowest = 50 - 6 - max(len(name) for name in command.commands)
        for name, sub in command.commands.items():
            summary = sub.get_short_help_str(narrowest)
            assert not summary.endswith("..."), (*path, name, summary)
            assert JAPANESE.search(summary), (*path, name)


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "jibunki")
def test_help_lines_fit_the_terminal_counting_a_kanji_as_two_columns(path):
    result = run([*path, "--help"])  # the test runner's terminal: 80 columns
    wide = [line for line in result.output.splitlines() if click_ja.columns(line) > 80]
    assert wide == []


def test_the_battles_own_help_fits_80_columns_and_names_its_arguments_in_japanese():
    """The battle screen's `help` (terminal/session.py HELP) at 80×24: three lines were
    87–96 cells wide and broke the table; FILE was the one English word a player read."""
    from terminal.session import HELP

    assert [line for line in HELP.splitlines() if click_ja.columns(line) > 80] == []
    assert "FILE" not in HELP and "save ファイル" in HELP


def test_a_line_break_inside_japanese_is_no_space():
    assert click_ja.join_lines(["問題を", "  すべて content/", "を見ます"]) == \
        "問題をすべて content/ を見ます"


def test_japanese_wraps_between_characters_within_the_width():
    assert click_ja.wrap("あいうえおかきくけこさしすせそ", 20, "  ", "  ") == \
        ["  あいうえおかきくけ", "  こさしすせそ"]


def test_a_closing_mark_never_begins_a_line_nor_an_opening_one_ends_it():
    """The character before a closing mark goes to the next line with it (追い出し)."""
    assert click_ja.wrap("あいうえおかきくけこ。さしすせそ", 20) == \
        ["あいうえおかきくけ", "こ。さしすせそ"]
    assert click_ja.wrap("あいうえおかきくけこ）。さ", 20) == ["あいうえおかきくけ", "こ）。さ"]
    assert click_ja.wrap("あいうえおかきく「けこ", 18) == ["あいうえおかきく", "「けこ"]


def test_an_ascii_word_is_never_broken():
    assert click_ja.wrap("あい --a-long-option-name", 10) == ["あい", "--a-long-option-name"]
    assert click_ja.wrap("--a-long-option-name-that-is-never-broken", 10) == \
        ["--a-long-option-name-that-is-never-broken"]


def test_the_checker_of_english_tells_prose_from_a_command_line():
    assert english_sentences("使い方: jibunki journey report [OPTIONS]") == []
    assert english_sentences("使い方は 'jibunki journey report --help' で見られます。") == []
    assert english_sentences("run jibunki journey report now") != []
    assert english_sentences("jibunki lint checks every file.") != []
    assert english_sentences("Usage: jibunki lint PATHS") == ["Usage:"]


# ------------------------------------------------------------------ usage errors

#: (arguments, what the error says): one of each kind of usage error click can give.
BAD = [
    (["lint", "nonexist"], "パス 'nonexist' がありません。"),
    (["battle", "--seed", "x"], "'--seed' の値が正しくありません: x: シードは整数です（例: 0、42）"),
    (["journey", "--seed", "1.5"], "1.5: シードは整数です"),
    (["battle", "--stage", "0"], "0 は範囲（1〜99）の外です。"),
    (["sim", "--seed", "-1"], "-1: シードは 0 以上、4,611,686,018,427,387,904 以下の整数です"),
    (["lint", "--bogus"], "オプション '--bogus' はありません。"),
    (["lint", "-x"], "オプション '-x' はありません。"),
    (["battle", "--json=1"], "オプション '--json' は値をとりません。"),
    (["sim", "--precision", "abc"], "'abc' は数ではありません。"),
    # no space after the 。 (click joins the two as English does)
    (["lint", "--formt", "json"], "オプション '--formt' はありません。もしかして '--format'？"),
    (["bogus"], "コマンド 'bogus' はありません。"),
    (["journey", "reprot"], "コマンド 'reprot' はありません。"),
    (["lint", "--format", "xml"], "'xml' は 'text', 'json' のどれでもありません。"),
    (["vocab", "a", "b"], "余分な引数があります（b）"),
    (["explain"], "次の引数が足りません: 'コード'。"),  # click's own full stop is "."
    (["compile", "--out"], "オプション '--out' には値が必要です。"),
    (["battle", "--enemy"], "オプション '--enemy' には値が必要です。"),
    (["battle", "--deck", "."], "ファイル '.' はフォルダです"),
    (["battle", "--script", "."], "ファイル '.' はフォルダです"),
    (["lint", "--content", "README.md"], "フォルダ 'README.md' はファイルです"),
    (["explain", "E999"], "「E999」という診断コードはありません"),
    (["vocab", "そんな語はない"], "「そんな語はない」という語は語彙にありません。"),
]


@pytest.mark.parametrize("locale", sorted(LOCALES))
@pytest.mark.parametrize("args, says", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_usage_error_is_japanese_with_exit_2(monkeypatch, args, says, locale):
    monkeypatch.chdir(ROOT)  # where content/ is, which some commands check first
    result = run(args, LOCALES[locale])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    japanese_only(result.output)
    assert says in result.output
    assert result.output.count("エラー: ") == 1
    # An option's missing value is found before the command is known: no usage line then.
    if "使い方:" in result.output:
        assert f"使い方は 'jibunki {args[0]}" in result.output or \
            "使い方は 'jibunki --help'" in result.output


def test_a_file_that_cannot_be_read_is_said_in_japanese(tmp_path, monkeypatch):
    """click.Path asks os.access (as root everything is readable: it is asked to say no)."""
    script = tmp_path / "secret.txt"
    script.write_text("q\n", encoding="utf-8")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == script
                        else real(p, mode, **kw))
    result = run(["battle", "--script", str(script)])
    assert result.exit_code == 2
    japanese_only(result.output)
    assert f"ファイル '{script}' を読む権限がありません。" in result.output


# ------------------------------------------------------------------ the system's errors


def test_every_reason_of_the_system_is_japanese():
    from contract.disk import REASONS, reason, text_reason

    assert [why for why in REASONS.values() if not JAPANESE.search(why)] == []
    assert reason(TimeoutError("timed out")) == REASONS[errno.ETIMEDOUT]
    assert reason(OSError(errno.ENOENT, "No such file or directory")) == \
        "ファイルかフォルダがありません"
    assert text_reason(SyntaxError("invalid syntax", ("t.py", 3, 1, "x"))) == \
        "Python として読めません（3 行目）"
    assert text_reason(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")) == \
        "UTF-8 のテキストではありません"


def test_a_table_that_cannot_be_read_says_why_in_japanese(tmp_path):
    from runtime.tables import TableError, read_table

    for path, says in ((tmp_path / "none.py", "ファイルかフォルダがありません"),
                       (tmp_path, "フォルダです")):
        with pytest.raises(TableError) as caught:
            read_table(path)
        assert says in str(caught.value) and english_sentences(str(caught.value)) == []
    broken = tmp_path / "broken.py"
    broken.write_text("TABLE = {\n", encoding="utf-8")
    with pytest.raises(TableError) as caught:
        read_table(broken)
    assert "Python として読めません" in str(caught.value)


def test_a_journey_table_that_cannot_be_read_says_why_in_japanese(tmp_path):
    from journey import JourneyError
    from journey.rules import read_table

    for path in (tmp_path / "none.py", tmp_path):
        with pytest.raises(JourneyError) as caught:
            read_table(path)
        assert english_sentences(str(caught.value)) == [], caught.value
        assert "がありません" in str(caught.value) or "フォルダです" in str(caught.value)


def test_a_save_that_is_not_json_says_where_in_japanese():
    from runtime.save import SaveError, from_json

    with pytest.raises(SaveError) as caught:
        from_json(None, '{"save_version": ')
    assert "JSON ではありません（1 行 18 列）" in str(caught.value)
    assert english_sentences(str(caught.value)) == []


def test_a_ray_address_that_refuses_says_why_in_japanese():
    from sim.backends import BackendError, _probe

    with pytest.raises(BackendError) as caught:
        _probe("127.0.0.1:1")
    assert "接続を拒まれました" in str(caught.value)


def test_a_battle_line_with_an_open_quote_says_why_in_japanese(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    script = tmp_path / "s.txt"
    script.write_text('play "1\nq\n', encoding="utf-8")
    result = run(["battle", "--script", str(script)])
    assert "コマンドを読めません: 引用符が閉じていません" in result.output
    assert "No closing quotation" not in result.output


# ------------------------------------------------------------------ the program itself


def program(*args, env_change):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update({k: v for k, v in env_change.items() if v is not None})
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["LANG=C", "no LANG"])
@pytest.mark.parametrize("args, code", [
    (["--help"], 0), (["lint", "--help"], 0), (["lint", "nonexist"], 2),
    (["battle", "--seed", "x"], 2), (["journey", "report", "--nodes", "0"], 2),
])
def test_the_program_speaks_japanese_in_any_locale(args, code, locale):
    done = program(*args, env_change=LOCALES[locale])
    assert done.returncode == code, done.stderr
    japanese_only(done.stdout + done.stderr)
    assert "使い方: jibunki" in done.stdout + done.stderr


@pytest.mark.parametrize("command, refusal", [
    (["sim"], "コンテンツにエラーがあるので測れません。"),
    # the journey needs no balance or starting deck: an empty folder has no 旅の準備 to measure
    (["journey", "report"], "に旅の準備がありません: 測るものがありません"),
    (["print"], "コンテンツにエラーがあるので PDF を書きませんでした。"),
])
def test_a_command_refused_for_content_errors_says_what_it_did_not_do(tmp_path, command,
                                                                     refusal):
    # An empty folder: no balance, no starting deck — every command says what it did not do,
    # not another command's words ("表を書きませんでした" is compile's).
    result = invoke_cli(*command, "--content", str(tmp_path))
    assert result.exit_code == 1
    assert refusal in result.output and "表を書きませんでした" not in result.output


@pytest.mark.parametrize("command", ["lint", "test", "compile", "fmt", "sim", "print",
                                     "analyze", "battle", "journey"])
def test_every_command_a_script_or_ci_runs_says_its_exit_codes(command):
    """test, compile --check, fmt --check, sim --check and print left their exit codes to
    be guessed; lint, analyze, battle and journey said theirs."""
    from click.testing import CliRunner

    from cli import main

    shown = CliRunner().invoke(main, [command, "--help"]).output
    flat = "".join(shown.split())
    assert "終了コード:0" in flat and "2使い方の誤り" in flat, shown


@pytest.mark.parametrize("command", [["battle"], ["sim"], ["journey"], ["journey", "report"]])
def test_every_seed_option_is_shown_as_a_whole_number_without_its_bounds(command):
    """--seed's help showed its bounds as a range a designer never types
    (「-9223372036854775808〜18446744073709551615」 in battle, another in sim): every --seed
    is 「整数」 with its default, and the bounds are said only to a seed beyond them."""
    shown = invoke_cli(*command, "--help").output
    line = next(line for line in shown.splitlines() if line.strip().startswith("--seed "))
    assert line.split()[:2] == ["--seed", "整数"]
    assert not re.search(r"\d{12,}", shown), shown


def test_build_says_where_it_writes_whatever_content_it_reads():
    """``build --content other`` replaced the project's generated/ tables and catalog with
    nothing in its help or output to say so."""
    said = CliRunner().invoke(cli.main, ["build", "--help"]).output.replace("\n", "").replace(" ", "")
    assert "表はgenerated/*.pyに、カタログはgenerated/catalog/に書きます" in said
    assert "--contentで別のフォルダを選んでも" in said
    # QA: it said 「このプロジェクトの generated/」, and wrote ./generated wherever it ran
    assert "generated/はいまいるフォルダのもの" in said and "このプロジェクト" not in said


def test_the_helps_of_journey_report_check_and_lsp_say_all_they_do():
    """Docs sweep: --check's line named only the variant that missed its 目標 (it exits 1
    too when none is decided yet, as its exit codes say), and lsp's help listed four of
    the server's features."""
    said = CliRunner().invoke(cli.main, ["journey", "report", "--help"]).output
    line = said[said.index("--check"):said.index("--content")].replace("\n", "").replace(" ", "")
    assert "どの目標もまだ決まらない" in line and "確かめる目標がない" in line, line
    served = CliRunner().invoke(cli.main, ["lsp", "--help"]).output.replace("\n", "").replace(" ", "")
    for feature in ("整形", "名前の変更", "参照", "クイックフィックス", "コードレンズ"):
        assert feature in served, feature
