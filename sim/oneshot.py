"""一回きりの子プロセス — how the language server has a measure run in a process of its own:
a page by the balance lab (``python -m sim.one_page``) or a 旅の準備 by the journey report
(``python -m journey.lab.one_setup``), so that the server's loop never waits on a battle
or a deal.

The request goes pickled on the child's stdin (it comes from the server, which checked
the content in memory); the answer comes back as one JSON object on its stdout —
``{"error": …}``, one Japanese line, when the child could not answer, never a traceback.
Both ends are here (``serve`` in the child, ``ask`` in the server), so the protocol is
written once.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import sys
from pathlib import Path
from typing import Callable

__all__ = ["ERROR", "ask", "serve"]

#: The key of a child's answer that says why it could not answer.
ERROR = "error"
#: The folder the children start in: the project's, so ``-m`` finds its packages (this
#: module is sim/oneshot.py).
_HOME = Path(__file__).resolve().parent.parent


def serve(compute: Callable[..., dict], refused: dict[type[Exception], Callable[..., str]]
          ) -> int:
    """The child's side: ``compute(*request)`` for the request read from stdin, written as
    JSON on stdout; exit status 0. An exception of a type of ``refused`` is answered with
    what its function says of it, any other as jibunki's own error (one line); status 1."""
    try:
        found, code = compute(*pickle.load(sys.stdin.buffer)), 0
    except tuple(refused) as exc:
        said = next(say for kind, say in refused.items() if isinstance(exc, kind))
        found, code = {ERROR: said(exc)}, 1
    except Exception as exc:  # a bug of jibunki: one line for the designer, not a traceback
        found, code = {ERROR: f"jibunki の内部エラー: {type(exc).__name__}: {exc}"}, 1
    sys.stdout.write(json.dumps(found, ensure_ascii=False))
    sys.stdout.flush()
    return code


async def ask(module: str, request: tuple, timeout: float, what: str
              ) -> tuple[dict | None, str]:
    """The server's side: (the answer, "") of ``python -m module`` given ``request``,
    awaited without blocking the loop; (None, why) in Japanese when it gave none — it
    could not start, took more than ``timeout`` seconds (it is stopped), ended early,
    wrote no JSON object, or answered with its error. ``what`` names the run in those
    sentences (実験, 測定). Cancelled, the child is stopped too: no process left behind."""
    try:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, cwd=str(_HOME))
    except OSError as exc:
        return None, f"{what}のプロセスを始められません（{exc.strerror or exc}）"
    try:
        out, _ = await asyncio.wait_for(child.communicate(pickle.dumps(request)), timeout)
    except asyncio.TimeoutError:
        child.kill()
        await child.wait()
        return None, f"{timeout:g} 秒たっても終わらないので止めました"
    except OSError as exc:  # the pipe broke: the process ended before it read the request
        if child.returncode is None:
            child.kill()
        await child.wait()
        return None, f"{what}のプロセスが途中で終わりました（{exc.strerror or exc}）"
    except asyncio.CancelledError:  # the server is ending, or the editor cancelled
        if child.returncode is None:
            child.kill()
        raise
    try:
        answer = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        answer = None
    if not isinstance(answer, dict):
        return None, f"{what}のプロセスが途中で終わりました（終了コード {child.returncode}）"
    if ERROR in answer:
        return None, str(answer[ERROR])
    return answer, ""
