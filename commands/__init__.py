"""The commands of ``jibunki``, one module per group of commands (cli.py gathers them).

Heavy modules (lark, the compiler, rich, the labs) are imported inside the commands, so
that ``jibunki --help`` starts fast: a module here imports only click and the small
shared helpers at its top.
"""

import signal


def _interrupted_at_start(signum, frame) -> None:
    """Ctrl-C while the command line is still being loaded: said as click says it once it
    runs (its Abort: 「中断しました。」, exit 1), not as a traceback of the import."""
    import os

    os.write(2, "中断しました。\n".encode("utf-8"))
    os._exit(1)


def _cli_loading() -> bool:
    """Whether the command line (cli.py) is what is loading this package: its first
    import (a module of commands/ imported alone, by a test, keeps the process's Ctrl-C)."""
    import sys

    cli = sys.modules.get("cli")
    return cli is not None and not hasattr(cli, "main")


_AT_START = None
if _cli_loading():
    try:
        _AT_START = signal.signal(signal.SIGINT, _interrupted_at_start)
    except ValueError:  # loaded outside the main thread: no handler of its own
        pass


def loaded() -> None:
    """The command line is loaded: Ctrl-C is click's again (its Abort, the commands' own)."""
    if _AT_START is not None and signal.getsignal(signal.SIGINT) is _interrupted_at_start:
        signal.signal(signal.SIGINT, _AT_START)


from terminal import click_ja  # noqa: E402

# click's own messages and help layout in Japanese, before any option is declared (an
# option's default help text is taken when it is declared): the package runs this before
# any of its modules is loaded.
click_ja.install()
