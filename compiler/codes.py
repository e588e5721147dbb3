"""診断コード — every diagnostic code, its severity and one-line title.

Codes are stable: once published, a code keeps its meaning. Each has an explanation with
a bad and a good example in ``compiler/explain/<code>.md`` (``jibunki explain E020``).
"""

from __future__ import annotations

from pathlib import Path

CODES: dict[str, tuple[str, str]] = {
    # syntax and files (dsl/)
    "E000": ("error", "内部エラー（jibunki のバグ）"),
    "E001": ("error", "ここに書けない語がある"),
    "E002": ("error", "使えない文字がある"),
    "E003": ("error", "定義が閉じていない"),
    "E004": ("error", "ファイルを読めない（UTF-8 ではない・バイナリ・大きすぎる）"),
    "E005": ("error", "括弧の入れ子が深すぎる"),
    # names
    "E010": ("error", "語彙にない名前"),
    "E011": ("error", "存在しないページ・出自の参照"),
    "E012": ("error", "同じ id の定義が2つある"),
    "E013": ("error", "同じ項目を2回書いている"),
    "E014": ("error", "必須の項目がない"),
    # the effect system (spec 002)
    "E020": ("error", "累計量は作用の対象にならない"),
    "E021": ("error", "累計量の参照にスコープ添字がない"),
    "E022": ("error", "意味を持たない（×の）スコープの累計量を参照している"),
    "E023": ("error", "補正を受ける乗算は存在しない"),
    "E024": ("error", "代入できない変数に代入している"),
    "E025": ("error", "作用の値に閾値（比較）がある"),
    "E026": ("error", "値の寿命・繰り返し範囲・発動タイミングが足りない"),
    "E027": ("error", "その対象には意味を持たない値の寿命"),
    "E028": ("error", "同じ面のペン強化が2つある"),
    "E029": ("error", "書かれている面の作用列が空"),
    "E030": ("error", "値が範囲外"),
    "E031": ("error", "綻び倍率が負"),
    "E032": ("error", "0 で割っている"),
    "E033": ("error", "有限でない・大きすぎる数"),
    "E034": ("error", "作用の対象にならない変数"),
    "E035": ("error", "恒久パラメータは上限変更でのみ動かす"),
    "E036": ("error", "基準値は定数か「参照カウンタ × 係数」"),
    "E037": ("error", "その対象・場所には使えない演算や項"),
    "E038": ("error", "その対象には使えない発動タイミング"),
    "E039": ("error", "回数・枚数は 1 以上"),
    "E040": ("error", "添字を付けられない名前に添字がある"),
    "E041": ("error", "条件になっていない"),
    "E042": ("error", "予告は敵の特性にだけ書ける"),
    "E043": ("error", "例（シナリオ）の書き方が違う"),
    "E044": ("error", "例（シナリオ）が失敗した"),
    "E045": ("error", "書かれている面のペン強化に条件がある"),
    "E046": ("error", "座を動かせるのはターン開始時の予告付きの特性だけ"),
    "E047": ("error", "破却効果の繰り返し範囲はラン"),
    "E048": ("error", "上限を超えた大きさ"),
    # warnings
    "W001": ("warning", "定義されるが現在は参照されない（○の）スコープ"),
    "W002": ("warning", "白紙ページの破却効果は得られない"),
    "W003": ("warning", "空のファイル"),
    "W004": ("warning", "書かれた場所では一度も発動しない作用"),
}

_EXPLAIN_DIR = Path(__file__).with_name("explain")


def explanation(code: str) -> str | None:
    """The explanation page of a code, or None if the code is unknown."""
    code = code.upper()
    if code not in CODES:
        return None
    path = _EXPLAIN_DIR / f"{code}.md"
    severity, title = CODES[code]
    if path.exists():
        return path.read_text(encoding="utf-8")
    return f"# {code}: {title}\n"
