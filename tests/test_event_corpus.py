"""Same seed and actions, same events: the recorded corpus replays event for event."""

from __future__ import annotations

import json

import pytest

import event_corpus


@pytest.fixture(scope="module")
def tables():
    return event_corpus.tables()


CORPUS = json.loads(event_corpus.CORPUS.read_text(encoding="utf-8"))


def test_the_corpus_is_there_and_reaches_far():
    assert len(CORPUS) == event_corpus.BATTLES
    outcomes = {entry["outcome"] for entry in CORPUS}
    assert {"won", "lost"} <= outcomes
    assert sum(len(entry["stages"]) > 1 for entry in CORPUS) == event_corpus.BATTLES // 4
    assert max(len(entry["actions"]) for entry in CORPUS) > 100  # long battles too
    assert sum(any(a[0] == "pen" for a in e["actions"]) for e in CORPUS) > 10
    assert sum(any(a[0] == "tear" for a in e["actions"]) for e in CORPUS) > 10


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: f"seed{e['seed']}")
def test_recorded_battles_replay_to_the_same_events(tables, entry):
    battle = event_corpus.replay(tables, entry)
    assert (len(battle.log), battle.state.outcome) == (entry["events"], entry["outcome"])
    assert event_corpus.digest(battle.log) == entry["sha256"]


def test_a_different_action_gives_a_different_digest(tables):
    entry = next(e for e in CORPUS if len(e["actions"]) > 5 and e["actions"][0][0] == "play")
    changed = {**entry, "actions": [["end_turn"], *entry["actions"][1:2]]}
    original = {**entry, "actions": entry["actions"][:2]}
    assert event_corpus.digest(event_corpus.replay(tables, changed).log) != \
        event_corpus.digest(event_corpus.replay(tables, original).log)


def test_the_fast_playability_agrees_with_play_info_at_every_step(tables):
    """legal_actions asks playable_uids; refusals and screens ask play_info: one rule."""
    from runtime.battle import Battle

    checked = 0
    for entry in CORPUS[:40]:
        battle = Battle.new(tables, seed=entry["seed"], enemies=entry["stages"])
        for action in entry["actions"]:
            if battle.pending is None:
                slow = [uid for uid in battle.hand if battle.play_info(uid)["playable"]]
                assert battle.playable_uids() == slow, (entry["seed"], action)
                checked += 1
            event_corpus.apply_action(battle, action)
    assert checked > 1000


def test_a_play_resolves_the_plan_play_info_describes(tables):
    """play asks its plan (playing.plan, no reasons written); screens and refusals ask
    play_info: at every step of the corpus both agree on every page of the hand —
    whether it can be played, its 銘, cost, crossing and the faces that fire."""
    from runtime import playing
    from runtime.battle import Battle

    checked = 0
    for entry in CORPUS[:40]:
        battle = Battle.new(tables, seed=entry["seed"], enemies=entry["stages"])
        for action in entry["actions"]:
            if battle.pending is None:
                for uid in battle.hand:
                    info, plan = battle.play_info(uid), playing.plan(battle, uid)
                    assert (plan is not None) == info["playable"], (entry["seed"], uid)
                    if plan is not None:
                        assert (plan.year, plan.cost, plan.crosses, plan.firing) == (
                            info["year"], info["cost"], info["crosses"], info["firing"])
                    checked += 1
            event_corpus.apply_action(battle, action)
    assert checked > 3000


def test_a_battle_that_only_counts_reaches_the_same_end(tables):
    from runtime.battle import Battle

    for entry in CORPUS[:20]:
        counted = Battle.new(tables, seed=entry["seed"], enemies=entry["stages"], record=False)
        for action in entry["actions"]:
            event_corpus.apply_action(counted, action)
        assert counted.log == [] and counted.state.outcome == entry["outcome"]
        assert counted.event_count == entry["events"]


def test_every_event_kind_the_runtime_emits_is_a_listed_kind():
    """emit does not check layouts at run time; this reads every layout from the code —
    each call ``emit((layout, *values))``, through the battle or a local name for its
    emit — and the number of values each gives (a starred value may give any number)."""
    import ast as python_ast

    from runtime.events import FIELDS, KIND_OF, KINDS, REQUIRED

    emitted = set()
    calls = 0
    for path in sorted((event_corpus.HERE.parent / "runtime").glob("*.py")):
        for node in python_ast.walk(python_ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, python_ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, python_ast.Attribute) else \
                getattr(node.func, "id", "")
            if name != "emit":
                continue
            calls += 1
            where = f"{path.name}:{node.lineno}"
            assert len(node.args) == 1 and not node.keywords, \
                f"{where}: an event is one tuple, its values positional"
            record = node.args[0]
            assert isinstance(record, python_ast.Tuple) and record.elts, where
            first = record.elts[0]
            assert isinstance(first, python_ast.Constant), where
            assert first.value in FIELDS, where
            values = record.elts[1:]
            plain = sum(not isinstance(v, python_ast.Starred) for v in values)
            assert plain <= len(FIELDS[first.value]), where
            if plain == len(values):
                assert plain >= REQUIRED[first.value], where
            emitted.add(first.value)
    assert calls >= 75
    assert {KIND_OF[layout] for layout in emitted} <= KINDS
    assert len({KIND_OF[layout] for layout in emitted}) >= 50


def test_every_recorded_event_has_the_values_its_layout_names(tables):
    """An event is its layout and its values: each has at least the layout's required
    values and no more than it names, and ``data`` names them in the layout's order."""
    from runtime.events import FIELDS, REQUIRED

    seen = set()
    for entry in CORPUS[:30]:
        for event in event_corpus.replay(tables, entry).log:
            layout, values = event.layout, event.values
            assert REQUIRED[layout] <= len(values) <= len(FIELDS[layout]), event
            assert list(event.data) == list(FIELDS[layout][:len(values)])
            assert event.as_dict() == {"kind": event.kind, **event.data}
            seen.add(layout)
    assert len(seen) >= 30


def test_a_compiled_play_condition_decides_as_reading_its_terms(tables):
    """Play conditions are compiled once per tables (sayou.TESTS): at every step of the
    corpus, every condition of the content, for every hand page's play, decides exactly
    as reading each term through READERS and comparing the floats would."""
    from contract.tables import Const
    from runtime.battle import Battle
    from runtime.sayou import COMPARE, READERS, Frame, condition_test

    def read(battle, term, frame):
        return float(term.value if type(term) is Const else
                     READERS[type(term)](battle, term, frame))

    def decided(battle, cond, frame):
        if cond.test == "crosses":
            return frame.crosses
        if cond.test == "not_crosses":
            return not frame.crosses
        values = [read(battle, term, frame) for term in cond.terms]
        if cond.test == "nonzero":
            return values[0] != 0
        return all(COMPARE[op](a, b) for op, a, b in zip(cond.ops, values, values[1:]))

    conditions = [cond for page in tables.pages.values() for body in
                  (*page.faces.values(), *(p for p in page.pens.values() if p))
                  for cond in body.conditions]
    assert {cond.test for cond in conditions} >= {"compare", "not_crosses"}
    checked = 0
    for entry in CORPUS[:25]:
        battle = Battle.new(tables, seed=entry["seed"], enemies=entry["stages"])
        for action in entry["actions"]:
            s = battle.state
            for uid in battle.hand:
                year, seat = battle.year(uid), s.enemy["seat"]
                frame = Frame(uid, abs(year - s.age), (s.age - seat) * (year - seat) < 0)
                for cond in conditions:
                    assert condition_test(tables, cond)(battle, frame) == \
                        decided(battle, cond, frame), (entry["seed"], cond)
                    checked += 1
            event_corpus.apply_action(battle, action)
    assert checked > 10000
