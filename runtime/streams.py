"""乱数の流れ — the battle's seeded random streams, one per source of chance.

A run draws its chance from three streams, each seeded from the run's seed alone: the
shuffles of the draw pile (``shuffle``), what page effects pick at random (``effects``:
生成 without a choice, a random pick of 移動・複製) and the enemy's random targets
(``enemy``: 白紙化). Separate streams keep two battles of one seed aligned where their
decks differ — what the paired simulations of ``jibunki sim`` rely on.

A shuffle orders the pile by a key of each page instance drawn for that shuffle alone:
the *n*-th shuffle of a run of seed *s* gives uid *u* the key splitmix64(… s, n, u), a
function of those three numbers only. So a deck with one more page (its uid after the
others) shuffles the shared pages into the same relative order, with the new page slotted
in among them; a deck with one page swapped puts the new page exactly where the old one
was. A ``random.Random`` shuffle would reorder everything once the pile's length differs.
"""

from __future__ import annotations

import random
import sys

#: The streams, in the order a save lists them.
NAMES = ("shuffle", "effects", "enemy")


#: splitmix64's constants, and its arithmetic's modulus (compiled, the C integers of
#: runtime/streams.pxd: the masks are then no-ops, a 64-bit unsigned sum wraps by itself).
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def _mix(x):
    """splitmix64's finaliser: 64 well-mixed bits of ``x`` (Steele, Lea and Flood 2014)."""
    x = (x + _GAMMA) & _MASK
    x = ((x ^ (x >> 30)) * _MIX1) & _MASK
    x = ((x ^ (x >> 27)) * _MIX2) & _MASK
    return x ^ (x >> 31)


class ShuffleStream:
    """山札のシャッフル — the shuffles of a run: the seed and how many were made."""

    __slots__ = ("seed", "count")

    def __init__(self, seed: int, count: int = 0):
        self.seed, self.count = seed, count

    def shuffle(self, pile: list) -> None:
        """Order ``pile`` (page uids) in place by this shuffle's key of each uid."""
        base = _mix(_mix(self.seed & _MASK) ^ self.count)
        self.count += 1
        # The keys made in one pass rather than by a key function (a call per uid).
        keyed = [(_mix(base ^ uid), uid) for uid in pile]
        keyed.sort()
        pile[:] = [uid for _, uid in keyed]

    def copy(self) -> "ShuffleStream":
        """The same stream, continuing independently."""
        return ShuffleStream(self.seed, self.count)


class Streams:
    """乱数の流れ — one ``random.Random`` per source of chance (``NAMES``).

    The ``effects`` and ``enemy`` streams of a seeded run are made on their first draw,
    from the same seed: seeding a Random from a string (sha512 and the Mersenne Twister's
    init) costs more than a whole short battle's turn, and many battles (a deck that picks
    nothing at random against an enemy without 白紙化) never draw from them.

    A stream is held as its ``random.Random`` (None until its first draw). A copy shares
    the original's Random objects: whichever of them draws while another still holds the
    object takes its own copy of it first (``_made``), so that the others continue from
    where they were — and one that finds the object its own alone (the copies it was
    shared with are gone) draws from it as it is. A look-ahead copies the battle per
    option tried, the copies almost never draw and are dropped, and reading and writing
    the Twister's 625 words at every draw after a copy cost a twentieth of a battle.
    Nothing outside keeps a stream's Random across a copy: the rules ask
    ``streams.effects`` at each draw."""

    #: The fields, in the order a battle that takes a copy's position sets them
    #: (runtime/battle.py ``_adopt``).
    FIELDS = ("shuffle", "_seed", "_effects", "_enemy")
    __slots__ = FIELDS

    def __init__(self, shuffle: ShuffleStream, effects: random.Random | None,
                 enemy: random.Random | None, *, seed=None):
        self.shuffle, self._effects, self._enemy = shuffle, effects, enemy
        #: What a stream not made yet is seeded from (``seeded``); None: both are given.
        self._seed = seed

    @classmethod
    def seeded(cls, seed: int) -> "Streams":
        """The streams of a run of ``seed`` (a str seed is hashed by sha512: stable across
        processes and Python builds)."""
        return cls(ShuffleStream(seed), None, None, seed=seed)

    @property
    def effects(self) -> random.Random:
        """What page effects pick at random (生成 without a choice, 移動・複製 at random)."""
        rng = self._effects
        # Held by another Streams too (a copy, or the original of this copy): drawn from
        # here, it would move under the other — so this one draws from its own.
        if rng is None or sys.getrefcount(rng) > _ALONE:
            rng = self._effects = _made(rng, f"effects:{self._seed}")
        return rng

    @property
    def enemy(self) -> random.Random:
        """The enemy's random targets (白紙化)."""
        rng = self._enemy
        if rng is None or sys.getrefcount(rng) > _ALONE:
            rng = self._enemy = _made(rng, f"enemy:{self._seed}")
        return rng

    def copy(self) -> "Streams":
        """Independent streams that continue exactly as these would (a stream not made
        yet stays so: the copy makes it from the same seed; a stream made is shared until
        one of them draws from it)."""
        return Streams(self.shuffle.copy(), self._effects, self._enemy, seed=self._seed)


def _made(rng: random.Random | None, seed: str) -> random.Random:
    """A stream's own Random: one continuing as ``rng`` would, or (None) a new one seeded
    from ``seed``."""
    if rng is None:
        return random.Random(seed)
    # Seeded with 0, not from the OS's entropy, and without Random.__init__ (which seeds
    # once more, in Python): setstate replaces the whole state.
    out = random.Random.__new__(random.Random, 0)
    out.setstate(rng.getstate())
    return out


def _references_alone() -> int:
    """What ``sys.getrefcount`` says of a stream's Random held by one Streams only, read
    as the properties read it (the slot, the local name, the call's argument): measured
    rather than assumed, as Python and the compiled twin count their own references."""
    holder = Streams(ShuffleStream(0), random.Random(0), None)
    rng = holder._effects
    return sys.getrefcount(rng)


#: See ``_references_alone``.
_ALONE = _references_alone()
