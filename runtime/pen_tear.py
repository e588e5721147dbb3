"""ペンと破る — the two uses of a page besides playing it, and the 綻び they raise (with its rewards).

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

import math

from contract.vocabulary import NO_PEN_UPGRADE, W

from . import board, resolution
from .bounds import bounded, clamp
from .refusal import Refused
from .sayou import Frame, modified, truncate, year_of
from .state import SIDE_WORDS, SIDES, BattleFields, Face, PageInstance, State
from .tearing import tear_scale


def pen(battle: BattleFields, uid: int, side: str) -> None:
    """ペンで書き込む: checked (Refused, nothing changed), then the face written, upgraded
    or restored; its 綻び and ペン使用時 follow."""
    s: State = battle.state
    if side not in SIDES:
        raise Refused(f"面は {W.face_word.future} か {W.face_word.past} です")
    if s.zone_of(uid) != "hand":
        raise Refused(f"ペンは{W.region.hand}のページにだけ使えます")
    if s.pens_used >= s.param("pen_cap"):
        raise Refused(f"この{W.scope.stage}のペンは使い切りました（{s.param('pen_cap')} 回）")
    face = s.pages[uid].faces[side]
    page = battle.page_of(uid)
    if face.state == "blank" and face.blanked is not None:
        s.set_face(uid, side, Face(face.blanked, None, face.penned))  # 白紙化から元に戻る
        result = "restored"
    elif face.penned:
        raise Refused(f"{SIDE_WORDS[side]}にはもうペンを入れています（各面1回まで）")
    elif page.pens[side] is None:
        raise Refused(f"{SIDE_WORDS[side]}は{NO_PEN_UPGRADE}です（このページのこの面にペンで書けるものはありません）")
    else:
        s.set_face(uid, side, Face("pen", face.blanked, True))
        result = "written" if not page.faces[side].written else "upgraded"
    s.pens_used += 1
    s.count("turn", "pens", 1)
    battle.emit(("pen", uid, side, result))
    resolution.begin(battle, (_special, (battle.tables.balance.pen_fray, "pen", "on_pen")))


def tear_preview(battle: BattleFields, uid: int, *, consume: bool = False) -> dict:
    """The 綻び and the tear effect's scale tearing ``uid`` would give now.
    ``consume``: the tear is made — a use of each 綻び倍率 (its 最大 n 回 counts it,
    DESIGN §6.2 modifiers with a count)."""
    distance = abs(battle.year(uid) - battle.state.age)
    page = battle.page_of(uid)
    fray = _tear_fray(battle, distance, page.fray_mul, consume)
    blank = all(battle.face_body(uid, side) is None for side in SIDES)
    effects = () if blank or not page.tear else page.tear
    return {"distance": distance, "fray": fray, "blank": blank,
            "scale": bounded(tear_scale(battle.tables.balance.tear_scale, distance)),
            "effects": effects}


def tear_fray(battle: BattleFields, uid: int) -> int:
    """The 綻び tearing ``uid`` would give now: ``tear_preview``'s ``fray`` alone, with
    no preview made — a player weighing the tear of every hand page asks at each
    decision."""
    return _tear_fray(battle, abs(battle.year(uid) - battle.state.age),
                      battle.page_of(uid).fray_mul, False)


def tear_reaches(battle: BattleFields) -> list[float]:
    """Distance × 綻び倍率 of each hand page, in hand order: the 綻び its tear would give
    before the board's 綻び倍率, the clamp and the truncation (``tear_fray``) — read in
    one loop: a player asks at each decision whether any tear could reach the 突破ライン,
    which about none ever does."""
    s: State = battle.state
    age, assigned = s.age, bool(s.mods)  # a 銘 a 作用 assigned may be in force
    pages, instances = battle.tables.pages, s.pages
    reaches = []
    instance: PageInstance
    for uid in s.zones["hand"]:
        instance = instances[uid]
        page = pages[instance.page]
        year = year_of(battle, uid) if assigned else page.year
        reaches.append(abs(year - age) * page.fray_mul)
    return reaches


def tear_reach_bound(battle: BattleFields) -> float | int:
    """The most distance × 綻び倍率 any page of the tables gives at 刻 now: no hand page's
    ``tear_reaches`` is above it (every page in play is a page of the tables), so a need
    above it is told without reading the hand — about half the decisions of a greedy
    battle. Infinite while a 銘 a 作用 assigned may be in force (a page's 銘 is then not
    its table's). Worked out once per 刻 per tables."""
    s: State = battle.state
    if s.mods:
        return math.inf
    tables = battle.tables
    age = s.age
    return tables.fact("tear_reach_bound", age, lambda: max(
        (abs(page.year - age) * page.fray_mul for page in tables.pages.values()), default=0))


def _tear_fray(battle: BattleFields, distance: int, fray_mul: float | int, consume: bool) -> int:
    """distance × 綻び倍率 of the page, through the 綻び倍率 in force, truncated."""
    return max(0, truncate(modified(battle, "fray", bounded(distance * fray_mul),
                                    consume=consume)))


def tear(battle: BattleFields, uid: int) -> None:
    """破る: checked (Refused, nothing changed), then the page torn for the run; its
    tear effect, 綻び and 破却時 follow."""
    s: State = battle.state
    if s.zone_of(uid) != "hand":
        raise Refused(f"破れるのは{W.region.hand}のページだけです")
    if s.tears_used >= s.param("tear_cap"):
        raise Refused(f"この{W.scope.stage}はもう破れません（{s.param('tear_cap')} 回）")
    preview = tear_preview(battle, uid, consume=True)
    s.tears_used += 1
    s.move(uid, "torn")
    s.count("turn", "tears", 1)
    battle.emit(("tear", uid, s.pages[uid].page, preview["distance"], preview["fray"],
                 preview["blank"]))
    frame = Frame(page_uid=uid, distance=preview["distance"])
    resolution.begin(battle, (_special, (preview["fray"], "tear", "on_tear")),
                  (board.run_list, (preview["effects"], frame, uid, preview["scale"],
                                    f"tear:{s.pages[uid].page}")))


def _special(battle: BattleFields, fray: int, cause: str, timing: str):
    """What follows a pen or a tear (after a tear's effects): its 綻び (and rewards),
    then its timing. A player choice asked on the way waits for ``choose`` like one
    asked in a play."""
    battle._stack.append((board.fire_step, (timing,)))
    return _gain_fray(battle, fray, cause)


def _gain_fray(battle: BattleFields, amount: int, cause: str):
    s: State = battle.state
    amount = max(0, truncate(amount))
    s.fray_run = clamp("fray_run", s.fray_run + amount)
    s.fray_stage = clamp("fray_stage", s.fray_stage + amount)
    s.count("turn", "fray_gained", amount)
    battle.emit(("fray_gained", amount, cause, s.fray_run, s.fray_stage))
    # 綻び rewards by arithmetic: however many intervals this gain crossed, they are
    # granted at once (a jump of 10^12 years is instant; DESIGN §6.1).
    interval = battle.tables.balance.reward_interval
    earned = s.fray_run // interval - s.rewards_given
    if earned > 0:
        s.rewards_given += earned
        battle.emit(("reward", s.rewards_given * interval, earned))
        battle._stack.append((board.fire_step, ("on_reward", None, earned)))
        return board.run_list(battle, battle.tables.balance.reward, Frame(), None, 1.0, "reward",
                              True, earned)
    return None
