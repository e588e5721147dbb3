"""領域 — the piles a page can be in: drawing, reshuffling, moving, generating and copying pages, and the region operations (移動・生成・複製・公開).

A part of ``Battle`` (runtime/battle.py): its methods share the battle's state and
events; the class exists so that this concept can be read on its own.
"""

from __future__ import annotations

import copy

from contract.game import Pending
from contract.tables import Sayou

from .sayou import DEST_ZONE, Frame, REGION_ZONES


class Zones:
    """領域 — the methods of Battle for it."""

    # A region operation is a step, one method per operation (REGION_STEPS): it may ask
    # the player to choose — it returns a Pending whose source is the operation itself,
    # so a player (a policy) knows what its answer will do without looking into the
    # resolution, and the step that takes the answer on top of the stack (``_ask``).
    def _generate_steps(self, effect: Sayou, frame: Frame):
        """生成: new pages of the pages table matching the filter."""
        count = effect.count or 1
        pool = [p for p in sorted(self.tables.pages) if self._matches(p, effect.filter)]
        if effect.pick == "choice" and len(pool) > count:
            return self._ask(Pending("page_ids", tuple(pool), count, effect),
                             Zones._generated, (effect,))
        # Each generated page is drawn from the whole pool: with replacement.
        chosen = [pool[self.streams.effects.randrange(len(pool))] for _ in range(count)] \
            if pool else []
        return self._generated(effect, chosen)

    def _generated(self, effect: Sayou, chosen: list):
        """生成, its pages chosen (by the player or by chance)."""
        for page in chosen:
            self._add_page(page, effect.dest, effect.lifetime)
        self._reshuffle_if_empty()  # a page sent to the discard renews an empty pile
        return None

    def _pick_steps(self, effect: Sayou, frame: Frame):
        """移動 and 複製: pages picked from the source region, moved or copied to the
        destination."""
        s = self.state
        count = effect.count or 1
        # 除外（ラン） never comes back (spec 002): only stage-exiled pages can be moved out.
        zones = [z for z in REGION_ZONES[effect.source] if z != "exile_run"]
        self._draw_pile_ready(zones)
        # The page being played is not yet anywhere but the hand: it never moves itself.
        playing = frame.page_uid if self.count_scope == "play" else None
        pool = [uid for z in zones for uid in s.zones[z]
                if self._matches(s.pages[uid]["page"], effect.filter)
                and uid != playing]
        if effect.pick == "top":
            chosen = pool[:count]
        elif effect.pick == "choice" and len(pool) > count:
            return self._ask(Pending("uids", tuple(pool), count, effect),
                             Zones._picked, (effect,))
        else:
            chosen = self._pick_ids(pool, count)
        return self._picked(effect, chosen)

    def _picked(self, effect: Sayou, chosen: list, i: int = 0):
        """移動 and 複製, the pages picked: from the ``i``-th on (a page moved to 除外
        sets ページが除外された時 off, which resolves before the next one moves)."""
        s = self.state
        stack = self._stack
        n = len(chosen)
        while i < n:
            uid = chosen[i]
            i += 1
            if effect.op == "duplicate":
                self._add_page(s.pages[uid]["page"], effect.dest, effect.lifetime, like=uid)
                continue
            height = len(stack)
            self._move_page(uid, DEST_ZONE[effect.dest])
            if len(stack) > height:
                stack.insert(height, (Zones._picked, (effect, chosen, i)))
                return None
        self._reshuffle_if_empty()
        return None

    def _reveal_steps(self, effect: Sayou, frame: Frame):
        """公開: the top n pages of the draw pile, shown in order and left in that order,
        so the next draws take them as shown (spec 002 山札を見せる作用)."""
        self._draw_pile_ready(REGION_ZONES[effect.source])
        top = self.state.zones["draw"][:effect.count or 1]
        self.emit(("revealed", list(top), [self.state.pages[uid]["page"] for uid in top]))
        return None

    def _draw_pile_ready(self, zones) -> None:
        """Taking from 山札 alone when it is empty takes from the discard reshuffled, as a
        draw does: the pile is renewed the moment it is needed empty (spec 000 山札が0枚に
        なった時点で…), not only after the next draw."""
        if "draw" in zones and "discard" not in zones:
            self._reshuffle_if_empty()

    def _pick_ids(self, pool: list, count: int) -> list:
        if len(pool) <= count:
            return list(pool)
        return self.streams.effects.sample(pool, count)

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
            self.emit(("hand_full", uid))
        s.move(uid, zone, top=True)
        self.emit(("page_moved", uid, s.pages[uid]["page"], zone))
        if zone == "exile_stage":
            self._fire("on_exile")

    def _add_page(self, page_id: str, dest: str, lifetime: str, like: int | None = None):
        """A new page instance; ``like``: a 複製 carries that page's current faces (pen
        upgrades and blanked faces, DESIGN §6.1)."""
        s = self.state
        cap = self.tables.pages[page_id].deck_cap
        owned = sum(1 for p in s.pages if p["page"] == page_id and p["zone"] in
                    ("draw", "hand", "discard", "exile_stage"))
        if owned >= cap:
            self.emit(("generation_failed", page_id, cap))
            return
        zone = DEST_ZONE[dest]
        if zone == "hand" and len(s.zones["hand"]) >= s.param("hand_cap"):
            zone = "discard"
            self.emit(("hand_full/generated", page_id))
        uid = s.new_page(page_id, zone, lifetime)
        if like is not None:
            s.pages[uid]["faces"] = copy.deepcopy(s.pages[like]["faces"])
        self.emit(("page_generated", uid, page_id, zone, lifetime))

    def _shuffle(self, pile: list) -> None:
        self.streams.shuffle.shuffle(pile)

    def _draw_one(self) -> bool:
        s = self.state
        if not s.zones["draw"]:
            self._reshuffle_if_empty()
        if not s.zones["draw"]:
            self.emit(("draw_skipped", "empty"))
            return False
        uid = s.move_top("draw", "hand")
        s.count("turn", "cards_drawn", 1)
        self.emit(("drawn", uid, s.pages[uid]["page"]))
        if not s.zones["draw"]:  # the pile is renewed the moment it is empty
            self._reshuffle_if_empty()
        return True

    def _reshuffle_if_empty(self) -> None:
        """山札が0枚になった時点で、捨て札を全てシャッフルして新しい山札とする — asked
        after each draw and after whatever fills the discard (a play, a redraw, a region
        operation, the pages a stage returns): whenever the draw pile is empty and the
        discard is not, it is renewed at once (DESIGN §6.2 the draw pile at 0)."""
        s = self.state
        if s.zones["draw"] or not s.zones["discard"]:
            return
        s.move_all("discard", "draw")
        self._shuffle(s.zones["draw"])
        self.emit(("reshuffled", len(s.zones["draw"])))


#: Operation code → the steps of a region operation (the region family: they may ask the
#: player to choose). The other operations land at once (``sayou.OPS``).
REGION_STEPS = {
    "move": Zones._pick_steps,
    "generate": Zones._generate_steps,
    "duplicate": Zones._pick_steps,
    "reveal": Zones._reveal_steps,
}
REGION_OPS = frozenset(REGION_STEPS)
