"""Basic behaviour of lint on the bundled content and on small inputs."""

from __future__ import annotations

from click.testing import CliRunner

from cli import main
from conftest import ROOT, codes


def test_bundled_content_is_clean(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["lint"])
    assert result.exit_code == 0, result.output
    assert "エラー 0 件" in result.output


def test_ascii_aliases_mean_the_same_as_japanese():
    ja = "ページ t {\n 銘 30\n 未来面 { 防御 += 6 寿命 被弾1回 }\n 過去面 白紙\n}\n"
    en = "page t {\n mei 30\n future { bougyo += 6 life on_hit }\n past blank\n}\n"
    assert codes(ja) == codes(en) == []


def test_one_line_effect_is_complete():
    assert codes("ページ t { 銘 1; 未来面 { 敵HP -= 12 } }") == []
