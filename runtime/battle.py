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
from collections.abc import Sequence

from contract.game import Choose, DevSet, EndTurn, Pen, Pending, Play, Tear
from contract.vocabulary import W

from contract.tables import Sayou

from . import board, defense, enemy, pen_tear, playing, queries, resolution, turn, zones
from .dev import DEV_SETTINGS
from .enemy import enemy_facts
from .events import EventLog
from .playing import page_facts
from .refusal import Refused
from .sayou import Frame, year_of
from .state import PARAMS, SIDES, BattleFields, Face, PageInstance, Placed, State
from .streams import Streams
from .tables import Tables
from .view import information, result, view

#: Re-exported for the tools that name them with the battle (the terminal, the benchmarks).
__all__ = ["Battle", "Refused", "SIDES"]

#: What the actions of a battle made with ``record=False`` return: no events.
_NO_EVENTS = EventLog((), 0, 0)
#: Whether a battle takes a look-ahead's copy as its position (``Battle.foresee``).
#: False: every action is resolved anew (the same results; tests compare the two).
FORESIGHT = True


class Battle(BattleFields):
    """A run: stages against the given enemies, from a deck of page ids — the state, the
    streams and the resolution under way, and the one face the rules' functions show
    the world (the rooms' modules hold the rules; see "the rooms" below)."""

    def __init__(self, tables: Tables, state: State, streams: Streams, *,
                 record: bool = True, facts: tuple | None = None):
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
        #: follows (runtime/resolution.py says how). Empty between actions; while a choice
        #: is pending, its top is the step that takes the answer. Copied by ``copy``,
        #: never saved (spec 002: 選択待ち状態はセーブ対象に含めない).
        self._stack: list[tuple] = []
        self._choice: Pending | None = None
        #: (the stage's list of Intents, the record 予兆 last made of it) — shared by the
        #: turns until the list changes (enemy.shown_intents); never saved.
        self._shown = None
        #: Where a change-log counter starts: ``"play"`` while a play is resolved, else
        #: ``"turn"`` (an effect that fires after the enemy acts belongs to no play) —
        #: an attribute, not a property: every damage, heal and defense gain asks.
        self.count_scope = "turn"
        #: The page instance whose 作用 is landing now (board._apply: the frame's page),
        #: None for an enemy's, a reward's or none: the damage it deals is its page's.
        self.crediting = None
        #: 与えたダメージ by the page instance whose 作用 dealt it, since this battle was
        #: made (a copy starts empty; a foreseen copy's adds to it when taken): a
        #: continuing 作用 deals its page's damage, not the play's that set it off.
        #: Never saved — a loaded battle counts from the load.
        self.dealt_by: dict[int, int] = {}
        #: How each stage won since this battle was made was won ("hp", "breakthrough"), in
        #: order (a copy starts empty; a foreseen copy's are added when taken): the lab's
        #: 突破勝ち of a run of stages counts every stage, not only the last. Never saved.
        self.stages_won: list[str] = []
        #: The board's index (board.BoardIndex: the timings its effects fire at, the
        #: modifiers of each target), None: to be made again — the board changed.
        self._index = None
        #: The board's firings resolving now, one inside another (board._firing):
        #: a firing made while this is not empty is a link of a chain.
        self._chain: list[Placed] = []
        #: The links of chains made in this step, counted against board.CHAIN_BOUND, and
        #: the placed 作用 that fired as links (by id, in firing order): cleared when a
        #: player action begins its resolution (``resolution.begin``) — a choice answered on the
        #: way continues the same step, so a chain that asks the player is bounded too.
        self._links_made = 0
        self._links: dict[int, dict] = {}
        #: (action, copy): a look-ahead's copy of this battle after ``action``
        #: (``foresee``), taken as the position when that very action is applied next.
        self._foreseen: tuple | None = None
        if facts is None:
            facts = (enemy_facts(tables, state.enemy["id"]) if state.enemy else None,
                     page_facts(tables))
        #: What the rules read of the stage's enemy (enemy.EnemyFacts), None before the
        #: first stage; page id → its playing.PageFacts (the tables' own, made once per
        #: tables). ``facts`` gives both: a copy takes its original's rather than
        #: looking them up again (a look-ahead copies the battle per option tried).
        self.foe, self.page_facts = facts

    # ============================================================== creation
    @classmethod
    def new(cls, tables: Tables, *, seed: object = 0, enemies: Sequence[str] | None = None,
            deck: Sequence[str] | None = None, record: bool = True) -> Battle:
        """A new run from the tables: the balance's opening, the deck (None: the starting
        deck) shuffled by the run's shuffle stream (``Streams.seeded(seed)``), the first
        stage against ``enemies[0]``.
        ``record=False``: events are only counted (simulations)."""
        balance = tables.balance
        stages = list(enemies or sorted(tables.enemies)[:1])
        for name in stages:
            if name not in tables.enemies:
                raise KeyError(f"敵「{name}」は表にありません")
        state = State(seed=seed, stages=stages, age=balance.start_age,
                      hp=balance.start_hp,
                      params={p: getattr(balance, p) for p in PARAMS})
        battle = cls(tables, state, Streams.seeded(seed), record=record)
        pages = list(deck if deck is not None else tables.starter())
        for page in pages:
            if page not in tables.pages:
                raise KeyError(f"ページ「{page}」は表にありません")
            state.new_page(page, "draw")
        zones.shuffle(battle, state.zones["draw"])
        battle.emit(("run_started", seed, stages, len(pages)))
        for _ in range(balance.stage_start_hand):
            zones.draw_one(battle)
        resolution.begin(battle, (turn.open_run, ()))
        battle._done()
        return battle

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
        return self.tables.pages[self.state.pages[uid].page]

    #: 銘 of a page instance now (the table's, or an assigned one): ``year(uid)``.
    year = year_of


    def face_body(self, uid: int, side: str):
        """The face's current ``.conditions`` and ``.effects`` (the Face as dealt, its pen
        Body, or a Body of both), or None when it is blank."""
        face = self.state.pages[uid].faces[side]
        page = self.page_of(uid)
        if face.state == "blank":
            return None
        base = page.faces[side]
        if face.state == "pen":
            return self.page_facts[page.id].pen_bodies[side]  # playing.penned, made once
        return base if base.written else None

    # ============================================================== the rooms
    # The rules are functions of the battle in the rooms' modules (playing, pen_tear,
    # board, zones, defense, enemy, turn, outcome, queries), which call one another
    # directly. What a tool, a test or a 作用 asks of the battle is here, each one line
    # handing the question to its room — or, where the room's function takes the same
    # arguments, that function itself as the method (``sides_for = playing.sides_for``):
    # a look-ahead asks thousands of times a battle, and the battle's own call cost as
    # much as many of the answers.
    # --- playing.py (プレイ)
    #: 発動する面: by 銘 vs 刻 (spec 000): equal fires past, then future: ``sides_for(uid)``.
    sides_for = playing.sides_for

    def crosses(self, old: int, new: int) -> bool:
        """跨ぐ: old and new 刻 strictly on opposite sides of 座 (landing on it is not)."""
        return playing.crosses(self, old, new)

    def cost(self, uid: int) -> int:
        """歩 that playing ``uid`` costs now: |銘 − 刻| × 支払い倍率, truncated."""
        return playing.cost(self, uid)

    def play_info(self, uid: int) -> dict:
        """What playing ``uid`` would do now: faces, cost, crossing, or why it cannot."""
        return playing.play_info(self, uid)

    def playable_uids(self, among: list[int] | None = None) -> list[int]:
        """The hand pages that can be played now, in hand order: exactly the pages whose
        ``play_info`` says playable, with what is the same for every page (the payment
        multiplier, the walls, the blockade) worked out once and no reasons written — the
        question a policy asks at every step (issue 13): ``playing.playable`` at once.
        ``among``: of these hand pages only, in their order (a page's own question)."""
        return playing.playable(self, among=among)

    #: The page whose play is resolving (in the hand until the play ends), None between
    #: plays: ``in_play()``.
    in_play = playing.in_play

    def playable_any(self) -> bool:
        """Whether any hand page can be played now (the redraw rule asks)."""
        return playing.playable_any(self)

    def suppress_move(self) -> None:
        """抑制 刻 in this play: its own move counters read 0 from now on."""
        return playing.suppress_move(self)

    # --- pen_tear.py (ペンと破る)
    def tear_preview(self, uid: int, *, consume: bool = False) -> dict:
        """The 綻び and the tear effect's scale tearing ``uid`` would give now
        (``consume``: the tear is made, a use of each 綻び倍率)."""
        return pen_tear.tear_preview(self, uid, consume=consume)

    #: The 綻び tearing ``uid`` would give now (``tear_preview``'s ``fray`` alone):
    #: ``tear_fray(uid)``.
    tear_fray = pen_tear.tear_fray
    #: Distance × 綻び倍率 of each hand page, in hand order (a tear's 綻び before the
    #: board's 綻び倍率, clamping and truncation): ``tear_reaches()``.
    tear_reaches = pen_tear.tear_reaches
    #: The most a tear of any page of the tables reaches at 刻 now (a bound of every
    #: ``tear_reaches()``; infinite while a 銘 is assigned): ``tear_reach_bound()``.
    tear_reach_bound = pen_tear.tear_reach_bound

    # --- board.py (場)
    def place(self, effect: Sayou, *, origin: str, page_uid=None, scale: float | int = 1.0,
              frame: Frame | None = None) -> None:
        """A continuing 作用 onto the board, anchored now (the tables' own object)."""
        return board.place(self, effect, origin=origin, page_uid=page_uid, scale=scale,
                           frame=frame)

    def modifier_values(self, target: str) -> dict[str, float]:
        """Each modifier of ``target`` in force now, by its variable code, read without
        consuming a fire (for screens)."""
        return board.modifier_values(self, target)

    #: The frame a placed effect reads its values in: its page, the distance it was placed
    #: with, the run counters at its anchoring, its closed windows: ``frame_of(placed)``.
    frame_of = board.frame_of

    #: Count ``times`` fires of a placed effect; it leaves the board at its maximum:
    #: ``fired(placed, times=1)``.
    fired = board.fired

    #: The board's index now (made again once the board changed): ``board_index()``.
    board_index = board.board_index_now

    def chain_link(self, placed: Placed) -> tuple:
        """A placed 作用 as a link of a chain, in ids and numbers: the kind of its origin
        (page, tear, enemy, reward), the page or enemy id it belongs to (None for a
        reward), the line it is written on, its operation and its timing."""
        return board.chain_link(self, placed)

    # --- defense.py (防御)
    #: Absorb ``amount`` with defense, shortest-lived first; returns what is left:
    #: ``consume_defense(amount, one_intent=False, absorbed_by=None)``.
    consume_defense = defense.consume_defense

    # --- enemy.py (敵)
    def enemy_trait(self, code: str):
        """The value of this stage's enemy trait ``code`` (True for one without a value),
        or None when the enemy does not have it."""
        return enemy.enemy_trait(self, code)

    #: 座 moves by ``delta`` (never below 0) — unless the enemy is 不動:
    #: ``move_seat(delta)``.
    move_seat = enemy.move_seat

    #: 敵HP reached 0: 敵のHPが0になった時 fires right after the 作用 that did it: ``enemy_down()``.
    enemy_down = enemy.enemy_down

    # --- turn.py (ターン)
    def clamp_to_params(self) -> None:
        """Values that a lowered parameter now bounds: HP at its max."""
        return turn.clamp_to_params(self)

    # --- queries.py (what a player or tool may read and set)
    #: The page id of page instance ``uid``: ``page_id(uid)``.
    page_id = queries.page_id

    #: Face ``side`` of page instance ``uid`` as it stands (a copy): ``state`` (dealt, pen,
    #: blank), ``blanked`` (what a 白紙化 took, or None), ``penned``: ``face(uid, side)``.
    face = queries.face

    def instance(self, uid: int) -> dict:
        """Page instance ``uid`` as data: its page id, lifetime and both faces (copies)."""
        return queries.instance(self, uid)

    def zone(self, zone: str) -> list[int]:
        """The uids zone ``zone`` holds, in its order (a copy)."""
        return queries.zone(self, zone)

    def zone_size(self, zone: str) -> int:
        """How many pages zone ``zone`` holds."""
        return queries.zone_size(self, zone)

    def first_of(self, page_id: str, zones) -> int | None:
        """The first instance of page ``page_id`` in ``zones`` (searched in that order,
        each front to back), or None."""
        return queries.first_of(self, page_id, zones)

    #: The id of the enemy of this stage.
    enemy_id = property(queries.enemy_id)
    #: The enemy's HP now.
    enemy_hp = property(queries.enemy_hp)
    #: 座: where the enemy sits on the number line.
    seat = property(queries.seat)

    def intents(self) -> list[dict]:
        """This turn's Intents (予兆) still to come, in order (copies)."""
        return queries.intents(self)

    #: How many of this turn's Intents are still to come (of ``kind`` only, if given):
    #: ``intent_count(kind=None)``.
    intent_count = queries.intent_count

    def placed(self) -> list[dict]:
        """The 作用 placed on the board, in order, each a copy of its record: ``effect`` (the
        contract Sayou), ``origin``, ``page_uid``, ``scale``, ``fires``, ``placed`` (the
        plays and turns when it was placed) and a ``telegraph`` when it has one."""
        return queries.placed(self)

    def mods(self) -> list[dict]:
        """The lifetime-bound values in force (a parameter raised, a flag, an assigned 銘),
        each a copy: ``kind``, ``key``, ``value``, ``lifetime``."""
        return queries.mods(self)

    def lasting_defense(self) -> int:
        """防御 that outlives this turn (every lifetime but the turn's)."""
        return queries.lasting_defense(self)

    def stages_won_by(self) -> list[str]:
        """How each stage won since this battle was made (or loaded) was won, in order:
        "hp" (敵HP 0) or "breakthrough" (突破ライン)."""
        return list(self.stages_won)

    def dealt_by_page(self) -> dict[str, int]:
        """与えたダメージ by page id since this battle was made (or loaded), each page's 作用
        wherever they hit (a continuing one counts for its page, not for the play it
        fired on); what no page dealt is in none."""
        return queries.dealt_by_page(self)

    def probe(self) -> Battle:
        """A recording copy of the state and streams as they stand, without the
        resolution under way (a pending choice is dropped)."""
        return queries.probe(self)

    def shuffle_draw(self, rng) -> None:
        """Changes this battle: its draw pile sorted, then shuffled by ``rng`` — a search's
        copy, holding a pile the player could imagine rather than the real order."""
        self._foreseen = None
        return queries.shuffle_draw(self, rng)

    def dev_into_hand(self, page_id: str) -> None:
        """Changes this battle (developer mode): page ``page_id`` straight to the front of
        the hand — from the draw pile or the discard if it is there, else a new copy; the
        hand keeps its cap by returning its last page to the top of the draw pile."""
        self._foreseen = None
        return queries.dev_into_hand(self, page_id)


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
        actions: list = [_play(uid) for uid in playing.playable(self)]
        limits = s.limits()
        if s.pens_used < limits["pen_cap"]:
            instances: list = s.pages
            facts: dict = self.page_facts
            instance: PageInstance
            face: Face
            past: Face
            future: Face
            for uid in s.zones["hand"]:
                instance = instances[uid]
                pens = facts[instance.page].pens
                faces = instance.faces
                past, future = faces["past"], faces["future"]
                if future.state != "blank" and past.state != "blank":
                    # No blank face to restore (most pages): the sides a pen is written
                    # for, not yet penned.
                    for side in pens:
                        face = faces[side]
                        if not face.penned:
                            actions.append(_pen(uid, side))
                    continue
                for side in SIDES:
                    face = faces[side]
                    restorable = face.state == "blank" and face.blanked is not None
                    if restorable or (side in pens and not face.penned):
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
        foreseen = self._foreseen
        if foreseen is not None:
            self._foreseen = None
            if foreseen[0] is action:
                return _adopt(self, foreseen[1])
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

    def foresee(self, action, trial: Battle) -> None:
        """``trial`` is a copy of this battle (``copy``) to which ``action`` was applied and
        nothing else: if the next action applied here is that very value, this battle
        takes the copy's position rather than resolving the action again (a look-ahead
        that tried it has done the work). The offer holds until the next action is
        applied, whatever it is, or the battle is changed by ``shuffle_draw`` or
        ``dev_into_hand``; a caller that changes the battle by the rooms' functions in
        between must not make one. Only a battle that counts its events
        (``record=False``) takes it: a copy keeps no log."""
        if FORESIGHT and not self.record and trial._choice is None:
            self._foreseen = (action, trial)

    # The methods of the actions by name, for the tests and tools that call them so:
    # each only makes the action value and applies it.
    def play(self, uid: object) -> EventLog:
        """Play a hand page (by uid): ``apply(Play(uid))``."""
        return self.apply(Play(uid))

    def pen(self, uid: object, side: str) -> EventLog:
        """ペンで書き込む: ``apply(Pen(uid, side))``."""
        return self.apply(Pen(uid, side))

    def tear(self, uid: object) -> EventLog:
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
        if self.state.outcome is not None or self._choice is not None:
            self._ready()  # refused, saying why (a look-ahead plays here per option tried)
        uid = action.uid
        if type(uid) is not int or not 0 <= uid < len(self.state.pages):
            uid = self._known_uid(uid)  # refused: no page of that uid
        plan = playing.plan(self, uid)
        if plan is None:  # play_info says why (the plan writes no reasons)
            raise Refused(playing.play_info(self, uid)["reason"])
        resolution.begin(self, (playing.resolve_play, (uid, plan)))
        return self._done()

    def _on_pen(self, action: Pen) -> EventLog:
        """ペンで書き込む: write (blank face) or upgrade (written face) one face."""
        self._ready()
        pen_tear.pen(self, self._known_uid(action.uid), action.side)
        return self._done()

    def _on_tear(self, action: Tear) -> EventLog:
        """破る: remove a hand page for the run, for 綻び and its tear effect."""
        self._ready()
        pen_tear.tear(self, self._known_uid(action.uid))
        return self._done()

    def _on_end_turn(self, action: EndTurn) -> EventLog:
        """ターン終了の宣言: defense, the enemy's action, cleanup, and the next turn."""
        self._ready()
        resolution.begin(self, (turn.end_turn, ()))
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
        resolution.answer(self, list(uids))
        resolution.resolve(self)
        return self._done()

    def _on_dev_set(self, action: DevSet) -> EventLog:
        """開発者モード: set HP, 歩, 防御 (any lifetime), 綻び (run and stage), 刻, 座, 敵HP,
        通貨 or the hand directly, bypassing the rules (spec 000 開発者フック). A value
        outside what the board can hold (刻 beyond its walls, negative 歩) is refused.
        Keys are the codes of DEV_SETTINGS; ``defense`` takes n or (n, lifetime). A run
        that is won or lost takes no more values: its result stands as played."""
        self._open()
        try:
            for key, value in action.values:
                setting, moved = DEV_SETTINGS.get(key), None
                if setting is None:
                    raise Refused(f"開発者モードで設定できない値です: {key}")
                if key == "hand":
                    self._dev_hand(value)
                else:
                    number, lifetime = (value if isinstance(value, (tuple, list))
                                        else (value, None))
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
                    moved = setting.put(self, number, lifetime)
                self.emit(("dev_set", key, list(value) if isinstance(value, (tuple, list))
                           else value))
                for other, now in moved or ():  # what it moved with it is said too
                    self.emit(("dev_set", other, now))
        finally:
            # A value set is the state the rules then read: a stage it decides (敵HP 0,
            # 突破ライン reached, HP 0) is decided now, before any Intent runs (DESIGN
            # §6.1) — also when a later value is refused, as the earlier ones stay set.
            # While a choice waits, the resolution under way settles it at its end.
            if self._choice is None and self.state.outcome is None:
                resolution.begin(self)
        return self._done()

    # ============================================================== copies
    def copy(self, *, streams: Streams | None = None, record: bool = False) -> Battle:
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
                      self.streams.copy() if streams is None else streams, record=record,
                      facts=(self.foe, self.page_facts))
        twin.count_scope = self.count_scope
        if not self.state.effects:
            # The index of an empty board holds no placed 作用 and is only read: the
            # copy shares it rather than making it again (a board with effects is
            # indexed anew as cheaply as its index could be remapped to the copy's).
            twin._index = self._index
        if self._stack or self._chain or self._links_made:
            own = dict(zip(map(id, self.state.effects), twin.state.effects))
            twin._stack = [(step, resolution.remapped(args, own)) for step, args in self._stack]
            twin._chain = resolution.remapped(self._chain, own)
            twin._links = {id(p): p for p in resolution.remapped(list(self._links.values()), own)}
            twin._links_made = self._links_made
        twin._choice = self._choice
        return twin

    def _dev_hand(self, pages) -> None:
        s = self.state
        for page in pages:
            if page not in self.tables.pages:
                raise Refused(f"ページ「{page}」は表にありません")
        cap = s.param("hand_cap")
        if len(pages) > cap:  # no draw or 作用 fills a hand past it (--with says so too)
            raise Refused(f"{W.region.hand}に置けるのは{W.variable.hand_cap}の {cap} 枚までです"
                          f"（{len(pages)} 枚）")
        for uid in list(s.zones["hand"]):
            s.move(uid, "draw")
        for page in pages:
            s.new_page(page, "hand")
        # The hand a failed redraw left is gone: the scene set here plays as a turn does
        # (its ban on plays belongs to that hand, DESIGN §6.2 failed redraw).
        s.redraw_failed = False


def _adopt(battle: Battle, trial: Battle) -> EventLog:
    """``battle`` takes the position of ``trial``, its foreseen copy (``Battle.foresee``):
    slot by slot into its own state and streams, so that whoever holds them (a
    simulation reads ``battle.state`` once) sees the new position."""
    for into, source, names in ((battle.state, trial.state, State.FIELDS),
                                (battle.streams, trial.streams, Streams.FIELDS)):
        for name in names:
            setattr(into, name, getattr(source, name))
    battle._stack, battle._choice, battle._index = trial._stack, trial._choice, trial._index
    battle._chain, battle._links = trial._chain, trial._links
    battle._links_made = trial._links_made
    battle.count_scope, battle.foe = trial.count_scope, trial.foe
    by = battle.dealt_by
    for uid, dealt in trial.dealt_by.items():
        by[uid] = by.get(uid, 0) + dealt
    battle.stages_won.extend(trial.stages_won)
    if trial._shown is not None:
        battle._shown = trial._shown
    battle.event_count += trial.event_count
    return _NO_EVENTS


#: Action class → its handler: the one dispatcher of the battle's actions (``apply``).
HANDLERS = {Play: Battle._on_play, Pen: Battle._on_pen, Tear: Battle._on_tear,
            EndTurn: Battle._on_end_turn, Choose: Battle._on_choose,
            DevSet: Battle._on_dev_set}

_END_TURN = EndTurn()


#: The action values of the pages, made once per uid (``Battle.actions``).
_play = functools.cache(Play)
_tear = functools.cache(Tear)
_pen = functools.cache(Pen)
