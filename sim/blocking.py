"""出せなさの測定 — how often a page can be played when it is in the hand, and what stops it.

The static check (analysis/faces.py, W008) says which faces can never be played; a face
that can but rarely is (初恋: a crossing earlier in the same turn, and 刻 ≤ 17) shows only in
battles. ``measure`` plays seeded battles of the starting deck plus one copy of the page,
each against the bundled enemies in turn (seed i meets the i-th enemy in id order, as the
lab's pairs do, sim/lab.py), under a policy (random by default: it plays whatever it can,
so a face it never plays is one the hand rarely allows). At each decision where the page
is in the hand (a player choice under way is not a decision) it notes whether a copy is
playable, and when none is, why: each of the firing face's play conditions that fails,
tested by the runtime's own compiled tests (runtime/sayou.py ``condition_test``), else
the runtime's reason (歩 short, a blank face, a wall, the blockade). Per side it notes how
often that side was the one to fire and how often its conditions held.

Deterministic: the same tables, page, seeds and policy give the same figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from contract.conditions import said
from contract.game import Play
from contract.vocabulary import W
from runtime.battle import Battle
from runtime.sayou import Frame, condition_test
from runtime.state import SIDE_WORDS

from .policies import POLICIES
from .simulate import ACTION_CAP, TURN_CAP, policy_rng

#: Battles a measurement plays unless told.
BATTLES = 200


@dataclass
class Blocking:
    """What the battles showed of one page: battles, plays, decisions with it in the hand,
    those where it was playable, the blockers (a condition's text — ``未来面: 跨いだ回数
    [ターン] >= 1`` — or the runtime's reason) counted once per unplayable decision, and
    per side: decisions where it was the side to fire, those where it was blank, and those
    where it was written and its conditions held."""

    page: str
    battles: int = 0
    plays: int = 0
    decisions: int = 0
    playable: int = 0
    blockers: Counter = field(default_factory=Counter)
    sides: Counter = field(default_factory=Counter)
    sides_held: Counter = field(default_factory=Counter)
    sides_blank: Counter = field(default_factory=Counter)

    @property
    def plays_per_battle(self) -> float:
        """How many times the page was played, per battle."""
        return self.plays / self.battles if self.battles else 0.0

    @property
    def playable_share(self) -> float:
        """The share of decisions with the page in the hand where it was playable."""
        return self.playable / self.decisions if self.decisions else 0.0

    def side_share(self, side: str) -> float:
        """The share of decisions with ``side`` to fire and written where its conditions
        held (a blank face has none to hold: ``sides_blank`` counts those apart)."""
        written = self.sides[side] - self.sides_blank[side]
        return self.sides_held[side] / written if written else 0.0

    def top_blocker(self) -> tuple[str, float] | None:
        """The blocker met most often and the share of unplayable decisions it blocked
        (ties: the first in text order), or None when nothing ever blocked the page."""
        blocked = self.decisions - self.playable
        if not self.blockers or not blocked:
            return None
        text, count = min(self.blockers.items(), key=lambda item: (-item[1], item[0]))
        return text, count / blocked

    def to_dict(self) -> dict:
        """The figures as plain data (JSON-ready), the shares rounded to 4 places."""
        top = self.top_blocker()
        return {"page": self.page, "battles": self.battles, "plays": self.plays,
                "plays_per_battle": round(self.plays_per_battle, 4),
                "decisions": self.decisions, "playable": self.playable,
                "playable_share": round(self.playable_share, 4),
                "top_blocker": None if top is None else {"blocker": top[0],
                                                         "share": round(top[1], 4)},
                "blockers": dict(sorted(self.blockers.items())),
                "sides": {side: {"decisions": self.sides[side], "held": self.sides_held[side],
                                 "blank": self.sides_blank[side],
                                 "share": round(self.side_share(side), 4)}
                          for side in sorted(self.sides)}}


def measure(tables, page: str, seeds=range(BATTLES), policy: str = "random",
            turn_cap: int = TURN_CAP) -> Blocking:
    """Play one battle per seed and note the page's playability at each decision.
    Errors: KeyError for a page, or a policy, the tables / the lab do not have."""
    if page not in tables.pages:
        raise KeyError(page)
    choose = POLICIES[policy]
    enemies = sorted(tables.enemies)
    deck = [*tables.starter(), page]
    found = Blocking(page)
    for i, seed in enumerate(seeds):
        battle = Battle.new(tables, seed=seed, enemies=[enemies[i % len(enemies)]], deck=deck,
                            record=False)
        _play(battle, page, choose, policy_rng(seed), turn_cap, found)
        found.battles += 1
    return found


def _play(battle, page: str, choose, rng, turn_cap: int, found: Blocking) -> None:
    s = battle.state
    actions = 0
    while not battle.over and s.turns_run <= turn_cap and actions < ACTION_CAP:
        if battle.pending is None:
            _look(battle, page, found)
        action = choose(battle, rng)
        if isinstance(action, Play) and battle.page_id(action.uid) == page:
            found.plays += 1
        battle.apply(action)
        actions += 1


def _look(battle, page: str, found: Blocking) -> None:
    copies = [uid for uid in battle.hand if battle.page_id(uid) == page]
    if not copies:
        return
    found.decisions += 1
    playable = set(battle.playable_uids())
    blockers: set[str] = set()
    noted: set[str] = set()
    for uid in copies:
        info = battle.play_info(uid)
        failed = _failed(battle, uid, info, found, noted)
        if uid in playable:
            continue
        blockers.update(failed or [_reason(info["reason"])])
    if playable & set(copies):
        found.playable += 1
    else:
        found.blockers.update(blockers)


def _failed(battle, uid: int, info: dict, found: Blocking, noted: set) -> list[str]:
    """Why the faces to fire do not fire now: each failing condition, as ``side:
    condition``, and each blank face, with where 刻 stands against 銘 (``過去面が白紙（刻 >
    銘 17）``); each side noted once per decision."""
    year, age = info["year"], battle.state.age
    frame = Frame(uid, abs(year - age), info["crosses"])
    relation = "<" if year > age else ">" if year < age else "="
    failed = []
    for side in info["sides"]:
        body = battle.face_body(uid, side)
        if body is None:
            # still the side to fire: counted, as blank (it stopped every such decision)
            if side not in noted:
                noted.add(side)
                found.sides[side] += 1
                found.sides_blank[side] += 1
            failed.append(f"{SIDE_WORDS[side]}が白紙（{W.variable.age} {relation} {W.variable.year} {year}）")
            continue
        bad = [cond for cond in body.conditions
               if not condition_test(battle.tables, cond)(battle, frame)]
        if side not in noted:
            noted.add(side)
            found.sides[side] += 1
            found.sides_held[side] += not bad
        failed += [f"{SIDE_WORDS[side]}: {said(cond)}" for cond in bad]
    return failed


def _reason(reason: str) -> str:
    """The runtime's reason without its figures (歩が足りない: 残り 3, 必要 5 → 歩が足りない)."""
    return reason.split(":")[0].strip() or "不明"
