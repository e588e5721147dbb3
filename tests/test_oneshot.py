"""sim.oneshot: a measure in a process of its own — the request pickled in, one JSON
object out, and every way a child can fail said in one Japanese sentence, never a
traceback and never a process left behind."""

from __future__ import annotations

import asyncio

import pytest

from sim.oneshot import ask

CHILD = "tests.oneshot_child"


def _ask(how: str, value=None, timeout: float = 30.0):
    return asyncio.run(ask(CHILD, (how, value), timeout, "測定"))


@pytest.mark.slow  # child processes
def test_a_child_answers_with_one_json_object():
    assert _ask("echo", ["旅", 3]) == ({"echo": ["旅", 3]}, "")


@pytest.mark.slow  # child processes
@pytest.mark.parametrize("how, value, timeout, said", [
    ("refuse", "草按", 30.0, "草按 はありません"),
    ("bug", None, 30.0, "jibunki の内部エラー: KeyError: 'missing'"),
    ("crash", None, 30.0, "測定のプロセスが途中で終わりました（終了コード 3）"),
    ("sleep", 30, 0.5, "0.5 秒たっても終わらないので止めました"),
])
def test_a_child_that_cannot_answer_is_said_why_in_one_sentence(how, value, timeout, said):
    assert _ask(how, value, timeout) == (None, said)


@pytest.mark.slow  # child processes
def test_a_cancelled_ask_leaves_no_child_behind():
    import subprocess

    def children() -> int:
        found = subprocess.run(["pgrep", "-f", "tests[.]oneshot_child"], capture_output=True,
                               text=True)
        return len(found.stdout.split())

    async def cancelled() -> tuple[int, int]:
        task = asyncio.ensure_future(ask(CHILD, ("sleep", 60), 120.0, "測定"))
        await asyncio.sleep(1.0)
        running = children()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.2)
        return running, children()

    assert asyncio.run(cancelled()) == (1, 0)
