"""領域 — the piles a page can be in: drawing, reshuffling, moving, generating and copying pages, and the region operations (移動・生成・複製・公開).

A room of the battle: functions of the battle (its state, streams, events and the
resolution's stack), which the other rooms call directly and ``Battle``
(runtime/battle.py) shows the world as its methods.
"""

from __future__ import annotations


from contract.game import Pending
from contract.tables import Sayou

from . import board, resolution
from .sayou import DEST_ZONE, Frame, REGION_ZONES
from .state import BattleFields, State


# A region operation is a step, one method per operation (REGION_STEPS): it may ask
# the player to choose — it returns a Pending whose source is the operation itself,
# so a player (a policy) knows what its answer will do without looking into the
# resolution, and the step that takes the answer on top of the stack (``resolution.ask``).
def _generate_steps(battle: BattleFields, effect: Sayou, frame: Frame):
    """生成: new pages of the pages table matching the filter."""
    count = effect.count or 1
    pool = [p for p in sorted(battle.tables.pages) if _matches(battle, p, effect.filter)]
    if effect.pick == "choice":
        asked = _ask_or_settle(battle, "page_ids", pool, count, effect, _generated)
        if asked is not None:
            return asked
    # Each generated page is drawn from the whole pool: with replacement.
    chosen = [pool[battle.streams.effects.randrange(len(pool))] for _ in range(count)] \
        if pool else []
    return _generated(battle, effect, chosen)


def _generated(battle: BattleFields, effect: Sayou, chosen: list):
    """生成, its pages chosen (by the player or by chance)."""
    for page in chosen:
        _add_page(battle, page, effect.dest, effect.lifetime)
    reshuffle_if_empty(battle)  # a page sent to the discard renews an empty pile
    return None


def _pick_steps(battle: BattleFields, effect: Sayou, frame: Frame):
    """移動 and 複製: pages picked from the source region, moved or copied to the
    destination."""
    s: State = battle.state
    count = effect.count or 1
    # 除外（ラン） never comes back (spec 002): only stage-exiled pages can be moved out.
    zones = [z for z in REGION_ZONES[effect.source] if z != "exile_run"]
    _draw_pile_ready(battle, zones)
    # The page being played is not yet anywhere but the hand: it never moves itself.
    playing = frame.page_uid if battle.count_scope == "play" else None
    pool = [uid for z in zones for uid in s.zones[z]
            if _matches(battle, s.pages[uid].page, effect.filter)
            and uid != playing]
    if effect.pick == "top":
        chosen = pool[:count]
    else:
        if effect.pick == "choice":
            asked = _ask_or_settle(battle, "uids", pool, count, effect, _picked)
            if asked is not None:
                return asked
        chosen = _pick_ids(battle, pool, count)
    return _picked(battle, effect, chosen)


def _ask_or_settle(battle: BattleFields, kind: str, pool: list, count: int, effect: Sayou,
                   step):
    """選択 of ``count`` from ``pool``: the player is asked (the Pending ``step`` takes
    the answer of) only when there is something to choose; else the battle says why no
    choice came (choice_settled) and the operation goes on by itself (None)."""
    if len(pool) > count:
        return resolution.ask(battle, Pending(kind, tuple(pool), count, effect), step, (effect,))
    battle.emit(("choice_settled", list(pool), count))
    return None


def _picked(battle: BattleFields, effect: Sayou, chosen: list, i: int = 0):
    """移動 and 複製, the pages picked: from the ``i``-th on (a page moved to 除外
    sets ページが除外された時 off, which resolves before the next one moves)."""
    s: State = battle.state
    stack = battle._stack
    n = len(chosen)
    while i < n:
        uid = chosen[i]
        i += 1
        if effect.op == "duplicate":
            _add_page(battle, s.pages[uid].page, effect.dest, effect.lifetime, like=uid)
            continue
        height = len(stack)
        _move_page(battle, uid, DEST_ZONE[effect.dest])
        if len(stack) > height:
            stack.insert(height, (_picked, (effect, chosen, i)))
            return None
    reshuffle_if_empty(battle)
    return None


def _reveal_steps(battle: BattleFields, effect: Sayou, frame: Frame):
    """公開: the top n pages of the draw pile, shown in order and left in that order,
    so the next draws take them as shown (spec 002 山札を見せる作用)."""
    _draw_pile_ready(battle, REGION_ZONES[effect.source])
    top = battle.state.zones["draw"][:effect.count or 1]
    battle.emit(("revealed", list(top), [battle.state.pages[uid].page for uid in top]))
    return None


def _draw_pile_ready(battle: BattleFields, zones) -> None:
    """Taking from 山札 alone when it is empty takes from the discard reshuffled, as a
    draw does: the pile is renewed the moment it is needed empty (spec 000 山札が0枚に
    なった時点で…), not only after the next draw."""
    if "draw" in zones and "discard" not in zones:
        reshuffle_if_empty(battle)


def _pick_ids(battle: BattleFields, pool: list, count: int) -> list:
    if len(pool) <= count:
        return list(pool)
    return battle.streams.effects.sample(pool, count)


def _matches(battle: BattleFields, page_id: str, flt) -> bool:
    """Whether a page may be picked by a region operation's Filter (None: any)."""
    if flt is None:
        return True
    page = battle.tables.pages[page_id]
    if flt.origin is not None and page.origin != flt.origin:
        return False
    if flt.year is not None and not flt.year[0] <= page.year <= flt.year[1]:
        return False
    if flt.page is not None and page_id != flt.page:
        return False
    return True


def _move_page(battle: BattleFields, uid: int, zone: str):
    s: State = battle.state
    if zone == "hand" and len(s.zones["hand"]) >= s.param("hand_cap"):
        zone = "discard"
        battle.emit(("hand_full", uid))
    s.move(uid, zone, top=True)
    battle.emit(("page_moved", uid, s.pages[uid].page, zone))
    if zone == "exile_stage":
        board.fire(battle, "on_exile")


def _add_page(battle: BattleFields, page_id: str, dest: str, lifetime: str, like: int | None = None):
    """A new page instance; ``like``: a 複製 carries that page's current faces (pen
    upgrades and blanked faces, DESIGN §6.1)."""
    s: State = battle.state
    cap = battle.tables.pages[page_id].deck_cap
    owned = sum(1 for p in s.pages if p.page == page_id and p.zone in
                ("draw", "hand", "discard", "exile_stage"))
    if owned >= cap:
        battle.emit(("generation_failed", page_id, cap))
        return
    zone = DEST_ZONE[dest]
    if zone == "hand" and len(s.zones["hand"]) >= s.param("hand_cap"):
        zone = "discard"
        battle.emit(("hand_full/generated", page_id))
    uid = s.new_page(page_id, zone, lifetime)
    if like is not None:
        for side, face in s.pages[like].faces.items():  # frozen faces: shared
            s.set_face(uid, side, face)
    battle.emit(("page_generated", uid, page_id, zone, lifetime))


def shuffle(battle: BattleFields, pile: list) -> None:
    """Shuffle ``pile`` in place with the run's shuffle stream."""
    battle.streams.shuffle.shuffle(pile)


def draw_one(battle: BattleFields) -> bool:
    """Draw the top page of 山札 into the hand; whether a page was drawn (an empty
    pile draws none)."""
    s: State = battle.state
    if not s.zones["draw"]:
        reshuffle_if_empty(battle)
    if not s.zones["draw"]:
        battle.emit(("draw_skipped", "empty"))
        return False
    uid = s.move_top("draw", "hand")
    s.count("turn", "cards_drawn", 1)
    battle.emit(("drawn", uid, s.pages[uid].page))
    if not s.zones["draw"]:  # the pile is renewed the moment it is empty
        reshuffle_if_empty(battle)
    return True


def reshuffle_if_empty(battle: BattleFields) -> None:
    """山札が0枚になった時点で、捨て札を全てシャッフルして新しい山札とする — asked
    after each draw and after whatever fills the discard (a play, a redraw, a region
    operation, the pages a stage returns): whenever the draw pile is empty and the
    discard is not, it is renewed at once (DESIGN §6.2 the draw pile at 0)."""
    s: State = battle.state
    if s.zones["draw"] or not s.zones["discard"]:
        return
    s.move_all("discard", "draw")
    shuffle(battle, s.zones["draw"])
    battle.emit(("reshuffled", len(s.zones["draw"])))


#: Operation code → the steps of a region operation (the region family: they may ask the
#: player to choose). The other operations land at once (``sayou.OPS``).
REGION_STEPS = {
    "move": _pick_steps,
    "generate": _generate_steps,
    "duplicate": _pick_steps,
    "reveal": _reveal_steps,
}
REGION_OPS = frozenset(REGION_STEPS)
