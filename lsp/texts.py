"""The texts of a check — every file of a content folder as one check read them (a
Result's ``sources``): their digest, which a lens kept from a run compares with the texts
now, and how a place in them is said on a lens.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["shown_at", "texts_digest"]


def texts_digest(sources: dict[str, str]) -> str:
    """A digest of a check's texts — every file of the folder as the check read it (a
    Result's ``sources``): what a lens kept from a run compares with the texts now."""
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(f"{name}\0{sources[name]}\0".encode("utf-8", "replace"))
    return digest.hexdigest()


def shown_at(span) -> str:
    """Where a diagnostic is, as the command line says it (``path:line:col``, the path
    from the working folder): a lens is one line, and an absolute path pushed the reason
    out of view."""
    from compiler.read import display_path

    return f"{display_path(Path(span.path))}:{span.line}:{span.col}"
