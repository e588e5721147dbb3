"""模擬戦 — ``simulate``: seeded battles under a policy, and what came of each.

Each seed is one battle, independent of the others: the battle's own random streams
(runtime/streams.py) are seeded with the seed, the policy's RNG with a stream derived
from it, so that the same seed gives
the same battle whatever else is simulated and in whatever order (a simulation split
over workers gives the same results). Battles only count their events (``record=False``):
a simulation needs outcomes, not prose.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable

from contract.game import Pen, Play, Tear
from runtime.battle import Battle
from runtime.tables import Tables

from .policies import WITHOUT_RNG

#: A battle still running after this many turns is a draw.
TURN_CAP = 60
#: Actions a policy may take in one battle before it is called a draw (a policy that
#: never ends its turn must not hang a simulation).
ACTION_CAP = 5_000


@dataclass(frozen=True)
class BattleResult:
    """What came of one simulated battle. Per page id: ``plays``, the ``damage`` its
    作用 dealt (on its own plays or later, as continuing ones), the 歩 its plays used
    (``steps``), and its ``pens`` and ``tears``; ``first_drawn``, when a copy of it was
    first seen in the hand (``hand_seen``) and ``held_unplayable``, the turns it sat in
    the hand unplayable (``HandWatch``).
    ``hp_lost`` is 減ったHP[ラン]; ``turns`` the turns played over all stages."""

    seed: int
    result: str  # "won" | "lost" | "draw"
    turns: int
    actions: int
    hp_lost: int
    stages_cleared: int
    plays: dict = field(default_factory=dict)
    damage: dict = field(default_factory=dict)
    steps: dict = field(default_factory=dict)
    pens: dict = field(default_factory=dict)
    tears: dict = field(default_factory=dict)
    #: all damage dealt, the pages' actions and what fired on its own (an enemy phase's
    #: counter-attack, a stage-start effect)
    damage_total: int = 0
    events: int = 0
    #: how the last stage was won: "hp" (敵HP 0) or "breakthrough" (突破ライン); None
    #: unless won
    won_by: str | None = None
    #: the stages won by 突破ライン (of ``stages_cleared``)
    breakthroughs: int = 0
    #: page id → 0 when a copy was in the opening hand, else the turn one was first seen
    #: in the hand; a page never seen there is absent
    first_drawn: dict = field(default_factory=dict)
    #: page id → the turns at whose start a copy was in the hand and none was playable
    held_unplayable: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Plain values, for JSON reports."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


#: The actions on a page a result counts, by page: action class → its tally.
TALLIED = {Play: "plays", Pen: "pens", Tear: "tears"}
#: A result's tallies by page, in BattleResult's order.
TALLIES = ("plays", "damage", "steps", "pens", "tears")


class HandWatch:
    """What the hand held, seen through the battle's public interface at each decision
    (before each action): when each page was first seen there, and at each turn's first
    decision, which pages sat there with no copy playable.

    A page is "drawn" when it is seen in the hand at a decision: one drawn and gone
    within a single action (drawn and discarded by the same effect, or drawn by the
    battle's last action) is not seen. The opening hand is the hand at the first
    decision (turn 1, before any action), recorded as turn 0.

    ``pages``: the page ids watched (None: every page) — the lab keeps one page's figures
    of a battle, and a turn whose hand holds no watched page asks nothing more of it
    (which pages are playable is the dearest question a decision asks)."""

    def __init__(self, pages: frozenset | None = None) -> None:
        self.first_drawn: dict[str, int] = {}
        self.held_unplayable: Counter = Counter()
        self.pages = pages
        self._seen: set[int] = set()
        self._watched: set[int] = set()  # the uids seen of the pages watched
        self._turn: int | None = None
        self._all_drawn = False  # every page watched drawn (never, watching every page)

    def look(self, battle: Battle) -> None:
        """Note the hand now (call before each action)."""
        if self.pages is not None and not self.pages:
            return
        turn = battle.state.turns_run
        if turn == self._turn and self._all_drawn:
            # Mid-turn, every page watched drawn already: only a turn's first decision
            # has anything left to note (a uid seen now is taken then, as new).
            return
        opening = self._turn is None
        hand = battle.hand
        seen = self._seen
        if not seen.issuperset(hand):  # most decisions: a hand seen before
            pages = self.pages
            for uid in hand:
                if uid not in seen:
                    seen.add(uid)
                    page = battle.page_id(uid)
                    if pages is None or page in pages:
                        self._watched.add(uid)
                        self.first_drawn.setdefault(page, 0 if opening else turn)
            self._all_drawn = pages is not None and len(self.first_drawn) == len(pages)
        if turn != self._turn:  # a turn's first decision
            self._turn = turn
            watched = [uid for uid in hand if uid in self._watched]
            if not watched:
                return
            page_id = battle.page_id
            playable = set(map(page_id, battle.playable_uids(watched)))
            for page in set(map(page_id, watched)) - playable:
                self.held_unplayable[page] += 1


def policy_rng(seed: int) -> random.Random:
    """The policy's own stream for a seed (the battle's are ``Streams.seeded(seed)``)."""
    return random.Random(seed * 7919 + 1)


def simulate(tables: Tables, deck: list[str] | None, enemies: list[str],
             policy: Callable, seeds: Iterable[int], turn_cap: int = TURN_CAP
             ) -> list[BattleResult]:
    """Play one battle per seed — ``deck`` (None: the starting deck) against the stages
    ``enemies`` — under ``policy``; the results in the order of ``seeds``."""
    return [play_one(tables, deck, enemies, policy, seed, turn_cap) for seed in seeds]


def play_one(tables: Tables, deck, enemies, policy, seed: int, turn_cap: int,
             watched: frozenset | None = None) -> BattleResult:
    """One seeded battle to its end, the turn cap or the action cap. Of the pages
    ``watched`` only (None: every page) are the figures by page kept: plays, damage, 歩,
    pens and tears, ``first_drawn`` and ``held_unplayable`` (HandWatch) — the lab keeps one
    page's, and keeping every page's cost up to a fifth of a short battle. The policy is
    asked ``policy(battle, rng)`` with its own stream (``policy_rng``), or None for the
    players that never draw from one (sim.policies.WITHOUT_RNG)."""
    battle = Battle.new(tables, seed=seed, enemies=list(enemies), deck=deck, record=False)
    rng = None if policy in WITHOUT_RNG else policy_rng(seed)
    s = battle.state
    tally: dict[str, dict] = {name: {} for name in TALLIES}
    actions = 0
    watch = HandWatch(watched)
    blind = watched is not None and not watched  # nothing by page to keep
    while not battle.over and s.turns_run <= turn_cap and actions < ACTION_CAP:
        watch.look(battle)
        action = policy(battle, rng)
        tallied = TALLIED.get(type(action))
        # An end of turn, a choice, an action on a page not watched: nothing to count.
        page = None if tallied is None or blind else battle.page_id(action.uid)
        if page is None or (watched is not None and page not in watched):
            battle.apply(action)
            actions += 1
            continue
        used = s.counter("run", "steps_used")
        battle.apply(action)
        actions += 1
        for name, amount in ((tallied, 1), ("damage", 0),
                             ("steps", s.counter("run", "steps_used") - used)):
            counts = tally[name]
            counts[page] = counts.get(page, 0) + amount
    if not blind:
        # Damage is its page's wherever it was dealt (Battle.dealt_by_page): a continuing
        # 作用 that hits on later plays or at a turn's end counts for the page that set it.
        damage = tally["damage"]
        for page, dealt in battle.dealt_by_page().items():
            if watched is None or page in watched:
                damage[page] = damage.get(page, 0) + dealt
    result = s.outcome or "draw"
    # A battle stopped at the turn cap has begun the turn after it, and played none of it.
    turns = turn_cap if result == "draw" and s.turns_run > turn_cap else s.turns_run
    return BattleResult(
        seed=seed, result=result, turns=turns, actions=actions,
        hp_lost=s.counter("run", "hp_lost"),
        stages_cleared=s.stage_index + (1 if result == "won" else 0),
        **{name: dict(sorted(counts.items())) for name, counts in tally.items()},
        damage_total=s.counter("run", "damage_dealt"), events=battle.event_count,
        won_by=(None if result != "won" else "hp" if battle.enemy_hp <= 0 else "breakthrough"),
        breakthroughs=battle.stages_won_by().count("breakthrough"),
        first_drawn=dict(sorted(watch.first_drawn.items())),
        held_unplayable=dict(sorted(watch.held_unplayable.items())))
