"""語彙 — the vocabulary of the effect system (spec 002), defined once, as data.

Every layer reads names from here: the validator resolves what designers write, the
lowering pass writes the stable ``code`` of each term into the tables, and the catalog
phrases rules text from the Japanese ``year`` and each term's display ``phrase``. No other module keeps its own list of
variable, counter, timing, scope, region or operation names.

Each entry has a stable ASCII ``code`` (written into generated tables, and accepted in
content as the ASCII alias of the term) and its canonical Japanese ``year`` from the
glossary (spec 001). ``aliases`` are further spellings the spec itself uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .kinds import ID_KEYWORDS, ITEM_KEYWORDS, JOURNEY_KINDS  # noqa: F401 (read from here too)

# --------------------------------------------------------------------------- scopes

#: スコープ — プレイ ⊂ ターン ⊂ ステージ ⊂ ラン, in that order (spec 002 「3つの軸」).
SCOPE_ORDER = ("play", "turn", "stage", "run")


@dataclass(frozen=True)
class Term:
    """One named term of the vocabulary: stable code, Japanese name, other spellings."""

    code: str
    ja: str
    aliases: tuple[str, ...] = ()
    #: A further remark in Japanese (a rule the term obeys, a project decision), shown after
    #: its table's detail by ``jibunki vocab``, the catalog and the editor's hover.
    note: str = ""
    #: How rules text (the catalog, the terminal) says the term in a sentence; None: by
    #: its name. Some phrases are templates (``{value}``) that the phrasing rule fills.
    phrase: str | None = None
    #: 意味 — what the term means, in one line of Japanese taken from the glossary
    #: (spec 001) or the spec that defines it; the vocabulary reference (``jibunki vocab``,
    #: the catalog's vocabulary page) shows it.
    meaning: str = ""

    def spellings(self) -> tuple[str, ...]:
        """Every spelling content may write for the term: its Japanese name, its code, its aliases."""
        return (self.ja, self.code, *self.aliases)

    def said(self) -> str:
        """The words rules text uses for this term (its phrase, else its name)."""
        return self.ja if self.phrase is None else self.phrase


@dataclass(frozen=True)
class Scope(Term):
    """A scope. ``phrase`` says it as a reference's subscript (使用した歩［このターン］),
    ``during`` as the repeat range that opens a continuing 作用 (このターン中、…), and
    ``within`` as the range a most-fires count is counted in (このターン中に最大 2 回、…)."""

    during: str = ""
    within: str = ""


SCOPES = (
    Scope("play", "プレイ", phrase="このプレイ", during="このプレイ中", within="このプレイ中に",
          meaning="ページを1枚プレイする間。スコープのいちばん内側"),
    Scope("turn", "ターン", phrase="このターン", during="このターン中", within="このターン中に",
          meaning="ターン開始時からターン終了時まで"),
    Scope("stage", "ステージ", phrase="このステージ", during="このステージ中",
          within="このステージ中に", meaning="1つのバトルステージの始まりから終わりまで"),
    Scope("run", "ラン", phrase="このラン", during="ラン中ずっと", within="このラン中に",
          meaning="マップ生成からクリア／ゲームオーバーまでの一続きのプレイ"),
)

#: The scope code of an anchored range or reference (以降 n プレイ／ターン).
ANCHORED = "anchored"
#: アンカー付きスコープ — the scope whose start is the 作用 itself (spec 002 「3つの軸」): an
#: entry of the vocabulary reference beside the four scopes, though not a scope one writes
#: by name (it is written 以降 n プレイ／ターン).
ANCHORED_SCOPE = Scope(ANCHORED, "アンカー付きスコープ", phrase="以降 n プレイ／ターン",
                       meaning="起点が作用の側にある区間。作用が乗ってから n 回のプレイ（ターン）まで")

#: アンカー付きスコープの単位 — 「以降 n プレイ」. Counted from the moment the 作用 lands.
ANCHOR_UNITS = (
    Term("play", "プレイ", meaning="以降 n プレイ: 作用が乗ってから数えるプレイの回数"),
    Term("turn", "ターン", meaning="以降 n ターン: 作用が乗ってから数えるターンの数"),
)
#: How rules text says an anchored range, and the most fires of a repeat range.
ANCHORED_PHRASE = "以降 {n} {unit}"
MAX_FIRES_PHRASE = "最大 {max} 回"
#: An anchored repeat range as it opens a continuing 作用 (以降 2 プレイの間、…) and as the
#: range a most-fires count is counted in (以降 2 ターンの間に最大 1 回、…): Scope.during
#: and Scope.within of the anchored scope.
ANCHORED_DURING = "{range}の間"
ANCHORED_WITHIN = "{range}の間に"

# --------------------------------------------------------------------- lifetimes

#: 値の寿命 — when a value born from a 作用 disappears. ``order`` is the defense
#: consumption order (spec 002 防御は多重集合である: 被弾1回 → ターン → ステージ → ラン).
LIFETIMES = (
    # phrase "": rules text says nothing of a change that simply stays
    Term("permanent", "永続", note="変化はそのまま残る（ダメージ・支払い・通貨）", phrase="",
         meaning="生まれた値は消えない（ダメージ・支払い・通貨の増減）"),
    Term("on_hit", "被弾1回", note="Intent を1個受け止めたら消える", phrase="1回被弾するまで",
         meaning="Intent を1個受けたら、残っていても消える"),
    Term("play", "プレイ", phrase="このプレイの間", meaning="そのプレイが終わると消える"),
    Term("turn", "ターン", phrase="ターン終了まで", meaning="ターン終了時に消える"),
    Term("stage", "ステージ", phrase="ステージ終了まで", meaning="ステージ終了時に消える。ターンを跨いで残る"),
    Term("run", "ラン", phrase="ラン終了まで", meaning="ランが終わるまで消えない"),
)

# ------------------------------------------------------------------------ timings

TIMING_FAMILIES = ("phase", "outer", "event", "always")


@dataclass(frozen=True)
class Timing(Term):
    """発動タイミング — a moment a 作用 can fire at; ``family`` is one of TIMING_FAMILIES
    (phase of the turn, outer, event, always). ``every`` says it, particle included, as
    the moment a continuing 作用 fires at each time it comes (座を跨ぐたびに): the 毎 of
    the written form is folded into it, so no rule prefixes 毎 to a name (毎座を跨いだ時に)."""

    family: str = "phase"
    #: False: the moment is over before any 作用 of content can be on the board, so a
    #: continuing 作用 waiting for it never fires (W004, DESIGN §6.1).
    reachable: bool = True
    every: str = ""
    #: The first time the moment comes within a range (最大 1 回), where that differs from
    #: ``once()``: a play places a continuing 作用 after its own プレイ時 (runtime/board.py).
    first: str = ""
    #: True: the moment can come while a play resolves (a crossing, an exile, a 綻び reward,
    #: 敵HP 0), so a continuing 作用 a play places waits for it in that play's rest too; a
    #: hit, a tear or a pen never comes inside a play, nor a phase of the turn (the play's
    #: own プレイ時 is past when its 作用 are placed).
    in_a_play: bool = False

    def once(self) -> str:
        """The moment, particle included, of a 作用 that fires once when it comes (被弾時に,
        常に)."""
        return self.said() if self.family == "always" else self.said() + "に"


#: 発動タイミング (spec 002), in the order they happen within a turn.
TIMINGS = (
    Timing("turn_start", "ターン開始時", family="phase", every="毎ターン開始時に",
           meaning="ターンの最初。敵の予兆が示される"),
    Timing("after_steps_refill", "歩の回復後", family="phase", every="毎ターンの歩の回復後に",
           meaning="ターン開始時に歩が規定量まで回復した直後"),
    Timing("after_draw", "ドロー後", family="phase", every="毎ターンのドロー後に",
           meaning="ターンのはじめに固定枚数を引いた直後"),
    Timing("on_play", "プレイ時", family="phase", every="この後ページをプレイするたびに",
           first="次にページをプレイした時に",
           meaning="ページをプレイした瞬間。作用の既定のタイミング"),
    Timing("on_end_declared", "ターン終了宣言時", family="phase",
           every="ターン終了を宣言するたびに", meaning="プレイヤーがターンの終了を宣言したとき"),
    Timing("after_defense", "防御獲得後", family="phase", every="毎ターンの防御獲得後に",
           meaning="ターン終了時に |刻 − 座| に比例した防御を得た直後"),
    Timing("before_enemy", "敵の行動前", family="phase", every="毎ターンの敵の行動前に",
           meaning="敵の Intent が実行される直前。ここで倒しきれば残った Intent は実行されない"),
    Timing("after_enemy", "敵の行動後", family="phase", every="毎ターンの敵の行動後に",
           meaning="敵の Intent が実行された直後"),
    Timing("turn_end", "ターン終了時", family="phase", every="毎ターン終了時に",
           meaning="ターンの最後。寿命 ターンの値が消える"),
    Timing("stage_start", "ステージ開始時", family="outer", every="各ステージの開始時に",
           meaning="バトルステージの始まり"),
    Timing("stage_end", "ステージ終了時", family="outer", every="各ステージの終了時に",
           meaning="バトルステージの終わり"),
    Timing("run_start", "ラン開始時", family="outer", reachable=False, every="ランの開始時に",
           note="ページがプレイされる前、敵に出会う前に、ランはもう始まっている",
           meaning="ランの始まり（ページも敵もまだ場にない）"),
    Timing("run_end", "ラン終了時", family="outer", every="ランの終了時に",
           meaning="クリアまたはゲームオーバーでランが終わるとき"),
    Timing("on_hit", "被弾時", family="event", every="被弾するたびに",
           meaning="敵の攻撃を受けたとき"),
    Timing("on_cross", "座を跨いだ時", family="event", in_a_play=True, every="座を跨ぐたびに",
           meaning="プレイで直前の刻と新しい刻が座を挟んだとき"),
    Timing("on_tear", "破った時", family="event", every="ページを破るたびに",
           meaning="手札のページを破ったとき。破却効果の既定のタイミング"),
    Timing("on_pen", "ペンを使った時", family="event", every="ペンを使うたびに",
           meaning="ページの面にペンで書き込んだとき"),
    Timing("on_exile", "ページが除外された時", family="event", in_a_play=True, every="ページが除外されるたびに",
           meaning="ページが除外（ステージ／ラン）へ送られたとき"),
    Timing("on_enemy_hp_zero", "敵のHPが0になった時", family="event", in_a_play=True,
           every="敵のHPが0になるたびに", meaning="敵HPが 0 になったとき"),
    Timing("on_reward", "綻び報酬時", family="event", in_a_play=True, phrase="綻び報酬の時",
           every="綻び報酬を得るたびに",
           note="プロジェクトの決定: 綻び報酬の区切りに達したとき",
           meaning="累積綻びが綻び報酬間隔の区切りに達したとき"),
    # every="": 常時 is the timing of modifiers and of nothing else (E038), so the target
    # says it and the range alone opens the sentence (以降 2 プレイの間、攻撃力補正+2)
    Timing("always", "常時", family="always", phrase="常に", every="",
           meaning="補正のタイミング。場にある間ずっと効く"),
)

# ------------------------------------------------------------------------ regions


@dataclass(frozen=True)
class Region(Term):
    """領域 — a zone of pages, or a combined region (合算) that sums its ``parts``."""

    parts: tuple[str, ...] = ()  # the single regions a combined region sums


#: 領域 and 合算 (spec 002). A combined region is written as its parts joined by ``+``.
REGIONS = (
    Region("hand", "手札", parts=("hand",), meaning="手に持っているページ。ターンをまたいで残る"),
    Region("draw", "山札", parts=("draw",), meaning="これから引くページ。尽きたら捨て札をシャッフルして新しい山札とする"),
    Region("discard", "捨て札", parts=("discard",), meaning="プレイされたページが送られる場所"),
    Region("exile", "除外", parts=("exile",), meaning="除外されたページの置き場（ステージ限り、またはラン中ずっと戻らない）"),
    Region("deck", "山札+捨て札", parts=("draw", "discard"), meaning="山札と捨て札の合算"),
    Region("all", "山札+捨て札+手札", parts=("draw", "discard", "hand"),
           meaning="山札・捨て札・手札の合算（除外を除くデッキ全体）"),
)

#: プレイ後の行き先 (spec 002).
DESTINATIONS = (
    Term("discard", "捨て札", meaning="プレイした後、捨て札へ行く（既定）"),
    Term("exile_stage", "除外（ステージ）",
         meaning="プレイした後、このステージの終わりまで除外される"),
    Term("exile_run", "除外（ラン）",
         meaning="プレイした後、ランの終わりまで除外される（戻らない）"),
)

#: 領域操作で1枚を選ぶ方法. ``choice`` is the player-choice family (デッキサーチ).
PICKS = (
    Term("random", "ランダム", note="バトルのシード付き乱数", phrase="ランダムに",
         meaning="シード付き乱数で選ぶ"),
    Term("top", "上から", note="山の上から、公開された順に",
         meaning="山の上から順に取る"),
    Term("choice", "選択", note="プレイヤーが選ぶ。選び終えるまでが分けられない1つの操作", phrase="選んで",
         meaning="プレイヤーが選ぶ（デッキサーチ）。選択は途中で中断できない"),
)

#: 生成されたページの寿命 (spec 002 ページの生成と複製).
GENERATED_LIFETIMES = ("stage", "run")
#: How rules text says the lifetime of a generated or copied page.
GENERATED_LIFETIME_PHRASES = {"stage": "ステージ限り", "run": "ラン永続"}

#: The target of a region operation (移動, 生成, 複製, 公開): pages, not a variable.
PAGES = Term("pages", "ページ", phrase="ページ（領域操作）")

#: 面 — the two faces of a page, by the side they fire on (spec 000: 銘 > 刻 fires the
#: future face, 銘 < 刻 the past one). ``aliases``: the short words a player types.
FACES = (
    Term("future", "未来面", aliases=("未来",)),
    Term("past", "過去面", aliases=("過去",)),
)

#: What a written face with no pen upgrade shows, and why a pen on it is refused (DESIGN
#: §6.2: a written face may have no pen upgrade; the catalog and the battle screen say so).
NO_PEN_UPGRADE = "ペン強化なし"

# --------------------------------------------------------------------- operations


@dataclass(frozen=True)
class Operation(Term):
    """演算 — what a 作用 does to its target: its family, its operator symbol, and the
    landings (補正あり／固定) it allows, the first being the default."""

    family: str = ""
    symbol: str = ""
    landings: tuple[str, ...] = ()  # allowed landings; the first is the default


#: 演算 (spec 002). Families are the spec's: 数値・設定・パラメータ・制御・領域, plus
#: payments (歩以外の代償) and player choice, which the spec names as their own kinds.
OPERATIONS = (
    Operation("add", "加算", family="numeric", symbol="+=", landings=("modified", "fixed"),
              meaning="対象に値を加える（-= は減らす。敵HP -= n は n のダメージ）"),
    Operation("mul", "乗算", family="numeric", symbol="*=", landings=("fixed",),
              meaning="対象の現在値そのものに基準値を掛ける。着地は常に固定"),
    Operation("assign", "代入", family="setting", symbol="=", landings=(),
              meaning="対象を値にする（他ページの銘・内部フラグのみ）。補正を受けない"),
    Operation("cap", "上限変更", family="parameter", symbol="上限", landings=(),
              meaning="恒久パラメータ（ルールの係数）を増減する。補正を受けない"),
    Operation("suppress", "抑制", family="control", symbol="抑制", landings=(),
              meaning="刻の更新を行わせない"),
    Operation("move", "移動", family="region", symbol="移動", landings=(),
              meaning="ページをある領域から別の領域へ移す"),
    Operation("generate", "生成", family="region", symbol="生成", landings=(),
              meaning="デッキに無いページを作って差し込む（ステージ限り／ラン永続）"),
    Operation("duplicate", "複製", family="region", symbol="複製", landings=(),
              meaning="手札のページを複製して差し込む（ステージ限り／ラン永続）"),
    # 公開: shows the top n pages of 山札 in order and leaves them so (spec 002
    # 山札を見せる作用は、見せた順序どおりに引けなければならない).
    Operation("reveal", "公開", family="region", symbol="公開", landings=(),
              meaning="山札の上から n 枚を見せる。見せた順のまま引かれる"),
    Operation("pay", "支払い", family="payment", symbol="支払う", landings=("fixed",),
              meaning="歩以外の代償としてHPか通貨を払う（そのページだけが負う賭け）"),
)

#: 演算の族 (spec 002 演算の表: 数値・設定・パラメータ・制御, plus 領域, 支払い and 選択) by code,
#: with the Japanese name the vocabulary reference and the editor's hover say it by.
OPERATION_FAMILY_NAMES = {
    "numeric": "数値", "setting": "設定", "parameter": "パラメータ", "control": "制御",
    "region": "領域", "payment": "支払い", "choice": "選択",
}
OPERATION_FAMILIES = tuple(OPERATION_FAMILY_NAMES)

#: The written direction of an add or a cap change: += is an increase, -= a decrease
#: (DESIGN §6: 敵HP -= 12 is 12 damage).
DIRECTIONS = ("increase", "decrease")

LANDINGS = (
    # phrase "": the default landing goes without saying
    Term("modified", "補正あり", note="発動の瞬間に (基準値 + Σ加算補正) × Π乗算補正", phrase="",
         meaning="実効値 = (基準値 + Σ加算補正) × Π乗算補正 を発動の瞬間に計算して加える"),
    Term("fixed", "固定", note="書かれた基準値のまま。補正を無視する",
         phrase="補正を受けない", meaning="補正を無視して基準値をそのまま適用する"),
)

# ----------------------------------------------------------------------- variables

#: 変数の型 (spec 002) plus the kinds the project needs to name targets precisely.
VARIABLE_KINDS = {
    "current": "現在値",
    "cumulative": "累計量",
    "param": "恒久パラメータ",
    "flag": "内部フラグ",
    "modifier": "補正",
    "page_attr": "ページの変数",
    "face_state": "面の記入状態",
    "derived": "導出値",
}


#: 恒久パラメータの型 (DESIGN §6.2): what a cap change of each kind of parameter may be.
PARAMETER_KINDS = {
    "integer": "整数",      # a count or an amount: a cap change is a whole number
    "coefficient": "係数",  # a factor of a rule: a cap change keeps its fraction
}


@dataclass(frozen=True)
class Variable(Term):
    """A state variable: what a 作用 may target or a reference may read.

    ``page_ops`` / ``enemy_ops`` are the operations a page's or an enemy's 作用 may apply
    to it (empty: not a target for that side). ``lifetimes`` are the value lifetimes that
    make sense for it; ``default_lifetime`` is None when the designer must say.
    ``modifier_of``/``modifier_kind`` place a modifier in the pair of its target
    (spec 002 補正変数 = 対象変数ごとの {加算補正, 乗算補正}).
    ``cond_kind`` is the play-condition family a comparison on it belongs to.
    """

    kind: str = "current"
    page_ops: tuple[str, ...] = ()
    enemy_ops: tuple[str, ...] = ()
    lifetimes: tuple[str, ...] = ("permanent",)
    default_lifetime: str | None = "permanent"
    modifier_of: str | None = None
    modifier_kind: str | None = None  # "add" | "mul"
    cond_kind: str | None = None
    readable: bool = True
    #: 恒久パラメータの型 (DESIGN §6.2): "integer" (a count: 手札上限, ドロー枚数 …) or
    #: "coefficient" (防御係数): a cap change of an integer parameter is a whole number, one of
    #: a coefficient keeps its fraction. None for every variable that is no parameter.
    param_kind: str | None = None


#: The values that fall only by the rules (HP by an attack and 支払う HP, 防御 by taking a
#: hit and its lifetime), never by a 作用 that lowers them: compiler.effects says why
#: (``_ONE_WAY``), the parser offers no ``-=`` for them.
FALLS_BY_RULES_ONLY = ("hp", "defense")

VARIABLES = (
    # 現在値 (current values)
    # 乗算 (*=, always 固定) on 敵HP, 通貨, 防御, 歩 and the multiply modifiers (DESIGN §6.1);
    # never on HP: the player's HP changes only by attacks, payments and rare heals.
    Variable("enemy_hp", "敵HP", meaning="敵の残りHP。0 になると敵は倒れる", kind="current", page_ops=("add", "mul"), enemy_ops=("add",),
             cond_kind="resource"),
    Variable("hp", "HP", meaning="残りの生。敵の攻撃で減り、0 で敗北。回復は報酬と希少なページ効果のみ", kind="current", page_ops=("add", "pay"), cond_kind="resource",
             note="プレイヤーのHP。回復は希少。支払いはそれを書いたページだけが負う"),
    Variable("steps", "歩", meaning="1ターンに数直線上を移動できる年数の予算。プレイごとに |刻 − 銘| を消費する", kind="current", page_ops=("add", "mul"), lifetimes=("turn",),
             default_lifetime="turn", cond_kind="budget"),
    Variable("defense", "防御", meaning="被弾軽減値。値ごとに消滅契機を持つ集まりで、寿命の短いものから消費される", kind="current", page_ops=("add", "mul"), enemy_ops=("add",),
             lifetimes=("on_hit", "turn", "stage", "run"), default_lifetime="turn",
             cond_kind="resource"),
    Variable("currency", "通貨", meaning="古物商でページやHPを買うための通貨", kind="current", page_ops=("add", "mul", "pay"),
             cond_kind="resource"),
    Variable("fray", "綻び", meaning="ペンと破るで蓄積する値（単位は年）。ダメージ倍率・突破ライン・綻び報酬を決める", kind="current", cond_kind="resource",
             note="ペンと破るでのみ増える"),
    Variable("age", "刻", meaning="数直線上のプレイヤーの現在位置（主人公の年齢）。プレイしたページの銘へ更新される", kind="current", page_ops=("suppress",), lifetimes=("play",),
             default_lifetime="play", cond_kind="position",
             note="プレイでのみ動く。制御できるのは抑制だけ"),
    Variable("seat", "座", meaning="数直線上の敵の位置。跨ぎの判定基準であり、防御量の基準点", kind="current", enemy_ops=("add", "assign"), cond_kind="position",
             note="敵の座。動かせるのは敵の特性だけ"),
    # 恒久パラメータ (permanent parameters): pages change them by 上限変更 only. Each is an
    # integer or a coefficient (PARAMETER_KINDS, DESIGN §6.2).
    *(
        Variable(code, year, kind="param", page_ops=("cap",), enemy_ops=("cap",),
                 lifetimes=("stage", "run"), default_lifetime=None, cond_kind="resource",
                 meaning=meaning, param_kind=param_kind)
        for code, year, param_kind, meaning in (
            ("lifespan_cap", "寿命上限", "integer", "刻の上の壁（敵の座もここで止まる）。銘がこれを超えるページは持てるがプレイできない"),
            ("hand_cap", "手札上限", "integer", "手札の上限枚数。達しているときは引かない"),
            ("draw_count", "ドロー枚数", "integer", "毎ターン引く枚数"),
            ("steps_quota", "歩の規定量", "integer", "ターン開始時に歩が回復する量"),
            ("pen_cap", "ペン回数上限", "integer", "1ステージにペンを使える回数"),
            ("tear_cap", "破り回数上限", "integer", "1ステージにページを破れる回数"),
            ("same_age_cap", "同刻上限", "integer", "1ターンにプレイできる 銘 = 刻 のページの枚数"),
            ("defense_coef", "防御係数", "coefficient", "ターン終了時の防御 = 係数 × |刻 − 座| の係数"),
            ("max_hp", "最大HP", "integer", "HP の上限。超えたぶんは切り捨てる"),
        )
    ),
    # 歩の持ち越し (DESIGN §6.1): unspent 歩 carried over at cleanup. Unlike the other
    # parameters a page may raise it for the turn alone (寿命 ターン).
    Variable("steps_carry", "歩の持ち越し", meaning="ターン終了時、使わなかった歩のうち次のターンへ持ち越せる量", kind="param", page_ops=("cap",), enemy_ops=("cap",),
             lifetimes=("turn", "stage", "run"), default_lifetime=None, cond_kind="resource",
             param_kind="integer"),
    # 補正 (modifiers): continuing effects with timing 常時
    Variable("attack_add", "攻撃力補正", meaning="敵HPへの作用に加わる加算補正", kind="modifier", page_ops=("add",), enemy_ops=("add",),
             lifetimes=(), default_lifetime=None, modifier_of="enemy_hp", modifier_kind="add"),
    Variable("attack_mul", "攻撃倍率", meaning="敵HPへの作用に掛かる乗算補正（累積綻び由来など）", kind="modifier", page_ops=("mul",), enemy_ops=("mul",),
             lifetimes=(), default_lifetime=None, modifier_of="enemy_hp", modifier_kind="mul"),
    Variable("brand", "烙印", meaning="敵HPへの作用に掛かる乗算補正（烙印）", kind="modifier", page_ops=("mul",), enemy_ops=("mul",),
             lifetimes=(), default_lifetime=None, modifier_of="enemy_hp", modifier_kind="mul"),
    Variable("fray_mul", "綻び倍率", meaning="ページ固有の、破ったときの綻び上昇量に掛かる乗算補正", kind="modifier", page_ops=("mul",),
             lifetimes=(), default_lifetime=None, modifier_of="fray", modifier_kind="mul"),
    Variable("defense_add", "防御補正", meaning="防御への作用に加わる加算補正", kind="modifier", page_ops=("add",), enemy_ops=("add",),
             lifetimes=(), default_lifetime=None, modifier_of="defense", modifier_kind="add"),
    Variable("payment_mul", "支払い倍率", meaning="歩の支払いに掛かる乗算補正", kind="modifier", page_ops=("mul",),
             lifetimes=(), default_lifetime=None, modifier_of="steps_payment", modifier_kind="mul"),
    # ページの変数 (another page's 銘) and 面の記入状態
    Variable("year", "銘", meaning="ページ固有の値。その場面が何歳のときのものか。刻との差が歩の消費量を、大小が発動する面を決める", kind="page_attr", page_ops=("assign",), enemy_ops=("assign",),
             lifetimes=("turn", "stage", "run"), default_lifetime="run", cond_kind="position"),
    # Face state changes only through the 白紙化 Intent and the pen (DESIGN §6.1): no 作用 of
    # a page or an enemy trait may assign it, so it has no operations on either side.
    Variable("face_state", "記入状態", meaning="面が書かれているか白紙か。白紙化の Intent とペンだけが変える", kind="face_state",
             lifetimes=("permanent",), default_lifetime="permanent", readable=False),
    # 導出値: read by conditions and references, never targets
    Variable("distance", "距離", meaning="このプレイの |銘 − 刻|（刻の更新前）", kind="derived", cond_kind="position",
             note="このプレイの |銘 − 刻|（刻が動く前）", phrase="|銘 − 刻|"),
    Variable("pen_left", "残りペン回数", meaning="このステージで残っているペン回数", kind="derived", cond_kind="remaining"),
    Variable("tear_left", "残り破り回数", meaning="このステージで残っている破り回数", kind="derived", cond_kind="remaining"),
    Variable("stages_cleared", "クリアしたステージ数", meaning="このランでクリアしたステージ数（出現条件が読む）", kind="derived", cond_kind="appearance"),
)

#: 内部フラグ (``@name``): a named integer joining effects together; any name is valid.
FLAG = Variable("flag", "内部フラグ", meaning="名前付きの整数（@名前）。効果どうしを繋ぐための入れ物", kind="flag", page_ops=("add", "assign"),
                enemy_ops=("add", "assign"), lifetimes=("play", "turn", "stage", "run"),
                default_lifetime="run", cond_kind="flag", phrase="フラグ「{flag}」")

#: Conditions that are words, not comparisons: このプレイで座を跨ぐ・跨がない.
CONDITION_WORDS = (
    Term("crosses", "跨ぐ", note="このプレイが座を跨ぐ", phrase="このプレイで座を跨ぐ",
         meaning="このプレイで直前の刻と新しい刻が座を挟む（座の上に止まるのは跨がない）"),
    Term("not_crosses", "跨がない", note="このプレイが座を跨がない",
         phrase="このプレイで座を跨がない", meaning="このプレイで座を挟まない"),
)

#: How a condition is tested: a chain of comparisons, a flag that is not 0, or a word.
CONDITION_TESTS = ("compare", "nonzero", "crosses", "not_crosses")
#: Comparison operators of conditions → the sign the catalog prints.
COMPARISONS = {">=": "≥", "<=": "≤", "==": "＝", "!=": "≠", ">": "＞", "<": "＜"}
#: What each comparison asks of its two sides (the editor's hover of the operator).
COMPARISON_MEANINGS = {">=": "左が右以上のとき", "<=": "左が右以下のとき", "==": "左と右が等しいとき",
                       "!=": "左と右が等しくないとき", ">": "左が右より大きいとき",
                       "<": "左が右より小さいとき"}

#: The play-condition families of spec 002 プレイ条件, in the spec's order.
CONDITION_KINDS = (
    Term("position", "位置"),
    Term("budget", "予算"),
    Term("region_count", "領域の枚数"),
    Term("page_count", "特定ページの枚数"),
    Term("remaining", "残り回数"),
    Term("cumulative", "累計量の閾値"),
    Term("resource", "資源"),
    Term("flag", "フラグ"),
)

#: マスの種別 (glossary), read by 出現条件 as 通過したマス[種別].
TILE_KINDS = (
    Term("history", "歴史", meaning="通常難易度のバトルステージのマス"),
    Term("myth", "神話", meaning="難易度の高いバトルステージのマス"),
    Term("philosophy", "哲学", meaning="戦闘を伴わない、恒久アビリティかHP回復を選ぶマス"),
    Term("antique", "古物商", meaning="戦闘を伴わない、通貨でページかHPを買うマス"),
)
TILES_PASSED = Term("tiles_passed", "通過したマス")

# ----------------------------------------------------------------- cumulative quantities

CELL_CORE, CELL_UNUSED, CELL_NONE = "●", "○", "×"


@dataclass(frozen=True)
class Counter(Term):
    """累計量: a quantity summed over a scope, read as ``year[scope]``; never a target.

    ``cells`` follows the spec's table in SCOPE_ORDER: ● core, ○ defined but unused by
    design, × meaningless (never referenced).
    """

    log: str = "change"  # 変化量ログ ("change") or 操作ログ ("operation")
    cells: str = "●●●●"

    def cell(self, scope: str) -> str:
        """The cell of the spec's table for ``scope``: ● core, ○ unused by design, × meaningless."""
        return self.cells[SCOPE_ORDER.index(scope)]


COUNTERS = (
    # 使用した歩 and 総移動距離 agree unless 刻 is suppressed (spec 002): then the distance
    # still counts as 歩 used, but 刻 travelled nothing (DESIGN §6.1 movement counters).
    Counter("steps_used", "使用した歩", meaning="使った歩の合計（ふだんは総移動距離と同じ。刻の更新が抑制されたプレイでも数える）", aliases=("移動量",), log="change", cells="●●○○"),
    Counter("distance_moved", "総移動距離", meaning="刻が動いた距離の合計（符号なし。刻の更新が抑制されたプレイでは動かないので数えない）", log="change", cells="●●○○"),
    Counter("net_displacement", "正味変位", meaning="刻の動きの符号つきの合計（未来へ +、過去へ −）", log="change", cells="●○○○"),
    Counter("crossings", "跨いだ回数", meaning="座を跨いだ回数（［プレイ］はこのプレイのぶん、［ターン］はこのプレイを含まない「既に跨いだ回数」）", log="operation", cells="●●○○"),
    Counter("plays", "プレイ枚数", meaning="プレイしたページの枚数", log="operation", cells="×●○○"),
    Counter("damage_dealt", "与えたダメージ", meaning="敵に与えたダメージの合計", log="change", cells="●○○○"),
    Counter("intents_removed", "消したIntent個数", meaning="跨いで消した Intent の個数", log="operation", cells="○●○○"),
    Counter("hp_lost", "減ったHP", meaning="減ったHPの合計", log="change", cells="●●●○"),
    Counter("defense_gained", "得た防御", meaning="得た防御の合計", log="change", cells="○●○○"),
    Counter("cards_drawn", "ドローした枚数", meaning="ドローした枚数", log="operation", cells="○●○○"),
    Counter("fray_gained", "増えた綻び", meaning="増えた綻びの合計（［ラン］が累積綻び、［ステージ］が突破ラインに数える上昇量）", log="change", cells="×○●●"),
    Counter("tears", "破った回数", meaning="ページを破った回数", log="operation", cells="×○●●"),
    Counter("pens", "使用したペン回数", meaning="ペンを使った回数", aliases=("ペン回数",), log="operation", cells="×○●●"),
    Counter("currency_spent", "使用した通貨", meaning="使った通貨の合計", log="change", cells="●○○●"),
)

#: Why each × cell is ×, from the spec's table; quoted in the diagnostic's hint.
CELL_NONE_REASONS = {
    "plays": "プレイ枚数[プレイ] は常に 1 であり、定数と区別できない",
    "fray_gained": "綻びが増えるのはペンと破るのみで、どちらもプレイではない",
    "tears": "綻びが増えるのはペンと破るのみで、どちらもプレイではない",
    "pens": "綻びが増えるのはペンと破るのみで、どちらもプレイではない",
}

# ------------------------------------------------------------------------- enemies

#: Intent の種類 (glossary: 攻撃と白紙化の2種類).
INTENT_KINDS = (
    Term("attack", "攻撃", note="n の攻撃1発"),
    Term("blank", "白紙化", note="領域のランダムな1枚の発動面を白紙にする"),
)


@dataclass(frozen=True)
class Trait(Term):
    """特性 — an enemy trait that is not a plain 作用 line; ``arg`` is the argument it takes
    (none, int or range)."""

    arg: str = "none"  # "none" | "int" | "range"
    telegraphed: bool = False


#: 特性 that are not a plain 作用 line (DESIGN §6). Seat movement is written as a 作用 on 座.
TRAITS = (
    Trait("immobile", "不動", arg="none", note="座は動かない。座を動かす作用は何もしない",
          phrase="不動（座は動かない）"),
    Trait("acceleration", "加速", arg="int",
          note="エスカレーションのたびに、エスカレーションの間隔が n ターン縮む（最小 1）",
          phrase="加速 {value}（エスカレーションのたびに間隔が {value} ターン縮む）"),
    Trait("per_hit_reduction", "軽減", arg="int",
          note="1発ごとの軽減: 敵HPへの1発ごとに n 減る",
          phrase="1発ごとの軽減 {value}（敵HPへの1発ごとに {value} 減る）"),
    Trait("blockade", "封鎖", arg="range", note="プレイヤーはこの刻の範囲に止まれない",
          phrase="封鎖 {low}〜{high}（この刻には止まれない）"),
)

# ----------------------------------------------------------------- battle quantities

#: 戦闘の量 — what an example's 確認 reads about a battle besides its variables and faces
#: (DESIGN §6 例): the Intents left, the outcome, and how often an event happened.
BATTLE_QUANTITIES = (
    Term("intents", "Intent", aliases=("予兆の残り",), note="このターンに残っている Intent"),
    Term("won", "勝利", note="ランに勝っていれば 1、そうでなければ 0（ステージの勝ちは 出来事[ステージの勝利] で数える）"),
    Term("lost", "敗北", note="ランに負けていれば 1、そうでなければ 0"),
    Term("events", "出来事", note="添字の種類の出来事が起きた回数"),
)

#: 出来事の種類 — what an example's 出来事[…] counts: every kind of event the battle says
#: (runtime/events.py LAYOUTS; a test holds the two the same), by a Japanese name, its
#: code an alias. A count reads the events since the previous 確認.
EVENTS = (
    Term("run_started", "ラン開始", meaning="ランが始まった"),
    Term("run_won", "ランの勝利", meaning="ランに勝った"),
    Term("run_lost", "ランの敗北", meaning="ランに負けた"),
    Term("stage_started", "ステージ開始", meaning="ステージが始まった"),
    Term("stage_won", "ステージの勝利", meaning="ステージに勝った"),
    Term("turn_started", "ターン開始", meaning="ターンが始まった"),
    Term("intents_shown", "予兆の表示", meaning="このターンの Intent が示された"),
    Term("trait_telegraphed", "特性の予告", meaning="特性の次の動きが予告された"),
    Term("steps_refilled", "歩の回復", meaning="ターンの始まりに歩が規定量まで回復した"),
    Term("steps_carried", "歩の持ち越し", meaning="歩の持ち越しで歩が残された"),
    Term("drawn", "ドロー", meaning="ページを1枚引いた", note="1 枚引くごとに 1 回"),
    Term("draw_skipped", "引けなかったドロー", meaning="引くはずのページを引けなかった", note="手札が上限か、山札も捨て札も空"),
    Term("reshuffled", "山札の作り直し", meaning="捨て札をシャッフルして山札にした", note="捨て札をシャッフルして山札にした"),
    Term("redraw_started", "引き直しの開始", meaning="出せるページがなく引き直しが始まった"),
    Term("redrawn", "引き直し", meaning="引き直しで引いた"),
    Term("no_playable_page", "出せるページなし", meaning="引き直しても出せるページがなかった"),
    Term("played", "ページのプレイ", meaning="手札のページをプレイした"),
    Term("face_fired", "面の発動", meaning="プレイしたページの面が発動した"),
    Term("moved", "刻の移動", meaning="プレイで刻が動いた（抑制されたときも）"),
    Term("crossed", "座を跨いだ", meaning="プレイで刻が座を跨いだ"),
    Term("intent_removed", "Intentの除去", meaning="座を跨いで Intent を1つ取り除いた"),
    Term("sayou", "作用の解決", meaning="作用を1つ解決した", note="作用列の作用 1 つごとに 1 回"),
    Term("damage", "ダメージを与えた", meaning="敵HPにダメージを与えた", note="敵HPへのダメージ 1 回ごと（0 のダメージも）"),
    Term("healed", "回復した", meaning="HP か敵HP が回復した", note="HP か 敵HP が増えた"),
    Term("defense_gained", "防御の獲得", meaning="防御を得た"),
    Term("defense_consumed", "防御の消費", meaning="被弾で防御が減った"),
    Term("defense_expired", "防御の失効", meaning="寿命が尽きて防御が消えた"),
    Term("steps_changed", "歩の増減", meaning="作用で歩が増減した"),
    Term("param_changed", "パラメータの変更", meaning="上限変更で恒久パラメータが変わった"),
    Term("flag_changed", "フラグの変更", meaning="内部フラグの値が変わった"),
    Term("year_changed", "銘の変更", meaning="ページの銘が変わった"),
    Term("currency_changed", "通貨の増減", meaning="通貨が増減した"),
    Term("paid", "支払い", meaning="支払いをした"),
    Term("payment_skipped", "支払えなかった支払い", meaning="支払えず、その面が発動しなかった"),
    Term("suppressed", "刻の抑制", meaning="刻の更新が抑制された"),
    Term("page_moved", "ページの移動", meaning="作用でページが領域を移った"),
    Term("page_discarded", "プレイ後の捨て札", meaning="プレイしたページが捨て札へ行った"),
    Term("page_exiled", "ページの除外", meaning="ページが除外へ行った",
         note="プレイ後の除外も、作用で除外へ移したことも数える"),
    Term("page_returned", "除外からの戻り", meaning="除外（ステージ）のページが捨て札へ戻った", note="ステージの始まりに除外（ステージ）から捨て札へ"),
    Term("page_generated", "ページの生成", meaning="ページを生成した"),
    Term("generation_failed", "生成できなかった生成", meaning="デッキ内上限枚数のため生成できなかった", note="デッキ内上限枚数に達していた"),
    Term("page_removed", "生成したページの消滅", meaning="寿命の尽きた生成ページが消えた", note="寿命 ステージ の生成ページがステージの終わりに消える"),
    Term("hand_full", "手札が上限", meaning="手札が上限なのでページが捨て札へ行った", note="手札へ移すか生成するはずのページが捨て札へ"),
    Term("choice_requested", "選択の要求", meaning="作用がプレイヤーに選択を求めた"),
    Term("choice_settled", "選ばずに決まった選択", meaning="候補が選ぶ枚数以下だったので、選択を求めずに決まった", note="移動・複製は候補をすべて取り、生成は候補から引く。候補が 0 枚なら何も起きない"),
    Term("chosen", "選んだ", meaning="選択に答えた"),
    Term("effect_placed", "継続作用の配置", meaning="継続作用が場に置かれた"),
    Term("effect_expired", "継続作用の終わり", meaning="継続作用が尽きて場から消えた"),
    Term("chain_stopped", "連鎖の停止", meaning="終わらない連鎖を止めた", note="1 手で発動が 64 回を超えた"),
    Term("pen", "ペンで書いた", meaning="ペンで面に書き込んだ"),
    Term("tear", "破った", meaning="ページを破った"),
    Term("fray_gained", "綻びの上昇", meaning="綻びが上がった"),
    Term("reward", "綻び報酬を得た", meaning="綻び報酬を得た"),
    Term("end_declared", "ターン終了の宣言", meaning="ターン終了を宣言した"),
    Term("defense_from_distance", "距離の防御", meaning="ターン終了時に刻と座の距離から防御を得た"),
    Term("enemy_acts", "敵の行動", meaning="敵が行動した"),
    Term("hit", "被弾", meaning="敵の攻撃か作用で HP を減らされうる1回", note="HP を減らしうる 1 回ごと: 敵の攻撃（防御で受けきっても）と、HP を減らす作用"),
    Term("blanked", "白紙化された", meaning="敵の白紙化で面が白紙になった"),
    Term("blank_missed", "白紙化の空振り", meaning="白紙化する面がなかった"),
    Term("seat_moved", "座の移動", meaning="座が動いた（不動で動かなかったときも）"),
    Term("escalated", "エスカレーション", meaning="エスカレーションで Intent が増えた"),
    Term("dev_set", "開発者モードの設定", meaning="開発者モードで値を設定した"),
    Term("revealed", "山札の公開", meaning="山札の上のページを公開した"),
)

# ------------------------------------------------------------------ balance targets

#: 目標 — the balance a designer intends an item to have, written on the item and checked
#: by the balance lab (``jibunki sim --check``) against what it measures.
TARGET = Term("target", "目標", note="測るバランスの値が収まってほしい範囲")
#: How rules text (the catalog) says a 目標: 「目標 勝率 40%〜70%」.
TARGET_PHRASE = "{target} {measure} {low}〜{high}"


@dataclass(frozen=True)
class Measure(Term):
    """目標の量 — a figure a lab measures and a 目標 states the range of: the kinds of item
    it is written on (``items``, codes of contract.kinds), every value it can take, as
    fractions (``low``..``high``), and whether it is a change (``signed``: shown with its
    sign)."""

    items: tuple[str, ...] = ("enemy",)  # the items whose 目標 it is
    low: float = 0.0
    high: float = 1.0
    signed: bool = False

    def percent(self, fraction: float) -> str:
        """A fraction as content and rules text write it: 0.4 → 40%; a change with its
        sign (0.15 → +15%, −0.05 → -5%, and 0 → 0%)."""
        number = round(fraction * 100, 6) + 0.0  # + 0.0: no "-0%"
        return f"{number:+g}%" if self.signed and number else f"{number:g}%"

    def said_range(self, low: float, high: float) -> str:
        """The whole 目標 as rules text says it: 「目標 勝率 40%〜70%」."""
        return TARGET_PHRASE.format(target=TARGET.ja, measure=self.ja,
                                    low=self.percent(low), high=self.percent(high))


#: 目標の量 — each kind of item that can state a 目標 has one. A win rate lies in 0..1; the
#: change a page makes to it (in percentage points) in −1..1. A 旅の準備's 勝率 is the
#: journey report's: the player that does not see the deck, at the report's largest budget.
MEASURES = (
    Measure("win_rate", "勝率", items=("enemy", "setup"), low=0.0, high=1.0,
            note="敵: この敵だけを相手にした初期デッキの勝率。"
                 "旅の準備: 旅の測定でいちばん多く山を想定する、山を見ない打ち手の勝率"),
    Measure("win_rate_delta", "勝率差", items=("page",), low=-1.0, high=1.0, signed=True,
            note="このページを1枚足したときの、初期デッキの勝率の変化"),
)
#: The measure of each kind of item's 目標, by the item (its contract.kinds code: "enemy",
#: "page", "setup").
MEASURE_OF = {item: measure for measure in MEASURES for item in measure.items}

#: 測定の語 — the words the reports measure with (the balance lab's and the journey's): a
#: 目標's verdict, and the journey report's players and figures. Content does not spell
#: them; the reports, the catalog, the editor and the help say them through ``W.report``,
#: and ``jibunki vocab`` says what each means.
REPORT_TERMS = (
    Term("met", "達成",
         meaning=f"{TARGET.ja}の判定: 測った値の 95% 区間がまるごと{TARGET.ja}の内側"),
    Term("missed", "未達",
         meaning=f"{TARGET.ja}の判定: 区間がまるごと{TARGET.ja}の外側（上に外れか下に外れかを添えます）"),
    Term("undecided", "未決",
         meaning=f"まだ決まらない: 区間が{TARGET.ja}の端にかかる、またはページの勝率差の区間が 0 を"
                 "またいで、求める精度にまだ届かない（シードや配りを増やすと決まります）。旅の測定では、"
                 "予算内に勝ち筋も負けの証明も見つからない配りと、最善手を証明できない決定"),
    Term("stronger", "強い",
         meaning="実験室のページの判定: はじめのデッキにそのページを加えた時の勝率差 Δ の 95% 区間が"
                 "まるごと 0 より上（入れると勝ちやすくなる）"),
    Term("weaker", "弱い",
         meaning="実験室のページの判定: 勝率差 Δ の 95% 区間がまるごと 0 より下（入れると負けやすく"
                 "なる）"),
    Term("no_effect", "差なし",
         meaning="実験室のページの判定: 勝率差 Δ の 95% 区間が 0 をまたぎ、求める精度（--precision の"
                 "半幅）まで狭まった: 入れても勝率はその幅より変わらない"),
    Term("winnable", "クリア可能",
         meaning="旅の測定: 勝ち筋が見つかった配り（解き手が見つけたか、山を見ない打ち手が勝った）。"
                 "未決の配りは数えないので、割合は下限"),
    Term("solver", "解き手",
         meaning="旅の測定: 山の順を知って配りを探し、勝ち筋と最高点を見つける探索"),
    Term("blind_player", "山を見ない打ち手",
         meaning="旅の測定: まだ見ていないカードの順を決定ごとに想定して打つ、人の代わりの打ち手"
                 "（想定する順の数がその予算）。旅の準備の目標 勝率はこの打ち手の勝率"),
    Term("contenders", "迷う選択肢",
         meaning="打ち手の評価（山に残るカード 1 枚を 1 とする見込み。スコアの点ではない）で、"
                 "最善から 5 以内（手元のレター 1 個の重み）の選択肢（最善を含む）: "
                 "人が本当に比べなければならない選択"),
    Term("ladder", "思考の段",
         meaning="解き手の筋の決定ごとに、最善手を選べるいちばん安い考え方"
                 "（無作為、貪欲、一手先読み、山を見ない探索、解き手の順）"),
)

#: 方針 — the players the balance lab plays battles with, weakest first (``sim/policies.py``
#: holds each one's code; ``jibunki sim --policy`` and ``--ladder`` take the name or the
#: code). The journey's ladder of thinking names its first two rungs with the same words.
PLAYERS = (
    Term("random", "無作為",
         meaning="合法な行動（選択の途中ならその答え）から同じ確率で 1 つ選ぶ打ち手"),
    Term("greedy", "貪欲",
         meaning="行動を 1 つずつ試し、その直後の見込みが最も良いものを選ぶ打ち手"),
    Term("search", "先読み探索",
         meaning="行動ごとに次のターンの先まで打ってみて（見えていないカードは知らないまま）、"
                 "最も良いものを選ぶ打ち手"),
)
#: Each player's name by its code, for the reports (a report of an older version may name
#: a player not listed: it is shown by its code).
PLAYER_NAMES = {player.code: player.ja for player in PLAYERS}

# ------------------------------------------------------------------------- balance


@dataclass(frozen=True)
class BalanceKey(Term):
    """A setting of the バランス file: a number the rules read (whether an int or a float,
    its allowed range, and the default used when the file leaves it out; None: it must be
    given), or — ``type`` "page" — a page id the balance lab reads (基準ページ)."""

    type: str = "int"  # "int" | "float" | "page" (a page id of the starting deck)
    low: float = 0
    high: float = 10_000
    #: None: the balance file must give it. Otherwise the value used when it does not, so
    #: that a key added later leaves every existing balance file valid.
    default: float | None = None
    #: True: the file may leave it out and the table then leaves it out too (it has no
    #: default: nothing is named). Only a key no battle reads may be optional.
    optional: bool = False

    @property
    def required(self) -> bool:
        """Whether every balance file must write this key once."""
        return self.default is None and not self.optional


#: Every number the rules read (DESIGN §6), and the page the balance lab swaps each page
#: for (基準ページ). The balance file gives each at most once, and every ``required`` key
#: exactly once; the compiled table holds every number, and the page when one is named.
BALANCE_KEYS = (
    BalanceKey("start_age", "初期刻", type="int", low=0, high=200, note="ラン開始時の刻"),
    BalanceKey("lifespan_cap", "寿命上限", type="int", low=1, high=200, note="刻の上の壁"),
    BalanceKey("max_hp", "最大HP", type="int", low=1, note="HP の上限（超えたぶんは切り捨て）"),
    BalanceKey("start_hp", "初期HP", type="int", low=1, note="ラン開始時のHP"),
    BalanceKey("steps_quota", "歩の規定量", type="int", low=0, note="毎ターン回復する歩"),
    BalanceKey("draw_count", "ドロー枚数", type="int", low=0, high=50, note="毎ターン引く枚数"),
    BalanceKey("hand_cap", "手札上限", type="int", low=1, high=50, note="これ以上は引かない"),
    BalanceKey("stage_start_hand", "ステージ開始時の手札", type="int", low=0, high=50,
               note="ラン開始時と引き直しで引く枚数"),
    BalanceKey("defense_coef", "防御係数", type="float", low=0, high=100,
               note="ターン終了時の防御 = 係数 × |刻 − 座|"),
    BalanceKey("same_age_cap", "同刻上限", type="int", low=0, high=50,
               note="1ターンにプレイできる 銘 = 刻 のページの枚数"),
    BalanceKey("pen_cap", "ペン回数上限", type="int", low=0, high=50, note="1ステージのペン回数"),
    BalanceKey("tear_cap", "破り回数上限", type="int", low=0, high=50, note="1ステージの破り回数"),
    BalanceKey("pen_fray", "ペンの綻び", type="int", low=0, note="ペン1回で上がる綻び（年）"),
    BalanceKey("fray_attack", "綻び攻撃係数", type="float", low=0, high=10,
               note="攻撃倍率 = 1 + 係数 × 累積綻び"),
    BalanceKey("tear_scale", "破却係数", type="float", low=0, high=10,
               note="破却効果の基準値 × (1 + 係数 × 距離)。乗算は 1 を超える分が伸びる: "
                    "攻撃倍率 *= 1.2 は ×(1 + 0.2 × (1 + 係数 × 距離))"),
    BalanceKey("reward_interval", "綻び報酬間隔", type="int", low=1,
               note="累積綻びがこの年数に達するたびに綻び報酬"),
    BalanceKey("deck_cap_default", "デッキ内上限枚数", type="int", low=1, high=99,
               note="ページが上限枚数を書かないときの既定"),
    BalanceKey("steps_carry", "歩の持ち越し", type="int", low=0, high=10_000, default=0,
               note="ターン終了時、使わなかった歩のうちこの量までを次のターンへ持ち越す"),
    BalanceKey("reference", "基準ページ", type="page", optional=True,
               note="はじめのデッキのページ。各ページをこれと1枚入れ替えて、jibunki sim が"
                    "「入れ替えた時の勝率差」を測る（--reference の既定。戦闘は読まない）。書かなければ測らない"),
)
def number_keys() -> tuple[BalanceKey, ...]:
    """The balance keys that are numbers the rules read (every key but the page ones): a
    view of BALANCE_KEYS, not a table of its own."""
    return tuple(key for key in BALANCE_KEYS if key.type in ("int", "float"))

#: 銘 must lie in 0..YEAR_BOUND. Pages beyond 寿命上限 are allowed (years never lived),
#: but nobody lives 200 years even with every 哲学 tile.
YEAR_BOUND = 200
#: A 綻び倍率 above this is almost certainly a typo (the spec's range is about 0.5–2.0).
FRAY_MUL_BOUND = 100

#: The romanised codes of schema version 2, by the English code that replaced them, so that
#: content written with the old ASCII spelling is told the new one (did-you-mean).
FORMER_CODES = {
    "mei": "year", "toki": "age", "za": "seat", "ho": "steps", "bougyo": "defense",
    "tsuka": "currency", "hokorobi": "fray", "rakuin": "brand", "hokorobi_mul": "fray_mul",
    "ho_quota": "steps_quota", "ho_carry": "steps_carry", "ho_used": "steps_used",
    "hokorobi_gained": "fray_gained", "mei_toki_cap": "same_age_cap", "start_toki": "start_age",
    "pen_hokorobi": "pen_fray", "hokorobi_attack": "fray_attack",
    "after_ho_refill": "after_steps_refill",
}

#: 読み — how an IME spells a word of the language before it is converted: a word left in
#: kana (ぼうぎょ, てきHP) is that word, not the nearest spelling (てきHP was offered HP,
#: which pays the player's own HP). Only for did-you-mean (compiler.names.suggest): a
#: reading is never a spelling the language accepts.
READINGS = {
    "敵HP": "てきHP", "防御": "ぼうぎょ", "通貨": "つうか", "刻": "とき", "銘": "めい",
    "座": "ざ", "烙印": "らくいん", "攻撃力補正": "こうげきりょくほせい",
    "攻撃倍率": "こうげきばいりつ", "綻び倍率": "ほころびばいりつ", "防御補正": "ぼうぎょほせい",
    "支払い倍率": "しはらいばいりつ", "寿命": "じゅみょう", "範囲": "はんい", "未来面": "みらいめん",
    "過去面": "かこめん", "白紙": "はくし", "条件": "じょうけん", "出自": "しゅつじ",
    "行き先": "いきさき", "破却": "はきゃく", "上限枚数": "じょうげんまいすう", "予兆": "よちょう",
    "特性": "とくせい", "固定": "こてい", "支払う": "しはらう", "抑制": "よくせい", "移動": "いどう",
    "生成": "せいせい", "複製": "ふくせい", "公開": "こうかい", "手札": "てふだ", "山札": "やまふだ",
    "捨て札": "すてふだ", "除外": "じょがい", "綻び": "ほころび", "突破ライン": "とっぱライン",
    "目標": "もくひょう", "勝率差": "しょうりつさ", "勝率": "しょうりつ", "歩": "ほ",
}

# ------------------------------------------------------------- 旅 (spec 004)
# The second rule set: the tabletop draft 17 「明日、旅に出ます」. Its content is written
# as items of the language (ロケーション, イベント, フラグ, アイテム, レター, 旅の準備) whose
# fields are the JOURNEY_FIELDS; the journey runtime (journey/) implements each effect of
# JOURNEY_EFFECTS, and nothing else: content picks among them, it cannot invent one.

#: The draft's title: the game its printed cards are of (their backs, their stamps).
JOURNEY_TITLE = "明日、旅に出ます"

#: スート — the five stories of the event cards (赤 珍獣屋, 緑 ワタリガラス …).
JOURNEY_SUITS = (
    Term("red", "赤"), Term("green", "緑"), Term("blue", "青"), Term("yellow", "黄"),
    Term("white", "白"),
)


@dataclass(frozen=True)
class JourneyEffect(Term):
    """An effect of the journey rule set: a suit's (its flag card), a letter's or an item's.
    ``of`` says whose it is; ``passive``: always on, never tapped (the items of the draft's
    問題点 summary, paid for in VP); ``value``: it reads the item's 効果値 (キーボーナス +2)."""

    of: str = ""
    passive: bool = False
    value: bool = False


JOURNEY_EFFECTS = (
    # suits: what a flag card says (spec 004 イベントフェイズ)
    JourneyEffect("nudge_black", "黒ポーン移動", of="flag",
                  phrase="黒いポーン１個を前後どちらかへ１ロケーション動かす"),
    JourneyEffect("swap_same_number", "同数字交換", of="flag",
                  phrase="同じ数字のイベント２枚の位置を交換する（来たイベントの効果はこの手番に適用しない）"),
    JourneyEffect("draw_return", "引いて戻す", of="flag",
                  phrase="山から１枚引いて手札に加え、手札１枚を山の下へ戻す"),
    JourneyEffect("stand_item", "アイテム復帰", of="flag",
                  phrase="使用済みのアイテム１個を縦置きに戻す"),
    JourneyEffect("call_black", "黒ポーン呼び寄せ", of="flag",
                  phrase="黒いポーン１個を現在のロケーションへ動かす（既にいる方は選べない）"),
    # letters (spec 004 ◎レター)
    JourneyEffect("location_memory", "ロケーションメモリー", of="letter",
                  phrase="黒いポーン１個を前後どちらかへ１ロケーション動かす"),
    JourneyEffect("adventure_memory", "アドベンチャーメモリー", of="letter",
                  phrase="捨て札から好きな１枚を山の一番上に戻す"),
    # items as the set-up lists them: tapped when used, stood up again by a green event
    JourneyEffect("unresolve", "未解決扱い", of="item",
                  phrase="解決済みのスート１つを手番終了時まで未解決として扱い、イベント効果を適用できる"),
    JourneyEffect("advance_white", "白ポーン前進", of="item",
                  phrase="白いポーンを１ロケーション進める"),
    JourneyEffect("cycle_three", "三枚入れ替え", of="item",
                  phrase="山から３枚引いて手札に加え、手札３枚を好きな順番で山の下へ戻す"),
    JourneyEffect("recall_extra", "追加回収", of="item",
                  phrase="アドベンチャーメモリーを使用した際、追加で捨て札１枚を山の上へ戻す"),
    JourneyEffect("swap_in", "差し替え", of="item",
                  phrase="現在のロケーションのイベント１枚を捨て札にし、手札１枚を同じ位置に配置する"),
    JourneyEffect("loop_to_bottom", "ループ回収", of="item",
                  phrase="ループの際、引いたカードを見てから、捨て札にせず山の一番下へ戻す"),
    # items as the 問題点 summary lists them: always on, each with a cost in VP
    JourneyEffect("red_slots", "赤枠使用", of="item", passive=True,
                  phrase="赤いカードアイコンにも配置できる"),
    JourneyEffect("split_black", "黒ポーン分割移動", of="item", passive=True,
                  phrase="黒いポーンの歩数を２個に分けて動かせる"),
    JourneyEffect("next_open", "山札公開", of="item", passive=True,
                  phrase="山の一番上のカードを表向きにする"),
    JourneyEffect("key_bonus", "キーボーナス", of="item", passive=True, value=True,
                  phrase="キーアイコンが揃ったロケーション１つにつき {value}ＶＰ追加"),
    JourneyEffect("extra_hand", "手札追加", of="item", passive=True, value=True,
                  phrase="手札の枚数＋{value}"),
    JourneyEffect("loop_to_bottom_always", "常時ループ回収", of="item", passive=True,
                  phrase="ループの際、捨て札にせず山の一番下へ戻す"),
)


@dataclass(frozen=True)
class JourneyField(Term):
    """A field of a journey item: the kinds of item that take it, the shape of its value
    (each part one of "number", "name", "text", "names" — a [list] — and no part for a
    field written alone, such as 高難易度), whether an item must write it and whether it
    may be written more than once."""

    kinds: tuple[str, ...] = ()
    shape: tuple[str, ...] = ()
    required: bool = False
    repeat: bool = False



JOURNEY_FIELDS = (
    JourneyField("slots", "枠", kinds=("location",), shape=("number",), required=True,
                 note="カードアイコンの数: ロケーションに置けるイベントの枚数"),
    JourneyField("red", "赤枠", kinds=("location",), shape=("number",),
                 note="そのうち赤いもの（外側）の数。高難易度では無いものとして扱う"),
    JourneyField("suit", "スート", kinds=("event", "flag"), shape=("name",), required=True),
    JourneyField("number", "数字", kinds=("event",), shape=("number",), required=True),
    JourneyField("key", "鍵", kinds=("event",), shape=("name",), required=True,
                 note="キーアイコン"),
    JourneyField("effect", "効果", kinds=("flag", "item", "letter"), shape=("name",),
                 required=True),
    JourneyField("value", "効果値", kinds=("item",), shape=("number",)),
    JourneyField("cost", "費用", kinds=("item",), shape=("number",),
                 note="アイテムを携帯したとき得点から引かれるVP"),
    JourneyField("text", "文", kinds=JOURNEY_KINDS, shape=("text",),
                 note="デザイナーの文。書いたとおりに表示し、解釈しない"),
    JourneyField("base", "元", kinds=("setup",), shape=("name",),
                 note="この準備が変更する元の準備（変種）"),
    JourneyField("last_day", "最終日", kinds=("setup",), shape=("name",),
                 note="いつも最後に置くロケーション。ほかはその前にシャッフルして置く"),
    JourneyField("hand", "初期手札", kinds=("setup",), shape=("number",),
                 note="準備で引く枚数（手番ではこれより1枚多い中から選ぶ）"),
    JourneyField("items_chosen", "アイテム数", kinds=("setup",), shape=("number",)),
    JourneyField("item_pool", "アイテム一覧", kinds=("setup",), shape=("names",)),
    JourneyField("carried", "携帯", kinds=("setup",), shape=("names",),
                 note="プレイヤーが何も選ばないときに携帯するアイテム"),
    JourneyField("keys", "鍵の種類", kinds=("setup",), shape=("names",)),
    JourneyField("key_vp", "鍵ボーナス", kinds=("setup",), shape=("number",),
                 note="キーアイコンがすべて揃ったロケーション1つにつきのVP"),
    JourneyField("merge_key", "鍵の置き換え", kinds=("setup",), shape=("name", "name"),
                 repeat=True, note="1つ目のキーアイコンを2つ目として数える"),
    JourneyField("hard", "高難易度", kinds=("setup",), shape=(),
                 note="赤いカードアイコンは無いものとして扱う"),
    JourneyField("optional_effects", "効果は任意", kinds=("setup",), shape=(),
                 note="スートの効果はどれも適用しなくてよい（問題点:「メイにする」）"),
    JourneyField("next_open", "山札公開", kinds=("setup",), shape=(),
                 note="山の一番上のカードを表向きにする"),
)

# ------------------------------------------------------------------------ keywords


def _words(entries, code: str, *, symbol: bool = False) -> tuple[str, str]:
    """(Japanese, ASCII) of the entry ``code``: its name (or its operator word) and code."""
    entry = next(e for e in entries if e.code == code)
    return (entry.symbol if symbol else entry.ja), entry.code


#: キーワード — the structural words of the language (DESIGN §3), each with its one ASCII
#: alias, by the grammar's rule name (the grammar refers to each as ``_kw_<rule>``; the
#: rules are generated from this table by dsl/keywords.py). Names of the game's
#: vocabulary are not keywords — the grammar reads them as plain names — except the few
#: that give a file its shape too (銘, 未来面, 固定, 移動 …): those are the term's own words.
KEYWORDS: dict[str, tuple[str, str]] = {
    # top-level items
    "page": ("ページ", "page"),
    "enemy": ("敵", "enemy"),
    "balance": ("バランス", "balance"),
    "deck": ("デッキ", "deck"),
    # 旅 (spec 004, draft 17): its kinds of item; their fields are names (JOURNEY_FIELDS)
    "j_location": ("ロケーション", "location"),
    "j_event": ("イベント", "event"),
    "j_flag": ("フラグ", "flag_card"),
    "j_item": ("アイテム", "item"),
    "j_letter": ("レター", "letter"),
    "j_setup": ("旅の準備", "journey_setup"),
    # page fields
    "year": _words(VARIABLES, "year"),
    "fray_mul": _words(VARIABLES, "fray_mul"),
    "origin": ("出自", "origin"),
    "dest": ("行き先", "after_play"),
    "deck_cap": ("上限枚数", "deck_cap"),
    "appears": ("出現条件", "appears_if"),
    "future": _words(FACES, "future"),
    "past": _words(FACES, "past"),
    "blank": ("白紙", "blank"),
    "pen": ("ペン", "pen"),
    "tear": ("破却", "tear_effect"),
    "flavor": ("フレーバー", "flavor"),
    "target": (TARGET.ja, TARGET.code),  # on pages, enemies and 旅の準備
    # inside faces
    "cond": ("条件", "if"),
    # the six terms
    "life": ("寿命", "life"),
    "at": ("毎", "at"),
    "until": ("範囲", "until"),
    "max": ("最大", "max"),
    "times": ("回", "times"),
    "fixed": _words(LANDINGS, "fixed"),
    "modified": _words(LANDINGS, "modified"),
    "telegraphed": ("予告", "telegraphed"),
    "next": ("以降", "next"),
    # operation words
    "cap": _words(OPERATIONS, "cap", symbol=True),
    "suppress": _words(OPERATIONS, "suppress"),
    "move": _words(OPERATIONS, "move"),
    "generate": _words(OPERATIONS, "generate"),
    "duplicate": _words(OPERATIONS, "duplicate"),
    "reveal": _words(OPERATIONS, "reveal"),
    "pay": _words(OPERATIONS, "pay", symbol=True),
    "cards": ("枚", "cards"),
    "filter_page": ("ページ指定", "page_id"),
    # enemies
    "hp": _words(VARIABLES, "hp"),
    "seat": _words(VARIABLES, "seat"),
    "breakthrough": ("突破ライン", "breakthrough"),
    "intents": ("予兆", "intents"),
    "escalation": ("エスカレーション", "escalation"),
    "per_turns": ("ターンごと", "turns"),
    "traits": ("特性", "traits"),
    # balance
    "reward": ("綻び報酬", "reward"),
    # examples (scenarios)
    "example": ("例", "example"),
    "seed": ("シード", "seed"),
    "setup": ("開始", "setup"),
    "play": ("出す", "play"),
    "rip": ("破る", "tear"),
    "end": ("終了", "end"),
    "choose": ("選ぶ", "choose"),
    "expect": ("確認", "expect"),
    "refused": ("拒否", "refused"),
}

#: What each keyword of KEYWORDS does, by its rule: the editor's hover and completion
#: say it.
KEYWORD_MEANINGS = {
    "page": "ページを始める: id、題名（書かなくてもよい）、続く { } の中に項目と面",
    "enemy": "敵を始める: id、題名（書かなくてもよい）、HP・座・予兆・特性",
    "balance": "バランスのブロック: ルールが読むすべての数値",
    "deck": "名前を付けたページ id の並び（× n で同じページを n 枚）",
    "year": "ページの銘（0〜200）。銘が刻より大きいとき未来面が発動する",
    "fray_mul": "このページを破ったときの綻びの上昇量に掛かる倍率（ペンの綻びには掛からない）",
    "origin": "ページが来た人生の時期（生成の絞り込みで名指しできる）",
    "dest": "プレイした後にページが行く先",
    "deck_cap": "デッキに入れられるこのページの枚数",
    "appears": "ランの中でこのページが出現する条件",
    "future": "ページの銘が刻より大きいときに発動する面",
    "past": "ページの銘が刻より小さいときに発動する面",
    "blank": "何も書かれていない面（ペンで書き込める）",
    "pen": "ペンが面に書き込むもの: 置き換わる作用",
    "tear": "ページを破ったときの効果（破却効果）",
    "flavor": "ページや敵の札に表示するフレーバーテキスト（ルールには関わらない）",
    "target": "デザイナーが意図するバランス。jibunki sim --check（旅の準備は jibunki journey report --check）が確かめる",
    "cond": "面のプレイ条件",
    "life": "作用の結果の値の寿命",
    "at": "継続作用が発動するタイミング",
    "until": "継続作用の繰り返し範囲",
    "max": "継続作用が発動する最大の回数",
    "times": "最大 の後に書く、回数の語",
    "fixed": "補正を無視する着地",
    "modified": "既定の着地: 補正が掛かる",
    "telegraphed": "敵がその行動を起こす前に予告する",
    "next": "アンカー付きの範囲: 以降 n プレイ、または以降 n ターン",
    "cap": "恒久パラメータを変える",
    "suppress": "制御: このプレイで変数を動かさない",
    "move": "ページを領域から領域へ移す",
    "generate": "出自と銘の範囲からページを作る",
    "duplicate": "ページを複製する",
    "reveal": "山札の上のページを順に見せる",
    "pay": "歩以外の支払い",
    "cards": "ページを数える語",
    "filter_page": "ページを id で指定する",
    "hp": "敵の定義の HP 欄では、その敵の HP（ステージの始まりの値）。作用と条件の HP はプレイヤーの HP",
    "seat": "数直線上の敵の座",
    "breakthrough": "突破ライン: そのステージ中の綻びの上昇量がここに達すると敵に勝つ",
    "intents": "敵の Intent の列（順番どおり）",
    "escalation": "n ターンごとに Intent が1個加わる",
    "per_turns": "エスカレーションの単位",
    "traits": "敵の特性と特性の作用",
    "reward": "綻び報酬の区切りに達したときに得るもの",
    "example": "例のバトル（シナリオ）: 敵、シード、デッキ、手順",
    "seed": "例のバトルのシード",
    "setup": "例の始めに開発者モードで設定する値",
    "play": "ページをプレイする",
    "rip": "ページを破る",
    "end": "ターンの終了を宣言する",
    "choose": "プレイヤーの選択に答える",
    "expect": "手順の後の値を確かめる",
    "refused": "その手順が拒否されることを確かめる（理由の語を添えてもよい）",
    # 旅 (spec 004)
    "j_location": "旅のロケーションを始める: 名前、枠、赤枠",
    "j_event": "旅のイベントカードを始める: スート、数字、鍵",
    "j_flag": "旅のフラグカードを始める: スートとその効果",
    "j_item": "旅のアイテムを始める: 効果、効果値、費用",
    "j_letter": "旅のレターを始める: その効果",
    "j_setup": "旅の準備を始める: 初期手札、アイテム、鍵のボーナスなど",
}


# The keyword rules that open an item of a file (ITEM_KEYWORDS, ページ first) and those
# followed by an id (ID_KEYWORDS) are the item kinds' (contract.kinds), imported above.


# --------------------------------------------------------------- the editor's words

#: What each table is called where a term is shown with its table (the editor's hover).
TABLE_NAMES = {
    "scope": "スコープ", "anchor_unit": "アンカー付き範囲の単位", "lifetime": "値の寿命",
    "timing": "発動タイミング", "region": "領域", "destination": "プレイ後の行き先",
    "pick": "1枚の選び方", "operation": "演算", "landing": "着地",
    "variable": "変数", "counter": "累計量（名前[スコープ] で読む）",
    "condition_word": "条件の語", "tile": "マスの種別", "intent": "Intent の種類",
    "trait": "敵の特性", "balance": "バランスの項目", "quantity": "戦闘の量（例で確かめる）",
    "measure": "目標の量（測るバランスの値）", "event": "出来事の種類（例で数える）",
    "report": "測定の語（報告が使う語）", "player": "方針（実験室の打ち手）",
    "journey_suit": "旅のスート", "journey_effect": "旅の効果", "journey_field": "旅の項目",
}

#: TIMING_FAMILIES explained, as the editor's hover says a timing's family.
TIMING_FAMILY_TEXT = {
    "phase": "ターンの段階（ターンの中の順に来る）",
    "outer": "ステージかランの始まり、または終わり",
    "event": "出来事（起きるたびに来る）",
    "always": "常時: 範囲が続くあいだ効いている補正",
}

#: A balance key's number type and a trait's argument (Trait.arg), as the hover says them.
NUMBER_TYPES = {"int": "整数", "float": "小数"}
TRAIT_ARGUMENTS = {"none": "なし", "int": "整数", "range": "範囲（下限〜上限）"}

# ------------------------------------------------------------------------ lookups


@dataclass(frozen=True)
class Table:
    """Spelling → entry lookup for one vocabulary table (canonical, alias, spec aliases)."""

    name: str
    entries: tuple
    by_spelling: dict = field(default_factory=dict)

    def get(self, spelling: str):
        """The entry spelled ``spelling`` (any of its spellings), or None."""
        return self.by_spelling.get(spelling)

    def by_code(self, code: str):
        """The entry whose code is ``code``, or None."""
        return next((e for e in self.entries if e.code == code), None)

    def spellings(self) -> list[str]:
        """Every spelling the table knows, in the order of its entries."""
        return list(self.by_spelling)


def _table(name: str, entries) -> Table:
    index: dict = {}
    for entry in entries:
        for spelling in entry.spellings():
            index.setdefault(spelling, entry)
    return Table(name, tuple(entries), index)


@dataclass(frozen=True)
class VocabularyTable:
    """One table of the vocabulary: its name (the key of ``tables()`` and of ``W``), its
    terms, and what a message calls it (compiler.names: 「領域「x」はありません」)."""

    name: str
    entries: tuple
    title: str = ""
    #: Content spells its terms: a name written in a file resolves against it
    #: (``tables()``). Faces and condition kinds are named by ``W`` only.
    spelled: bool = True
    #: Terms ``W`` names besides the entries (内部フラグ, the anchored scope: no entries of
    #: a lookup, written in their own forms, @名前 and 以降 n プレイ).
    also: tuple = ()
    #: Its names are the glossary's terms (DESIGN §3): Python writes them only in this
    #: module and names them through ``W`` (tests/test_vocabulary_once.py). The journey's
    #: words and the spec's headings of condition kinds are not.
    glossary: bool = True


#: 語彙表 — every table of the vocabulary, in order: ``tables()``, ``W`` and every reader
#: that walks the tables read this tuple; no other module lists them.
VOCABULARY_TABLES: tuple[VocabularyTable, ...] = (
    VocabularyTable("scope", SCOPES, "スコープ", also=(ANCHORED_SCOPE,)),
    VocabularyTable("anchor_unit", ANCHOR_UNITS, "アンカーの単位"),
    VocabularyTable("lifetime", LIFETIMES, "値の寿命"),
    VocabularyTable("timing", TIMINGS, "発動タイミング"),
    VocabularyTable("region", REGIONS, "領域"),
    VocabularyTable("destination", DESTINATIONS, f"{_words(SCOPES, 'play')[0]}後の行き先"),
    VocabularyTable("pick", PICKS, "選び方"),
    VocabularyTable("face", FACES, spelled=False),
    VocabularyTable("operation", OPERATIONS),
    VocabularyTable("landing", LANDINGS),
    VocabularyTable("variable", VARIABLES, "変数", also=(FLAG,)),
    VocabularyTable("counter", COUNTERS, "累計量"),
    VocabularyTable("condition_word", CONDITION_WORDS, "条件"),
    VocabularyTable("condition_kind", CONDITION_KINDS, spelled=False, glossary=False),
    VocabularyTable("tile", TILE_KINDS, "マスの種別"),
    VocabularyTable("intent", INTENT_KINDS, "Intent の種類"),
    VocabularyTable("trait", TRAITS, "特性"),
    VocabularyTable("balance", BALANCE_KEYS, "バランスの項目"),
    VocabularyTable("quantity", BATTLE_QUANTITIES),
    VocabularyTable("event", EVENTS, "出来事の種類", glossary=False),
    VocabularyTable("measure", MEASURES, f"{TARGET.ja}の量"),
    VocabularyTable("report", REPORT_TERMS, "測定の語", spelled=False),
    VocabularyTable("player", PLAYERS, "方針", spelled=False),
    VocabularyTable("journey_suit", JOURNEY_SUITS, glossary=False),
    VocabularyTable("journey_effect", JOURNEY_EFFECTS, glossary=False),
    VocabularyTable("journey_field", JOURNEY_FIELDS, glossary=False),
)


@cache
def tables() -> dict[str, Table]:
    """All lookup tables by name (the spelled ones of VOCABULARY_TABLES); built once."""
    return {t.name: _table(t.name, t.entries) for t in VOCABULARY_TABLES if t.spelled}


def lookup(table: str, spelling: str):
    """The entry of vocabulary table ``table`` spelled ``spelling``, or None."""
    return tables()[table].get(spelling)


def region_from_parts(parts: list[str]) -> Region | None:
    """The region whose parts are exactly these single regions (order-free), if any."""
    wanted = sorted(parts)
    return next((r for r in REGIONS if sorted(r.parts) == wanted), None)


# --------------------------------------------------------------------------- words


class _Names:
    """The Japanese names of one table's terms, as attributes by code."""

    def __init__(self, names: dict[str, str]):
        self.__dict__.update(names)


#: 語 — the Japanese name of every term, by table and code: ``W.variable.age`` is 刻.
#: Messages, refusals and screens name a term through ``W`` (``f"{W.variable.age}の更新"``)
#: so that each word of the vocabulary is written once, in this module, and a renamed
#: term is renamed everywhere.
W = _Names({
    **{t.name: _Names({e.code: e.ja for e in (*t.entries, *t.also)}) for t in VOCABULARY_TABLES},
    #: the short word of each face a player types (pen 2 未来)
    "face_word": _Names({f.code: f.aliases[0] for f in FACES}),
    "pages": PAGES.ja,
    "tiles_passed": TILES_PASSED.ja,
    "target": TARGET.ja,
})
