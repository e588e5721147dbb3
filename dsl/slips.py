"""桁区切り — a number written with thousands separators (1,000), which the language does
not read: how to find one in a line, and the hint that names the number meant. Apart from
the parser, so that the compiler's passes, which see such a number split at its commas
(a list's separator), say the same without importing it (a cached lint imports no parser).
"""

from __future__ import annotations

import re

#: A number written with thousands separators (-1,000.5), whole: groups of three digits
#: after the first, nothing of a number before or after it.
GROUPED_NUMBER = re.compile(r"(?<![\d,.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])")


def thousands_hint(meant: str) -> str:
    """The hint of a number written with thousands separators: ``meant``, written whole."""
    return f"数に桁区切りの「,」は書けません。{meant} と続けて書きます"
