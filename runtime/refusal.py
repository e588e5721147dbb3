"""拒否 — the one exception an action raises: the rules do not allow it now."""

from __future__ import annotations


class Refused(Exception):
    """An action the rules do not allow now. ``reason`` is for the player to read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
