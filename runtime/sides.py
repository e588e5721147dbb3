"""発動する面 — which face a play fires, by 銘 against 刻 (spec 000 発動する面).

銘 > 刻 fires the 未来面, 銘 < 刻 the 過去面, 銘 = 刻 the 過去面 and then the 未来面.
The battle (runtime/playing.py) plays by it and the catalog says it for typical 刻
(catalog/compare.py). Standard library only, pure.
"""

from __future__ import annotations


#: The three answers: 銘 < 刻, 銘 > 刻, 銘 = 刻.
PAST_ONLY, FUTURE_ONLY, BOTH = ("past",), ("future",), ("past", "future")


def active_sides(year: int, age: int) -> tuple[str, ...]:
    """The sides a page of 銘 ``year`` fires at 刻 ``age``: equal fires past, then future."""
    if year > age:
        return FUTURE_ONLY
    if year < age:
        return PAST_ONLY
    return BOTH
