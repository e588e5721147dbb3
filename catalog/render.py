"""カタログ — the HTML catalog of every page and enemy, rendered from the tables.

One ``index.html`` that opens straight from disk: CSS and the filter script are inline,
nothing is fetched. Jinja2 autoescapes everything (designer text is data, never markup),
and undefined names are errors. The output is deterministic: same tables, same bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from dsl.keywords import KEYWORDS

from .phrasing import body_lines, condition_text, phrase

TEMPLATES = Path(__file__).with_name("templates")
SIDES = (("future", "未来面"), ("past", "過去面"))
AFTER_PLAY = {"discard": "捨て札", "exile_stage": "除外（ステージ）", "exile_run": "除外（ラン）"}
TRAITS = {
    "immobile": lambda t: "不動（座は動かない）",
    "acceleration": lambda t: f"加速 {t['value']}（エスカレーションのたびに間隔が {t['value']} ターン縮む）",
    "per_hit_reduction": lambda t: f"1発ごとの軽減 {t['value']}（敵HPへの1発ごとに {t['value']} 減る）",
    "blockade": lambda t: f"封鎖 {t['low']}〜{t['high']}（この刻には止まれない）",
}
INTENTS = {"attack": lambda i, v: f"攻撃 {i['amount']}",
           "blank": lambda i, v: f"白紙化（{v['regions'][i['region']]['name']}）"}


def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader(TEMPLATES),
                      autoescape=select_autoescape(["html", "j2"], default=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    return env


# ---------------------------------------------------------------- highlighting

_KEYWORDS = sorted({w for pair in KEYWORDS.values() for w in pair}, key=len, reverse=True)
_TOKEN = re.compile(
    r"(?P<comment>#[^\n]*)|(?P<string>\"(?:[^\"\\\n]|\\.)*\"|「[^」\n]*」)"
    r"|(?P<number>\d+(?:\.\d+)?)|(?P<flag>@[^\W\d][\w・]*)|(?P<word>[^\W\d][\w・（）]*)"
    r"|(?P<other>.)", re.S)
_KEYWORD_SET = set(_KEYWORDS)


def highlight(source: str) -> list[tuple[str, str]]:
    """(css class, text) pieces of DSL source; the template escapes the text."""
    pieces = []
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup
        text = match.group()
        if kind == "word":
            kind = "kw" if text in _KEYWORD_SET else "name"
        pieces.append((kind, text))
    return pieces


# ---------------------------------------------------------------------- model


def _refs(obj, found: set) -> None:
    """Every variable and counter code an effect or condition reads."""
    if isinstance(obj, dict):
        if obj.get("kind") == "counter":
            found.add(obj["counter"])
        elif obj.get("kind") in ("variable", "page_attr"):
            found.add(obj["variable"])
        elif obj.get("kind") == "flag" and "flag" in obj:  # a flag read (not a condition kind)
            found.add("@" + obj["flag"])
        for key, value in obj.items():
            if key not in ("target", "ja"):
                _refs(value, found)
    elif isinstance(obj, list):
        for item in obj:
            _refs(item, found)


def _effects_of(page: dict) -> list[dict]:
    effects = []
    for side, _ in SIDES:
        effects += page["faces"][side]["effects"]
        if page["pens"][side]:
            effects += page["pens"][side]["effects"]
    return effects + (page["tear"] or [])


def _touches(page: dict) -> tuple[set, set]:
    writes = set()
    for effect in _effects_of(page):
        target = effect["target"]
        writes.add("@" + target["flag"] if target["code"] == "flag" else target["code"])
    reads: set = set()
    _refs([page["faces"], page["pens"], page["tear"], page["appears"]], reads)
    return reads, writes


def _page_view(page: dict, tables, starter: Counter) -> dict:
    vocabulary = tables.vocabulary
    faces = []
    for side, word in SIDES:
        face = page["faces"][side]
        pen = page["pens"][side]
        if pen and face["written"]:
            # A pen on a written face replaces its 作用列 only: the face's own conditions
            # still hold after it (DESIGN §6.1), so the "after" view shows them too.
            pen = {"conditions": face["conditions"], "effects": pen["effects"]}
        faces.append({
            "side": side, "word": word, "written": face["written"],
            "lines": body_lines(face if face["written"] else None, vocabulary),
            "pen": body_lines(pen, vocabulary) if pen else None,
        })
    scale = tables.balance["tear_scale"]
    blank_page = not any(f["written"] for f in faces)
    tear = None
    if page["tear"]:
        tear = {"lines": [phrase(e, vocabulary, default_timing="on_tear") for e in page["tear"]],
                "scale": f"基準値 × (1 + {scale} × |銘 − 刻|)（例: 距離 20 で ×{1 + scale * 20:g}）",
                "blank": blank_page}
    reads, writes = _touches(page)
    names = {**{c: v["name"] for c, v in vocabulary["counters"].items()},
             **{c: v["name"] for c, v in vocabulary["variables"].items()},
             "pages": "ページ（領域操作）"}
    touched = sorted(reads | writes)
    text = " ".join([page["id"], page["name"], page["flavor"], page["origin"] or ""]
                    + [line for f in faces for line in f["lines"] + (f["pen"] or [])]
                    + (tear["lines"] if tear else []))
    return {
        "id": page["id"], "name": page["name"], "mei": page["mei"],
        "beyond": page["mei"] > tables.balance["lifespan_cap"],
        "hokorobi_mul": page["hokorobi_mul"], "origin": page["origin"] or "—",
        "after_play": AFTER_PLAY[page["after_play"]], "deck_cap": page["deck_cap"],
        "appears": [condition_text(c, vocabulary) for c in page["appears"]],
        "flavor": page["flavor"], "faces": faces, "tear": tear,
        "written": " ".join(f["side"] for f in faces if f["written"]) or "blank",
        "touched": touched, "touched_names": [names.get(t, t) for t in touched],
        "search": text.lower(), "in_starter": starter.get(page["id"], 0),
        "source": page["source"], "highlighted": highlight(page["source"]["text"]),
    }


def _enemy_view(enemy: dict, tables) -> dict:
    vocabulary = tables.vocabulary
    return {
        "id": enemy["id"], "name": enemy["name"], "hp": enemy["hp"], "za": enemy["za"],
        "breakthrough": enemy["breakthrough"], "flavor": enemy["flavor"],
        "intents": [INTENTS[i["kind"]](i, vocabulary) for i in enemy["intents"]],
        "escalations": [f"{e['every']} ターンごとに {INTENTS[e['intent']['kind']](e['intent'], vocabulary)} が加わる"
                        for e in enemy["escalations"]],
        "traits": [TRAITS[t["trait"]](t) for t in enemy["traits"]]
        + [phrase(e, vocabulary) for e in enemy["trait_effects"]],
        "source": enemy["source"], "highlighted": highlight(enemy["source"]["text"]),
    }


def histogram(meis: list[int], *, top: int, width: int = 560, height: int = 140,
              step: int = 10) -> dict:
    """Bars of an inline SVG: how many pages per 銘 band of ``step`` years."""
    bands = list(range(0, max([top, *meis]) + 1, step))
    counts = [sum(1 for m in meis if b <= m < b + step) for b in bands]
    peak = max(counts + [1])
    bar = width / max(1, len(bands))
    bars = []
    for i, (band, count) in enumerate(zip(bands, counts)):
        h = round((height - 30) * count / peak, 1)
        bars.append({"x": round(i * bar + 2, 1), "y": round(height - 18 - h, 1),
                     "w": round(bar - 4, 1), "h": h, "count": count,
                     "label": f"{band}", "beyond": band > top})
    return {"width": width, "height": height, "bars": bars}


def example_views(examples: list[dict], sources: dict[str, str]) -> dict[str, list]:
    """Examples by the page or enemy they prove: the one they stand under, the enemies
    they fight and the pages they act on."""
    found: dict[str, list] = {}
    for spec in examples:
        lines = sources.get(spec["path"], "").split("\n")
        view = {"title": spec["name"], "where": f"{spec['path']}:{spec['line']}",
                "highlighted": highlight("\n".join(lines[spec["line"] - 1: spec["end_line"]]))}
        ids = {spec.get("subject"), *spec["enemies"]}
        for step in spec["steps"]:
            ids.update([step.get("page")] + list(step.get("pages", [])))
        for ident in sorted(i for i in ids if i):
            found.setdefault(ident, []).append(view)
    return found


def render(tables, examples: dict[str, list] | None = None) -> str:
    """The whole catalog as one HTML document; ``examples`` from ``example_views``."""
    examples = examples or {}
    starter = Counter(tables.starter())
    pages = [{**_page_view(p, tables, starter), "examples": examples.get(p["id"], [])}
             for p in sorted(tables.pages.values(), key=lambda p: (p["mei"], p["id"]))]
    enemies = [{**_enemy_view(e, tables), "examples": examples.get(e["id"], [])}
               for e in sorted(tables.enemies.values(), key=lambda e: e["id"])]
    by_origin: dict[str, list] = {}
    for page in pages:
        by_origin.setdefault(page["origin"], []).append(page)
    index: dict[str, dict] = {}
    for page in pages:
        for code, name in zip(page["touched"], page["touched_names"]):
            entry = index.setdefault(code, {"name": name, "pages": []})
            entry["pages"].append(page)
    cap = tables.balance["lifespan_cap"]
    context = {
        # origins in the order of life: by the youngest 銘 among their pages
        "pages": pages, "enemies": enemies,
        "by_origin": sorted(by_origin.items(), key=lambda kv: (min(p["mei"] for p in kv[1]),
                                                               kv[0])),
        "index": sorted(index.items(), key=lambda kv: kv[1]["name"]),
        "all_hist": histogram([p["mei"] for p in pages], top=cap),
        "starter_hist": histogram([tables.pages[p]["mei"] for p in tables.starter()], top=cap),
        "cap": cap, "starter_count": sum(starter.values()),
        "variables": sorted({(c, n) for p in pages for c, n in zip(p["touched"],
                                                                    p["touched_names"])},
                            key=lambda cn: cn[1]),
    }
    return environment().get_template("index.html.j2").render(**context)


def write(tables, out: Path, examples: dict[str, list] | None = None) -> Path:
    """Render into ``out`` (created if needed) atomically; returns the index path."""
    from compiler.build import write_atomically

    write_atomically(out, {"index.html": render(tables, examples)})
    return out / "index.html"
