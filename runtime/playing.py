"""プレイ — playing a page: which face fires, its cost, whether it crosses 座, why it cannot be played, and the resolution of a play.

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.tables import Body
from contract.vocabulary import W

from . import board, turn, zones
from .sayou import (Frame, condition_tests, holds, modified, page_year, payment_shortfall,
                    truncate)
from .sides import BOTH, FUTURE_ONLY, PAST_ONLY, active_sides as _sides
from .state import SIDE_WORDS, SIDES, BattleFields, Face, Frozen, PageInstance, Record, State


def _pays(body) -> bool:
    """Whether a face's 作用 list holds a payment made on play (it can refuse the face)."""
    return any(e.op == "pay" and e.timing == "on_play" for e in body.effects)


class PageFacts(Frozen):
    """What a page's faces settle without a test, worked out once per tables
    (``page_facts``): the pages are frozen, and a policy asks at every step.

    ``year``; ``free``: the sides whose face as dealt fires on its own (written, no
    condition, no payment); ``unwritten``: the sides whose face as dealt cannot fire;
    ``pens``: the sides a pen is written for (ペン can upgrade or write them), in SIDES
    order; ``pays``: the sides whose face as dealt makes a payment on play (tested for its
    shortfall); ``past_only``, ``future_only``, ``both``: whether the page plays with its
    faces as dealt when 発動する面 is the past face, the future face, or both (銘 = 刻):
    True — a face fires on its own; False — no face is written; None — a face's
    conditions or payment are to be tested (``dealt``); ``tests``: side → the play
    conditions of its face as dealt, compiled (sayou.condition_tests); ``pen_bodies``:
    side → its face once a pen has written it (``penned``), for the sides with a pen;
    ``pen_tests``: the play conditions of that face, compiled; ``pen_pays``: the sides
    where it pays on play."""

    FIELDS = ("year", "free", "unwritten", "pens", "pays", "past_only", "future_only",
              "both", "tests", "pen_bodies", "pen_tests", "pen_pays")
    __slots__ = FIELDS

    def __init__(self, year: int, free: frozenset, unwritten: frozenset, pens: tuple,
                 pays: frozenset, past_only: bool | None, future_only: bool | None,
                 both: bool | None, tests: dict, pen_bodies: dict, pen_tests: dict,
                 pen_pays: frozenset):
        self.year = year
        self.free = free
        self.unwritten = unwritten
        self.pens = pens
        self.pays = pays
        self.past_only = past_only
        self.future_only = future_only
        self.both = both
        self.tests = tests
        self.pen_bodies = pen_bodies
        self.pen_tests = pen_tests
        self.pen_pays = pen_pays


def penned(page, side: str) -> Body:
    """A face once its pen is written: a pen on a written face replaces its 作用列 only —
    the play conditions are a face variable of their own and stay (spec 002, DESIGN
    §6.1); a pen on a blank face is the whole face."""
    base, pen = page.faces[side], page.pens[side]
    return Body(base.conditions, pen.effects) if base.written else pen


def dealt(free: frozenset, unwritten: frozenset, sides) -> bool | None:
    """Whether faces as dealt fire when ``sides`` are 発動する面: True when one fires on
    its own, False when none is written, None when a test decides."""
    if any(side in free for side in sides):
        return True
    if all(side in unwritten for side in sides):
        return False
    return None


def page_facts(tables) -> dict[str, PageFacts]:
    """Page id → its PageFacts, once per tables."""
    return tables.fact("page_facts", None, lambda: _page_facts(tables))


def _page_facts(tables) -> dict[str, PageFacts]:
    facts = {}
    for page in tables.pages.values():
        free = frozenset(side for side, body in page.faces.items()
                         if body.written and not body.conditions and not _pays(body))
        unwritten = frozenset(side for side, body in page.faces.items() if not body.written)
        pen_bodies = {side: penned(page, side) for side in SIDES
                      if page.pens[side] is not None}
        facts[page.id] = PageFacts(
            page.year, free, unwritten,
            tuple(pen_bodies),
            frozenset(side for side, body in page.faces.items() if _pays(body)),
            dealt(free, unwritten, ("past",)), dealt(free, unwritten, ("future",)),
            dealt(free, unwritten, ("past", "future")),
            {side: condition_tests(tables, body.conditions)
             for side, body in page.faces.items()},
            pen_bodies,
            {side: condition_tests(tables, body.conditions)
             for side, body in pen_bodies.items()},
            frozenset(side for side, body in pen_bodies.items() if _pays(body)))
    return facts


class PlayPlan(Record):
    """A play as it will resolve: worked out when it is asked for (``plan``): ``year``, the
    page's 銘 now; ``cost``, the 歩 it costs; ``crosses``, 跨ぐ (刻 moves across 座);
    ``firing``, the sides whose face fires, in the order they fire; ``bodies``, the face
    (its conditions and 作用 list) of each side of ``firing``; ``frame``, what the faces'
    作用 read of the play (its page, distance, crossing)."""

    FIELDS = ("year", "cost", "crosses", "firing", "bodies", "frame")
    __slots__ = FIELDS
    __hash__ = None

    def __init__(self, year: int, cost: int, crosses: bool, firing: list, bodies: list,
                 frame: Frame):
        self.year = year
        self.cost = cost
        self.crosses = crosses
        self.firing = firing
        self.bodies = bodies
        self.frame = frame


def sides_for(battle: BattleFields, uid: int) -> tuple[str, ...]:
    """発動する面: by 銘 vs 刻 (spec 000): equal fires past, then future."""
    return _sides(battle.year(uid), battle.state.age)


def crosses(battle: BattleFields, old: int, new: int) -> bool:
    """跨ぐ: old and new 刻 strictly on opposite sides of 座 (landing on it is not)."""
    seat = battle.state.enemy["seat"]
    return (old - seat) * (new - seat) < 0


def cost(battle: BattleFields, uid: int) -> int:
    """歩 that playing ``uid`` costs now: |銘 − 刻| × 支払い倍率, truncated."""
    return _cost_of(battle, battle.year(uid))


def _cost_of(battle: BattleFields, year: int) -> int:
    distance = abs(year - battle.state.age)
    index = battle._index or board.board_index_now(battle)
    if "steps_payment" not in index.modifiers:  # the usual case: nothing asked
        return distance
    return max(0, truncate(modified(battle, "steps_payment", distance, consume=False)))


def stays(battle: BattleFields, bodies) -> bool:
    """Whether a play of these firing faces leaves 刻 where it is: 抑制 刻 already in force,
    or written in a face it fires (it lands before 刻 would move, DESIGN §6.2) — such a
    play crosses nothing, whatever its 銘 and 座 (the hand and the log say so)."""
    return battle.state.suppress > 0 or any(
        effect.op == "suppress" and board.is_one_shot(effect)
        for body in bodies for effect in body.effects)


def play_info(battle: BattleFields, uid: int) -> dict:
    """What playing ``uid`` would do now: faces, cost, crossing, or why it cannot."""
    s: State = battle.state
    year = battle.year(uid)
    frame = Frame(uid, abs(year - s.age), crosses(battle, s.age, year))
    sides = _sides(year, s.age)
    info = {"uid": uid, "year": year, "cost": _cost_of(battle, year), "crosses": frame.crosses,
            "sides": list(sides), "firing": [], "playable": False, "reason": ""}
    reason = _blocked(battle, uid, year)
    firing, bodies, why = _faces_firing(battle, uid, sides, frame)
    if not reason and len(sides) == 1:
        reason = why
    info["firing"] = firing
    info["crosses"] = frame.crosses and not stays(battle, bodies)
    if not reason and not firing:
        words = "・".join(SIDE_WORDS[x] for x in sides)
        reason = f"発動する{words}が白紙です" if all(
            battle.face_body(uid, x) is None for x in sides) else "条件を満たす面がありません"
    if not reason and info["cost"] > s.steps:
        reason = f"{W.variable.steps}が足りない: 残り {s.steps}, 必要 {info['cost']}"
    info["reason"] = reason
    info["playable"] = not reason
    return info


def _faces_firing(battle: BattleFields, uid: int, sides, frame: Frame) -> tuple[list, list, str]:
    """発動する面: the sides of ``sides`` whose face would fire now, in order, their
    faces (face_body), and why the last written one that does not fire cannot ('' when
    none failed)."""
    s: State = battle.state
    firing = []
    bodies = []
    why = ""
    paying: dict[str, float] = {}  # what the faces fired so far will pay, by target
    instance = s.pages[uid]
    free = battle.page_facts[instance.page].free
    for side in sides:
        if side in free and instance.faces[side].state == "base":
            firing.append(side)  # fires on its own: no condition, nothing to pay
            bodies.append(battle.tables.pages[instance.page].faces[side])  # as dealt
            continue
        body = battle.face_body(uid, side)
        if body is None:
            continue
        met = holds(battle, condition_tests(battle.tables, body.conditions), frame)
        # A payment that cannot be made in full refuses the face like a failed
        # condition (DESIGN §6.1 payments); both faces of 銘 = 刻 pay together.
        short = payment_shortfall(battle, body.effects, frame, paying) if met else None
        if met and short is None:
            firing.append(side)
            bodies.append(body)
        else:
            why = short or condition_refusal(side)
    return firing, bodies, why


def condition_refusal(side: str) -> str:
    """Why a face whose 条件 do not hold does not fire (the terminal names the 条件 after
    it, in the catalog's words)."""
    return f"{SIDE_WORDS[side]}の条件を満たしていません"


def plan(battle: BattleFields, uid: int) -> PlayPlan | None:
    """What playing ``uid`` does now (PlayPlan), or None when ``play_info`` would
    refuse it: the same tests, with no reason written and no info dict made — the
    play itself asks, once per play."""
    s: State = battle.state
    page_id = s.pages[uid].page
    # No lifetime-bound value in force (most of a battle): no 銘 is assigned.
    year = page_year(battle, page_id) if s.mods else battle.page_facts[page_id].year
    if _blocked(battle, uid, year):
        return None
    age = s.age
    distance = abs(year - age)
    index = battle._index or board.board_index_now(battle)
    # _cost_of, its usual case read here: no 支払い倍率 on the board, the cost is the distance.
    cost = distance if "steps_payment" not in index.modifiers else _cost_of(battle, year)
    if cost > s.steps:
        return None
    seat = s.enemy["seat"]
    crosses = (age - seat) * (year - seat) < 0
    frame = Frame(uid, distance, crosses)
    firing, bodies, _ = _faces_firing(battle, uid, _sides(year, age), frame)
    if not firing:
        return None
    return PlayPlan(year, cost, crosses, firing, bodies, frame)


def _blocked(battle: BattleFields, uid: int, year: int) -> str:
    s: State = battle.state
    if s.pages[uid].zone != "hand":
        return f"{W.region.hand}にないページです"
    if s.redraw_failed:
        return (f"引き直しても出せるページがなかったので、この{W.scope.turn}は"
                f"ページを{W.scope.play}できません")
    limits = s.limits()
    if year > limits["lifespan_cap"]:
        return f"{W.variable.year} {year} は{W.variable.lifespan_cap} {limits['lifespan_cap']} の先です（生きない年）"
    blockade = battle.foe.blockade
    if blockade and blockade.low <= year <= blockade.high:  # 銘 = 刻 lands there too
        return f"{W.variable.age} {blockade.low}〜{blockade.high} は{W.trait.blockade}されています"
    if year == s.age and s.same_age_plays >= limits["same_age_cap"]:
        return f"{W.variable.year} = {W.variable.age} のページはこの{W.scope.turn}もう出せません"
    return ""


def playable_uids(battle: BattleFields) -> list[int]:
    """The hand pages that can be played now, in hand order: exactly the pages whose
    ``play_info`` says playable, with what is the same for every page (the payment
    multiplier, the walls, the blockade) worked out once and no reasons written —
    the question a policy asks at every step (issue 13)."""
    return playable(battle)


def playable(battle: BattleFields, first: bool = False,
             despite_failed_redraw: bool = False, among: list | None = None) -> list[int]:
    """The playable hand pages (``first``: stop at the first one found; ``among``: of
    these hand pages only — each page's answer is its own). After a failed redraw no
    page may be played that turn; ``despite_failed_redraw`` asks which could be, as the
    end declaration does (DESIGN §6.2 failed redraw)."""
    s: State = battle.state
    if s.redraw_failed and not despite_failed_redraw:
        return []
    age, steps = s.age, s.steps
    index = battle._index or board.board_index_now(battle)
    # The payment multipliers (_cost_of), read once: a policy asks every step.
    mul = modified(battle, "steps_payment", 1.0, consume=False) \
        if "steps_payment" in index.modifiers else 1.0
    limits = s.limits()
    cap = limits["lifespan_cap"]
    blockade = battle.foe.blockade
    same_age_open = s.same_age_plays < limits["same_age_cap"]
    overrides = s.year_overrides() if s.mods else None
    instances: list = s.pages
    facts: dict = battle.page_facts
    found = []
    instance: PageInstance
    fact: PageFacts
    past: Face
    future: Face
    for uid in s.zones["hand"] if among is None else among:
        instance = instances[uid]
        page_id = instance.page
        fact = facts[page_id]
        year = overrides.get(page_id, fact.year) if overrides else fact.year
        faces = instance.faces
        # Faces as dealt (the usual case) are settled by the page's facts: a face
        # fires on its own, or none is written. A pen, a blank or a test is decided by
        # _fires_any, as play_info would.
        if year > age:
            if year - age > steps if mul == 1.0 else truncate((year - age) * mul) > steps:
                continue
            if year > cap or (blockade and blockade.low <= year <= blockade.high):
                continue
            future = faces["future"]
            verdict = fact.future_only if future.state == "base" else None
            sides = FUTURE_ONLY
        elif year < age:
            if age - year > steps if mul == 1.0 else truncate((age - year) * mul) > steps:
                continue
            if year > cap or (blockade and blockade.low <= year <= blockade.high):
                continue
            past = faces["past"]
            verdict = fact.past_only if past.state == "base" else None
            sides = PAST_ONLY
        else:
            if not same_age_open or year > cap or steps < 0 or (
                    blockade and blockade.low <= year <= blockade.high):
                continue
            past, future = faces["past"], faces["future"]
            verdict = fact.both if past.state == "base" and future.state == "base" \
                else None
            sides = BOTH
        if verdict is None:  # a face not as dealt, or one to be tested
            verdict = _fires_any(battle, uid, fact, faces, sides, year, age)
        if not verdict:
            continue
        found.append(uid)
        if first:
            break
    return found


def _fires_any(battle: BattleFields, uid: int, fact: PageFacts, faces, sides, year: int,
               age: int) -> bool:
    """Whether a face of ``sides`` would fire: play_info's test, stopping at the first.
    A face with no condition and no payment fires as soon as it is written (as dealt,
    its PageFacts say so); the others are tested, in the order of ``sides``."""
    paying: dict[str, float] = {}  # what the faces tested so far will pay, by target
    frame = None
    for side in sides:
        state = faces[side].state
        if state == "base":  # the face as dealt
            if side in fact.free:
                return True
            if side in fact.unwritten:
                continue
            pays = side in fact.pays
            tests = fact.tests[side]
        elif state == "pen":
            pays = side in fact.pen_pays
            tests = fact.pen_tests[side]
            if not tests and not pays:
                return True
        else:  # blank
            continue
        if frame is None:
            seat = battle.state.enemy["seat"]
            frame = Frame(uid, abs(year - age), (age - seat) * (year - seat) < 0)
        if holds(battle, tests, frame) and (not pays or payment_shortfall(
                battle, battle.face_body(uid, side).effects, frame, paying) is None):
            return True
    return False


def playable_any(battle: BattleFields) -> bool:
    """Whether any hand page can be played now (the redraw rule asks)."""
    return bool(playable(battle, first=True))


def resolve_play(battle: BattleFields, uid: int, plan: PlayPlan):
    """A play resolves: 歩 paid, its faces fire, プレイ時, then 刻 moves."""
    s: State = battle.state
    old, year = s.age, plan.year
    frame = plan.frame  # read before 刻 moves (spec 002)
    distance = frame.distance
    s.plays_run += 1
    battle.count_scope = "play"
    # This play's move is known before 刻 moves; turn and wider scopes get it after.
    # 使用した歩 is the distance, not the 歩 paid after 支払い倍率 (DESIGN §6.1).
    move = {"steps_used": distance, "distance_moved": distance,
            "net_displacement": year - old, "crossings": 1 if plan.crosses else 0,
            "plays": 1}
    s.play_counters = dict(move)  # the play scope begins with its move
    if s.suppress:  # 抑制 刻 already in force: this play moves nothing
        suppress_move(battle)
    _pay_steps(battle, plan, distance)
    if year == old:
        s.same_age_plays += 1
    battle.emit(("played", uid, s.pages[uid].page, year, old, plan.cost,
                 tuple(plan.firing), plan.crosses and not stays(battle, plan.bodies)))
    battle._stack.append((_play_moves, (uid, plan, old, move)))
    return _play_faces(battle, uid, plan, 0)


def in_play(battle: BattleFields) -> int | None:
    """The page whose play is resolving — still in the hand until the play ends (a choice
    its face asks waits with it there) — or None between plays: the page the play's own
    steps on the resolution stack carry (``PLAY_STEPS``)."""
    for step, args in battle._stack:
        if step in PLAY_STEPS:
            return args[0]
    return None


def _play_faces(battle: BattleFields, uid: int, plan: PlayPlan, i: int):
    """The play's firing faces from the ``i``-th, then プレイ時 on the board."""
    stack = battle._stack
    frame = plan.frame
    n = len(plan.firing)
    while i < n:
        side, body = plan.firing[i], plan.bodies[i]
        i += 1
        battle.emit(("face_fired", uid, side))
        # The playing face runs to its end, both faces of 銘 = 刻 too, though 敵HP
        # reached 0 on the way (then only its 作用 on 敵HP do nothing: DESIGN §6.2).
        height = len(stack)
        request = board.run_list(battle, body.effects, frame, uid, 1.0, "page", True)
        if len(stack) > height:
            stack.insert(height, (_play_faces, (uid, plan, i)))
            return request
    board.fire(battle, "on_play", frame)  # nothing once the stage is over
    return None


def _play_moves(battle: BattleFields, uid: int, plan: PlayPlan, old: int, move: dict):
    """The faces and プレイ時 have resolved: 刻 moves from ``old`` (or is suppressed),
    crossing 座."""
    s: State = battle.state
    year = plan.year
    suppressed = s.suppress > 0
    if suppressed:
        # 刻 does not move: nothing is crossed, displaced or travelled; the distance
        # still counts as 使用した歩 (spec 002: the two agree unless 刻 is suppressed).
        suppress_move(battle)
        for name in SUPPRESSED_MOVE:
            move[name] = 0
        s.suppress -= 1
        battle.emit(("moved", old, old, True))
        return _play_counted(battle, uid, move)
    battle.emit(("moved", old, year, False))
    if plan.crosses:
        # What 座を跨いだ時 sets off is part of the play: it reads the values from
        # before 刻 moves (the old 刻; 跨いだ回数[ターン] without this play).
        battle._stack.append((_play_arrived, (uid, year, move)))
        _cross(battle, uid, old, year)
        return None
    return _play_arrived(battle, uid, year, move)


def _play_arrived(battle: BattleFields, uid: int, year: int, move: dict):
    """刻 reaches the played page's 銘."""
    s: State = battle.state
    s.age = year
    if s.mods:  # a 寿命上限 lowered in this play stops at the new 刻 too
        turn.clamp_to_params(battle)
    return _play_counted(battle, uid, move)


#: The steps of a play on the resolution stack until its page leaves the hand, each
#: with the page's uid first (``in_play``).
PLAY_STEPS = (_play_faces, _play_moves, _play_arrived)


def _play_counted(battle: BattleFields, uid: int, move: dict):
    """The play's move into the run's counters; the page to its destination."""
    s: State = battle.state
    # Into the run's counters, which the turn and the stage read from (State.count).
    counters = s.counters
    get = counters.get
    for name, amount in move.items():
        counters[name] = get(name, 0) + amount
    battle.count_scope = "turn"
    if s.pages[uid].zone == "hand":
        battle._stack.append((_end_of_play, ()))
        _after_play(battle, uid)
        return None
    return _end_of_play(battle)


def suppress_move(battle: BattleFields) -> None:
    """抑制 刻 in this play: its own move counters (総移動距離, 正味変位, 跨いだ回数
    [プレイ]) read 0 from now on — 刻 will not move (DESIGN §6.2)."""
    counters = battle.state.play_counters
    for name in SUPPRESSED_MOVE:
        counters[name] = 0


def _pay_steps(battle: BattleFields, plan: PlayPlan, distance: int) -> None:
    """The play pays its 歩: the cost worked out with the payment multipliers in
    force, which are used once by it (a 支払い倍率 of 最大 n 回 counts each paying
    play: DESIGN §6.2 modifiers with a count)."""
    s: State = battle.state
    index = battle._index or board.board_index_now(battle)
    if distance and "steps_payment" in index.modifiers:
        modified(battle, "steps_payment", distance)  # a use of each, as planned
    s.steps -= plan.cost


def _cross(battle: BattleFields, uid: int, old: int, new: int):
    """跨ぐ: the first Intent of the turn is removed; what 跨いだ時 fires is pushed.
    Both events say which crossing it was: the page played, 刻 from ``age`` to
    ``to``, 座, and the how-manieth crossing of the turn (``crossing``); ``crossed``
    names the Intent the crossing removes (None: none was left) and how many are left."""
    s: State = battle.state
    intents = s.enemy["turn_intents"]
    removed = intents.pop(0) if intents else None
    # This play's crossing is not yet in the turn's counters (it reads them first).
    crossing = (s.enemy["seat"], s.pages[uid].page, old, new,
                s.counter("turn", "crossings") + 1)
    battle.emit(("crossed", removed, len(intents), *crossing))
    if removed is not None:
        s.count("turn", "intents_removed", 1)
        s.play_counters["intents_removed"] = 1
        battle.emit(("intent_removed", removed, len(intents), *crossing))
    board.fire(battle, "on_cross")


def _after_play(battle: BattleFields, uid: int):
    """The played page to its destination; what 除外時 fires is pushed (nothing for a
    discarded page, most plays)."""
    destination = battle.page_of(uid).after_play
    if destination == "discard":
        s: State = battle.state
        s.move(uid, "discard")
        battle.emit(("page_discarded", uid))
        if not s.zones["draw"]:  # the pile is renewed the moment it can be
            zones.reshuffle_if_empty(battle)
        return
    battle.state.move(uid, destination)
    battle.emit(("page_exiled", uid, "stage" if destination == "exile_stage" else "run"))
    board.fire(battle, "on_exile")


def _end_of_play(battle: BattleFields):
    s: State = battle.state
    if s.mods:  # the end of a play asks only what the state and the board hold
        turn.expire_mods(battle, "play")
    index = battle._index or board.board_index_now(battle)
    if index.windows:
        board.close_windows(battle, "play", s.plays_run)
    for placed in index.ending.get("play", ()):
        repeat = placed.effect.repeat
        if repeat.scope == "play" and placed.placed["plays"] < s.plays_run + 1:
            board.remove(battle, placed)
        elif repeat.scope == vocab.ANCHORED and repeat.unit == "play" and (
                s.plays_run - placed.placed["plays"] >= repeat.n):
            board.remove(battle, placed)


#: Counters a suppressed 刻 does not move (総移動距離, 正味変位, 跨いだ回数).
SUPPRESSED_MOVE = ("distance_moved", "net_displacement", "crossings")
