"""方針 — the players a simulation uses: ``policy(battle, rng) -> action``.

An action is a value of ``contract.game`` — one of what ``Battle.actions()`` lists:
``Play(uid)``, ``Pen(uid, side)``, ``Tear(uid)``, ``EndTurn()``, or, while a choice is
pending, ``Choose(uids)`` — and the battle's ``apply`` carries it out. A policy asks
only the battle's public interface (``pending`` says what a choice is for; ``copy`` looks
ahead, a pending choice included). A policy draws its randomness from ``rng`` only (the
simulation's policy stream, separate from the battle's), so that the same seed gives the
same game.

The players are a ladder of skill: ``random_policy`` < ``greedy_policy`` (one action
ahead) < ``search_policy`` (探索: every action played out a turn and more ahead, on
copies that know no more than the player does).
"""

from __future__ import annotations

import functools
import itertools
import random

from contract.game import Choose, EndTurn, Pen, Play, Tear
from runtime.battle import SIDES, Battle, Refused
from runtime.streams import Streams

END_TURN = EndTurn()
#: The Play of each uid, made once (a frozen value costs more to make than to find):
#: the greedy player tries every playable page at every decision.
_PLAY = functools.cache(Play)


def random_policy(battle: Battle, rng: random.Random):
    """Uniformly among the legal actions (a pending choice: among its answers)."""
    return rng.choice(battle.actions())


def act(battle, action) -> None:
    """Carry out one action a policy chose: ``battle.apply(action)``."""
    battle.apply(action)


def play_out(battle, policy, rng: random.Random, max_actions: int) -> int:
    """Let ``policy`` play ``battle`` (anything with the Battle's action API) until it
    is over or ``max_actions`` actions were taken; returns the number of actions."""
    actions = 0
    apply = battle.apply
    while not battle.over and actions < max_actions:
        apply(policy(battle, rng))
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


def greedy_policy(battle: Battle, rng: random.Random):
    """One action ahead, by trying each on a copy of the battle:

    - 破る when tearing a hand page reaches the enemy's 突破ライン now (a pen first if its
      綻び is what is missing);
    - ペン once a turn: as a rescue when nothing is playable (a blank firing face), and
      from turn PEN_TURN on also without need (a blank firing face, else an upgrade);
    - プレイ the best-scoring playable page while its score is positive, and the best in
      any case when nothing was played yet this turn;
    - otherwise end the turn. A choice takes the first candidates.
    """
    if battle.pending is not None:
        return _first_answer(battle.pending)
    tear = _breakthrough(battle)
    if tear is not None:
        return tear
    options = battle.playable_uids()
    pen = _pen(battle, options)
    if pen is not None:
        return pen
    if options:
        first = not battle.state.counter("turn", "plays")
        if first and len(options) == 1:
            return Play(options[0])  # played whatever it scores: no trial needed
        trials = {}
        score, best = max(zip(_scores(battle, options, trials), options))
        if score > 0 or first:
            action = _PLAY(best)
            trial = trials.get(best)
            if trial is not None:
                battle.foresee(action, trial)
            return action
    return END_TURN


def _first_answer(pending) -> Choose:
    """The answer of the first candidates."""
    return Choose(pending.candidates[:pending.count])


def _answer_choices(battle: Battle) -> None:
    while battle.pending is not None and not battle.over:
        battle.apply(_first_answer(battle.pending))


def _attacks_left(battle: Battle) -> int:
    return battle.intent_count("attack")


def _scores(battle: Battle, uids: list[int], trials: dict | None = None) -> list[float]:
    """The greedy score of playing each of ``uids``, each tried on a copy (see CYCLE)."""
    s = battle.state
    # What the position is before any play, read once for all the pages tried.
    before = (s.stage_index, battle.enemy_hp, battle.intent_count(), s.defense_total(),
              abs(s.age - battle.seat), s.hp)
    return [_score_play(battle, uid, before, trials) for uid in uids]


def _score_play(battle: Battle, uid: int, before: tuple, trials: dict | None = None) -> float:
    stage, enemy_hp, intents, defense, distance, hp = before
    trial = battle.copy()
    try:
        trial.apply(_PLAY(uid))
        if trials is not None and trial.pending is None:
            trials[uid] = trial
        _answer_choices(trial)
    except Refused:
        return float("-inf")
    t = trial.state
    if t.outcome == "won" or t.stage_index > stage:
        return 10_000.0
    if t.outcome == "lost":
        return float("-inf")
    score = enemy_hp - trial.enemy_hp + CYCLE
    if intents:
        score += CROSS * (intents - trial.intent_count())
    score += DEFENSE * (t.defense_total() - defense)
    if _attacks_left(trial):
        score += DISTANCE * (abs(t.age - trial.seat) - distance)
    return score - (hp - t.hp)


def _pens(battle: Battle) -> list[tuple[int, str, bool]]:
    """(uid, side, fills a blank firing face) for every pen the rules allow now."""
    s = battle.state
    if s.pens_used >= s.param("pen_cap"):
        return []
    found = []
    for uid in battle.hand:
        page = battle.page_of(uid)
        firing = None  # asked only of a page a pen can write (the greedy player asks often)
        for side in SIDES:
            face = battle.face(uid, side)
            restorable = face["state"] == "blank" and face["blanked"] is not None
            if not restorable and (face["penned"] or page.pens[side] is None):
                continue
            if firing is None:
                firing = battle.sides_for(uid)
            found.append((uid, side, side in firing and battle.face_body(uid, side) is None))
    return found


def _breakthrough(battle: Battle):
    s = battle.state
    hand = battle.hand
    if s.tears_used >= s.param("tear_cap") or not hand:
        return None
    line = battle.tables.enemies[battle.enemy_id].breakthrough
    frays = _tear_frays(battle, hand,
                        line - s.fray_stage - max(0, battle.tables.balance.pen_fray))
    if frays is None:
        return None
    gain = max(frays)
    best = hand[frays.index(gain)]  # the first of most 綻び
    if s.fray_stage + gain >= line:
        return Tear(best)
    others = [p for p in _pens(battle) if p[0] != best]
    if others and s.fray_stage + battle.tables.balance.pen_fray + gain >= line:
        return Pen(others[0][0], others[0][1])
    return None


def _tear_frays(battle: Battle, hand: list[int], need) -> list | None:
    """The 綻び of each ``hand`` page's tear (``tear_fray``) as far as a breakthrough
    needs it — the tear or a pen is chosen only when some tear gives ``need`` 綻び — or
    None when none can. Told without asking every page (a tear reaches the line about
    never, and the greedy player asks at every decision): with no 綻び倍率 on the
    board, a tear's 綻び is at most its distance × the page's 綻び倍率
    (``tear_reaches``; ``tear_fray``: that, clamped and truncated), and that at most
    what the tables' farthest page gives at this 刻 (``tear_reach_bound``). A page
    short of ``need`` is not asked: it counts -1, which changes neither whether a tear or
    pen is chosen nor which (its own 綻び is below ``need`` too). Every page is asked when that
    cannot tell (modifiers, or a need of 0 or less)."""
    if need <= 0 or battle.board_index().modifiers.get("fray"):
        return [battle.tear_fray(uid) for uid in hand]
    if battle.tear_reach_bound() < need:  # no page of the tables reaches it at this 刻
        return None
    reaches = battle.tear_reaches()
    if max(reaches) < need:
        return None
    return [battle.tear_fray(uid) if reach >= need else -1
            for uid, reach in zip(hand, reaches)]


def _pen(battle: Battle, playable: list[int]):
    """``playable``: the playable hand pages (``battle.playable_uids()``)."""
    s = battle.state
    if s.counter("turn", "pens"):
        return None  # once a turn
    playable_any = bool(playable)
    if playable_any and s.turn < PEN_TURN:
        return None  # no rescue needed, and too early for an upgrade
    options = _pens(battle)
    fills = [o for o in options if o[2]]
    if not playable_any:
        return Pen(fills[0][0], fills[0][1]) if fills else None
    upgrades = [o for o in options if not o[2] and battle.face_body(o[0], o[1]) is not None
                and o[0] in playable]
    chosen = (fills or upgrades)[:1]
    return Pen(chosen[0][0], chosen[0][1]) if chosen else None


# ---------------------------------------------------------------- the searching player
#
# 探索 looks ahead by playing each candidate action out on copies of the battle. A copy
# knows what the player cannot (the order of 山札, what the random streams will give), so
# every copy is first *determinized*: its draw pile reshuffled and its streams reseeded
# from the policy's own rng. The search then decides on guesses a player could make, and
# the same rng state gives the same decision whatever the real pile and streams hold.

#: Determinized worlds per decision. Every candidate is played out in the same worlds
#: (common random numbers), so candidates differ by their action, not by their luck.
WORLDS = 1
#: Whole turns a rollout plays after the current one; 0: the rest of this turn (by the
#: greedy player) and the enemy's action. One more turn shows what a move sets up (a
#: page played now to stand where the next turn's pages hit hardest).
HORIZON = 1
#: Tears tried per decision, the ones of most 綻び (a tear is once a stage: the others
#: are the same move for less).
TEAR_CANDIDATES = 2
#: Answers tried for a pending choice (sampled from at most CHOICE_SCAN of them).
CHOICE_CANDIDATES, CHOICE_SCAN = 6, 200
#: Actions a rollout may take before it is scored anyway (a rollout never hangs).
ROLLOUT_ACTIONS = 60

#: The evaluation of a rolled-out copy, in HP. A won stage is WIN (plus the HP kept), a
#: lost run LOSS. Otherwise: HP, minus ENEMY per 敵HP left (more than 1: the player has
#: more HP than the enemy, and an enemy dead sooner hits fewer times), plus FRAY per year
#: of stage 綻び, LASTING per point of defense that outlives the turn, FACE per written
#: face in the deck (白紙化 takes faces for good: without this the search lets the
#: enemy blank the deck until nothing is playable), PEN_LEFT for the stage's pen unused.
#: A tear still unused is worth FRAY × TEAR_KEPT × the most 綻び one tear of the deck
#: could give (``_tear_potential``), and OPEN more while that tear, the pen and the 綻び
#: so far still reach the 突破ライン: without these the search spends the stage's one tear
#: at once for a little 綻び and loses the breakthrough (against shimekiri's 400 HP, the
#: only way through).
WIN, LOSS = 10_000.0, -10_000.0
ENEMY, FRAY, LASTING, FACE, PEN_LEFT = 1.5, 0.5, 0.5, 8.0, 5.0
TEAR_KEPT, OPEN = 0.7, 100.0


def search_policy(battle: Battle, rng: random.Random):
    """探索 — each candidate action played out on determinized copies, the best on average.

    The candidates are the legal actions (pages alike in id and faces tried once, the
    TEAR_CANDIDATES tears of most 綻び); a pending choice tries up to CHOICE_CANDIDATES
    answers. Each is played in WORLDS copies whose 山札 order and random streams are
    drawn from ``rng`` — never the real ones, which the player does not know — then the
    greedy player finishes the turn and HORIZON more, the enemy acting at each end, and
    ``_evaluation`` scores the copy after each of those turns (see WIN). Ties go to the earlier
    candidate, in ``actions()`` order. The real battle is only read; the same rng
    state gives the same action.
    """
    if battle.pending is not None:
        return _search_choice(battle, rng)
    candidates = _candidates(battle)
    if len(candidates) == 1:
        return candidates[0]
    return _best(battle, rng, candidates, act)


def _best(battle: Battle, rng: random.Random, options: list, apply) -> object:
    """The option whose rollouts score best in total: ``apply(copy, option)`` does it."""
    # The worlds are drawn before any rollout, WORLDS of them whatever the rollouts do:
    # the policy's stream advances by the decision alone, never by the copies' play.
    worlds = [rng.getrandbits(64) for _ in range(WORLDS)]
    value = _evaluation(battle)
    best, best_value = options[0], float("-inf")
    for option in options:
        total = sum(_rollout(battle, lambda trial: apply(trial, option), world, value)
                    for world in worlds)
        if total > best_value:
            best, best_value = option, total
    return best


def _determinized(battle: Battle, world: random.Random) -> Battle:
    """A copy the player could imagine: the draw pile in an order drawn from ``world``
    (from the sorted pile, so that the real order cannot show through) and streams
    seeded from ``world``. Hand, discard and everything else visible stay as they are."""
    trial = battle.copy(streams=Streams.seeded(world.getrandbits(64)))
    trial.shuffle_draw(world)
    return trial


def _page_key(battle: Battle, uid: int) -> tuple:
    """What makes two page instances play alike: the page and its faces' states."""
    page = battle.instance(uid)
    return page["page"], tuple((side, face["state"], face["blanked"], face["penned"])
                               for side, face in sorted(page["faces"].items()))


#: Of each action on one page, what besides the page makes two alike (a pen: its side).
_ON_A_PAGE = {Play: lambda a: (), Pen: lambda a: (a.side,), Tear: lambda a: ()}


def _candidates(battle: Battle) -> list:
    """The legal actions worth a rollout: one of each kind of action on pages alike (two
    入学式 of the same faces play the same), the TEAR_CANDIDATES tears of most 綻び."""
    seen, found, tears = set(), [], []
    for action in battle.actions():
        rest = _ON_A_PAGE.get(type(action))
        if rest is not None:
            key = (type(action), _page_key(battle, action.uid), rest(action))
            if key in seen:
                continue
            seen.add(key)
            if type(action) is Tear:
                tears.append(action)
                continue
        found.append(action)
    tears.sort(key=lambda a: -battle.tear_fray(a.uid))  # stable: hand order next
    return found + tears[:TEAR_CANDIDATES]


def _rollout(battle: Battle, first, world_seed: int, value) -> float:
    """The value of doing ``first`` (a function of the copy) in one determinized world,
    then letting the greedy player finish the turn and HORIZON more: the sum of
    ``value`` at the end of each of those turns (after the enemy's action). Summing, not
    only scoring the last, makes progress sooner worth more than the same progress
    later — with the last turn alone, putting off a costly move a turn looks free, and
    the search would put it off every turn (a stall to the turn cap)."""
    world = random.Random(world_seed)
    trial = _determinized(battle, world)
    try:
        first(trial)
    except Refused:
        return float("-inf")
    s = trial.state
    stage, turn = battle.state.stage_index, battle.state.turns_run
    total, actions = 0.0, 0
    for _ in range(1 + HORIZON):
        turn += 1
        while (not trial.over and s.stage_index == stage and s.turns_run < turn
               and actions < ROLLOUT_ACTIONS):
            act(trial, greedy_policy(trial, world))
            actions += 1
        total += value(trial)
    return total


def _evaluation(root: Battle):
    """The scoring of copies rolled out from ``root`` (see WIN): a function of the copy."""
    s = root.state
    stage = s.stage_index
    # Worked out once per decision: a tear is what changes it, and once the tear is
    # spent the potential no longer counts.
    best_tear = _tear_potential(root)
    potential = FRAY * TEAR_KEPT * best_tear
    line = root.tables.enemies[root.enemy_id].breakthrough
    pen_fray = root.tables.balance.pen_fray

    def value(trial: Battle) -> float:
        t = trial.state
        if t.outcome == "lost":
            return LOSS
        if t.outcome == "won" or t.stage_index > stage:
            return WIN + t.hp  # a stage won: the more HP kept, the better
        lasting = trial.lasting_defense()
        tears = t.tears_used < t.param("tear_cap")
        pens = t.pens_used < t.param("pen_cap")
        # 突破 still open: the 綻び so far, the pen's and the best tear's reach the line.
        reach = t.fray_stage + pens * pen_fray + tears * best_tear >= line
        return (t.hp - ENEMY * trial.enemy_hp + FRAY * t.fray_stage + LASTING * lasting
                + potential * tears + PEN_LEFT * pens + OPEN * reach
                + FACE * _written_faces(trial))
    return value


def _written_faces(battle: Battle) -> int:
    """The written faces of the deck's pages (白紙化 takes them away one by one)."""
    return sum(battle.face_body(uid, side) is not None
               for zone in ("hand", "draw", "discard", "exile_stage") for uid in battle.zone(zone)
               for side in SIDES)


def _tear_potential(battle: Battle) -> float:
    """The most 綻び one tear could give in this stage, as far as the player can tell:
    a page of the deck torn at the farthest 刻 the deck's pages can take 刻 to (a play
    moves 刻 to the page's 銘)."""
    s = battle.state
    uids = [uid for zone in ("hand", "draw", "discard", "exile_stage")
            for uid in battle.zone(zone)]
    cap = s.param("lifespan_cap")
    years = [battle.year(uid) for uid in uids]
    reachable = [y for y in years if 0 <= y <= cap] + [s.age]
    low, high = min(reachable), max(reachable)
    return max((max(year - low, high - year) * battle.page_of(uid).fray_mul
                for uid, year in zip(uids, years)), default=0)


# A pending choice is tried like any action: on copies (``Battle.copy`` copies the
# resolution waiting in it), each answered and played out as ``search_policy`` plays an
# action.

def _search_choice(battle: Battle, rng: random.Random) -> Choose:
    """A pending choice: up to CHOICE_CANDIDATES answers (pages alike tried once),
    each played out as ``search_policy`` plays an action. The candidates are read in
    uid order: a choice from 山札 lists them in the pile's order, which is hidden."""
    request = battle.pending
    pool, count = sorted(request.candidates), request.count
    if request.kind == "uids":
        distinct, seen = [], set()
        for uid in pool:
            key = _page_key(battle, uid)
            if key not in seen:
                seen.add(key)
                distinct.append(uid)
    else:
        distinct = pool
    answers = [Choose(a) for a in itertools.islice(
        itertools.combinations(distinct, count), CHOICE_SCAN)] or [Choose(pool[:count])]
    if len(answers) == 1:  # nothing to weigh
        return answers[0]
    if len(answers) > CHOICE_CANDIDATES:
        # A sample, not the first few: the first would always be the lowest uids.
        answers = rng.sample(answers, CHOICE_CANDIDATES)
    return _best(battle, rng, answers, act)


#: Policy name → policy, for the command line and reports.
POLICIES = {"random": random_policy, "greedy": greedy_policy, "search": search_policy}
#: The players that never draw from their own stream: a simulation gives them None for
#: ``rng``. The greedy player decides by its look-ahead alone, and seeding a Random for
#: each battle it plays cost a hundredth of the lab's time.
WITHOUT_RNG = frozenset({greedy_policy})
