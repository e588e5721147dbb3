"""`jibunki journey` at the keyboard, without a terminal: Tab completion computed from the
legal actions (journey.screen.complete), the Japanese aliases of every command (one
table, journey.screen.commands, shown in the help and accepted), what the redrawn
screen holds at a given terminal size, and where the prompt keeps its history."""

from __future__ import annotations

import json
import os
import random

import pytest

from conftest import ROOT
from journey import Journey, apply, load_rules
from journey.notation import VERB_ALIASES, WORD_ALIASES, labels, parse
from journey.play import deal_game
from journey.screen.terminal import Game, frame, screen
from journey.screen.commands import COMMANDS, SPELLINGS, TERMINAL, help_lines, shown_usage
from journey.screen.complete import candidates

GOLDEN_GAME = ROOT / "tests" / "golden" / "journey" / "draft-seed12.json"


def _state(seed=3):
    state, _ = deal_game(load_rules("草案"), seed, None)
    return state


def _texts(state, typed: str) -> list[str]:
    return [c.text for c in candidates(Journey(state), typed)]


def _states():
    """Every state of the golden game (it meets letters, items and every suit effect)
    and of random games of a few seeds: each kind of decision."""
    game = json.loads(GOLDEN_GAME.read_text(encoding="utf-8"))
    state, _ = deal_game(load_rules(game["setup"]), game["seed"], game["items"])
    for typed in game["actions"]:
        yield state
        state, _ = apply(state, parse(state, typed))
    for seed in range(6):
        state, rng = _state(seed), random.Random(seed)
        while not state.over:
            yield state
            known = labels(state)
            state, _ = apply(state, known[rng.choice(list(known))])
        yield state


def _first_state(phase: str):
    return next(s for s in _states() if s.phase == phase)


# ------------------------------------------------------------------ completion


def test_tab_completes_every_word_of_every_legal_action():
    seen = set()
    for state in _states():
        for label in labels(state):
            words = label.split()
            seen.add(words[0])
            for i, word in enumerate(words):
                typed = " ".join(words[:i]) + (" " if i else "")
                assert word in _texts(state, typed), (label, typed)
                assert word in _texts(state, typed + word[:1]), (label, typed + word[:1])
    assert {"play", "mill", "effect", "return", "next", "resolve", "end", "letter", "item"} <= seen


def test_the_first_word_offers_the_verbs_allowed_now_and_the_terminal_commands():
    state = _state()  # the first play: play and item only
    offered = _texts(state, "")
    assert {"play", "出す", "item", "undo", "取り消す", "help", "ヘルプ", "quit"} <= set(offered)
    assert not {"mill", "resolve", "end", "letter"} & set(offered)
    assert _texts(state, "pl") == ["play"]
    assert _texts(state, "出") == ["出す"]
    assert _texts(state, "ヘ") == ["ヘルプ"]


def test_card_completion_lists_the_playable_cards_with_the_action_each_leads_to():
    state = _state()  # hand: 白2 白5 緑4 緑6, one black pawn
    found = candidates(Journey(state), "play 白")
    assert [(c.text, c.meta) for c in found] == [("白2", "出す 白2 黒1"), ("白5", "出す 白5 黒1")]
    assert _texts(state, "出す 緑") == ["緑4", "緑6"]  # a Japanese verb completes the same
    assert _texts(state, "play 白2 ") == ["黒1"]
    assert _texts(state, "play 赤") == []  # no red card in hand


def test_a_choice_with_several_actions_says_how_many_it_leads_to():
    state = _first_state("effect")
    typed = " ".join(next(iter(labels(state))).split()[:1]) + " "
    counts = {c.meta for c in candidates(Journey(state), typed)}
    leads = [lab for lab in labels(state) if lab.startswith(typed)]
    assert all(m.endswith(" 通り") or m in leads for m in counts)


def test_a_fixed_word_completes_in_japanese_first_as_the_screen_shows_it():
    state = _first_state("mill")
    assert _texts(state, "mill ") == ["捨て札", "discard", "山の下", "bottom"]
    assert _texts(state, "mill d") == ["discard"]
    assert _texts(state, "ループ 捨") == ["捨て札"]
    assert _texts(state, "mill 山") == ["山の下"]


def test_full_width_digits_complete_as_the_labels_spell_them():
    assert _texts(_state(), "play 白２") == ["白2"]


def test_the_terminal_commands_take_no_completed_argument():
    assert _texts(_state(), "undo ") == [] and _texts(_state(), "ヘルプ ") == []


# ------------------------------------------------------------------ aliases


def test_every_spelling_names_one_command_only():
    spellings = [s for c in COMMANDS for s in (c.word, *c.aliases)]
    assert len(spellings) == len(set(spellings)) == len(SPELLINGS)
    fixed = [a for table in WORD_ALIASES.values() for aliases in table.values() for a in aliases]
    assert not set(fixed) & set(spellings)


def test_every_action_and_every_terminal_command_has_a_japanese_alias():
    japanese = lambda word: any(ord(ch) > 0x3000 for ch in word)  # noqa: E731
    for command in COMMANDS:
        assert any(japanese(a) for a in command.aliases), command.word
    assert {c.word for c in COMMANDS} == set(VERB_ALIASES) | set(TERMINAL)


def test_the_help_shows_every_alias():
    shown = "\n".join(help_lines())
    for command in COMMANDS:
        for alias in (command.word, *command.aliases):
            assert alias in shown, alias
    for table in WORD_ALIASES.values():
        for word, aliases in table.items():
            assert f"{'・'.join((word, *aliases[1:]))}＝{aliases[0]}" in shown


def test_the_help_spells_each_command_in_japanese_first():
    """The usage column is the screen's spelling (出す 赤3 黒3, 取り消す); the ASCII word
    is among the aliases."""
    lines = help_lines()
    for command in COMMANDS:
        usage = [line for line in lines if line.startswith("  " + shown_usage(command))]
        assert usage, command.word
        assert not shown_usage(command).split()[0].isascii(), command.word


@pytest.mark.parametrize("alias, word", [(a, c.word) for c in COMMANDS for a in c.aliases
                                         if c.word in TERMINAL])
def test_a_terminal_command_is_accepted_by_any_of_its_spellings(alias, word):
    by_alias, by_word = Game(Journey(_state())), Game(Journey(_state()))
    for game in (by_alias, by_word):
        game.run("play 白2")
    said = by_alias.run(alias)
    assert said == by_word.run(word)
    assert by_alias.journey.view()["phase"] == by_word.journey.view()["phase"]  # undo: both back at the play
    assert said[0] or said[2]  # it printed something, or it quit
    assert not said[0] or not said[0][0].startswith("×")


def test_the_japanese_verbs_play_the_same_action_as_the_ascii_ones():
    for japanese in ("出す 白2", "プレイ 白2", "play 白2"):
        game = Game(Journey(_state()))
        said, _, _ = game.run(japanese)
        assert said[0] == "白2 をプレイ: 白いポーン 1 → 3 日目", japanese
    mill = _first_state("mill")
    assert parse(mill, "ループ 捨て札") == parse(mill, "mill discard")
    assert parse(mill, "ループ 山の下") == parse(mill, "mill bottom")


def test_help_is_printed_for_help_and_its_aliases():
    game = Game(Journey(_state()))
    for typed in ("help", "?", "ヘルプ", "h"):
        said, events, quit_ = game.run(typed)
        assert said == help_lines() and not events and not quit_


# ------------------------------------------------------------------ the redrawn screen


def test_the_screen_and_what_the_action_did_are_drawn_whole_when_they_fit():
    state = Journey(_state())
    told = ["> play 白2", "白2 をプレイ: 白いポーン 1 → 3 日目"]
    assert frame(state, told, 120, 40) == screen(state) + told


def test_a_short_terminal_gets_the_flag_cards_on_one_line():
    state = Journey(_state())
    told = ["> play 白2", "白2 をプレイ: 白いポーン 1 → 3 日目", "  黒いポーン 1 → 6 日目"]
    drawn = frame(state, told, 120, len(screen(state)) + len(told) - 2)
    assert drawn == screen(state, compact=True) + told
    flags = [line for line in drawn if line.startswith("フラグ")]
    assert flags == ["フラグ: 赤 黒ポーン移動 / 緑 アイテム復帰 / 青 同数字交換 / 黄 引いて戻す / 白 黒ポーン呼び寄せ"]


def test_wide_characters_and_wrapped_lines_are_counted_as_the_terminal_shows_them():
    state = Journey(_state())
    full, compact = screen(state), screen(state, compact=True)
    rows = len(full) + 1 + 1  # the screen, one line of what was done, the prompt
    # 60 characters of two cells each: 120 cells, two rows of a 100-column terminal
    assert frame(state, ["あ" * 49], 100, rows) == full + ["あ" * 49]
    assert frame(state, ["あ" * 60], 100, rows) == compact + ["あ" * 60]
    assert frame(state, ["> x"], 100, len(compact)) is None  # no room for the prompt


def test_a_terminal_too_small_for_the_screen_keeps_the_turn_and_the_deck_above_the_prompt():
    """QA at 50×20: every redraw was taller than the terminal, so its first line — the
    turn, the deck (an empty one loses), the discard, the letters — always scrolled off.
    Then the screen is drawn without the columns' titles and that line last, just above
    the prompt, under what the action did."""
    import io

    from rich.console import Console

    from journey.screen.terminal import _draw

    state = Journey(_state())
    told = ["> play 白2", "白2 をプレイ: 白いポーン 1 → 3 日目"]
    assert frame(state, told, 50, 20) is None
    out = io.StringIO()
    console = Console(file=out, width=50, height=20, color_system=None)
    _draw(console, state, told, acted=True)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    head = screen(state)[0]
    assert "".join(lines[-2:]).replace(" ", "").endswith(head.replace(" ", "")), lines
    assert lines.index(told[0]) < len(lines) - 2 and screen(state)[1] not in lines


def test_at_the_keyboard_each_card_is_shown_in_its_suits_colour():
    """Spec 004 問題点: the play cards are read by colour (「色をベースにして」): at a
    terminal that shows colours, every event card's label — on the board, in the hand, in
    an action — is in its suit's colour; the characters are the plain screen's."""
    import io

    from rich.console import Console

    from journey.screen.terminal import SUIT_STYLES, _say, painter

    journey = Journey(_state())
    rules = journey.rules
    paint = painter(rules)
    line = "手札: 白6(花) 緑5(花) 赤4(月) / 出す 青5 黒1 / 白12 のような名は別"
    text = paint(line)
    assert text.plain == line
    coloured = {line[span.start:span.end]: str(span.style) for span in text.spans}
    assert coloured == {"白6(花)": SUIT_STYLES["white"], "緑5(花)": SUIT_STYLES["green"],
                        "赤4(月)": SUIT_STYLES["red"], "青5": SUIT_STYLES["blue"]}
    assert set(SUIT_STYLES) == set(rules.suits)

    lines = screen(journey)
    shown = io.StringIO()
    _say(Console(file=shown, force_terminal=True, color_system="standard", width=200),
         lines, paint)
    assert "出す \x1b[1;32m緑4\x1b[0m 黒1" in shown.getvalue()  # bold green, a 緑 card
    piped = io.StringIO()
    _say(Console(file=piped, width=200), lines, paint)  # not a terminal: no colours
    assert piped.getvalue() == "".join(f"{line}\n" for line in lines)
    assert "\x1b" not in piped.getvalue()


# ------------------------------------------------------------------ the history


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "jibunki"


def test_the_journey_keeps_its_history_apart_from_the_battle(cache):
    from prompt_toolkit.history import FileHistory
    from terminal.prompt import history

    journey, battle = history("journey"), history("battle")
    assert isinstance(journey, FileHistory) and isinstance(battle, FileHistory)
    journey.store_string("play 白2")
    battle.store_string("play 1")
    assert (cache / "journey_history").read_text(encoding="utf-8").strip().endswith("+play 白2")
    assert "白2" not in (cache / "battle_history").read_text(encoding="utf-8")
    assert os.stat(cache / "journey_history").st_mode & 0o777 == 0o600


def test_no_home_keeps_the_history_in_memory(monkeypatch):
    from prompt_toolkit.history import InMemoryHistory
    from terminal.prompt import history

    monkeypatch.delenv("JIBUNKI_NO_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    assert isinstance(history("journey"), InMemoryHistory)


def test_a_history_others_can_write_is_not_read(cache):
    from prompt_toolkit.history import InMemoryHistory
    from terminal.prompt import history

    cache.mkdir(mode=0o700)
    (cache / "journey_history").write_text("\n+play 赤1\n", encoding="utf-8")
    os.chmod(cache / "journey_history", 0o666)
    assert isinstance(history("journey"), InMemoryHistory)


def test_a_cache_folder_that_cannot_be_made_keeps_the_history_in_memory(cache):
    from prompt_toolkit.history import InMemoryHistory
    from terminal.prompt import history

    cache.write_text("not a folder", encoding="utf-8")  # mkdir fails, whoever runs this
    assert isinstance(history("journey"), InMemoryHistory)


def test_a_history_file_that_is_a_link_is_not_followed(cache, tmp_path):
    from prompt_toolkit.history import InMemoryHistory
    from terminal.prompt import history

    cache.mkdir(mode=0o700)
    (cache / "journey_history").symlink_to(tmp_path / "elsewhere")
    assert isinstance(history("journey"), InMemoryHistory)
    assert not (tmp_path / "elsewhere").exists()


SCRIPT = """
import sys
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from terminal.prompt import Keyboard
with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
    keyboard = Keyboard("battle", lambda bound, text: [])
    keys.send_text("\\x1b[31mRED\\x1b[0m play 1\\r")
    print(repr(keyboard.read()))
    keys.send_text("\\x1b[1my\\r")
    print(repr(keyboard.ask("? ")))
"""


def test_a_colour_code_typed_or_pasted_at_the_prompt_is_no_traceback(tmp_path):
    """``ESC [ 31 m`` (a coloured line pasted without bracketed paste) reads as a mouse
    report, whose reader in prompt_toolkit failed with an English traceback: the prompts
    use no mouse and take it as nothing."""
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env={**os.environ, "JIBUNKI_NO_CACHE": "1", "PYTHONPATH": str(ROOT)})
    assert done.stdout.split("\n")[:2] == ["'RED play 1'", "'y'"], done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_a_state_compares_by_every_field_and_is_not_hashable():
    """``State`` is written out (its compiled twin is an extension type: journey/state.pxd)
    but behaves as the dataclass it was: equal when every field is, a copy equal to its
    original and independent of it, unhashable (``key()`` is what a memo hashes), a repr
    naming its fields."""
    from journey import new_game

    state = new_game(load_rules("草案"), 3)
    twin = state.copy()
    assert twin == state and twin is not state
    twin.turn += 1
    assert twin != state and state.turn == twin.turn - 1
    assert state != state.key()
    with pytest.raises(TypeError):
        hash(state)
    assert repr(state).startswith("State(deal=") and "reason=''" in repr(state)
