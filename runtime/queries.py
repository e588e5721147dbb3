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

from .state import SIDES


class Queries:
    """Battle mixin: one fact of the battle per method (see the module docstring)."""

    # ------------------------------------------------------------ page instances
    def page_id(self, uid: int) -> str:
        """The page id of page instance ``uid``."""
        return self.state.pages[uid]["page"]

    def face(self, uid: int, side: str) -> dict:
        """Face ``side`` of page instance ``uid`` as it stands (a copy): ``state`` (dealt,
        pen, blank), ``blanked`` (what a 白紙化 took, or None), ``penned``."""
        return dict(self.state.pages[uid]["faces"][side])

    def instance(self, uid: int) -> dict:
        """Page instance ``uid`` as data: its page id, lifetime and both faces (copies)."""
        instance = self.state.pages[uid]
        return {"page": instance["page"], "lifetime": instance["lifetime"],
                "faces": {side: dict(instance["faces"][side]) for side in SIDES}}

    # ------------------------------------------------------------------- zones
    def zone(self, zone: str) -> list[int]:
        """The uids zone ``zone`` holds, in its order (a copy)."""
        return list(self.state.zones[zone])

    def zone_size(self, zone: str) -> int:
        """How many pages zone ``zone`` holds."""
        return len(self.state.zones[zone])

    def first_of(self, page_id: str, zones) -> int | None:
        """The first instance of page ``page_id`` in ``zones`` (searched in that order,
        each front to back), or None."""
        s = self.state
        for zone in zones:
            for uid in s.zones[zone]:
                if s.pages[uid]["page"] == page_id:
                    return uid
        return None

    # ------------------------------------------------------------------- enemy
    @property
    def enemy_id(self) -> str:
        """The id of the enemy of this stage."""
        return self.state.enemy["id"]

    @property
    def enemy_hp(self) -> int:
        """The enemy's HP now."""
        return self.state.enemy["hp"]

    @property
    def seat(self) -> int:
        """座: where the enemy sits on the number line."""
        return self.state.enemy["seat"]

    def intents(self) -> list[dict]:
        """This turn's Intents (予兆) still to come, in order (copies)."""
        return [dict(intent) for intent in self.state.enemy["turn_intents"]]

    def intent_count(self, kind: str | None = None) -> int:
        """How many of this turn's Intents are still to come (of ``kind`` only, if given)."""
        intents = self.state.enemy["turn_intents"]
        if kind is None:
            return len(intents)
        return sum(1 for intent in intents if intent["kind"] == kind)

    # ------------------------------------------------------------------- board
    def placed(self) -> list[dict]:
        """The 作用 placed on the board, in order, each a copy of its record: ``effect``
        (the contract Sayou), ``origin``, ``page_uid``, ``scale``, ``fires``, ``placed``
        (the plays and turns when it was placed) and a ``telegraph`` when it has one."""
        return [dict(placed) for placed in self.state.effects]

    def mods(self) -> list[dict]:
        """The lifetime-bound values in force (a parameter raised, a flag, an assigned
        銘), each a copy: ``kind``, ``key``, ``value``, ``lifetime``."""
        return [dict(mod) for mod in self.state.mods]

    def lasting_defense(self) -> int:
        """防御 that outlives this turn (every lifetime but the turn's)."""
        return sum(v for v, expiry in self.state.defense if expiry != "turn")

    # -------------------------------------------- copies and developer changes
    def probe(self) -> "Queries":
        """A recording copy of the state and streams as they stand, with no pending
        choice carried over (a choice waits in a resolution that cannot be copied):
        where a preview plays an action out to read its events."""
        return type(self)(self.tables, self.state.copy(), self.streams.copy(), record=True)

    def shuffle_draw(self, rng) -> None:
        """Changes this battle: its draw pile sorted, then shuffled by ``rng`` — a
        search's copy, holding a pile the player could imagine rather than the real
        order."""
        pile = self.state.zones["draw"]
        pile.sort()
        rng.shuffle(pile)

    def dev_into_hand(self, page_id: str) -> None:
        """Changes this battle (developer mode): page ``page_id`` straight to the front of
        the hand — from the draw pile or the discard if it is there, else a new copy; the
        hand keeps its cap by returning its last page to the top of the draw pile."""
        state = self.state
        found = self.first_of(page_id, ("draw", "discard"))
        if found is None:
            found = state.new_page(page_id, "draw")
        state.move(found, "hand")
        hand = state.zones["hand"]
        hand.insert(0, hand.pop())
        if len(hand) > state.param("hand_cap"):
            state.move(hand[-1], "draw", top=True)
