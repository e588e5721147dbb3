"""読み込み — content files found under the named paths, read as the parser reads them.

Nothing here raises on content: a folder or file that cannot be read, a file that is not
UTF-8, binary, or too large is an E004 diagnostic.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import re
from pathlib import Path

from contract import disk
from contract.linebreak import shown_name
from dsl.diagnostics import Diagnostic, Span
# The bounds of a file are dsl.size's (the formatter checks them too); lint reads them here.
from dsl.size import MAX_FILE_BYTES, MAX_LINE_CHARS, too_long_line, too_many_bytes  # noqa: F401

from .codes import E004

from contract.kinds import CONTENT_SUFFIXES


def discover(paths: list[Path], problems: list[Diagnostic] | None = None) -> list[Path]:
    """Content files under the given paths: folders are searched, files taken as named.
    A folder that cannot be read is an E004 in ``problems`` — never silently skipped — and
    so is a file named whose name is no content file's (README.md), which is not read."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            root = path.resolve()
            inside: list[Path] = []

            def unreadable(exc: OSError) -> None:
                if problems is not None:
                    where = display_path(Path(exc.filename)) if exc.filename else str(path)
                    problems.append(E004.at(Span(where, 1, 1, 1, 2),
                                            f"フォルダを読めません: {disk.reason(exc)}",
                                            hint="読む権限があるか確かめてください（中のファイルは検査されていません）"))

            def say(candidate: Path, why: tuple[str, str]) -> None:
                if problems is not None:  # named, so that no page goes missing unsaid
                    problems.append(E004.at(Span(display_path(candidate), 1, 1, 1, 2),
                                            why[0], hint=LEFT_OUT_HINTS[why[1]]))

            for folder, dirs, files in os.walk(path, onerror=unreadable):
                dirs.sort()
                for name in dirs:  # never entered when a link (os.walk does not follow)
                    linked = Path(folder, name)
                    if linked.is_symlink() and not linked.resolve().is_relative_to(root):
                        say(linked, ("フォルダの外を指すシンボリックリンクなので、このフォルダは読みません",
                                          "outside_folder"))
                for name in sorted(files):
                    candidate = Path(folder, name)
                    if candidate.suffix not in CONTENT_SUFFIXES:
                        meant = _near_miss(candidate.suffix)
                        if meant is not None:
                            say(candidate, (f"名前が {candidate.suffix} で終わるので読みません"
                                            f"（コンテンツのファイルは {meant} で終わります）",
                                            "suffix"))
                        continue
                    why = _left_out(candidate, root)
                    if why is None:
                        inside.append(candidate)
                    else:
                        say(candidate, why)
            found.extend(sorted(inside))
        elif path.suffix not in CONTENT_SUFFIXES and problems is not None:
            # named, yet no content file (README.md): one line that says so, not a page
            # of E001 for every line of prose
            problems.append(E004.at(
                Span(display_path(path), 1, 1, 1, 2),
                f"{path} はコンテンツのファイルではありません（名前が "
                f"{'、'.join(CONTENT_SUFFIXES)} のどれでも終わりません）",
                hint="コンテンツのファイル（名前が .page などで終わるもの）かフォルダを指定してください"
                     "（このファイルは検査されていません）"))
        else:
            found.append(path)
    # One file named twice — relative and absolute, or through a link — is read once,
    # under the name it was first given: else its every item would be defined twice (E012).
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def _near_miss(suffix: str) -> str | None:
    """The content file's ending ``suffix`` was surely meant as (``.Page``, ``.pages``:
    a page a designer wrote, which a folder's walk would otherwise pass over unsaid)."""
    low = suffix.lower()
    return next((real for real in CONTENT_SUFFIXES if low in (real, real + "s")), None)


#: Why a content file found in a folder is not read → what to do about it.
_UNREAD = "（このファイルは検査されていません）"
LEFT_OUT_HINTS = {
    "suffix": "ファイル名の終わりを直してください" + _UNREAD,
    "broken": "リンク先を直すか、リンクを消してください" + _UNREAD,
    "loop": "リンクがたがいを指しています。どれかを本当のファイルにしてください" + _UNREAD,
    "outside": "フォルダの外は読みません。ファイルをフォルダの中にコピーしてください" + _UNREAD,
    "outside_folder": "フォルダの外は読みません。中のファイルをフォルダの中にコピーしてください"
                      "（中のファイルは検査されていません）",
    "special": "コンテンツは通常のファイルに書いてください" + _UNREAD,
    "name": "ファイル名を付け直してください（別の OS で作った zip を展開したときなどに起きます）"
            + _UNREAD,
    "unreadable": "読む権限があるかを確かめてください" + _UNREAD,
}


def _left_out(candidate: Path, root: Path) -> tuple[str, str] | None:
    """(why, the LEFT_OUT_HINTS key) a content-named entry of a searched folder is not
    read, or None. A symlink inside the folder must not lead the run outside what was
    named; a FIFO or a device is never opened from a folder (only a file named as such
    is, without blocking)."""
    if not_utf8_name(candidate):
        return NOT_UTF8_NAME, "name"
    try:
        mode = candidate.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "シンボリックリンクが輪になっていて、ファイルに着きません", "loop"
        if candidate.is_symlink():
            return "リンク先がありません（壊れたシンボリックリンクです）", "broken"
        return f"ファイルを読めません: {disk.reason(exc)}", "unreadable"
    if not candidate.resolve().is_relative_to(root):
        return "フォルダの外を指すシンボリックリンクなので読みません", "outside"
    special = disk.not_regular(mode)
    return None if special is None else (special, "special")


NOT_UTF8_NAME = "ファイル名が UTF-8 ではありません"


def not_utf8_name(path: Path) -> bool:
    """Whether the name of ``path`` (or of a folder on its way) holds bytes that are not
    UTF-8 (Python carries them as lone surrogates, which no text output can write) — not
    merely bytes the locale's encoding does not read (LC_ALL=C without Python's UTF-8
    mode reads every Japanese name so)."""
    name = str(path)
    if not _undecoded(name):
        return False
    try:
        os.fsencode(name).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def display_path(path: Path) -> str:
    """``path`` as messages show it: relative to the working directory, unless that would
    climb out of it (``..``) or no relative path exists (another drive); a byte of its
    name that is not UTF-8 shown as U+FFFD (``not_utf8_name``), and so is a character
    that would move a terminal's cursor, reorder or break the line (an escape, a bidi
    control, a tab: contract.linebreak ``shown_name``). Not a path to open: the caller
    keeps the path it gave."""
    try:
        shown = os.path.relpath(path)
    except ValueError:
        shown = str(path)
    if shown.startswith(".."):
        shown = str(path)
    if _undecoded(shown):  # bytes the locale did not read
        shown = os.fsencode(shown).decode("utf-8", "replace")
    return shown_name(shown)


def _undecoded(name: str) -> bool:
    """Whether ``name`` holds bytes the file system's encoding did not read (Python
    carries each as a lone surrogate)."""
    return any("\udc80" <= ch <= "\udcff" for ch in name)


#: The bytes of each file read while ``recording`` (None: not recording).
_READ: contextvars.ContextVar[dict | None] = contextvars.ContextVar("read", default=None)


@contextlib.contextmanager
def recording():
    """The bytes of every content file read inside the block, by resolved path (a file
    that could not be read is absent): what a lint's findings are of — the lint cache
    keeps them under these bytes, not under what the disk holds before or after, as a
    file saved during the check would differ (scenario/lintcache.py)."""
    seen: dict[Path, bytes] = {}
    token = _READ.set(seen)
    try:
        yield seen
    finally:
        _READ.reset(token)


def _read_bytes(path: Path) -> bytes:
    # Not blocking on a FIFO, never more than the limit of a device that never ends.
    data = disk.read_bounded(path, MAX_FILE_BYTES)
    seen = _READ.get()
    if seen is not None:
        where = path.resolve()
        if seen.setdefault(where, data) != data:  # read twice, changed between: no one text
            seen[where] = None
    return data


def read(path: Path, shown: str) -> tuple[str | None, list[Diagnostic]]:
    """The file's text (see ``prepare``), or None with E004 (unreadable, not UTF-8, too
    large). Text with E004 (binary, over-long lines) is for showing, not parsing."""
    head = Span(shown, 1, 1, 1, 2)
    if not_utf8_name(path):  # named as it is: never read, its text would carry the name
        return None, [E004.at(head, NOT_UTF8_NAME, hint=LEFT_OUT_HINTS["name"])]
    try:
        data = _read_bytes(path)
    except disk.TooLarge:
        # only what was read is known: the file may still be growing
        return None, [E004.at(head, f"ファイルが大きすぎます（{MAX_FILE_BYTES + 1} バイト以上）",
                              hint=f"コンテンツのファイルは {MAX_FILE_BYTES // 1024} KiB までです")]
    except disk.NotRegular as exc:
        return None, [E004.at(head, exc.strerror,
                              hint="コンテンツのファイルかフォルダを指定してください")]
    except disk.DiskError as exc:
        return None, [E004.at(head, f"ファイルを読めません: {exc.strerror}",
                              hint="ファイルがあるか、読む権限があるかを確かめてください")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = max(data.rfind(b"\n", 0, exc.start), data.rfind(b"\r", 0, exc.start)) + 1
        line = len(_LINE_BREAK.findall(data[:line_start].decode("utf-8"))) + 1
        # Columns count characters, as everywhere else, not bytes.
        col = len(data[line_start:exc.start].decode("utf-8")) + 1
        if line_start == 0 and data.startswith(b"\xef\xbb\xbf"):
            col -= 1  # the BOM is not a column (prepare drops it)
        return None, [E004.at(Span(shown, line, col, line, col + 1),
                              f"UTF-8 として読めないバイト（0x{data[exc.start]:02x}）があります",
                              hint="ファイルを UTF-8 で保存してください")]
    return prepare(text, shown)


def unparsed_text(path: Path, text: str | None) -> str | None:
    """The text of a file refused with E004, for the ids it seems to define (compiler/
    symbols.py ``unread``) and never for parsing: ``text`` when ``read`` gave one, else
    the file's bytes with each byte that is not UTF-8 as U+FFFD (None: unreadable)."""
    if text is not None:
        return text
    try:
        return prepare(_read_bytes(path).decode("utf-8", "replace"), str(path))[0]
    except OSError:
        return None


#: A line ends at "\n"; a lone "\r" (old Mac files) is read as "\n" (prepare).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(r"\r(?!\n)")


def prepare(text: str, shown: str) -> tuple[str, list[Diagnostic]]:
    """Text as the parser reads it — no BOM, every line break a "\n" (a lone "\r" becomes
    one; "\r\n" too, so that a file saved on Windows compiles to the same tables, its
    items' source text included: lines and columns stay where they were) — and E004 when
    it is not content at all (then the text is only shown, never parsed)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = _LONE_CR.sub("\n", text.replace("\r\n", "\n"))
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return text, [E004.at(Span(shown, line, col, line, col + 1), "バイナリファイルのようです（NUL 文字があります）",
                              hint="テキストのコンテンツだけを置いてください")]
    too_long = too_long_line(text, shown)
    return text, [too_long] if too_long is not None else []
