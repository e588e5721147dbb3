"""記録 — what a session leaves behind: the 例 it can be kept as, where a page is
written, the closing summary, and developer-mode lines in the designer's words.

``scenario_text`` writes the session so far as a scenario (spec: dsl/jibunki.lark
``example``): the start (敵, シード, デッキ, the opening hand when ``--with`` changed it),
every action in order with pages named by id, and 確認 lines of the numbers after each
end of turn and at the end. A line is the session's action named (runtime.named: its
uids as page ids) — the very value the scenario runner plays for that line — written by
one table (``STEP_TEXT``, by action class). Before anything is written that named action
is replayed the way the scenario runner plays it (``runtime.named.resolve``: the same
start, the first hand page with the id) beside the session's own battle, and compared
after every action: the events' kinds,
the numbers a 確認 reads, the pages of every zone but the draw pile (what it holds shows in
what is drawn), the pending 選択 and the result. When any of these differ the example
would not be this session (``--with`` takes a page out of the deck, while a scenario's
opening 手札 makes new copies and puts the old hand into the deck), so there is no text,
only the reason — a recording replays exactly or is not written.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.game import Choose, DevSet, EndTurn, Pen, Play, Tear
from contract.vocabulary import KEYWORDS, W
from runtime.battle import Battle, Refused
from runtime.dev import DEV_SETTINGS, LIFETIME_WORDS
from runtime.named import Unnamed, named, resolve
from runtime.state import ZONES

__all__ = ["EXPECTED", "dev_line", "numbers", "scenario_text", "summary", "where"]

#: The quantities a recorded 確認 checks, in order: (the word a scenario reads, reader).
EXPECTED = (
    (W.variable.age, lambda b: b.state.age),
    (W.variable.seat, lambda b: b.seat),
    (W.variable.hp, lambda b: b.state.hp),
    (W.variable.enemy_hp, lambda b: b.enemy_hp),
    (W.variable.steps, lambda b: b.state.steps),
    (W.variable.defense, lambda b: b.state.defense_total()),
    (W.variable.fray, lambda b: b.state.fray_run),
    (W.scope.stage, lambda b: b.state.stage_index + 1),
    (W.scope.turn, lambda b: b.state.turn),
)
SIDE_WORD = {face.code: face.ja for face in vocab.FACES}
LIFETIME_JA = {code: word for word, code in LIFETIME_WORDS.items() if not word.isascii()}
K = {rule: words[0] for rule, words in KEYWORDS.items()}


def numbers(battle: Battle) -> list[tuple[str, int]]:
    """The numbers a recorded 確認 checks, as (word, value)."""
    return [(word, read(battle)) for word, read in EXPECTED]


def _page_name(tables, page_id: str) -> str:
    page = tables.pages.get(page_id)
    return page.name if page else page_id


def dev_line(data: dict, tables) -> str:
    """A developer-mode event in the designer's words: ``[開発者] 刻 = 99``,
    ``[開発者] 手札 = 坂道の自転車・入学式``, ``[開発者] 防御 = 10（ステージ）``."""
    setting = DEV_SETTINGS.get(data["what"])
    word = setting.words[0] if setting else data["what"]
    value = data["value"]
    if data["what"] == "hand":
        shown = "・".join(_page_name(tables, p) for p in value) or "（なし）"
    elif isinstance(value, list):
        shown = f"{value[0]}（{LIFETIME_JA.get(value[1], value[1])}）"
    else:
        shown = str(value)
    return f"[開発者] {word} = {shown}"


def where(tables, page_id: str) -> str:
    """``path:line`` of the file that defines the page (its ``source`` in the tables)."""
    source = tables.pages[page_id].source
    return f"{source.path}:{source.line}"


# ------------------------------------------------------------------ summary

def summary(session) -> list[str]:
    """The closing lines under the result: HP lost, 綻び gained, damage dealt by page."""
    s = session.battle.state
    # All three from the run's start, as a loaded save carries them; only the split of the
    # damage by page is this session's (a save does not hold it).
    total = s.counter("run", "damage_dealt")
    lines = [f"{W.counter.hp_lost}: {s.counter('run', 'hp_lost')}   "
             f"{W.counter.fray_gained}: {s.counter('run', 'fray_gained')}",
             f"{W.counter.damage_dealt}: {total}"]
    dealt = sorted(((n, p or "") for p, n in session.dealt.items() if n), key=lambda x: (-x[0], x[1]))
    for amount, page in dealt:
        lines.append(f"  {_page_name(session.tables, page) if page else 'ページ以外'}  {amount}")
    split = sum(session.dealt.values())
    if split != total:
        lines.append(f"  （ページごとの内訳は読み込んでからの {split} ぶんです）")
    return lines


# ----------------------------------------------------------------- scenario

#: Action class → its scenario line, the action named by page ids (runtime.named).
STEP_TEXT = {
    Play: lambda a: f"{K['play']} {a.uid}",
    Pen: lambda a: f"{K['pen']} {a.uid} {SIDE_WORD[a.side]}",
    Tear: lambda a: f"{K['rip']} {a.uid}",
    EndTurn: lambda a: K["end"],
    Choose: lambda a: f"{K['choose']} " + " ".join(a.uids),
    DevSet: lambda a: f"{K['setup']} " + ", ".join(_setting(k, v) for k, v in a.values),
}


def _setting(key: str, value) -> str:
    word = DEV_SETTINGS[key].words[0]
    if key == "hand":
        return f"{word} [{', '.join(value)}]"
    if isinstance(value, (tuple, list)):
        return f"{word}[{LIFETIME_JA[value[1]]}] {value[0]}"
    return f"{word} {value}"


def _first_in_hand(battle: Battle, page_id: str) -> int:
    return next(uid for uid in battle.hand if battle.page_id(uid) == page_id)


def _expect(battle: Battle) -> str:
    return f"{K['expect']} " + ", ".join(f"{word} == {value}" for word, value in numbers(battle))


def _trace(battle: Battle, events: list) -> tuple:
    """What an action did, by page ids rather than uids (a replay's uids may differ):
    the compared shape of one step of the replay and of the session. A zone is compared
    as the pages it holds, each with its faces and lifetime, not in their order: a
    scenario names the first copy of a page in the hand, the session may have played a
    later one — the same page, so what the example checks is the same."""
    name = (lambda c: c if isinstance(c, str) else battle.page_id(c))
    copy = (lambda uid: repr(tuple(battle.instance(uid).values())))
    zones = tuple((z, tuple(sorted(copy(uid) for uid in battle.zone(z)))) for z in ZONES
                  if z != "draw")
    choice = battle.pending
    picks = tuple(sorted(name(c) for c in choice.candidates)) if choice else None
    return (tuple(e.kind for e in events), tuple(numbers(battle)), zones, picks,
            battle.state.outcome)


#: Why a recording is refused, by what the replay met (the message a designer reads).
UNLIKE = {
    "refused": "この手を例の再生では打てません",
    "differs": "例の再生でこの手の結果がセッションと違います",
}


def scenario_text(session) -> tuple[str | None, str]:
    """The session so far as a 例 (text of a .scenario file) and "", or None and why not
    when the scenario would not replay the session exactly (see the module docstring)."""
    tables, setup = session.tables, session.setup
    if session.battle.pending is not None:
        # an example ends where its steps end: one that ends waiting for a choice fails
        # (「選択が残ったまま例が終わりました」), as a save of that moment is refused
        return None, (f"{W.pick.choice}の途中です。選ぶ で答えてから record してください"
                      "（選択待ちで終わる例は jibunki test で失敗します）")
    names = "・".join(_enemy_name(tables, e) for e in setup["enemies"])
    title = f"記録: {names}、シード {setup['seed']}、{len(session.history)} 手"
    body = [f"{K['enemy']} {' '.join(setup['enemies'])}", f"{K['seed']} {setup['seed']}"]
    if setup["deck"] is not None:
        body.append(f"{K['deck']} [{', '.join(setup['deck'])}]")
    deck = setup["deck"] if setup["deck"] is not None else (
        tables.starter() if tables.starting_deck in tables.decks else [])
    replay = Battle.new(tables, seed=setup["seed"], enemies=setup["enemies"], deck=deck)
    if setup["with"]:
        hand = list(session.opening_hand_ids)
        body.append(f"{K['setup']} {_setting('hand', hand)}")
        replay.apply(DevSet((("hand", tuple(hand)),)))
    # the session's own battle, replayed alongside to compare every step
    mirror = session.fresh_battle()
    later_copy = False  # the session used a copy of a page that is not the hand's first
    for number, action in enumerate(session.history, 1):
        written = named(mirror, action)  # the step as the example holds it
        step = STEP_TEXT[type(action)](written)
        body.append(step)
        later_copy = later_copy or (isinstance(action, (Play, Pen, Tear)) and action.uid != _first_in_hand(
            mirror, written.uid))
        try:
            replayed = replay.apply(resolve(replay, written))
        except (Refused, Unnamed):
            return None, _unlike("refused", number, step, setup, later_copy)
        if _trace(replay, replayed) != _trace(mirror, mirror.apply(action)):
            return None, _unlike("differs", number, step, setup, later_copy)
        if type(action) is EndTurn:
            body.append(_expect(replay))
    if not body[-1].startswith(K["expect"]):
        body.append(_expect(replay))
    if replay.state.outcome:
        word = W.quantity.won if replay.state.outcome == "won" else W.quantity.lost
        body.append(f"{K['expect']} {word} == 1")
    head = ["# jibunki battle の record で書いた例。jibunki test でそのまま確かめられます。"]
    text = "\n".join([*head, f'{K["example"]} "{title}" {{', *(f"  {line}" for line in body), "}", ""])
    return text, ""


def _unlike(what: str, number: int, step: str, setup: dict, later_copy: bool) -> str:
    """Why the session cannot be kept as an example: the first step the replay does not
    reproduce, and what in the set-up or the session makes the difference."""
    hand, draw = W.region.hand, W.region.draw
    if setup["with"]:
        cause = (f"--with は{draw}のページを{hand}へ移しますが、例の 開始 {hand} は新しいページを作り、"
                 f"元の{hand}を{draw}へ戻します（例に残すなら --with を使わず、最初に set {hand} … で"
                 f"{hand}を作ってください）")
    elif later_copy:
        cause = (f"例はページを id で書くので、{hand}に同じページが何枚かあると先頭の1枚を使いますが、"
                 "このセッションは別の1枚を使いました")
    else:
        cause = "例の再生がこのセッションと同じ手順になりません"
    return f"{number} 手目（{step}）: {UNLIKE[what]}。{cause}"


def _enemy_name(tables, enemy_id: str) -> str:
    enemy = tables.enemies.get(enemy_id)
    return enemy.name if enemy else enemy_id
