"""The simulation API (issue 13): seeded, order-free, the runtime's own battles."""

from __future__ import annotations

from contract.game import EndTurn
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import event_corpus
from sim import POLICIES, greedy_policy, random_policy, simulate


@pytest.fixture(scope="module")
def tables():
    return event_corpus.tables()


def test_the_random_policy_plays_the_recorded_battles(tables):
    """simulate's random player is the corpus's: same seeds, same games."""
    corpus = json.loads(event_corpus.CORPUS.read_text(encoding="utf-8"))
    checked = 0
    for entry in corpus:
        if entry["outcome"] is None or len(entry["stages"]) > 1:
            continue
        [result] = simulate(tables, None, entry["stages"], random_policy, [entry["seed"]],
                            turn_cap=10_000)
        assert (result.result, result.actions, result.events) == (
            entry["outcome"], len(entry["actions"]), entry["events"]), entry["seed"]
        checked += 1
    assert checked >= 60


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_results_depend_on_the_seed_alone_not_on_the_order_or_company(tables, policy):
    seeds = [5, 1, 9, 3]
    together = simulate(tables, None, ["haguruma"], POLICIES[policy], seeds)
    alone = [simulate(tables, None, ["haguruma"], POLICIES[policy], [s])[0] for s in seeds[::-1]]
    assert [r.seed for r in together] == seeds
    assert together == alone[::-1]


class _NoDraws(random.Random):
    """A policy stream any draw from which is a test failure."""

    def random(self):
        raise AssertionError("drew from the policy's stream")

    def getrandbits(self, k):
        raise AssertionError("drew from the policy's stream")


def test_the_players_given_no_stream_never_draw_from_one(tables):
    """WITHOUT_RNG: play_one gives these players None for ``rng``; they must decide
    the same with any stream — here one that fails the test at any draw, over decks
    whose pages ask for choices and every enemy."""
    from sim.policies import WITHOUT_RNG, play_out
    from sim.simulate import play_one
    from runtime.battle import Battle

    assert WITHOUT_RNG and WITHOUT_RNG <= set(POLICIES.values())
    pages = sorted(tables.pages)
    for policy in WITHOUT_RNG:
        for seed, enemy in enumerate(sorted(tables.enemies) * 2):
            deck = None if seed % 2 else pages[seed::5][:12]
            given = Battle.new(tables, seed=seed, enemies=[enemy], deck=deck, record=False)
            play_out(given, policy, _NoDraws(), 2_000)
            played = play_one(tables, deck, [enemy], policy, seed, 10_000)
            assert (given.state.outcome or "draw", given.state.turns_run) == (
                played.result, played.turns), (enemy, seed)


def test_a_battle_past_the_turn_cap_is_a_draw(tables):
    results = simulate(tables, None, ["haguruma"], lambda b, rng: EndTurn(), range(3),
                       turn_cap=2)
    assert all(r.result in ("draw", "lost") for r in results)
    assert any(r.result == "draw" for r in results)


def test_a_battle_stopped_at_the_turn_cap_played_the_cap_s_turns():
    """kodoku under the turn cap 5: every battle a draw, 5 enemy phases each — its turns
    said 6 (the 6th had begun), so 被ダメ/T divided its HP lost by a turn never played."""
    from runtime.tables import load

    tables = load()
    results = simulate(tables, None, ["kodoku"], lambda b, rng: EndTurn(), range(4), turn_cap=5)
    assert [(r.result, r.turns) for r in results] == [("draw", 5)] * 4


def test_per_page_figures_add_up(tables):
    for r in simulate(tables, None, ["haguruma"], greedy_policy, range(10)):
        assert sum(r.damage.values()) <= r.damage_total
        assert set(r.plays) <= set(r.damage) and set(r.plays) <= set(r.steps)
        assert r.result in ("won", "lost", "draw") and r.turns >= 1
    wins = [r for r in simulate(tables, None, ["haguruma"], greedy_policy, range(30))
            if r.result == "won"]
    assert wins, "the greedy player never wins against haguruma: the policy is broken"


def test_a_custom_deck_is_played(tables):
    deck = sorted(tables.pages)[:12]
    [r] = simulate(tables, deck, ["haguruma"], random_policy, [0])
    assert set(r.plays) <= set(deck)


def test_a_state_copy_is_independent_and_equal(tables):
    import copy

    from runtime.battle import Battle
    from runtime.state import Face

    battle = Battle.new(tables, seed=4, enemies=["haguruma"])
    battle.play(battle.playable_uids()[0])
    copied = battle.state.copy()
    face_before = battle.state.pages[0].faces["future"].state
    assert copied == copy.deepcopy(battle.state)
    copied.set_face(0, "future", Face("changed"))
    copied.zones["hand"].clear()
    copied.counters["plays"] = 99
    copied.marks["turn"]["plays"] = 99
    assert battle.state.pages[0].faces["future"].state == face_before
    assert battle.state.zones["hand"] and battle.state.counters["plays"] == 1
    assert battle.state.marks["turn"].get("plays", 0) == 0
    assert all(a.effect is b.effect for a, b in zip(copied.effects, battle.state.effects))


def test_a_state_copy_equals_a_generic_deep_copy_at_every_step(tables):
    """State.copy copies the big fields by their shape (runtime/state.py State.copy): at
    every step of whole battles it gives what copying every list and dict gives."""
    import random

    from runtime.battle import Battle
    from runtime.state import _plain_copy
    from sim.policies import act

    for seed in range(6):
        battle = Battle.new(tables, seed=seed, enemies=["kodoku" if seed % 2 else "koukai"])
        rng = random.Random(seed)
        while not battle.over and battle.state.turns_run < 12:
            state = battle.state
            fast = state.copy()
            slow = {name: _plain_copy(getattr(state, name)) for name in state.FIELDS}
            assert {name: getattr(fast, name) for name in slow} == slow
            act(battle, random_policy(battle, rng))


def test_a_stream_made_on_its_first_draw_draws_as_one_seeded_at_once():
    """Streams.seeded makes the effects and enemy streams on their first draw (seeding a
    Random from a string is costly): the draws, and a copy's, are those of eager ones."""
    import random

    from runtime.streams import Streams

    lazy = Streams.seeded(7)
    twin = lazy.copy()  # copied before either stream was made
    eager = [random.Random("effects:7"), random.Random("enemy:7")]
    assert [lazy.effects.random() for _ in range(3)] == [eager[0].random() for _ in range(3)]
    after = lazy.copy()  # copied once effects was made: continues from where it is
    assert after.effects.random() == lazy.effects.random() == eager[0].random()
    assert twin.enemy.randrange(100) == random.Random("enemy:7").randrange(100)
    assert lazy.enemy.random() == eager[1].random()


def test_the_shuffle_key_is_splitmix64():
    """runtime/streams.py ``_mix`` is splitmix64's output function (compiled, in C's 64-bit
    unsigned arithmetic): the reference outputs of seed 1234567, and the range's ends."""
    from runtime.streams import _mix

    gamma, mask = 0x9E3779B97F4A7C15, (1 << 64) - 1
    assert [_mix((1234567 + i * gamma) & mask) for i in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert _mix(0) == 16294208416658607535 and _mix(mask) == 16490336266968443936


def test_no_hand_page_tears_beyond_the_tables_bound_at_its_age(tables):
    """Battle.tear_reach_bound bounds every hand page's tear_reaches (what lets the greedy
    player skip reading the hand, as its tears could not reach the need): at every
    decision of random battles, 銘 assigned or not (then the bound is infinite)."""
    import math
    import random

    from runtime.battle import Battle

    compared = 0
    for seed in range(12):
        battle = Battle.new(tables, seed=seed, enemies=[sorted(tables.enemies)[seed % 10]])
        rng = random.Random(seed)
        while not battle.over and battle.state.turns_run < 20:
            bound = battle.tear_reach_bound()
            assert all(reach <= bound for reach in battle.tear_reaches())
            compared += len(battle.tear_reaches()) if bound < math.inf else 0
            battle.apply(random_policy(battle, rng))
    assert compared > 100


def test_the_playable_pages_among_some_of_the_hand_are_those_of_the_whole_hand(tables):
    """Battle.playable_uids(among): each page's answer is its own, so asking of a few
    hand pages (the lab's watched page) gives the whole hand's answer for them."""
    import random

    from runtime.battle import Battle

    asked = 0
    for seed in range(10):
        battle = Battle.new(tables, seed=seed, enemies=[sorted(tables.enemies)[seed % 10]])
        rng = random.Random(seed)
        while not battle.over and battle.state.turns_run < 15:
            hand, whole = battle.hand, battle.playable_uids()
            some = rng.sample(hand, rng.randint(0, len(hand)))
            assert battle.playable_uids(some) == [uid for uid in some if uid in whole]
            asked += len(some)
            battle.apply(random_policy(battle, rng))
    assert asked > 100


_STREAM_STEP = st.one_of(
    st.tuples(st.just("copy"), st.integers(0, 7)),
    st.tuples(st.just("draw"), st.integers(0, 7), st.sampled_from(["effects", "enemy"])),
    st.tuples(st.just("drop"), st.integers(0, 7)))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), script=st.lists(_STREAM_STEP, max_size=40))
def test_streams_that_share_their_randoms_draw_as_if_each_held_its_own(seed, script):
    """A copy of the streams shares the original's Random objects until one of them draws
    (runtime/streams.py): in any order of copies, draws and copies dropped, each draws
    what streams copied eagerly (the Twister's state read at every copy) would."""
    import random

    from runtime.streams import Streams

    def eager_copy(rngs):
        out = []
        for rng in rngs:
            twin = random.Random()
            twin.setstate(rng.getstate())
            out.append(twin)
        return out

    held = [Streams.seeded(seed)]
    eager = [[random.Random(f"effects:{seed}"), random.Random(f"enemy:{seed}")]]
    for step in script:
        i = step[1] % len(held)
        if held[i] is None:
            continue
        if step[0] == "copy":
            held.append(held[i].copy())
            eager.append(eager_copy(eager[i]))
        elif step[0] == "draw":
            which = 0 if step[2] == "effects" else 1
            assert getattr(held[i], step[2]).random() == eager[i][which].random()
        elif i:  # a copy dropped: the ones it shared with may find theirs alone
            held[i] = None


# ---------------------------------------------------------------- a foreseen play

def _without_foresight(monkeypatch):
    from runtime import battle

    monkeypatch.setattr(battle, "FORESIGHT", False)


def test_a_foreseen_play_leaves_every_battle_as_played_out(tables, monkeypatch):
    """The greedy player offers the copy it tried its chosen play on (Battle.foresee): the
    battle takes that position instead of resolving the play again — the same results,
    event counts included, as when every play is resolved anew."""
    from runtime import battle

    decks = [None, tables.starter() + ["mago"], tables.starter() + ["shukuhai"]]
    enemies = [["haguruma"], ["shimekiri"], ["kodoku", "wasure"]]
    taken = []
    adopt = battle._adopt
    monkeypatch.setattr(battle, "_adopt", lambda into, trial: taken.append(1) or adopt(into, trial))
    seen = [simulate(tables, deck, stages, greedy_policy, range(6))
            for deck in decks for stages in enemies]
    assert len(taken) > 100  # the foreseen plays were taken
    _without_foresight(monkeypatch)
    assert seen == [simulate(tables, deck, stages, greedy_policy, range(6))
                    for deck in decks for stages in enemies]


def _foreseen_battle(tables):
    from runtime.battle import Battle
    from sim.policies import _PLAY

    battle = Battle.new(tables, seed=3, enemies=["haguruma"], record=False)
    uid = battle.playable_uids()[0]
    trial = battle.copy()
    trial.apply(_PLAY(uid))
    battle.foresee(_PLAY(uid), trial)
    return battle, trial, _PLAY(uid)


def test_a_foreseen_play_is_taken_only_by_that_very_action(tables):
    battle, trial, play = _foreseen_battle(tables)
    state, counted = battle.state, battle.event_count
    battle.apply(play)
    assert battle.state is state  # whoever holds the state sees the new position
    assert battle.view() == trial.view()
    assert battle.event_count == counted + trial.event_count
    assert battle.state.zones is trial.state.zones  # taken, not resolved again
    from runtime.battle import Refused

    other, trial, play = _foreseen_battle(tables)
    other.apply(EndTurn())  # another action first: the offer is gone
    try:
        other.apply(play)  # resolved as itself, or refused
    except Refused:
        pass
    assert other.state.zones is not trial.state.zones


def test_a_battle_changed_after_the_offer_resolves_the_play_itself(tables):
    import random

    battle, trial, play = _foreseen_battle(tables)
    battle.shuffle_draw(random.Random(1))
    battle.apply(play)
    assert battle.state.zones is not trial.state.zones  # resolved on the changed battle


def test_a_recording_battle_takes_no_foreseen_position(tables):
    from runtime.battle import Battle
    from sim.policies import _PLAY

    battle = Battle.new(tables, seed=3, enemies=["haguruma"])
    uid = battle.playable_uids()[0]
    trial = battle.copy()
    trial.apply(_PLAY(uid))
    battle.foresee(_PLAY(uid), trial)
    events = battle.apply(_PLAY(uid))
    assert any(e.kind == "played" for e in events)  # resolved anew, its events logged
    assert battle.state.zones is not trial.state.zones


@pytest.mark.slow  # over a second: the full suite's (README: the fast loop)
def test_every_stage_of_a_run_of_stages_counts_for_its_breakthroughs():
    """歯車塔 falls by its HP, 締め切り by 突破ライン: the lab said 突破勝ち 100% for the
    run of both, reading how its last stage was won alone."""
    from runtime.tables import load

    tables = load()
    results = simulate(tables, None, ["haguruma", "shimekiri"], greedy_policy, range(8))
    won = [r for r in results if r.result == "won"]
    assert won and all((r.won_by, r.breakthroughs, r.stages_cleared) == ("breakthrough", 1, 2)
                       for r in won), won
    row = _enemy_row_of(tables, ["haguruma", "shimekiri"])
    assert row["breakthrough_share"] == pytest.approx(0.5), row


def _enemy_row_of(tables, stages):
    """The lab's enemy row of a run of ``stages`` (the report's own figures)."""
    from compiler.build import compile_content
    from conftest import ROOT
    from runtime.tables import from_dicts
    from sim.cache import ResultCache
    from sim.lab import Lab, Outcome, Settings

    literal = compile_content(ROOT / "content").tables
    lab = Lab(literal, from_dicts(literal),
              Settings(enemies=tuple(stages), mode="stages", ladder=("greedy",), pages=(),
                       precision=0.3, max_pairs=40, batch=40),
              cache=ResultCache(literal, Outcome._make, Outcome._fields))
    return lab.run()["enemies"][0]
