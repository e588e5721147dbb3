"""Plays fixed battles and journey deals and prints what they gave, for
tests/test_compiled.py, which runs it with the compiled twins and as Python
(``JIBUNKI_NO_COMPILED=1``) and compares. The first line says how many of the modules
that ran were twins."""

from __future__ import annotations

import hashlib
import importlib.machinery
import random
import sys

from contract.compiled import report
from journey import load_rules, new_game
from journey.player import play_game
from journey.search import JOURNEY, bound
from journey.solve import solve
from runtime.battle import Battle
from runtime.tables import load
from sim.policies import POLICIES
from sim.simulate import simulate

tables = load()
starter = tables.starter()
#: Pages that ask a choice, pen, tear and blank, added to the starting deck.
ADDED = ("mayoigo", "sotsugyou", "shuushoku", "circle", "nikki", "dansyari", "moetsuki")
lines = []
for policy, seeds in (("random", range(12)), ("greedy", range(12)), ("search", range(2))):
    for index, enemy in enumerate(sorted(tables.enemies)):
        deck = starter + [ADDED[index % len(ADDED)]]
        for result in simulate(tables, deck, [enemy], POLICIES[policy], seeds):
            lines.append(f"{policy} {enemy} {result.to_dict()}")
# Recorded battles: every event and the final state, by repr — an int the compiler turned
# into a float (3 → 3.0) or a bool into an int would show here, where == would not see it.
for seed in range(10):
    for policy in ("random", "greedy"):
        battle = Battle.new(tables, seed=seed, enemies=[sorted(tables.enemies)[seed % 10]],
                            deck=starter + [ADDED[seed % len(ADDED)]])
        rng, actions = random.Random(seed), 0
        while not battle.over and actions < 300:
            battle.apply(POLICIES[policy](battle, rng))
            actions += 1
        record = repr([tuple(event) for event in battle.log]) + repr(battle.state)
        lines.append(f"events {policy} {seed} {hashlib.sha256(record.encode()).hexdigest()}")
# The solver's bound (its arithmetic in C integers when compiled: journey/search.pxd) at
# every position of random lines of play, in every set-up — its items' paths with them.
for setup in ("草案", "問題点", "高難易度"):
    setup_rules = load_rules(setup)
    for seed in range(4):
        state, rng, bounds = new_game(setup_rules, seed), random.Random(seed), []
        while JOURNEY.result(state) is None and len(bounds) < 400:
            bounds.append(bound(state))
            state = JOURNEY.apply(state, rng.choice(JOURNEY.actions(state)))
        lines.append(f"bounds {setup} {seed} {bounds!r}")
rules = load_rules()
for seed in range(3):
    answer = solve(JOURNEY, new_game(rules, seed), budget=1500)
    lines.append(f"solve {seed} {answer.verdict} {answer.score} {answer.exact} {answer.nodes} "
                 f"{list(answer.line)}")
    game = play_game(rules, seed, samples=1)
    lines.append(f"play {seed} {game.won} {game.turns} {game.score} {game.resolved} "
                 f"{[repr(d) for d in game.decisions]}")

suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
ran = [name for name in report() if name in sys.modules]
twins = [name for name in ran if (sys.modules[name].__file__ or "").endswith(suffixes)]
print(f"compiled {len(twins)} of {len(ran)} modules that ran")
print("\n".join(lines))
