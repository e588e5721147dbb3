"""The texts of a check — every file of a content folder as one check read them (a
Result's ``sources``): their digest, which a lens kept from a run compares with the texts
now, and how a place in them is said on a lens.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["shown_at", "texts_digest"]


#: The last texts digested and their digest: every lens of a refresh asks of the same
#: check's texts (the object itself is kept, so that it is that check's, not another's
#: made where it was).
_last: tuple[dict, str] | None = None


def texts_digest(sources: dict[str, str]) -> str:
    """A digest of a check's texts — every file of the folder as the check read it (a
    Result's ``sources``): what a lens kept from a run compares with the texts now.
    Worked out once for the same texts in a row."""
    global _last
    if _last is not None and _last[0] is sources:
        return _last[1]
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(f"{name}\0{sources[name]}\0".encode("utf-8", "replace"))
    _last = (sources, digest.hexdigest())
    return _last[1]


def shown_at(span) -> str:
    """Where a diagnostic is, as the command line says it (``path:line:col``, the path
    from the working folder): a lens is one line, and an absolute path pushed the reason
    out of view."""
    from compiler.read import display_path

    return f"{display_path(Path(span.path))}:{span.line}:{span.col}"
