"""問い合わせ — the small reads of a battle its consumers make per decision: the screen,
the scenario runner, the recorder and the simulation's players.

``view()`` and ``information()`` (runtime/view.py) give the whole table as plain data;
these give one fact each, cheaply, so that a player deciding an action — thousands of
times in a lab run — never builds the whole view, and never reads the state's own dicts
(which the rules may reshape). What they return is a copy or a plain value: changing it
changes nothing in the battle. The few that change the battle say so (a search's
imagined draw pile, the developer's page into the hand).
"""

from __future__ import annotations

from .state import SIDES, BattleFields, State


# ------------------------------------------------------------ page instances
def page_id(battle: BattleFields, uid: int) -> str:
    """The page id of page instance ``uid``."""
    return battle.state.pages[uid].page


def face(battle: BattleFields, uid: int, side: str) -> dict:
    """Face ``side`` of page instance ``uid`` as it stands (a copy): ``state`` (dealt,
    pen, blank), ``blanked`` (what a 白紙化 took, or None), ``penned``."""
    return battle.state.pages[uid].faces[side].literal()


def instance(battle: BattleFields, uid: int) -> dict:
    """Page instance ``uid`` as data: its page id, lifetime and both faces (copies)."""
    instance = battle.state.pages[uid]
    return {"page": instance.page, "lifetime": instance.lifetime,
            "faces": {side: instance.faces[side].literal() for side in SIDES}}


# ------------------------------------------------------------------- zones
def zone(battle: BattleFields, zone: str) -> list[int]:
    """The uids zone ``zone`` holds, in its order (a copy)."""
    return list(battle.state.zones[zone])


def zone_size(battle: BattleFields, zone: str) -> int:
    """How many pages zone ``zone`` holds."""
    return len(battle.state.zones[zone])


def first_of(battle: BattleFields, page_id: str, zones) -> int | None:
    """The first instance of page ``page_id`` in ``zones`` (searched in that order,
    each front to back), or None."""
    s: State = battle.state
    for zone in zones:
        for uid in s.zones[zone]:
            if s.pages[uid].page == page_id:
                return uid
    return None


# ------------------------------------------------------------------- enemy
def enemy_id(battle: BattleFields) -> str:
    """The id of the enemy of this stage."""
    return battle.state.enemy["id"]


def enemy_hp(battle: BattleFields) -> int:
    """The enemy's HP now."""
    return battle.state.enemy["hp"]


def seat(battle: BattleFields) -> int:
    """座: where the enemy sits on the number line."""
    return battle.state.enemy["seat"]


def intents(battle: BattleFields) -> list[dict]:
    """This turn's Intents (予兆) still to come, in order (copies)."""
    return [dict(intent) for intent in battle.state.enemy["turn_intents"]]


def intent_count(battle: BattleFields, kind: str | None = None) -> int:
    """How many of this turn's Intents are still to come (of ``kind`` only, if given)."""
    intents = battle.state.enemy["turn_intents"]
    if kind is None:
        return len(intents)
    count = 0
    for intent in intents:  # a loop: the greedy player asks of every page it tries
        if intent["kind"] == kind:
            count += 1
    return count


# ------------------------------------------------------------------- board
def placed(battle: BattleFields) -> list[dict]:
    """The 作用 placed on the board, in order, each a copy of its record: ``effect``
    (the contract Sayou), ``origin``, ``page_uid``, ``scale``, ``fires``, ``placed``
    (the plays and turns when it was placed) and a ``telegraph`` when it has one."""
    return [placed.literal(_same) for placed in battle.state.effects]


def _same(effect):
    """The 作用 itself (a frozen object of the tables: shared, not copied)."""
    return effect


def mods(battle: BattleFields) -> list[dict]:
    """The lifetime-bound values in force (a parameter raised, a flag, an assigned
    銘), each a copy: ``kind``, ``key``, ``value``, ``lifetime``."""
    return [dict(mod) for mod in battle.state.mods]


def lasting_defense(battle: BattleFields) -> int:
    """防御 that outlives this turn (every lifetime but the turn's)."""
    return sum(v for v, expiry in battle.state.defense if expiry != "turn")


def dealt_by_page(battle: BattleFields) -> dict[str, int]:
    """与えたダメージ by page id since this battle was made (or loaded), each page's 作用
    wherever they hit — a continuing one on a later play or at a turn's end counts for
    the page that set it, not for the play it fired on. What no page dealt (an enemy's
    trait, a reward) is in none (与えたダメージ[ラン] less the sum)."""
    pages = battle.state.pages
    out: dict[str, int] = {}
    for uid, dealt in battle.dealt_by.items():
        page = pages[uid].page
        out[page] = out.get(page, 0) + dealt
    return out


# -------------------------------------------- copies and developer changes
def probe(battle: BattleFields):
    """A recording copy of the state and streams as they stand, without the
    resolution under way (a pending choice is dropped, unlike ``Battle.copy``): where
    a preview plays an action out to read its events — what a play would do once the
    choice is made."""
    return type(battle)(battle.tables, battle.state.copy(), battle.streams.copy(), record=True)


def shuffle_draw(battle: BattleFields, rng) -> None:
    """Changes this battle: its draw pile sorted, then shuffled by ``rng`` — a
    search's copy, holding a pile the player could imagine rather than the real
    order."""
    pile = battle.state.zones["draw"]
    pile.sort()
    rng.shuffle(pile)


def dev_into_hand(battle: BattleFields, page_id: str) -> None:
    """Changes this battle (developer mode): page ``page_id`` straight to the front of
    the hand — from the draw pile or the discard if it is there, else a new copy; the
    hand keeps its cap by returning its last page to the top of the draw pile."""
    state = battle.state
    found = first_of(battle, page_id, ("draw", "discard"))
    if found is None:
        found = state.new_page(page_id, "draw")
    state.move(found, "hand")
    hand = state.zones["hand"]
    hand.insert(0, hand.pop())
    if len(hand) > state.param("hand_cap"):
        state.move(hand[-1], "draw", top=True)
