"""発動する面 — which face a play fires, by 銘 against 刻 (spec 000 発動する面).

銘 > 刻 fires the 未来面, 銘 < 刻 the 過去面, 銘 = 刻 the 過去面 and then the 未来面.
The battle (runtime/playing.py) plays by it and the catalog says it for typical 刻
(catalog/compare.py). Standard library only, pure.
"""

from __future__ import annotations


def active_sides(year: int, age: int) -> tuple[str, ...]:
    """The sides a page of 銘 ``year`` fires at 刻 ``age``: equal fires past, then future."""
    if year > age:
        return ("future",)
    if year < age:
        return ("past",)
    return ("past", "future")
