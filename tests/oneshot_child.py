"""A child for tests/test_oneshot.py: ``python -m tests.oneshot_child``, answering as
sim.oneshot's children do, in the way the request names."""

from __future__ import annotations

import os
import sys
import time

from sim.oneshot import serve


class Refused(LookupError):
    """What the child refuses with a sentence of its own."""


def _answer(how: str, value):
    if how == "refuse":
        raise Refused(value)
    if how == "bug":
        return {}["missing"]
    if how == "crash":
        os._exit(3)  # no answer at all
    if how == "sleep":
        time.sleep(value)
    return {"echo": value}


if __name__ == "__main__":
    sys.exit(serve(_answer, {Refused: lambda exc: f"{exc.args[0]} はありません"}))
