"""座の移動 — where a move of the enemy's 座 lands (DESIGN §6.1 seat movement).

座 stays on the number line — never below 0, never beyond 寿命上限 (spec 000 盤面: the
enemy stands on the line, whose two ends are walls) — and an enemy with 不動 never
moves. A telegraphed move shows, at 予兆, the signed amount it will do: an assignment
aims at its value, an addition moves by it. The battle (runtime/enemy.py) moves by these rules and the catalog draws the
ranges they give (catalog/enemy_turns.py). Standard library only, pure.
"""

from __future__ import annotations


def on_line(seat: int, top: int) -> int:
    """``seat`` held between the line's walls: 0 and ``top`` (寿命上限)."""
    return min(max(0, seat), max(0, top))


def moved(seat: int, delta: int, immobile: bool, top: int) -> int:
    """座 after a move of ``delta`` with 寿命上限 ``top``: unchanged for an immobile
    enemy, else stopped at the walls (``on_line``)."""
    return seat if immobile else on_line(seat + delta, top)


def planned(op: str, direction: str | None, value: int, seat: int, top: int,
            immobile: bool = False) -> dict:
    """A telegraphed move of a 作用 on 座 with the (truncated) value ``value`` from
    ``seat`` under 寿命上限 ``top``: ``amount`` the signed move as written, ``to`` where
    it lands (``on_line``) — for an ``immobile`` enemy none, where it stands: 予告 shows
    what the enemy phase will do (``moved``)."""
    if immobile:
        return {"amount": 0, "to": on_line(seat, top)}
    if op == "assign":
        return {"amount": value - seat, "to": on_line(value, top)}
    amount = -value if direction == "decrease" else value
    return {"amount": amount, "to": on_line(seat + amount, top)}
