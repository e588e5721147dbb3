"""山を見ない打ち手 — a player of the journey that does not see the deck order.

An information-set search by determinisation (決定化, the known weakness of which — the
strategy fusion of Perfect Information Monte Carlo — it accepts): at each decision with
more than one option it draws orders of the cards it has not seen (``Knowledge.sample``:
the cards whose place in the deck it knows stay where they are, the others are shuffled
among the other places), searches each option in each sampled order as if that order were
the deck, and takes the option with the best mean value over the orders. The same orders
serve every option of a decision, so options are compared on the same draws.

In one sampled order, an option's value is found by a search of the rest of the turn:
every line of the player's own choices from the option to the end of the turn (the
refills, mills and draws on the way come from the sampled order; letters and items left
out after the option itself, as ``journey.search.play_on`` leaves them out, which keeps
the lines few), each line's end memoised on the state's key; the most promising ends
(``promise``) are each played on greedily through the next turn (``play_on``) and the best
of them is the value — a promise, in the promise's points (a letter 5, a card left in the
deck 1, a resolved story 100), or the solver's LOST (journey/solve.py) where the line is
lost or the solver's ``bound`` says no win is left. The exhaustive turn matters:
a single line per option, chosen step by step (the player before this one), judged an
option by a poor continuation of it; this one wins more deals at one order than that one
did at four.

The budget (``samples`` of ``play_game``, ``--budget`` of the report) is both the breadth
and the depth of the search: at budget ``b`` a decision draws ``b`` orders and plays on
the ``2b`` most promising ends of each option in each (``effort``). One unit costs about
0.3 s of CPU per game of 草案 on the shared machine it was measured on, and the cost grows
about linearly with the budget (docs/journey-report.md).

What it knows of the deck (``Knowledge``): which cards are in it (every card not in the
hand, the discard, the stacks or in flight — all face up), and the places of the cards it
put there itself (黄 and ラジオ returns, テント, アドベンチャーメモリー), followed by
identity from one state to the next; with 山札公開 (the set-up's or an item's) the top card
too. Deterministic: the same deal, budget and seed give the same game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from contract import collector

from .actions import as_tuple
from .game import Journey
from .play import advance, legal_actions, resample
from .search import bound, play_on, promise
from .solve import LOST
from .state import State

__all__ = ["BUDGETS", "Decision", "Game", "Knowledge", "choose", "effort", "play_game"]

#: The budgets the player is measured at (``effort``: 1, 2, 4 sampled orders a decision);
#: the report's default is the first two (journey/lab/measure.py DEFAULT_BUDGETS).
BUDGETS = (1, 2, 4)


@dataclass(frozen=True)
class Knowledge:
    """The deck cards whose place the player knows (by card)."""

    known: frozenset = frozenset()

    def after(self, before: State, now: State, events: list | tuple = ()) -> "Knowledge":
        """What is known in ``now``: what was known and is still in the deck, every card
        that came into the deck from where the player saw it, and a card the events showed
        going under the deck on the way (常時ループ回収: a loop's card drawn face up and put
        under the deck in one step)."""
        was = set(before.deck)
        ids = now.rules.card_ids
        shown = {ids.index(e["card"]) for e in events
                 if e.get("event") == "mill" and e.get("to") == "bottom"}
        return Knowledge(frozenset(c for c in now.deck
                                   if c in self.known or c not in was or c in shown))

    def sample(self, s: State, rng: random.Random) -> State:
        """``s`` with its deck in an order drawn from what the player does not know."""
        return resample(s, rng, self.known)


@dataclass(frozen=True)
class Decision:
    """One decision: how many options, and the player's value of each (sorted, best
    first): a mean over the sampled orders, in the promise's points (a letter 5)."""

    options: int
    values: tuple[float, ...]
    #: Every option is to go on or to use a letter or an item now (FREE_USE_KINDS): a
    #: decision of 「いつでも」, not of which card, pawn, effect or story.
    free_use: bool = False

    def contenders(self, margin: float) -> int:
        """The options within ``margin`` of the best (the best included)."""
        return sum(1 for v in self.values if v >= self.values[0] - margin)


@dataclass
class Game:
    """A game played through: its end, turns, score (None when lost) and decisions."""

    won: bool
    turns: int
    score: int | None
    resolved: int
    decisions: list[Decision] = field(default_factory=list)


#: The kinds of action of a moment of 「いつでも」: go on, or use a letter or an item now.
#: A decision among these alone (``Decision.free_use``) is whether and when to spend what
#: the player holds — as long as 地図 stands or a letter is in hand, every moment offers it.
FREE_USE_KINDS = frozenset({"next", "end", "letter", "item"})

#: The actions a line of the search leaves out after its first choice (one option per
#: card of the discard or of the hand), as journey/search.py ``play_on`` leaves them out.
SKIPS = ("letter", "item")


class _Search:
    """The lines of one decision's turn in the sampled worlds, memoised on the state's key
    (which holds the deck order: the worlds share the memo and never mix)."""

    def __init__(self, turn: int, lines: int):
        self.turn, self.lines = turn, lines
        self.leaves: dict = {}    # position → the ends of its lines (keys, found first first)
        self.ends: dict = {}      # an end's key → the state
        self.shallow: dict = {}   # an end's key → its promise
        self.deep: dict = {}      # an end's key → its value, played on through the next turn

    def ends_of(self, s: State) -> tuple:
        """The ends of every line of the player's own choices from ``s`` to the end of
        this turn (letters and items left out, as ``play_on`` leaves them out)."""
        key = s.hashed_key()
        found = self.leaves.get(key)
        if found is not None:
            return found
        actions = None if s.over or s.turn > self.turn else legal_actions(s)
        if not actions:
            self.ends[key] = s
            found = (key,)
        else:
            actions = [a for a in actions if a[0] not in SKIPS] or actions
            seen: dict = {}
            for action in actions:
                seen.update(dict.fromkeys(self.ends_of(advance(s, action))))
            found = tuple(seen)
        self.leaves[key] = found
        return found

    def value(self, s: State) -> float:
        """The best of the ``lines`` most promising ends of ``s``'s turn, each played on
        greedily through the next turn; LOST where the solver's bound finds no win."""
        ends = self.ends_of(s)
        if len(ends) > self.lines:
            ends = sorted(ends, key=self._shallow, reverse=True)[:self.lines]
        return max(map(self._deep, ends))

    def _shallow(self, key) -> int:
        got = self.shallow.get(key)
        if got is None:
            got = self.shallow[key] = promise(self.ends[key])
        return got

    def _deep(self, key) -> int:
        got = self.deep.get(key)
        if got is None:
            s = self.ends[key]
            if bound(s) is not None:
                s = play_on(s, 1)
            # bound is None for a lost game, and wherever the solver's bound sees no win
            got = self.deep[key] = LOST if bound(s) is None else promise(s)
        return got


def effort(budget: int) -> tuple[int, int]:
    """(worlds, lines): the sampled orders of a decision, and the lines of each option
    played on in each world, at ``budget``."""
    return budget, 2 * budget


def choose(s: State, knowledge: Knowledge, budget: int, rng: random.Random,
           actions: list) -> tuple:
    """The option (an action value) with the best mean value over the sampled worlds, and
    the decision. Searched on the rules' tuples, as the solver searches (journey/search.py):
    the hot loop."""
    worlds, lines = effort(budget)
    sampled = [knowledge.sample(s, rng) for _ in range(worlds)]
    search = _Search(s.turn, lines)
    totals = []
    for action in actions:
        rule = as_tuple(action)
        totals.append(sum(search.value(advance(world, rule))
                          for world in sampled) / worlds)
    best = max(range(len(actions)), key=lambda i: (totals[i], -i))
    free_use = all(action.KIND in FREE_USE_KINDS for action in actions)
    return actions[best], Decision(len(actions), tuple(sorted(totals, reverse=True)), free_use)


@collector.paused()  # the search makes no reference cycles (contract/collector.py)
def play_game(rules, seed: object, samples: int, items=None, cards=None) -> Game:
    """Deal ``seed`` and play it to the end with ``samples`` samples per decision; the
    player's own random stream is seeded by the deal and the budget."""
    rng = random.Random(f"journey-player:{seed}:{samples}")
    game = Journey.new(rules, seed, items, cards)
    knowledge = Knowledge()
    decisions: list[Decision] = []
    while game.result is None:
        actions = game.actions()
        if not actions:
            # Not over, yet nothing is legal: the runtime can reach this (an empty hand
            # at 移動フェイズ after リュックサック gave its last card). The game cannot go on,
            # so it is not won; the solver counts such a line as lost too.
            break
        if len(actions) == 1:
            action = actions[0]
        else:
            action, decision = choose(game.state, knowledge, samples, rng, actions)
            decisions.append(decision)
        before = game.state
        events = game.apply(action)
        knowledge = knowledge.after(before, game.state, events)
    result = game.result or {}
    won = result.get("outcome") == "won"
    return Game(won, game.state.turn, result["score"] if won else None,
                bin(game.state.resolved).count("1"), decisions)
