"""戦闘 — a run of battles played from the tables, one player action at a time.

The only way in is an action (``play``, ``pen``, ``tear``, ``end_turn``, ``choose``);
the only way out is the stream of ``BattleEvent`` each action returns. A turn is the
sequence of phases of spec 000 ターン構造 (TURN_START_PHASES, then the player phase,
then TURN_END_PHASES). All randomness goes through the one seeded RNG of the run.
"""

from __future__ import annotations

import copy
import math
import random

from contract import vocabulary as vocab
from contract.codec import to_literal
from contract.tables import Body, Sayou

from .dev import DEV_SETTINGS
from .refusal import Refused
from .events import BattleEvent
from .sayou import DEST_ZONE, REGION_ZONES, Frame, anchored_refs, apply, base_value, \
    check_condition, year_of, modifiers, payment_shortfall, truncate, window_key
from .state import EXPIRY_ORDER, PARAMS, State
from .tables import Tables
from contract.vocabulary import W

SIDES = tuple(face.code for face in vocab.FACES)
#: Face code → its word, for the reasons a refusal gives (未来面, 過去面).
SIDE_WORDS = {face.code: face.ja for face in vocab.FACES}


class Battle:
    """A run: stages against the given enemies, from a deck of page ids."""

    def __init__(self, tables: Tables, state: State, rng: random.Random):
        self.tables = tables
        self.state = state
        self.rng = rng
        self.log: list[BattleEvent] = []
        self._out: list[BattleEvent] = []
        self._pending = None  # a generator waiting for ``choose``; never saved
        self._choice: dict | None = None
        self._playing = False

    # ============================================================== creation
    @classmethod
    def new(cls, tables: Tables, *, seed: int = 0, enemies: list[str] | None = None,
            deck: list[str] | None = None) -> "Battle":
        balance = tables.balance
        stages = list(enemies or sorted(tables.enemies)[:1])
        for enemy in stages:
            if enemy not in tables.enemies:
                raise KeyError(f"敵「{enemy}」は表にありません")
        state = State(seed=seed, stages=stages, age=balance.start_age,
                      hp=balance.start_hp,
                      params={p: getattr(balance, p) for p in PARAMS})
        battle = cls(tables, state, random.Random(seed))
        pages = list(deck if deck is not None else tables.starter())
        for page in pages:
            if page not in tables.pages:
                raise KeyError(f"ページ「{page}」は表にありません")
            state.new_page(page, "draw")
        battle._shuffle(state.zones["draw"])
        battle.emit("run_started", seed=seed, stages=stages, deck=len(pages))
        for _ in range(balance.stage_start_hand):
            battle._draw_one()
        battle._begin(battle._opening_steps())
        battle.log.extend(battle._take())
        return battle

    def _opening_steps(self):
        yield from self._fire_board("run_start")
        yield from self._start_stage()

    # ============================================================== events
    def emit(self, kind: str, **data) -> None:
        self._out.append(BattleEvent(kind, data))

    def _take(self) -> list[BattleEvent]:
        out, self._out = self._out, []
        return out

    def _act(self, run) -> list[BattleEvent]:
        """Check and start one action; its resolution runs until it ends or a player
        choice makes it wait (``run`` raises Refused before anything changes)."""
        if self.state.outcome is not None:
            raise Refused(f"この{W.scope.run}はもう終わっています")
        run()
        events = self._take()
        self.log.extend(events)
        return events

    # ============================================================== queries
    @property
    def hand(self) -> list[int]:
        return list(self.state.zones["hand"])

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    @property
    def choice(self) -> dict | None:
        """The pending player choice (candidates by uid, how many to pick), if any."""
        return self._choice

    def page_of(self, uid: int):
        """The table's Page of a page instance."""
        return self.tables.pages[self.state.pages[uid]["page"]]

    def year(self, uid: int) -> int:
        return year_of(self, uid)

    def enemy_trait(self, code: str):
        for trait in self.tables.enemies[self.state.enemy["id"]].traits:
            if trait.trait == code:
                return trait.value if trait.value is not None else True
        return None

    def face_body(self, uid: int, side: str):
        """The face's current ``.conditions`` and ``.effects`` (the Face as dealt, its pen
        Body, or a Body of both), or None when it is blank."""
        face = self.state.pages[uid]["faces"][side]
        page = self.page_of(uid)
        if face["state"] == "blank":
            return None
        base = page.faces[side]
        if face["state"] == "pen":
            pen = page.pens[side]
            if base.written:
                # A pen on a written face replaces its 作用列 only: the play conditions
                # are a face variable of their own and stay (spec 002, DESIGN §6.1).
                return Body(base.conditions, pen.effects)
            return pen
        return base if base.written else None

    def sides_for(self, uid: int) -> tuple[str, ...]:
        """発動する面: by 銘 vs 刻 (spec 000): equal fires past, then future."""
        year, age = self.year(uid), self.state.age
        if year > age:
            return ("future",)
        if year < age:
            return ("past",)
        return ("past", "future")

    def crosses(self, old: int, new: int) -> bool:
        """跨ぐ: old and new 刻 strictly on opposite sides of 座 (landing on it is not)."""
        seat = self.state.enemy["seat"]
        return (old - seat) * (new - seat) < 0

    def cost(self, uid: int) -> int:
        _, mul = modifiers(self, "steps_payment", consume=False)
        return truncate(abs(self.year(uid) - self.state.age) * mul)

    def play_info(self, uid: int) -> dict:
        """What playing ``uid`` would do now: faces, cost, crossing, or why it cannot."""
        s = self.state
        year = self.year(uid)
        frame = Frame(page_uid=uid, distance=abs(year - s.age),
                      crosses=self.crosses(s.age, year))
        sides = self.sides_for(uid)
        info = {"uid": uid, "year": year, "cost": self.cost(uid), "crosses": frame.crosses,
                "sides": list(sides), "firing": [], "playable": False, "reason": ""}
        reason = self._blocked(uid, year)
        firing = []
        paying: dict[str, float] = {}  # what the faces fired so far will pay, by target
        for side in sides:
            body = self.face_body(uid, side)
            if body is None:
                continue
            failed = [c for c in body.conditions if not check_condition(self, c, frame)]
            # A payment that cannot be made in full refuses the face like a failed
            # condition (DESIGN §6.1 payments); both faces of 銘 = 刻 pay together.
            short = None if failed else payment_shortfall(self, body.effects, frame, paying)
            if not failed and short is None:
                firing.append(side)
            elif not reason and len(sides) == 1:
                reason = short or f"{SIDE_WORDS[side]}の条件を満たしていません"
        info["firing"] = firing
        if not reason and not firing:
            words = "・".join(SIDE_WORDS[x] for x in sides)
            reason = f"発動する{words}が白紙です" if all(
                self.face_body(uid, x) is None for x in sides) else "条件を満たす面がありません"
        if not reason and info["cost"] > s.steps:
            reason = f"{W.variable.steps}が足りない: 残り {s.steps}, 必要 {info['cost']}"
        info["reason"] = reason
        info["playable"] = not reason
        return info

    def _blocked(self, uid: int, year: int) -> str:
        s = self.state
        if s.zone_of(uid) != "hand":
            return f"{W.region.hand}にないページです"
        if year > s.param("lifespan_cap"):
            return f"{W.variable.year} {year} は{W.variable.lifespan_cap} {s.param('lifespan_cap')} の先です（生きない年）"
        blockade = next((t for t in self.tables.enemies[s.enemy["id"]].traits
                         if t.trait == "blockade"), None)
        if blockade and blockade.low <= year <= blockade.high and year != s.age:
            return f"{W.variable.age} {blockade.low}〜{blockade.high} は{W.trait.blockade}されています"
        if year == s.age and s.same_age_plays >= s.param("same_age_cap"):
            return f"{W.variable.year} = {W.variable.age} のページはこの{W.scope.turn}もう出せません"
        return ""

    def legal_actions(self) -> list[tuple]:
        """Every action the rules allow now, as ``("play", uid)``, ``("pen", uid, side)``,
        ``("tear", uid)``, ``("end_turn",)`` — or only ``("choose",)`` while a choice is
        pending. For policies, tests and tools; the actions themselves still check."""
        if self._choice is not None:
            return [("choose",)]
        s = self.state
        actions: list[tuple] = [("play", uid) for uid in s.zones["hand"]
                                if self.play_info(uid)["playable"]]
        if s.pens_used < s.param("pen_cap"):
            for uid in s.zones["hand"]:
                page = self.page_of(uid)
                for side in SIDES:
                    face = s.pages[uid]["faces"][side]
                    restorable = face["state"] == "blank" and face["blanked"] is not None
                    if restorable or (not face["penned"] and page.pens[side] is not None):
                        actions.append(("pen", uid, side))
        if s.tears_used < s.param("tear_cap"):
            actions += [("tear", uid) for uid in s.zones["hand"]]
        actions.append(("end_turn",))
        return actions

    def playable_any(self) -> bool:
        return any(self.play_info(uid)["playable"] for uid in self.state.zones["hand"])

    # ============================================================== actions
    def play(self, uid: int) -> list[BattleEvent]:
        """Play a hand page (by uid)."""
        def run():
            self._no_choice_pending()
            info = self.play_info(uid)
            if not info["playable"]:
                raise Refused(info["reason"])
            self._begin(self._resolve_play(uid, info))
        return self._act(run)

    def pen(self, uid: int, side: str) -> list[BattleEvent]:
        """ペンで書き込む: write (blank face) or upgrade (written face) one face."""
        def run():
            self._no_choice_pending()
            self._pen(uid, side)
        return self._act(run)

    def tear(self, uid: int) -> list[BattleEvent]:
        """破る: remove a hand page for the run, for 綻び and its tear effect."""
        def run():
            self._no_choice_pending()
            self._tear(uid)
        return self._act(run)

    def end_turn(self) -> list[BattleEvent]:
        """ターン終了の宣言: defense, the enemy's action, cleanup, and the next turn."""
        def run():
            self._no_choice_pending()
            self._begin(self._end_turn())
        return self._act(run)

    def choose(self, uids: list[int]) -> list[BattleEvent]:
        """Answer a pending player choice with the chosen page uids."""
        def run():
            if self._choice is None:
                raise Refused("選ぶものはありません")
            wanted = self._choice["count"]
            if len(uids) != wanted or len(set(uids)) != len(uids) or not set(uids) <= set(
                    self._choice["candidates"]):
                raise Refused(f"候補から {wanted} 枚を選んでください")
            self._choice = None
            self.emit("chosen", uids=list(uids))
            self._resume(list(uids))
        return self._act(run)

    def dev_set(self, **values) -> list[BattleEvent]:
        """開発者モード: set HP, 歩, 防御 (any lifetime), 綻び (run and stage), 刻, 座, 敵HP,
        通貨 or the hand directly, bypassing the rules (spec 000 開発者フック). A value
        outside what the board can hold (刻 beyond its walls, negative 歩) is refused.
        Keys are the codes of DEV_SETTINGS; ``defense`` takes n or (n, lifetime)."""
        for key, value in values.items():
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
                low, high = setting.bounds(self)
                if number < low or (high is not None and number > high):
                    span = f"{low} 以上" if high is None else f"{low}〜{high} の範囲"
                    raise Refused(f"{setting.words[0]} は {span}です（{number}）")
                setting.put(self, number, lifetime)
            self.emit("dev_set", what=key, value=list(value) if isinstance(
                value, (tuple, list)) else value)
        events = self._take()
        self.log.extend(events)
        return events

    def _dev_hand(self, pages) -> None:
        s = self.state
        for page in pages:
            if page not in self.tables.pages:
                raise Refused(f"ページ「{page}」は表にありません")
        for uid in list(s.zones["hand"]):
            s.move(uid, "draw")
        for page in pages:
            s.new_page(page, "hand")

    def _no_choice_pending(self):
        if self._choice is not None:
            raise Refused(f"{W.pick.choice}の途中です。先に候補を選んでください")

    # ======================================================= resumable steps
    def _begin(self, steps) -> None:
        """Run a resolution that may stop for a player choice (a generator), then settle
        the stage. Every step that can fire the board is such a generator, so a 選択
        asked anywhere — a turn phase, a crossing, 被弾時, a stage start — waits for
        ``choose`` (DESIGN §6.1 player choice)."""
        self._pending = self._then_settle(steps)
        self._resume(None)

    def _then_settle(self, steps):
        yield from steps
        yield from self._settle()

    def _resume(self, answer) -> None:
        try:
            request = self._pending.send(answer)
        except StopIteration:
            self._pending = None
            return
        self._choice = request
        self.emit("choice_requested", candidates=request["candidates"], count=request["count"])

    # ============================================================ playing
    def _resolve_play(self, uid: int, info: dict):
        s = self.state
        old, year = s.age, info["year"]
        distance = abs(year - old)
        frame = Frame(page_uid=uid, distance=distance, crosses=info["crosses"])
        s.plays_run += 1
        s.reset_scope("play")
        self._playing = True
        # This play's move is known before 刻 moves; turn and wider scopes get it after.
        # 使用した歩 is the distance, not the 歩 paid after 支払い倍率 (DESIGN §6.1).
        move = {"steps_used": distance, "distance_moved": distance,
                "net_displacement": year - old, "crossings": 1 if info["crosses"] else 0,
                "plays": 1}
        s.counters["play"] = dict(move)
        s.steps -= info["cost"]
        if year == old:
            s.same_age_plays += 1
        self.emit("played", uid=uid, page=s.pages[uid]["page"], year=year, age=old,
                  cost=info["cost"], faces=info["firing"], crosses=info["crosses"])
        for side in info["firing"]:
            self.emit("face_fired", uid=uid, side=side)
            yield from self._run_list(self.face_body(uid, side).effects, frame, uid)
            if self._stage_over():
                break
        if not self._stage_over():
            yield from self._fire_board("on_play", frame)
        suppressed = s.suppress > 0
        if suppressed:
            # 刻 does not move: nothing is crossed, displaced or travelled; the distance
            # still counts as 使用した歩 (spec 002: the two agree unless 刻 is suppressed).
            # This play's references already read the move it would have made.
            for name in SUPPRESSED_MOVE:
                move[name] = 0
                s.counters.setdefault("play", {})[name] = 0
        for name, amount in move.items():
            for scope in ("turn", "stage", "run"):
                s.counters.setdefault(scope, {})
                s.counters[scope][name] = s.counters[scope].get(name, 0) + amount
        if suppressed:
            s.suppress -= 1
            self.emit("moved", age=old, to=old, suppressed=True)
        else:
            s.age = year
            self.emit("moved", age=old, to=year, suppressed=False)
            if info["crosses"]:
                yield from self._cross()
        self._playing = False
        if s.zone_of(uid) == "hand":
            yield from self._after_play(uid)
        self._end_of_play()

    def _cross(self):
        s = self.state
        self.emit("crossed", seat=s.enemy["seat"])
        if s.enemy["turn_intents"]:
            removed = s.enemy["turn_intents"].pop(0)
            s.count("turn", "intents_removed", 1)
            s.counters.setdefault("play", {})["intents_removed"] = 1
            self.emit("intent_removed", intent=removed, left=len(s.enemy["turn_intents"]))
        yield from self._fire_board("on_cross")

    def _after_play(self, uid: int):
        destination = self.page_of(uid).after_play
        if destination == "discard":
            self.state.move(uid, "discard")
            self.emit("page_discarded", uid=uid)
        else:
            self.state.move(uid, destination)
            self.emit("page_exiled", uid=uid, until="stage" if destination == "exile_stage"
                      else "run")
            yield from self._fire_board("on_exile")

    def _end_of_play(self):
        s = self.state
        self._expire_mods("play")
        self._close_windows("play", s.plays_run)
        for placed in list(s.effects):
            repeat = placed["effect"].repeat
            if repeat.scope == "play" and placed["placed"]["plays"] < s.plays_run + 1:
                self._remove(placed)
            elif repeat.scope == vocab.ANCHORED and repeat.unit == "play" and (
                    s.plays_run - placed["placed"]["plays"] >= repeat.n):
                self._remove(placed)

    def _run_list(self, effects, frame: Frame, uid, *, scale: float = 1.0,
                  origin: str = "page", closing: bool = False, times: int = 1):
        """Apply a face's 作用 list in written order; continuing ones are placed.
        The list stops when the stage is over, unless it belongs to that ending
        (``closing``: a 綻び reward earned by the very 綻び that won the stage).
        ``times``: the list is granted that many times at once (綻び rewards)."""
        for effect in effects:
            if not closing and self._stage_over():
                return
            if self._is_one_shot(effect):
                own = Frame(frame.page_uid, frame.distance, frame.crosses,
                            dict(self.state.counters.get("run", {})), scale, times=times)
                yield from self._apply_steps(effect, own)
                self.emit("sayou", op=effect.op, target=effect.names.target,
                          line=effect.line)
            else:
                self.place(effect, origin=origin, page_uid=uid, scale=scale, frame=frame)

    _ONE_SHOT_TIMINGS = ("on_play", "on_tear", "on_reward")

    def _is_one_shot(self, effect: Sayou) -> bool:
        repeat = effect.repeat
        return (effect.timing in self._ONE_SHOT_TIMINGS and repeat.scope == "play"
                and repeat.max == 1)

    def _apply_steps(self, effect: Sayou, frame: Frame):
        """One 作用 now, and what it sets off: a region operation may ask the player; an
        敵HP that reached 0 fires 敵のHPが0になった時."""
        if effect.op in REGION_OPS:
            yield from REGION_STEPS[effect.op](self, effect, frame)
        else:
            apply(self, effect, frame)
        if self.state.enemy.get("down") == "now":
            self.state.enemy["down"] = True
            yield from self._fire_board("on_enemy_hp_zero")

    # ==================================================== continuing effects
    def place(self, effect: Sayou, *, origin: str, page_uid=None, scale: float = 1.0,
              frame: Frame | None = None) -> None:
        """A continuing 作用 onto the board, anchored now (the tables' own object)."""
        s = self.state
        placed = {"effect": effect, "origin": origin, "page_uid": page_uid, "scale": scale,
                  "fires": 0, "distance": frame.distance if frame else 0,
                  "placed": {"plays": s.plays_run, "turns": s.turns_run,
                             "counters": dict(s.counters.get("run", {}))}}
        s.effects.append(placed)
        self.emit("effect_placed", target=effect.names.target, timing=effect.timing,
                  repeat=effect.names.repeat, origin=origin)

    def frame_of(self, placed: dict) -> Frame:
        return Frame(page_uid=placed["page_uid"], distance=placed["distance"],
                     anchor=placed["placed"]["counters"], scale=placed["scale"],
                     windows=placed.get("windows", {}))

    def _close_windows(self, unit: str, done: int) -> None:
        """An anchored window (以降 n プレイ／ターン) stops counting once its n-th play or
        turn after placement has ended: keep the run counters of that moment."""
        key = "plays" if unit == "play" else "turns"
        for placed in self.state.effects:
            for ref in anchored_refs(placed["effect"]):
                name = window_key(ref)
                if ref.unit == unit and done - placed["placed"][key] >= ref.n \
                        and name not in placed.setdefault("windows", {}):
                    placed["windows"][name] = dict(self.state.counters.get("run", {}))

    def fired(self, placed: dict, times: int = 1) -> None:
        placed["fires"] += times
        limit = placed["effect"].repeat.max
        if limit is not None and placed["fires"] >= limit:
            self._remove(placed)

    def _remove(self, placed: dict) -> None:
        if placed in self.state.effects:
            self.state.effects.remove(placed)
            self.emit("effect_expired", target=placed["effect"].names.target,
                      origin=placed["origin"])

    #: Timings that belong to the end of a stage or run: they fire although it is over.
    _CLOSING_TIMINGS = ("on_enemy_hp_zero", "stage_end", "run_end")
    #: 被弾時 belongs to the hit itself: it fires although that hit took the last HP, so
    #: a counter that fells the enemy on the same hit wins (a win at the same moment as a
    #: loss is a win, DESIGN §6.1). Once the enemy is down, nothing fires.
    _WITH_THE_HIT = ("on_hit",)

    def _fire_board(self, timing: str, frame: Frame | None = None, times: int = 1):
        """Fire every continuing effect placed for ``timing`` (a generator: a 選択 on the
        way waits for the player). ``times``: the timing came that many times at once
        (綻び rewards crossed together); each effect fires as often, within its maximum."""
        s = self.state
        for placed in list(s.effects):
            if timing in self._WITH_THE_HIT:
                if s.outcome is not None or self._stage_won_by() is not None:
                    return
            elif timing not in self._CLOSING_TIMINGS and self._stage_over():
                return
            effect = placed["effect"]
            if effect.timing != timing or effect.telegraphed or placed not in s.effects:
                continue  # telegraphed traits act in the enemy phase
            if timing == "on_play" and placed["placed"]["plays"] >= s.plays_run:
                continue  # placed by this very play: it fires from the next one
            own = self.frame_of(placed)
            if frame is not None:
                own = Frame(own.page_uid, frame.distance, frame.crosses, own.anchor, own.scale,
                            own.windows)
            limit = effect.repeat.max
            own.times = times if limit is None else min(times, limit - placed["fires"])
            yield from self._apply_steps(effect, own)
            self.emit("sayou", op=effect.op, target=effect.names.target,
                      line=effect.line, timing=timing)
            self.fired(placed, own.times)

    # ======================================================== region operations
    # A region operation is resumable steps (a generator), one method per operation
    # (REGION_STEPS): it may ask the player to choose.
    def _generate_steps(self, effect: Sayou, frame: Frame):
        """生成: new pages of the pages table matching the filter."""
        count = effect.count or 1
        pool = [p for p in sorted(self.tables.pages) if self._matches(p, effect.filter)]
        if effect.pick == "choice" and len(pool) > count:
            chosen = yield {"candidates": pool, "count": count, "kind": "page_ids"}
        else:
            # Each generated page is drawn from the whole pool: with replacement.
            chosen = [pool[self.rng.randrange(len(pool))] for _ in range(count)] \
                if pool else []
        for page in chosen:
            self._add_page(page, effect.dest, effect.lifetime)

    def _pick_steps(self, effect: Sayou, frame: Frame):
        """移動 and 複製: pages picked from the source region, moved or copied to the
        destination."""
        s = self.state
        count = effect.count or 1
        # 除外（ラン） never comes back (spec 002): only stage-exiled pages can be moved out.
        zones = [z for z in REGION_ZONES[effect.source] if z != "exile_run"]
        # The page being played is not yet anywhere but the hand: it never moves itself.
        playing = frame.page_uid if self._playing else None
        pool = [uid for z in zones for uid in s.zones[z]
                if self._matches(s.pages[uid]["page"], effect.filter)
                and uid != playing]
        if effect.pick == "top":
            chosen = pool[:count]
        elif effect.pick == "choice" and len(pool) > count:
            chosen = yield {"candidates": pool, "count": count, "kind": "uids"}
        else:
            chosen = self._pick_ids(pool, count)
        for uid in chosen:
            if effect.op == "duplicate":
                self._add_page(s.pages[uid]["page"], effect.dest, effect.lifetime, like=uid)
            else:
                yield from self._move_page(uid, DEST_ZONE[effect.dest])
        self._reshuffle_if_empty()

    def _reveal_steps(self, effect: Sayou, frame: Frame):
        """公開: the top n pages of the draw pile, shown in order and left in that order,
        so the next draws take them as shown (spec 002 山札を見せる作用)."""
        top = self.state.zones["draw"][:effect.count or 1]
        self.emit("revealed", uids=list(top),
                  pages=[self.state.pages[uid]["page"] for uid in top])
        return
        yield  # a generator like every region operation

    def _pick_ids(self, pool: list, count: int) -> list:
        if len(pool) <= count:
            return list(pool)
        return self.rng.sample(pool, count)

    def _matches(self, page_id: str, flt) -> bool:
        """Whether a page may be picked by a region operation's Filter (None: any)."""
        if flt is None:
            return True
        page = self.tables.pages[page_id]
        if flt.origin is not None and page.origin != flt.origin:
            return False
        if flt.year is not None and not flt.year[0] <= page.year <= flt.year[1]:
            return False
        if flt.page is not None and page_id != flt.page:
            return False
        return True

    def _move_page(self, uid: int, zone: str):
        s = self.state
        if zone == "hand" and len(s.zones["hand"]) >= s.param("hand_cap"):
            zone = "discard"
            self.emit("hand_full", uid=uid)
        s.move(uid, zone, top=True)
        self.emit("page_moved", uid=uid, page=s.pages[uid]["page"], to=zone)
        if zone == "exile_stage":
            yield from self._fire_board("on_exile")

    def _add_page(self, page_id: str, dest: str, lifetime: str, like: int | None = None):
        """A new page instance; ``like``: a 複製 carries that page's current faces (pen
        upgrades and blanked faces, DESIGN §6.1)."""
        s = self.state
        cap = self.tables.pages[page_id].deck_cap
        owned = sum(1 for p in s.pages if p["page"] == page_id and p["zone"] in
                    ("draw", "hand", "discard", "exile_stage"))
        if owned >= cap:
            self.emit("generation_failed", page=page_id, cap=cap)
            return
        zone = DEST_ZONE[dest]
        if zone == "hand" and len(s.zones["hand"]) >= s.param("hand_cap"):
            zone = "discard"
            self.emit("hand_full", page=page_id)
        uid = s.new_page(page_id, zone, lifetime)
        if like is not None:
            s.pages[uid]["faces"] = copy.deepcopy(s.pages[like]["faces"])
        self.emit("page_generated", uid=uid, page=page_id, to=zone, lifetime=lifetime)

    # ============================================================ draw pile
    def _shuffle(self, pile: list) -> None:
        self.rng.shuffle(pile)

    def _draw_one(self) -> bool:
        s = self.state
        if not s.zones["draw"]:
            self._reshuffle_if_empty()
        if not s.zones["draw"]:
            self.emit("draw_skipped", reason="empty")
            return False
        uid = s.zones["draw"][0]
        s.move(uid, "hand")
        s.count("turn", "cards_drawn", 1)
        self.emit("drawn", uid=uid, page=s.pages[uid]["page"])
        self._reshuffle_if_empty()
        return True

    def _reshuffle_if_empty(self) -> None:
        """山札が0枚になった時点で、捨て札を全てシャッフルして新しい山札とする."""
        s = self.state
        if s.zones["draw"] or not s.zones["discard"]:
            return
        pile = list(s.zones["discard"])
        for uid in pile:
            s.move(uid, "draw")
        self._shuffle(s.zones["draw"])
        self.emit("reshuffled", count=len(pile))

    # ======================================================== pen and tear
    def _pen(self, uid: int, side: str) -> None:
        s = self.state
        if side not in SIDES:
            raise Refused(f"面は {W.face_word.future} か {W.face_word.past} です")
        if s.zone_of(uid) != "hand":
            raise Refused(f"ペンは{W.region.hand}のページにだけ使えます")
        if s.pens_used >= s.param("pen_cap"):
            raise Refused(f"この{W.scope.stage}のペンは使い切りました（{s.param('pen_cap')} 回）")
        face = s.pages[uid]["faces"][side]
        page = self.page_of(uid)
        if face["state"] == "blank" and face["blanked"] is not None:
            face["state"], face["blanked"] = face["blanked"], None  # 白紙化から元に戻る
            result = "restored"
        elif face["penned"]:
            raise Refused(f"{SIDE_WORDS[side]}にはもうペンを入れています（各面1回まで）")
        elif page.pens[side] is None:
            raise Refused(f"このページの{SIDE_WORDS[side]}にはペンで書けるものが定義されていません")
        else:
            face["state"], face["penned"] = "pen", True
            result = "written" if not page.faces[side].written else "upgraded"
        s.pens_used += 1
        s.count("turn", "pens", 1)
        self.emit("pen", uid=uid, side=side, result=result)
        self._begin(self._special_steps(self.tables.balance.pen_fray, "pen", "on_pen"))

    def tear_preview(self, uid: int) -> dict:
        """The 綻び and the tear effect's scale tearing ``uid`` would give now."""
        s = self.state
        distance = abs(self.year(uid) - s.age)
        _, mul = modifiers(self, "fray", consume=False)
        page = self.page_of(uid)
        fray = truncate(distance * page.fray_mul * mul)
        blank = all(self.face_body(uid, side) is None for side in SIDES)
        effects = () if blank or not page.tear else page.tear
        return {"distance": distance, "fray": fray, "blank": blank,
                "scale": 1 + self.tables.balance.tear_scale * distance, "effects": effects}

    def _tear(self, uid: int) -> None:
        s = self.state
        if s.zone_of(uid) != "hand":
            raise Refused(f"破れるのは{W.region.hand}のページだけです")
        if s.tears_used >= s.param("tear_cap"):
            raise Refused(f"この{W.scope.stage}はもう破れません（{s.param('tear_cap')} 回）")
        preview = self.tear_preview(uid)
        s.tears_used += 1
        s.move(uid, "torn")
        s.count("turn", "tears", 1)
        self.emit("tear", uid=uid, page=s.pages[uid]["page"], distance=preview["distance"],
                  fray=preview["fray"], blank=preview["blank"])
        frame = Frame(page_uid=uid, distance=preview["distance"])
        effects = self._run_list(preview["effects"], frame, uid, scale=preview["scale"],
                                 origin=f"tear:{s.pages[uid]['page']}")
        self._begin(self._special_steps(preview["fray"], "tear", "on_tear", effects))

    def _special_steps(self, fray: int, cause: str, timing: str, first=None):
        """What follows a pen or a tear: its effects, its 綻び (and rewards), its timing.
        A player choice asked on the way waits for ``choose`` like one asked in a play."""
        if first is not None:
            yield from first
        yield from self._gain_fray_steps(fray, cause)
        yield from self._fire_board(timing)

    def _gain_fray_steps(self, amount: int, cause: str):
        s = self.state
        amount = max(0, truncate(amount))
        s.fray_run += amount
        s.fray_stage += amount
        s.count("turn", "fray_gained", amount)
        self.emit("fray_gained", amount=amount, cause=cause, run=s.fray_run,
                  stage=s.fray_stage)
        # 綻び rewards by arithmetic: however many intervals this gain crossed, they are
        # granted at once (a jump of 10^12 years is instant; DESIGN §6.1).
        interval = self.tables.balance.reward_interval
        earned = s.fray_run // interval - s.rewards_given
        if earned > 0:
            s.rewards_given += earned
            self.emit("reward", threshold=s.rewards_given * interval, count=earned)
            yield from self._run_list(self.tables.balance.reward, Frame(), None,
                                      origin="reward", closing=True, times=earned)
            yield from self._fire_board("on_reward", times=earned)

    # ============================================================= the turn
    def _start_stage(self):
        s = self.state
        enemy = self.tables.enemies[s.stages[s.stage_index]]
        # The state keeps Intents as their literals: plain data, saved as they are.
        s.enemy = {"id": enemy.id, "hp": enemy.hp, "seat": enemy.seat,
                   "intents": [to_literal(i) for i in enemy.intents], "turn_intents": [],
                   "escalations": [{"next": 1 + e.every, "every": e.every}
                                   for e in enemy.escalations]}
        s.turn = 0
        s.pens_used = s.tears_used = 0
        s.fray_stage = 0
        s.reset_scope("stage")
        for uid in list(s.zones["exile_stage"]):
            s.move(uid, "discard")
            self.emit("page_returned", uid=uid)
        self.emit("stage_started", stage=s.stage_index + 1, enemy=enemy.id,
                  hp=enemy.hp, seat=enemy.seat, breakthrough=enemy.breakthrough)
        for effect in enemy.trait_effects:
            self.place(effect, origin=f"enemy:{enemy.id}")
        yield from self._fire_board("stage_start")
        if not self._stage_over():
            yield from self._start_turn()

    def _start_turn(self):
        s = self.state
        s.turn += 1
        s.turns_run += 1
        s.reset_scope("turn")
        s.redraw_used = s.redraw_failed = False
        s.same_age_plays = 0
        self.emit("turn_started", turn=s.turn, stage=s.stage_index + 1)
        for _, phase in TURN_START_PHASES:
            yield from phase(self)
            if self._stage_over():
                return

    def _phase_intents(self):
        """1. 予兆の提示: this turn's Intents (escalation first) and telegraphed traits.
        A telegraphed seat move is worked out here, once: the amount shown is the amount
        done in step 8 (DESIGN §6.1 seat movement)."""
        s = self.state
        enemy = self.tables.enemies[s.enemy["id"]]
        acceleration = self.enemy_trait("acceleration") or 0
        for rule, esc in zip(s.enemy["escalations"], enemy.escalations):
            if s.turn == rule["next"]:
                s.enemy["intents"].append(to_literal(esc.intent))
                rule["every"] = max(1, rule["every"] - acceleration)
                rule["next"] = s.turn + rule["every"]
                self.emit("escalated", intent=to_literal(esc.intent),
                          count=len(s.enemy["intents"]))
        s.enemy["turn_intents"] = [dict(i) for i in s.enemy["intents"]]
        self.emit("intents_shown", intents=[dict(i) for i in s.enemy["turn_intents"]])
        for placed in s.effects:
            effect = placed["effect"]
            if effect.telegraphed and effect.timing == "turn_start":
                placed["telegraph"] = self._seat_plan(effect, self.frame_of(placed))
                self.emit("trait_telegraphed", target=effect.names.target,
                          **placed["telegraph"])
        yield from self._fire_board("turn_start")

    def _seat_plan(self, effect: Sayou, frame: Frame) -> dict:
        """What a telegraphed seat move will do: ``amount`` is the signed move; ``to`` the
        position it aims at (an assignment telegraphs its target position)."""
        value = truncate(base_value(self, effect, frame))
        seat = self.state.enemy["seat"]
        if effect.op == "assign":
            return {"amount": value - seat, "to": value}
        amount = -value if effect.direction == "decrease" else value
        return {"amount": amount, "to": max(0, seat + amount)}

    def _phase_refill(self):
        """2. 歩の回復: back to the quota, plus what 歩の持ち越し carried from last turn."""
        s = self.state
        s.steps = s.param("steps_quota") + s.steps_carried
        if s.steps_carried:
            self.emit("steps_carried", amount=s.steps_carried)
        s.steps_carried = 0
        self.emit("steps_refilled", steps=s.steps)
        yield from self._fire_board("after_steps_refill")

    def _phase_draw(self):
        """3. ドロー: the draw count, none once the hand is at its cap."""
        s = self.state
        for _ in range(s.param("draw_count")):
            if len(s.zones["hand"]) >= s.param("hand_cap"):
                self.emit("draw_skipped", reason="hand_cap")
                break
            if not self._draw_one():
                break
        yield from self._fire_board("after_draw")

    def _phase_redraw(self):
        """4. 引き直しの判定: no playable page → discard the hand, draw the stage-start count."""
        s = self.state
        if self.playable_any() or s.redraw_used:
            return
        s.redraw_used = True
        for uid in list(s.zones["hand"]):
            s.move(uid, "discard")
        self._reshuffle_if_empty()
        drawn = 0
        for _ in range(self.tables.balance.stage_start_hand):
            if len(s.zones["hand"]) >= s.param("hand_cap") or not self._draw_one():
                break
            drawn += 1
        self.emit("redrawn", drawn=drawn)
        if not self.playable_any():
            s.redraw_failed = True
            self.emit("no_playable_page")
        yield from ()

    def _end_turn(self):
        for _, phase in TURN_END_PHASES:
            yield from phase(self)
            if self._stage_over():
                return  # settling decides what follows
        yield from self._start_turn()

    def _phase_declare(self):
        """6. ターン終了の宣言 — and defeat when the redraw left nothing playable."""
        s = self.state
        self.emit("end_declared", age=s.age)
        yield from self._fire_board("on_end_declared")
        if not self._stage_over() and s.redraw_failed and not self.playable_any():
            self._lose("no_playable_page")

    def _phase_defense(self):
        """7. 防御の獲得: defense_coef × |刻 − 座|, gone at the end of the turn."""
        s = self.state
        amount = truncate(s.param("defense_coef") * abs(s.age - s.enemy["seat"]))
        if amount > 0:
            s.defense.append([amount, "turn"])
            s.count("turn", "defense_gained", amount)
        self.emit("defense_from_distance", amount=amount, age=s.age, seat=s.enemy["seat"],
                  total=s.defense_total())
        yield from self._fire_board("after_defense")

    def _phase_enemy(self):
        """8. 敵の行動処理: remaining Intents in order, then the telegraphed seat moves.
        The moment the stage is decided (敵HP 0 by a 被弾時 counter, say) nothing more of
        the enemy runs (DESIGN §6.1)."""
        s = self.state
        yield from self._fire_board("before_enemy")
        if self._stage_over():
            return  # defeated before acting: the remaining Intents never happen
        self.emit("enemy_acts", intents=[dict(i) for i in s.enemy["turn_intents"]])
        while s.enemy["turn_intents"]:
            intent = s.enemy["turn_intents"].pop(0)
            if intent["kind"] == "attack":
                yield from self._attacked(intent["amount"])
            else:
                self._blank_random(intent["region"])
            if self._stage_over():
                return
        for placed in list(s.effects):
            effect = placed["effect"]
            if effect.telegraphed and placed in s.effects and "telegraph" in placed:
                self.move_seat(placed.pop("telegraph")["amount"])
                self.emit("sayou", op=effect.op, target=effect.names.target,
                          line=effect.line, timing="turn_start")
                self.fired(placed)
        yield from self._fire_board("after_enemy")

    def _attacked(self, amount: int):
        s = self.state
        left = self.consume_defense(amount, one_intent=True)
        if left > 0:
            s.hp -= left
            s.count("turn", "hp_lost", left)
        self.emit("hit", amount=amount, absorbed=amount - left, damage=left, hp=s.hp,
                  cause="intent")
        # 被弾: receiving an attack Intent, whether defense absorbs it or not (spec 000
        # 被弾処理の順序は 防御で吸収 → 残りをHPから減算; 防御 is 被弾時に消費).
        yield from self._fire_board("on_hit")

    def consume_defense(self, amount: int, one_intent: bool = False) -> int:
        """Absorb ``amount`` with defense, shortest-lived first; returns what is left.

        An on-hit value absorbs one Intent and then vanishes, whatever is left of it.
        """
        s = self.state
        left = amount
        order = sorted(range(len(s.defense)), key=lambda i: EXPIRY_ORDER.index(s.defense[i][1]))
        spent = set()
        for i in order:
            value, expiry = s.defense[i]
            if left <= 0 and not (one_intent and expiry == "on_hit"):
                break
            if expiry == "on_hit" and not one_intent:
                continue
            used = min(value, left)
            left -= used
            s.defense[i][0] -= used
            if used:
                self.emit("defense_consumed", amount=used, expiry=expiry)
            if expiry == "on_hit" or s.defense[i][0] <= 0:
                spent.add(i)
            if expiry == "on_hit":
                one_intent = False  # one on-hit entry per Intent
        s.defense = [d for i, d in enumerate(s.defense) if i not in spent]
        return left

    def _blank_random(self, region: str) -> None:
        """白紙化: a random page of the region whose active face is written loses it."""
        s = self.state
        candidates = []
        for zone in REGION_ZONES[region]:
            for uid in s.zones[zone]:
                side = self.sides_for(uid)[0]  # 銘 = 刻: the past face
                if self.face_body(uid, side) is not None:
                    candidates.append((uid, side))
        if not candidates:
            self.emit("blank_missed", region=region)
            return
        uid, side = candidates[self.rng.randrange(len(candidates))]
        face = s.pages[uid]["faces"][side]
        face["blanked"], face["state"] = face["state"], "blank"
        self.emit("blanked", uid=uid, page=s.pages[uid]["page"], side=side, region=region)

    def move_seat(self, delta: int) -> None:
        s = self.state
        if self.enemy_trait("immobile"):
            self.emit("seat_moved", seat=s.enemy["seat"], delta=0, immobile=True)
            return
        s.enemy["seat"] = max(0, s.enemy["seat"] + delta)
        self.emit("seat_moved", seat=s.enemy["seat"], delta=delta, immobile=False)

    def _phase_cleanup(self):
        """9. 後始末: the hand stays; 歩 and turn-lifetime defense and values vanish —
        but up to 歩の持ち越し unspent 歩 carry into the next turn (spec 000: 歩 can be
        carried over by page effects)."""
        s = self.state
        yield from self._fire_board("turn_end")
        s.steps_carried = max(0, min(s.steps, s.param("steps_carry")))
        s.steps = 0
        expired = [d for d in s.defense if d[1] == "turn"]
        s.defense = [d for d in s.defense if d[1] != "turn"]
        if expired:
            self.emit("defense_expired", amount=sum(v for v, _ in expired), expiry="turn")
        self._expire_mods("turn")
        self._close_windows("turn", s.turns_run)
        for placed in list(s.effects):
            repeat = placed["effect"].repeat
            if repeat.scope == "turn" or (
                    repeat.scope == vocab.ANCHORED and repeat.unit == "turn"
                    and s.turns_run - placed["placed"]["turns"] >= repeat.n):
                self._remove(placed)

    def _expire_mods(self, lifetime: str) -> None:
        for mod in self.state.expire_mods(lifetime):
            if mod["kind"] == "param":
                self.emit("param_changed", param=mod["key"], value=self.state.param(mod["key"]),
                          lifetime=lifetime)
        self.clamp_to_params()

    def clamp_to_params(self) -> None:
        """Values that a lowered parameter now bounds: HP at its max; 刻 at the wall of
        寿命上限 (spec 000: the ends of the line are absolute walls)."""
        s = self.state
        s.hp = min(s.hp, s.param("max_hp"))
        cap = max(0, s.param("lifespan_cap"))
        if s.age > cap:
            self.emit("moved", age=s.age, to=cap, suppressed=False)
            s.age = cap

    @property
    def count_scope(self) -> str:
        """Where a change-log counter starts: the play being resolved, or else the turn
        (an effect that fires after the enemy acts belongs to no play)."""
        return "play" if self._playing else "turn"

    # ============================================================== endings
    def enemy_down(self) -> None:
        """敵HP reached 0: 敵のHPが0になった時 fires right after the 作用 that did it."""
        if not self.state.enemy.get("down"):
            self.state.enemy["down"] = "now"

    def _stage_over(self) -> bool:
        s = self.state
        if s.outcome is not None:
            return True
        enemy = self.tables.enemies[s.enemy["id"]]
        return s.enemy["hp"] <= 0 or s.fray_stage >= enemy.breakthrough or s.hp <= 0

    def _stage_won_by(self) -> str | None:
        s = self.state
        if s.enemy["hp"] <= 0:
            return "hp"
        if s.fray_stage >= self.tables.enemies[s.enemy["id"]].breakthrough:
            return "breakthrough"
        return None

    def _settle(self):
        """Win or lose when the state says so (spec 000 勝敗条件). A win found at the same
        moment as a loss is a win: the win is checked first (DESIGN §6.1)."""
        s = self.state
        # A new stage can end at once (a turn-start effect), so settle until stable.
        while s.outcome is None and self._stage_over():
            how = self._stage_won_by()
            if how is None:
                self._lose("hp")
                return
            yield from self._win_stage(how)

    def _win_stage(self, how: str):
        s = self.state
        self.emit("stage_won", stage=s.stage_index + 1, enemy=s.enemy["id"], by=how)
        yield from self._fire_board("stage_end")
        self._end_stage()
        if s.stage_index + 1 >= len(s.stages):
            yield from self._fire_board("run_end")
            s.outcome = "won"
            self.emit("run_won", stages=len(s.stages))
            return
        s.stage_index += 1
        yield from self._start_stage()

    def _end_stage(self) -> None:
        """What resets between stages (spec 000 ステージ間で引き継がれるもの)."""
        s = self.state
        s.steps = s.steps_carried = 0
        s.defense = [d for d in s.defense if d[1] == "run"]
        for lifetime in ("play", "turn", "stage"):
            self._expire_mods(lifetime)
        for placed in list(s.effects):
            scope = placed["effect"].repeat.scope
            if scope in ("play", "turn", "stage") or placed["origin"].startswith("enemy:"):
                s.effects.remove(placed)
        for page in s.pages:
            if page["lifetime"] == "stage" and page["zone"] not in ("gone", "torn"):
                s.move(page["uid"], "gone")
                self.emit("page_removed", uid=page["uid"], page=page["page"])

    def _lose(self, why: str) -> None:
        s = self.state
        # ラン終了時 effects may not ask the player anything: the run is over. They are
        # run to the end with no choice (a region choice then picks nothing).
        self._drain(self._fire_board("run_end"))
        s.outcome = "lost"
        self.emit("run_lost", by=why, hp=s.hp)

    def _drain(self, steps) -> None:
        """Run steps whose choices can have no answer (the run is over): each request is
        answered with no pages."""
        try:
            request = next(steps)
            while True:
                request = steps.send([])
        except StopIteration:
            pass


#: Counters a suppressed 刻 does not move (総移動距離, 正味変位, 跨いだ回数).
SUPPRESSED_MOVE = ("distance_moved", "net_displacement", "crossings")
#: Operation code → the steps of a region operation (the region family: they may ask the
#: player to choose). The other operations land at once (``sayou.OPS``).
REGION_STEPS = {
    "move": Battle._pick_steps,
    "generate": Battle._generate_steps,
    "duplicate": Battle._pick_steps,
    "reveal": Battle._reveal_steps,
}
REGION_OPS = frozenset(REGION_STEPS)

#: The phases before the player acts (spec 000 ターン構造 1–4).
TURN_START_PHASES = (
    ("intents", Battle._phase_intents),
    ("steps_refill", Battle._phase_refill),
    ("draw", Battle._phase_draw),
    ("redraw", Battle._phase_redraw),
)
#: The phases after the end declaration (spec 000 ターン構造 6–9).
TURN_END_PHASES = (
    ("declare", Battle._phase_declare),
    ("defense", Battle._phase_defense),
    ("enemy", Battle._phase_enemy),
    ("cleanup", Battle._phase_cleanup),
)
