"""The hour's calibration: the seconds a fixed pure-Python loop takes on this machine now.

The machine's speed drifts through the day by up to ×3, so the README gives each timed
figure with the calibration of its hour (0.11–0.54 seen); run this before and after a
timing to place it. Not a benchmark of jibunki: the same 3,000,000 steps of integer
arithmetic whatever the tree.
"""

from __future__ import annotations

import time

STEPS = 3_000_000


def calibration() -> float:
    """Seconds of one run of the loop (the best of three, so one interruption does not
    count)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(STEPS):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":
    print(f"calib {calibration():.2f}")
