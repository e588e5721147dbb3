"""ファイルの読み書き — the one way every command reads a file the user named and writes
one where the user meant.

``read_bounded`` opens without blocking (a FIFO never hangs the open), requires a regular
file and reads at most its limit plus one byte (a link to /dev/zero never fills memory).
``write`` writes only a regular file inside the folder it is given, never through or over
a symlink, a device, a FIFO or a folder, never over an existing file unless asked to
(``Exists`` then, so a terminal can ask), through a temporary file in the same folder
that is always removed — the terminating signals are held while it exists.

Every failure is a ``DiskError``: an OSError whose ``strerror`` is one Japanese line
(``reason`` turns any OSError into those words; the system's English never reaches the
designer). Standard library only: every layer uses it.
"""

from __future__ import annotations

import errno
import os
import secrets
import signal
import stat
from contextlib import contextmanager
from pathlib import Path

__all__ = ["HELD_SIGNALS", "DiskError", "Exists", "NotRegular", "TooLarge", "check_target",
           "present", "reason", "read_bounded", "read_up_to", "signals_held", "text_reason", "write"]

#: errno → the words a designer reads (the system's own text is English).
REASONS = {
    errno.ENOENT: "ファイルかフォルダがありません",
    errno.EACCES: "権限がありません",
    errno.EPERM: "権限がありません",
    errno.ENOSPC: "ディスクがいっぱいです",
    errno.EDQUOT: "ディスクの割り当てを超えました",
    errno.EROFS: "読み取り専用のファイルシステムです",
    errno.EISDIR: "フォルダです",
    errno.ENOTDIR: "途中の名前がフォルダではありません",
    errno.ELOOP: "シンボリックリンクです（またはリンクが循環しています）",
    errno.EEXIST: "すでにあります",
    errno.EBUSY: "使用中です",
    errno.ENAMETOOLONG: "名前が長すぎます",
    errno.EIO: "入出力エラーです",
    errno.EFBIG: "ファイルが大きすぎます",
    errno.ENXIO: "相手のいないデバイスかパイプです",
    errno.EINVAL: "この名前は使えません",
    errno.EMFILE: "開いているファイルが多すぎます",
    errno.ENFILE: "システム全体で開いているファイルが多すぎます",
    errno.ENOMEM: "メモリが足りません",
    errno.EXDEV: "別のファイルシステムへは移せません",
    errno.ENOTEMPTY: "フォルダが空ではありません",
    errno.ETXTBSY: "実行中のファイルです",
    errno.EAGAIN: "いまは使えません（もう一度試してください）",
    errno.EINTR: "割り込まれました",
    errno.EPIPE: "読み手がいなくなりました",
    errno.ECONNREFUSED: "接続を拒まれました",
    errno.ECONNRESET: "接続が切れました",
    errno.ETIMEDOUT: "時間切れです",
    errno.EHOSTUNREACH: "相手のホストに届きません",
    errno.ENETUNREACH: "ネットワークに届きません",
    errno.EADDRINUSE: "アドレスが使用中です",
    errno.EADDRNOTAVAIL: "このアドレスは使えません",
    errno.ENOTSUP: "この操作はできません",
    errno.ENODEV: "デバイスがありません",
    errno.ESPIPE: "位置を移せないファイルです（パイプかデバイス）",
}

#: What a file that is not a regular file is called, by its type (stat.S_IFMT).
KINDS = {
    stat.S_IFDIR: "フォルダ",
    stat.S_IFIFO: "名前付きパイプ",
    stat.S_IFCHR: "デバイス",
    stat.S_IFBLK: "デバイス",
    stat.S_IFSOCK: "ソケット",
    stat.S_IFLNK: "シンボリックリンク",
}

#: Signals that end (or stop) the process: held while a temporary file exists, so that
#: Ctrl-C or a kill takes effect once it is renamed or removed.
HELD_SIGNALS = tuple(getattr(signal, name) for name in
                      ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGTSTP")
                      if hasattr(signal, name))
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: Names relative to an open folder (openat, renameat, linkat): the folder checked is the
#: folder written, whatever is renamed meanwhile. Elsewhere (Windows): full paths.
_AT = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd \
    and os.link in os.supports_dir_fd and os.unlink in os.supports_dir_fd


class DiskError(OSError):
    """A file that cannot be read or written, with ``strerror`` one Japanese line (why);
    ``str()`` is ``path: why``."""

    def __init__(self, path, why: str, code: int = 0):
        super().__init__(code, why, str(path))
        self.path = str(path)

    def __str__(self) -> str:
        return f"{self.path}: {self.strerror}"


class Exists(DiskError):
    """The target is an existing regular file and replacing it was not asked for."""


class NotRegular(DiskError):
    """A FIFO, a device, a folder, a socket or a link where a regular file must be."""


class TooLarge(DiskError):
    """A file larger than the reader's limit."""


def present(path: Path) -> bool:
    """Whether something is at ``path``; a place that cannot be asked (no permission, a
    file where a folder should be) holds nothing as far as a message is concerned."""
    try:
        return path.exists()
    except OSError:
        return False


def present_file(path: Path) -> bool:
    """Whether a file is at ``path`` (what a write would replace and a refusal keeps): a
    folder of that name is none, as far as a message is concerned."""
    try:
        return path.is_file()
    except OSError:
        return False


def reason(exc: OSError) -> str:
    """The Japanese words for ``exc`` (its own for a DiskError; by errno for any other)."""
    if isinstance(exc, DiskError):
        return exc.strerror
    if isinstance(exc, TimeoutError) and exc.errno is None:  # a socket's timeout
        return REASONS[errno.ETIMEDOUT]
    if exc.errno in REASONS:
        return REASONS[exc.errno]
    if exc.errno is None:  # raised without one (watchfiles' Rust errors): by its class
        for kind, number in _CLASS_ERRNO:
            if isinstance(exc, kind):
                return REASONS[number]
    return f"OS のエラーです（{errno.errorcode.get(exc.errno, exc.errno or '?')}）"


#: The errno an OSError subclass stands for, where one is raised without its errno.
_CLASS_ERRNO = ((PermissionError, errno.EACCES), (FileNotFoundError, errno.ENOENT),
                (NotADirectoryError, errno.ENOTDIR), (IsADirectoryError, errno.EISDIR),
                (FileExistsError, errno.EEXIST), (TimeoutError, errno.ETIMEDOUT))


def text_reason(exc: Exception) -> str:
    """Why a file's text — a generated table, a Python literal — could not be read or taken
    apart, in Japanese: an OSError by ``reason``, text that is not UTF-8, Python that does
    not parse (with its line), a value that is no literal. The standard library's own
    messages are English."""
    if isinstance(exc, OSError):
        return reason(exc)
    if isinstance(exc, UnicodeDecodeError):
        return "UTF-8 のテキストではありません"
    if isinstance(exc, SyntaxError):
        return f"Python として読めません（{exc.lineno} 行目）" if exc.lineno else \
            "Python として読めません"
    if isinstance(exc, ValueError) and "null" in str(exc):
        return "ヌル文字が入っています"
    if isinstance(exc, ValueError):
        return "Python のリテラルとして読めません"
    return f"読めない形です（{type(exc).__name__}）"


def _error(path, exc: OSError) -> DiskError:
    return exc if isinstance(exc, DiskError) else DiskError(path, reason(exc), exc.errno or 0)


def _size(limit: int) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} バイト"


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is refused (its kind), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return f"通常のファイルではありません（{KINDS.get(stat.S_IFMT(mode), '特殊なファイル')}）"


def read_bounded(path, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (a link to one is followed), at most
    ``limit`` of them; DiskError for anything else — a FIFO, a device, a folder, a file
    larger than ``limit`` — at once: the open never blocks and at most ``limit + 1``
    bytes are read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _error(path, exc) from None
    try:
        why = not_regular(os.fstat(fd).st_mode)
        if why:
            raise NotRegular(path, why)
        data = read_up_to(fd, limit + 1)
    except DiskError:
        raise
    except OSError as exc:
        raise _error(path, exc) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise TooLarge(path, f"大きすぎます（上限 {_size(limit)}）", errno.EFBIG)
    return data


def read_up_to(fd: int, size: int) -> bytes:
    """At most ``size`` bytes from the open file ``fd``: fewer only at its end."""
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def make_folder(path) -> list[Path]:
    """Create the folder ``path`` and its parents as needed (``mkdir -p``); the folders it
    created, outermost first (``remove_made``). Something not a folder in the way — of the
    folder itself or of a parent — is a DiskError naming it: the OS says EEXIST, "already
    there", which reads as the opposite of the trouble."""
    path = Path(path)
    missing = []
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()),
                       path)
        raise DiskError(blocker, "フォルダではありません" if blocker == path
                        else REASONS[errno.ENOTDIR], errno.ENOTDIR) from None
    return missing[::-1]


def check_writable(folder) -> None:
    """DiskError unless a file can be made in the folder ``folder`` now: a read-only
    mount, a full disk or a folder of another's, found before a long job rather than after
    it (a probe: permissions alone do not say it, root passes them on a read-only mount)."""
    import tempfile

    try:
        fd, name = tempfile.mkstemp(prefix=".jibunki-probe-", dir=folder)
    except OSError as exc:
        raise _error(folder, exc) from None
    os.close(fd)
    os.unlink(name)


def remove_made(made: list) -> None:
    """Remove the folders ``make_folder`` made, innermost first, while they are empty: a
    command that wrote nothing leaves no folder behind it."""
    for folder in reversed(made):
        try:
            folder.rmdir()
        except OSError:
            return


def check_target(path, *, dir_fd: int | None = None) -> os.stat_result | None:
    """The target of a write as it stands (``path`` relative to the folder ``dir_fd``
    when given): None when there is none, its stat when it is a regular file; DiskError
    for a symlink, a device, a FIFO, a folder — never written through or replaced."""
    try:
        info = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _error(path, exc) from None
    why = not_regular(info.st_mode)
    if why:
        raise NotRegular(path, f"{why}。書き込みません", errno.EEXIST)
    return info


def write(path, data: str | bytes, *, inside, replace: bool) -> None:
    """Write ``data`` (text as UTF-8) as the regular file ``path``, which must lie in the
    folder ``inside`` (or a folder below it; both resolved, so ``..`` and links to
    elsewhere are outside). An existing regular file is replaced only when ``replace``
    (else ``Exists``), keeping its permissions; a symlink, device, FIFO or folder there
    is refused. The file appears whole or not at all: a temporary in the same folder,
    flushed, then renamed (``replace``) or linked (never clobbering a file that appeared
    meanwhile), and removed on any failure or signal. Errors are DiskError."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if path.name in ("", ".", ".."):
        raise DiskError(path, "ファイル名がありません", errno.EISDIR)
    try:
        folder = path.parent.resolve(strict=True)
        root = Path(inside).resolve()
    except OSError as exc:
        raise _error(path, exc) from None
    except RuntimeError:  # a loop of links (Python < 3.13)
        raise DiskError(path, REASONS[errno.ELOOP], errno.ELOOP) from None
    if not folder.is_relative_to(root):
        # ``../here/`` names the folder itself: say that, not that it is outside
        if (folder / path.name) == root:
            raise DiskError(path, "ファイル名がありません（フォルダを指しています）", errno.EISDIR)
        raise DiskError(path, f"{root} の外には書きません", errno.EACCES)
    with _opened(folder, path) as at:
        name = path.name if at is not None else str(folder / path.name)
        try:
            info = check_target(name, dir_fd=at)
        except DiskError as exc:
            raise type(exc)(path, exc.strerror, exc.errno) from None
        if info is not None and not replace:
            raise Exists(path, "すでにあります（上書きしません）", errno.EEXIST)
        not_read_only(path, info)
        try:
            _write_new(name, at, data, info, replace)
        except DiskError as exc:
            raise type(exc)(path, exc.strerror, exc.errno) from None
        except OSError as exc:
            raise _error(path, exc) from None


def not_read_only(path, info: os.stat_result | None) -> None:
    """DiskError when the file to be replaced (``info``: its stat, None when there is
    none) is read-only: a rename over it needs only the folder's permission, so its own
    mode — a lock, a version control's or a designer's — would go unheeded, even as root."""
    if info is not None and not info.st_mode & stat.S_IWUSR:
        raise DiskError(path, "読み取り専用のファイルです（書き換えません。書き換えるなら"
                              "書き込みを許可してください）", errno.EACCES)


def write_set(folder, files: dict, *, inside) -> None:
    """Write ``files`` (name → text or bytes) into the folder ``folder`` as ``write``
    does with ``replace``, as one set: every file is first written to its temporary — a
    full disk then leaves every old file as it was — and then all are renamed in place,
    in the order given, with the terminating signals held, so that Ctrl-C takes effect
    after the last (a reader never finds a new index beside the old pages it links to).
    A rename that fails (a file made immutable, a folder's rights changed meanwhile)
    puts back the old files the renames before it replaced, kept until then under a
    second name (``_kept``): the old set stays whole, as the error says. ``folder`` must lie in
    ``inside``. Errors are DiskError."""
    folder = Path(folder)
    try:
        real = folder.resolve(strict=True)
        root = Path(inside).resolve()
    except OSError as exc:
        raise _error(folder, exc) from None
    if not real.is_relative_to(root):
        raise DiskError(folder, f"{root} の外には書きません", errno.EACCES)
    with _opened(real, folder) as at:
        staged: list[tuple[str, str]] = []
        kept: list[tuple[str, str | None]] = []  # each target and its old file's link
        name = ""
        try:
            for name, data in files.items():
                target = name if at is not None else str(real / name)
                info = check_target(target, dir_fd=at)
                not_read_only(target, info)
                with signals_held():  # the temporary is noted before a signal can leave it
                    fd, temp = _temp(target, at)
                    staged.append((target, temp))
                _fill(fd, data.encode("utf-8") if isinstance(data, str) else data, info)
            with signals_held():
                for target, _ in staged:  # before any rename: a file we may not link,
                    name = os.path.basename(target)  # we may not replace either
                    kept.append((target, _kept(target, at)))
                done = 0
                try:
                    for target, temp in staged:
                        name = os.path.basename(target)
                        os.replace(temp, target, src_dir_fd=at, dst_dir_fd=at)
                        done += 1
                except OSError:
                    _put_back(kept[:done], at)
                    raise
            if at is not None:
                try:
                    os.fsync(at)  # the renames reach the disk too
                except OSError:
                    pass
        except DiskError as exc:
            raise type(exc)(folder / name, exc.strerror, exc.errno) from None
        except OSError as exc:
            raise _error(folder / name, exc) from None
        finally:
            # renamed temporaries are gone; the rest never stay, nor do the old files' links
            for temp in [temp for _, temp in staged] + [old for _, old in kept if old]:
                try:
                    os.unlink(temp, dir_fd=at)
                except FileNotFoundError:
                    pass


def _kept(target: str, at: int | None) -> str | None:
    """The old file at ``target`` under a second name before a set replaces it — a hard
    link, or a copy where the file system has none (or refuses one: an immutable file) —
    or None when there is no file yet."""
    head, tail = os.path.split(target)
    for _ in range(16):
        old = os.path.join(head, f".{tail}.{secrets.token_hex(4)}.old")
        try:
            os.link(target, old, src_dir_fd=at, dst_dir_fd=at)
            return old
        except FileNotFoundError:
            return None
        except FileExistsError:
            continue
        except OSError:
            return _copied(target, at)
    raise DiskError(target, "一時ファイルの名前が空いていません", errno.EEXIST)


def _copied(target: str, at: int | None) -> str:
    """A copy of the file at ``target`` in a temporary beside it."""
    fd = os.open(target, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=at)
    with os.fdopen(fd, "rb") as source:
        info, data = os.fstat(source.fileno()), source.read()
    with signals_held():
        fd, temp = _temp(target, at)
    try:
        _fill(fd, data, info)  # put back, it keeps the old file's mode
    except BaseException:
        os.unlink(temp, dir_fd=at)
        raise
    return temp


def _put_back(renamed: list, at: int | None) -> None:
    """Undo the renames of a set that failed part way: each replaced file's old content
    back under its name, each file that was new removed."""
    for target, old in reversed(renamed):
        try:
            if old is None:
                os.unlink(target, dir_fd=at)
            else:
                os.replace(old, target, src_dir_fd=at, dst_dir_fd=at)
        except OSError:
            pass  # what cannot be put back is said by the error that is being raised


@contextmanager
def _opened(folder: Path, path: Path):
    """A descriptor of ``folder`` (names are then relative to it), or None without *at
    calls. A folder that cannot be opened is a DiskError."""
    if not _AT:
        yield None
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError as exc:
        raise _error(path, exc) from None
    try:
        yield fd
    finally:
        os.close(fd)


def _write_new(name: str, at: int | None, data: bytes, info, replace: bool) -> None:
    """The temporary beside ``name``, written and synced, then renamed or linked in place."""
    with signals_held():
        fd, tname = _temp(name, at)
        try:
            _fill(fd, data, info)
            if replace:
                os.replace(tname, name, src_dir_fd=at, dst_dir_fd=at)
            else:
                _link(tname, name, at)
        finally:
            try:
                os.unlink(tname, dir_fd=at)
            except FileNotFoundError:
                pass
        if at is not None:
            try:
                os.fsync(at)  # the rename reaches the disk too
            except OSError:
                pass  # some file systems refuse fsync of a folder


def _fill(fd: int, data: bytes, info) -> None:
    """The temporary ``fd`` written with ``data`` and synced (closed after); a file it
    replaces (``info``: its stat, or None) keeps its mode."""
    with os.fdopen(fd, "wb") as handle:
        if info is not None and hasattr(os, "fchmod"):
            os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _link(tname: str, name: str, at: int | None) -> None:
    """Put the temporary at ``name`` only if nothing is there (link fails on EEXIST).
    File systems without hard links: rename after looking, the best they allow."""
    try:
        os.link(tname, name, src_dir_fd=at, dst_dir_fd=at, follow_symlinks=False)
    except FileExistsError:
        raise Exists(name, "すでにあります（上書きしません）", errno.EEXIST) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK,
                             errno.ENOSYS):
            raise
        try:
            os.stat(name, dir_fd=at, follow_symlinks=False)
        except FileNotFoundError:
            os.replace(tname, name, src_dir_fd=at, dst_dir_fd=at)
            return
        raise Exists(name, "すでにあります（上書きしません）", errno.EEXIST) from None


def _temp(name: str, at: int | None) -> tuple[int, str]:
    """A new temporary file beside ``name`` (O_EXCL: ours alone): its descriptor and name."""
    head, tail = os.path.split(name)
    for _ in range(16):
        temp = os.path.join(head, f".{tail}.{secrets.token_hex(4)}.tmp")
        try:
            # 0o666: the umask applies, as for any file the user makes
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                           0o666, dir_fd=at), temp
        except FileExistsError:
            continue
    raise DiskError(name, "一時ファイルの名前が空いていません", errno.EEXIST)


@contextmanager
def signals_held():
    """Hold the terminating signals (HELD_SIGNALS, this thread) and deliver them on
    leaving: a step that must not be cut in two (a temporary renamed or removed, a set of
    tables renamed) runs whole, and Ctrl-C or a kill takes effect after it."""
    if not HELD_SIGNALS or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
