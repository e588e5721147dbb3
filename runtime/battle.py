"""戦闘 — a run of battles played from the tables, one player action at a time.

The battle is a ``contract.game.Game``: the only way in is an action value (``Play``,
``Pen``, ``Tear``, ``EndTurn``, ``Choose``, ``DevSet``) given to ``apply`` — the one
dispatcher, a table from action class to handler (``HANDLERS``); the only way out is the
stream of ``BattleEvent`` each action returns. A turn is the sequence of phases of spec
000 ターン構造 (TURN_START_PHASES, then the player phase, then TURN_END_PHASES). All
randomness goes through the run's seeded streams (runtime/streams.py: the shuffles, the
effects' random picks, the enemy).
"""

from __future__ import annotations

import functools
import itertools
import math

from contract.game import Choose, DevSet, EndTurn, Pen, Pending, Play, Tear
from contract.vocabulary import W

from .board import Board
from .defense import Defense
from .dev import DEV_SETTINGS
from .enemy import EnemyTurn, enemy_facts
from .events import EventLog
from .outcome import Outcome
from .pen_tear import PenAndTear
from .playing import Playing, page_facts
from .queries import Queries
from .refusal import Refused
from .sayou import year_of
from .state import PARAMS, SIDES, State
from .streams import Streams
from .tables import Tables
from .turn import Turn
from .view import information, result, view
from .zones import Zones

#: Re-exported for the tools that name them with the battle (the terminal, the benchmarks).
__all__ = ["Battle", "Refused", "SIDES"]

#: What the actions of a battle made with ``record=False`` return: no events.
_NO_EVENTS = EventLog((), 0, 0)


class Battle(Turn, Playing, PenAndTear, Board, Zones, Defense, EnemyTurn, Outcome, Queries):
    """A run: stages against the given enemies, from a deck of page ids."""

    def __init__(self, tables: Tables, state: State, streams: Streams, *,
                 record: bool = True):
        self.tables = tables
        self.state = state
        self.streams = streams
        #: False: events are only counted (``event_count``), for simulations that need
        #: outcomes, not prose; ``log`` and the actions' return values stay empty.
        self.record = record
        self.event_count = 0  # the events of a battle made with record=False
        #: Every event of the run, each its plain record — or, for a battle made with
        #: record=False, the events of the action being resolved, counted and dropped
        #: when it is done (``_done``).
        self._records: list[tuple] = []
        #: Record one event: ``emit((layout, *values))`` — its layout (events.LAYOUTS:
        #: its kind, or ``kind/what`` for a kind's second shape), then its values in
        #: that layout's order (``emit(("drawn", uid, page))``). The tuple is the record
        #: itself (flat, no tuple of values inside; the log reads it as a BattleEvent,
        #: events.EventLog), and ``emit`` is the log's own ``append``: a battle makes
        #: hundreds of events and a simulation millions, so nothing is looked up or
        #: checked per event — every layout the runtime emits is listed, and
        #: tests/test_event_corpus.py reads them all from the code and checks the number
        #: of values. A battle made with ``record=False`` counts them at the end of each
        #: action (``_done``).
        self.emit = self._records.append
        self._start = 0  # where the events of the action being resolved begin
        #: The resolution: what is left to resolve of the action being resolved, as data
        #: — a stack of steps (``function, arguments``), the next one last. A step is a
        #: function of the battle and its arguments; it does its work and pushes what
        #: follows (``resolution.py`` says how). Empty between actions; while a choice
        #: is pending, its top is the step that takes the answer. Copied by ``copy``,
        #: never saved (spec 002: 選択待ち状態はセーブ対象に含めない).
        self._stack: list[tuple] = []
        self._choice: Pending | None = None
        #: (the stage's list of Intents, the record 予兆 last made of it) — shared by the
        #: turns until the list changes (EnemyTurn._shown_intents); never saved.
        self._shown = None
        #: Where a change-log counter starts: ``"play"`` while a play is resolved, else
        #: ``"turn"`` (an effect that fires after the enemy acts belongs to no play) —
        #: an attribute, not a property: every damage, heal and defense gain asks.
        self.count_scope = "turn"
        #: The board's index (board.BoardIndex: the timings its effects fire at, the
        #: modifiers of each target), None: to be made again — the board changed.
        self._index = None
        #: The board's firings resolving now, one inside another (board.Board._firing):
        #: a firing made while this is not empty is a link of a chain.
        self._chain: list[dict] = []
        #: The links of chains made in this step, counted against board.CHAIN_BOUND, and
        #: the placed 作用 that fired as links (by id, in firing order): cleared when a
        #: player action begins its resolution (``_begin``) — a choice answered on the
        #: way continues the same step, so a chain that asks the player is bounded too.
        self._links_made = 0
        self._links: dict[int, dict] = {}
        #: What the rules read of the stage's enemy (enemy.EnemyFacts), None before the
        #: first stage.
        self.foe = enemy_facts(tables, state.enemy["id"]) if state.enemy else None
        #: Page id → its playing.PageFacts (the tables' own, made once per tables).
        self.page_facts = page_facts(tables)

    # ============================================================== creation
    @classmethod
    def new(cls, tables: Tables, *, seed: int = 0, enemies: list[str] | None = None,
            deck: list[str] | None = None, record: bool = True) -> "Battle":
        """A new run from the tables: the balance's opening, the deck (None: the starting
        deck) shuffled by the run's shuffle stream (``Streams.seeded(seed)``), the first
        stage against ``enemies[0]``.
        ``record=False``: events are only counted (simulations)."""
        balance = tables.balance
        stages = list(enemies or sorted(tables.enemies)[:1])
        for enemy in stages:
            if enemy not in tables.enemies:
                raise KeyError(f"敵「{enemy}」は表にありません")
        state = State(seed=seed, stages=stages, age=balance.start_age,
                      hp=balance.start_hp,
                      params={p: getattr(balance, p) for p in PARAMS})
        battle = cls(tables, state, Streams.seeded(seed), record=record)
        pages = list(deck if deck is not None else tables.starter())
        for page in pages:
            if page not in tables.pages:
                raise KeyError(f"ページ「{page}」は表にありません")
            state.new_page(page, "draw")
        battle._shuffle(state.zones["draw"])
        battle.emit(("run_started", seed, stages, len(pages)))
        for _ in range(balance.stage_start_hand):
            battle._draw_one()
        battle._begin((Battle._opening, ()))
        battle._done()
        return battle

    def _opening(self) -> None:
        """The run begins: ラン開始時 fires, then the first stage starts."""
        self._stack.append((Battle._start_stage, ()))
        self._fire("run_start")

    # ============================================================== events
    def _open(self) -> None:
        """Refuse an action when the run is over (before anything changes)."""
        if self.state.outcome is not None:
            raise Refused(f"この{W.scope.run}はもう終わっています")

    def _ready(self) -> None:
        """Refuse a player's move when the run is over or a choice is pending."""
        self._open()
        if self._choice is not None:
            raise Refused(f"{W.pick.choice}の途中です。先に候補を選んでください")

    def _done(self) -> EventLog:
        """The events of the action just resolved (until it ended or a player choice
        made it wait), now in the log."""
        records = self._records
        if not self.record:  # counted, never kept
            self.event_count += len(records)
            records.clear()
            return _NO_EVENTS
        start, self._start = self._start, len(records)
        return EventLog(records, start, self._start)

    @property
    def log(self) -> EventLog:
        """Every event of the run so far, in order."""
        return EventLog(self._records, 0, self._start)

    # ============================================================== queries
    @property
    def hand(self) -> list[int]:
        """The uids of the hand pages, in hand order (a copy)."""
        return list(self.state.zones["hand"])

    @property
    def over(self) -> bool:
        """Whether the run has ended (won or lost)."""
        return self.state.outcome is not None

    @property
    def pending(self) -> Pending | None:
        """The player choice the battle waits for (``contract.game.Pending``: candidates
        by uid or page id, how many to pick, the region operation that asks), if any."""
        return self._choice

    @property
    def result(self) -> dict | None:
        """None while the run goes on; else its outcome ("won" or "lost"), stage, turn
        and HP, as plain data."""
        return result(self)

    def view(self) -> dict:
        """What the player sees now, as plain data (runtime/view.py)."""
        return view(self)

    def information(self) -> dict:
        """What the player may know now, as plain data: the view and what each pile
        holds, never the order of the draw pile (runtime/view.py)."""
        return information(self)

    def page_of(self, uid: int):
        """The table's Page of a page instance."""
        return self.tables.pages[self.state.pages[uid]["page"]]

    def year(self, uid: int) -> int:
        """銘 of a page instance now (the table's, or an assigned one)."""
        return year_of(self, uid)


    def face_body(self, uid: int, side: str):
        """The face's current ``.conditions`` and ``.effects`` (the Face as dealt, its pen
        Body, or a Body of both), or None when it is blank."""
        face = self.state.pages[uid]["faces"][side]
        page = self.page_of(uid)
        if face["state"] == "blank":
            return None
        base = page.faces[side]
        if face["state"] == "pen":
            return self.page_facts[page.id].pen_bodies[side]  # playing.penned, made once
        return base if base.written else None

    def actions(self) -> list:
        """Every action the rules allow now, as values: ``Play`` of each playable page,
        ``Pen`` of each face a pen may write, ``Tear`` of each hand page, ``EndTurn`` —
        or, while a choice is pending, the ``Choose`` of every answer (each set of
        ``count`` candidates, in the candidates' order). Empty when the run is over.
        The values are made once per uid (``_play`` …, cached): a simulation asks at
        every step, and making a frozen value costs more than finding it."""
        if self.state.outcome is not None:
            return []
        choice = self._choice
        if choice is not None:
            return [Choose(answer) for answer in
                    itertools.combinations(choice.candidates, choice.count)]
        s = self.state
        actions: list = [_play(uid) for uid in self._playable()]
        limits = s.limits()
        if s.pens_used < limits["pen_cap"]:
            instances = s.pages
            facts = self.page_facts
            for uid in s.zones["hand"]:
                instance = instances[uid]
                pens = facts[instance["page"]].pens
                faces = instance["faces"]
                if faces["future"]["state"] != "blank" and faces["past"]["state"] != "blank":
                    # No blank face to restore (most pages): the sides a pen is written
                    # for, not yet penned.
                    for side in pens:
                        if not faces[side]["penned"]:
                            actions.append(_pen(uid, side))
                    continue
                for side in SIDES:
                    face = faces[side]
                    restorable = face["state"] == "blank" and face["blanked"] is not None
                    if restorable or (side in pens and not face["penned"]):
                        actions.append(_pen(uid, side))
        if s.tears_used < limits["tear_cap"]:
            actions += [_tear(uid) for uid in s.zones["hand"]]
        actions.append(_END_TURN)
        return actions


    # ============================================================== actions
    # ``apply`` is the one way in: it hands the action to its handler (HANDLERS, by the
    # action's class). Each handler checks everything it can refuse before anything
    # changes (Refused), then resolves until the action ends or a player choice makes it
    # wait.
    def apply(self, action) -> EventLog:
        """Carry out ``action`` (a ``contract.game`` action value); the events it caused.
        Refused — with the reason, in Japanese — when the rules do not allow it now."""
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise Refused(f"対戦の行動ではありません: {action!r}")
        try:
            return handler(self, action)
        except Refused:
            # A refusal changes nothing (every check comes first) — except a DevSet
            # refused at a later value, whose earlier values are set and emitted: those
            # events are in the log, as the action's own.
            if len(self._records) != self._start:
                self._done()
            raise

    # The methods of the actions by name, for the tests and tools that call them so:
    # each only makes the action value and applies it.
    def play(self, uid: int) -> EventLog:
        """Play a hand page (by uid): ``apply(Play(uid))``."""
        return self.apply(Play(uid))

    def pen(self, uid: int, side: str) -> EventLog:
        """ペンで書き込む: ``apply(Pen(uid, side))``."""
        return self.apply(Pen(uid, side))

    def tear(self, uid: int) -> EventLog:
        """破る: ``apply(Tear(uid))``."""
        return self.apply(Tear(uid))

    def end_turn(self) -> EventLog:
        """ターン終了の宣言: ``apply(EndTurn())``."""
        return self.apply(_END_TURN)

    def choose(self, uids) -> EventLog:
        """Answer a pending player choice: ``apply(Choose(uids))``."""
        return self.apply(Choose(tuple(uids)))

    def dev_set(self, **values) -> EventLog:
        """開発者モード: ``apply(DevSet.of(**values))`` (see ``_on_dev_set``)."""
        return self.apply(DevSet.of(**values))

    def _known_uid(self, uid) -> int:
        """``uid`` when it names a page instance; else Refused (the page actions' first
        check: a uid of no page is refused here, one of a page elsewhere by the action)."""
        if isinstance(uid, bool) or not isinstance(uid, int) or \
                not 0 <= uid < len(self.state.pages):
            raise Refused(f"そのページはありません: {uid!r}")
        return uid

    def _on_play(self, action: Play) -> EventLog:
        """Play a hand page (by uid)."""
        self._ready()
        uid = action.uid
        if type(uid) is not int or not 0 <= uid < len(self.state.pages):
            uid = self._known_uid(uid)  # refused: no page of that uid
        plan = self._plan(uid)
        if plan is None:  # play_info says why (the plan writes no reasons)
            raise Refused(self.play_info(uid)["reason"])
        self._begin((Battle._resolve_play, (uid, plan)))
        return self._done()

    def _on_pen(self, action: Pen) -> EventLog:
        """ペンで書き込む: write (blank face) or upgrade (written face) one face."""
        self._ready()
        self._pen(self._known_uid(action.uid), action.side)
        return self._done()

    def _on_tear(self, action: Tear) -> EventLog:
        """破る: remove a hand page for the run, for 綻び and its tear effect."""
        self._ready()
        self._tear(self._known_uid(action.uid))
        return self._done()

    def _on_end_turn(self, action: EndTurn) -> EventLog:
        """ターン終了の宣言: defense, the enemy's action, cleanup, and the next turn."""
        self._ready()
        self._begin((Battle._end_turn, ()))
        return self._done()

    def _on_choose(self, action: Choose) -> EventLog:
        """Answer a pending player choice with the chosen page uids (page ids for 生成)."""
        self._open()
        if self._choice is None:
            raise Refused("選ぶものはありません")
        uids = list(action.uids)
        wanted = self._choice.count
        if len(uids) != wanted or len(set(uids)) != len(uids) or not set(uids) <= set(
                self._choice.candidates):
            raise Refused(f"候補から {wanted} 枚を選んでください")
        self._choice = None
        self.emit(("chosen", list(uids)))
        self._answer(list(uids))
        self._resolve()
        return self._done()

    def _on_dev_set(self, action: DevSet) -> EventLog:
        """開発者モード: set HP, 歩, 防御 (any lifetime), 綻び (run and stage), 刻, 座, 敵HP,
        通貨 or the hand directly, bypassing the rules (spec 000 開発者フック). A value
        outside what the board can hold (刻 beyond its walls, negative 歩) is refused.
        Keys are the codes of DEV_SETTINGS; ``defense`` takes n or (n, lifetime)."""
        for key, value in action.values:
            setting = DEV_SETTINGS.get(key)
            if setting is None:
                raise Refused(f"開発者モードで設定できない値です: {key}")
            if key == "hand":
                self._dev_hand(value)
            else:
                number, lifetime = (value if isinstance(value, (tuple, list)) else (value, None))
                if isinstance(number, bool) or not isinstance(number, (int, float)) or \
                        not math.isfinite(number):
                    raise Refused(f"{setting.words[0]} には数を書きます: {number!r}")
                number = int(number)
                low, high = setting.limits(self)
                if number < low or number > high:
                    # Below a bound the rules set alone: "n 以上"; else the whole range.
                    span = f"{low} 以上" if number < low and setting.bounds(self)[1] is None \
                        else f"{low}〜{high} の範囲"
                    raise Refused(f"{setting.words[0]} は {span}です（{number}）")
                setting.put(self, number, lifetime)
            self.emit(("dev_set", key, list(value) if isinstance(value, (tuple, list))
                       else value))
        return self._done()

    # ============================================================== copies
    def copy(self, *, streams: Streams | None = None, record: bool = False) -> "Battle":
        """An independent battle in the same position (an action applied to it leaves
        this one as it was), a pending choice too. Events are only counted unless
        ``record``; the copy's log starts empty. The tables and the placed 作用, frozen
        objects, are shared. Given ``streams``, the copy draws from those instead (a
        search's guesses: copying the real streams only to replace them would cost more
        than the copy of the state).

        The resolution under way is data (``_stack``): its steps are copied, each
        placed effect they name taken as the copy's own (the state's copy holds new
        ones, in the same order)."""
        twin = Battle(self.tables, self.state.copy(),
                      self.streams.copy() if streams is None else streams, record=record)
        twin.count_scope = self.count_scope
        if self._stack or self._chain or self._links_made:
            own = dict(zip(map(id, self.state.effects), twin.state.effects))
            twin._stack = [(step, _remapped(args, own)) for step, args in self._stack]
            twin._chain = _remapped(self._chain, own)
            twin._links = {id(p): p for p in _remapped(list(self._links.values()), own)}
            twin._links_made = self._links_made
        twin._choice = self._choice
        return twin

    def _dev_hand(self, pages) -> None:
        s = self.state
        for page in pages:
            if page not in self.tables.pages:
                raise Refused(f"ページ「{page}」は表にありません")
        for uid in list(s.zones["hand"]):
            s.move(uid, "draw")
        for page in pages:
            s.new_page(page, "hand")
        # The hand a failed redraw left is gone: the scene set here plays as a turn does
        # (its ban on plays belongs to that hand, DESIGN §6.2 failed redraw).
        s.redraw_failed = False

    # ============================================================ resolution
    # The resolution is data: ``_stack`` holds the steps left, the next one last. A step
    # does its work and, when something must follow it, pushes that — what follows
    # first, then what it sets off on top (a firing of the board, an effect list), so
    # that the pushed work resolves first and the step's own rest after it. A step that
    # calls another inline and finds the stack grown puts its rest beneath what was
    # pushed (``list.insert`` at the height it began at): the usual case — nothing fired
    # — pushes nothing and costs no step. A step that needs the player returns a
    # ``Pending`` with the step that takes the answer on top (``_ask``); everything else
    # returns None.
    def _begin(self, *steps) -> None:
        """Resolve a player action's steps (the last given first), then settle the stage
        when it is over (``_settle``, which may ask the player too)."""
        if self._links_made:  # a step's chains are its own (board.CHAIN_BOUND)
            self._links_made = 0
            self._links = {}
        self._stack = [(Battle._settle, ()), *steps]
        self._resolve()

    def _resolve(self) -> None:
        """Run steps until the stack is empty or a step asks the player (``_choice``)."""
        stack = self._stack
        pop = stack.pop
        while stack:
            step, args = pop()
            request = step(self, *args)
            if request is not None:
                self._choice = request
                self.emit(("choice_requested", list(request.candidates), request.count))
                return

    def _ask(self, request: Pending, step, args: tuple) -> Pending:
        """Wait for the player: ``step`` takes the answer after ``args`` when it comes."""
        self._stack.append((step, args))
        return request

    def _answer(self, answer) -> None:
        """Give the pending step its answer (the step on top of the stack, ``_ask``)."""
        stack = self._stack
        step, args = stack.pop()
        stack.append((step, (*args, answer)))

    def _drain(self, timing: str) -> None:
        """Fire ``timing`` to its end where no choice can have an answer (the run is
        over): each request is answered with no pages, the resolution that was under
        way left as it was."""
        outer, self._stack = self._stack, []
        stack = self._stack
        if self._fire(timing):
            while stack:
                step, args = stack.pop()
                if step(self, *args) is not None:
                    self._answer([])
        self._stack = outer

#: Action class → its handler: the one dispatcher of the battle's actions (``apply``).
HANDLERS = {Play: Battle._on_play, Pen: Battle._on_pen, Tear: Battle._on_tear,
            EndTurn: Battle._on_end_turn, Choose: Battle._on_choose,
            DevSet: Battle._on_dev_set}

_END_TURN = EndTurn()


def _remapped(value, own: dict):
    """A step's arguments with each placed effect of the state (a dict the state's
    ``effects`` holds: ``own`` maps its id to the copy's) taken as the copy's; a list
    (a firing's effects) made anew. Every other value is shared: no step changes its
    arguments once pushed."""
    kind = type(value)
    if kind is dict:
        return own.get(id(value), value)
    if kind is list or kind is tuple:
        return kind(_remapped(item, own) for item in value)
    return value
#: The action values of the pages, made once per uid (``Battle.actions``).
_play = functools.cache(Play)
_tear = functools.cache(Tear)
_pen = functools.cache(Pen)
