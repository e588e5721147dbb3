"""戦闘画面 — the battle as the terminal shows it after every action (rich renderables).

From the top: the stage, turn and enemy (HP, 座, 予兆, 特性); 綻び against the 突破ライン
and the damage multiplier now; the player (HP, 歩 and its next refill, 防御 by lifetime,
通貨, pens and tears left) and the piles; the number line 0..寿命上限 with 刻, 座 and the
hand's numbers at their 銘; the board (場: every continuing 作用 and lifetime-bound value in
force, where it came from and what remains of it); the hand, each page with the face that
would fire, its cost, whether it crosses 座, the damage it would deal if played now (played
out on a copy of the battle; marked ``!`` when the enemy's HP left stops it short), why it
cannot be played, and what a pen would write with the 綻び it adds.

``screen(battle, width, height, ascii)`` fits the screen to the terminal: below 100
columns the layout is compact, and with a height the hand gives up detail, then rows
("… あと N 枚"), so that the enemy and the player stay on screen. ``ascii`` replaces the
symbols of ambiguous East Asian width (●▼─■…), which some terminals draw double, by ASCII.
rich measures East Asian widths, so Japanese columns align.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from rich.cells import cell_len
from rich.console import Group
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from catalog.phrasing import body_lines, phrase, term, torn
from contract import vocabulary as vocab
from contract.linebreak import line_spans, shown
from contract.vocabulary import W
from contract.game import Choose, Pen, Play
from runtime.battle import SIDES, Refused
from runtime.bounds import land

from .narrate import EXPIRY, SIDE, VARIABLE, intent_text

__all__ = ["screen", "number_line", "enemy_panel", "player_panel", "pile_counts", "board_panel",
           "hand_table",
           "choice_table", "pen_preview", "pen_fray", "pen_fray_text", "tear_preview",
           "damage_preview", "DamagePreview"]

#: Below this many columns the screen is laid out compact.
COMPACT_BELOW = 100
#: Symbol → (the symbol, its ASCII stand-in) — the marks the screen draws itself.
MARKS = {
    "axis": ("─", "-"), "age": ("●", "@"), "seat": ("▼", "v"), "both": ("◆", "X"),
    "full": ("■", "#"), "empty": ("□", "."), "yes": ("○", "o"), "beyond": ("»", ">"),
    "more": ("…", "..."), "arrow": ("→", "->"), "no": ("×", "x"),
}
#: Characters of ambiguous width in text (rules text, refusals) → ASCII, in ascii mode.
ASCII_TEXT = {"×": "x", "→": "->", "≥": ">=", "≤": "<=", "…": "...", "─": "-", "●": "@",
              "▼": "v", "◆": "X", "■": "#", "□": ".", "○": "o", "»": ">>", "«": "<<",
              "−": "-", "±": "+-", "≈": "~=", "°": "o", "※": "*"}
#: One character for one, for what rich itself inserts (an ellipsis when it truncates).
_ASCII_CELL = {"…": "~", "≈": "~", "≥": ">", "≤": "<", "»": ">", "«": "<", "±": "+"}


def _to_ascii(text: str) -> str:
    if text.isascii():
        return text
    return "".join(ASCII_TEXT.get(ch, ch) for ch in text)


def _cell_ascii(ch: str) -> str:
    if unicodedata.east_asian_width(ch) != "A":
        return ch
    out = _ASCII_CELL.get(ch) or ASCII_TEXT.get(ch, "?")
    return out if len(out) == 1 else "?"


class _Paint:
    """The screen's symbols and text for one rendering: as drawn, or as ASCII."""

    def __init__(self, ascii: bool):
        self.ascii = ascii

    def mark(self, name: str) -> str:
        return MARKS[name][1 if self.ascii else 0]

    def s(self, text: str) -> str:
        """Designer text as drawn: never a character that would move the cursor or
        start an escape (contract.linebreak.shown; lint refuses them in content, and a
        save or a script may still hold one)."""
        text = shown(text)
        return _to_ascii(text) if self.ascii else text

    def t(self, text: str = "", style=None) -> Text:
        return Text(self.s(text), style=style)


_DRAWN = _Paint(False)


# ------------------------------------------------------------------ number line

def number_line(battle, width: int = 76, paint: _Paint = _DRAWN) -> Text:
    """0 ──●──▼── cap, with the hand's numbers under the 銘 they stand for: pages of one
    銘 share a label (2,5), labels that would overlap go on a row of their own, a page
    beyond 寿命上限 is at the end with », and 刻 = 座 is one combined mark."""
    s = battle.state
    cap = max(1, s.param("lifespan_cap"))
    tail = f" {cap}"
    line_width = max(10, width - 2 - len(tail))

    def col(value: int) -> int:
        return min(line_width - 1, round(max(0, value) / cap * (line_width - 1)))

    at_col: dict[int, list[str]] = {}
    for index, uid in enumerate(battle.hand, 1):
        year = battle.year(uid)
        label = str(index) if year <= cap else f"{index}{paint.mark('beyond')}"
        at_col.setdefault(col(year), []).append(label)
    rows: list[list[str]] = []
    for at in sorted(at_col):
        label = ",".join(at_col[at])
        start = max(0, min(at, line_width - len(label)))
        for row in rows:  # the first row where it fits with a space on either side
            if all(c == " " for c in row[max(0, start - 1):start + len(label) + 1]):
                break
        else:
            row = [" "] * line_width
            rows.append(row)
        row[start:start + len(label)] = label
    age, seat = s.age, battle.seat
    axis = [paint.mark("axis")] * line_width
    axis[col(seat)] = paint.mark("seat")
    axis[col(age)] = paint.mark("both") if col(age) == col(seat) else paint.mark("age")
    styles = {paint.mark("age"): "bold cyan", paint.mark("seat"): "bold red",
              paint.mark("both"): "bold magenta"}
    text = Text("0 ")
    for ch in axis:
        text.append(ch, style=styles.get(ch, "dim"))
    text.append(tail)
    for row in rows or [[" "] * line_width]:
        text.append("\n  ")
        text.append("".join(row).rstrip(), style="yellow")
    age_word, seat_word = W.variable.age, W.variable.seat
    legend = f"{paint.mark('age')} {age_word} {age}   {paint.mark('seat')} {seat_word} {seat}"
    if col(age) == col(seat):
        legend += f"   {paint.mark('both')} {age_word}" + (" = " if age == seat else " ≈ ") + seat_word
    legend += f"   数字: {W.region.hand}の番号（{W.variable.year}の位置）"
    text.append("\n  " + paint.s(legend), style="dim")
    return text


# ------------------------------------------------------------------ the enemy

def enemy_panel(battle, paint: _Paint = _DRAWN, *, compact: bool = False,
                width: int = 100) -> Text:
    """The stage, the turn and the enemy: name, HP, 座, 突破ライン, 予兆, telegraphed seat
    moves, the traits that are not continuing 作用 (those are on the board panel); then
    綻び of the stage against the 突破ライン, of the run, and the damage multiplier."""
    s = battle.state
    enemy = battle.tables.enemies[battle.enemy_id]
    head = Text(f"{W.scope.stage} {s.stage_index + 1}/{len(s.stages)}  {W.scope.turn} {s.turn}",
                style="bold")
    name = Text(paint.s(enemy.name), style="bold red")
    first = [head, name, Text(f"HP {battle.enemy_hp}/{enemy.hp}"),
             Text(f"{W.variable.seat} {battle.seat}"), Text(f"突破ライン {enemy.breakthrough}")]
    arrow = f" {paint.mark('arrow')} "
    intents = arrow.join(intent_text(i) for i in battle.intents()) or "なし"
    second = [paint.t(f"予兆: {intents}")]
    moves = [placed["telegraph"] for placed in battle.placed() if "telegraph" in placed]
    if moves:  # the amount shown is the amount done after the Intents (DESIGN §6.1)
        second.append(paint.t("予告: " + "、".join(
            f"{W.variable.seat}{arrow}{m['to']}（{m['amount']:+}）" for m in moves)))
    traits = [_trait_text(t) for t in enemy.traits]
    if traits:
        second.append(paint.t("特性: " + " ／ ".join(traits)))
    text = _flow(first, width)
    for line in (second, fray_pieces(battle, paint, compact=compact)):
        text.append("\n")
        text.append_text(_flow(line, width))
    return text


def _trait_text(trait) -> str:
    """A trait as the vocabulary phrases it, e.g. 封鎖 40〜49. The panel is one line: the
    explanation the phrase adds in parentheses is the catalog's to show."""
    said = vocab.tables()["trait"].by_code(trait.trait).said()
    return said.format(value=trait.value, low=trait.low, high=trait.high).split("（")[0]


def damage_factors(battle) -> dict:
    """What multiplies a damage now (spec 002 with DESIGN §6.1): the 綻び multiplier
    1 + 綻び攻撃係数 × 綻び[ラン], 攻撃倍率 and 烙印 (products), 攻撃力補正 (a sum) and the
    enemy's per-hit 軽減."""
    s = battle.state
    coef = battle.tables.balance.fray_attack
    mods = battle.modifier_values("enemy_hp")
    return {"fray": 1 + coef * s.fray_run, "coef": coef, "mods": mods,
            "reduction": battle.enemy_trait("per_hit_reduction") or 0}


def _flow(pieces: list[Text], width: int, gap: str = "  ") -> Text:
    """Pieces side by side, a new line where the next would pass ``width``: a panel that
    wraps between its items, never inside one."""
    out, used = Text(), 0
    for piece in pieces:
        size = piece.cell_len
        if used and used + len(gap) + size > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(gap)
            used += len(gap)
        out.append_text(piece)
        used += size
    return out


def _num(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def fray_pieces(battle, paint: _Paint = _DRAWN, *, compact: bool = False) -> list[Text]:
    """綻び[ステージ] against the 突破ライン (a gauge), 綻び[ラン], the damage multiplier and
    the modifiers of damage in force."""
    s = battle.state
    enemy = battle.tables.enemies[battle.enemy_id]
    line = max(1, enemy.breakthrough)
    size = 8 if compact else 10
    filled = min(size, s.fray_stage * size // line)
    fray, run, stage = W.variable.fray, W.scope.run, W.scope.stage
    gauge = Text(f"{fray}[{stage}] {s.fray_stage}/{enemy.breakthrough} ")
    gauge.append(paint.mark("full") * filled + paint.mark("empty") * (size - filled),
                 style="magenta")
    factors = damage_factors(battle)
    no = paint.mark("no")
    pieces = [gauge, Text(f"{fray}[{run}] {s.fray_run}")]
    said = f"ダメージ {no}{factors['fray']:.2f}"
    if not compact:
        said += f"（1 + {W.balance.fray_attack} {_num(factors['coef'])} {no} {fray}[{run}]）"
    pieces.append(paint.t(said))
    for code, value in factors["mods"].items():
        pieces.append(paint.t(f"{VARIABLE[code]} {value:+g}" if code == "attack_add"
                              else f"{VARIABLE[code]} {no}{_num(value)}"))
    if factors["reduction"]:
        pieces.append(paint.t(f"{vocab.tables()['trait'].by_code('per_hit_reduction').ja} "
                              f"−{factors['reduction']}"))
    return pieces


# ------------------------------------------------------------------ the player

#: The timings after the next turn's refill at which a continuing 作用 adds to its 歩
#: (one at ターン開始時 comes before the refill, which sets 歩 anew).
REFILL_TIMINGS = ("after_steps_refill", "after_draw")


def _at_next_refill(battle, placed: dict) -> str:
    """How a placed 作用 changes the next turn's 歩 after its refill: "+" (adds), "−"
    (takes), "±" (another operation), or "" — not a 歩 作用 of those moments, or its range
    or its fires spent before the next turn (塾帰りの夜道 on its last turn)."""
    effect = placed["effect"]
    if effect.target.code != "steps" or effect.timing not in REFILL_TIMINGS:
        return ""
    repeat = effect.repeat
    if repeat.scope in ("play", "turn"):
        return ""
    if repeat.scope == vocab.ANCHORED and not _window_left(battle, placed):
        return ""
    if repeat.max is not None and placed["fires"] >= repeat.max:
        return ""
    if effect.op != "add":
        return "±"
    return "−" if effect.direction == "decrease" else "+"


def player_panel(battle, paint: _Paint = _DRAWN, *, compact: bool = False,
                 width: int = 100) -> Text:
    """The player: HP, 歩 now and the next refill (歩の規定量 + what 歩の持ち越し carries),
    防御 by lifetime, 通貨, pens and tears left; then the piles."""
    s = battle.state
    carry = max(0, min(s.steps, s.param("steps_carry")))
    refill = s.param("steps_quota") + carry
    steps = Text(f"{W.variable.steps} {s.steps}")
    # The refill itself: 歩 that continuing 作用 add (or take) after it, next turn, come
    # on top of it.
    signs = {_at_next_refill(battle, p) for p in battle.placed()} - {""}
    more = "" if not signs else f" {signs.pop() if len(signs) == 1 else '±'} 継続作用"
    steps.append(paint.s(f"（{'回復' if compact else '次の' + W.scope.turn + 'の回復'} {refill} = "
                         f"{W.variable.steps_quota} {s.param('steps_quota')} + 持ち越し {carry}"
                         f"{more}）"),
                 style="dim")
    defense = Text(f"{W.variable.defense} {s.defense_total()}")
    groups = [f"{EXPIRY[k]} {v}" for k, v in s.defense_by_expiry().items() if v]
    if groups:
        defense.append("（" + "・".join(groups) + "）")
    first = [Text("自分", style="bold cyan"), Text(f"HP {s.hp}/{s.param('max_hp')}"), steps,
             defense, Text(f"{W.variable.currency} {s.currency}"),
             Text(f"ペン残り {s.param('pen_cap') - s.pens_used}  "
                  f"破り残り {s.param('tear_cap') - s.tears_used}")]
    # The piles stay together, on the player's line when there is room.
    return _flow(first + [Text("  ").join(pile_pieces(battle))], width)


def pile_counts(battle) -> dict[str, int]:
    """How many pages each pile holds, by zone code (draw, discard, exile_stage,
    exile_run, torn)."""
    return {zone: battle.zone_size(zone) for zone in ("draw", "discard", "exile_stage", "exile_run",
                                                "torn")}


def pile_pieces(battle) -> list[Text]:
    """山札, 捨て札, 除外 (until the stage ends, for the run) and 破った, as counts."""
    counts = pile_counts(battle)
    return [Text(f"{W.region.draw} {counts['draw']}"), Text(f"{W.region.discard} {counts['discard']}"),
            Text(f"{W.region.exile} {W.scope.stage} {counts['exile_stage']}・{W.scope.run} "
                 f"{counts['exile_run']}"), Text(f"破った {counts['torn']}")]


# ------------------------------------------------------------------ the board

def _origin(battle, placed: dict) -> str:
    """Where a placed 作用 came from: a page's name, a tear, the enemy's trait, a reward."""
    origin = placed["origin"]
    kind, _, ident = origin.partition(":")
    if kind == "enemy":
        return f"特性（{battle.tables.enemies[ident].name}）"
    if kind == "tear":
        return f"{battle.tables.pages[ident].name}（{vocab.KEYWORDS['tear'][0]}）"
    if kind == "reward":
        return f"{W.variable.fray}報酬"
    if placed["page_uid"] is not None:
        return battle.page_of(placed["page_uid"]).name
    return origin


def remaining(battle, placed: dict) -> str:
    """What remains of a placed 作用's range: the fires left of its maximum, the plays or
    turns left of an anchored window; "" when it simply lasts to the end of its scope
    (which its rules text says)."""
    repeat = placed["effect"].repeat
    said = []
    if repeat.scope == vocab.ANCHORED:
        said.append(f"残り {_window_left(battle, placed)} {term('anchor_unit', repeat.unit).ja}")
    if repeat.max is not None:
        said.append(f"残り {repeat.max - placed['fires']}/{repeat.max} 回")
    return "・".join(said)


def _window_left(battle, placed: dict) -> int:
    """The plays or turns left of a placed 作用's anchored window (以降 n プレイ／ターン)."""
    s, repeat = battle.state, placed["effect"].repeat
    done = (s.plays_run if repeat.unit == "play" else s.turns_run) \
        - placed["placed"]["plays" if repeat.unit == "play" else "turns"]
    return max(0, repeat.n - done)


def board_lines(battle, paint: _Paint = _DRAWN) -> list[Text]:
    """One line per continuing 作用 on the board (its origin, its rules text, what
    remains, its scale when a tear scaled it) and per lifetime-bound value in force."""
    lines = []
    for placed in battle.placed():
        line = Text()
        line.append(paint.s(_origin(battle, placed)), style="bold")
        left = remaining(battle, placed)
        effect, how = placed["effect"], ""
        if placed["scale"] != 1:  # a torn page's: said as it landed, grown by its scale
            left = f"{paint.mark('no')}{placed['scale']:.2f}" + (f"・{left}" if left else "")
            effect, how = torn(effect, placed["scale"])
            how = f"（{how}）"
        if left:  # before the rules text, which a narrow screen cuts short
            line.append(f" [{left}]", style="yellow")
        line.append(": " + paint.s(phrase(effect, battle.tables.vocabulary)) + how)
        lines.append(line)
    for mod in battle.mods():
        lines.append(paint.t(_mod_text(mod)))
    return lines


def _mod_text(mod: dict) -> str:
    """A lifetime-bound value: a parameter raised or lowered, a flag, an assigned 銘."""
    lifetime = term("lifetime", mod["lifetime"]).said() if mod["lifetime"] else ""
    until = f"（{lifetime}）" if lifetime else ""
    if mod["kind"] == "param":
        return f"{vocab.KEYWORDS['cap'][0]}: {VARIABLE[mod['key']]} {mod['value']:+g}{until}"
    if mod["kind"] == "year":
        return f"「{mod['key']}」の{W.variable.year} = {mod['value']}{until}"
    sign = " = " if mod["op"] == "assign" else " += "
    return vocab.FLAG.said().format(flag=mod["key"]) + f"{sign}{mod['value']}{until}"


def board_panel(battle, paint: _Paint = _DRAWN, limit: int | None = None) -> Text | None:
    """The board (場) as one block, at most ``limit`` lines, each cut short at the edge of
    the screen when there is a limit; None when nothing is on it."""
    lines = board_lines(battle, paint)
    if not lines:
        return None
    if limit is not None and len(lines) > limit:
        keep = max(0, limit - 1)
        lines = lines[:keep] + [paint.t(f"{paint.mark('more')} あと {len(lines) - keep} 件"
                                        "（board で全部）", "dim")]
    text = Text("場 ", style="bold")
    if limit is not None:
        text.no_wrap, text.overflow = True, "ellipsis"
    for at, line in enumerate(lines):
        if at:
            text.append("\n   ")
        text.append_text(line)
    return text


# ------------------------------------------------------------------ previews

class DamagePreview(NamedTuple):
    """What playing a page would deal now (``damage_preview``)."""

    dealt: int  # what the enemy's HP would lose
    amount: int  # what the damage came to: more than ``dealt`` when the enemy's HP stops it
    chose: bool  # a player choice was answered on the way (with the first candidates)

    @property
    def capped(self) -> bool:
        """The enemy's HP left stops the damage short of what the page would deal."""
        return self.amount > self.dealt


def damage_preview(battle, uid: int) -> DamagePreview | None:
    """The damage playing ``uid`` would deal now, played out on a copy of the battle
    (the same random streams, so the same draws and picks), read from the copy's damage
    events: what lands, what the damage came to before the enemy's HP stopped it, and
    whether a player choice was answered on the way. None when it cannot be played."""
    # The state and streams as they stand, without a pending choice (Battle.copy would
    # wait in it and refuse the play): what the play would do once the choice is made.
    copy = battle.probe()
    events = []
    chose = False
    try:
        events += copy.apply(Play(uid))
        for _ in range(32):  # a choice can lead to another; a copy never waits for long
            pending = copy.pending
            if pending is None:
                break
            chose = True
            events += copy.apply(Choose(pending.candidates[:pending.count]))
    except Refused:
        return None
    hits = [event.data for event in events if event.kind == "damage"]
    return DamagePreview(sum(hit["dealt"] for hit in hits), sum(hit["amount"] for hit in hits),
                         chose)


def pen_preview(battle, uid: int, side: str) -> list[str]:
    """What a pen on face ``side`` of page ``uid`` would write, as rules text (restoring a
    blanked face says so instead)."""
    page = battle.page_of(uid)
    face = battle.face(uid, side)
    if face["state"] == "blank" and face["blanked"] is not None:
        return [f"{W.intent.blank}された面を元に戻す"]
    if page.pens[side] is None:
        return [vocab.NO_PEN_UPGRADE]
    return body_lines(page.pens[side], battle.tables.vocabulary)


def pen_fray(battle) -> int:
    """The 綻び a pen adds: the balance's fixed ペンの綻び, whatever the page (DESIGN §6.2:
    綻び倍率 does not scale it)."""
    return battle.tables.balance.pen_fray


def pen_fray_text(battle) -> str:
    """ペンの綻び +10（綻び[ステージ] 0 → 10/130）: what a pen adds, and where it takes the
    stage's 綻び against the 突破ライン (reaching it wins the stage)."""
    s = battle.state
    amount = pen_fray(battle)
    line = battle.tables.enemies[battle.enemy_id].breakthrough
    return (f"{W.balance.pen_fray} +{amount}（{W.variable.fray}[{W.scope.stage}] "
            f"{s.fray_stage} → {s.fray_stage + amount}/{line}）")


def _without_pen(battle, uid: int, side: str) -> bool:
    """A written face with no pen upgrade, not blanked: the hand says so (DESIGN §6.2)."""
    face = battle.face(uid, side)
    return (battle.page_of(uid).pens[side] is None and face["blanked"] is None
            and battle.page_of(uid).faces[side].written)


def tear_preview(battle, uid: int) -> list[str]:
    """What tearing page ``uid`` would do: the 綻び gained (distance × 綻び倍率) and its
    tear effects (破却効果) as scaled."""
    preview = battle.tear_preview(uid)
    fray_mul = battle.page_of(uid).fray_mul
    own = preview["distance"] * fray_mul
    how = f"{W.variable.distance} {preview['distance']} × {W.variable.fray_mul} {fray_mul}"
    if land(own) != preview["fray"]:  # the 綻び倍率 of continuing 作用 changed it
        how += f" = {own:g}、継続作用の{W.variable.fray_mul}で {preview['fray']}"
    lines = [f"{W.variable.fray} +{preview['fray']}（{how}）"]
    if preview["blank"]:
        lines.append("白紙ページなので破却効果はない")
    for effect in preview["effects"]:
        landed, how = torn(effect, preview["scale"])
        lines.append(f"破却効果 ×{preview['scale']:.2f}: "
                     + phrase(landed, battle.tables.vocabulary, default_timing="on_tear")
                     + f"（{how}）")
    return lines


# ------------------------------------------------------------------ the hand

def _hand_facts(battle) -> list[dict]:
    """Everything the hand table shows of each hand page, worked out once per screen."""
    vocabulary = battle.tables.vocabulary
    pens = {(a.uid, a.side) for a in battle.actions() if type(a) is Pen}
    # With the stage's pens spent, no face can be written: 「ペン強化なし」 rows would be the
    # only pen rows left, saying nothing of what can be done.
    pen_left = battle.state.pens_used < battle.state.param("pen_cap") and not battle.over
    # A play waiting for a choice moves 刻 only once it is answered: each page's cost,
    # face, crossing and damage are the new 刻's, not yet known (``mid_play``).
    moving = mid_play(battle)
    out = []
    for index, uid in enumerate(battle.hand, 1):
        info = battle.play_info(uid)
        if moving:
            sides = [side for side in SIDES if battle.face_body(uid, side) is not None]
            rules = [f"{SIDE[side]}: {line}" for side in sides
                     for line in body_lines(battle.face_body(uid, side), vocabulary)]
            out.append({"index": index, "uid": uid, "info": info, "name": battle.page_of(uid).name,
                        "sides": [], "rules": rules, "damage": None, "pens": []})
            continue
        sides = info["firing"] or info["sides"]
        rules = []
        for side in sides:
            rules += body_lines(battle.face_body(uid, side), vocabulary)
        preview = damage_preview(battle, uid) if info["playable"] else None
        out.append({"index": index, "uid": uid, "info": info, "name": battle.page_of(uid).name,
                    "sides": sides, "rules": rules, "damage": preview,
                    # (face, what the pen writes, the 綻び it adds — None: refused)
                    "pens": [(side, pen_preview(battle, uid, side),
                              pen_fray(battle) if (uid, side) in pens else None)
                             for side in SIDES
                             if (uid, side) in pens or (pen_left and _without_pen(battle, uid, side))]})
    return out


#: The mark after a damage the enemy's HP left stops short (the page would deal more),
#: and what the hand's note says of it.
CAPPED = "!"
CAPPED_NOTE = f"{W.variable.enemy_hp}で頭打ち（残りの{W.variable.enemy_hp}までしか通らない）"

#: How much of each page the hand table shows, most first: every line; one line each
#: for the rules, the refusal and the pens; one line per page.
DETAIL = ("full", "lines", "row")


def mid_play(battle) -> bool:
    """Whether a play waits for a choice its face asks: 刻 has not moved yet, so what
    another hand page would cost, fire and deal is not known until it is answered."""
    return battle.pending is not None and battle.in_play() is not None


#: What the hand says of its figures while a play waits for a choice.
MID_PLAY_NOTE = (f"{W.variable.steps}・面・{W.condition_word.crosses}・ダメージは"
                 f"{W.pick.choice}のあと、{W.variable.age}が動いてから決まります")


def in_play_words(battle, uid: int) -> str:
    """「プレイ中（選択のあと 捨て札へ）」: the hand page whose play waits for a choice."""
    where = getattr(W.destination, battle.page_of(uid).after_play)
    return f"{W.scope.play}中（{W.pick.choice}のあと {where}へ）"


def hand_table(battle, paint: _Paint = _DRAWN, *, compact: bool = False, detail="full",
               rows: int | None = None, facts: list[dict] | None = None,
               width: int | None = None):
    """The hand as a table: #, the page, 銘, cost in 歩, the firing face, whether it
    crosses, the damage if played now, and its rules text, why it cannot be played, and
    what a pen would write on each face — as much as ``detail`` (one of DETAIL, or one
    per page) allows; ``rows``: only the first so many pages, then "… あと N 枚". Below
    STACKED_BELOW columns of ``width`` each page is a block instead: its facts on one
    line, its rules under them at the screen's width (a table's rules column was a few
    characters wide there, a word a line)."""
    facts = _hand_facts(battle) if facts is None else facts
    details = [detail] * len(facts) if isinstance(detail, str) else list(detail)
    hand = _HandRows(battle, paint, compact)
    shown_rows = [hand.row(fact, detail)
                  for fact, detail in zip(facts if rows is None else facts[:rows], details)]
    caption = hand.caption(rows is not None and rows < len(facts), len(facts) - (rows or 0))
    if width is not None and width < STACKED_BELOW:
        return _hand_blocks(shown_rows, caption)
    # The rules column takes what the others leave (``width``: the screen's), so that
    # the short columns never give way to it.
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False,
                  padding=(0, 1, 0, 0), expand=width is not None, width=width)
    for name, justify in hand.columns():
        table.add_column(name, justify=justify, no_wrap=True,
                         max_width=12 if compact and name == "ページ" else None,
                         overflow="ellipsis")
    table.add_column("ルール", justify="left", overflow="ellipsis", ratio=1)
    for row in shown_rows:
        table.add_row(*(Text(c) for c in row.cells), row.body, style=row.style)
    if caption:
        table.caption = caption
        table.caption_justify = "left"
        table.caption_style = "dim"
    return table


#: Below this many columns the hand is shown a block a page (``hand_table``).
STACKED_BELOW = 60


class _HandRow(NamedTuple):
    """One page of the hand: its short cells (#, ページ, 銘, 歩, 面, 跨ぐ, ダメージ, painted),
    its rules (a renderable), and the row's style (dim when it cannot be played)."""
    cells: tuple
    body: object
    style: str | None


class _HandRows:
    """The hand's rows, and what its caption notes of them (a choice's damage, a cap)."""

    def __init__(self, battle, paint: _Paint, compact: bool):
        self.battle, self.paint, self.compact = battle, paint, compact
        # While a choice waits, choose takes the candidates' numbers: the hand's would
        # read as the same numbers for other pages, so the hand shows none.
        self.choosing = battle.pending is not None
        # The page whose face asks the choice is still in the hand until its play ends:
        # its row says so, not why it could not be played again now.
        self.in_play = battle.in_play() if self.choosing else None
        self.chose_any = self.capped_any = False

    def columns(self) -> tuple:
        """(name, justify) of the short columns."""
        crosses = W.condition_word.crosses
        return (("#", "right"), ("ページ", "left"), (W.variable.year, "right"),
                (W.variable.steps, "right"), ("面", "left"),
                (crosses[:1] if self.compact else crosses, "center"),
                ("ダメ" if self.compact else "ダメージ", "right"))

    def row(self, fact: dict, detail: str) -> _HandRow:
        battle, paint, in_play = self.battle, self.paint, self.in_play
        info = fact["info"]
        face_words = [getattr(W.face_word, x) if self.compact else SIDE[x] for x in fact["sides"]]
        damage = ""
        preview = fact["damage"]
        if preview is not None and preview.dealt:
            damage = str(preview.dealt) + ("*" if preview.chose else "") + \
                (CAPPED if preview.capped else "")
            self.chose_any |= preview.chose
            self.capped_any |= preview.capped
        reason = "" if info["playable"] or in_play is not None \
            else f"{paint.mark('no')} {info['reason']}"
        if fact["uid"] == in_play:
            reason = f"{paint.mark('arrow')} {in_play_words(battle, in_play)}"
        pens = [SIDE[side] + ("" if fray is None else f"（{W.variable.fray}+{fray}）") + ": "
                + " ／ ".join(lines) for side, lines, fray in fact["pens"]]
        # A blank face says 白紙 and its refusal says so again: the refusal is enough.
        rules = [] if reason and fact["rules"] == [vocab.KEYWORDS["blank"][0]] else fact["rules"]
        if detail == "full":
            cell = rules + ([reason] if reason else []) + [f"ペン {pen}" for pen in pens]
        elif detail == "lines":
            cell = ([" ／ ".join(rules)] if rules else []) + ([reason] if reason else []) + \
                   (["ペン " + "　".join(pens)] if pens else [])
        else:
            cell = [reason or " ／ ".join(fact["rules"])]
        # Designer text is plain text, never console markup: every cell is a Text.
        cells = ["·" if self.choosing else str(fact["index"]), fact["name"], str(info["year"]),
                 "" if in_play is not None else str(info["cost"]),
                 "・".join(face_words),
                 paint.mark("yes") if info["crosses"] and in_play is None else "", damage]
        body = Text(paint.s("\n".join(cell)))
        if detail != "full":
            body.no_wrap, body.overflow = True, "ellipsis"
        else:  # every line whole, broken as Japanese is: never cut, never left short
            body = RulesCell(body)
        return _HandRow(tuple(paint.s(c) for c in cells), body,
                        None if info["playable"] and not battle.over else "dim")

    def caption(self, cut: bool, left_out: int) -> str:
        """The notes under the hand ("" when none): the run over, a choice waiting, the
        pages left out (``cut``), the damage's asterisk and cap."""
        battle, paint = self.battle, self.paint
        notes = []
        if battle.over:  # every row's play would be refused, whatever its own reason says
            notes.append(f"{W.scope.run}は終わっています（もう{W.scope.play}できません）")
        if self.choosing:
            notes.append(f"{W.pick.choice}の途中: choose の番号は候補の表の番号です（{W.region.hand}の番号ではありません）")
        if self.in_play is not None:
            notes.append(MID_PLAY_NOTE)
        if cut:
            notes.append(f"{paint.mark('more')} あと {left_out} 枚（hand で全部）")
        if self.chose_any:
            notes.append(f"* {W.pick.choice}は候補の先頭で計算")
        if self.capped_any:
            notes.append(f"{CAPPED} {CAPPED_NOTE}")
        return paint.s("   ".join(notes))


def _hand_blocks(rows: list[_HandRow], caption: str) -> Group:
    """The hand a block a page, for a narrow screen: ``#`` and the page, then 銘, 歩, 面,
    跨ぐ and ダメージ each with its name (no header names them), then its rules indented."""
    from rich.padding import Padding

    crosses = W.condition_word.crosses  # its cell is a mark: the word alone says it
    names = (W.variable.year, W.variable.steps, "", crosses, "ダメージ")
    blocks = []
    for row in rows:
        number, page, *facts = row.cells
        said = [name if name == crosses else f"{name} {value}".strip()
                for name, value in zip(names, facts) if value]
        blocks.append(Text("  ".join([f"{number} {page}", *said]), style=row.style or ""))
        blocks.append(Padding(row.body, (0, 0, 0, 2), style=row.style or ""))
    if caption:
        blocks.append(Text(caption, style="dim"))
    return Group(*blocks)


class RulesCell:
    """A page's rules in its table cell, each line broken by the column's width as
    Japanese is (contract/linebreak.py: between characters, never before 。、） nor after
    （「, an ASCII word or a figure whole) — rich breaks only at spaces, leaving
    「敵HPに」 alone on a line before 「使用した歩［このプレイ］×1.2 のダメージ」."""

    def __init__(self, text: Text):
        self.text = text

    def __rich_measure__(self, console, options) -> Measurement:
        plain = self.text.plain
        # the narrowest a line can be: its widest piece that no break divides
        pieces = [plain[a:b] for line in plain.split("\n") for a, b in line_spans(line, 1)]
        return Measurement(max(map(cell_len, pieces), default=0),
                           max(map(cell_len, plain.split("\n")), default=0))

    def __rich_console__(self, console, options):
        for line in self.text.split("\n", allow_blank=True):
            for start, end in line_spans(line.plain, options.max_width):
                piece = line[start:end]
                piece.overflow = "fold"  # a piece wider than the column is folded, not cut
                yield piece


def choice_table(battle, paint: _Paint = _DRAWN) -> Table | None:
    """The candidates of the pending player choice (選択), numbered for ``choose``; None
    when nothing is to be chosen."""
    choice = battle.pending
    if choice is None:
        return None
    table = Table(title=f"{W.pick.choice}: {choice.count} 枚を選ぶ（choose 番号…）", box=None,
                  min_width=40, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("ページ")
    for index, candidate in enumerate(choice.candidates, 1):
        page_id = candidate if isinstance(candidate, str) else battle.page_id(candidate)
        table.add_row(Text(str(index)), Text(paint.s(battle.tables.pages[page_id].name)))
    return table


# ------------------------------------------------------------------ the screen

class BattleScreen:
    """The screen as a renderable: laid out when printed, at the given size or else the
    console's (a terminal's height less the prompt's line; no height limit off a
    terminal, so that transcripts show everything)."""

    def __init__(self, battle, width: int | None, height: int | None, ascii: bool,
                 only: str | None = None):
        self.battle, self.width, self.height, self.ascii = battle, width, height, ascii
        self.only = only

    def __rich_console__(self, console, options):
        width = min(self.width or options.max_width, options.max_width)
        height = self.height
        if height is None and console.is_terminal:
            height = max(8, console.height - 1)
        options = options.update(width=width, height=None)
        if self.only is not None:
            parts = [WHOLE_PARTS[self.only](self.battle, width, _Paint(self.ascii))]
        else:
            parts = layout(self.battle, width, height, _Paint(self.ascii),
                           lambda part: len(console.render_lines(part, options, pad=False)))
        for part in parts:
            for segment in console.render(part, options):
                if self.ascii and not segment.text.isascii():
                    segment = Segment("".join(map(_cell_ascii, segment.text)), segment.style,
                                      segment.control)
                yield segment


#: A part of the screen a command shows alone and whole, by the command's name: what a
#: screen fitted to a small terminal cuts short says which command shows the rest.
WHOLE_PARTS = {
    "hand": lambda battle, width, paint: hand_table(battle, paint, compact=width < COMPACT_BELOW,
                                                    width=width),
    "board": lambda battle, width, paint: board_panel(battle, paint) or Text("場 （なし）"),
}


def layout(battle, width: int, height: int | None, paint: _Paint, measure) -> list:
    """The parts of the screen, top to bottom, fitted into ``height`` lines when given
    (``measure`` counts the lines a part takes): the enemy, the player, the number line
    and any choice always; the board at most a third of what is left; the hand in as
    much detail as fits, then only its first pages."""
    compact = width < COMPACT_BELOW
    top = [enemy_panel(battle, paint, compact=compact, width=width),
           player_panel(battle, paint, compact=compact, width=width),
           number_line(battle, width, paint)]
    choice = choice_table(battle, paint)
    if choice is not None:
        top.append(choice)
    facts = _hand_facts(battle)
    if height is None:
        board = board_panel(battle, paint)
        return top + ([board] if board else []) + [hand_table(battle, paint, compact=compact,
                                                              facts=facts, width=width)]
    left = height - sum(measure(part) for part in top)
    board_count = len(board_lines(battle, paint))
    board = None
    if board_count:
        # A third of what is left, and room for one 作用 and "… あと N 件" at least.
        board = board_panel(battle, paint, limit=min(board_count, max(2, left // 3)))
        left -= measure(board)
    parts = top + ([board] if board else [])

    def fits(detail, rows=None):
        table = hand_table(battle, paint, compact=compact, detail=detail, rows=rows,
                           facts=facts, width=width)
        return table if measure(table) <= left else None

    for detail in DETAIL[:-1]:
        table = fits(detail)
        if table is not None:
            return parts + [table]
    # One line a page, and the lines left to the first pages' detail, in hand order.
    details = ["row"] * len(facts)
    table = fits(details)
    if table is not None:
        for at in range(len(facts)):
            details[at] = "lines"
            better = fits(details)
            if better is None:
                details[at] = "row"
            else:
                table = better
        return parts + [table]
    # Only the first pages, as many as fit — none at all when nothing fits or the hand is
    # empty: the table then holds only what it says of the pages left out.
    for rows in range(max(len(facts) - 1, 0), -1, -1):
        table = hand_table(battle, paint, compact=compact, detail="row", rows=rows, facts=facts,
                           width=width)
        if measure(table) <= left:
            break
    return parts + [table]


def screen(battle, width: int | None = None, height: int | None = None,
           ascii: bool = False, only: str | None = None) -> Group:
    """The whole battle screen, fitted to ``width`` × ``height`` (the terminal's size;
    None: the console's width, and the terminal's height when it is one). ``ascii``:
    ASCII for the symbols of ambiguous width. ``only``: one part of WHOLE_PARTS alone and
    whole, however long (the ``hand`` and ``board`` commands: what a small terminal's
    screen leaves out)."""
    return Group(BattleScreen(battle, width, height, ascii, only))
