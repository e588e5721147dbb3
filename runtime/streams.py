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

#: The streams, in the order a save lists them.
NAMES = ("shuffle", "effects", "enemy")


_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser: 64 well-mixed bits of ``x`` (Steele, Lea and Flood 2014)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
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
        pile.sort(key=lambda uid: (_mix(base ^ uid), uid))

    def copy(self) -> "ShuffleStream":
        """The same stream, continuing independently."""
        return ShuffleStream(self.seed, self.count)


class Streams:
    """乱数の流れ — one ``random.Random`` per source of chance (``NAMES``).

    The ``effects`` and ``enemy`` streams of a seeded run are made on their first draw,
    from the same seed: seeding a Random from a string (sha512 and the Mersenne Twister's
    init) costs more than a whole short battle's turn, and many battles (a deck that picks
    nothing at random against an enemy without 白紙化) never draw from them.

    A stream is held as its ``random.Random``, or as a snapshot of one (its state, as
    ``getstate`` gives it) until it is drawn from again: a copy takes the snapshot once
    and the original and every copy share it (an immutable tuple), each making its own
    Random only when it draws — a look-ahead copies the battle per option tried and the
    copies almost never draw, and reading the Twister's 625 words cost as much as
    copying the rest of the battle. Nothing outside keeps a stream's Random across a
    copy: the rules ask ``streams.effects`` at each draw."""

    __slots__ = ("shuffle", "_seed", "_effects", "_enemy")

    def __init__(self, shuffle: ShuffleStream, effects: random.Random | tuple | None,
                 enemy: random.Random | tuple | None, *, seed=None):
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
        if not isinstance(rng, random.Random):
            rng = self._effects = _made(rng, f"effects:{self._seed}")
        return rng

    @property
    def enemy(self) -> random.Random:
        """The enemy's random targets (白紙化)."""
        rng = self._enemy
        if not isinstance(rng, random.Random):
            rng = self._enemy = _made(rng, f"enemy:{self._seed}")
        return rng

    def copy(self) -> "Streams":
        """Independent streams that continue exactly as these would (a stream not made
        yet stays so: the copy makes it from the same seed; a stream made is shared as
        a snapshot, by these streams too)."""
        effects, enemy = self._effects, self._enemy
        # Tested here rather than in _snapshot: most copies find neither stream made.
        if effects is not None or enemy is not None:
            self._effects, self._enemy = effects, enemy = _snapshot(effects), _snapshot(enemy)
        return Streams(self.shuffle.copy(), effects, enemy, seed=self._seed)


def _snapshot(rng):
    """A stream as a snapshot: a Random's state; a snapshot or None as it is."""
    return rng.getstate() if isinstance(rng, random.Random) else rng


def _made(snapshot: tuple | None, seed: str) -> random.Random:
    """The Random of a snapshot, or (None) a new one seeded from ``seed``."""
    if snapshot is None:
        return random.Random(seed)
    # Seeded with 0, not from the OS's entropy, and without Random.__init__ (which seeds
    # once more, in Python): setstate replaces the whole state.
    out = random.Random.__new__(random.Random, 0)
    out.setstate(snapshot)
    return out
