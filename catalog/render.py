"""カタログ — the HTML catalog of every page and enemy, rendered from the tables.

One ``index.html`` that opens straight from disk, its ``vocabulary.html`` (the
vocabulary page every term of the rules text links to), ``triggers.html`` (the picture of
the trigger graph: catalog/triggers.py) and ``pool.csv`` (the pool table
for a spreadsheet, catalog/pool_csv.py): CSS and the filter script are inline, nothing is
fetched. Jinja2 autoescapes everything (designer text is data, never markup),
and undefined names are errors. The output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import dataclasses
import errno
import html
import os
import re
from collections import Counter
from functools import cache
from pathlib import Path

from contract import disk
from contract import vocabulary as vocab
from contract.tables import (Body, Condition, CounterRef, DistanceRef, FlagRef, PageAttrRef,
                             PageCountRef, RegionCountRef, VariableRef)
from contract.typed import READ_ALIKE, read_alike
from runtime.tearing import tear_scale

from . import compare, enemy_turns, lab, numberline, pool_csv, triggers, vocabulary_page
from .highlight import highlight
from .pen_diff import pen_rows
from .phrasing import (EXCESS_GROWS, INTENT_TEXT, Piece, body_pieces, condition_pieces,
                       escalation_text, fixed_note, named, phrase, phrase_pieces, term, text,
                       torn, trait_text)

TEMPLATES = Path(__file__).with_name("templates")
#: The pool table as a CSV file, beside the index (catalog/pool_csv.py).
POOL_CSV = "pool.csv"
#: The picture of the trigger graph, beside the index (catalog/triggers.py).
TRIGGERS = "triggers.html"
#: The catalog's files, written as one set in this order: the index last, so that it never
#: links to a vocabulary, a picture or a CSV (its 「CSVで保存」) not there yet.
FILES = ("vocabulary.html", TRIGGERS, POOL_CSV, "index.html")


def check_place(out: Path) -> None:
    """DiskError unless the catalog's set could be written into ``out`` now: a folder that
    takes a file, with nothing but regular files where the set's files go. Asked before
    ``jibunki build`` writes its tables, so that a place it cannot write stops it before
    it writes anything (a folder at pool.csv had left new tables beside an old catalog);
    a disk that fills between the two can still stop it after the tables. A folder not
    there yet is made by the write, in generated/, whose own write the tables' has asked;
    a link to nowhere is there, and no folder to write in. Not there, the nearest of its
    parents that is must be a folder one can write in (``a-file/catalog``)."""
    if not os.path.lexists(out):
        here = Path(out).absolute().parent
        while not os.path.lexists(here) and here.parent != here:
            here = here.parent
        if not here.is_dir():
            raise disk.DiskError(here, "フォルダではありません", errno.ENOTDIR)
        disk.check_writable(here)
        return
    disk.check_writable(out)
    for name in FILES:
        disk.check_target(out / name)


def searchable(text: str) -> str:
    """A card's words as the catalog's search box matches them: NFKC (全角 letters and
    digits as ASCII, as an IME may type them), lower case, ひらがな as カタカナ and variant
    kanji as the common forms (contract.typed.read_alike: あるばいと finds アルバイト). The
    page's script reads the query the same way, with the same table (``read_alike`` in the
    context, index.html.j2)."""
    return read_alike(text)


def environment():
    """The Jinja2 environment of the catalog's templates: autoescaping on and undefined
    names an error, so designer text is never markup and a typo never renders empty. The
    labs' partials (sim/templates: a box that scrolls sideways and says so) come after."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    from sim.render_html import TEMPLATES as LAB_TEMPLATES

    env = Environment(loader=FileSystemLoader([TEMPLATES, LAB_TEMPLATES]),
                      autoescape=select_autoescape(["html", "j2"], default=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    return env


# ---------------------------------------------------------------------- model

#: Reference classes → the code of the quantity they read (flags as @name), for the
#: index of what each page reads and writes.
READS = {
    CounterRef: lambda r: r.counter,
    VariableRef: lambda r: r.variable,
    PageAttrRef: lambda r: r.variable,
    FlagRef: lambda r: "@" + r.flag,
    # |銘 − 刻| of this play, and how many pages lie in a region: what a condition on the
    # distance or on 手札・除外 … reads (the pages in regions are what a region operation
    # writes: one quantity, read and written)
    DistanceRef: lambda r: "distance",
    RegionCountRef: lambda r: vocab.PAGES.code,
    PageCountRef: lambda r: vocab.PAGES.code,
}


def _nodes(obj):
    """Every object a 作用, condition or face is made of, itself first (a walk of the
    frozen tables' dataclasses, tuples, lists and dicts)."""
    yield obj
    if dataclasses.is_dataclass(obj):
        for item in dataclasses.fields(obj):
            yield from _nodes(getattr(obj, item.name))
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            yield from _nodes(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _nodes(item)


def _reads(node) -> str | None:
    """The quantity a reference reads, or None."""
    read = READS.get(type(node))
    return read(node) if read is not None else None


def _effects_of(page) -> list:
    effects = []
    for side in page.faces:
        effects += page.faces[side].effects
        if page.pens[side]:
            effects += page.pens[side].effects
    return effects + list(page.tear or ())


#: Condition tests that are words (CONDITION_WORDS) → the quantity they read: 「条件 跨ぐ」
#: reads the same crossing of 座 as 跨いだ回数 does, whichever way it is spelled.
WORD_READS = {"crosses": "crossings", "not_crosses": "crossings"}
#: Timings that fire on a change of a quantity → that quantity (毎 座を跨いだ時 counts
#: crossings too).
TIMING_READS = {"on_cross": "crossings"}


def _word_reads(node) -> str | None:
    """The quantity a condition word or an event timing reads, or None."""
    if isinstance(node, Condition) and node.test in WORD_READS:
        return WORD_READS[node.test]
    timing = getattr(node, "timing", None) if dataclasses.is_dataclass(node) else None
    if isinstance(timing, str) and timing in TIMING_READS:
        return TIMING_READS[timing]
    return None


def _touches(page) -> tuple[set, set]:
    """What a page reads (references, condition words, event timings) and writes."""
    writes = {"@" + e.target.flag if e.target.code == vocab.FLAG.code else e.target.code
              for e in _effects_of(page)}
    reads = set()
    for node in _nodes([page.faces, page.pens, page.tear, page.appears]):
        for found in (_reads(node), _word_reads(node)):
            if found is not None:
                reads.add(found)
    return reads, writes


@cache
def _quantity_names() -> dict[str, str]:
    """Code → name of everything a page may read or write (flags are named by themselves)."""
    return {**{c.code: c.ja for c in vocab.COUNTERS},
            **{v.code: v.ja for v in vocab.VARIABLES},
            vocab.PAGES.code: vocab.PAGES.said()}


def _tear_scale(coefficient: float, effects) -> str:
    """How a page's 破却 grows with distance, as the card says it: the rule, then what its
    作用 land as at distance 20 (runtime.tearing) — a multiplier grows by its excess over
    1, so 「攻撃倍率×1.2」 beside 「×2」 is ×1.4, not ×2.4. A 作用 without a base value (a
    number of pages moved, copied, made or revealed; a 抑制) lands as written at any
    distance: said so, never in the example (入学式's 「1枚」 read as doubled at 20)."""
    distance = term("variable", "distance")
    grows = [effect for effect in effects if effect.base is not None]
    if not grows:
        return f"{distance.ja}で強化: なし（{fixed_note(effects)}）"
    at = tear_scale(coefficient, 20)
    rule = f"基準値 × (1 + {coefficient} × {distance.said()})"
    if any(effect.op == "mul" for effect in grows):
        rule += f"、{EXCESS_GROWS}"
    landed = "、".join(phrase(torn(effect, at)[0], default_timing="on_tear")
                       for effect in grows)
    fixed = f"。{fixed_note(effects)}" if len(grows) < len(effects) else ""
    return f"{distance.ja}で強化: {rule}（例: {distance.ja} 20 で ×{at:g}: {landed}{fixed}）"


def _target_text(target, item: str) -> str | None:
    """A page's or an enemy's 目標 as plain text (「目標 勝率 40%〜70%」), None without one."""
    if target is None:
        return None
    return vocab.MEASURE_OF[item].said_range(target.low, target.high)


def _pen_view(face, pen, names: dict[str, str]) -> list[dict] | None:
    """The pen of a face as rows marked against the face (catalog.pen_diff), or None."""
    if pen is None:
        return None
    if not face.written:
        return pen_rows([], _lines(body_pieces(pen), names))
    # A pen on a written face replaces its 作用列 only: the face's own conditions still
    # hold after it (DESIGN §6.1), so they are kept lines of the difference.
    return pen_rows(_lines(body_pieces(face), names),
                    _lines(body_pieces(Body(conditions=face.conditions, effects=pen.effects)),
                           names))


def _lines(lines, names: dict[str, str]) -> list:
    """Lines of rules text with the pages they name said by name (phrasing.named)."""
    return [named(line, names) for line in lines]


def page_names(tables) -> dict[str, str]:
    """Each page's name by its id, as rules text says another page."""
    return {page.id: page.name for page in tables.pages.values()}


def _page_view(page, tables, starter: Counter, pages: dict[str, str]) -> dict:
    faces = []
    for side in vocab.FACES:
        face, pen = page.faces[side.code], page.pens[side.code]
        faces.append({
            "side": side.code, "word": side.ja, "written": face.written,
            "lines": _lines(body_pieces(face), pages), "pen": _pen_view(face, pen, pages),
            # a written face may have no pen upgrade: then the pen is refused, and says so
            "no_pen": vocab.NO_PEN_UPGRADE if face.written and pen is None else None,
        })
    blank_page = not any(f["written"] for f in faces)
    tear = None
    if page.tear:
        tear = {"lines": _lines([phrase_pieces(e, default_timing="on_tear") for e in page.tear],
                                pages),
                "scale": _tear_scale(tables.balance.tear_scale, page.tear), "blank": blank_page}
    appears = _lines([condition_pieces(c) for c in page.appears], pages)
    reads, writes = _touches(page)
    names = _quantity_names()
    touched = sorted(reads | writes)
    said = ([line for f in faces for line in f["lines"]]
            + [row["pieces"] for f in faces for row in f["pen"] or ()]
            + (tear["lines"] if tear else []) + appears)
    words = " ".join([page.id, page.name, page.flavor, page.origin or ""]
                     + [text(line) for line in said])
    return {
        "id": page.id, "name": page.name, "year": page.year,
        "beyond": page.year > tables.balance.lifespan_cap,
        "fray_mul": page.fray_mul, "origin": page.origin or "—",
        "after_play": term("destination", page.after_play).ja, "deck_cap": page.deck_cap,
        "appears": appears,
        "flavor": page.flavor, "faces": faces, "tear": tear,
        "target": _target_text(page.target, "page"),
        "written": " ".join(f["side"] for f in faces if f["written"]) or "blank",
        "touched": touched, "touched_names": [names.get(t, t) for t in touched],
        "search": searchable(words), "in_starter": starter.get(page.id, 0),
        # the terms its rules text links to, for the vocabulary page's lists of uses
        "anchors": [piece.anchor for line in said for piece in line if piece.anchor],
        "source": page.source, "highlighted": highlight(page.source.text),
    }


def _enemy_view(enemy, pages: dict[str, str]) -> dict:
    view = {
        "id": enemy.id, "name": enemy.name, "hp": enemy.hp, "seat": enemy.seat,
        "breakthrough": enemy.breakthrough, "flavor": enemy.flavor,
        "target": _target_text(enemy.target, "enemy"),
        "intents": [INTENT_TEXT[i.kind](i) for i in enemy.intents],
        "escalations": [escalation_text(e) for e in enemy.escalations],
        # a trait effect's terms link to the vocabulary page
        "trait_lines": [(Piece(trait_text(t)),) for t in enemy.traits]
        + _lines([phrase_pieces(e) for e in enemy.trait_effects], pages),
        "source": enemy.source, "highlighted": highlight(enemy.source.text),
    }
    view["search"] = searchable(" ".join([enemy.id, enemy.name, enemy.flavor or ""]
                                         + view["intents"] + view["escalations"]
                                         + [text(line) for line in view["trait_lines"]]))
    return view


def histogram(meis: list[int], *, top: int, width: int = 560, height: int = 140,
              step: int = 10, last: int | None = None, left: int = 0, right: int = 0) -> dict:
    """Bars of an inline SVG: how many pages per 銘 band of ``step`` years, over the years
    0..``last`` (default: the largest of ``top`` and the 銘), each year one cell of the
    number line's width (numberline.cells), so that histograms drawn with the same
    ``last``, ``width``, ``left`` and ``right`` share the number line's axis. A band never
    straddles ``top`` (寿命上限): the years beyond it start a band of their own, marked
    ``beyond`` (生きない年)."""
    last = max([top, *meis]) if last is None else last
    edges = sorted(set(range(0, last + 1, step)) | ({top + 1} if top < last else set()))
    x = numberline.cells(last, width, left, right)
    bands = [(lo, hi - 1) for lo, hi in zip(edges, edges[1:] + [last + 1])]
    counts = [sum(1 for m in meis if lo <= m <= hi) for lo, hi in bands]
    peak = max(counts + [1])
    bars = []
    for (lo, hi), count in zip(bands, counts):
        h = round((height - 30) * count / peak, 1)
        bars.append({"x": round(x(lo) + 1, 1), "y": round(height - 18 - h, 1),
                     "w": round(max(1.0, x(hi + 1) - x(lo) - 2), 1), "h": h, "count": count,
                     # a band too narrow for its label (寿命上限's own year) is unlabelled
                     "label": f"{lo}" if x(hi + 1) - x(lo) >= 14 else "",
                     "beyond": lo > top, "lo": lo, "hi": hi})
    return {"width": width, "height": height, "bars": bars}


def example_views(examples: list[dict], sources: dict[str, str],
                  shown=lambda path: path) -> dict[str, list]:
    """Examples by the page or enemy they prove, each ``where`` with its path ``shown`` as
    the tables' sources show theirs (build.Compiled.shown: the same bytes wherever the
    content lies). A page: the examples standing under it
    and those acting on it (出す, ペン, 破る, 選ぶ…). An enemy: only the examples written
    for it — those standing under it in its own file (the ``subject`` of the example);
    an example elsewhere that merely fights it (敵 haguruma as the opponent of a page's
    example) proves the page, not the enemy, and is not listed on the enemy."""
    found: dict[str, list] = {}
    for spec in examples:
        lines = sources.get(spec["path"], "").split("\n")
        view = {"title": spec["name"], "where": f"{shown(spec['path'])}:{spec['line']}",
                "highlighted": highlight("\n".join(lines[spec["line"] - 1: spec["end_line"]]))}
        ids = {spec.get("subject")}
        for step in spec["steps"]:
            ids.update([step.get("page")] + list(step.get("pages", [])))
        for ident in sorted(i for i in ids if i):
            found.setdefault(ident, []).append(view)
    return found


def _compare_view(page, balance, ages: tuple[int, ...]) -> dict:
    """A page's cells of the compare table and the pool table (catalog/compare.py)."""
    plays = [compare.play_at(page, age, balance) for age in ages]
    return {"plays": plays, "tears": [compare.tear_at(page, age, balance) for age in ages],
            # an unplayable cost sorts after every playable one
            "cost_keys": [p["cost"] if p["why"] is None else 10 ** 6 + p["cost"]
                          for p in plays],
            "pen_fray": balance.pen_fray}


def _turns_view(enemy, top: int) -> dict:
    """An enemy's first turns (catalog/enemy_turns.py) under 寿命上限 ``top`` as the card's
    timeline."""
    turns = enemy_turns.intent_turns(enemy)
    seats = enemy_turns.seat_path(enemy, top)
    _, unknown = enemy_turns.seat_moves(enemy)
    rows = []
    for turn, seat in zip(turns, seats["seats"]):
        kept = len(turn["intents"]) - turn["added"]
        rows.append({"turn": turn["turn"], "seat": seat,
                     "attack": sum(i.amount or 0 for i in turn["intents"] if i.kind == "attack"),
                     "intents": [{"text": INTENT_TEXT[i.kind](i), "kind": i.kind,
                                  "new": n >= kept}
                                 for n, i in enumerate(turn["intents"])]})
    return {"turns": rows, "seat_low": seats["low"], "seat_high": seats["high"],
            "seat_continues": seats["continues"], "horizon": enemy_turns.HORIZON,
            "seat_unknown": [phrase(e) for e in unknown],
            "blockades": enemy_turns.blockades(enemy)}


#: A card with nothing that triggers or is triggered (catalog/triggers.py).
NO_LINKS = {"triggers": [], "triggered_by": []}


def page_view(page, tables) -> dict:
    """What the catalog shows of one page (its faces' rules text, pens, 破却 …): the words
    other renderings of a page (print and play) reuse rather than rephrase."""
    return _page_view(page, tables, Counter(tables.starter()), page_names(tables))


def enemy_view(enemy, top: int, pages: dict[str, str] | None = None) -> dict:
    """What the catalog shows of one enemy, its first turns under 寿命上限 ``top``
    included (``_turns_view``); ``pages`` (page_names) says the pages its text names."""
    return {**_enemy_view(enemy, pages or {}), **_turns_view(enemy, top)}


def _page_views(tables) -> list[dict]:
    """Every page's view (``_page_view``), in the catalog's order: by 銘, then id."""
    starter = Counter(tables.starter())
    pages = page_names(tables)
    return [_page_view(p, tables, starter, pages)
            for p in sorted(tables.pages.values(), key=lambda p: (p.year, p.id))]


def render(tables, examples: dict[str, list] | None = None,
           sim: dict[str, str] | None = None, lab_report: dict | None = None,
           views: list[dict] | None = None, printed: dict[str, str] | None = None,
           printed_older: frozenset = frozenset()) -> str:
    """The whole catalog as one HTML document; ``examples`` from ``example_views``,
    ``sim`` (page id → link to its row of the simulation report) from ``sim_links``,
    ``lab_report`` the simulation report itself (its figures in the compare table, the
    pool table and on the enemy cards; catalog/lab.py); ``views`` the pages' views from
    ``_page_views`` when the caller has them already (``write`` phrases each page once for
    both documents), ``printed`` (card key → link to its printable face, the last print's:
    printing/links.py) and ``printed_older`` (those printed as they no longer are)."""
    return _document(context(tables, examples, sim, lab_report, views, printed,
                             printed_older=printed_older))


def _document(shown: dict) -> str:
    """The index from its ``context``."""
    return environment().get_template("index.html.j2").render(**shown)


def context(tables, examples: dict[str, list] | None = None,
            sim: dict[str, str] | None = None, lab_report: dict | None = None,
            views: list[dict] | None = None, printed: dict[str, str] | None = None,
            graph=None, lab_stale: bool = False, printed_older: frozenset = frozenset()) -> dict:
    """What the catalog's index shows (``render``'s arguments), its pool table's CSV
    records (catalog/pool_csv.py) and each card's trigger links (catalog/triggers.py,
    from ``graph``, the content's trigger graph: built here when not given) included.
    ``lab_stale``: the report beside the catalog measured other content (or code): its
    figures are not shown as if they were of this one, and the note says why.
    ``printed_older``: the keys of the printed cards whose sheet shows them as they no
    longer are (printing.links.older_faces): their links say so."""
    examples, sim, printed = examples or {}, sim or {}, printed or {}
    links = triggers.card_links(graph or triggers.graph_of(tables), tables)
    figures = lab.figures(None if lab_stale else lab_report, tables)
    ages = compare.typical_ages(tables.balance)
    starter = Counter(tables.starter())
    pages = [{**view, "examples": examples.get(view["id"], []),
              "sim": sim.get(view["id"]), "printed": printed.get(f"page/{view['id']}"),
              "printed_older": f"page/{view['id']}" in printed_older,
              **_compare_view(tables.pages[view["id"]], tables.balance, ages),
              "lab": figures["pages"].get(view["id"]),
              "links": links.get(("page", view["id"]), NO_LINKS)}
             for view in (views if views is not None else _page_views(tables))]
    ordered = sorted(tables.enemies.values(), key=lambda e: e.id)
    names = page_names(tables)
    enemies = [{**_enemy_view(e, names), **_turns_view(e, tables.balance.lifespan_cap),
                "examples": examples.get(e.id, []),
                "lab": figures["enemies"].get(e.id), "printed": printed.get(f"enemy/{e.id}"),
                "printed_older": f"enemy/{e.id}" in printed_older,
                "links": links.get(("enemy", e.id), NO_LINKS)}
               for e in ordered]
    by_origin: dict[str, list] = {}
    for page in pages:
        by_origin.setdefault(page["origin"], []).append(page)
    index: dict[str, dict] = {}
    for page in pages:
        for code, name in zip(page["touched"], page["touched_names"]):
            entry = index.setdefault(code, {"name": name, "pages": []})
            entry["pages"].append(page)
    has_lab = bool(figures["pages"] or figures["enemies"])
    observed = tuple(k for k in pool_csv.OBSERVED if lab.has_figure(figures["pages"], k))
    cap = tables.balance.lifespan_cap
    line = numberline.number_line(pages, ordered, tables)
    # the histograms drawn on the number line's axis: the same years, the same cells
    shared = {"last": line["last"], "width": numberline.WIDTH, "left": numberline.LEFT,
              "right": numberline.RIGHT}
    # origins in the order of life: by the youngest 銘 among their pages
    lived = sorted(by_origin.items(), key=lambda kv: (min(p["year"] for p in kv[1]), kv[0]))
    for rank, (_, of_origin) in enumerate(lived):
        for page in of_origin:
            page["origin_rank"] = rank  # the pool table sorts 出自 by it, not by its letters
    return {
        "pages": pages, "enemies": enemies,
        "by_origin": lived,
        "index": sorted(index.items(), key=lambda kv: kv[1]["name"]),
        "all_hist": histogram([p["year"] for p in pages], top=cap, **shared),
        "starter_hist": histogram([tables.pages[p].year for p in tables.starter()], top=cap,
                                  **shared),
        "line": line, "ages": ages, "lab_about": figures["about"], "lab_labels": figures.get("labels", lab.LABELS),
        "lab_stale": lab_stale,
        "has_lab": has_lab, "lab_observed": observed,
        "csv": pool_csv.table(pages, ages, has_lab, observed),
        "cap": cap, "starter_count": sum(starter.values()), "read_alike": READ_ALIKE,
        "variables": sorted({(c, n) for p in pages for c, n in zip(p["touched"],
                                                                    p["touched_names"])},
                            key=lambda cn: cn[1]),
    }


def render_triggers(graph, tables=None) -> str:
    """The page of the trigger graph's picture (catalog/triggers.py) from the content's
    trigger graph (``triggers.graph_of``), its pages and enemies named from ``tables``."""
    return environment().get_template("triggers.html.j2").render(
        **triggers.context(graph, tables))


def render_vocabulary(tables, views: list[dict] | None = None) -> str:
    """The vocabulary page: every entry of the vocabulary reference with its meaning, and
    the pages whose rules text uses it (catalog.vocabulary_page) — the anchors of the
    lines each page's view phrased (``views`` as for ``render``)."""
    pages = views if views is not None else _page_views(tables)
    context = vocabulary_page.context(vocabulary_page.uses_of(pages))
    return environment().get_template("vocabulary.html.j2").render(**context)


def write(tables, out: Path, examples: dict[str, list] | None = None,
          sim_report: Path | None = None, lab_report: dict | None = None,
          printed: dict[str, str] | None = None, lab_stale: bool = False,
          printed_older: frozenset = frozenset()) -> Path:
    """Render into ``out`` (created if needed); returns the index path. The files are
    replaced as one set (contract.disk.write_set: a link, a device or a FIFO in any
    file's place is refused, never written through).
    ``sim_report``: the ``index.html`` of a ``jibunki sim --html`` report (usually
    ``generated/sim/index.html``); each page it has links to its row, when it exists now.
    ``lab_report``: that report's data (sim.report_html.read_report), for its figures.
    ``printed``: card key → link to its printable face (printing/links.py), and
    ``printed_older`` the keys of those printed as they no longer are.
    ``lab_stale``: that report is of other content (``context``).
    Errors are OSError (the caller says what went wrong)."""
    disk.make_folder(out)
    views = _page_views(tables)  # each page phrased once, for both documents
    graph = triggers.graph_of(tables)  # built once, for the cards and the picture
    shown = context(tables, examples, sim_links(sim_report, out), lab_report, views, printed,
                    graph, lab_stale, printed_older)
    documents = (render_vocabulary(tables, views), render_triggers(graph, tables),
                 pool_csv.document(shown["csv"]["header"], list(shown["csv"]["rows"].values())),
                 _document(shown))
    disk.write_set(out, dict(zip(FILES, documents, strict=True)), inside=out)  # one set
    return out / FILES[-1]


#: The simulation report's page the catalog links into: a few megabytes at most.
MAX_REPORT_BYTES = 256 * 1024 * 1024


def sim_links(report: Path | None, out: Path) -> dict[str, str]:
    """Page id → the link from the catalog in ``out`` to that page's row of the
    simulation report ``report``: only for the pages the report has anchors for, and none
    when there is no report — the catalog never links to nothing."""
    try:
        text = disk.read_bounded(report, MAX_REPORT_BYTES).decode("utf-8") \
            if report is not None else ""
        href = Path(os.path.relpath(report, out)).as_posix() if text else ""
    except (OSError, UnicodeDecodeError, ValueError):  # ValueError: another drive
        return {}
    return {ident: f"{href}#page-{ident}"
            for ident in map(html.unescape, re.findall(r'id="page-([^"]+)"', text))}
