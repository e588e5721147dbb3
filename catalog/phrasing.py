"""ルール文 — natural Japanese rules text generated from the compiled 作用.

Rules text can never drift from behaviour because it is made from the same tables the
runtime executes. Each term has its own phrasing rule (the tables below); every term that
is not implied by the others appears in the text, so two 作用 that differ in any term
never read the same.
"""

from __future__ import annotations

#: 繰り返し範囲 → the opening words of a continuing 作用.
REPEAT_WORDS = {
    "play": "このプレイ中",
    "turn": "このターン中",
    "stage": "ステージ中",
    "run": "ラン中ずっと",
}
#: 値の寿命 → how long the value lives, said after it.
LIFETIME_WORDS = {
    "on_hit": "被弾1回まで",
    "play": "このプレイの間",
    "turn": "ターン終了まで",
    "stage": "ステージ終了まで",
    "run": "ラン終了まで",
}
#: Scope subscripts of references, as the catalog prints them.
SCOPE_WORDS = {"play": "このプレイ", "turn": "このターン", "stage": "このステージ", "run": "このラン"}
PICK_WORDS = {"random": "ランダムに", "top": "上から", "choice": "選んで"}
OP_WORDS = {">=": "≥", "<=": "≤", "==": "＝", "!=": "≠", ">": "＞", "<": "＜"}
#: Timings a one-shot 作用 has by default in some block; said only when it matters.
ONE_SHOT_TIMINGS = {"on_play": "プレイ時", "on_tear": "破った時", "on_reward": "綻び報酬の時"}


def number(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def scope_text(scope: str, unit: str | None, n: int | None) -> str:
    if scope == "anchored":
        return f"以降 {n} {'プレイ' if unit == 'play' else 'ターン'}"
    return SCOPE_WORDS[scope]


def ref_text(ref: dict, vocabulary: dict) -> str:
    kind = ref["kind"]
    if kind == "counter":
        name = vocabulary["counters"][ref["counter"]]["name"]
        return f"{name}［{scope_text(ref['scope'], ref.get('unit'), ref.get('n'))}］"
    if kind == "variable":
        return vocabulary["variables"][ref["variable"]]["name"]
    if kind == "flag":
        return f"フラグ「{ref['flag']}」"
    if kind == "region_count":
        return f"{vocabulary['regions'][ref['region']]['name']}の枚数"
    if kind == "page_count":
        return f"{vocabulary['regions'][ref['region']]['name']}にある「{ref['page']}」の枚数"
    if kind == "page_attr":
        return f"「{ref['page']}」の銘"
    if kind == "distance":
        return "|銘 − 刻|"
    if kind == "tiles_passed":
        return f"通過したマス［{ref['tile']}］"
    return kind


def base_text(base: dict | None, vocabulary: dict) -> str:
    if base is None:
        return ""
    if base["kind"] == "const":
        return number(base["value"])
    text = ref_text(base["ref"], vocabulary)
    return text if base["coef"] == 1 else f"{text}×{number(base['coef'])}"


def _body(effect: dict, vocabulary: dict) -> str:
    """What the 作用 does (target, operation, base, landing)."""
    ja = effect["ja"]
    base = base_text(effect["base"], vocabulary)
    op, target = effect["op"], ja["target"]
    fixed = "（補正を受けない）" if effect["landing"] == "fixed" and op == "add" else ""
    if op == "add":
        if effect["target"]["code"] == "enemy_hp":
            said = f"敵HPに {base} のダメージ" if effect["direction"] == "decrease" \
                else f"敵HPを {base} 回復"
        else:
            sign = "−" if effect["direction"] == "decrease" else "+"
            said = f"{target}{sign}{base}"
        return said + fixed
    if op == "mul":
        return f"{target}×{base}"
    if op == "assign":
        return f"{target}を {base} にする"
    if op == "cap":
        sign = "−" if effect["direction"] == "decrease" else "+"
        return f"{target}{sign}{base}"
    if op == "pay":
        return f"{target}を {base} 支払う"
    if op == "suppress":
        return "刻を更新しない"
    if op == "reveal":
        # shown in order and left so: the next draws take them as shown (spec 002)
        return f"山札の上から {effect['count']} 枚を公開する（その順に引く）"
    count = f"{effect['count']}枚"
    flt = _filter_text(effect["filter"])
    if op == "move":
        return (f"{ja['source']}から{flt}{count}を{PICK_WORDS[effect['pick']]}"
                f"{ja['dest']}へ移す")
    if op == "generate":
        return f"{flt or 'いずれかの'}ページを{count}、{PICK_WORDS[effect['pick']]}生成して{ja['dest']}へ"
    return f"{ja['source']}の{flt}{count}を{PICK_WORDS[effect['pick']]}複製して{ja['dest']}へ"


def _filter_text(flt: dict | None) -> str:
    if not flt:
        return ""
    parts = []
    if "origin" in flt:
        parts.append(f"出自「{flt['origin']}」")
    if "mei" in flt:
        parts.append(f"銘 {flt['mei'][0]}〜{flt['mei'][1]}")
    if "page" in flt:
        parts.append(f"「{flt['page']}」")
    return "・".join(parts) + "の"


def phrase(effect: dict, vocabulary: dict, *, default_timing: str = "on_play") -> str:
    """One 作用 as one sentence, e.g. 「ステージ中、ターン開始時に 防御+5（ターン終了まで）」."""
    repeat = effect["repeat"]
    timing = effect["timing"]
    one_shot = repeat["scope"] == "play" and repeat["max"] == 1 and repeat["n"] is None
    head = []
    if not one_shot:
        scope = scope_text(repeat["scope"], repeat["unit"], repeat["n"])
        scope = REPEAT_WORDS.get(repeat["scope"], f"{scope}の間")
        if repeat["max"] is not None:
            scope += f"（最大 {repeat['max']} 回）"
        head.append(scope + "、")
    if timing == "always":
        head.append("常に ")
    elif not one_shot or timing != default_timing:
        name = ONE_SHOT_TIMINGS.get(timing) or vocabulary["timings"][timing]["name"]
        head.append(f"{'毎' if not one_shot else ''}{name}に ")
    text = "".join(head) + _body(effect, vocabulary)
    tail = []
    lifetime = effect["lifetime"]
    if lifetime in LIFETIME_WORDS and effect["op"] not in ("generate", "duplicate"):
        tail.append(LIFETIME_WORDS[lifetime])
    if effect["op"] in ("generate", "duplicate"):
        tail.append("ステージ限り" if lifetime == "stage" else "ラン永続")
    if effect["telegraphed"]:
        tail.append("予告あり")
    if tail:
        text += "（" + "、".join(tail) + "）"
    return text


def condition_text(cond: dict, vocabulary: dict) -> str:
    test = cond["test"]
    if test == "crosses":
        return "このプレイで座を跨ぐ"
    if test == "not_crosses":
        return "このプレイで座を跨がない"
    terms = [number(t["value"]) if t["kind"] == "const" else ref_text(t, vocabulary)
             for t in cond["terms"]]
    if test == "nonzero":
        return f"{terms[0]} が 0 でない"
    out = [terms[0]]
    for op, term in zip(cond["ops"], terms[1:]):
        out += [OP_WORDS[op], term]
    return " ".join(out)


def body_lines(body: dict | None, vocabulary: dict, default_timing: str = "on_play") -> list[str]:
    """A face (or pen, tear) as lines: its conditions first, then one line per 作用."""
    if body is None:
        return ["白紙"]
    lines = []
    if body.get("conditions"):
        lines.append("条件: " + "、".join(condition_text(c, vocabulary)
                                         for c in body["conditions"]))
    lines += [phrase(e, vocabulary, default_timing=default_timing) for e in body["effects"]]
    return lines
