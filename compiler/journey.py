"""旅の検査 — the journey items (spec 004, draft 17) → the journey table (contract.journey).

Each item's fields are resolved against ``JOURNEY_FIELDS`` (a name, the kinds that take
it, the shape of its value) and checked one by one; then what only the whole content can
say — every suit has its flag card, no two events share suit and number, a set-up names
items and locations that exist, a variant's 元 leads to a set-up and not round in a
circle — and each set-up is flattened (its 元's fields, then its own). Nothing here
raises on content: a bad item is a diagnostic, and the table is built only without
errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from contract import vocabulary as vocab
from contract.journey import Event, Flag, Item, Letter, Location, Setup
from contract.tables import SCHEMA_VERSION, JourneyTable
from contract import kinds
from contract.vocabulary import W
from dsl import ast
from dsl.diagnostics import Diagnostic, Note

from .codes import E013, E014, E030, E070, E071, E072, W020
from .names import unknown
from .targets import check_target
from .values import Ctx

#: The Japanese word of each kind of journey item (ロケーション, イベント …).
KIND_WORDS = {kind: kinds.word(kinds.by_code(kind)) for kind in kinds.JOURNEY_KINDS}
#: The words of each shape of value, as messages say them.
SHAPE_WORDS = {"number": "数", "name": "名前", "text": "文字列（「…」）", "names": "名前の [リスト]"}
#: The highest number of an event card (spec 004: 1〜6).
MAX_NUMBER = 6
#: The set-up a variant without 元 starts from: these values, then its own fields.
SETUP_DEFAULTS = {"hand": 3, "items_chosen": 2, "item_pool": (), "carried": (), "keys": (),
                  "merge_key": (), "key_vp": 1, "hard": False, "optional_effects": False,
                  "next_open": False, "last_day": None, "text": ""}


@dataclass
class _Checked:
    """One item with its fields resolved: field code → its values (a list of values per
    line for a repeated field), and where each was written."""

    item: ast.JourneyItem
    values: dict[str, object] = field(default_factory=dict)
    spans: dict[str, object] = field(default_factory=dict)

    def get(self, code: str, default=None):
        return self.values.get(code, default)


def check_journey(symbols, diags: list[Diagnostic],
                  damaged: frozenset = frozenset()) -> JourneyTable | None:
    """The journey table of the run's journey items, or None when any has an error
    (reported in ``diags``). Content without journey items gives an empty table.
    ``damaged``: the ``id`` of each item a syntax error's recovery blanked lines of."""
    before = sum(d.is_error for d in diags)
    checked = {kind: {ident: _fields(item, diags, id(item) in damaged)
                      for ident, item in items.items()}
               for kind, items in symbols.journey.items()}
    locations = {i: _location(c, diags) for i, c in checked["location"].items()}
    events = {i: _event(c, diags) for i, c in checked["event"].items()}
    flags = {i: _flag(c, diags) for i, c in checked["flag"].items()}
    items = {i: _item(c, diags) for i, c in checked["item"].items()}
    letters = {i: _letter(c, diags) for i, c in checked["letter"].items()}
    _check_suits(checked["event"], checked["flag"], diags)
    setups = {i: _setup(i, checked["setup"], checked, diags) for i in checked["setup"]}
    _check_locations(checked, diags)
    _check_hands(setups, checked["setup"], items, len(events), diags)
    _check_days(setups, checked, diags)
    if sum(d.is_error for d in diags) > before:
        return None
    return JourneyTable(SCHEMA_VERSION, _sorted(locations), _sorted(events),
                        _sorted(flags), _sorted(items), _sorted(letters), _sorted(setups))


def _sorted(entries: dict) -> dict:
    return {key: entries[key] for key in sorted(entries)}


# ------------------------------------------------------------------ fields


def _fields(item: ast.JourneyItem, diags: list[Diagnostic], damaged: bool = False) -> _Checked:
    """Resolve each field of ``item`` and check its shape (E010, E013, E070), then the
    fields its kind requires (E014) — not of a ``damaged`` item, whose missing field may
    be the line its syntax error blanked."""
    checked = _Checked(item)
    kind_word = KIND_WORDS[item.kind]
    allowed = [f for f in vocab.JOURNEY_FIELDS if item.kind in f.kinds]
    for written in item.fields:
        entry = vocab.lookup("journey_field", written.key.text)
        if entry is None or item.kind not in entry.kinds:
            candidates = [s for f in allowed for s in f.spellings()]
            extra = (f"（{entry.ja}は{'・'.join(KIND_WORDS[k] for k in entry.kinds)}の項目です）"
                     if entry is not None else "")
            diags.append(unknown(written.key, f"{kind_word}の項目", candidates, extra))
            continue
        values = _shaped(written, entry, diags)
        if values is None:
            continue
        if entry.repeat:
            checked.values.setdefault(entry.code, []).append(values)
            checked.spans.setdefault(entry.code, []).append(written)
        elif entry.code in checked.values:
            diags.append(E013.at(written.span, f"{entry.ja}を2回書いています",
                                 notes=[Note("最初の記述", checked.spans[entry.code].span)]))
        else:
            checked.values[entry.code] = values[0] if len(entry.shape) == 1 else values
            checked.spans[entry.code] = written
    for entry in allowed:
        if entry.required and entry.code not in checked.values and not damaged \
                and not _failed(item, entry):
            diags.append(E014.at(item.id.span, f"{entry.ja}がありません",
                                 hint=f"{kind_word}には {entry.ja} を書きます"))
    _target(checked, diags)
    return checked


def _target(checked: _Checked, diags: list[Diagnostic]) -> None:
    """The item's 目標, checked as a page's or an enemy's is (compiler.targets: E058 on an
    item that takes none, E059–E061, E013 written twice), kept as ``values["target"]``."""
    if not checked.item.targets:
        return
    first, *again = checked.item.targets
    for written in again:
        diags.append(E013.at(written.span, f"{W.target}を2回書いています",
                             notes=[Note("最初の記述", first.span)]))
    target = check_target(first, checked.item.kind, Ctx(diags, None))
    if target is not None:
        checked.values["target"] = target


def _failed(item: ast.JourneyItem, entry) -> bool:
    """Was ``entry`` written, with an error already reported (then E014 would be a second)?"""
    return any(vocab.lookup("journey_field", f.key.text) is entry for f in item.fields)


_SHAPES = {"number": ast.Number, "name": ast.Name, "text": ast.Text, "names": ast.ValueList}


def _shaped(written: ast.JourneyField, entry, diags: list[Diagnostic]) -> tuple | None:
    """The values of a field line when they have the field's shape, else None after E070."""
    values = written.values
    good = len(values) == len(entry.shape) and all(
        isinstance(v, _SHAPES[s]) for v, s in zip(values, entry.shape))
    if good and "names" in entry.shape:
        lists = [v for v in values if isinstance(v, ast.ValueList)]
        good = all(isinstance(x, ast.Name) for v in lists for x in v.values)
    if good:
        return values
    wanted = " ".join(SHAPE_WORDS[s] for s in entry.shape) or "値なし（項目名だけ）"
    where = values[len(entry.shape)].span if len(values) > len(entry.shape) else (
        next((v.span for v, s in zip(values, entry.shape) if not isinstance(v, _SHAPES[s])),
             written.span))
    diags.append(E070.at(where, f"{entry.ja}の値の形が違います（{wanted} を書きます）",
                         hint=_example(entry)))
    return None


def _example(entry) -> str:
    samples = {"number": "3", "name": "名前", "text": "「…」", "names": "[a, b]"}
    return "例: " + " ".join([entry.ja, *(samples[s] for s in entry.shape)])


def _number(checked: _Checked, code: str, low: int, high: int | None, diags, default=None):
    """The whole number of field ``code`` within low..high (E030 otherwise)."""
    value = checked.get(code)
    if value is None:
        return default
    if not isinstance(value.value, int) or value.value < low or (high is not None and value.value > high):
        bound = f"{low}〜{high}" if high is not None else f"{low} 以上"
        diags.append(E030.at(value.span, f"{getattr(W.journey_field, code)}は {bound} の整数です（{value.text}）",
                             hint=f"{getattr(W.journey_field, code)} {low} のように整数で書きます"))
        return default
    return value.value


def _word(checked: _Checked, code: str, table: str, what: str, diags, of: str | None = None):
    """The vocabulary entry named by field ``code`` (E010 for an unknown word)."""
    name = checked.get(code)
    if name is None:
        return None
    entries = [e for e in vocab.tables()[table].entries if of is None or e.of == of]
    entry = next((e for e in entries if name.text in e.spellings()), None)
    if entry is None:
        other = vocab.lookup(table, name.text)
        extra = f"（{other.ja}は{KIND_WORDS[other.of]}の効果です）" if other is not None else ""
        diags.append(unknown(name, what, [s for e in entries for s in e.spellings()], extra))
    return entry


def _text(checked: _Checked) -> str:
    text = checked.get("text")
    return text.value if text is not None else ""


def _title(checked: _Checked) -> str:
    return checked.item.title or checked.item.id.text


# ------------------------------------------------------------------ items


def _location(c: _Checked, diags) -> Location | None:
    slots = _number(c, "slots", 0, None, diags)
    red = _number(c, "red", 0, None, diags, default=0)
    if slots is not None and red > slots:
        diags.append(E030.at(c.get("red").span, f"赤枠（{red}）が枠（{slots}）より多くあります",
                             hint="赤枠は枠のうちの数です（外側から数えます）"))
    return Location(c.item.id.text, _title(c), slots or 0, red, _text(c))


def _event(c: _Checked, diags) -> Event | None:
    suit = _word(c, "suit", "journey_suit", "スート", diags)
    number = _number(c, "number", 1, MAX_NUMBER, diags)
    key = c.get("key")
    return Event(c.item.id.text, _title(c), suit.code if suit else "red", number or 1,
                 key.text if key is not None else "?", _text(c))


def _flag(c: _Checked, diags) -> Flag | None:
    suit = _word(c, "suit", "journey_suit", "スート", diags)
    effect = _word(c, "effect", "journey_effect", "フラグの効果", diags, of="flag")
    return Flag(c.item.id.text, _title(c), suit.code if suit else "red",
                effect.code if effect else "nudge_black", _text(c))


def _item(c: _Checked, diags) -> Item | None:
    effect = _word(c, "effect", "journey_effect", "アイテムの効果", diags, of="item")
    value = _number(c, "value", 0, None, diags, default=0)
    if effect is not None and effect.value and c.get("value") is None:
        diags.append(E014.at(c.item.id.span, f"{effect.ja}には {W.journey_field.value} がありません",
                             hint=f"例: {W.journey_field.value} 2（{effect.said().format(value='n')}）"))
    cost = _number(c, "cost", 0, None, diags, default=0)
    return Item(c.item.id.text, _title(c), effect.code if effect else "advance_white",
                value, cost, bool(effect and effect.passive), _text(c))


def _letter(c: _Checked, diags) -> Letter | None:
    effect = _word(c, "effect", "journey_effect", "レターの効果", diags, of="letter")
    return Letter(c.item.id.text, _title(c), effect.code if effect else "location_memory",
                  _text(c))


def _check_suits(events: dict[str, _Checked], flags: dict[str, _Checked], diags) -> None:
    """E071: two events of one suit and number, two flag cards of one suit, an event
    whose suit has no flag card (it could never be resolved)."""
    flag_of: dict[str, _Checked] = {}
    for c in flags.values():
        suit = vocab.lookup("journey_suit", c.get("suit").text) if c.get("suit") else None
        if suit is None:
            continue
        if suit.code in flag_of:
            diags.append(E071.at(c.get("suit").span, f"スート{suit.ja}のフラグカードが2枚あります",
                                 hint="フラグカードはスートごとに1枚です",
                                 notes=[Note("もう1枚", flag_of[suit.code].item.id.span)]))
        flag_of.setdefault(suit.code, c)
    seen: dict[tuple[str, int], _Checked] = {}
    for c in events.values():
        suit = vocab.lookup("journey_suit", c.get("suit").text) if c.get("suit") else None
        number = c.get("number")
        if suit is None or number is None:
            continue
        if suit.code not in flag_of:
            diags.append(E071.at(c.get("suit").span, f"スート{suit.ja}のフラグカードがありません",
                                 hint=f"フラグ … {{ スート {suit.ja}; 効果 … }} を書いてください"
                                      "（フラグカードのないスートは解決できません）"))
        key = (suit.code, number.value)
        if key in seen:
            diags.append(E071.at(number.span, f"{suit.ja}の {number.text} のイベントが2枚あります",
                                 hint="スートごとに数字は1枚ずつです",
                                 notes=[Note("もう1枚", seen[key].item.id.span)]))
        seen.setdefault(key, c)


# ------------------------------------------------------------------ set-ups


def _setup(ident: str, setups: dict[str, _Checked], checked: dict, diags) -> Setup | None:
    """The set-up ``ident`` flattened: its 元's values (recursively), then its own. What
    a set-up writes itself is checked here; what it inherits was checked with its 元
    (so a mistake in 草案 is reported once, not once per variant)."""
    chain = _chain(ident, setups, diags)
    own = setups[ident]
    for code in ("hand", "items_chosen", "key_vp"):
        _number(own, code, 1 if code == "hand" else 0, None, diags)
    _names(own.get("item_pool"), checked["item"], "アイテム", diags)
    _names(own.get("carried"), checked["item"], "アイテム", diags)
    last = own.get("last_day")
    if last is not None and last.text not in checked["location"]:
        diags.append(_missing(last, "ロケーション", checked["location"]))
    if chain is None:
        return None
    values: dict = dict(SETUP_DEFAULTS)
    for c in chain:
        values.update((code, c.values[code]) for code in values if code in c.values)
    number = {code: v.value if isinstance(v, ast.Number) else v
              for code, v in values.items() if code in ("hand", "items_chosen", "key_vp")}
    pool = [n.text for n in _list(values["item_pool"]) if n.text in checked["item"]]
    if not any("items_chosen" in c.values for c in chain):  # 2 (the draft's), of what there is
        number["items_chosen"] = min(SETUP_DEFAULTS["items_chosen"], len(pool))
    carried = [n.text for n in _list(values["carried"]) if n.text in checked["item"]]
    written = len(_list(values["carried"]))  # a name misspelt counts: its E072 says it
    for name in _list(own.get("carried")):
        if name.text in checked["item"] and name.text not in pool:
            diags.append(E072.at(name.span, f"アイテム「{name.text}」はアイテム一覧にありません",
                                 hint="携帯できるのはアイテム一覧のアイテムです"))
    if carried and written != number["items_chosen"]:
        where = own.spans.get("carried", own.spans.get("items_chosen"))
        diags.append(E071.at(where.span if where is not None else own.item.id.span,
                             f"携帯するアイテムが {written} 個です（アイテム数は {number['items_chosen']}）",
                             hint="携帯にはアイテム数と同じ数のアイテムを書きます"))
    if number["items_chosen"] > len(pool):
        diags.append(E071.at(own.item.id.span,
                             f"アイテム数（{number['items_chosen']}）がアイテム一覧（{len(pool)} 個）より多いです",
                             hint="アイテム一覧にアイテムを足すか、アイテム数を減らします"))
    keys = [n.text for n in _list(values["keys"])]
    seen_keys: dict[str, ast.Name] = {}
    for name in _list(own.get("keys")):  # 鍵の種類 [月, 星, 月]: a kind counted twice
        if name.text in seen_keys:
            diags.append(E013.at(name.span, f"鍵「{name.text}」を2回書いています",
                                 notes=[Note("最初の記述", seen_keys[name.text].span)]))
        seen_keys.setdefault(name.text, name)
    if not keys:
        diags.append(E014.at(own.item.id.span, "鍵の種類がありません",
                             hint="例: 鍵の種類 [月, 星, 花, 鳥]"))
    merge = {first.text: second.text for first, second in values["merge_key"]}
    for first, second in own.get("merge_key", ()):
        if keys and second.text not in keys:
            diags.append(E072.at(second.span, f"鍵「{second.text}」は鍵の種類にありません",
                                 hint=f"鍵の種類: {'、'.join(keys)}"))
    for c in checked["event"].values():
        key = c.get("key")
        if key is not None and keys and key.text not in keys and key.text not in merge:
            _once(diags, E072.at(key.span, f"鍵「{key.text}」は旅の準備「{ident}」の鍵の種類にありません",
                                 hint=f"鍵の種類: {'、'.join(keys)}（置き換えるなら 鍵の置き換え {key.text} …）"))
    last = values["last_day"]
    if last is None:
        diags.append(E014.at(own.item.id.span, "最終日がありません",
                             hint="例: 最終日 千年樹（最後に並べるロケーション）"))
    locations = sorted(checked["location"])
    # 目標 is inherited like the other fields: a variant is judged by its 元's intended win
    # rate unless it states its own (docs/journey.md)
    target = next((c.values["target"] for c in reversed(chain) if "target" in c.values), None)
    return Setup(ident, _title(own), locations, last.text if last is not None else "",
                 max(1, number["hand"]), number["items_chosen"], pool, carried, keys or ["?"],
                 merge, number["key_vp"], values["hard"] is not False,
                 values["optional_effects"] is not False, values["next_open"] is not False,
                 values["text"].value if isinstance(values["text"], ast.Text) else "", target)


def _check_hands(setups: dict, checked: dict, items: dict, events: int, diags) -> None:
    """E071 at a set-up whose hand cannot be dealt: the deal takes 初期手札 cards, and more
    with an item of 手札追加 (the most its items may add), off a deck of every event, and
    one must be left for turn 1's refill (journey/play.py deal_game). Reported where the
    hand is written, or where an item makes it too many: a variant that only inherits
    its 元's hand is not reported again. Content without events deals nothing, so nothing
    is asked of it."""
    for ident, setup in setups.items() if events else ():
        if setup is None:
            continue
        own = checked[ident]
        where = own.get("hand")
        extra = sum(sorted((items[i].value for i in setup.item_pool
                            if i in items and items[i].effect == "extra_hand"),
                           reverse=True)[:setup.items_chosen])
        if setup.hand + extra < events or (where is None and not extra):
            continue
        dealt = f"{setup.hand} 枚" + (f"（アイテムで +{extra}）" if extra else "")
        diags.append(E071.at(where.span if where is not None else own.item.id.span,
                             f"{W.journey_field.hand}（{dealt}）を配ると山が残りません"
                             f"（イベントは {events} 枚）",
                             hint=f"{W.journey_field.hand}はイベントの数より少なくします"
                                  f"（1 {W.scope.turn}目の補充に 1 枚は要ります）"))


def _check_days(setups: dict, checked: dict, diags: list[Diagnostic]) -> None:
    """W020 where a set-up's 最終日 leaves a day without room for events: the last day
    holds none (spec 004 行動フェイズ), so its 枠 are never used, and a location of 枠 0
    laid out as an earlier day discards every event played there (the draft lays the
    slotless 千年樹 last). Reported at the 最終日 a set-up writes (a variant that inherits
    it is not reported again), and at the 枠 0 of each such day."""
    slots = {ident: c.get("slots") for ident, c in checked["location"].items()}
    for ident, setup in setups.items():
        written = checked["setup"][ident].get("last_day")
        if setup is None or written is None or written.text not in slots:
            continue
        slotless = [loc for loc, n in slots.items()
                    if loc != written.text and isinstance(n, ast.Number) and n.value == 0]
        last = slots[written.text]
        if isinstance(last, ast.Number) and last.value > 0:
            instead = f"（例: 最終日 {slotless[0]}）" if slotless else ""
            diags.append(W020.at(written.span, f"最終日「{written.text}」の枠 {last.text} は使われません"
                                 "（最終日にはイベントを置けません）",
                                 hint=f"最終日には枠 0 のロケーションを選びます{instead}"))
        for loc in slotless:
            _once(diags, W020.at(slots[loc].span,
                                 f"旅の準備「{ident}」では「{loc}」が最終日より前の日になり、枠 0 なので"
                                 f"そこに置いたイベントはすぐ{W.region.discard}になります",
                                 hint=f"「{loc}」に枠を書くか、最終日を「{loc}」にします"))


def _check_locations(checked: dict, diags: list[Diagnostic]) -> None:
    """What every set-up lays out the same, checked once (not at each set-up): all the
    locations are the days (E071: at least two), and an event's number moves a black pawn
    ロケーションの数 − 数字 days (E030: below the number of locations). Content without
    set-ups lays nothing out, so neither is asked of it; E071 is reported at the first
    set-up."""
    if not checked["setup"]:
        return
    count = len(checked["location"])
    if count < 2:
        first = next(iter(checked["setup"].values()))
        diags.append(E071.at(first.item.id.span, f"ロケーションが {count} 枚です",
                             hint="ロケーションは最終日を含めて2枚以上（草案では7枚）要ります"))
        return
    for c in checked["event"].values():
        n = c.get("number")
        if n is not None and isinstance(n.value, int) and count <= n.value <= MAX_NUMBER:
            diags.append(E030.at(n.span, f"数字 {n.text} はロケーションの数（{count}）以上です",
                                 hint=f"黒いポーンは ロケーションの数 − 数字 だけ動くので、数字は {count - 1} までです"))


def _once(diags: list[Diagnostic], diag: Diagnostic) -> None:
    """Report ``diag`` unless the same code was reported at the same place (one event
    checked against several set-ups)."""
    if not any(d.code == diag.code and d.span == diag.span for d in diags):
        diags.append(diag)


def _chain(ident: str, setups: dict[str, _Checked], diags) -> list[_Checked] | None:
    """The set-ups from the root 元 down to ``ident`` (None after E072: a 元 that is
    missing, or that leads back to the set-up itself)."""
    chain, at = [], ident
    while True:
        c = setups[at]
        if c in chain:
            if at == ident:
                diags.append(E072.at(c.get("base").span, f"旅の準備「{ident}」の元をたどると自分に戻ります",
                                     hint="元は別の旅の準備を指し、たどった先で終わるようにします"))
            return None
        chain.insert(0, c)
        base = c.get("base")
        if base is None:
            return chain
        if base.text not in setups:
            if at == ident:
                diags.append(_missing(base, "旅の準備", setups))
            return None
        at = base.text


def _list(value) -> tuple:
    return value.values if isinstance(value, ast.ValueList) else tuple(value or ())


def _names(value, known: dict, what: str, diags) -> list[str]:
    """The ids of a [list] that name existing items (E072 for the others, E013 twice)."""
    found: list[str] = []
    for name in _list(value):
        if name.text not in known:
            diags.append(_missing(name, what, known))
        elif name.text in found:
            diags.append(E013.at(name.span, f"{what}「{name.text}」を2回書いています"))
        else:
            found.append(name.text)
    return found


def _missing(name: ast.Name, what: str, known) -> Diagnostic:
    from .names import did_you_mean

    hint = did_you_mean(name.text, list(known)) or (
        f"ある{what}: {'、'.join(sorted(known)[:12])}" if known else f"{what}がまだありません")
    return E072.at(name.span, f"{what}「{name.text}」はありません", hint=hint)

