"""座の移動 — where a move of the enemy's 座 lands (DESIGN §6.1 seat movement).

座 never goes below 0, and an enemy with 不動 never moves. A telegraphed move shows, at
予兆, the signed amount it will do: an assignment aims at its value, an addition moves
by it. The battle (runtime/enemy.py) moves by these rules and the catalog draws the
ranges they give (catalog/enemy_turns.py). Standard library only, pure.
"""

from __future__ import annotations


def moved(seat: int, delta: int, immobile: bool) -> int:
    """座 after a move of ``delta``: unchanged for an immobile enemy, never below 0."""
    return seat if immobile else max(0, seat + delta)


def planned(op: str, direction: str | None, value: int, seat: int) -> dict:
    """A telegraphed move of a 作用 on 座 with the (truncated) value ``value`` from
    ``seat``: ``amount`` the signed move, ``to`` the position it aims at."""
    if op == "assign":
        return {"amount": value - seat, "to": value}
    amount = -value if direction == "decrease" else value
    return {"amount": amount, "to": max(0, seat + amount)}
