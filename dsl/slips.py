"""書き損じ — slips the parser and the compiler's passes both say, apart from the parser so
that the passes say the same without importing it (a cached lint imports no parser): a
number written with thousands separators (1,000), which the language does not read (the
passes see it split at its commas, a list's separator), and a 作用's operator without its
= (座 - 2, which an enemy's 特性 reads as a trait named 座).
"""

from __future__ import annotations

import re

#: A number written with thousands separators (-1,000.5), whole: groups of three digits
#: after the first, nothing of a number before or after it.
GROUPED_NUMBER = re.compile(r"(?<![\d,.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


def thousands_hint(meant: str) -> str:
    """The hint of a number written with thousands separators: ``meant``, written whole."""
    return f"数に桁区切りの「,」は書けません。{meant} と続けて書きます"


#: What a 作用's operator written without its = is told where no one operator is meant.
OPERATORS_TAKE_EQUALS = "演算子は = を付けて書きます（+= -= *= =）"
