"""`jibunki journey`: draft 17 in the terminal, driven by script — the transcript, undo,
the exit status of each ending, the JSON event stream, and a clear error (never a
traceback) for a bad line, a bad seed, a set-up or an item that does not exist."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli import main
from conftest import ROOT, invoke_cli
from journey import Journey, load_rules
from journey.state import Deal, State
from journey.screen.terminal import (EXIT_LOST, EXIT_UNFINISHED, EXIT_WON, Game, card_texts,
                                     exit_status, narrate)
from terminal.script import EXIT_STOPPED, EXIT_UNPLAYED

GOLDEN_GAME = ROOT / "tests" / "golden" / "journey" / "draft-seed12.json"


pytestmark = pytest.mark.usefixtures("at_root")


def journey(script: str, *args: str):
    return invoke_cli("journey", "--seed", "3", *args, input=script)


def test_script_prints_the_days_the_hand_the_items_the_flags_and_what_each_action_did():
    out = journey("play 白2\n").output
    assert "旅の準備 草案１７（草案）、シード 3: 大都会 → 廃坑 → 浜辺 → 無人駅 → 湾岸道路 → 小さな町 → 千年樹" in out
    assert "1  大都会" in out and "7  千年樹" in out and "○●●" in out
    assert "手札: 白2(花) 白5(星) 緑4(星) 緑6(鳥)" in out
    assert "アイテム: 地図（未使用）  テント（未使用）" in out
    assert "フラグ 赤 珍獣屋のおじさん、現る（黒ポーン移動）" in out
    assert "> play 白2\n白2 をプレイ: 白いポーン 1 → 3 日目" in out
    assert "白2 を 3 日目に配置" in out


def test_same_seed_and_script_print_the_same_transcript():
    script = "play 白2\neffect 黒6\nplay 緑4\n"
    assert journey(script).output == journey(script).output
    assert journey(script, "--seed", "4").output != journey(script).output


def test_undo_takes_back_the_last_action():
    out = journey("play 白2\nundo\nactions\n").output
    assert "一手戻しました" in out
    final = out.split("── 最後の盤面 ──")[1]
    assert "手札: 白2(花) 白5(星) 緑4(星) 緑6(鳥)" in final
    assert "× 戻せる手がありません" in journey("undo\n").output


def test_undo_does_not_take_back_an_action_that_showed_cards_of_the_deck():
    """The draft invites rewinding the pawns, not the deck (◎思考実験について): undo after
    ラジオ or a refill drew showed the next cards, and the game taken back was then played
    knowing them. The actions before such a one are not undone past it either."""
    from journey.notation import action_labels

    game = Game.deal(load_rules("草案"), 3)
    while True:  # the first action each time, until one draws a card
        said, events, _ = game.run(next(iter(action_labels(game.journey))))
        drawn = [e["card"] for e in events if e["event"] in ("draw", "mill")]
        if drawn:
            break
    position = game.journey.view()
    said, events, _ = game.run("undo")
    assert said[0].startswith(f"× この手で山から {' '.join(drawn)} を引いたので、戻せません")
    assert events == [] and game.journey.view() == position


def test_undo_does_not_take_back_a_loop_whose_card_waits_for_the_tents_choice():
    """A loop with a ready テント draws its card and shows it («引いたカード») before the
    choice: undo then would let the play be chosen again knowing the deck's top."""
    out = journey("play 緑5 黒1\nitem 地図\nplay 青2 黒1\nundo\n", "--seed", "4").output
    assert "引いたカード: 黄3(花)" in out
    assert "× この手で山から 黄3 を引いたので、戻せません" in out and "一手戻しました" not in out


@pytest.mark.parametrize("seed", ["-1", "99999999999999999999999"])
def test_a_game_takes_the_seeds_the_report_takes(seed):
    """--seed -1 dealt seed 1's game (Python's Random reads -1 as 1), and a seed past 2**62
    was a game the report could never measure: both are usage errors, as in the report."""
    result = invoke_cli("journey", f"--seed={seed}", input="")
    assert result.exit_code == 2 and "シードは 0 以上、4,611,686,018,427,387,904 以下の整数です" \
        in result.output, result.output


def test_a_verb_of_another_moment_is_refused_for_the_verb_not_for_the_card_it_names():
    """「戻す 緑1」 where nothing is returned was refused as 「緑1 は手札にありません」 (and 「戻す
    緑5」 for 戻す): the card was never the reason."""
    out = journey("play 緑1 黒1\n進む\n戻す 緑1\nplay 白6 黒2\n", "--seed", "4").output
    assert "× いまは 戻す はできません: 「戻す 緑1」" in out
    assert "× いまは 出す はできません: 「play 白6 黒2」" in out
    assert "手札にありません" not in out


def test_a_script_that_stops_before_the_end_leaves_the_game_unfinished():
    result = journey("play 白2\n")
    assert result.exit_code == EXIT_UNFINISHED and "結果: 途中（手番 1）" in result.output


def test_a_lost_game_exits_one():
    game = json.loads(GOLDEN_GAME.read_text(encoding="utf-8"))
    result = CliRunner().invoke(main, ["journey", "--seed", str(game["seed"]), "--items",
                                       ",".join(game["items"])], input="\n".join(game["actions"]))
    assert result.exit_code == EXIT_LOST, result.output
    assert "結果: 敗北" in result.output and "× " not in result.output


def test_a_won_game_exits_zero():
    game = _game(white=3, blacks=(2, 6), resolved=0b11111)
    said, events, _ = game.run("play 緑3 黒3")
    assert exit_status(game.journey) == EXIT_WON
    assert "ゲームクリア！ スコア 2（山 2・レター 0・キーアイコン 0・費用 0）" in said


def test_refused_lines_are_said_with_their_line_number_and_the_script_goes_on():
    out = journey("ループ 捨て札\nplay 白1\nplay 白2\n").output
    # a verb of the game at another moment is no unknown verb
    assert ("× いまは ループ はできません: 「ループ 捨て札」。いまできるのは: アイテム、出す"
            "（ヘルプ で書き方を表示）（1 行目）") in out
    assert "× 白1 は手札にありません（手札: 白2 白5 緑4 緑6）（2 行目）" in out
    assert "白2 をプレイ" in out  # the line after them was played


def test_a_refused_item_or_letter_says_why_not_only_what_can_be_done():
    out = journey("item テント\nletter location 黒1 +1\nitem 地図\nitem 地図\nitem ランタン 赤\n").output
    assert "× テント はループで引いたカードにだけ使えます（ループ 山の下）（1 行目）" in out
    assert "× レターを持っていません（物語を1つ解決すると1個得ます）（2 行目）" in out
    assert "× 地図 は使用済みです（緑のフラグの効果で縦置きに戻せます）（4 行目）" in out
    assert "× アイテム「ランタン」は持っていません（持っているのは: 地図、テント）（5 行目）" in out


def test_an_item_with_nothing_to_do_says_the_rule_that_stops_it():
    """ランタン before any story is resolved, リュックサック with no event on the white
    pawn's day or the hand's last card at the move phase, ラジオ on an empty deck: each was
    refused with 「いまは item はできません」 or a list of other actions."""
    out = invoke_cli("journey", "--seed", "3", "--items", "ランタン,リュックサック",
                     input="item ランタン 赤\nitem リュックサック\n").output
    assert "× ランタン は解決した物語に使います（解決した物語はまだありません）（1 行目）" in out
    assert ("× リュックサック は白いポーンの日（1 日目）のイベントと入れ替えます"
            "（いまそこにイベントがありません）（2 行目）") in out
    rules = load_rules()
    carried = (rules.items["ラジオ"], rules.items["リュックサック"])
    game = _game(deck=())
    state = game.journey.state
    state.deal = Deal(state.deal.rules, state.deal.days, state.deal.capacity, carried, frozenset())
    state.stacks = (((rules.card_ids.index("赤1"),),) + ((),) * 6)  # an event on day 1
    said, _, _ = game.run("item ラジオ")
    assert said == ["× ラジオ で引く山がありません（山は空です）"]
    said, _, _ = game.run("item リュックサック")
    assert said[0].startswith("× リュックサック は、手札から1枚出す場面では最後の1枚を差し替えられません")


def test_a_word_no_action_goes_on_with_is_named_with_the_words_that_can_follow():
    """「出す 白2 白2」 was 「いまはできない行動です」, as if 白2 could not be played."""
    out = journey("出す 白2 白2\n").output
    assert "× 「出す 白2 白2」の「白2」はここには書けません（出す 白2 の次は 黒1）（1 行目）" in out


def test_a_used_item_is_said_to_stand_again_only_while_a_green_effect_can_come():
    """Spec step 5: a resolved suit loses its effect for good. A used 地図 was said to be
    stood up by 「緑のフラグの効果」 once 緑 was resolved, with no ランタン to light it."""
    rules = load_rules()
    green = 1 << rules.suits.index("green")
    for carried, resolved, said in (
            (("地図",), 0, "（緑のフラグの効果で縦置きに戻せます）"),
            (("地図",), green, "（緑の物語は解決済みなので、もう縦置きに戻せません）"),
            (("地図", "ランタン"), green,
             "（ランタンで緑を未解決として扱えば、緑のフラグの効果で縦置きに戻せます）")):
        game = _game(resolved=resolved)
        state = game.journey.state
        state.deal = Deal(state.deal.rules, state.deal.days, state.deal.capacity,
                          tuple(rules.items[i] for i in carried), frozenset())
        state.tapped = 1  # 地図 used
        assert game.run("item 地図")[0] == [f"× 地図 は使用済みです{said}"], carried


def test_a_script_stops_at_an_unknown_action_with_exit_2():
    """No false green: a transcript with a line that names no action of the game is not
    the game its author wrote, so the lines after it are not played and the exit says so
    (as a battle script stops at an unknown command)."""
    result = journey("play 白2\nbogus\nplay 緑4\n")
    assert "× 知らない行動です: 「bogus」。いまできるのは" in result.output
    assert "（2 行目）\nスクリプトをここで止めました（知らない行動なので）" in result.output
    assert "緑4 をプレイ" not in result.output
    assert result.exit_code == EXIT_STOPPED


def test_the_terminals_own_commands_refuse_extra_words():
    """「undo 3」 undid one move and said nothing of the 3; a script stops there."""
    for line, extra in (("undo 3", "3"), ("help me", "me")):
        result = journey(f"play 白2\n{line}\nplay 緑4\n")
        command = line.split()[0]
        assert (f"× {command} には何も付けません（余分な「{extra}」）（2 行目）\n"
                "スクリプトをここで止めました（コマンドに余分な語があったので）") in result.output
        assert "緑4 をプレイ" not in result.output and result.exit_code == EXIT_STOPPED


@pytest.mark.parametrize("line, said, why", [
    ("next おまけ", "× 「next おまけ」の「おまけ」は余分です（1 行に 1 つの行動を書きます: 進む）",
     "行動に余分な語があったので"),
    ("play 赤9 黒1", "× 「赤9」というカードはありません（カードは 赤1〜白6 のように書きます）",
     "ないカードを書いていたので"),
    # no suit's word: refused, and the lines after it played on (README: exit 2 for "a
    # card there is none of"); the cards named in the game's order, 赤 first, as the flags
    ("play 紫1 黒1", "× 「紫1」というカードはありません（カードは 赤1〜白6 のように書きます）",
     "ないカードを書いていたので"),
    ("play 緑 黒1", "× 「緑」というカードはありません（カードは 赤1〜白6 のように書きます）",
     "ないカードを書いていたので"),
])
def test_a_script_stops_at_a_line_it_cannot_read_as_written(line, said, why):
    """A line with words beyond a whole action, or a card the game has none of, was only
    refused: the lines after it played on against a game they were not written for (a
    lost game's script with 「end おまけ」 still exited 1, as the intact one). The battle's
    scripts stop at extra words too."""
    result = journey(f"play 白2\n{line}\nplay 緑4\n")
    assert f"{said}（2 行目）\nスクリプトをここで止めました（{why}）" in result.output, result.output
    assert "緑4 をプレイ" not in result.output and result.exit_code == EXIT_STOPPED


def _game(**fields) -> Game:
    """A game at a hand-built moment (the days in a fixed order)."""
    rules = load_rules()
    days = ("湾岸道路", "浜辺", "小さな町", "大都会", "無人駅", "廃坑", "千年樹")
    card = rules.card_ids.index
    deal = Deal(rules, days, (3, 2, 3, 4, 2, 3, 0), (), frozenset())
    values = dict(deck=("黄5", "黄6"), hand=("緑3",), white=0, blacks=(0, 0), resolved=0)
    values.update(fields)
    state = State(deal, tuple(map(card, values["deck"])), tuple(map(card, values["hand"])), (),
                  ((),) * 7, values["white"], values["blacks"], values["resolved"], 0, 0, 0,
                  "play", (), (), 9)
    return Game(Journey(state))


def test_a_short_form_plays_when_it_names_one_action_and_names_the_choices_when_not():
    game = _game(blacks=(1, 4))
    said, _, _ = game.run("play 緑3")
    assert said == ["× 「play 緑3」だけでは決まりません。例えば: 出す 緑3 黒2 / 出す 緑3 黒5"]
    game = _game(blacks=(4, 4))
    said, _, _ = game.run("play 緑3")
    assert said[0] == "緑3 をプレイ: 白いポーン 1 → 4 日目"


def test_a_bare_verb_never_spends_the_one_item_or_letter_it_could_mean():
    """「item」 with 地図 the only usable item used it; a bare verb shows what it could
    be, and the item named is used (seed 3 deals 地図 and テント)."""
    game = Game.deal(load_rules("草案"), 3)
    said, _, _ = game.run("item")
    assert said == ["× 「item」だけでは決まりません。いまできるのは: アイテム 地図（使うものまで書きます）"]
    assert game.journey.state.tapped == 0
    said, _, _ = game.run("item 地図")
    assert said[0].startswith("アイテム 地図 を使う")


def test_cards_prints_the_designer_texts_as_written():
    out = journey("cards\n").output
    assert "フラグ 黄 歯車塔の千年歌姫: 追加で山から１枚引いて手札に加え、手札から好きな１枚を山の下へ戻す" in out
    assert "アイテム テント: ループの際、捨て札にせず山の一番下へ戻す。" in out
    assert "レター アドベンチャーメモリー: 捨て札から好きな１枚を山の一番上に戻す" in out


def test_cards_shows_the_discard_pile_face_up():
    """At the table the discard is open (アドベンチャーメモリー and カメラ choose from it):
    ``cards`` lists it, by suit and number, with each card's key."""
    game = _game()
    r = game.journey.rules
    state = game.journey.state.copy()
    state.discard = tuple(map(r.card_ids.index, ("黄5", "赤1")))
    shown = card_texts(Journey(state))
    assert shown[-1] == f"捨て札（2 枚）: 赤1({r.keys[r.key_of[r.card_ids.index('赤1')]]}) " \
                        f"黄5({r.keys[r.key_of[r.card_ids.index('黄5')]]})"
    assert card_texts(_game().journey)[-1] == "捨て札（0 枚）: なし"


def test_help_lists_the_actions_in_japanese_with_their_ascii_words_as_aliases():
    out = journey("help\n").output
    assert "  出す 赤3 黒3 " in out and "別名: play、プレイ" in out
    assert "  取り消す " in out and "別名: undo、u、待った" in out
    assert "  レター ロケーション 黒3 +1 | レター アドベンチャー 赤3" in out


def test_the_screen_shows_the_actions_in_japanese_and_reads_them_back():
    """できる行動 and 行動 (actions) list the Japanese forms; each is a line the game
    reads, as the ASCII label a script keeps is (seed 3: 白2 白5 緑4 緑6, 地図)."""
    out = journey("actions\n出す 白2 黒1\n").output
    assert "できる行動: 出す 白2 黒1 / 出す 白5 黒1 / 出す 緑4 黒1 / 出す 緑6 黒1 / アイテム 地図" in out
    assert "\n  出す 白2 黒1\n  出す 白5 黒1\n" in out and "\n  アイテム 地図\n" in out
    assert "白2 をプレイ" in out and "play " not in out


def test_events_are_json_lines_with_the_commands_and_the_refusals():
    result = journey("play 白2\nbogus\n", "--events")
    events = [json.loads(line) for line in result.output.splitlines()]
    assert events[0]["event"] == "deal" and events[0]["seed"] == 3
    assert {"event": "command", "line": "play 白2"} in events
    assert any(e["event"] == "refused" and e["line"] == 2 for e in events)
    assert events[-1] == {"event": "stopped", "line": 2, "reason": "知らない行動なので"}
    assert result.exit_code == EXIT_STOPPED


def test_the_usage_line_shows_the_command_as_optional():
    """No command plays the game: the usage line said a コマンド was required."""
    result = CliRunner().invoke(main, ["journey", "--help"], prog_name="jibunki")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "使い方: jibunki journey [オプション] [コマンド [引数]...]"


def test_bad_seed_is_a_usage_error():
    result = CliRunner().invoke(main, ["journey", "--seed", "abc"], input="")
    assert result.exit_code == 2 and "abc" in result.output and "Traceback" not in result.output


def test_unknown_setup_is_a_usage_error_naming_the_set_ups():
    result = journey("", "--setup", "草案18")
    assert result.exit_code == 2 and "旅の準備「草案18」はありません" in result.output
    assert "問題点" in result.output


def test_unknown_or_wrong_number_of_items_is_a_usage_error():
    result = journey("", "--items", "望遠鏡,地図")
    assert result.exit_code == 2 and "望遠鏡" in result.output and "一覧" in result.output
    result = journey("", "--items", "地図")
    assert result.exit_code == 2 and "2 個選びます" in result.output


@pytest.mark.parametrize("option, typed, meant", [
    ("--setup", "草按", "草案"),              # a typo
    ("--setup", "問題", "問題点"),
    ("--items", "地図,てんと", "テント"),      # the other kana
    ("--items", "ﾃﾝﾄ,地図", "テント"),         # half-width katakana
])
def test_a_set_up_or_an_item_typed_wrong_gets_the_one_meant(option, typed, meant):
    result = journey("", option, typed)
    assert result.exit_code == 2 and f"もしかして「{meant}」？" in result.output, result.output


def test_another_set_up_and_items_are_played():
    out = journey("", "--setup", "問題点", "--items", "問題点のカメラ,問題点の地図").output
    assert "旅の準備 問題点の提案" in out and "カメラ（常に有効）" in out
    assert "1  大都会" in out and "/2" in out  # 高難易度: 大都会 holds 4 − 2


def test_a_face_up_top_card_is_shown_only_when_the_set_up_turns_it_up():
    assert "山の上: " in journey("", "--setup", "手札二枚と公開").output
    assert "山の上: " not in journey("").output


def test_a_folder_of_journey_files_alone_is_played(tmp_path):
    (tmp_path / "d.journey").write_text(
        (ROOT / "content" / "journey" / "草案17.journey").read_text(encoding="utf-8"),
        encoding="utf-8")
    result = journey("", "--content", str(tmp_path))
    assert result.exit_code == EXIT_UNFINISHED and "旅の準備 草案１７" in result.output


def test_content_with_errors_is_reported_and_not_played(tmp_path):
    (tmp_path / "bad.journey").write_text("ロケーション x { 枠 q }\n", encoding="utf-8")
    result = journey("", "--content", str(tmp_path))
    assert result.exit_code == EXIT_UNPLAYED  # not 1: that is a lost game
    assert "bad.journey:1:14: エラー[E070]: 枠の値の形が違います（数 を書きます）" in result.output
    assert "^" in result.output and "旅の準備" not in result.output.split("\n")[0]


def test_a_folder_without_a_set_up_is_a_clear_error_not_a_traceback(tmp_path):
    result = journey("", "--content", str(tmp_path))
    assert result.exit_code == EXIT_UNPLAYED, result.output
    assert "旅の準備がありません" in result.output and "Traceback" not in result.output


def test_a_script_that_wins_exits_zero_with_the_score(tmp_path):
    from test_journey_golden import WON_LINE

    text = (ROOT / "content" / "journey" / "草案17.journey").read_text(encoding="utf-8")
    dropped = ("フラグ おしゃべり猫", "フラグ 歯車塔", "フラグ トンボロ", "イベント 青", "イベント 黄",
               "イベント 白")
    kept = [block for block in text.split("\n\n")
            if not any(line.startswith(dropped) for line in block.split("\n"))]
    (tmp_path / "two.journey").write_text("\n\n".join(kept), encoding="utf-8")
    result = CliRunner().invoke(main, ["journey", "--seed", "0", "--content", str(tmp_path)],
                                input="\n".join(WON_LINE) + "\n")
    assert result.exit_code == EXIT_WON, result.output
    assert "ゲームクリア！ スコア 3（山 0・レター 0・キーアイコン 3・費用 0）" in result.output
    assert "結果: クリア（手番 10、スコア 3）" in result.output


# ------------------------------------------------------------ --content at either level

#: The smallest report: one deal of the draft's variants, no pairs, no ladder, one budget,
#: the least search.
TINY_REPORT = ["report", "--deals", "1", "--no-pairs", "--ladder", "0", "--nodes", "50",
               "--find-nodes", "50", "--budget", "1", "--workers", "1", "--format", "json",
               "--no-cache"]


def _broken_copy(tmp_path):
    folder = tmp_path / "content"
    (folder / "journey").mkdir(parents=True)
    (folder / "journey" / "d.journey").write_text(
        (ROOT / "content" / "journey" / "草案17.journey").read_text(encoding="utf-8")
        + "壊れた {\n", encoding="utf-8")
    return folder


def test_report_measures_the_folder_named_before_it(tmp_path):
    # ``journey --content X report`` is X's report: here X has an error, so nothing is measured.
    result = invoke_cli("journey", "--content", str(_broken_copy(tmp_path)), *TINY_REPORT)
    assert result.exit_code == 1
    assert "d.journey:" in result.output and "コンテンツにエラーがあるので測れません。" in result.output


@pytest.mark.slow  # a second or more (the fast loop's share, README)
def test_report_with_its_own_content_runs_from_a_folder_without_content(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./content here: the default is not asked for
    for args in (["journey", *TINY_REPORT, "--content", str(ROOT / "content")],
                 ["journey", "--content", str(ROOT / "content"), *TINY_REPORT]):
        result = invoke_cli(*args)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["format"] == "jibunki-journey-report 1"
    missing = invoke_cli("journey", *TINY_REPORT)
    assert missing.exit_code == 2 and "フォルダ 'content' がありません" in missing.output


def test_two_different_content_folders_are_a_usage_error(tmp_path):
    result = invoke_cli("journey", "--content", str(_broken_copy(tmp_path)), *TINY_REPORT,
                        "--content", str(ROOT / "content"))
    assert result.exit_code == 2 and "--content が 2 つ違うフォルダを指しています" in result.output


def test_the_games_options_before_report_are_refused_not_ignored():
    result = invoke_cli("journey", "--setup", "高難易度", "--seed", "4", *TINY_REPORT)
    assert result.exit_code == 2
    assert "--setup、--seed は遊ぶときのオプションです。report では使えません" in result.output


def test_cards_put_on_the_deck_are_told_from_the_top_down():
    """アドベンチャーメモリー with カメラ puts the named cards on the deck one after another:
    the last named is on top, the next drawn, and the narration says it first."""
    game = _game()
    said = narrate(game.journey, [{"event": "letter", "effect": "adventure_memory",
                                   "cards": ["赤1", "緑1"], "item": "カメラ"}])
    assert said == ["レター: アドベンチャーメモリー（緑1 を山のいちばん上へ、その下に 赤1）"]


def test_an_item_says_what_it_did():
    game = _game()
    said = narrate(game.journey, [
        {"event": "item", "item": "地図", "effect": "advance_white", "white": [2, 3], "loop": False},
        {"event": "item", "item": "ランタン", "effect": "unresolve", "suit": "red"},
        {"event": "item", "item": "リュックサック", "effect": "swap_in", "out": "赤1", "in": "白2",
         "day": 1}])
    assert said == ["アイテム 地図 を使う: 白いポーン 2 → 3 日目",
                    "アイテム ランタン を使う: 赤を手番終了まで未解決として扱う（イベント効果が使える）",
                    "アイテム リュックサック を使う: 1 日目の 赤1 を捨て札に、手札の 白2 を同じ位置に"]


def test_a_card_played_onto_a_day_with_no_room_is_told_as_discarded_there():
    """A day whose 枠 comes out 0 (【７日目】, or a location a set-up leaves no room) was
    narrated 「白2 を 3 日目に配置（7日目: 捨て札）」 — another day's name, and 配置 of a
    card not placed."""
    from journey.screen.terminal import narrate

    game = Journey.new(load_rules(), seed=3)
    said = narrate(game, [{"event": "place", "card": "白2", "day": 3, "to": "discard"},
                          {"event": "place", "card": "白5", "day": 6}])
    assert said == ["  白2 は 3 日目に置く枠がないので捨て札へ", "  白5 を 6 日目に配置"]


def test_the_deal_names_the_items_by_their_names():
    """問題点's items are ids 問題点のランタン …: the opening line said them so, while the
    table under it said ランタン."""
    out = invoke_cli("journey", "--setup", "問題点", "--seed", "5", input="").output
    assert "  アイテム: ランタン、ラジオ  手札:" in out and "問題点のランタン" not in out


def test_the_reports_help_states_its_exit_codes_and_its_notes_define_each_column():
    help_text = invoke_cli("journey", "report", "--help").output
    assert "終了コード:\n    0  測れた" in help_text and "    2  使い方の誤り" in help_text
    from journey.lab.text import NOTES

    assert any("解決数: " in note for note in NOTES)
    # 最高点 is a best score found: a lower bound unless proven, which more budget can raise
    assert any("最高点: " in note and "下限" in note and "--polish-nodes" in note for note in NOTES)


def test_the_reports_help_says_its_players_and_figures_in_the_reports_words():
    """The help said ソルバー, プレイヤー, 判断 and ターン where the report, its page and
    `jibunki vocab` say 解き手, 山を見ない打ち手, 決定 and 手番: one word a thing."""
    from contract.vocabulary import W

    help_text = " ".join(invoke_cli("journey", "report", "--help").output.split())
    for word in (W.report.solver, W.report.blind_player, W.report.contenders, W.report.ladder,
                 W.report.winnable, W.report.undecided, "決定", "手番"):
        assert word in help_text.replace(" ", ""), word
    for other in ("ソルバー", "プレイヤー", "判断", "ターン"):
        assert other not in help_text, other


def test_the_contenders_margin_the_vocabulary_states_is_the_reports():
    from contract.vocabulary import REPORT_TERMS
    from journey.lab.measure import MARGIN

    (contenders,) = [t for t in REPORT_TERMS if t.code == "contenders"]
    assert f"最善から {MARGIN:g} 以内" in contenders.meaning
    # the evaluation's unit, not the score's (a letter is 1 point of the score, 5 of it)
    assert "スコアの点ではない" in contenders.meaning and "レター 1 枚" not in contenders.meaning


def test_a_very_long_line_is_echoed_and_quoted_cut_short(tmp_path):
    """A 600 KB script line was printed whole twice (its echo and its refusal)."""
    from contract.linebreak import LINE_SHOWN

    script = tmp_path / "long.txt"
    script.write_text("play " + "赤" * 200_000 + "\n", encoding="utf-8")
    out = invoke_cli("journey", "--seed", "0", "--script", str(script)).output
    assert len(out) < 20_000
    assert f"…（ほか {200_005 - LINE_SHOWN:,} 文字）" in out


def test_a_script_line_s_escapes_and_nul_are_shown_never_sent_to_the_terminal():
    """A script's line is echoed and quoted by its refusal: an escape in it (a colour, a
    cursor move) or a NUL reached the terminal as bytes; shown as "�", as the battle's
    script shows them."""
    done = journey("play \x1b[31mRED\x00\n")
    assert "\x1b" not in done.output and "\x00" not in done.output
    assert "> play \ufffd[31mRED\ufffd" in done.output
    assert "「\ufffd[31mRED\ufffd」" in done.output
    assert done.exit_code == EXIT_STOPPED  # an unknown action, as before


def test_script_dash_reads_the_actions_from_standard_input():
    """--script - was refused: 「ファイル '-' がありません」, where a pipe is the usual way."""
    dashed = journey("play 白2\n", "--script", "-")
    assert dashed.exit_code == 3, dashed.output
    assert dashed.output == journey("play 白2\n").output
