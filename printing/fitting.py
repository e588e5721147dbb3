"""文字の収まり — which cards' words overflow their box, read from WeasyPrint's layout.

A card's body (``data-card`` in sheets.html.j2) has a fixed height and width; its words
are laid out at the size asked and may run past it (overflow is visible, never cut).
The laid-out boxes say where every line ended: a card overflows when a line's bottom
lies below its body's or a line runs past its right edge (a word that could not wrap).
"""

from __future__ import annotations

#: The tolerance of the comparisons, in CSS px (1/96 in): rounding, never a line.
SLACK = 0.5


def _descendants(box):
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _descendants(child)


def _card_index(box) -> int | None:
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) != "div":
        return None
    value = element.get("data-card")
    return int(value) if value is not None and getattr(box, "style", None) is not None \
        and box.style["position"] == "absolute" else None


def overflowing(document) -> set[int]:
    """The ``data-card`` numbers of the card bodies of a rendered ``document`` whose words
    run past their box's bottom or right edge."""
    found: set[int] = set()
    for page in document.pages:
        for box in _descendants(page._page_box):
            index = _card_index(box)
            if index is None or index in found:
                continue
            if _overflows(box):
                found.add(index)
    return found


def _overflows(body) -> bool:
    bottom = body.content_box_y() + body.height + SLACK
    right = body.content_box_x() + body.width + SLACK
    for box in _descendants(body):
        if box is body:
            continue
        if box.position_y + box.margin_height() > bottom:
            return True
        if type(box).__name__ in ("TextBox", "LineBox") and \
                box.position_x + box.margin_width() > right:
            return True
    return False
