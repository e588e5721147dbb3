"""診断コード — every diagnostic code, defined once: its severity, title and message template.

Codes are stable: once published, a code keeps its meaning. Each has an explanation with
a bad and a good example in ``compiler/explain/<code>.md`` (``jibunki explain E020``).

A pass reports a problem through the code's descriptor, never a bare string::

    E020.at(target.span, counter=counter.ja)          # the message is the code's template
    E050.at(span, "上限変更は += か -= で書きます")   # the message varies by situation

``CODES`` maps each code to its descriptor (for ``jibunki explain`` and the tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dsl.diagnostics import ERROR, WARNING, Diagnostic, Note, Span

__all__ = ["Code", "CODES", "explanation"]


@dataclass(frozen=True, slots=True)
class Code:
    """One diagnostic code: its severity, its title, and optionally the templates of its
    message and hint (``str.format`` fields, filled from the keywords of ``at``)."""

    code: str
    severity: str
    title: str
    message: str = ""
    hint: str = ""

    def at(self, span: Span, message: str | None = None, *, hint: str | None = None,
           notes: "list[Note] | tuple[Note, ...] | None" = None, **fields) -> Diagnostic:
        """The diagnostic of this code at ``span``.

        ``message`` and ``hint``, when given, are used as written; otherwise the code's
        templates are filled from ``fields``. A missing hint points at the explanation."""
        if message is None:
            if not self.message:
                raise TypeError(f"{self.code} has no message template: pass the message")
            message = self.message.format(**fields)
        if hint is None:
            hint = self.hint.format(**fields)
        return Diagnostic(self.code, self.severity, message, span, hint, tuple(notes or ()))


CODES: dict[str, Code] = {}


def _define(code: str, severity: str, title: str, message: str = "", hint: str = "") -> Code:
    assert code not in CODES, code
    CODES[code] = descriptor = Code(code, severity, title, message, hint)
    return descriptor


# syntax and files (dsl/)
E000 = _define("E000", ERROR, "内部エラー（jibunki のバグ）")
E001 = _define("E001", ERROR, "ここに書けない語がある")
E002 = _define("E002", ERROR, "使えない文字がある")
E003 = _define("E003", ERROR, "定義が閉じていない")
E004 = _define("E004", ERROR, "ファイルを読めない（UTF-8 ではない・バイナリ・大きすぎる）")
E005 = _define("E005", ERROR, "括弧の入れ子が深すぎる")
# names
E010 = _define("E010", ERROR, "語彙にない名前")
E011 = _define("E011", ERROR, "存在しないページ・出自の参照")
E012 = _define("E012", ERROR, "同じ id の定義が2つある")
E013 = _define("E013", ERROR, "同じ項目を2回書いている")
E014 = _define("E014", ERROR, "必須の項目がない")
# the effect system (spec 002)
E020 = _define("E020", ERROR, "累計量は作用の対象にならない",
    message="累計量「{counter}」は作用の対象になりません",
    hint="累計量は現在値を動かせば自動で積まれます。回数を増やしたいなら"
         "恒久パラメータ（破り回数上限 など）を 上限 で変えてください")
E021 = _define("E021", ERROR, "累計量の参照にスコープ添字がない",
    message="累計量「{counter}」にスコープ添字がありません",
    hint="{counter}[プレイ] ／ {counter}[ターン] のように、どの期間の合計かを書いてください")
E022 = _define("E022", ERROR, "意味を持たない（×の）スコープの累計量を参照している",
    message="{label} は意味を持たない組み合わせです（×）")
E023 = _define("E023", ERROR, "補正を受ける乗算は存在しない",
    message="補正を受ける乗算は存在しません",
    hint="乗算の着地は常に固定です（対象の現在値に掛けます）。"
         "補正を掛けたいなら 攻撃倍率 *= 1.5 のように乗算補正を対象にします")
E024 = _define("E024", ERROR, "代入できない変数に代入している")
E025 = _define("E025", ERROR, "作用の値に閾値（比較）がある",
    message="作用の値に閾値（比較）は書けません",
    hint="閾値はプレイ条件に置きます: 条件 跨いだ回数[ターン] >= 2 と書き、"
         "作用の値は線形のままにしてください")
E026 = _define("E026", ERROR, "値の寿命・繰り返し範囲・発動タイミングが足りない")
E027 = _define("E027", ERROR, "その対象には意味を持たない値の寿命")
E028 = _define("E028", ERROR, "同じ面のペン強化が2つある",
    message="{side}のペン強化が2つあります",
    hint="差し替え後の作用列は面ごとに1つだけ定義します（spec 002 ペン強化）")
E029 = _define("E029", ERROR, "書かれている面の作用列が空")
E030 = _define("E030", ERROR, "値が範囲外")
E031 = _define("E031", ERROR, "綻び倍率が負",
    message="綻び倍率が負です（{value}）",
    hint="綻びは減らない値です。倍率は 0 以上（目安 0.5〜2.0）にしてください")
E032 = _define("E032", ERROR, "0 で割っている",
    message="0 で割っています")
E033 = _define("E033", ERROR, "有限でない・大きすぎる数")
E034 = _define("E034", ERROR, "作用の対象にならない変数")
E035 = _define("E035", ERROR, "恒久パラメータは上限変更でのみ動かす")
E036 = _define("E036", ERROR, "基準値は定数か「参照カウンタ × 係数」")
E037 = _define("E037", ERROR, "その操作には使えない領域・選び方")
E038 = _define("E038", ERROR, "その対象には使えない発動タイミング")
E039 = _define("E039", ERROR, "回数・枚数は 1 以上")
E040 = _define("E040", ERROR, "添字を付けられない名前に添字がある")
E041 = _define("E041", ERROR, "条件になっていない")
E042 = _define("E042", ERROR, "予告は敵の特性にだけ書ける",
    message="予告は敵の特性の座の移動（座 += n 毎 ターン開始時）にだけ書けます")
E043 = _define("E043", ERROR, "例（シナリオ）の書き方が違う")
E044 = _define("E044", ERROR, "例（シナリオ）が失敗した")
E045 = _define("E045", ERROR, "書かれている面のペン強化に条件がある",
    message="{word}は書かれているので、ペン強化に条件は書けません",
    hint="ペンは{word}の作用列だけを差し替え、{word}の条件はそのまま残ります。"
         "条件を変えたいなら{word}の 条件 を書き換えてください")
E046 = _define("E046", ERROR, "座を動かせるのはターン開始時の予告付きの特性だけ")
E047 = _define("E047", ERROR, "破却効果の繰り返し範囲はラン",
    message="破却効果の繰り返し範囲は ラン だけです",
    hint="破却効果はラン中ずっと続く継続作用です。範囲 を消すか 範囲 ラン にしてください"
         "（回数を限るなら 最大 n 回）")
E048 = _define("E048", ERROR, "上限を超えた大きさ",
    message="{what}が上限を超えています（{count:,}{unit}。上限は {bound:,}{unit}）")
# split out of E037 (issue 12, item 5): each situation it covered has a code of its own
E050 = _define("E050", ERROR, "その変数には使えない演算")
E051 = _define("E051", ERROR, "着地を書けない作用に着地がある")
E052 = _define("E052", ERROR, "特性の値の書き方が違う")
E053 = _define("E053", ERROR, "プレイ条件は面とペン強化にだけ書ける",
    message="条件（プレイ条件）は面とペン強化にだけ書けます",
    hint="破却効果・綻び報酬はプレイされないので、プレイ条件を持ちません")
E054 = _define("E054", ERROR, "Intent の書き方が違う")
# split out of E030
E055 = _define("E055", ERROR, "デッキ内上限枚数を超える枚数",
    message="「{page}」がデッキ内上限枚数（{cap}）を超えています")
# split out of E043
E056 = _define("E056", ERROR, "開始で設定できない値・形")
E057 = _define("E057", ERROR, "確認の書き方が違う・確かめられない量")
# warnings
W001 = _define("W001", WARNING, "定義されるが現在は参照されない（○の）スコープ",
    message="{label} は定義されていますが、現在は参照しない設計です（○）",
    hint="● のスコープで足りるか確かめてください")
W002 = _define("W002", WARNING, "白紙ページの破却効果は得られない",
    message="白紙ページ（両面とも白紙）を破っても破却効果は得られません",
    hint="白紙ページを破ると綻びだけが上がります（spec 000 白紙ページ）")
W003 = _define("W003", WARNING, "空のファイル",
    message="空のファイルです（定義がありません）",
    hint="ページや敵の定義を書くか、ファイルを消してください")
W004 = _define("W004", WARNING, "書かれた場所では一度も発動しない作用",
    message="この作用は書かれた場所では一度も発動しません")


_EXPLAIN_DIR = Path(__file__).with_name("explain")


def explanation(code: str) -> str | None:
    """The explanation page of a code, or None if the code is unknown."""
    code = code.upper()
    if code not in CODES:
        return None
    path = _EXPLAIN_DIR / f"{code}.md"
    if path.exists():
        return path.read_text(encoding="utf-8")
    return f"# {code}: {CODES[code].title}\n"
