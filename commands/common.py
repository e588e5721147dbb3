"""What every command shares: the exit codes, the default folders, the float option's
type, reading and writing files with a Japanese message instead of a traceback, and the
command group (``CommandGroup``), which says so of an output no command expected to fail.

Standard library and click only: it is loaded on every start.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from contract.kinds import CONTENT_NAME

#: Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage errors (click's own).
EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2
DEFAULT_CONTENT = Path(CONTENT_NAME)
DEFAULT_GENERATED = Path("generated")


#: A battle script is a few hundred commands; far more is not a script (/dev/zero …).
MAX_SCRIPT_BYTES = 1024 * 1024


def halfwidth(value):
    """A number typed with a Japanese input method (０．１, －３) as ASCII: Python reads
    full-width digits in an integer (--max-pairs １９) but not the full-width point or
    minus, so a fraction typed so was refused where a count was not."""
    if not isinstance(value, str):
        return value
    import unicodedata

    return unicodedata.normalize("NFKC", value)


class FiniteFloatRange(click.FloatRange):
    """The type of every float option: a number within the range, never nan or ±inf
    (FloatRange alone lets nan through: each comparison with nan is false)."""

    def convert(self, value, param, ctx):
        """The number typed, or a usage error (exit 2) for nan, ±inf or one out of range."""
        import math

        number = click.FLOAT.convert(halfwidth(value), param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value}: 有限の数を書いてください（nan や ±inf は使えません）", param, ctx)
        return super().convert(number, param, ctx)


class Fraction(FiniteFloatRange):
    """A share written as a fraction (``--precision 0.03`` for ±3 points). A number typed
    in points — every report says 「±3 pt」 — is refused with the fraction it means."""

    def convert(self, value, param, ctx):
        """The fraction, or a usage error that names the one meant for a number in points."""
        number = click.FLOAT.convert(halfwidth(value), param, ctx)
        if self.max is not None and self.max < number <= 100:
            self.fail(f"{value} は割合で書きます: ±{number:g} ポイントなら "
                      f"{number / 100:g}（{self.min:g}〜{self.max:g}）", param, ctx)
        return super().convert(value, param, ctx)


class Seed(click.ParamType):
    """The type of every --seed: a whole number within ``low``..``high`` (what the command's
    streams take), shown in help as 整数 — the bounds are 20-digit numbers no designer
    types, and help listed them as a range — and said only when one is out of them."""

    name = "整数"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        """The seed, or a usage error (exit 2) that says which seeds there are."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(halfwidth(str(value)).strip().replace("_", ""), 10)
            except ValueError:
                self.fail(f"{value}: シードは整数です（例: 0、42）", param, ctx)
        if (self.low is not None and number < self.low) or \
                (self.high is not None and number > self.high):
            lowest = "" if self.low is None else f"{self.low:,} 以上"
            highest = "" if self.high is None else f"{self.high:,} 以下"
            self.fail(f"{value}: シードは {lowest}{'、' if lowest and highest else ''}{highest}の整数です",
                      param, ctx)
        return number


class NamedPath(click.Path):
    """The type of the files and folders a command reads (PATHS): one that must exist.
    A refusal says only what is wrong with the path the designer typed: click would name
    the argument by its usage metavar (「'[パス]...' の値が正しくありません: …」)."""

    def __init__(self):
        super().__init__(exists=True, path_type=Path)

    def convert(self, value, param, ctx):
        """The path, or a usage error (exit 2) naming it."""
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            if os.path.islink(value) and not os.path.exists(value):
                raise click.UsageError(f"{exc.message.rstrip('。')}（リンク先がない、"
                                       "壊れたシンボリックリンクです）。", ctx) from None
            raise click.UsageError(f"{exc.message}{_nearby(value)}", ctx) from None


class ContentFolder(click.Path):
    """The type of --content: a folder that exists. click's own check lets a device through
    (``--content /dev/null`` is no file to it): read as a file of no content kind, with
    E014s for the balance and deck it then lacked, and ``watch`` waited for it forever."""

    def __init__(self):
        super().__init__(exists=True, file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        """The folder, or a usage error naming what it is instead."""
        path = super().convert(value, param, ctx)
        if not path.is_dir():
            self.fail(f"{value} はフォルダではありません。コンテンツのフォルダを指定してください",
                      param, ctx)
        return path


#: --content's type (one value shared by every command: it keeps no state).
CONTENT_FOLDER = ContentFolder()


class OutFolder(click.Path):
    """The type of a folder a command writes into (--out): not a file, and never the empty
    string, which Path reads as the working folder — a script with an unset variable
    (``--out "$DIR"``) would fill the folder it runs in."""

    def __init__(self):
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        """The path, or a usage error for an empty one."""
        if isinstance(value, str) and not value.strip():
            self.fail("空のパスです。書き出すフォルダを指定してください", param, ctx)
        return super().convert(value, param, ctx)


def _nearby(typed: str) -> str:
    """「もしかして「content/pages/壮年期.page」？」 for a path that is not there when its
    folder holds a name close to the one typed (壮年期.pag, 壮年期.Page); "" otherwise."""
    from compiler.names import suggest

    path = Path(typed)
    try:
        names = sorted(os.listdir(path.parent))
    except (OSError, ValueError):
        return ""
    # Compared by stem: a shared suffix (.page) must not make unrelated names look close;
    # a name typed with a suffix is a file of that kind (nothere.page is no 'generated').
    typed_suffix = path.suffix.lower()
    stems: dict[str, str] = {}
    for name in names:
        suffix = Path(name).suffix.lower()
        if typed_suffix and not (suffix and (suffix.startswith(typed_suffix)
                                             or typed_suffix.startswith(suffix))):
            continue
        stems.setdefault(Path(name).stem, name)
    near = suggest(path.stem, stems) if path.stem else None
    return f"もしかして「{path.parent / stems[near]}」？" if near else ""


def use_color(stream) -> bool:
    """Colour on a terminal, unless NO_COLOR is set to something (https://no-color.org:
    an empty one does not count, as rich reads it for the screens) or the terminal says
    it has none (TERM=dumb, as rich reads it)."""
    return (stream.isatty() and os.environ.get("NO_COLOR", "") == ""
            and os.environ.get("TERM", "") not in ("dumb", "unknown"))


def write_files(out: Path, files: dict[str, str | bytes], what: str = "表") -> list[str]:
    """Write through write_atomically; a folder that cannot be written (not a folder, no
    permission, a full disk) is a one-line message and exit 1 — the old files stay whole."""
    from compiler.build import write_atomically
    from contract import disk

    # Asked before the write: a first write that fails leaves nothing to speak of as kept,
    # nor does a folder standing where a table should be.
    kept = f"（前の{what}はそのままです）" if any(disk.present_file(out / name) for name in files) \
        else ""
    try:
        return write_atomically(out, files)
    except OSError as exc:
        raise click.ClickException(f"{out} に{what}を書けません: {why(exc)}{kept}") from None


def why(exc: OSError) -> str:
    """Why a file could not be written or read, in Japanese: the file and the reason for a
    refusal of contract.disk, the reason alone for any other OSError."""
    from contract.disk import DiskError, reason

    return str(exc) if isinstance(exc, DiskError) else reason(exc)


def script_lines(path: Path | None) -> list[str]:
    """The lines of a battle script (a file, or standard input when ``path`` is None):
    UTF-8 text of at most MAX_SCRIPT_BYTES, else a usage error."""
    where = str(path) if path is not None else "標準入力"

    def refused(message: str) -> click.UsageError:
        # --script named the file; standard input is named by no option (a pipe, --events)
        return click.BadParameter(message, param_hint="--script") if path is not None \
            else click.UsageError(message)

    try:
        if path is not None:
            # A device or a pipe may be a script too (/dev/null); only its size is bounded.
            with open(path, "rb") as handle:
                data = handle.read(MAX_SCRIPT_BYTES + 1)
        else:
            data = sys.stdin.buffer.read(MAX_SCRIPT_BYTES + 1)
    except OSError as exc:
        raise refused(f"{where} を読めません: {why(exc)}") from None
    if len(data) > MAX_SCRIPT_BYTES:
        raise refused(f"{where} は大きすぎます（{MAX_SCRIPT_BYTES // 1024} KiB まで）")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise refused(f"{where}:{line}: UTF-8 として読めないバイト "
                      f"0x{data[exc.start]:02x} があります") from None
    # A BOM (a script saved by Windows' Notepad) is no part of the first command.
    return text.removeprefix("\ufeff").splitlines(keepends=True)


#: The commands that play a run: their exit statuses 0–3 say how it ended (terminal/script.py),
#: so a run that could not be played exits EXIT_UNPLAYED rather than 1 (a lost run).
PLAYS = ("battle", "journey")
#: The commands of a PLAYS group that play nothing (their exit statuses are 0–2).
NOT_PLAYS = {"journey": ("report",)}


def _unplayed(args: list[str]) -> int:
    """The exit status of a command line ``args`` whose input or output failed: a run's
    EXIT_UNPLAYED, any other command's EXIT_CONTENT (``journey report`` measures)."""
    from terminal.script import EXIT_UNPLAYED

    group = args[0] if args else None
    plays = group in PLAYS and not any(a in NOT_PLAYS.get(group, ()) for a in args[1:])
    return EXIT_UNPLAYED if plays else EXIT_CONTENT


def _closed_streams(args: list[str]) -> None:
    """A process started with a standard stream closed (``>&-``, ``<&-``) has None for it:
    every command failed on it with a traceback, and one whose output was its job exited
    0 having written nothing. A closed input reads as empty (as ``< /dev/null``), a closed
    stderr writes nowhere; a closed output is an output that failed at once."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:
        click.echo("エラー: 標準出力が閉じています。出力先を開いて（ファイルかパイプにつないで）"
                   "実行してください", err=True)
        sys.exit(_unplayed(args))


class CommandGroup(click.Group):
    """The command group. An input or output that fails where no command expected it (the
    standard output on a full disk, a device that refuses) is said in Japanese on stderr
    with the system's reason, never as a traceback (click itself answers a closed pipe)."""

    def main(self, args=None, *rest, **options):
        """click's ``main``, with an OSError no command caught said as one line, and
        output in an encoding that cannot write every character (cp932 on Windows, a
        non-UTF-8 locale) written with the ones it cannot as "?" rather than stopped by
        a traceback part-way."""
        _closed_streams(sys.argv[1:] if args is None else list(args))
        if args is None:  # the program itself
            sys.unraisablehook = _interrupt_again(sys.unraisablehook)
        if _cwd_gone():  # every relative path (content/ by default) would fail, unnamed
            click.echo(f"エラー: {CWD_GONE}", err=True)
            sys.exit(_unplayed(sys.argv[1:] if args is None else list(args)))
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.reconfigure(errors="replace")
            except (AttributeError, ValueError):  # not a text stream of a file (a test's)
                pass
        try:
            return super().main(args, *rest, **options)
        except OSError as exc:
            _failed_io(exc, sys.argv[1:] if args is None else list(args))
        finally:
            if args is None:  # the program itself (a test's runner passes its arguments)
                _done_with_interrupts()

    def invoke(self, ctx):
        """A closed pipe (``jibunki battle --script s | head -1``) ends a run unfinished:
        click would exit 1, which a run's caller reads as lost, so a run exits
        EXIT_UNPLAYED; any other command leaves it to click."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            if ctx.invoked_subcommand not in PLAYS:
                raise
            from terminal.script import EXIT_UNPLAYED

            _stdout_to_nowhere()
            sys.exit(EXIT_UNPLAYED)


def _interrupt_again(default):
    """An unraisable-exception hook: a Ctrl-C that lands in a callback Python cannot raise
    from (a weak reference's, run by the collector) is raised again where it can stop the
    command — or, the command done, falls on the ignored SIGINT — rather than printed as
    an English traceback 「Exception ignored in …」 while the command goes on. Any other
    such exception is ``default``'s."""
    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            import signal
            import threading

            # from another thread, a moment later: raised here, the signal's handler ran
            # inside this hook, and Python printed that instead
            again = threading.Timer(AGAIN_AFTER, signal.raise_signal, (signal.SIGINT,))
            again.daemon = True
            again.start()
            return
        default(unraisable)
    return hook


#: Seconds after which a Ctrl-C caught in a callback is raised again (``_interrupt_again``).
AGAIN_AFTER = 0.01


def _done_with_interrupts() -> None:
    """A Ctrl-C once the command is done — its files written, its result said — changes
    nothing: it is ignored while the process ends. Landing there, it made a finaliser
    print an English traceback (weasyprint's fonts freed at exit), or turned the exit
    status into 130 after 「generated/: … 更新しました」, so that ``jibunki compile && …``
    stopped."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stdout_to_nowhere() -> None:
    """The standard output pointed at the null device: what it still buffers would fail
    again as the process ends (a second message, or a traceback)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


#: Said when the current folder was removed or moved away under the shell.
CWD_GONE = "いまのフォルダがもうありません（消されたか移されました）。ある場所へ移ってから実行してください"


def _cwd_gone() -> bool:
    """Is the current folder gone (removed or moved away while a shell stood in it)? Every
    relative path then fails, and the OS names no file."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    return False


def _failed_io(exc: OSError, args: list[str]) -> None:
    _stdout_to_nowhere()
    said = CWD_GONE if _cwd_gone() else f"入出力に失敗しました（{why(exc)}）。出力は途中までです"
    try:
        click.echo(f"エラー: {said}", err=True)
    except OSError:
        pass
    sys.exit(_unplayed(args))
