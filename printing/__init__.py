"""印刷 — print and play: the content's cards on paper and on a virtual table.

The pipeline, in order: ``cards`` (the compiled tables → cards, plain data: the same words
as the catalog), then the sheets (Jinja2 templates and CSS paged media rendered to PDF by
WeasyPrint), the print's manifest (what changed since the last print), and the Tabletop
Simulator deck (card faces as grid images and the saved-object JSON). Heavy libraries
(WeasyPrint, pypdfium2, Pillow) are imported where they are used, never at start-up.
"""
