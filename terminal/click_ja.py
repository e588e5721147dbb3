"""click in Japanese: its own messages, and help laid out by the columns a kanji takes.

click 8 asks ``gettext`` for every message it can show ("Usage:", "Error: …", "Missing
argument", "'x' is not a valid integer.") through the names its modules bound when they
were loaded (``from gettext import gettext as _``). Those follow the process locale, and
no locale ships a Japanese catalog of click: under LANG=C, or any LANG, a designer would
read English. ``install()`` binds those names in click's modules to ``Japanese``, a
translation read from the tables below, whatever the locale. A message missing from the
tables falls back to English; tests/test_japanese_cli.py walks click's source for every
message, so a click that adds one fails a test rather than speaking English.

click wraps help by characters; a kanji takes two columns of a terminal, and a Japanese
sentence has no spaces to break at. ``Help`` lays help out by columns, breaking between
characters of Japanese text (not before 。、） nor after （「) and keeping an ASCII word, an
option or a path whole (contract/linebreak.py, which the labs' reports break by too).

Standard library and click only, nothing heavy: it is loaded on every start.
"""

from __future__ import annotations

import gettext
import importlib
import re

import click

from contract.linebreak import columns, join_lines, wrap

#: click's messages (its ``_("…")`` calls) → what the designer reads. The placeholders
#: are click's; a ``!r`` keeps the quotes (and escapes) of a value the user typed.
MESSAGES = {
    # help
    "Usage:": "使い方:",
    "Options": "オプション",
    "Commands": "コマンド",
    "Show this message and exit.": "このヘルプを表示して終わります。",
    "Show the version and exit.": "バージョンを表示して終わります。",
    "%(prog)s, version %(version)s": "%(prog)s バージョン %(version)s",
    "default: {default}": "既定: {default}",
    "required": "必須",
    "env var: {var}": "環境変数: {var}",
    "(dynamic)": "（実行時に決まります）",
    "deprecated": "非推奨",
    "Do you want to continue?": "続けますか？",
    "Confirm the action without prompting.": "確かめずに実行します。",
    # usage errors
    "Error: {message}": "エラー: {message}",
    "Try '{command} {option}' for help.": "使い方は '{command} {option}' で見られます。",
    "Invalid value for {param_hint}: {message}": "{param_hint} の値が正しくありません: {message}",
    "Invalid value: {message}": "値が正しくありません: {message}",
    "Missing argument": "次の引数が足りません:",
    "Missing option": "次のオプションが足りません:",
    "Missing parameter": "次のパラメーターが足りません:",
    "Missing {param_type}": "次の{param_type}が足りません:",
    "Missing parameter: {param_name}": "パラメーターが足りません: {param_name}",
    "Missing command.": "コマンドを指定してください。",
    "No such option {name!r}.": "オプション {name!r} はありません。",
    "No such command {name!r}.": "コマンド {name!r} はありません。",
    "Option {name!r} does not take a value.": "オプション {name!r} は値をとりません。",
    "Argument {name!r} takes {nargs} values.": "引数 {name!r} は値を {nargs} 個とります。",
    "Invalid start character for option ({option})":
        "オプションの先頭の文字が正しくありません（{option}）",
    "Value must be an iterable.": "値は値の並びでなければなりません。",
    "Choose from:\n\t{choices}": "次から選んでください:\n\t{choices}",
    "Choice({choices})": "選択肢（{choices}）",
    # values
    "{value!r} is not a valid {number_type}.": "{value!r} は{number_type}ではありません。",
    "{value} is not in the range {range}.": "{value} は範囲（{range}）の外です。",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "{value!r} は真偽値ではありません。使える値: {states}",
    "{value!r} is not a valid UUID.": "{value!r} は UUID ではありません。",
    # paths (click.Path); {name} is one of the three words below
    "file": "ファイル",
    "directory": "フォルダ",
    "path": "パス",
    "{name} {filename!r} does not exist.": "{name} {filename!r} がありません。",
    "{name} {filename!r} is a file.": "{name} {filename!r} はファイルです（フォルダを指定してください）。",
    "{name} {filename!r} is a directory.":
        "{name} {filename!r} はフォルダです（ファイルを指定してください）。",
    "{name} {filename!r} is not readable.": "{name} {filename!r} を読む権限がありません。",
    "{name} {filename!r} is not writable.": "{name} {filename!r} に書く権限がありません。",
    "{name} {filename!r} is not executable.": "{name} {filename!r} を実行する権限がありません。",
    "Could not open file {filename!r}: {message}": "ファイル {filename!r} を開けません: {message}",
    "unknown error": "原因のわからないエラーです",
    # the terminal
    "Aborted!": "中断しました。",
    "Repeat for confirmation": "確認のためもう一度入力してください",
    "Error: The two entered values do not match.": "エラー: 2 回の入力が一致しません。",
    "Error: invalid input": "エラー: 入力が正しくありません",
    "Press any key to continue...": "何かキーを押すと続きます…",
    "Unknown color {colour!r}": "色 {colour!r} はありません",
    "Unknown standard stream '{name}'": "標準ストリーム '{name}' はありません",
    "{editor}: Editing failed": "{editor}: 編集できませんでした",
    "{editor}: Editing failed: {e}": "{editor}: 編集できませんでした: {e}",
    "d": "日",
    "Windows error: {error}": "Windows のエラーです: {error}",
    "Couldn't detect Bash version, shell completion is not supported.":
        "Bash のバージョンがわからないので、シェルの補完は使えません。",
    "Shell completion is not supported for Bash versions older than 4.4.":
        "Bash 4.4 より古い Bash ではシェルの補完は使えません。",
    # mistakes in a program's declarations (a developer's, shown all the same)
    "DeprecationWarning: The command {name!r} is deprecated.{extra_message}":
        "非推奨: コマンド {name!r} は非推奨です。{extra_message}",
    "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}":
        "非推奨: {param_type} {name!r} は非推奨です。{extra_message}",
    "Name '{name}' defined twice": "名前 '{name}' が二度定義されています",
    "Boolean option {decl!r} cannot use the same flag for true/false.":
        "真偽のオプション {decl!r} は真と偽に同じフラグを使えません。",
    "Could not determine name for option with declarations {decls!r}":
        "宣言 {decls!r} のオプションの名前を決められません",
    "No options defined but a name was passed ({name}). Did you mean to declare an argument"
    " instead? Did you mean to pass '--{name}'?":
        "オプションの宣言がないのに名前（{name}）が渡されました。引数として宣言するつもり"
        "でしたか？ それとも '--{name}' と書くつもりでしたか？",
    "Arguments take exactly one parameter declaration, got {length}: {decls}.":
        "引数の宣言はちょうど 1 つです（{length} 個あります: {decls}）。",
}

#: click's ``ngettext`` messages: (one, many) → (Japanese for one, for many). Both forms
#: are given every placeholder, so either may use any of them.
PLURALS = {
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("余分な引数があります（{args}）", "余分な引数があります（{args}）"),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("もしかして {possibility}？", "（もしかして {possibilities} のどれか？）"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("オプション {name!r} には値が必要です。", "オプション {name!r} には値が {nargs} 個必要です。"),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("値を {nargs} 個とりますが、1 個です。", "値を {nargs} 個とりますが、{len} 個です。"),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("{value!r} は {choice} ではありません。", "{value!r} は {choices} のどれでもありません。"),
    ("{value!r} does not match the format {format}.",
     "{value!r} does not match the formats {formats}."):
        ("{value!r} は書式 {format} に合いません。", "{value!r} は書式 {formats} のどれにも合いません。"),
    ("{len_type} values are required, but {len_value} was given.",
     "{len_type} values are required, but {len_value} were given."):
        ("値が {len_type} 個必要ですが、{len_value} 個です。",
         "値が {len_type} 個必要ですが、{len_value} 個です。"),
}

#: click's own English words that reach a message through a placeholder rather than
#: through ``_`` (a number type's name, a parameter's kind): placeholder → word → Japanese.
WORDS = {
    "number_type": {"integer": "整数", "integer range": "整数", "float": "数",
                    "float range": "数"},
    "param_type": {"argument": "引数", "option": "オプション", "parameter": "パラメーター"},
}

#: What an option takes, as click names it when its command does not (its type's name,
#: upper-cased), and the words of a usage line → what the designer reads.
METAVARS = {"INTEGER": "整数", "INTEGER RANGE": "整数", "FLOAT": "数", "FLOAT RANGE": "数",
            "TEXT": "文字列", "PATH": "パス", "FILENAME": "ファイル", "BOOLEAN": "真偽"}
USAGE_WORDS = {"[OPTIONS]": "[オプション]", "COMMAND": "コマンド", "[ARGS]...": "[引数]..."}

#: click's modules that show messages (each binds ``_`` and maybe ``ngettext``); those not
#: loaded by ``import click`` are loaded here so that they are bound before first use.
#: ``_winconsole`` exists to be loaded on Windows only.
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui",
                 "types", "utils", "_termui_impl", "shell_completion")
WINDOWS_MODULES = ("_winconsole",)


class _Template(str):
    """A Japanese message that click fills in with ``.format``: click's English words in
    its placeholders (WORDS) become Japanese, and an OSError its Japanese reason
    (contract.disk), never the system's English."""

    def format(self, *args, **kwargs):  # noqa: A003 - str.format's own name
        for key, value in kwargs.items():
            if isinstance(value, OSError):
                from contract.disk import reason

                kwargs[key] = reason(value)
            elif key in WORDS and isinstance(value, str):
                kwargs[key] = WORDS[key].get(value, value)
        return str.format(self, *args, **kwargs)


class Japanese(gettext.NullTranslations):
    """click's messages from MESSAGES and PLURALS; any other text (a command's own help,
    which click also passes through ``_``) as it is."""

    def gettext(self, message):
        """The Japanese of one of click's messages, else ``message`` itself."""
        found = MESSAGES.get(message)
        return message if found is None else _Template(found)

    def ngettext(self, msgid1, msgid2, n):
        """The Japanese for ``n`` of one of click's plural messages, else click's English."""
        found = PLURALS.get((msgid1, msgid2))
        if found is None:
            return msgid1 if n == 1 else msgid2
        return _Template(found[0] if n == 1 else found[1])


JAPANESE = Japanese()


def install() -> None:
    """Make click speak Japanese in this process: its modules' ``_`` and ``ngettext`` read
    the tables, and help is laid out by ``Help``. Idempotent."""
    import sys

    names = CLICK_MODULES + (WINDOWS_MODULES if sys.platform == "win32" else ())
    for name in names:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = JAPANESE.gettext
        if hasattr(module, "ngettext"):
            module.ngettext = JAPANESE.ngettext
    click.Context.formatter_class = Help
    option = click.core.Option
    if not getattr(option.make_metavar, "japanese", False):
        option.make_metavar = _japanese_metavar(option.make_metavar)
    for number_range in (click.IntRange, click.FloatRange):
        number_range._describe_range = _describe_range
    missing = click.exceptions.MissingParameter
    if not getattr(missing.format_message, "japanese", False):
        missing.format_message = _japanese_stop(missing.format_message)
    no_such = click.exceptions.NoSuchOption
    if not getattr(no_such.format_message, "japanese", False):
        no_such.format_message = _japanese_join(no_such.format_message)


def _japanese_join(format_message):
    """``NoSuchOption.format_message`` with no space after the sentence's 「。」: click
    joins the message and its did-you-mean with one, as English does
    (「…はありません。 もしかして …」)."""

    def japanese(self) -> str:
        return format_message(self).replace("。 ", "。", 1)

    japanese.japanese = True
    return japanese


def _japanese_stop(format_message):
    """``MissingParameter.format_message`` ending its sentence with 「。」: click writes
    the full stop after the parameter's quoted name itself (「…: 'コード'.」)."""

    def japanese(self) -> str:
        return format_message(self).replace("'.", "'。", 1)

    japanese.japanese = True
    return japanese


def _japanese_metavar(make_metavar):
    """``Option.make_metavar`` naming a type in Japanese (METAVARS) where the command
    named none."""

    def japanese(self, *args, **kwargs):  # click 8.2 passes the context (ctx=); 8.1 none
        metavar = make_metavar(self, *args, **kwargs)
        if self.metavar is None:
            bare = metavar.removesuffix("...")
            metavar = METAVARS.get(bare, bare) + metavar[len(bare):]
        return metavar

    japanese.japanese = True
    return japanese


def _describe_range(self) -> str:
    """A number range as help and usage errors show it: 「1〜99」, 「0 より大きい」,
    「20 以下」 (click writes ``1<=x<=99``)."""
    if self.min is not None and self.max is not None and not (self.min_open or self.max_open):
        return f"{self.min}〜{self.max}"
    ends = []
    if self.min is not None:
        ends.append(f"{self.min} {'より大きい' if self.min_open else '以上'}")
    if self.max is not None:
        ends.append(f"{self.max} {'未満' if self.max_open else '以下'}")
    return "、".join(ends)


# ----------------------------------------------------------------- laying out help


#: The head of a command's list of exit codes: a paragraph of its own, each code opening
#: a line under it ("0 測れた"), what a code means going on in the lines indented deeper.
EXIT_CODES = "終了コード:"


def paragraphs(text: str, width: int, indent: str = "") -> list[str]:
    """Help text laid out as click lays it (paragraphs between blank lines, each keeping
    its own indent; a paragraph opened by a line of ``\\b`` as it is written), by columns;
    the exit codes (``EXIT_CODES``) as a list, each code's meaning wrapped beside it."""
    out: list[str] = []
    for block in re.split(r"\n[ \t]*\n", text.expandtabs().strip("\n")):
        lines = block.splitlines()
        if not lines:
            continue
        if out:
            out.append("")
        if lines[0].strip() == "\b":
            out += [f"{indent}{line}".rstrip() for line in lines[1:]]
            continue
        if lines[0].strip() == EXIT_CODES:
            out += _exit_codes(lines, width, indent)
            continue
        own = indent + " " * (len(lines[0]) - len(lines[0].lstrip()))
        out += wrap(join_lines(lines), width, own, own)
    return out


def _exit_codes(lines: list[str], width: int, indent: str) -> list[str]:
    """The paragraph of exit codes (``EXIT_CODES``) as a list: the head, then each code
    right-aligned under it, its meaning wrapped in a column of its own."""
    head = len(lines[0]) - len(lines[0].lstrip())
    entries: list[tuple[str, list[str]]] = []
    for line in lines[1:]:
        if len(line) - len(line.lstrip()) > head and entries:
            entries[-1][1].append(line.strip())  # the meaning goes on
        else:
            code, _, meaning = line.strip().partition(" ")
            entries.append((code, [meaning]))
    own = indent + " " * head
    out = [f"{own}{EXIT_CODES}"]
    pad = max((len(code) for code, _ in entries), default=0)
    for code, meaning in entries:
        lead = f"{own}  {code:>{pad}}  "
        out += wrap(join_lines(meaning), width, lead, " " * columns(lead))
    return out


#: An option's help as click writes it: its text, two spaces, then "[default; range]".
_EXTRA = re.compile(r"(.*\S)  (\[[^\[\]\n]*\])", re.DOTALL)


class Help(click.HelpFormatter):
    """click's help formatter, measuring by terminal columns (``columns``) and breaking
    Japanese between characters."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """「使い方: jibunki lint [OPTIONS] [PATHS]...」, its arguments wrapped under themselves."""
        if prefix is None:
            prefix = f"{JAPANESE.gettext('Usage:')} "
        args = " ".join(USAGE_WORDS.get(word, word) for word in args.split(" "))
        lead = f"{prefix:>{self.current_indent}}{prog} "
        if not args:
            self.write(f"{lead.rstrip()}\n")
            return
        if self.width - self.current_indent >= columns(lead) + 20:
            lines = wrap(args, self.width - self.current_indent, lead, " " * columns(lead))
        else:
            indent = " " * (max(self.current_indent, columns(prefix)) + 4)
            lines = [lead.rstrip()] + wrap(args, self.width - self.current_indent, indent, indent)
        self.write("\n".join(lines) + "\n")

    def write_text(self, text: str) -> None:
        """A command's help, paragraph by paragraph, at the current indent."""
        self.write("\n".join(paragraphs(text, self.width, " " * self.current_indent)) + "\n")

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        """Options or commands beside what they do, the second column wrapped by columns and
        click's "[既定: …]" kept whole."""
        rows = list(rows)
        first_col = min(max((columns(first) for first, _ in rows), default=0),
                        col_max) + col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if columns(first) <= first_col - col_spacing:
                self.write(" " * (first_col - columns(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            width = max(self.width - first_col - 2, 10)
            said = _EXTRA.fullmatch(second)
            text, extra = (said.group(1), said.group(2)) if said else (second, "")
            lines = paragraphs(text, width)
            if extra:  # click's "  [既定: 0; 1<=x<=9]": whole, on the last line or below it
                if lines and columns(lines[-1]) + 2 + columns(extra) <= width:
                    lines[-1] += f"  {extra}"
                else:
                    lines += wrap(extra, width)
            pad = " " * (first_col + self.current_indent)
            self.write("\n".join([lines[0] if lines else ""]
                                 + [f"{pad}{line}" if line else "" for line in lines[1:]]) + "\n")
