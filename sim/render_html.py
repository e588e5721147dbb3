"""ページ（HTML） — the page half of the labs' renderer family: the one Jinja2 environment
(autoescape, StrictUndefined) with the shared layout (templates/layout.html.j2) and the
numbers table (templates/numbers.html.j2, drawn from columns given as data:
``HtmlColumn``), the plots' matplotlib settings and SVG inlining, the figures' page forms,
and the page's render and atomic write. The battle's page (sim/report_html.py) and the
journey's (journey/lab/html.py) are only their settings, plots and columns.

Designer text is data: Jinja2 autoescapes the page, a cell built with markup goes through
``markupsafe.Markup.format`` (which escapes what it is given), matplotlib escapes the SVG
it writes (and reads no mathtext in it). Plot text stays text (``svg.fonttype: none``) in a
CJK font family, so the browser draws the Japanese with the system's font. The output is
deterministic: the same report gives the same bytes (fixed SVG hash salt, no date).
jinja2 and matplotlib are imported only when a page is written, so ``jibunki`` starts
fast.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from contract import disk

#: The shared layout and partials (pyproject's package-data).
TEMPLATES = Path(__file__).with_name("templates")

#: Font families of plot text, in order; the browser picks the first it has. matplotlib
#: measures the text with the first one installed (DejaVu Sans when none is).
FONTS = ["Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "IPAexGothic", "DejaVu Sans"]

#: matplotlib settings of every plot.
RC = {
    "svg.fonttype": "none",           # text stays text, drawn by the browser
    "svg.hashsalt": "jibunki-sim",    # clip-path and marker ids the same every run
    "font.family": ["sans-serif"],
    "font.sans-serif": FONTS,
    "font.size": 9,
    "text.parse_math": False,         # a "$" in a page name is a dollar sign
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.unicode_minus": True,
}
#: Width of every plot in inches (the page's main column at 96 px per inch).
WIDTH = 11.5
NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}

MINUS = "\N{MINUS SIGN}"
NONE = "—"



# --------------------------------------------------------------------- numbers


def _signed(value: float) -> str:
    shown = round(value * 100, 1) + 0.0  # + 0.0: no "-0.0"
    return f"{shown:+.1f}".replace("-", MINUS)


def points(interval: dict) -> str:
    """A difference of rates in points with its interval: ``+2.1 pt [−0.4, +4.6]``."""
    return (f"{_signed(interval['estimate'])} pt "
            f"[{_signed(interval['low'])}, {_signed(interval['high'])}]")


def percent(value: float | None) -> str:
    """A rate as a percentage with one decimal (``61.0%``); ``—`` for none."""
    return NONE if value is None else f"{value * 100:.1f}%"


def percent_interval(interval: dict) -> str:
    """A rate with its interval: ``61.0% [58.0, 64.0]``."""
    return (f"{interval['estimate'] * 100:.1f}% "
            f"[{interval['low'] * 100:.1f}, {interval['high'] * 100:.1f}]")


def number(value: float | None, digits: int = 1) -> str:
    """A number with ``digits`` decimals; ``—`` for none."""
    return NONE if value is None else f"{value:.{digits}f}".replace("-", MINUS)



# ------------------------------------------------------------------------ plots


@contextlib.contextmanager
def _quiet_fonts():
    """No warnings about fonts this machine lacks (the browser draws the text anyway):
    findfont's log lines and matplotlib's "Glyph missing" warnings."""
    log = logging.getLogger("matplotlib.font_manager")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"(?s).*[Gg]lyph .*missing")
            warnings.filterwarnings("ignore", message=r"(?s).*findfont")
            yield
    finally:
        log.setLevel(level)


def svg_element(fig, prefix: str) -> str:
    """The figure as an SVG element for inlining: no XML prolog, and every id (and each
    reference to one) prefixed, so that three plots in one page never share an id; links
    to the page's own anchors open in the same tab."""
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata=NO_METADATA)
    text = out.getvalue()
    text = text[text.index("<svg"):]
    # matplotlib escapes <, > and quotes in text and attribute values, so every "<…>" is
    # a tag, and ids are changed in tags only, never in designer text.
    tag = re.compile(r"<[^<>]*>")
    ids = {m for t in tag.findall(text) for m in re.findall(r'\sid="([^"]*)"', t)}

    def rename(match: re.Match) -> str:
        t = re.sub(r'(\sid=")([^"]*)"', lambda m: f'{m[1]}{prefix}-{m[2]}"', match[0])
        t = re.sub(r'url\(#([^)]*)\)',
                   lambda m: f"url(#{prefix}-{m[1]})" if m[1] in ids else m[0], t)
        t = re.sub(r'(href=")#([^"]*)"',
                   lambda m: f'{m[1]}#{prefix}-{m[2]}"' if m[2] in ids else m[0], t)
        return t.replace(' target="_blank"', "")

    return tag.sub(rename, text).rstrip("\n")


def _config_folder() -> str:
    """Where matplotlib keeps its font list: under jibunki's own cache folder when there
    is a usable one, else a private temporary folder removed at exit. matplotlib's own
    choice would make ~/.config and ~/.cache under a HOME that does not exist (a mistyped
    HOME must leave no folders behind, dsl/diskcache.py), make a relative
    XDG_CACHE_HOME inside the working folder, and warn in English when HOME is read-only."""
    import os

    from dsl import diskcache

    fd = diskcache.open_folder()
    if fd is not None:
        os.close(fd)
        folder = diskcache.cache_folder() / "matplotlib"
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            # there but not writable (a read-only mount): matplotlib warned in English
            disk.check_writable(folder)
            return str(folder)
        except OSError:
            pass
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="jibunki-matplotlib-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def matplotlib_ready():
    """matplotlib, imported once with its configuration folder set (``_config_folder``,
    unless the user set MPLCONFIGDIR) and drawing off-screen."""
    import os
    import sys

    if "matplotlib" not in sys.modules and not os.environ.get("MPLCONFIGDIR"):
        os.environ["MPLCONFIGDIR"] = _config_folder()
    # The font list is only a cache: a folder it cannot be saved in (a full disk) made
    # matplotlib warn in English on every run (「Could not save font_manager cache」).
    import logging

    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    import matplotlib

    matplotlib.use("Agg")
    return matplotlib


@contextlib.contextmanager
def plotting(salt: str):
    """Where a page's plots are drawn: matplotlib off-screen, with RC (``salt``: the SVG
    hash salt, one per lab) and no font warnings."""
    matplotlib = matplotlib_ready()
    with matplotlib.rc_context({**RC, "svg.hashsalt": salt}), _quiet_fonts():
        yield


# ------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class HtmlColumn:
    """One column of a page's numbers table: its header (``Markup`` for a line break), its
    cell for a row (text, escaped; or ``Markup`` built with ``Markup.format``), the cell's
    class for a row (``name`` aligns left), and the header's hover text."""

    header: str
    cell: Callable[[dict], object]
    css: Callable[[dict], str] | str = ""
    title: str = ""

    def css_of(self, row: dict) -> str:
        """The cell's class for ``row``."""
        return self.css(row) if callable(self.css) else self.css


def numbers_table(columns, rows, anchor: Callable[[int, dict], str], table_id: str = "") -> dict:
    """The view templates/numbers.html.j2 draws: headers, and per row its anchor (``anchor``
    of the row's index and the row) and cells."""
    columns = list(columns)
    return {"id": table_id,
            # a header is aligned as its column's cells only for the names (left)
            "columns": [{"header": c.header, "title": c.title,
                         "css": "name" if c.css == "name" else ""} for c in columns],
            "rows": [{"anchor": anchor(index, row),
                      "cells": [{"text": c.cell(row), "css": c.css_of(row)} for c in columns]}
                     for index, row in enumerate(rows)]}


# ----------------------------------------------------------------------- render


def environment(templates: Path | None = None):
    """The one Jinja2 environment of the labs' pages: a game's own templates (``templates``)
    first, then the shared layout and partials here; autoescaping on, undefined names an
    error (as the catalog's)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    folders = [TEMPLATES] if templates is None else [Path(templates), TEMPLATES]
    return Environment(loader=FileSystemLoader(folders),
                       autoescape=select_autoescape(["html", "j2"], default=True),
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def check_format(report: dict, report_format: str) -> None:
    """Raises ValueError for a report of another format than ``report_format``: a page is
    drawn only from the format its views read."""
    if report.get("format") != report_format:
        raise ValueError(f"not a {report_format!r} report: format {report.get('format')!r}")


def render_page(template: str, templates: Path | None, plots: dict, **context) -> str:
    """The page ``template`` (in ``templates``, beside the shared layout) with ``context``
    and ``plots``' SVG (escaped by matplotlib; None: no plot) inline."""
    from markupsafe import Markup

    plots = {name: None if svg is None else Markup(svg) for name, svg in plots.items()}
    return environment(templates).get_template(template).render(plots=plots, **context)


def report_json(report: dict) -> str:
    """A lab's report as JSON text, the one form every lab prints (``--format json``) and
    writes beside its page: keys sorted, Japanese as written, one space of indent."""
    import json

    return json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_page(out_dir: Path, text: str, beside: dict[str, str] | None = None) -> Path:
    """Write ``text`` as ``out_dir/index.html`` and the files ``beside`` it (name →
    text; ``out_dir`` created if needed) as one set — contract.disk.write_set, which
    refuses a link, a device or a FIFO in any file's place — and return the page's path."""
    out_dir = Path(out_dir)
    disk.make_folder(out_dir)  # something else in its way is named, not "already there"
    index = out_dir / "index.html"
    # one set (contract.disk.write_set): never a new report.json beside an old page
    disk.write_set(out_dir, {**(beside or {}), index.name: text}, inside=out_dir)
    return index
