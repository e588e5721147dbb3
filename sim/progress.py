"""進み具合 — the progress bar of a long run (``jibunki sim``, ``jibunki journey report``):
what is counted, how much of the whole run is done, and the time the whole run has left.

The time left is the whole run's, never one round's: the work still planned in the whole
run at the pace of the work done so far (``time_left``, ``pace``). The lab plays in rounds whose
later sizes depend on what the earlier ones measured, so its plan is said for what it is
(``basis``, sim/lab.py ``Step``): "exact" (a fixed list of tasks, the journey's), "estimate"
(the entries' measured needs) or "floor" (before the pilot has measured anything, the
pilot rounds alone: at least this much). The bar is rich's; this module only says its
words, so they can be read — and tested — with any clock.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
from rich.table import Column
from rich.text import Text

__all__ = ["RunBar", "count_text", "duration", "lab_details", "pace", "time_left"]

#: basis → how a planned total is written after the count done: exactly, about, at least.
_TOTAL = {"exact": "{planned:,}", "estimate": "約 {planned:,}", "floor": "{planned:,} 以上"}


def duration(seconds: float) -> str:
    """A span of time as a designer reads it: 45秒, 1分20秒, 2分, 1時間5分 (seconds are
    dropped from an hour up, where they are noise in an estimate)."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole}秒"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}分{secs}秒" if secs else f"{minutes}分"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}時間{minutes}分" if minutes else f"{hours}時間"


def count_text(unit: str, done: int, planned: int | None, basis: str = "exact") -> str:
    """``対局 123/400``, ``戦 1,234/約 9,800``, ``戦 400/2,600 以上``: what is counted,
    how many are done, and the whole run's planned total as its basis allows."""
    if planned is None:
        return f"{unit} {done:,}"
    return f"{unit} {done:,}/{_TOTAL[basis].format(planned=planned)}"


def time_left(pace: float | None, done: float, planned: float | None,
              basis: str = "exact") -> str:
    """The whole run's time left: the work still planned (``planned`` − ``done`` units) at
    ``pace`` units a second. 「残り約 1分20秒（全体）」; on a floor plan 「残り 40秒以上（全体・
    見積もり中）」; with no pace yet (nothing done): 「残り 計算中（全体）」."""
    if not pace or planned is None:
        return "残り 計算中（全体）"
    left = max(planned - done, 0) / pace
    if basis == "floor":  # at least this much: "at least nothing" would say nothing
        return f"残り {duration(left)}以上（全体・見積もり中）" if left >= 1 else "残り 見積もり中（全体）"
    if left < 1:
        return "残り 1秒未満（全体）"
    return f"残り約 {duration(left)}（全体）"


def pace(task: Task) -> float | None:
    """Units a second: rich's speed over its last half minute, so that a phase of cheaper
    battles (a weaker policy of the ladder) is soon read at its own pace; before there are
    two samples, the whole run's average."""
    if task.speed:
        return task.speed
    if task.elapsed and task.completed:
        return task.completed / task.elapsed
    return None


def lab_details(lab, precision: float) -> str:
    """What the balance lab has measured so far, after the time left: the widest
    half-width still open against the target, and the pairs per page the pilot expects."""
    parts = []
    if lab is not None and lab.widest is not None:
        target = lab.precision_now or precision  # the phase's own: a lower rung plays looser
        parts.append(f"最大半幅 ±{lab.widest * 100:.1f} pt（目標 ±{target * 100:g}）")
    if lab is not None and lab.estimate:
        parts.append(f"見込み 約 {lab.estimate} 組/ページ")
    return "  ".join(parts)


class _Count(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(count_text(task.fields["unit"], int(task.completed), _total(task),
                               task.fields["basis"]))


class _Left(ProgressColumn):
    def render(self, task: Task) -> Text:
        return Text(time_left(pace(task), task.completed, _total(task), task.fields["basis"]))


def _total(task: Task) -> int | None:
    return None if task.total is None else int(task.total)


#: The cells the label, the count and the time left keep on a narrow terminal (the
#: widest each usually is: 「入れ替え（greedy）」, 「戦 12,600/約 25,000」, 「残り約 4分27秒（全体）」).
LABEL_CELLS, COUNT_CELLS, LEFT_CELLS = 18, 20, 22
#: From this many columns every part of the bar fits as it is.
WIDE = 100


class RunBar:
    """One bar for a whole run on ``console`` (stderr), erased when the run ends:
    label, bar, count (``unit``), whole-run time left, details. ``get_time``: rich's clock
    (a test's fake one). Designer text goes in as plain text, never as rich markup."""

    def __init__(self, console: Console, unit: str, label: str = "準備中", get_time=None):
        # On a narrow terminal the count and the time left — what a waiting designer
        # reads — stay whole on their line; the details give way first (cut with …).
        narrow = console.width < WIDE

        def kept(cells: int) -> Column:  # whole on a narrow terminal, as wide as it is else
            return Column(no_wrap=True, min_width=cells if narrow else None)

        self._progress = Progress(
            TextColumn("{task.fields[label]}", markup=False, table_column=kept(LABEL_CELLS)),
            BarColumn(bar_width=8 if narrow else 24, table_column=kept(8)),
            _Count(table_column=kept(COUNT_CELLS)), _Left(table_column=kept(LEFT_CELLS)),
            TextColumn("{task.fields[details]}", markup=False,
                       table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1)),
            console=console, transient=True, get_time=get_time)
        self._task = self._progress.add_task("", total=None, unit=unit, label=label,
                                             basis="exact", details="")

    def __enter__(self) -> RunBar:
        self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        self._progress.stop()

    def show(self, done: int, planned: int | None, basis: str = "exact",
             label: str | None = None, details: str = "") -> None:
        """The run has done ``done`` of ``planned`` (its ``basis``, see the module)."""
        fields = {"basis": basis, "details": details}
        if label is not None:
            fields["label"] = label
        self._progress.update(self._task, completed=done, total=planned, **fields)

    @property
    def progress(self) -> Progress:
        """rich's Progress underneath (a test renders it with its fake clock)."""
        return self._progress
