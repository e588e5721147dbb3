"""旅の画面 — draft 17 at a terminal (``jibunki journey``): the screen and its loop
(terminal.py), the commands with their Japanese aliases (commands.py), and Tab completion
(complete.py).

The top layer of journey/, beside journey/lab/: it reads the rules below it (journey/'s
own modules) and the terminal's shared parts (terminal.script, terminal.prompt), and
nothing below imports it (tests/test_layers.py).
"""
