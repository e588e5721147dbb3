"""例の実行 — play a checked scenario against the tables and compare expectations.

A scenario is data (see ``scenario.check``): a setup, then steps — actions on pages named
by id, and expectations on quantities after any step. Running never raises on a failing
scenario: the result lists each failed expectation with its place and the numbers.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.game import DevSet
from runtime.battle import Battle, Refused
from runtime.named import Unnamed, resolve
from runtime.sayou import COMPARE  # an expectation compares as a play condition does
from contract.vocabulary import W

from .outcome import Failure, Result  # noqa: F401  (here before; the cache builds them too)


#: Where a page's copies are, for 未来面[page] / 過去面[page].
_HELD = ("hand", "draw", "discard", "exile_stage", "exile_run")


def _face_written(side):
    """未来面[page] / 過去面[page]: 1 when that face of any copy of the page is written —
    a pen lasts the run on the copy it wrote, wherever that copy lies."""
    def read(battle, page, window):
        return int(any(battle.page_id(uid) == page and battle.face_body(uid, side) is not None
                       for zone in _HELD for uid in battle.zone(zone)))
    return read


#: quantity code → reader(battle, argument, window events). Scenario words map to these
#: codes in ``scenario.check.QUANTITIES``.
READERS = {
    "hp": lambda b, arg, w: b.state.hp,
    "steps": lambda b, arg, w: b.state.steps,
    "age": lambda b, arg, w: b.state.age,
    "defense": lambda b, arg, w: (b.state.defense_by_expiry()[arg] if arg
                                  else b.state.defense_total()),
    "intents": lambda b, arg, w: b.intent_count(),
    "fray": lambda b, arg, w: b.state.fray_stage if arg == "stage"
    else b.state.fray_run,
    "enemy_hp": lambda b, arg, w: b.enemy_hp,
    "currency": lambda b, arg, w: b.state.currency,
    "seat": lambda b, arg, w: b.seat,
    "stage": lambda b, arg, w: b.state.stage_index + 1,
    "turn": lambda b, arg, w: b.state.turn,
    "won": lambda b, arg, w: 1 if b.state.outcome == "won" else 0,
    "lost": lambda b, arg, w: 1 if b.state.outcome == "lost" else 0,
    "events": lambda b, arg, w: sum(1 for e in w if _COUNTED.get(arg, _of_kind)(e, arg)),
    "zone": lambda b, arg, w: sum(b.zone_size(z) for z in arg),
    "page_in": lambda b, arg, w: sum(1 for z in arg[0] for uid in b.zone(z)
                                     if b.page_id(uid) == arg[1]),
    "future": _face_written("future"),
    "past": _face_written("past"),
    "counter": lambda b, arg, w: b.state.counter(arg[1], arg[0]),
    "param": lambda b, arg, w: b.state.param(arg),
    "flag": lambda b, arg, w: b.state.flag(arg),
}


def _of_kind(event, kind: str) -> bool:
    return event.kind == kind


#: 出来事 a count takes from more than its own kind of event: ページの除外 counts a page a
#: 作用 moved to 除外 too (the battle says that move as page_moved), as
#: ページが除外された時 fires for both.
_COUNTED = {
    "page_exiled": lambda event, kind: event.kind == "page_exiled" or (
        event.kind == "page_moved" and event.data["to"].startswith("exile")),
}


def run(spec: dict, tables) -> Result:
    """Play one checked example (a spec of scenario.check) on the tables and compare every
    expectation; a failing scenario never raises, its Result lists the failures."""
    result = Result(spec["name"], spec["path"], spec["line"])
    try:
        deck = spec["deck"]
        if deck is None:  # the starting deck, or none: 開始 手札 […] can give the pages
            deck = tables.starter() if tables.starting_deck in tables.decks else []
        battle = Battle.new(tables, seed=spec["seed"], enemies=spec["enemies"], deck=deck)
    except KeyError as exc:
        result.failures.append(Failure(spec["line"], 1, f"始められません: {exc}"))
        return result
    # the first 確認 counts from the battle's start: its ラン開始, ステージ開始, draws …
    window: list = list(battle.log)
    for step in spec["steps"]:
        if step["kind"] == "expect":
            for check in step["checks"]:
                _expect(battle, check, window, result)
            window = []
            continue
        if battle.over and step["kind"] != "expect":
            result.failures.append(Failure(step["line"], step["col"],
                                           f"{W.scope.run}はもう終わっています（この手は打てません）"))
            break
        before = battle.copy() if step["kind"] == "set_many" else None
        try:
            # A step is an action naming pages by id (scenario.check): the battle's own
            # action is the first hand page (or candidate) of that id.
            events = battle.apply(resolve(battle, step["action"]))
        except Refused as exc:
            if step["refused"] is None:
                if before is not None:
                    result.failures.extend(_refused_settings(before, step))
                else:
                    result.failures.append(Failure(step["line"], step["col"],
                                                   f"拒否されました: {exc.reason}"))
                break
            if isinstance(step["refused"], str) and step["refused"] not in exc.reason:
                result.failures.append(Failure(
                    step["line"], step["col"],
                    f"拒否の理由が違います: 期待「{step['refused']}」、実際「{exc.reason}」"))
            continue
        except Unnamed as exc:
            result.failures.append(Failure(step["line"], step["col"], exc.reason))
            break
        if step["refused"] is not None:
            result.failures.append(Failure(step["line"], step["col"],
                                           "拒否されるはずが、受け付けられました"))
        for event in events:
            if event.kind == "chain_stopped":  # the battle went on; the example fails
                result.failures.append(Failure(step["line"], step["col"],
                                               chain_message(event.data, tables)))
        window.extend(events)
        result.events.extend(events)
    else:
        pending = battle.pending
        if pending is not None and not battle.over and spec["steps"]:
            # The play that asked is still resolving: what it would do next never happened.
            last = spec["steps"][-1]
            result.failures.append(Failure(last["line"], last["col"], (
                f"{W.pick.choice}が残ったまま例が終わりました（{vocab.KEYWORDS['choose'][0]} で"
                f"答えるまで、{W.pick.choice}を求めた作用の続きは解決されません）")))
    return result


def _refused_settings(before, step: dict) -> list[Failure]:
    """Every refused value of a 開始 (not only the first), each at its value: the values
    are set in order, each after the ones accepted before it (DevSet's own order), on
    copies of the battle as it was before the step."""
    failures, accepted = [], []
    for setting, (line, col, end_col) in zip(step["settings"], step["places"]):
        try:
            trial = before.copy()
            trial.apply(resolve(trial, DevSet((*accepted, setting))))
        except Refused as exc:
            failures.append(Failure(line, col, f"拒否されました: {exc.reason}",
                                    end_col=end_col))
            continue
        accepted.append(setting)
    return failures or [Failure(step["line"], step["col"], "拒否されました")]


#: Origin kind of a link of a chain (runtime Board.chain_link) → how a failure names it,
#: by the ids a scenario writes.
_LINK_OWNER = {
    "page": lambda owner: owner,
    "tear": lambda owner: f"{owner} の{vocab.KEYWORDS['tear'][0]}",
    "enemy": lambda owner: f"{vocab.KEYWORDS['enemy'][0]} {owner}",
    "reward": lambda owner: vocab.KEYWORDS["reward"][0],
}


#: How a failure of a stopped chain begins (``chain_message``): a witness of a loop proves
#: it by failing so (commands/analyze.py).
CHAIN_STOPPED = "作用の連鎖を止めました"


#: Origin kind of a link → where the tables keep its item (its ``source`` says the file).
_LINK_ITEMS = {"page": "pages", "tear": "pages", "enemy": "enemies"}


def _link_place(tables, kind: str, owner, line: int) -> str:
    """Where a link's 作用 is written: ``path:line`` when the tables know its item's file
    (pages spread over several files), else its line."""
    items = getattr(tables, _LINK_ITEMS.get(kind, ""), None) if tables is not None else None
    source = getattr(items.get(owner), "source", None) if items is not None else None
    return f"（{source.path}:{line}）" if source is not None else f" {line} 行目"


def chain_message(data: dict, tables=None) -> str:
    """A stopped chain (event ``chain_stopped``) as a failure: the 作用 that set each
    other off, by page id, where it is written (its file and line, given ``tables``),
    operation and timing."""
    operations, timings = vocab.tables()["operation"], vocab.tables()["timing"]
    links = " → ".join(
        f"{_LINK_OWNER[kind](owner)}{_link_place(tables, kind, owner, line)}の"
        f"{operations.by_code(op).ja}（{timings.by_code(timing).ja}）"
        for kind, owner, line, op, timing in data["links"])
    # The battle cannot tell an endless chain from a long one: it says what it did.
    return (f"{CHAIN_STOPPED}: 1 手で {data['bound']} 回を超えました（終わらない連鎖か、"
            f"長すぎる連鎖です）（{links}）")


def _expect(battle: Battle, check: dict, window: list, result: Result) -> None:
    values = [t["value"] if t["kind"] == "const" else
              READERS[t["quantity"]](battle, t.get("arg"), window) for t in check["terms"]]
    ok = all(COMPARE[op](a, b) for op, a, b in zip(check["ops"], values, values[1:]))
    if not ok:
        actual = ", ".join(f"{t['text']} = {_shown(v)}" for t, v in zip(check["terms"], values)
                           if t["kind"] != "const")
        result.failures.append(Failure(check["line"], check["col"],
                                       f"期待 {check['text']} ／ 実際 {actual}",
                                       expected=check["text"], actual=actual,
                                       end_col=check.get("end_col")))


def _shown(value) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
