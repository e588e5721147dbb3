"""The commands of ``jibunki``, one module per group of commands (cli.py gathers them).

Heavy modules (lark, the compiler, rich, the labs) are imported inside the commands, so
that ``jibunki --help`` starts fast: a module here imports only click and the small
shared helpers at its top.
"""

from terminal import click_ja

# click's own messages and help layout in Japanese, before any option is declared (an
# option's default help text is taken when it is declared): the package runs this before
# any of its modules is loaded.
click_ja.install()
