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
    """乱数の流れ — one ``random.Random`` per source of chance (``NAMES``)."""

    __slots__ = NAMES

    def __init__(self, shuffle: ShuffleStream, effects: random.Random, enemy: random.Random):
        self.shuffle, self.effects, self.enemy = shuffle, effects, enemy

    @classmethod
    def seeded(cls, seed: int) -> "Streams":
        """The streams of a run of ``seed`` (a str seed is hashed by sha512: stable across
        processes and Python builds)."""
        return cls(ShuffleStream(seed), random.Random(f"effects:{seed}"),
                   random.Random(f"enemy:{seed}"))

    def copy(self) -> "Streams":
        """Independent streams that continue exactly as these would."""
        return Streams(self.shuffle.copy(), _copy(self.effects), _copy(self.enemy))


def _copy(rng: random.Random) -> random.Random:
    # Random(0), not Random(): seeding from the OS's entropy costs more than the copy.
    out = random.Random(0)
    out.setstate(rng.getstate())
    return out
