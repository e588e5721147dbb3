"""What a hover on a page's or an enemy's id says is what the catalog says of it: a page's
行き先 and 綻び倍率, an enemy's 予兆, エスカレーション and every 特性 (a QA sweep of stop 74:
軽減, 加速, 不動 and 封鎖 were missing, and a page that exiles itself hovered as one that
goes to the discard)."""

from __future__ import annotations

import pytest

from catalog.phrasing import INTENT_TEXT, escalation_text, trait_text
from lsp.features import enemy_markdown, page_markdown
from runtime.tables import load


@pytest.fixture(scope="module")
def tables():
    return load()


def test_an_enemy_hover_names_its_intents_escalations_and_every_trait(tables):
    for enemy in tables.enemies.values():
        said = enemy_markdown(enemy)
        for trait in enemy.traits:  # 軽減, 加速, 不動, 封鎖 …
            assert trait_text(trait) in said, (enemy.id, said)
        assert " → ".join(INTENT_TEXT[i.kind](i) for i in enemy.intents) in said
        for escalation in enemy.escalations:
            assert escalation_text(escalation) in said
    assert "1発ごとの軽減 4" in enemy_markdown(tables.enemies["shimekiri"])
    assert "加速 1" in enemy_markdown(tables.enemies["kodoku"])


def test_a_page_hover_names_its_destination_and_fray_multiplier(tables):
    assert "行き先: 除外（ラン） · 綻び倍率 1.8" in page_markdown(tables.pages["moetsuki"])
    assert "行き先: 捨て札" in page_markdown(tables.pages["tabidachi"])
    assert "綻び倍率" not in page_markdown(tables.pages["tabidachi"])  # 1: nothing to say
