"""文字の収まり — which cards' words overflow their box, and which of their characters no
font has, read from WeasyPrint's layout.

A card's body (``data-card`` in sheets.html.j2) has a fixed height and width; its words
are laid out at the size asked and may run past it (overflow is visible, never cut).
The laid-out boxes say where every line ended: a card overflows when a line's bottom
lies below its body's or a line runs past its right edge (a word that could not wrap).
"""

from __future__ import annotations

import functools

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


# ------------------------------------------------------------------ characters no font has
#
# Pango draws a character that no font of the machine has as a box (☒): the card prints,
# wrong. It counts them itself (pango_layout_get_unknown_glyphs_count), with the very
# fonts and fallbacks the print used; WeasyPrint's bindings do not declare that call, so
# it is declared here, on the same library.

_PANGO = """
    int pango_layout_get_unknown_glyphs_count (void *layout);
    void *pango_layout_copy (void *src);
    void pango_layout_set_text (void *layout, const char *text, int length);
    void g_object_unref (void *object);
"""


#: The libraries' names, as WeasyPrint looks for them (Linux, macOS, Windows): already
#: loaded by WeasyPrint, so opened again they are the same libraries.
_LIBRARIES = {"pango": ("libpango-1.0.so.0", "libpango-1.0.dylib", "libpango-1.0-0.dll"),
              "gobject": ("libgobject-2.0.so.0", "libgobject-2.0.0.dylib",
                          "libgobject-2.0-0.dll")}


@functools.cache
def _pango():
    """(ffi, the pango library, the gobject library), declared for the unknown-glyph
    count."""
    import cffi

    ffi = cffi.FFI()
    ffi.cdef(_PANGO)

    def opened(names):
        for name in names[:-1]:
            try:
                return ffi.dlopen(name)
            except OSError:
                continue
        return ffi.dlopen(names[-1])

    return ffi, opened(_LIBRARIES["pango"]), opened(_LIBRARIES["gobject"])


def unknown_glyphs(document) -> dict[int, tuple[str, ...]]:
    """The characters of each card body (``data-card``) of a rendered ``document`` that
    are printed as a box because no font has them, in the order they are first written;
    cards with none are left out."""
    found: dict[int, dict[str, None]] = {}
    for page in document.pages:
        for box in _descendants(page._page_box):
            index = _card_index(box)
            if index is None:
                continue
            for text_box in _descendants(box):
                if type(text_box).__name__ != "TextBox" or not text_box.text.strip():
                    continue
                missing = _unknown(text_box)
                if missing:
                    found.setdefault(index, {}).update(dict.fromkeys(missing))
    return {index: tuple(chars) for index, chars in sorted(found.items())}


def _unknown(text_box) -> list[str]:
    """The characters of one text box no font has: its layout counted whole, then (only
    when some are missing) each character apart, on a copy of the same layout."""
    from weasyprint.text.ffi import ffi as weasy_ffi

    ffi, pango, gobject = _pango()
    layout = text_box.pango_layout
    layout.reactivate(text_box.style)  # WeasyPrint keeps a finished layout as its text only
    try:
        pointer = ffi.cast("void *", int(weasy_ffi.cast("uintptr_t", layout.layout)))
        if not pango.pango_layout_get_unknown_glyphs_count(pointer):
            return []
        missing = []
        for char in dict.fromkeys(text_box.text):
            single = pango.pango_layout_copy(pointer)
            data = char.encode("utf-8")
            pango.pango_layout_set_text(single, data, len(data))
            if pango.pango_layout_get_unknown_glyphs_count(single):
                missing.append(char)
            gobject.g_object_unref(single)
        return missing
    finally:
        layout.deactivate()
