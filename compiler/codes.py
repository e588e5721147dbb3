"""診断コード — every diagnostic code, defined once: its severity, title and message template.

Codes are stable: once published, a code keeps its meaning. Each has an explanation with
a bad and a good example in ``compiler/explain/<code>.md`` (``jibunki explain E020``).

A pass reports a problem through the code's descriptor, never a bare string::

    E020.at(target.span, counter=counter.ja)          # the message is the code's template
    E050.at(span, "上限変更は += か -= で書きます")   # the message varies by situation

``CODES`` maps each code to its descriptor (for ``jibunki explain`` and the tests).
"""

from __future__ import annotations

import re
from pathlib import Path

from dsl.codes import CODES, ERROR, WARNING, Code, define as _define
from dsl.codes import E000, E001, E002, E003, E004, E005  # defined with the parser
from dsl.codes import E048  # defined with the file bounds (dsl.size)
from contract.typed import folded
from contract.vocabulary import W

__all__ = ["ANALYSIS", "Code", "CODES", "explanation", "E000", "E001", "E002", "E003", "E004", "E005",
           "E048"]



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
         f"恒久パラメータ（{W.variable.tear_cap} など）を 上限 で変えてください")
E021 = _define("E021", ERROR, "累計量の参照にスコープ添字がない",
    message="累計量「{counter}」にスコープ添字がありません",
    hint=f"{{counter}}[{W.scope.play}] ／ {{counter}}[{W.scope.turn}] のように、どの期間の合計かを書いてください")
E022 = _define("E022", ERROR, "意味を持たない（×の）スコープの累計量を参照している",
    message="{label} は意味を持たない組み合わせです（×）")
E023 = _define("E023", ERROR, f"補正を受ける{W.operation.mul}は存在しない",
    message=f"補正を受ける{W.operation.mul}は存在しません",
    hint=f"{W.operation.mul}の着地は常に{W.landing.fixed}です（対象の現在値に掛けます）。"
         f"補正を掛けたいなら {W.variable.attack_mul} *= 1.5 のように乗算補正を対象にします")
E024 = _define("E024", ERROR, f"{W.operation.assign}できない変数に{W.operation.assign}している")
E025 = _define("E025", ERROR, "作用の値に閾値（比較）がある",
    message="作用の値に閾値（比較）は書けません",
    hint=f"閾値は{W.scope.play}条件に置きます: 条件 {W.counter.crossings}[{W.scope.turn}] >= 2 と書き、"
         "作用の値は線形のままにしてください")
E026 = _define("E026", ERROR, "値の寿命・繰り返し範囲・発動タイミングが足りない")
E027 = _define("E027", ERROR, "その対象には意味を持たない値の寿命")
E028 = _define("E028", ERROR, "同じ面のペン強化が2つある",
    message="{side}のペン強化が2つあります",
    hint="差し替え後の作用列は面ごとに1つだけ定義します（spec 002 ペン強化）")
E029 = _define("E029", ERROR, "書かれている面の作用列が空")
E030 = _define("E030", ERROR, "値が範囲外")
E031 = _define("E031", ERROR, f"{W.variable.fray_mul}が負",
    message=f"{W.variable.fray_mul}が負です（{{value}}）",
    hint=f"{W.variable.fray}は減らない値です。倍率は 0 以上（目安 0.5〜2.0）にしてください")
E032 = _define("E032", ERROR, "0 で割っている",
    message="0 で割っています",
    hint="割る数を 0 以外にします。割らないなら ÷ ごと消してください")
E033 = _define("E033", ERROR, "有限でない・大きすぎる数")
E034 = _define("E034", ERROR, "作用の対象にならない変数")
E035 = _define("E035", ERROR, f"恒久パラメータは{W.operation.cap}でのみ動かす")
E036 = _define("E036", ERROR, "基準値は定数か「参照カウンタ × 係数」")
E037 = _define("E037", ERROR, "その操作には使えない領域・選び方")
E038 = _define("E038", ERROR, "その対象には使えない発動タイミング")
E039 = _define("E039", ERROR, "回数・枚数は 1 以上")
E040 = _define("E040", ERROR, "添字を付けられない名前に添字がある")
E041 = _define("E041", ERROR, "条件になっていない")
E042 = _define("E042", ERROR, "予告は敵の特性にだけ書ける",
    message=f"予告は敵の特性の{W.variable.seat}を動かす作用（{W.variable.seat} += n 毎 {W.timing.turn_start}）にだけ書けます")
E043 = _define("E043", ERROR, "例（シナリオ）の書き方が違う")
E044 = _define("E044", ERROR, "例（シナリオ）が失敗した")
E045 = _define("E045", ERROR, "書かれている面のペン強化に条件がある",
    message="{word}は書かれているので、ペン強化に条件は書けません",
    hint="ペンは{word}の作用列だけを差し替え、{word}の条件はそのまま残ります。"
         "条件を変えたいなら{word}の 条件 を書き換えてください")
E046 = _define("E046", ERROR, f"{W.variable.seat}を動かせるのは{W.timing.turn_start}の予告付きの特性だけ")
E047 = _define("E047", ERROR, f"破却効果の繰り返し範囲は{W.scope.run}",
    message=f"破却効果の繰り返し範囲は {W.scope.run} だけです",
    hint=f"破却効果は{W.scope.run}中ずっと続く継続作用です。範囲 を消すか 範囲 {W.scope.run} にしてください"
         "（回数を限るなら 最大 n 回）")
# split out of E037 (issue 12, item 5): each situation it covered has a code of its own
E050 = _define("E050", ERROR, "その変数には使えない演算")
E051 = _define("E051", ERROR, "着地を書けない作用に着地がある")
E052 = _define("E052", ERROR, "特性の値の書き方が違う")
E053 = _define("E053", ERROR, f"{W.scope.play}条件は面とペン強化にだけ書ける",
    message=f"条件（{W.scope.play}条件）は面とペン強化にだけ書けます",
    hint=f"破却効果・{W.variable.fray}報酬は{W.scope.play}されないので、{W.scope.play}条件を持ちません")
E054 = _define("E054", ERROR, "Intent の書き方が違う")
# split out of E030
E055 = _define("E055", ERROR, f"{W.balance.deck_cap_default}を超える枚数",
    message=f"「{{page}}」が{W.balance.deck_cap_default}（{{cap}}）を超えています")
# split out of E043
E056 = _define("E056", ERROR, "開始で設定できない値・形")
E057 = _define("E057", ERROR, "確認の書き方が違う・確かめられない量")
# 目標 (balance targets): what a designer intends the balance lab to measure
E058 = _define("E058", ERROR, f"{W.target}の量がその項目に合わない",
    hint=f"敵の{W.target}は {W.measure.win_rate}（その敵1体に対する初期デッキの{W.measure.win_rate}）、"
         f"ページの{W.target}は {W.measure.win_rate_delta}"
         f"（初期デッキに1枚加えたときの{W.measure.win_rate}の変化）、"
         f"旅の準備の{W.target}は {W.measure.win_rate}（{W.report.blind_player}の{W.measure.win_rate}）です")
E059 = _define("E059", ERROR, f"{W.target}の値に % がない")
E060 = _define("E060", ERROR, f"{W.target}の範囲が逆（下限が上限より大きい）")
E061 = _define("E061", ERROR, f"{W.target}がその量の取りうる値の外",
    hint=f"{W.measure.win_rate}は 0%〜100%、{W.measure.win_rate_delta}は{W.measure.win_rate}の変化"
         "（ポイント）なので -100%〜+100% です")
# rules fidelity round 3 (DESIGN §6.2)
E062 = _define("E062", ERROR, f"HP を減らせるのは{W.intent.attack}と{W.operation.pay}だけ")
E063 = _define("E063", ERROR, f"{W.variable.defense}が減るのは被弾と寿命だけ")
E064 = _define("E064", ERROR, f"敵の特性・{W.variable.fray}報酬が与える{W.variable.defense}の寿命は {W.scope.turn} だけ",
    message=f"{{where}}が与える{W.variable.defense}の寿命は {W.lifetime.turn} だけです（「{{lifetime}}」）",
    hint=f"長く残る{W.variable.defense}（{W.lifetime.on_hit}・{W.lifetime.stage}・{W.lifetime.run}）を与えられるのはページの作用だけです。"
         f"寿命 {W.lifetime.turn} にするか、寿命 を消してください")
E065 = _define("E065", ERROR, f"{W.variable.fray}報酬で HP は上がらない",
    message=f"{W.variable.fray}報酬で HP は上げられません",
    hint=f"HP の回復はマップの報酬（{W.tile.philosophy}・{W.tile.antique}）とまれなページ効果だけです（spec 000）。"
         f"{W.variable.fray}報酬には恒久パラメータの{W.operation.cap}などを書いてください")
E066 = _define("E066", ERROR, "白紙の面にペンで書く内容がない",
    message="{side}は白紙ですが、ペンで書き込む内容（ペン {side} {{ … }}）がありません",
    hint="白紙の面にペンで何が書かれるかはページごとに決まっていて、見えている必要があります（spec 000）。"
         "ペン {side} {{ … }} を書くか、{side} {{ … }} に作用を書いてください")
E067 = _define("E067", ERROR, f"整数の恒久パラメータに小数の{W.operation.cap}")
E068 = _define("E068", ERROR, "予兆が空",
    message="予兆（Intent 列）が空です",
    hint=f"敵は毎{W.scope.turn}少なくとも1つの Intent を持ちます。例: 予兆 [ {W.intent.attack} 16 ]")
# 旅 (spec 004, draft 17): the journey items
E070 = _define("E070", ERROR, "旅の項目の値の形が違う")
E071 = _define("E071", ERROR, "旅の内容が揃っていない")
E072 = _define("E072", ERROR, "旅の内容にない名前の参照")
# the balance lab's reference page (issue 28): a page of the starting deck
E073 = _define("E073", ERROR, f"{W.balance.reference}がはじめのデッキにない",
    message="ページ「{page}」ははじめのデッキ（{deck}）にありません",
    hint=f"{W.balance.reference}は、はじめのデッキの1枚を各ページと入れ替えて測るためのページです。"
         "はじめのデッキのページを書いてください: {pages}")
#: The codes of the interaction analysis' findings (analysis/), which it reports only of a
#: run with no error anywhere (compiler.pipeline.analyze): a lint with errors says so.
ANALYSIS = ("W006", "W007", "W008", "W009", "W010", "W012")

#: Found by ``jibunki print`` (its layout), not by lint: the text is valid, the card too small.
E074 = _define("E074", ERROR, "札に収まらない文",
    hint="フレーバーや面の文を短くしてください（印刷は文字を最小の大きさまで小さくして収めます）")
# warnings
W001 = _define("W001", WARNING, "定義されるが現在は参照されない（○の）スコープ",
    message="{label} は定義されていますが、現在は参照しない設計です（○）",
    hint="● のスコープで足りるか確かめてください")
W002 = _define("W002", WARNING, "白紙ページの破却効果は得られない",
    message="白紙ページ（両面とも白紙）は、ペンで書き込む前に破ると破却効果が得られません",
    hint=f"白紙のまま破ると{W.variable.fray}だけが上がります（spec 000 白紙ページ）。"
         "破却効果はペンで面を書いてから破ったときだけ働きます")
W003 = _define("W003", WARNING, "空のファイル",
    message="空のファイルです（定義がありません）",
    hint="ページや敵の定義を書くか、ファイルを消してください")
W004 = _define("W004", WARNING, "書かれた場所では一度も発動しない作用",
    message="この作用は書かれた場所では一度も発動しません")
W005 = _define("W005", WARNING, f"{W.operation.generate}の候補が1枚もない",
    message=f"この絞り込みに合うページが1枚もないので、{W.operation.generate}しても何も起きません",
    hint=f"{W.operation.generate}は絞り込み（出自・{W.variable.year}の範囲・ページ指定）に合うページから選びます。"
         "範囲を広げるか、合うページを書いてください")


# interaction analysis (analysis/: the trigger graph of the whole content)
W006 = _define("W006", WARNING, "終わりのない作用の連鎖",
    message="作用が互いを際限なく呼び出します: {chain}",
    hint=f"連鎖のどれかの作用に 最大 n 回 を付けるか、連鎖の中で補われない領域から{W.operation.move}して、"
         "いつか尽きるようにしてください")
W012 = _define("W012", WARNING, "バトルが途中で止める長い作用の連鎖",
    message="この連鎖は 最大 n 回 で止まりますが、1 手でバトルの連鎖の上限を超えて発動します",
    hint="最大 n 回 を小さくしてください")
W007 = _define("W007", WARNING, "際限なく育つ値",
    message=f"この作用は繰り返し発動するたびに値を育て、{W.scope.run}の終わりまで止まりません",
    hint=f"最大 n 回 か、終わる範囲（{W.scope.turn}・以降 n {W.scope.play}）で止めてください")
W008 = _define("W008", WARNING, "出せない（ほとんど出せない）面",
    message=f"この面の条件は、発動する面の向き（{W.variable.year} と {W.variable.age}）と数直線の壁のもとで同時には成り立ちません",
    hint=f"条件の数値か、ページの{W.variable.year}を見直してください")

W009 = _define("W009", WARNING, "何も起こさないタイミング",
    message=f"この作用が待つ{W.quantity.events}を起こすものがコンテンツにもルールにもないので、一度も発動しません",
    hint=f"その{W.quantity.events}を起こす作用を書くか、ほかのタイミングにしてください")
W010 = _define("W010", WARNING, "ほかのページに劣るページ",
    message=f"同じ{W.variable.year}・同じ形のほかのページに、どの数値でも劣っています",
    hint="劣る数値を相手と同じか良くするか、作用か条件を変えて役割を分けてください（わざと弱くしたのなら、そのままで構いません）")
#: Found by ``jibunki print`` (its layout), not by lint: which fonts a machine has is not
#: the content's.
W011 = _define("W011", WARNING, "札に刷れない文字",
    hint="ほかの字にするか、その字のあるフォントを入れてください（印刷はその字を ☒ で刷ります）")
#: Examples are told apart by their names (jibunki test -k, the failures, the catalog).
W013 = _define("W013", WARNING, "同じ名前の例",
    message="例「{name}」はもう1つあります",
    hint="どちらかの名前を変えてください（jibunki test -k も、失敗の知らせも、カタログも、"
         "例を名前で見分けます）")


#: Pages and enemies are chosen by name too (--with, --page, analyze) and shown by name.
W014 = _define("W014", WARNING, "同じ名前の定義",
    message="{word}の名前「{name}」は {other} にも付いています",
    hint="どちらかの名前を変えてください（--with や --page は名前でも選べ、カタログや"
         "戦闘の画面は名前で呼びます）")


#: An origin is free text: a slip makes a life stage of its own, which only 生成's filter
#: and the catalog's 出自別 would ever show.
W015 = _define("W015", WARNING, "ほかのページにない出自",
    message="出自「{origin}」のページはこれだけです",
    hint=f"もしかして「{{meant}}」？（出自は {W.operation.generate} の絞り込みとカタログの 出自別 が読みます）")

W017 = _define("W017", WARNING, f"効く前に消える{W.variable.defense}",
    message=f"{W.timing.after_enemy}・{W.timing.turn_end}に得た{W.variable.defense}は、寿命 {W.scope.turn} なので"
            f"敵の{W.intent.attack}を一度も受けないまま、この{W.scope.turn}の終わりに消えます",
    hint=f"次の{W.scope.turn}の{W.intent.attack}まで残すなら 寿命 {W.lifetime.on_hit} か 寿命 {W.scope.stage} を書き、"
         f"この{W.scope.turn}の{W.intent.attack}を受けるなら 毎 {W.timing.before_enemy} にしてください")
W018 = _define("W018", WARNING, "何も変えない作用",
    message="この作用は何も変えません（0 を足す・引く・支払う、1 を掛ける、参照 × 0）",
    hint="書きたかった数に直すか、作用を消してください")

W019 = _define("W019", WARNING, "書く作用のないフラグを読む確認",
    message="フラグ「@{flag}」を書く作用はコンテンツにないので、この確認ではいつも 0 です",
    hint="フラグの名前を見直してください{written}")

W020 = _define("W020", WARNING, "イベントを置けない日")

_EXPLAIN_DIR = Path(__file__).with_name("explain")


def codes_meant(typed: str) -> list[str]:
    """The codes ``typed`` stands for when written loosely — 全角, lower case, a space or a
    hyphen inside, fewer digits (Ｅ０２０, e-20, E20), or the number alone (20: E020, and
    W020 where both exist) — in CODES' order; empty when it is no code's number."""
    text = re.sub(r"[\s_-]", "", folded(typed)).upper()
    found = re.fullmatch(r"([EW]?)0*(\d{1,3})", text)
    if found is None:
        return []
    kinds, number = found.group(1) or "EW", int(found.group(2))
    return [code for code in (f"{kind}{number:03d}" for kind in kinds) if code in CODES]


def explanation(code: str) -> str | None:
    """The explanation page of a code, or None if the code is unknown."""
    code = code.upper()
    if code not in CODES:
        return None
    path = _EXPLAIN_DIR / f"{code}.md"
    if path.exists():
        return path.read_text(encoding="utf-8")
    return f"# {code}: {CODES[code].title}\n"
