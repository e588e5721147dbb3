"""防御 — the defense multiset: gained from the distance to 座 at the end of the turn, consumed by hits shortest-lived first (spec 002 防御は多重集合である).

A part of ``Battle`` (runtime/battle.py): its methods share the battle's state and
events; the class exists so that this concept can be read on its own.
"""

from __future__ import annotations

from .sayou import truncate



class Defense:
    """防御 — the methods of Battle for it."""

    def _phase_defense(self):
        """7. 防御の獲得: defense_coef × |刻 − 座|, gone at the end of the turn."""
        s = self.state
        amount = truncate(s.param("defense_coef") * abs(s.age - s.enemy["seat"]))
        if amount > 0:
            s.add_defense(amount, "turn")
            s.count("turn", "defense_gained", amount)
        self.emit("defense_from_distance", amount, s.age, s.enemy["seat"], s.defense_total())
        return self._fire_board("after_defense")

    def consume_defense(self, amount: int, one_intent: bool = False,
                        absorbed_by: list | None = None) -> int:
        """Absorb ``amount`` with defense, shortest-lived first; returns what is left.

        An on-hit value absorbs one Intent and then vanishes, whatever is left of it.
        ``one_intent``: this is the hit of an Intent (its ``defense_consumed`` events say
        ``during="hit"``: they are part of the hit). ``absorbed_by`` gets one
        ``[lifetime, absorbed, vanished]`` per lifetime of defense the hit touched, in
        consumption order (a 被弾1回 value vanishes with what it did not absorb).
        """
        s = self.state
        defense = s.defense  # kept in consumption order
        left = amount
        spent = []
        hit = one_intent  # one_intent turns False once a 被弾1回 value is used
        for i, entry in enumerate(defense):
            value, expiry = entry
            on_hit = expiry == "on_hit"
            if left <= 0 and not (one_intent and on_hit):
                break
            if on_hit and not one_intent:
                continue
            used = value if value < left else left
            left -= used
            entry[0] = value - used
            if used:
                if hit:
                    self.emit("defense_consumed", used, expiry, "hit")
                else:
                    self.emit("defense_consumed", used, expiry)
            if absorbed_by is not None and (used or on_hit):
                vanished = entry[0] if on_hit else 0
                if absorbed_by and absorbed_by[-1][0] == expiry:  # one row per lifetime
                    absorbed_by[-1][1] += used
                    absorbed_by[-1][2] += vanished
                else:
                    absorbed_by.append([expiry, used, vanished])
            if on_hit or entry[0] <= 0:
                spent.append(i)
            if on_hit:
                one_intent = False  # one on-hit entry per Intent
        if spent:
            s.defense = [d for i, d in enumerate(defense) if i not in spent]
        return left
