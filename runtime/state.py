"""戦闘の状態 — the whole state of a run, as slotted records of plain data: the page
instances (``PageInstance``, each with its two ``Face``), the continuing effects on the
board (``Placed``, holding the tables' own 作用 — ``runtime.save`` writes their literals)
and the run's values. The records' dicts and lists are the runtime's own: a consumer reads
copies through the battle's queries (runtime/queries.py, view.py).

Nothing here knows the rules: it holds values and answers simple questions (where is a
page, what is a parameter now). The rules live in ``battle.py`` and ``sayou.py``.
"""

from __future__ import annotations

from contract import vocabulary as vocab

from .bounds import MAX_MAGNITUDE

SCOPES = vocab.SCOPE_ORDER
#: The scopes read as the run's counters less their value when the scope began (``marks``).
MARKED = ("turn", "stage")
#: 防御の消滅契機, shortest-lived first: the order defense is consumed in (spec 002) —
#: the lifetimes 防御 may have, in the vocabulary's order of lifetimes.
EXPIRY_ORDER = tuple(t.code for t in vocab.LIFETIMES
                     if t.code in vocab.lookup("variable", "defense").lifetimes)
EXPIRY_RANK = {expiry: i for i, expiry in enumerate(EXPIRY_ORDER)}
#: Where a page instance can be: the single regions, the two exiles, torn, gone (a
#: generated page whose stage ended).
ZONES = ("draw", "hand", "discard", "exile_stage", "exile_run", "torn", "gone")
#: The two faces of a page, by code (未来面, 過去面), and the word of each for refusals.
SIDES = tuple(face.code for face in vocab.FACES)
SIDE_WORDS = {face.code: face.ja for face in vocab.FACES}
#: The rule parameters a 上限変更 may move; each starts from the balance key of its code.
PARAMS = tuple(v.code for v in vocab.VARIABLES if v.kind == "param")
#: The parameters that are coefficients (a float balance key, 防御係数): a 上限変更 keeps
#: their fractions; every other parameter is an integer and lands truncated (DESIGN §6.2).
COEFFICIENTS = frozenset(key.code for key in vocab.BALANCE_KEYS
                         if key.type == "float" and key.code in PARAMS)


class Record:
    """What the records of a run share: equality of every field in order and a repr
    of them (a dataclass's), and the names of the fields (``FIELDS``, in the order the
    class takes them). Written out rather than dataclasses: compiled, each record is an
    extension type whose fields are a C struct (runtime/state.pxd), which the rules read
    directly — a battle reads them thousands of times, a lab millions."""

    __slots__ = ()
    FIELDS = ()  # overridden by each record

    def fields(self) -> dict:
        """Every field by name, as it is (not copied)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    def __repr__(self) -> str:
        return (type(self).__name__ + "("
                + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS) + ")")


class Frozen(Record):
    """A record never written once made: a write in place raises (a state and its
    copies share it; a change is a new record put in the state's list)."""

    __slots__ = ()
    __hash__ = None

    def __setattr__(self, name, value):
        # Made: each field is set once, by __init__ (as Python; compiled, __init__
        # writes the struct and only a write from outside arrives here).
        if hasattr(self, name):
            raise AttributeError(f"{type(self).__name__} is frozen: its {name} is never written")
        object.__setattr__(self, name, value)


class Face(Frozen):
    """面 — one face of a page instance: ``state`` (``base``: as dealt, ``pen``, ``blank``),
    what a 白紙化 took (``blanked``: the state it had, None when none was taken) and
    whether a pen wrote it (``penned``).

    Frozen: a face is changed by putting a new one in its page (``State.set_face``), so
    that a state and its copies share faces safely (a look-ahead copies a state per
    option; copying every face made most of its cost) — a write in place raises."""

    FIELDS = ("state", "blanked", "penned")
    __slots__ = FIELDS

    def __init__(self, state: str = "base", blanked: str | None = None, penned: bool = False):
        self.state = state
        self.blanked = blanked
        self.penned = penned

    def copy(self) -> Face:
        """The face itself: it never changes."""
        return self

    def literal(self) -> dict:
        """As plain data (a save, a query's answer)."""
        return {"state": self.state, "blanked": self.blanked, "penned": self.penned}


class Faces(dict):
    """The faces of a page instance by side: a dict that refuses every write (a face
    changes by a new Faces in a new PageInstance, ``State.set_face``), so that the states
    sharing it never see one another's changes."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a page's faces are replaced (State.set_face), never written")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return (Faces, (dict(self),))

    def __copy__(self) -> "Faces":
        return self

    def __deepcopy__(self, memo) -> "Faces":
        return self


class PageInstance(Frozen):
    """ページの実体 — one page of the run: its page id, where it is, its lifetime (None for
    the deck's own; ``stage`` or ``run`` for a generated page) and its faces by side.

    Frozen, its faces too (``Faces``): a state and its copies share the records, and a
    write puts a new record in the state's list (``State.move``, ``State.set_face``, …) —
    a look-ahead copies the state per option tried, and copying every page made most of
    the copy's cost. A write in place raises."""

    FIELDS = ("uid", "page", "zone", "lifetime", "faces")
    __slots__ = FIELDS

    def __init__(self, uid: int, page: str, zone: str | None, lifetime: str | None,
                 faces: Faces):  # side code → Face
        self.uid = uid
        self.page = page
        self.zone = zone
        self.lifetime = lifetime
        self.faces = faces

    def copy(self) -> PageInstance:
        """The record itself: it never changes."""
        return self

    def literal(self) -> dict:
        """As plain data (a save, a query's answer)."""
        return {"uid": self.uid, "page": self.page, "zone": self.zone,
                "lifetime": self.lifetime,
                "faces": {side: face.literal() for side, face in self.faces.items()}}


class Placed(Record):
    """場の作用 — a continuing 作用 on the board: the tables' own ``effect``, where it came
    from (``origin``: ``page``, ``tear:<id>``, ``enemy:<id>``, ``reward``), the page it
    belongs to, the tear's ``scale``, how often it has fired, the distance it was placed
    with, its anchor (``placed``: the plays, turns and run counters when it was placed),
    the anchored windows closed so far (``windows``: name → run counters) and a
    telegraphed seat move's plan (``telegraph``: amount, to) while one is shown."""

    FIELDS = ("effect", "origin", "page_uid", "scale", "fires", "distance", "placed",
              "windows", "telegraph")
    __slots__ = FIELDS
    __hash__ = None

    def __init__(self, effect: object,  # contract.tables.Sayou
                 origin: str, page_uid: int | None, scale: float | int, fires: int,
                 distance: int, placed: dict, windows: dict | None = None,
                 telegraph: dict | None = None):
        self.effect = effect
        self.origin = origin
        self.page_uid = page_uid
        self.scale = scale
        self.fires = fires
        self.distance = distance
        self.placed = placed
        self.windows = windows
        self.telegraph = telegraph

    def copy(self) -> Placed:
        """An independent copy: the anchor and a telegraph's plan are never changed once
        made (shared); the windows are added to (copied)."""
        return Placed(self.effect, self.origin, self.page_uid, self.scale, self.fires,
                      self.distance, self.placed,
                      None if self.windows is None else dict(self.windows), self.telegraph)

    def literal(self, effect_literal) -> dict:
        """As plain data, its 作用 as ``effect_literal`` makes it (a save); the windows and
        the telegraph only when there are any."""
        data = {"effect": effect_literal(self.effect), "origin": self.origin,
                "page_uid": self.page_uid, "scale": self.scale, "fires": self.fires,
                "distance": self.distance, "placed": self.placed}
        if self.windows is not None:
            data["windows"] = self.windows
        if self.telegraph is not None:
            data["telegraph"] = self.telegraph
        return data


class State(Record):
    """Every value of a run. Page instances are records in ``pages`` (index = uid)."""

    FIELDS = ("seed", "stages", "stage_index", "age", "hp", "steps", "steps_carried",
              "currency", "defense", "fray_run", "fray_stage", "rewards_given", "counters",
              "marks", "play_counters", "params", "mods", "pages", "zones", "effects",
              "enemy", "turn", "turns_run", "plays_run", "pens_used", "tears_used",
              "redraw_used", "redraw_failed", "same_age_plays", "suppress", "outcome")
    __slots__ = FIELDS
    __hash__ = None

    def __init__(self, seed: int, stages: list, *, stage_index: int = 0, age: int = 0,
                 hp: int = 0, steps: int = 0, steps_carried: int = 0, currency: int = 0,
                 defense: list | None = None, fray_run: int = 0, fray_stage: int = 0,
                 rewards_given: int = 0, counters: dict | None = None,
                 marks: dict | None = None, play_counters: dict | None = None,
                 params: dict | None = None, mods: list | None = None,
                 pages: list | None = None, zones: dict | None = None,
                 effects: list | None = None, enemy: dict | None = None, turn: int = 0,
                 turns_run: int = 0, plays_run: int = 0, pens_used: int = 0,
                 tears_used: int = 0, redraw_used: bool = False, redraw_failed: bool = False,
                 same_age_plays: int = 0, suppress: int = 0, outcome: str | None = None):
        self.seed = seed
        self.stages = stages  # enemy id of each stage
        self.stage_index = stage_index
        self.age = age
        self.hp = hp
        self.steps = steps
        #: 歩 kept at the last cleanup by 歩の持ち越し, added at refill.
        self.steps_carried = steps_carried
        self.currency = currency
        self.defense = [] if defense is None else defense  # [value, expiry]
        self.fray_run = fray_run
        self.fray_stage = fray_stage
        self.rewards_given = rewards_given
        #: 累計量 of the run: counter → number. A turn's or a stage's is this less its mark.
        self.counters = {} if counters is None else counters
        #: The run's counters when the turn and the stage began: scope → counter → number.
        self.marks = {} if marks is None else marks
        #: 累計量 of the play being resolved (or the last one): counter → number. A play's
        #: counts are its own (it begins with its move), not the run's less a mark.
        self.play_counters = {} if play_counters is None else play_counters
        self.params = {} if params is None else params  # balance values of the rule parameters
        self.mods = [] if mods is None else mods  # lifetime-bound values: params, flags, 銘
        self.pages = [] if pages is None else pages  # PageInstance by uid
        self.zones = {z: [] for z in ZONES} if zones is None else zones
        self.effects = [] if effects is None else effects  # continuing 作用 on the board (Placed)
        self.enemy = {} if enemy is None else enemy
        self.turn = turn  # turn number within the stage
        self.turns_run = turns_run
        self.plays_run = plays_run
        self.pens_used = pens_used
        self.tears_used = tears_used
        self.redraw_used = redraw_used
        self.redraw_failed = redraw_failed
        self.same_age_plays = same_age_plays
        self.suppress = suppress  # plays whose 刻 update is suppressed
        self.outcome = outcome  # None while playing; "won" | "lost"

    # ------------------------------------------------------------- copies
    def copy(self) -> State:
        """An independent copy, for looking ahead: every list and dict copied, the
        tables' frozen objects (placed 作用) and the frozen faces shared.

        Field by field, each by its known shape: a look-ahead makes a copy per option
        at every decision, and a generic walk of the fields cost twice as much.
        tests/test_simulate.py checks it against a generic deep copy at every step."""
        # Slot by slot on a bare instance: an __init__ given 31 keywords cost as much
        # as all the copying.
        twin: State = _bare(State)
        # The stages and the parameters' balance values are never written once the run
        # is made (a 上限変更 is a mod): shared.
        twin.seed, twin.stages, twin.stage_index = self.seed, self.stages, self.stage_index
        twin.age, twin.hp, twin.steps = self.age, self.hp, self.steps
        twin.steps_carried, twin.currency = self.steps_carried, self.currency
        twin.defense = [list(entry) for entry in self.defense] if self.defense else []
        twin.fray_run, twin.fray_stage = self.fray_run, self.fray_stage
        twin.rewards_given, twin.counters = self.rewards_given, self.counters.copy()
        # Loops, not comprehensions: a comprehension is a call of its own, and each
        # call costs about what copying a small dict does.
        twin.marks = marks = {}
        for scope, counters in self.marks.items():
            marks[scope] = counters.copy()
        twin.play_counters, twin.params = self.play_counters.copy(), self.params
        twin.mods = _plain_copy(self.mods) if self.mods else []
        twin.pages = self.pages.copy()  # the records are frozen: shared
        twin.zones = zones = {}
        for zone, uids in self.zones.items():
            zones[zone] = uids.copy()
        twin.effects = [placed.copy() for placed in self.effects] if self.effects else []
        twin.enemy = _copy_enemy(self.enemy)
        twin.turn, twin.turns_run, twin.plays_run = self.turn, self.turns_run, self.plays_run
        twin.pens_used, twin.tears_used = self.pens_used, self.tears_used
        twin.redraw_used, twin.redraw_failed = self.redraw_used, self.redraw_failed
        twin.same_age_plays, twin.suppress = self.same_age_plays, self.suppress
        twin.outcome = self.outcome
        return twin

    # ------------------------------------------------------------- zones
    def zone_of(self, uid: int) -> str:
        """The zone a page instance is in."""
        return self.pages[uid].zone

    def move(self, uid: int, zone: str, *, top: bool = False) -> None:
        """Move a page instance to ``zone`` (``top``: onto the top of the draw pile)."""
        page: PageInstance = self.pages[uid]
        old = page.zone
        if old is not None:
            self.zones[old].remove(uid)
        if top and zone == "draw":
            self.zones[zone].insert(0, uid)
        else:
            self.zones[zone].append(uid)
        self.pages[uid] = PageInstance(uid, page.page, zone, page.lifetime, page.faces)

    def move_top(self, zone: str, to: str) -> int:
        """Move the first page instance of ``zone`` (the top of a pile) to the end of
        ``to``; returns its uid (``move``, without looking for it)."""
        uid = self.zones[zone].pop(0)
        self.zones[to].append(uid)
        page: PageInstance = self.pages[uid]
        self.pages[uid] = PageInstance(uid, page.page, to, page.lifetime, page.faces)
        return uid

    def move_all(self, zone: str, to: str) -> None:
        """Move every page instance of ``zone`` to ``to``, in order (``move`` of each,
        without looking for it: the whole zone goes)."""
        pages, source = self.pages, self.zones[zone]
        self.zones[to].extend(source)
        page: PageInstance
        for uid in source:
            page = pages[uid]
            pages[uid] = PageInstance(uid, page.page, to, page.lifetime, page.faces)
        source.clear()

    def new_page(self, page_id: str, zone: str, lifetime: str | None = None) -> int:
        """A new page instance of ``page_id`` in ``zone``; ``lifetime``: stage or run for
        a generated page, None for the deck's own. Returns its uid."""
        uid = len(self.pages)
        self.pages.append(PageInstance(uid, page_id, zone, lifetime, _BLANK_SLATE))
        self.zones[zone].append(uid)  # as ``move`` from nowhere puts it
        return uid

    def set_face(self, uid: int, side: str, face: Face) -> None:
        """Face ``side`` of a page instance becomes ``face`` (the one way a face changes:
        a new record, its other face kept)."""
        page: PageInstance = self.pages[uid]
        faces = dict(page.faces)
        faces[side] = face
        self.pages[uid] = PageInstance(uid, page.page, page.zone, page.lifetime, Faces(faces))

    # ---------------------------------------------------------- counters
    def count(self, scope: str, counter: str, amount) -> None:
        """Add ``amount`` to counter ``counter`` of ``scope`` and of every wider scope:
        to the run's (which the turn and the stage read from), and to the play's when
        ``scope`` is the play."""
        counters = self.counters
        total = counters.get(counter, 0) + amount
        # A 累計量 stops at the bound a save holds (runtime/bounds.py BOUNDS "counters"):
        # amounts are never negative, so only the top can be passed.
        counters[counter] = total if total <= MAX_MAGNITUDE else MAX_MAGNITUDE
        if scope == "play":
            play = self.play_counters
            total = play.get(counter, 0) + amount
            play[counter] = total if total <= MAX_MAGNITUDE else MAX_MAGNITUDE

    def counter(self, scope: str, counter: str):
        """累計量 ``counter`` over ``scope`` so far."""
        if scope == "play":
            return self.play_counters.get(counter, 0)
        total = self.counters.get(counter, 0)
        if scope == "run":
            return total
        return total - self.marks.get(scope, _NONE).get(counter, 0)

    def reset_scope(self, scope: str) -> None:
        """A scope begins: its counters start from 0 (the turn and the stage keep a mark
        of the run's counters now, which reading them subtracts)."""
        if scope == "play":
            self.play_counters = {}
        elif scope == "run":
            self.counters, self.marks = {}, {}
        else:
            self.marks[scope] = dict(self.counters)

    # ----------------------------------------------------- lifetime values
    def lifespan_floor(self) -> int:
        """The lowest 寿命上限 may fall to: the larger of 刻 and the enemy's 座, which both
        stand on the line (spec 000 盤面; DESIGN §6.2 stops a decrease at 刻)."""
        return max(self.age, self.enemy.get("seat", 0))

    def param(self, code: str):
        """A rule parameter now: its balance value plus what 上限変更 in force add."""
        if not self.mods:  # most of the time: asked a hundred times a battle
            return self.params[code]
        return self.limits()[code]

    def limits(self) -> dict:
        """Every rule parameter now, by code, as ``param`` reads each one: the balance's
        own dict while no lifetime-bound value is in force (to be read, never written),
        else a new one with the 上限変更 in force added — for a rule that reads several
        parameters at once, as the turn and the playability of the hand do."""
        if not self.mods:
            return self.params
        values = dict(self.params)
        for mod in self.mods:
            if mod["kind"] == "param":
                values[mod["key"]] += mod["value"]
        return values

    def flag(self, name: str) -> int:
        """内部フラグ ``name`` now: its adds and assignments in force, in order."""
        value = 0
        for mod in self.mods:
            if mod["kind"] == "flag" and mod["key"] == name:
                value = mod["value"] if mod["op"] == "assign" else value + mod["value"]
        return value

    def year_override(self, page_id: str) -> int | None:
        """The 銘 a 作用 assigned to ``page_id`` and still in force, or None."""
        found = None
        for mod in self.mods:
            if mod["kind"] == "year" and mod["key"] == page_id:
                found = mod["value"]
        return found

    def year_overrides(self) -> dict[str, int]:
        """Every page's assigned 銘 that is in force, by page id (the last one wins)."""
        return {m["key"]: m["value"] for m in self.mods if m["kind"] == "year"}

    def expire_mods(self, lifetime: str) -> list[dict]:
        """Drop the lifetime-bound values of ``lifetime`` and return them."""
        if not self.mods:  # the usual case, at the end of every play and turn
            return []
        gone = [m for m in self.mods if m["lifetime"] == lifetime]
        self.mods = [m for m in self.mods if m["lifetime"] != lifetime]
        return gone

    # ------------------------------------------------------------- defense
    def add_defense(self, value: int, expiry: str) -> None:
        """One value into the defense multiset, kept in consumption order (shortest-lived
        first, then as gained), so that a hit walks it from the front."""
        rank = EXPIRY_RANK[expiry]
        at = len(self.defense)
        while at > 0 and EXPIRY_RANK[self.defense[at - 1][1]] > rank:
            at -= 1
        self.defense.insert(at, [value, expiry])

    def defense_total(self) -> int:
        """防御 now: the sum of the multiset."""
        total = 0
        for value, _ in self.defense:  # a loop: a generator cost more than the sum
            total += value
        return total

    def defense_by_expiry(self) -> dict[str, int]:
        """防御 by its lifetime, in consumption order (for screens and saves)."""
        out = {e: 0 for e in EXPIRY_ORDER}
        for value, expiry in self.defense:
            out[expiry] += value
        return out


class BattleFields:
    """戦闘の値 — what the rules' functions read of a battle: the tables, the state, the
    streams, the events' sink and the resolution under way. ``runtime.battle.Battle``
    adds the actions and says what each field is; the rooms' functions take a battle
    typed as this, so that, compiled, they read its fields as a C struct (a rule reads
    ``battle.state`` and ``battle.emit`` at nearly every step).

    Not a Record: a battle is compared by identity, and copied by ``Battle.copy``."""

    __slots__ = ("tables", "state", "streams", "record", "event_count", "_records", "emit",
                 "_start", "_stack", "_choice", "_shown", "count_scope", "_index", "_chain",
                 "_links_made", "_links", "_foreseen", "foe", "page_facts", "crediting",
                 "dealt_by", "stages_won")


def _bare(cls):
    """An instance whose slots are yet to be set (``State.copy`` sets every one): not
    ``object.__new__``, which an extension type refuses."""
    return cls.__new__(cls)

#: The faces of a new page instance, as dealt (frozen: every new page shares them).
_BLANK_SLATE = Faces({side: Face() for side in SIDES})

#: The counters of a scope with no mark yet.
_NONE: dict = {}


def _plain_copy(value):
    """A deep copy of plain data (dicts, lists, numbers, strings); anything else is a
    frozen object of the tables and is shared."""
    if type(value) is dict:
        return {key: _plain_copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_plain_copy(item) for item in value]
    return value




def _copy_enemy(enemy: dict) -> dict:
    """The stage's enemy: its Intents are literals no rule changes once made (shared by
    the stage's list, the turn's and the events), and its escalation rules flat dicts
    replaced, never written, as they fire (escalation.due), so only the lists are
    copied; its other values — id, HP, 座, down (the keys a save allows,
    runtime/save.py) — are plain scalars."""
    out = enemy.copy()
    for key in ("intents", "turn_intents", "escalations"):
        if key in out:
            out[key] = out[key].copy()
    return out
