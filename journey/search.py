"""探索の規則 — the journey runtime seen through the solver's ``Rules`` protocol
(journey/solve.py): its actions, apply, key and result, plus two estimates of a position
that the rules do not give, an upper bound of the score still reachable (for the
branch-and-bound) and a promise (見込み, for the order in which children are tried and
for the players' evaluation).

Nothing here restates a rule: the actions, their effects and the score are the runtime's
(journey/play.py); the bound and the promise only read a state. The search stays on the
rules' tuples, not ``Journey``'s action values: a step through the interface (its actions
as values, its legality check) costs about a quarter more (benchmarks/bench_journey.py).
"""

from __future__ import annotations

from .play import apply, legal_actions, score
from .state import State

__all__ = ["JOURNEY", "JourneyRules", "bound", "lookahead", "play_on", "promise"]

#: The promise of a won game (plus its score) and of a lost one: beyond any position.
WON, LOST = 10 ** 6, -(10 ** 6)
#: Weights of the promise, in points where a card left in the deck is 1 (the score's
#: unit): a resolved story, the pawns' places already holding the best story's cards,
#: a letter in hand, a ±1 black-pawn move still missing to bring the pawns' sum to the
#: last day's, and (once every story is resolved) a pawn on the last day.
RESOLVED, UNDER_PAWNS, LETTER, MISALIGNED, ARRIVED = 100, 20, 5, 15, 30


def bound(s: State) -> int | None:
    """An upper bound of the score of any win still reachable from ``s`` (None: none is).

    Deck + letters: a refill takes 1, a resolution gives 1 letter, an アドベンチャーメモリー
    moves 1 from the letters to the deck (カメラ: 2 for 1), nothing else adds. ``u``
    unresolved stories need ``u`` more refills, or ``u`` − 1 when the last one is resolved
    on the winning turn; but then both black pawns stood where events lie (not on
    【７日目】) and reach it in the moment after the resolution by a ロケーションメモリー each:
    two letters, which cost more than the refill saved. Key bonus: every day that holds
    events, at the set-up's bonus with the carried items' extra."""
    if s.over:
        return score(s)["score"] if s.phase == "won" else None
    rules, deal = s.rules, s.deal
    unresolved = len(rules.suits) - bin(s.resolved).count("1")
    letters_ever = s.letters + unresolved
    camera = any(it.effect == "recall_extra" and not it.passive for it in deal.carried)
    deck = len(s.deck) + letters_ever + (letters_ever if camera else 0) - unresolved
    per_day = rules.key_vp + sum(it.value for it in deal.carried if it.effect == "key_bonus")
    days = sum(1 for capacity in deal.capacity if capacity)
    return deck + per_day * days - sum(it.cost for it in deal.carried)


def promise(s: State) -> int:
    """見込み: how near ``s`` looks to a win (higher is nearer) — resolved stories first,
    then how many pawns' places already hold the best unresolved story's cards, letters,
    the deck, and how far the pawns are from a sum that the last day allows.

    The pawns' sum matters because a play moves white +n and a black pawn 7 − n, which
    leaves the sum of the three places unchanged modulo the days: only the letters and the
    red and white effects change it, and every resolved story takes its effect away."""
    if s.over:
        return WON + score(s)["score"] if s.phase == "won" else LOST
    rules = s.rules
    suits = len(rules.suits)
    resolved = bin(s.resolved).count("1")
    standing: dict[int, int] = {}
    for day in s.pawns():
        standing[day] = standing.get(day, 0) + 1
    suit_of = rules.suit_of
    under = 0
    for suit in range(suits):
        if not s.resolved >> suit & 1:
            under = max(under, sum(min(need, sum(1 for card in s.stacks[day]
                                                 if suit_of[card] == suit))
                                   for day, need in standing.items()))
    days = len(s.deal.days)
    last = s.deal.last
    off = (3 * last - sum(s.pawns())) % days
    off = min(off, days - off)
    value = (RESOLVED * resolved + UNDER_PAWNS * under + LETTER * s.letters + len(s.deck)
             - MISALIGNED * max(0, off - s.letters))
    if resolved == suits:
        value += ARRIVED * sum(1 for day in s.pawns() if day == last) - UNDER_PAWNS * off
    return value


#: How far a look-ahead plays on: the rest of this turn and the next one.
HORIZON = 2
#: The actions a look-ahead does not use (one option per card of the discard or of the
#: hand): they are weighed only as the options of a decision itself.
LOOKAHEAD_SKIPS = ("letter", "item")


def play_on(s: State, turns: int = HORIZON) -> State:
    """``s`` played on by the promise alone, one step at a time (letters and items left
    out), to the end of this turn and the next ``turns`` − 1; a game stuck with no legal
    action (an empty hand at 移動フェイズ) is left where it stands."""
    turn = s.turn
    while not s.over and s.turn < turn + turns:
        actions = legal_actions(s)
        if not actions:
            break
        actions = [a for a in actions if a[0] not in LOOKAHEAD_SKIPS] or actions
        s = max((apply(s, a, check=False)[0] for a in actions), key=promise)
    return s


def lookahead(s: State) -> int:
    """The promise of ``s`` played on to the end of the next turn (``play_on``)."""
    return promise(play_on(s))


class JourneyRules:
    """The journey runtime as the solver's ``Rules``."""

    def actions(self, s: State) -> list:
        """Every action the rules allow in ``s``."""
        return legal_actions(s)

    def apply(self, s: State, action) -> State:
        """The state after ``action`` (``s`` itself is left as it was)."""
        # The action comes from legal_actions: no second check.
        return apply(s, action, check=False)[0]

    def key(self, s: State):
        """The memo key of ``s``: equal for states the rest of the game cannot tell apart."""
        return s.key()

    def result(self, s: State) -> tuple[bool, int] | None:
        """(won, score) once the game is over, None while it goes on."""
        if s.phase == "won":
            return True, score(s)["score"]
        if s.phase == "lost":
            return False, 0
        return None

    bound = staticmethod(bound)
    promise = staticmethod(promise)
    lookahead = staticmethod(lookahead)


JOURNEY = JourneyRules()
