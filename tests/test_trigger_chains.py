"""Trigger chains are bounded (issue 32, item 14): two run-long 作用 that answer
ページが除外された時 — one returns a page from 除外 to the hand, the other sends a hand page
to 除外 — set each other off without end. Past board.CHAIN_BOUND links in one step the
battle stops the chain with an event naming the 作用 of the loop, and goes on."""

from __future__ import annotations

import json

import pytest

from conftest import compiled_tables, invoke_cli

#: Two lint-clean pages whose continuing effects set each other off (ids kaeri, wasure).
LOOP_PAGES = """
ページ kaeri "帰り道" {
  銘 54
  出自 熟年期
  未来面 {
    移動 1枚 除外 -> 手札 ランダム 毎 ページが除外された時 範囲 ラン
  }
  過去面 白紙
  ペン 過去面 { 歩 += 1 }
}

ページ wasure "忘れ物" {
  銘 56
  出自 熟年期
  未来面 {
    移動 1枚 手札 -> 除外 ランダム 毎 ページが除外された時 範囲 ラン
  }
  過去面 白紙
  ペン 過去面 { 歩 += 1 }
}
"""

#: The example: both pages on the board, then 断捨離 exiles a hand page.
LOOP_EXAMPLE = """
例 "除外に答える二つの作用" {
  敵 haguruma
  開始 刻 50, 歩 200, 手札 [kaeri, wasure, dansyari, kenka, shigoto]
  出す kaeri
  出す wasure
  開始 刻 40
  出す dansyari
  選ぶ kenka
  確認 歩 >= 0
}
"""

#: The same battle as a terminal script.
LOOP_SCRIPT = ("set 手札 kaeri wasure dansyari kenka shigoto\nset 刻 50\nset 歩 200\n"
               "play 1\nplay 1\nset 刻 40\nplay 1\nchoose 1\n")


@pytest.fixture
def looping(content):
    """The bundled content with the two pages that answer each other's exile."""
    with (content / "pages" / "熟年期.page").open("a", encoding="utf-8") as out:
        out.write(LOOP_PAGES)
    return content


def _loop_battle(tables):
    """Both pages on the board, 断捨離 played and waiting for its choice."""
    from runtime.battle import Battle

    battle = Battle.new(tables, seed=1, enemies=["haguruma"])
    battle.dev_set(hand=["kaeri", "wasure", "dansyari", "kenka", "shigoto"], age=50,
                   steps=200)
    for page in ("kaeri", "wasure"):
        battle.play(next(u for u in battle.hand if battle.state.pages[u].page == page))
    battle.dev_set(age=40)
    battle.play(next(u for u in battle.hand if battle.state.pages[u].page == "dansyari"))
    return battle


def test_a_chain_of_exiles_is_stopped_past_the_bound_and_names_its_effects(looping):
    from runtime.board import CHAIN_BOUND

    tables = compiled_tables(looping)
    battle = _loop_battle(tables)
    kenka = next(u for u in battle.pending.candidates
                 if battle.state.pages[u].page == "kenka")
    events = battle.choose([kenka])  # the exile that sets the loop off: no RecursionError
    stopped = [e for e in events if e.kind == "chain_stopped"]
    assert len(stopped) == 1
    data = stopped[0].data
    assert data["bound"] == CHAIN_BOUND
    lines = {p.id: p.faces["future"].effects[0].line for p in
             (tables.pages["kaeri"], tables.pages["wasure"])}
    assert data["links"] == [["page", "kaeri", lines["kaeri"], "move", "on_exile"],
                             ["page", "wasure", lines["wasure"], "move", "on_exile"]]
    # The step set off no more than the bound, and what came after the stop is whole.
    assert sum(e.kind == "page_moved" for e in events) <= 2 * CHAIN_BOUND + 4


def test_after_a_stopped_chain_the_battle_goes_on_and_saves(looping):
    from runtime.save import from_json, to_json

    tables = compiled_tables(looping)
    battle = _loop_battle(tables)
    battle.choose([battle.pending.candidates[0]])
    assert not battle.over and battle.pending is None
    s = battle.state
    assert sorted(u for zone in s.zones.values() for u in zone) == list(range(len(s.pages)))
    loaded = from_json(tables, to_json(battle))
    assert to_json(loaded) == to_json(battle)
    # The loaded run plays on as the saved one does.
    assert [e.as_dict() for e in battle.end_turn()] == [e.as_dict() for e in loaded.end_turn()]


def test_an_example_of_a_chain_without_end_fails_naming_the_chain(looping, monkeypatch):
    monkeypatch.setenv("JIBUNKI_NO_CACHE", "1")
    (looping / "tests" / "loop.scenario").write_text(LOOP_EXAMPLE, encoding="utf-8")
    result = invoke_cli("test", str(looping / "tests" / "loop.scenario"),
                        "--content", str(looping))
    assert result.exit_code == 1, result.output
    assert "E000" not in result.output and "RecursionError" not in result.output
    failed = [line for line in result.output.splitlines() if "作用の連鎖を止めました: 1 手で" in line]
    assert failed and "kaeri" in failed[0] and "wasure" in failed[0], result.output
    assert "ページが除外された時" in failed[0] and "移動" in failed[0]
    # each link says the file and line it is written on (pages spread over several files)
    import re
    from pathlib import Path

    places = re.findall(r"(kaeri|wasure)（([^（）]+\.page):(\d+)）の", failed[0])
    assert {page for page, _, _ in places} == {"kaeri", "wasure"}, failed[0]
    for page, path, line in places:
        lines = Path(path).read_text(encoding="utf-8").split("\n")
        assert "移動" in lines[int(line) - 1], (path, line)


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_the_terminal_says_the_chain_was_stopped_and_the_json_stream_carries_it(looping,
                                                                                tmp_path,
                                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "loop.txt"
    script.write_text(LOOP_SCRIPT, encoding="utf-8")
    said = invoke_cli("battle", "--script", str(script), "--content", str(looping))
    assert "Traceback" not in said.output
    line = next(line for line in said.output.splitlines() if "作用の連鎖を止めた" in line)
    assert "帰り道" in line and "ページが除外された時" in line
    streamed = invoke_cli("battle", "--script", str(script), "--content", str(looping),
                          "--json")
    events = [json.loads(line) for line in streamed.output.splitlines()
              if line.startswith("{")]
    stopped = [e for e in events if e["kind"] == "chain_stopped"]
    assert len(stopped) == 1
    assert [link[1] for link in stopped[0]["links"]] == ["kaeri", "wasure"]


def test_the_bundled_content_sets_off_no_chain_near_the_bound(monkeypatch):
    """The bound is for loops only: random battles of the bundled content (every page in
    play, pens and tears included) chain at most a link or two in a step."""
    import random

    from runtime import board
    from runtime.battle import Battle
    from runtime.board import CHAIN_BOUND
    from runtime.tables import load

    peak = []
    made = board._link

    def counted(battle, placed):
        peak.append(battle._links_made + 1)
        return made(battle, placed)

    monkeypatch.setattr(board, "_link", counted)
    tables = load()
    for seed in range(30):
        policy = random.Random(seed)
        battle = Battle.new(tables, seed=seed, enemies=sorted(tables.enemies)[:2],
                            deck=sorted(tables.pages)[seed % 5::5][:12], record=False)
        for _ in range(150):
            if battle.over:
                break
            battle.apply(policy.choice(battle.actions()))
    assert max(peak, default=0) < CHAIN_BOUND // 8


def test_a_chain_that_asks_the_player_at_each_link_is_bounded_across_the_answers(content):
    """The answers to a chain's own 選択 continue the same step: the bound holds across
    them, so a bot that answers every choice is not kept answering for ever."""
    from runtime.battle import Battle
    from runtime.board import CHAIN_BOUND

    asking = LOOP_PAGES.replace("手札 -> 除外 ランダム", "手札 -> 除外 選択")
    with (content / "pages" / "熟年期.page").open("a", encoding="utf-8") as out:
        out.write(asking)
    tables = compiled_tables(content)
    battle = Battle.new(tables, seed=2, enemies=["haguruma"])
    battle.dev_set(hand=["kaeri", "wasure", "dansyari", "kenka", "shigoto", "hatsu_koe"],
                   age=50, steps=200)
    for page in ("kaeri", "wasure"):
        battle.play(next(u for u in battle.hand if battle.state.pages[u].page == page))
    battle.dev_set(age=40)
    events = list(battle.play(next(u for u in battle.hand
                                   if battle.state.pages[u].page == "dansyari")))
    answers = 0
    while battle.pending is not None and answers < 10 * CHAIN_BOUND:
        events += battle.choose(battle.pending.candidates[:battle.pending.count])
        answers += 1
    assert battle.pending is None and answers <= CHAIN_BOUND + 2
    assert [e.data["links"][-1][1] for e in events if e.kind == "chain_stopped"] == ["wasure"]
