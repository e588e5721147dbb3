"""方針 — the players a simulation uses: ``policy(battle, rng) -> action``.

An action is what ``Battle.legal_actions`` lists — ``("play", uid)``, ``("pen", uid,
side)``, ``("tear", uid)``, ``("end_turn",)`` — or, while a choice is pending,
``("choose", uids)``. A policy draws its randomness from ``rng`` only (the simulation's
policy stream, separate from the battle's), so that the same seed gives the same game.
"""

from __future__ import annotations

import random

from runtime.battle import SIDES, Battle, Refused


def random_policy(battle: Battle, rng: random.Random) -> tuple:
    """Uniformly among the legal actions; a choice takes a uniform sample of candidates."""
    action = rng.choice(battle.legal_actions())
    if action[0] == "choose":
        request = battle.choice
        return ("choose", rng.sample(list(request["candidates"]), request["count"]))
    return action


def act(battle, action: tuple) -> None:
    """Carry out one action a policy chose (``("choose", uids)`` answers a choice)."""
    name, *args = action
    if name == "choose":
        battle.choose(list(args[0]))
    else:
        getattr(battle, name)(*args)


def play_out(battle, policy, rng: random.Random, max_actions: int) -> int:
    """Let ``policy`` play ``battle`` (anything with the Battle's action API) until it
    is over or ``max_actions`` actions were taken; returns the number of actions."""
    actions = 0
    while not battle.over and actions < max_actions:
        act(battle, policy(battle, rng))
        actions += 1
    return actions


# ---------------------------------------------------------------- the greedy player

#: The weights of the greedy score: a page played is worth the damage it deals, plus
#: CYCLE for cycling the deck, CROSS per Intent removed while Intents remain, DEFENSE per
#: defense gained, DISTANCE per year of distance to 座 gained while attacks remain, minus
#: the HP it costs.
CYCLE, CROSS, DEFENSE, DISTANCE = 1.0, 14.0, 0.5, 0.25
#: The turn from which the pen is spent even when something is playable.
PEN_TURN = 4


def greedy_policy(battle: Battle, rng: random.Random) -> tuple:
    """One action ahead, by trying each on a copy of the battle:

    - 破る when tearing a hand page reaches the enemy's 突破ライン now (a pen first if its
      綻び is what is missing);
    - ペン once a turn: as a rescue when nothing is playable (a blank firing face), and
      from turn PEN_TURN on also without need (a blank firing face, else an upgrade);
    - プレイ the best-scoring playable page while its score is positive, and the best in
      any case when nothing was played yet this turn;
    - otherwise end the turn. A choice takes the first candidates.
    """
    if battle.choice is not None:
        return ("choose", list(battle.choice["candidates"][:battle.choice["count"]]))
    tear = _breakthrough(battle)
    if tear is not None:
        return tear
    pen = _pen(battle)
    if pen is not None:
        return pen
    options = battle.playable_uids()
    if options:
        score, best = max((_score_play(battle, uid), uid) for uid in options)
        if score > 0 or not battle.state.counter("turn", "plays"):
            return ("play", best)
    return ("end_turn",)


def clone(battle: Battle) -> Battle:
    """An independent copy for looking ahead (the tables and the placed 作用, frozen
    objects of the tables, are shared; the random streams continue identically; events are only
    counted)."""
    return Battle(battle.tables, battle.state.copy(), battle.streams.copy(), record=False)


def _answer_choices(battle: Battle) -> None:
    while battle.choice is not None and not battle.over:
        battle.choose(list(battle.choice["candidates"][:battle.choice["count"]]))


def _attacks_left(battle: Battle) -> int:
    return sum(1 for i in battle.state.enemy["turn_intents"] if i["kind"] == "attack")


def _score_play(battle: Battle, uid: int) -> float:
    s = battle.state
    stage = s.stage_index
    trial = clone(battle)
    try:
        trial.play(uid)
        _answer_choices(trial)
    except Refused:
        return float("-inf")
    t = trial.state
    if t.outcome == "won" or t.stage_index > stage:
        return 10_000.0
    if t.outcome == "lost":
        return float("-inf")
    score = s.enemy["hp"] - t.enemy["hp"] + CYCLE
    if s.enemy["turn_intents"]:
        score += CROSS * (len(s.enemy["turn_intents"]) - len(t.enemy["turn_intents"]))
    score += DEFENSE * (t.defense_total() - s.defense_total())
    if _attacks_left(trial):
        score += DISTANCE * (abs(t.age - t.enemy["seat"]) - abs(s.age - s.enemy["seat"]))
    return score - (s.hp - t.hp)


def _pens(battle: Battle) -> list[tuple[int, str, bool]]:
    """(uid, side, fills a blank firing face) for every pen the rules allow now."""
    s = battle.state
    if s.pens_used >= s.param("pen_cap"):
        return []
    found = []
    for uid in battle.hand:
        page = battle.page_of(uid)
        firing = battle.sides_for(uid)
        for side in SIDES:
            face = s.pages[uid]["faces"][side]
            restorable = face["state"] == "blank" and face["blanked"] is not None
            if not restorable and (face["penned"] or page.pens[side] is None):
                continue
            found.append((uid, side, side in firing and battle.face_body(uid, side) is None))
    return found


def _breakthrough(battle: Battle) -> tuple | None:
    s = battle.state
    if s.tears_used >= s.param("tear_cap") or not battle.hand:
        return None
    line = battle.tables.enemies[s.enemy["id"]].breakthrough
    best = max(battle.hand, key=lambda uid: battle.tear_preview(uid)["fray"])
    gain = battle.tear_preview(best)["fray"]
    if s.fray_stage + gain >= line:
        return ("tear", best)
    others = [p for p in _pens(battle) if p[0] != best]
    if others and s.fray_stage + battle.tables.balance.pen_fray + gain >= line:
        return ("pen", others[0][0], others[0][1])
    return None


def _pen(battle: Battle) -> tuple | None:
    s = battle.state
    if s.counter("turn", "pens"):
        return None  # once a turn
    options = _pens(battle)
    fills = [o for o in options if o[2]]
    if not battle.playable_any():
        return ("pen", fills[0][0], fills[0][1]) if fills else None
    if s.turn < PEN_TURN:
        return None
    playable = set(battle.playable_uids())
    upgrades = [o for o in options if not o[2] and battle.face_body(o[0], o[1]) is not None
                and o[0] in playable]
    chosen = (fills or upgrades)[:1]
    return ("pen", chosen[0][0], chosen[0][1]) if chosen else None


#: Policy name → policy, for the command line and reports.
POLICIES = {"random": random_policy, "greedy": greedy_policy}
