"""A constructed content for the trigger graph's surfaces (catalog cards, the editor's
hover): small_content's pages, plus a producer — 捨てる (sutero), whose future face exiles
a page from the hand — and a listener — 箱 (hako), whose future face hits the enemy each
time a page is exiled. The producer's name carries markup, to prove it stays text."""

from __future__ import annotations

from pathlib import Path

from conftest import small_content

PRODUCER, LISTENER = "sutero", "hako"
#: The producer's name: designer text that looks like markup.
PRODUCER_NAME = "<script>alert(1)</script>捨てる"
#: The lines (1-based) of the producer's and the listener's 作用 in TRIGGER_PAGES.
PRODUCER_LINE, LISTENER_LINE = 6, 16

TRIGGER_PAGES = f"""# 誘発の組
ページ {PRODUCER} "{PRODUCER_NAME}" {{
  銘 52
  出自 熟年期
  未来面 {{
    移動 1枚 手札 -> 除外 選択
    歩 += 8
  }}
  過去面 {{ 防御 += 3 }}
}}

ページ {LISTENER} "箱" {{
  銘 53
  出自 熟年期
  未来面 {{
    敵HP -= 8 毎 ページが除外された時 範囲 ステージ
  }}
  過去面 {{ 防御 += 3 }}
}}
"""


def trigger_content(folder: Path) -> Path:
    """small_content in ``folder`` with TRIGGER_PAGES as pages/誘発.page."""
    small_content(folder)
    (folder / "pages" / "誘発.page").write_text(TRIGGER_PAGES, encoding="utf-8")
    return folder
