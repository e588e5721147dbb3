"""戦闘画面 — the battle as the terminal shows it after every action (rich renderables).

Shows the number line 0..寿命上限 with 刻, 座 and the 銘 of each hand page; the enemy;
the player; the hand as a numbered table with cost, the face that would fire, whether
it crosses 座, and that face's rules text. rich measures East Asian widths, so Japanese
columns align.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from catalog.phrasing import body_lines, phrase
from contract import vocabulary as vocab

from .narrate import EXPIRY, SIDE, intent_text
from contract.vocabulary import W

LINE_WIDTH = 72


def number_line(battle) -> Text:
    """0 ──●──▼── cap, with hand numbers under the 銘 they stand for."""
    s = battle.state
    cap = max(1, s.param("lifespan_cap"))

    def col(value: int) -> int:
        return min(LINE_WIDTH - 1, round(max(0, value) / cap * (LINE_WIDTH - 1)))

    axis = ["─"] * LINE_WIDTH
    marks = [" "] * LINE_WIDTH
    for index, uid in enumerate(battle.hand, 1):
        year = battle.year(uid)
        at = col(year)
        label = str(index) if year <= cap else f"{index}»"
        for offset, ch in enumerate(label):
            if at + offset < LINE_WIDTH and marks[at + offset] == " ":
                marks[at + offset] = ch
    axis[col(s.enemy["seat"])] = "▼"
    axis[col(s.age)] = "●"
    text = Text()
    text.append("0 ")
    for ch in axis:
        style = {"●": "bold cyan", "▼": "bold red"}.get(ch, "dim")
        text.append(ch, style=style)
    text.append(f" {cap}\n  ")
    text.append("".join(marks), style="yellow")
    text.append(f"\n  ● {W.variable.age} {s.age}   ▼ {W.variable.seat} {s.enemy['seat']}   数字: {W.region.hand}の番号（{W.variable.year}の位置）")
    return text


def enemy_panel(battle) -> Text:
    """The enemy's panel: name, HP, 座, the 突破ライン gauge, 予兆, telegraphed seat moves
    and 特性."""
    s = battle.state
    enemy = battle.tables.enemies[s.enemy["id"]]
    text = Text()
    text.append(enemy.name, style="bold red")
    text.append(f"  HP {s.enemy['hp']}/{enemy.hp}   {W.variable.seat} {s.enemy['seat']}   ")
    filled = min(10, s.fray_stage * 10 // max(1, enemy.breakthrough))
    text.append(f"突破ライン {s.fray_stage}/{enemy.breakthrough} ")
    text.append("■" * filled + "□" * (10 - filled), style="magenta")
    intents = " → ".join(intent_text(i) for i in s.enemy["turn_intents"]) or "なし"
    text.append(f"\n予兆: {intents}")
    moves = [placed["telegraph"] for placed in s.effects if "telegraph" in placed]
    if moves:  # the amount shown is the amount done after the Intents (DESIGN §6.1)
        text.append("  予告: " + "、".join(f"{W.variable.seat} → {m['to']}（{m['amount']:+}）" for m in moves))
    traits = [_trait_text(t) for t in enemy.traits]
    traits += [phrase(e, battle.tables.vocabulary) for e in enemy.trait_effects]
    if traits:
        text.append("\n特性: " + " ／ ".join(traits))
    return text


def _trait_text(trait) -> str:
    """A trait as the vocabulary phrases it, e.g. 封鎖 40〜49. The panel is one line: the
    explanation the phrase adds in parentheses is the catalog's to show."""
    said = vocab.tables()["trait"].by_code(trait.trait).said()
    return said.format(value=trait.value, low=trait.low, high=trait.high).split("（")[0]


def player_panel(battle) -> Text:
    """The player's panel: HP, 歩, 防御 (by lifetime), 綻び, and the pens and tears left."""
    s = battle.state
    text = Text()
    text.append("自分", style="bold cyan")
    text.append(f"  HP {s.hp}/{s.param('max_hp')}   {W.variable.steps} {s.steps}   {W.variable.defense} {s.defense_total()}")
    groups = [f"{EXPIRY[k]} {v}" for k, v in s.defense_by_expiry().items() if v]
    if groups:
        text.append("（" + "・".join(groups) + "）")
    text.append(f"\n{W.variable.fray} {W.scope.stage} {s.fray_stage}・{W.scope.run} {s.fray_run}   "
                f"ペン残り {s.param('pen_cap') - s.pens_used}   "
                f"破り残り {s.param('tear_cap') - s.tears_used}")
    return text


def hand_table(battle) -> Table:
    """The hand as a table: each page's 銘, cost in 歩, firing face, whether it crosses,
    its rules text, and why it cannot be played when it cannot."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name, justify in (("#", "right"), ("ページ", "left"), (W.variable.year, "right"),
                          (W.variable.steps, "right"), ("面", "left"), (W.condition_word.crosses, "center"),
                          ("ルール", "left")):
        table.add_column(name, justify=justify)
    vocabulary = battle.tables.vocabulary
    for index, uid in enumerate(battle.hand, 1):
        info = battle.play_info(uid)
        page = battle.page_of(uid)
        sides = info["firing"] or info["sides"]
        rules = []
        for side in sides:
            rules += body_lines(battle.face_body(uid, side), vocabulary)
        face = "・".join(SIDE[x] for x in sides)
        style = None if info["playable"] else "dim"
        reason = "" if info["playable"] else f"\n× {info['reason']}"
        # Designer text is plain text, never console markup: every cell is a Text.
        cells = (str(index), page.name, str(info["year"]), str(info["cost"]), face,
                 "○" if info["crosses"] else "", "\n".join(rules) + reason)
        table.add_row(*map(Text, cells), style=style)
    return table


def choice_table(battle) -> Table | None:
    """The candidates of the pending player choice (選択), numbered for ``choose``; None
    when nothing is to be chosen."""
    choice = battle.choice
    if choice is None:
        return None
    table = Table(title=f"{W.pick.choice}: {choice['count']} 枚を選ぶ（choose 番号…）", box=None,
                  min_width=40, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("ページ")
    for index, candidate in enumerate(choice["candidates"], 1):
        page_id = candidate if isinstance(candidate, str) else battle.state.pages[candidate]["page"]
        table.add_row(Text(str(index)), Text(battle.tables.pages[page_id].name))
    return table


def screen(battle) -> Group:
    """The whole battle screen: stage and turn, the enemy, the number line, the player, the
    hand, and any pending choice."""
    s = battle.state
    head = Text(f"{W.scope.stage} {s.stage_index + 1}/{len(s.stages)}   {W.scope.turn} {s.turn}", style="bold")
    parts = [head, enemy_panel(battle), number_line(battle), player_panel(battle),
             Text(W.region.hand, style="bold"), hand_table(battle)]
    table = choice_table(battle)
    if table is not None:
        parts.append(table)
    return Group(*parts)


def pen_preview(battle, uid: int, side: str) -> list[str]:
    """What a pen on face ``side`` of page ``uid`` would write, as rules text (restoring a
    blanked face says so instead)."""
    page = battle.page_of(uid)
    face = battle.state.pages[uid]["faces"][side]
    if face["state"] == "blank" and face["blanked"] is not None:
        return [f"{W.intent.blank}された面を元に戻す"]
    return body_lines(page.pens[side], battle.tables.vocabulary)


def tear_preview(battle, uid: int) -> list[str]:
    """What tearing page ``uid`` would do: the 綻び gained (distance × 綻び倍率) and its
    tear effects (破却効果) as scaled."""
    preview = battle.tear_preview(uid)
    lines = [f"{W.variable.fray} +{preview['fray']}（{W.variable.distance} {preview['distance']} × {W.variable.fray_mul} "
             f"{battle.page_of(uid).fray_mul}）"]
    if preview["blank"]:
        lines.append("白紙ページなので破却効果はない")
    for effect in preview["effects"]:
        lines.append(f"破却効果 ×{preview['scale']:.2f}: "
                     + phrase(effect, battle.tables.vocabulary, default_timing="on_tear"))
    return lines
