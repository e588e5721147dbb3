"""At the keyboard a pen and a tear show their preview and ask y/n before they act
(terminal/session.py ``confirm``); a refusal comes before the question, so the player is
never asked to confirm what cannot happen."""

from __future__ import annotations

import pytest

from runtime.tables import load
from terminal.session import Session


@pytest.fixture(scope="module")
def tables():
    return load()


def asking_session(tables):
    """A keyboard session of seed 3 (旅立ちの朝 6th in the hand, its past face a pen
    writes) that answers yes to every question and keeps what it was asked."""
    asked = []

    def confirm(lines):
        asked.append(lines)
        return True

    return Session(tables, seed=3, enemies=["haguruma"], deck=None, confirm=confirm), asked


def test_a_pen_with_none_left_this_stage_is_refused_without_asking(tables):
    session, asked = asking_session(tables)
    assert session.run("pen 6 過去").refused is None and len(asked) == 1
    outcome = session.run("pen 6 過去")
    assert "ペンは使い切りました" in outcome.refused and outcome.refused.startswith("「旅立ちの朝」にペンを入れられません")
    assert len(asked) == 1


def test_a_tear_with_none_left_this_stage_is_refused_without_asking(tables):
    session, asked = asking_session(tables)
    assert session.run("tear 1").refused is None and len(asked) == 1
    outcome = session.run("tear 1")
    assert "もう破れません" in outcome.refused and len(asked) == 1


def test_a_pen_that_can_happen_is_still_asked_and_a_no_leaves_the_battle_as_it_was(tables):
    session = Session(tables, seed=3, enemies=["haguruma"], deck=None,
                      confirm=lambda lines: False)
    before = session.battle.state.pens_used
    outcome = session.run("pen 6 過去")
    assert outcome.notes == ["やめました"] and session.battle.state.pens_used == before
