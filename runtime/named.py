"""ページ名で書いた行動 — an action written with page ids instead of uids, as a scenario
(例) writes it: ``Play("nyuugaku")`` is the play of the first 入学式 in the hand.

A scenario step is such a *named* action (scenario/check.py makes it); a session
recorded as a scenario writes each of its actions named (``named``), and both the
scenario runner and the recording's check play a named action through ``resolve`` —
one way from a written step to the battle's action, so a recording cannot replay
otherwise than the example it writes.

Named fields: the ``uid`` of ``Play``, ``Pen`` and ``Tear`` is a page id (the first hand
page with it); each of ``Choose.uids`` is a page id (the first candidate left with it —
a 生成's candidates are page ids already). ``EndTurn`` and ``DevSet`` name no page.
"""

from __future__ import annotations

from dataclasses import replace

from contract.game import Choose, Pen, Play, Tear
from contract.vocabulary import W

from .state import BattleFields

__all__ = ["Unnamed", "named", "resolve"]


class Unnamed(LookupError):
    """A named page the battle does not offer now (not in the hand, not a candidate);
    ``reason`` is for the designer to read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _page_id(battle: BattleFields, candidate) -> str:
    return candidate if isinstance(candidate, str) else battle.state.pages[candidate].page


def _in_hand(battle: BattleFields, action):
    for uid in battle.state.zones["hand"]:
        if battle.state.pages[uid].page == action.uid:
            return replace(action, uid=uid)
    hand = "、".join(battle.state.pages[uid].page for uid in battle.state.zones["hand"])
    raise Unnamed(f"{W.region.hand}に「{action.uid}」がありません（{W.region.hand}: {hand or 'なし'}）")


def _chosen(battle: BattleFields, action: Choose) -> Choose:
    pending = battle.pending
    if pending is None:
        raise Unnamed("いま選ぶものはありません")
    pool, picked = list(pending.candidates), []
    for page in action.uids:
        match = next((c for c in pool if _page_id(battle, c) == page), None)
        if match is None:
            raise Unnamed(f"候補に「{page}」がありません")
        pool.remove(match)
        picked.append(match)
    return Choose(tuple(picked))


#: Action class → the action with its page ids made uids (absent: it names no page).
_RESOLVE = {Play: _in_hand, Pen: _in_hand, Tear: _in_hand, Choose: _chosen}
def _named_uid(battle: BattleFields, action):
    return replace(action, uid=_page_id(battle, action.uid))


def _named_uids(battle: BattleFields, action: Choose) -> Choose:
    return Choose(tuple(_page_id(battle, c) for c in action.uids))


#: Action class → the action with its uids named by page id.
_NAME = {Play: _named_uid, Pen: _named_uid, Tear: _named_uid, Choose: _named_uids}


def resolve(battle: BattleFields, action):
    """The battle's action for a named ``action`` (Unnamed when a page is not offered)."""
    how = _RESOLVE.get(type(action))
    return action if how is None else how(battle, action)


def named(battle: BattleFields, action):
    """``action`` (of ``battle``, by uids) with its pages named by id."""
    how = _NAME.get(type(action))
    return action if how is None else how(battle, action)
