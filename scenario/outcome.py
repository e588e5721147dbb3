"""例の結果 — what playing one example gave (scenario.run), also rebuilt from the example
cache (scenario.excache) without importing the runtime."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Failure:
    """One failure of an example, at its line and column; for an expectation, also what
    was written and what the battle showed."""

    line: int
    col: int
    message: str
    expected: str | None = None  # for a failed expectation: what was written
    actual: str | None = None  # … and what the battle showed
    end_col: int | None = None


@dataclass
class Result:
    """What running one 例 gave: its name and place, its failures, and every event of the
    battle."""

    name: str
    path: str
    line: int
    failures: list[Failure] = field(default_factory=list)
    events: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether the example ran without a failure."""
        return not self.failures
