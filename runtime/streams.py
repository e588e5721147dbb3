"""乱数の流れ — the battle's seeded random streams, one per source of chance.

A run draws its chance from three streams, each seeded from the run's seed alone: the
shuffles of the draw pile (``shuffle``: ``Random(seed)``, as the one RNG of earlier runs
was, so a deck's shuffles did not change), what page effects pick at random (``effects``:
生成 without a choice, a random pick of 移動・複製) and the enemy's random targets
(``enemy``: 白紙化). Separate streams keep two battles of one seed aligned where their
decks differ: a deck with one more page shuffles differently, but the enemy still blanks
from the same numbers (the paired simulations of ``jibunki sim`` rely on it).
"""

from __future__ import annotations

import random

#: The streams, in the order a save lists them.
NAMES = ("shuffle", "effects", "enemy")


class Streams:
    """乱数の流れ — one ``random.Random`` per source of chance (``NAMES``)."""

    __slots__ = NAMES

    def __init__(self, shuffle: random.Random, effects: random.Random, enemy: random.Random):
        self.shuffle, self.effects, self.enemy = shuffle, effects, enemy

    @classmethod
    def seeded(cls, seed: int) -> "Streams":
        """The streams of a run of ``seed`` (a str seed is hashed by sha512: stable across
        processes and Python builds)."""
        return cls(random.Random(seed), random.Random(f"effects:{seed}"),
                   random.Random(f"enemy:{seed}"))

    def copy(self) -> "Streams":
        """Independent streams that continue exactly as these would."""
        out = []
        for name in NAMES:
            rng = random.Random()
            rng.setstate(getattr(self, name).getstate())
            out.append(rng)
        return Streams(*out)

    def states(self) -> dict[str, tuple]:
        """Each stream's ``getstate()``, by name (for saves)."""
        return {name: getattr(self, name).getstate() for name in NAMES}
