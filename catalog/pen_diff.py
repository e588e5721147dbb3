"""ペンの差分 — a pen upgrade shown as what it changes on the face it writes.

A pen on a written face replaces the face's 作用列 by another, defined in advance (spec 002
ペン強化, ADR-0038), while the face's play conditions stay (DESIGN §6.1). A designer wants
to see what the pen changes, not two lists to compare by eye: each line of the face after
the pen is marked as kept, and the lines of the face before it that are gone as removed.
The lines are compared as rules text (difflib over whole lines), so a line is "kept" when
it reads the same — which, phrasing being injective, is when it is the same 作用.
"""

from __future__ import annotations

import difflib

from .phrasing import Said, text


def pen_rows(before: list[Said], after: list[Said]) -> list[dict]:
    """The face after the pen as rows ``{"mark", "pieces"}``, in order, with the removed
    lines of ``before`` where they stood (each removed run before the lines that replace
    it). ``before`` is empty for a blank face: every line is added."""
    old, new = [text(line) for line in before], [text(line) for line in after]
    rows: list[dict] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [{"mark": "kept", "pieces": after[j]} for j in range(j1, j2)]
            continue
        rows += [{"mark": "removed", "pieces": before[i]} for i in range(i1, i2)]
        rows += [{"mark": "added", "pieces": after[j]} for j in range(j1, j2)]
    return rows
