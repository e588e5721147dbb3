"""例の集計 — what a run of the examples says at its end: how many passed and failed, from
how many files, and why a run that found nothing to play is not a success.

``jibunki test`` and ``jibunki build`` close with the same line (``closing_line``), so a
designer reads one count whichever of them ran the examples.
"""

from __future__ import annotations

from pathlib import Path

from compiler.read import CONTENT_SUFFIXES
from contract.typed import read_alike

__all__ = ["PASSED", "FAILED", "closing_line", "named", "nothing_to_run", "nothing_named"]

#: How an example's outcome is said — on each example's line of ``jibunki test``, in its
#: closing count and on the language server's lens above the example.
PASSED = "成功"
FAILED = "失敗"


def closing_line(examples) -> str:
    """``成功 12、失敗 1（3 ファイルの例 13 件）``: the outcomes of ``examples``
    (scenario.outcome.Result, each with its ``path``) counted, and the files they are
    written in."""
    failed = sum(not run.passed for run in examples)
    files = len({run.path for run in examples})
    return (f"{PASSED} {len(examples) - failed}、{FAILED} {failed}"
            f"（{files} ファイルの例 {len(examples)} 件）")


def nothing_to_run(named: list[Path], files: int) -> str:
    """Why a run found no example, naming where it looked: no content file at all under
    ``named``, or ``files`` content files without a single 例 block."""
    where = "、".join(str(path) for path in named)
    if files == 0:
        kinds = " ".join(CONTENT_SUFFIXES)
        return f"{where} にはコンテンツのファイル（{kinds}）がありません。実行する例がないので失敗とします。"
    return (f"{where} の {files} ファイルに例（例 \"名前\" {{ … }}）が1つもありません。"
            "実行する例がないので失敗とします（例はページや敵の下か .scenario ファイルに書きます）。")


def named(examples, words) -> list:
    """The examples whose name holds one of ``words`` (``jibunki test -k``), compared as
    typed or as an IME may type it (contract.typed.read_alike: 全角 letters and digits,
    lower case, ひらがな for カタカナ)."""
    wanted = [read_alike(word) for word in words]
    return [run for run in examples if any(word in read_alike(run.name) for word in wanted)]


def nothing_named(words, examples) -> str:
    """Why a run with ``-k`` played nothing: no example's name holds any of ``words``."""
    asked = "、".join(f"「{word}」" for word in words)
    return (f"名前に{asked}を含む例はありません（例は {len(examples)} 件あります）。"
            "実行する例がないので失敗とします。")
