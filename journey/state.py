"""旅の状態 — one moment of a game of draft 17, as tuples: cheap to copy, and with a
hashable ``key()`` that two states share exactly when the rest of the game is the same.

The two black pawns are interchangeable, so they are kept sorted and actions name a black
pawn by the day it stands on (the symmetry is gone from the state itself). The hand and
the discard pile are sorted too: their order is nobody's choice. The deck is in draw
order, top first. Days are 0-based here (day 0 is 【１日目】); the screen adds one.
"""

from __future__ import annotations

from .rules import Rules


def standing(white, blacks: tuple) -> tuple[tuple[int, int], ...]:
    """(day, how many pawns stand there) for each day a pawn stands on, the white pawn's
    first: what a story's resolution reads (and the search's promise)."""
    low, high = blacks
    if low == high:
        return ((white, 3),) if white == low else ((white, 1), (low, 2))
    if white == low or white == high:
        return ((white, 2), (high if white == low else low, 1))
    return ((white, 1), (low, 1), (high, 1))


#: The fields of a ``Deal``, in the order ``Deal(...)`` takes them.
DEAL_FIELDS = ("rules", "days", "capacity", "carried", "passive")


class Deal:
    """What stays the same for a whole game: the rules, the order the locations were laid
    in (``days``: the location id of each day), how many events each day holds
    (``capacity``: 0 on the last day), the items carried, and the effects of those that
    are always on (``passive``).

    Written out rather than a frozen dataclass: compiled, an extension type whose fields
    the rules read as a C struct (journey/state.pxd; every step of a search asks the
    carried items and the days). Equal, hashed and shown by its fields, as the dataclass
    was; its fields are read-only there."""

    __slots__ = DEAL_FIELDS + ("tappable", "last")

    def __init__(self, rules: Rules, days: tuple, capacity: tuple, carried: tuple,
                 passive: frozenset):
        self.rules = rules
        self.days = days
        self.capacity = capacity
        self.carried = carried
        self.passive = passive
        #: the indices of the carried items that are used by tapping them (not always
        #: on): the rules ask at every moment which of them can be used
        self.tappable = tuple([i for i, item in enumerate(carried) if not item.passive])
        #: the index of the last day (【７日目】)
        self.last = len(days) - 1

    def _fields(self) -> tuple:
        return (self.rules, self.days, self.capacity, self.carried, self.passive)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Deal(" + ", ".join(f"{name}={value!r}" for name, value
                                   in zip(DEAL_FIELDS, self._fields())) + ")"

    def has(self, effect: str) -> bool:
        """Is a carried item's always-on effect ``effect`` in force?"""
        return effect in self.passive


#: The fields of a ``State``, in the order ``State(...)`` takes them (the last two may be
#: left out).
FIELDS = ("deal", "deck", "hand", "discard", "stacks", "white", "blacks", "resolved",
          "letters", "tapped", "lantern", "phase", "pending", "resume", "turn", "queue",
          "reason")


class State:
    """A game in progress (or over). ``phase`` says what the next action decides:

    play     — which card to play and which black pawn walks (移動フェイズ)
    mill     — a loop drew ``pending[0]``: discard it, or put it under the deck (テント)
    moment   — a moment of 「いつでも」 between two steps: use letters and items, or go
               on to the step ``pending[0]``
    effect   — the suit effect of suit ``pending[0]`` wants its choice
    return   — ``pending[0]`` more hand cards go under the deck (黄, ラジオ)
    resolve  — resolve a story, or end the turn (解決フェイズ, 終了フェイズ)
    won/lost — the game is over (``reason`` says why it was lost)

    ``resume`` is the phase (and its pending) that a mill or a return interrupted.
    ``queue`` is the event phase's cards whose effects are still to come, nearest first
    (a card the blue swap or a リュックサック takes from there leaves it).

    A slotted class written out rather than a dataclass: compiled, it is an extension type
    whose fields are a C struct (journey/state.pxd), which the rules' functions typed
    ``s: State`` read directly — a search reads them a hundred times a position. Equality
    is a dataclass's (every field, in order); a state is not hashable (``key()`` is)."""

    __slots__ = FIELDS

    def __init__(self, deal: Deal, deck: tuple, hand: tuple, discard: tuple,
                 stacks: tuple,  # per day, nearest the location card first
                 white: int, blacks: tuple,
                 resolved: int,  # bit per suit
                 letters: int,   # letter cubes in hand (won by resolving, spent on memories)
                 tapped: int,    # bit per carried item: used, not yet stood up again
                 lantern: int,   # bit per suit a ランタン treats as unresolved this turn
                 phase: str, pending: tuple, resume: tuple, turn: int, queue: tuple = (),
                 reason: str = ""):
        self.deal = deal
        self.deck = deck
        self.hand = hand
        self.discard = discard
        self.stacks = stacks
        self.white = white
        self.blacks = blacks
        self.resolved = resolved
        self.letters = letters
        self.tapped = tapped
        self.lantern = lantern
        self.phase = phase
        self.pending = pending
        self.resume = resume
        self.turn = turn
        self.queue = queue
        self.reason = reason

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in FIELDS)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # mutable, as a dataclass with eq: ``key()`` is what a memo hashes

    def __repr__(self) -> str:
        return "State(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS) + ")"

    def copy(self) -> "State":
        """A shallow copy: every field is immutable, so this is a full copy (written out:
        copy.copy of a slotted class costs three times as much, and a search copies a
        state per node)."""
        return State(self.deal, self.deck, self.hand, self.discard, self.stacks, self.white,
                     self.blacks, self.resolved, self.letters, self.tapped, self.lantern,
                     self.phase, self.pending, self.resume, self.turn, self.queue, self.reason)

    def key(self) -> tuple:
        """Everything the rest of the game depends on (not the turn counter, not the deal,
        which one game shares): equal keys, equal futures."""
        return (self.deck, self.hand, self.discard, self.stacks, self.white, self.blacks,
                self.resolved, self.letters, self.tapped, self.lantern, self.phase,
                self.pending, self.resume, self.queue)

    def hashed_key(self) -> "Key":
        """``key()`` with its hash worked out once (``Key``): what a search's tables hold."""
        return Key(self.key())

    @property
    def over(self) -> bool:
        """Won or lost."""
        return self.phase in ("won", "lost")

    @property
    def rules(self) -> Rules:
        """The rules of the game's set-up."""
        return self.deal.rules

    def all_resolved(self) -> bool:
        """Every story resolved (every flag card face down)."""
        return self.resolved == (1 << len(self.deal.rules.suits)) - 1

    def in_effect(self, suit: int) -> bool:
        """Has suit ``suit`` its effect: unresolved, or treated so by a ランタン this turn."""
        return not (self.resolved & ~self.lantern) >> suit & 1

    def ready(self, index: int) -> bool:
        """Is carried item ``index`` standing (usable)?"""
        return not self.tapped >> index & 1

    def pawns(self) -> tuple[int, int, int]:
        """The days of the three pawns: white first."""
        return (self.white, *self.blacks)

    def cards(self) -> int:
        """How many event cards the state holds in all (always the whole deck: 30)."""
        return (len(self.deck) + len(self.hand) + len(self.discard)
                + sum(map(len, self.stacks)) + sum(1 for _ in self._in_flight()))

    def _in_flight(self):
        """A card drawn by a loop, not yet discarded or put under the deck (テント), and
        the card played, while that loop's choice keeps it from its location."""
        if self.phase == "mill":
            yield self.pending[0]
        if self.resume[:1] == ("blacks",):
            yield self.resume[1][0]


class Key:
    """A state's key (``State.key()``) with its hash worked out once: a search hashes one
    key some three times (its children's dedup, the transposition table's lookup and its
    store), and a tuple hashes all its fields again each time (some 80 numbers). Equal
    when the keys are; compiled, an extension type (journey/state.pxd)."""

    __slots__ = ("fields", "hashed")

    def __init__(self, fields: tuple):
        self.fields = fields
        self.hashed = hash(fields)

    def __hash__(self):
        return self.hashed

    def __eq__(self, other):
        if other.__class__ is not Key:
            return NotImplemented
        return self.hashed == other.hashed and self.fields == other.fields

    def __repr__(self) -> str:
        return f"Key({self.fields!r})"

    def __reduce__(self):
        # A key crosses to another process as its fields: the hash of a str (the phase)
        # differs from process to process, so the receiver works it out again.
        return Key, (self.fields,)
