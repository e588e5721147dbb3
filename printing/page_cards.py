"""ページと敵の札 — the pages and the enemies of the compiled tables as printable cards.

The words are the catalog's, never rephrased here: each card is made from the catalog's
own view of the page (``catalog.render.page_view``: the faces' rules text, the pen's
difference, 破却) and of the enemy (``enemy_view``: its Intents turn by
turn), joined into plain lines with ``catalog.phrasing.text``. A page's 銘 is its card's
``mark`` (drawn on a number line up to 寿命上限); an enemy has none.
"""

from __future__ import annotations

from contract.vocabulary import W

from .cards import Card, Section

#: How many of an enemy's first turns its card shows (the catalog shows HORIZON of them,
#: a card has room for fewer).
TURNS_SHOWN = 4

#: Where a page goes after its play unless it says otherwise (行き先 as the catalog names it).
DEFAULT_AFTER_PLAY = W.destination.discard

#: The catalog's legend of a pen's difference with its face (index.html.j2's ＋ － ＝).
PEN_MARKS = {"added": "＋", "removed": "－", "kept": "＝"}


def page_cards(tables) -> list[Card]:
    """One card per page, in the catalog's order (by 銘, then id)."""
    from catalog.render import page_view

    cap = tables.balance.lifespan_cap
    pages = sorted(tables.pages.values(), key=lambda p: (p.year, p.id))
    return [_page_card(page_view(page, tables), cap, tables.balance.deck_cap_default)
            for page in pages]


def _page_card(view: dict, cap: int, deck_cap: int) -> Card:
    from catalog.phrasing import text

    sections = []
    for face in view["faces"]:
        lines = [text(line) for line in face["lines"]] if face["written"] else []
        if face["pen"]:
            # the catalog's words for the pen (index.html.j2), each row with its diff mark
            lines.append("ペン（作用列を差し替える・条件は残る）:" if face["written"]
                         else "ペン（白紙の面に書き込む）:")
            lines += [PEN_MARKS[row["mark"]] + text(row["pieces"]) for row in face["pen"]]
        if face["no_pen"]:
            lines.append(face["no_pen"])
        heading = face["word"] + ("" if face["written"] else "（白紙）")
        sections.append(Section(heading, tuple(lines)))
    tear = view["tear"]
    if tear:
        heading = "破却効果" + ("（白紙ページなので得られない）" if tear["blank"] else "")
        sections.append(Section(heading, (" ／ ".join(text(line) for line in tear["lines"]),
                                           tear["scale"])))
    if view["appears"]:  # the catalog's 出現条件 (index.html.j2)
        sections.append(Section("出現条件", ("、".join(text(c) for c in view["appears"]),)))
    badges = ((W.variable.year, str(view["year"])), (W.variable.fray_mul, str(view["fray_mul"])),
              ("出自", view["origin"]))
    # what the catalog says beside them, where it is not the rule every page has: a page
    # that leaves the game after its play, or a deck limit of its own
    if view["after_play"] != DEFAULT_AFTER_PLAY:
        badges += ((f"{W.scope.play}後", view["after_play"]),)
    if view["deck_cap"] != deck_cap:
        badges += (("デッキ内上限", f"{view['deck_cap']} 枚"),)
    return Card(key=f"page/{view['id']}", kind="page", title=view["name"], badges=badges,
                sections=tuple(sections), flavour=view["flavor"] or "", mark=view["year"],
                mark_top=cap)


def enemy_cards(tables) -> list[Card]:
    """One card per enemy, in the catalog's order (by id)."""
    from catalog.render import enemy_view, page_names

    pages = page_names(tables)
    return [_enemy_card(enemy_view(e, tables.balance.lifespan_cap, pages))
            for e in sorted(tables.enemies.values(), key=lambda e: e.id)]


def _enemy_card(view: dict) -> Card:
    from catalog.phrasing import text

    sections = [Section("予兆", (" → ".join(view["intents"]),)
                        + tuple(f"エスカレーション: {line}" for line in view["escalations"]))]
    # the catalog's timeline (_enemy_turns.html.j2), a line a turn: ＋ marks an added Intent
    turns = tuple(
        f"{t['turn']}: " + "・".join(("＋" if i["new"] else "") + i["text"] for i in t["intents"])
        + f"（{W.intent.attack}の合計 {t['attack']}、{W.variable.seat} {t['seat']}）"
        for t in view["turns"][:TURNS_SHOWN])
    sections.append(Section(W.scope.turn, turns))
    if view["trait_lines"]:
        sections.append(Section("特性", tuple(text(line) for line in view["trait_lines"])))
    badges = ((W.variable.seat, str(view["seat"])), ("HP", str(view["hp"])),
              ("突破ライン", str(view["breakthrough"])))
    return Card(key=f"enemy/{view['id']}", kind="enemy", title=view["name"], badges=badges,
                sections=tuple(sections), flavour=view["flavor"] or "")
