"""セーブ — the whole run as JSON, and back (DESIGN §5).

The state is plain data but for the continuing effects on the board, which hold the
tables' own 作用 (contract ``Sayou``): each is saved as its literal (``to_literal``) and
loaded back as an object that must equal one the tables hold. The random streams' states go
beside it, so a loaded run continues exactly as the saved one would have. A pending player
choice is not saved (spec 002: 選択待ち状態はセーブ対象に含めない): saving in the middle of
one is refused.

Nothing read from a save is trusted: ``from_json`` checks every value — its type, its
range, that every id exists in the tables and every continuing effect is one the tables
hold, that zones and pages agree — before a Battle is made, and raises ``SaveError``
(one message naming the place) for anything else. A valid save loads exactly as it was.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random

from contract.codec import ContractError, from_literal, to_literal
from contract.tables import Sayou, placeless

from .battle import Battle, Refused
from .bounds import BOUNDS, MAX_MAGNITUDE
from .state import (COEFFICIENTS, EXPIRY_ORDER, EXPIRY_RANK, MARKED, PARAMS, ZONES, Face,
                    Faces, PageInstance, Placed, State)
from .streams import NAMES as STREAM_NAMES, ShuffleStream, Streams
from .tables import Tables
from contract.vocabulary import BALANCE_KEYS, KEYWORDS, TIMINGS, W

#: 2: continuing effects saved as contract literals; 3: English codes (age, seat, steps,
#: fray …); 4: one random stream per source of chance (runtime.streams), by name;
#: 5: the counters as the run's, the marks of the turn and the stage, and the play's
#: (State.counters, marks, play_counters) instead of one bucket per scope; 6: the
#: content's digests (``content``), so that a load names what changed since the save.
SAVE_VERSION = 6
#: A save is a few hundred kilobytes at most; anything far larger is not one.
MAX_SAVE_CHARS = 16 * 1024 * 1024


#: The balance's name where a load lists what changed since the save.
BALANCE_WORD = KEYWORDS["balance"][0]
#: 突破ライン, where a refusal names it.
BREAKTHROUGH_WORD = KEYWORDS["breakthrough"][0]
#: A rule parameter by its balance key's word (初期HP, 最大HP …), for a refusal.
_BALANCE_WORDS = {key.code: key.ja for key in BALANCE_KEYS}
#: The ``where`` of a SaveError about the file as a whole, and about its outermost object
#: (any other names the field: ``state.hp``).
WHOLE_FILE, TOP_LEVEL = "ファイル全体", "最上位"


class SaveError(ValueError):
    """A save that cannot be loaded: not JSON, another version, or a state the rules
    could never reach (``where`` names the field)."""

    def __init__(self, where: str, problem: str):
        super().__init__(f"セーブを読めません: {where}: {problem}")
        self.where, self.problem = where, problem


def to_json(battle: Battle) -> str:
    """The run as a save (JSON): its state and the RNG's state. Refused while a player
    choice is pending, which is not saved."""
    if battle.pending is not None:
        raise Refused(f"{W.pick.choice}の途中はセーブできません（選択待ちはセーブ対象外）")
    streams = battle.streams
    data = {"save_version": SAVE_VERSION, "state": _state_literal(battle.state),
            "content": content_digests(battle.tables),
            "rng": {"shuffle": {"seed": streams.shuffle.seed, "count": streams.shuffle.count},
                    **{name: _rng_literal(getattr(streams, name)) for name in ("effects", "enemy")}}}
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def _rng_literal(rng) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _state_literal(state: State) -> dict:
    """The state as JSON-ready data: every field as it is (plain data, which json.dumps
    writes whole), the records as their literals, each placed effect's 作用 as its
    contract literal. Not a generic walk of the records: it would turn a Sayou into a dict without
    the kind tags its references need."""
    data = state.fields()
    data["pages"] = [page.literal() for page in state.pages]
    data["effects"] = [placed.literal(to_literal) for placed in state.effects]
    return data


def content_digests(tables: Tables) -> dict:
    """A short digest of each page and enemy and of the balance, as the rules read them
    (where they are written left out, ``contract.tables.placeless``: a comment or a moved
    line changes no rule): a save keeps them, so that a load can say what changed since
    (``read``)."""
    def digest(item) -> str:
        text = json.dumps(placeless(to_literal(item)), ensure_ascii=False, sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    return tables.fact("save", "content", lambda: {
        "pages": {key: digest(page) for key, page in sorted(tables.pages.items())},
        "enemies": {key: digest(enemy) for key, enemy in sorted(tables.enemies.items())},
        "balance": digest(tables.balance)})


def changed_since(tables: Tables, kept: dict) -> list[str]:
    """The names of the pages, enemies and balance whose rules differ from the digests a
    save ``kept`` (``content_digests``): changed, new or gone — in the designer's words."""
    now = content_digests(tables)
    names = {"pages": lambda key: tables.pages[key].name if key in tables.pages else key,
             "enemies": lambda key: tables.enemies[key].name if key in tables.enemies else key}
    changed = [names[kind](key) for kind in ("pages", "enemies")
               for key in sorted(set(now[kind]) | set(kept[kind]))
               if now[kind].get(key) != kept[kind].get(key)]
    return changed + ([BALANCE_WORD] if now["balance"] != kept["balance"] else [])


def _digests(value) -> dict:
    """A save's ``content``, checked: digests of pages and enemies by id, and the balance's."""
    out = _keys(value, "content", {"pages", "enemies", "balance"})
    for kind in ("pages", "enemies"):
        table = out[kind]
        if not isinstance(table, dict) or len(table) > 100_000 or not all(
                isinstance(k, str) and _is_digest(v) for k, v in table.items()):
            raise SaveError(f"content.{kind}", "ID ごとの要約（16 桁の 16 進）ではありません")
    if not _is_digest(out["balance"]):
        raise SaveError("content.balance", "要約（16 桁の 16 進）ではありません")
    return out


def _is_digest(value) -> bool:
    return isinstance(value, str) and len(value) == 16 and \
        all(c in "0123456789abcdef" for c in value)


def from_json(tables: Tables, text: str) -> Battle:
    """The saved run, checked in full; SaveError for anything a save cannot hold."""
    return read(tables, text)[0]


def read(tables: Tables, text: str) -> tuple[Battle, list[str]]:
    """The saved run, checked in full (SaveError for anything a save cannot hold), and what
    of the content changed since it was saved (``changed_since``): the run goes on under
    the tables as they are now."""
    if not isinstance(text, str):
        raise SaveError(WHOLE_FILE, "テキストではありません")
    if len(text) > MAX_SAVE_CHARS:
        raise SaveError(WHOLE_FILE, f"大きすぎます（{len(text)} 文字）")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_json_int)
    except json.JSONDecodeError as exc:  # its own message is English: say where instead
        raise SaveError(WHOLE_FILE, f"JSON ではありません（{exc.lineno} 行 {exc.colno} 列）") \
            from None
    except RecursionError:
        raise SaveError(WHOLE_FILE, "JSON ではありません（入れ子が深すぎます）") from None
    except _NotANumber as exc:  # NaN, Infinity, an integer of more digits than any bound
        raise SaveError(WHOLE_FILE, f"JSON ではありません（{exc}）") from None
    except ValueError:  # Python's own message is English
        raise SaveError(WHOLE_FILE, "JSON ではありません") from None
    _keys(data, TOP_LEVEL, {"save_version", "state", "rng", "content"})
    version = data["save_version"]
    if isinstance(version, bool) or not isinstance(version, int):
        # '6' is not 6: said as the file holds it, with what it is instead
        raise SaveError("save_version", f"{json.dumps(version, ensure_ascii=False)} は"
                        f"整数ではありません（このランタイムは {SAVE_VERSION}）")
    if version != SAVE_VERSION:
        raise SaveError("save_version", f"{version} は読めません（このランタイムは {SAVE_VERSION}）")
    kept = _digests(data["content"])
    streams = _streams(data["rng"])
    # Under the balance it was saved with, a run's parameters are that balance's own: a
    # save that says otherwise was edited (a changed balance keeps the saved values).
    balance = tables.balance if kept["balance"] == content_digests(tables)["balance"] else None
    state = _State(tables, balance).check(data["state"])
    return Battle(tables, state, streams), changed_since(tables, kept)


def _page(page: dict) -> PageInstance:
    """A checked page instance's data as its record."""
    return PageInstance(page["uid"], page["page"], page["zone"], page["lifetime"],
                        Faces({side: Face(**face) for side, face in page["faces"].items()}))


class _NotANumber(ValueError):
    """A JSON value a save never holds as a number, said in the designer's words."""


#: Digits of the longest integer read: Python refuses to convert one past 4,300 digits,
#: with an English message. Nothing a save holds comes near (a value beyond its bound is
#: refused later, where it is, by the checks below).
MAX_INT_DIGITS = 4_000


def _no_constant(name: str):
    raise _NotANumber(f"{name} は数ではありません")


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NotANumber(f"{len(text.lstrip('-'))} 桁の整数は大きすぎます")
    return int(text)


# ------------------------------------------------------------------ primitives


def _keys(value, where: str, required: set, optional: frozenset = frozenset()) -> dict:
    if not isinstance(value, dict):
        raise SaveError(where, "オブジェクトではありません")
    missing = required - value.keys()
    extra = value.keys() - required - optional
    if missing:
        raise SaveError(where, f"足りない項目: {', '.join(sorted(missing))}")
    if extra:
        raise SaveError(where, f"知らない項目: {', '.join(sorted(map(str, extra)))}")
    return value


def _shown(value) -> str:
    """A value of the save as the file spells it (true, "moon", null: not Python's True,
    'moon', None), cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except ValueError:  # NaN and infinities, which the reader lets through as numbers
        text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _out_of(value, low, high) -> str:
    """Why ``value`` is not in ``low``..``high``: a range of one value names it."""
    if low == high:
        return f"{low} のはずです（{_shown(value)}）"
    return f"{low}〜{high} の外です（{_shown(value)}）"


def _int(value, where: str, low: int = -MAX_MAGNITUDE, high: int = MAX_MAGNITUDE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SaveError(where, f"整数ではありません（{_shown(value)}）")
    if not low <= value <= high:
        raise SaveError(where, _out_of(value, low, high))
    return value


def _number(value, where: str, low: float = -MAX_MAGNITUDE, high: float = MAX_MAGNITUDE):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SaveError(where, f"数ではありません（{_shown(value)}）")
    if not math.isfinite(value) or not low <= value <= high:
        raise SaveError(where, _out_of(value, low, high))
    return value


def _one_of(value, where: str, allowed) -> object:
    if isinstance(value, (dict, list)) or value not in allowed:
        raise SaveError(where, f"{_shown(value)} はありません（{', '.join(map(str, allowed))}）")
    return value


def _list(value, where: str, limit: int = 100_000) -> list:
    if not isinstance(value, list):
        raise SaveError(where, "リストではありません")
    if len(value) > limit:
        raise SaveError(where, f"長すぎます（{len(value)}）")
    return value


def _bool(value, where: str) -> bool:
    if not isinstance(value, bool):
        raise SaveError(where, "真偽値ではありません")
    return value


def _streams(value) -> Streams:
    """Each random stream of runtime.streams.NAMES, by name."""
    _keys(value, "rng", set(STREAM_NAMES))
    shuffle = _keys(value["shuffle"], "rng.shuffle", {"seed", "count"})
    return Streams(ShuffleStream(_int(shuffle["seed"], "rng.shuffle.seed", *BOUNDS["seed"]),
                                 _int(shuffle["count"], "rng.shuffle.count", 0, 2**32)),
                   *(_rng(value[name], f"rng.{name}") for name in ("effects", "enemy")))


def _rng(value, where: str) -> random.Random:
    """The Mersenne Twister state: version 3, 624 words and an index, gauss None or a float."""
    _list(value, where)
    if len(value) != 3:
        raise SaveError(where, "[version, state, gauss] ではありません")
    version, internal, gauss = value
    _one_of(version, f"{where}.version", (3,))
    _list(internal, f"{where}.state")
    if len(internal) != 625:
        raise SaveError(f"{where}.state", f"625 語ではありません（{len(internal)}）")
    for i, word in enumerate(internal[:624]):
        _int(word, f"{where}.state.{i}", 0, 2**32 - 1)
    _int(internal[624], f"{where}.state.624", 0, 624)
    if gauss is not None:
        _number(gauss, f"{where}.gauss")
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# ----------------------------------------------------------------- the state

#: The timings that can still fire once a run's last stage is won: its ステージ終了時 and
#: ラン終了時, and the events and 常時 作用 those may set off — no turn, play or enemy
#: action comes after the win.
_AFTER_THE_WIN = frozenset(t.code for t in TIMINGS if t.family in ("event", "always")
                           or t.code in ("stage_end", "run_end"))


def _may_undo_the_win(effect) -> bool:
    """Whether ``effect`` could move 敵HP above 0 or 綻び below 突破ライン after the win
    that set them there (a won save may then show neither)."""
    return effect.timing in _AFTER_THE_WIN and (
        (effect.target.code == "enemy_hp" and effect.direction != "decrease")
        or (effect.target.code == "fray" and effect.direction != "increase"))


_FIELDS = set(State.FIELDS)
_FACE_STATES = ("base", "pen", "blank")
_MOD_KINDS = ("param", "flag", "year")
_MOD_LIFETIMES = ("play", "turn", "stage", "run")


class _State:
    """The checks of one saved state against the tables it is loaded with."""

    def __init__(self, tables: Tables, balance=None):
        self.tables = tables
        #: The balance the save was made under, when it is the tables' own: its
        #: parameters must be the state's (None: the balance changed since the save).
        self.balance = balance
        # Every continuing effect a run can hold comes from the tables: a saved one must
        # be one of them, whole (a save cannot bring an effect of its own). The objects
        # are frozen: equal effects are equal and hash alike.
        self.effects = {}
        for effect in _table_effects(tables):
            self.effects.setdefault(effect, effect)
        self.counters = set(tables.vocabulary.counters)
        self.win_may_move = any(map(_may_undo_the_win, self.effects))

    def check(self, data) -> State:
        _keys(data, "state", _FIELDS)
        t = self.tables
        stages = _list(data["stages"], "state.stages", 1000)
        if not stages:
            raise SaveError("state.stages", f"{W.scope.stage}がありません")
        for i, enemy in enumerate(stages):
            _one_of(enemy, f"state.stages.{i}", t.enemies)
        _int(data["stage_index"], "state.stage_index", 0, len(stages) - 1)
        # Every number the battle keeps within the one table of bounds (runtime/bounds.py).
        for name in ("seed", "age", "hp", "turn", "turns_run", "plays_run", "pens_used",
                     "tears_used", "same_age_plays", "suppress", "steps", "steps_carried",
                     "currency", "fray_run", "fray_stage", "rewards_given"):
            _int(data[name], f"state.{name}", *BOUNDS[name])
        # The stage's turns are counted in the run's too (runtime/turn.py _start_turn).
        if data["turn"] > data["turns_run"]:
            raise SaveError("state.turn", f"{W.scope.stage}の{W.scope.turn} {data['turn']} が"
                            f"{W.scope.run}の{W.scope.turn} {data['turns_run']} を超えています")
        if data["fray_stage"] > data["fray_run"]:
            raise SaveError("state.fray_stage", f"{W.scope.stage}の{W.variable.fray}が累積の{W.variable.fray}を超えています")
        if data["rewards_given"] > data["fray_run"] // t.balance.reward_interval:
            raise SaveError("state.rewards_given", f"累積の{W.variable.fray}より多くの{W.variable.fray}報酬があります")
        for name in ("redraw_used", "redraw_failed"):
            _bool(data[name], f"state.{name}")
        if data["outcome"] is not None:
            _one_of(data["outcome"], "state.outcome", ("won", "lost"))
        self._defense(data["defense"])
        self._run_counters(data["counters"], "state.counters")
        self._run_counters(data["play_counters"], "state.play_counters")
        _keys(data["marks"], "state.marks", set(), frozenset(MARKED))
        for scope, mark in data["marks"].items():
            self._run_counters(mark, f"state.marks.{scope}")
        self._params(data["params"])
        self._mods(data["mods"])
        self._pages(data["pages"], data["zones"])
        self._effects(data["effects"], len(data["pages"]))
        self._enemy(data["enemy"], stages[data["stage_index"]])
        state = State(**{**data, "pages": [_page(page) for page in data["pages"]],
                          "effects": [Placed(**placed) for placed in data["effects"]]})
        state.defense.sort(key=lambda entry: EXPIRY_RANK[entry[1]])  # consumption order
        # The walls and clamps the rules keep at every step (spec 000 盤面, spec 002 クランプ).
        lifespan = max(0, state.param("lifespan_cap"))
        if state.age > lifespan:
            raise SaveError("state.age", f"{W.variable.age} {state.age} は{W.variable.lifespan_cap} {lifespan} の先です")
        if state.enemy["seat"] > lifespan:
            raise SaveError("state.enemy.seat", f"{W.variable.seat} {state.enemy['seat']} は{W.variable.lifespan_cap} {lifespan} の先です")
        if state.hp > state.param("max_hp"):
            raise SaveError("state.hp", f"HP {state.hp} が{W.variable.max_hp} {state.param('max_hp')} を超えています")
        if state.outcome is None:
            self._undecided(state)
        elif state.outcome == "won":
            self._won(state)
        return state

    def _won(self, state: State) -> None:
        """A won run won its last stage (spec 000 勝敗条件): it stands on that stage, with
        敵HP 0 or the stage's 綻び at 突破ライン — unless a 作用 of the tables could move
        them back after the win. A save that says 勝利 of a stage still being fought was
        edited (a lost one is not checked so: 手札に出せるページがない is a loss too, which
        the state alone does not show)."""
        last = len(state.stages)
        if state.stage_index != last - 1:
            raise SaveError("state.outcome", f"{W.quantity.won}なのに{W.scope.stage} {state.stage_index + 1} "
                            f"のままです（{last} {W.scope.stage}の{W.scope.run}）")
        if self.win_may_move:
            return
        breakthrough = self.tables.enemies[state.enemy["id"]].breakthrough
        if state.enemy["hp"] > 0 and state.fray_stage < breakthrough:
            raise SaveError("state.outcome", f"{W.quantity.won}なのに{W.variable.enemy_hp} {state.enemy['hp']} "
                            f"が残り、{W.scope.stage}の{W.variable.fray} {state.fray_stage} は"
                            f"{BREAKTHROUGH_WORD} {breakthrough} に達していません")

    def _undecided(self, state: State) -> None:
        """A run still being played is one whose stage is not decided (the battle settles
        a stage before the next action, runtime/outcome.py ``stage_over``): a save with
        HP 0, 敵HP 0 or 綻び at 突破ライン and no outcome was edited — loaded, its next
        action would win or lose a stage the rules never played. Its turn is 1 or more: a
        stage starts its first turn as it starts (a choice pending there is not saved)."""
        breakthrough = self.tables.enemies[state.enemy["id"]].breakthrough
        if state.turn < 1:  # a stage begins its first turn as it starts, or is decided
            raise SaveError("state.turn", f"{W.scope.turn} {state.turn}: 勝敗の決まっていない"
                            f"{W.scope.stage}は {W.scope.turn} 1 から始まっています")
        if state.hp <= 0:
            raise SaveError("state.hp", f"HP {state.hp} なのに勝敗が決まっていません")
        if state.enemy["hp"] <= 0:
            raise SaveError("state.enemy.hp", f"{W.variable.enemy_hp} {state.enemy['hp']} なのに"
                            "勝敗が決まっていません")
        if state.fray_stage >= breakthrough:
            raise SaveError("state.fray_stage", f"{W.scope.stage}の{W.variable.fray} "
                            f"{state.fray_stage} が{BREAKTHROUGH_WORD} {breakthrough} に"
                            "達しているのに勝敗が決まっていません")

    def _defense(self, defense) -> None:
        for i, entry in enumerate(_list(defense, "state.defense")):
            if not isinstance(entry, list) or len(entry) != 2:
                raise SaveError(f"state.defense.{i}", "[値, 消滅契機] ではありません")
            _int(entry[0], f"state.defense.{i}.value", *BOUNDS["defense.value"])
            _one_of(entry[1], f"state.defense.{i}.expiry", EXPIRY_ORDER)

    def _params(self, params) -> None:
        _keys(params, "state.params", set(PARAMS))
        for name, value in params.items():
            # A parameter keeps the type of its balance value (only 防御係数 is a float).
            check = _number if isinstance(getattr(self.tables.balance, name), float) else _int
            check(value, f"state.params.{name}", *BOUNDS["params"])
            if self.balance is not None and value != getattr(self.balance, name):
                raise SaveError(f"state.params.{name}",
                                f"{_BALANCE_WORDS[name]} {value} がバランスの値 "
                                f"{getattr(self.balance, name)} と違います（セーブが書き換えられています）")

    def _mods(self, mods) -> None:
        for i, mod in enumerate(_list(mods, "state.mods")):
            where = f"state.mods.{i}"
            _keys(mod, where, {"kind", "key", "op", "value", "lifetime"})
            kind = _one_of(mod["kind"], f"{where}.kind", _MOD_KINDS)
            if kind == "param":
                _one_of(mod["key"], f"{where}.key", PARAMS)
            elif kind == "year":
                _one_of(mod["key"], f"{where}.key", self.tables.pages)
            elif not isinstance(mod["key"], str) or len(mod["key"]) > 200:
                raise SaveError(f"{where}.key", "フラグの名前ではありません")
            _one_of(mod["op"], f"{where}.op", ("add", "assign"))
            # every such value lands truncated, but a change of a coefficient (防御係数)
            # keeps its fractions
            check = _number if kind == "param" and mod["key"] in COEFFICIENTS else _int
            check(mod["value"], f"{where}.value", *BOUNDS["mods.value"])
            _one_of(mod["lifetime"], f"{where}.lifetime", _MOD_LIFETIMES)

    def _pages(self, pages, zones) -> None:
        _list(pages, "state.pages")
        for uid, page in enumerate(pages):
            where = f"state.pages.{uid}"
            _keys(page, where, {"uid", "page", "zone", "lifetime", "faces"})
            _int(page["uid"], f"{where}.uid", uid, uid)
            _one_of(page["page"], f"{where}.page", self.tables.pages)
            _one_of(page["zone"], f"{where}.zone", ZONES)
            if page["lifetime"] is not None:
                _one_of(page["lifetime"], f"{where}.lifetime", ("stage", "run"))
            faces = _keys(page["faces"], f"{where}.faces", {"future", "past"})
            for side, face in faces.items():
                fw = f"{where}.faces.{side}"
                _keys(face, fw, {"state", "blanked", "penned"})
                _one_of(face["state"], f"{fw}.state", _FACE_STATES)
                if face["blanked"] is not None:
                    _one_of(face["blanked"], f"{fw}.blanked", ("base", "pen"))
                _bool(face["penned"], f"{fw}.penned")
                no_pen = self.tables.pages[page["page"]].pens.get(side) is None
                if face["state"] == "pen" and no_pen:
                    raise SaveError(f"{fw}.state", "このページのこの面にペン強化はありません")
                if face["blanked"] == "pen" and no_pen:  # restoring it would write the pen
                    raise SaveError(f"{fw}.blanked", "このページのこの面にペン強化はありません")
        _keys(zones, "state.zones", set(ZONES))
        if not pages:  # a run always has its deck: with none, no zone's number can be right
            raise SaveError("state.pages", "ページが 1 枚もありません")
        seen: dict[int, str] = {}
        for zone in ZONES:
            for i, uid in enumerate(_list(zones[zone], f"state.zones.{zone}")):
                _int(uid, f"state.zones.{zone}.{i}", 0, len(pages) - 1)
                if uid in seen:
                    raise SaveError(f"state.zones.{zone}", f"ページ {uid} が2か所にあります")
                seen[uid] = zone
                if pages[uid]["zone"] != zone:
                    raise SaveError(f"state.pages.{uid}.zone", f"{zone} にあるはずです")
        if len(seen) != len(pages):
            raise SaveError("state.zones", "どの領域にもないページがあります")

    def _effects(self, effects, page_count: int) -> None:
        for i, placed in enumerate(_list(effects, "state.effects")):
            where = f"state.effects.{i}"
            _keys(placed, where, {"effect", "origin", "page_uid", "scale", "fires", "distance",
                                  "placed"}, frozenset({"windows", "telegraph"}))
            effect = self._effect(placed["effect"], f"{where}.effect")
            placed["effect"] = self.effects[effect]  # shared with the tables, as when placed
            if not isinstance(placed["origin"], str) or len(placed["origin"]) > 300:
                raise SaveError(f"{where}.origin", "文字列ではありません")
            if placed["page_uid"] is not None:
                _int(placed["page_uid"], f"{where}.page_uid", 0, page_count - 1)
            _number(placed["scale"], f"{where}.scale", *BOUNDS["effects.scale"])
            _int(placed["fires"], f"{where}.fires", *BOUNDS["effects.fires"])
            _int(placed["distance"], f"{where}.distance", *BOUNDS["effects.distance"])
            anchor = _keys(placed["placed"], f"{where}.placed", {"plays", "turns", "counters"})
            _int(anchor["plays"], f"{where}.placed.plays", *BOUNDS["plays_run"])
            _int(anchor["turns"], f"{where}.placed.turns", *BOUNDS["turns_run"])
            self._run_counters(anchor["counters"], f"{where}.placed.counters")
            windows = placed.get("windows", {})
            if not isinstance(windows, dict):
                raise SaveError(f"{where}.windows", "オブジェクトではありません")
            for name, counters in windows.items():
                if len(name) > 40:
                    raise SaveError(f"{where}.windows", "窓の名前ではありません")
                self._run_counters(counters, f"{where}.windows.{name}")
            if "telegraph" in placed:
                plan = _keys(placed["telegraph"], f"{where}.telegraph", {"amount", "to"})
                _int(plan["amount"], f"{where}.telegraph.amount", *BOUNDS["telegraph.amount"])
                _int(plan["to"], f"{where}.telegraph.to", *BOUNDS["telegraph.to"])

    def _effect(self, literal, where: str) -> Sayou:
        """The table's 作用 a saved literal stands for: it must read as a 作用 and equal one
        the tables hold."""
        try:
            effect = from_literal(Sayou, literal, where)
        except (ContractError, RecursionError):
            effect = None
        if effect is None or effect not in self.effects:
            raise SaveError(where, "表にない作用です")
        return effect

    def _run_counters(self, counters, where: str) -> None:
        if not isinstance(counters, dict):
            raise SaveError(where, "オブジェクトではありません")
        for name, value in counters.items():
            _one_of(name, where, self.counters)
            _number(value, f"{where}.{name}", *BOUNDS["counters"])

    def _enemy(self, enemy, enemy_id: str) -> None:
        table = self.tables.enemies[enemy_id]
        _keys(enemy, "state.enemy", {"id", "hp", "seat", "intents", "turn_intents",
                                     "escalations"}, frozenset({"down"}))
        _one_of(enemy["id"], "state.enemy.id", (enemy_id,))
        _int(enemy["hp"], "state.enemy.hp", *BOUNDS["enemy.hp"])
        _int(enemy["seat"], "state.enemy.seat", *BOUNDS["enemy.seat"])
        known = [_canonical(to_literal(i)) for i in table.intents] + [
            _canonical(to_literal(e.intent)) for e in table.escalations]
        for name in ("intents", "turn_intents"):
            for i, intent in enumerate(_list(enemy[name], f"state.enemy.{name}")):
                if _canonical(intent) not in known:
                    raise SaveError(f"state.enemy.{name}.{i}", "この敵の Intent ではありません")
        escalations = _list(enemy["escalations"], "state.enemy.escalations")
        if len(escalations) != len(table.escalations):
            raise SaveError("state.enemy.escalations", "この敵のエスカレーションと数が合いません")
        for i, rule in enumerate(escalations):
            _keys(rule, f"state.enemy.escalations.{i}", {"next", "every"})
            _int(rule["next"], f"state.enemy.escalations.{i}.next", 0)
            _int(rule["every"], f"state.enemy.escalations.{i}.every", 1)
        if "down" in enemy and enemy["down"] is not True:
            raise SaveError("state.enemy.down", "true でなければなりません")


def _table_effects(tables: Tables):
    """Every 作用 of the tables that a run can place on the board."""
    for page in tables.pages.values():
        for body in (*page.faces.values(), *page.pens.values()):
            if body is not None:
                yield from body.effects
        yield from page.tear or ()
    for enemy in tables.enemies.values():
        yield from enemy.trait_effects
    yield from tables.balance.reward
