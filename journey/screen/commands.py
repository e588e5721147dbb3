"""旅のコマンド — every command the journey's terminal takes, with its Japanese aliases, as one
table: the help is printed from it, Game.run looks commands up in it, and Tab completion
offers its words.

The actions' Japanese verbs (出す, ループ, …) are journey.notation's (a script reads them
too); the terminal's own commands (undo, actions, cards, help, quit) carry theirs here.
"""

from __future__ import annotations

from dataclasses import dataclass

from contract.vocabulary import W
from ..notation import VERB_ALIASES, WORD_ALIASES, shown_labels

__all__ = ["Command", "COMMANDS", "SPELLINGS", "TERMINAL", "command_word", "help_lines",
           "shown_usage", "shown_word"]

HAND, DISCARD, PLAY = W.region.hand, W.region.discard, W.scope.play


@dataclass(frozen=True)
class Command:
    """One command: its ASCII word, how it is written, what it does, its other spellings."""

    word: str
    usage: str
    text: str
    aliases: tuple[str, ...]


#: The terminal's own commands (not actions of the game) and their other spellings.
TERMINAL = {
    "undo": ("u", "取り消す", "待った"),
    "actions": ("行動",),
    "cards": ("カード",),
    "help": ("h", "?", "ヘルプ"),
    "quit": ("q", "exit", "やめる", "終わる"),
}
_ACTIONS = (
    ("play", "play 赤3 黒3", f"赤3 を{PLAY}し、3日目の黒いポーンが 7−3 進む（黒が1通りなら 出す 赤3）"),
    ("mill", "mill discard | mill bottom", f"ループで引いたカード: {DISCARD} / テントで山の下"),
    ("effect", "effect …", "イベント効果を選ぶ（表示された形で。2-1: 2日目の近い方から1枚目）"),
    ("skip", "skip", "任意のイベント効果を使わない"),
    ("return", "return 赤3", f"{HAND}を山の下へ（後から返すほど下）"),
    ("next", "next", "レターやアイテムを使える合間から次へ進む"),
    ("resolve", "resolve 赤", "物語を解決する"),
    ("end", "end", "手番を終える"),
    ("letter", "letter location 黒3 +1 | letter adventure 赤3",
     f"レター（アドベンチャー: {DISCARD}から山の上へ。2枚なら後の方が上）"),
    ("item", "item 地図 | item ランタン 赤 | item リュックサック 2 赤3",
     f"アイテムを使う（リュックサック 2 赤3: 白の日の2枚目と{HAND}の赤3 を入れ替え）"),
)
_OWN = (
    ("undo", "undo", "一手戻す"),
    ("actions", "actions", "いまできる行動を全部"),
    ("cards", "cards", f"フラグ・アイテム・レターの文と{DISCARD}"),
    ("help", "help", "この一覧"),
    ("quit", "quit", "やめる"),
)
#: Every command, actions first, in the order the help lists them.
COMMANDS = tuple(Command(word, usage, text, VERB_ALIASES[word]) for word, usage, text in _ACTIONS) + \
    tuple(Command(word, usage, text, TERMINAL[word]) for word, usage, text in _OWN)
#: Every spelling of a command → its ASCII word.
SPELLINGS = {spelling: c.word for c in COMMANDS for spelling in (c.word, *c.aliases)}
#: Width of the usage column of the help.
USAGE_WIDTH = 14


def command_word(typed: str) -> str | None:
    """The ASCII word of a command however it is spelled (``ヘルプ`` → help), else None."""
    return SPELLINGS.get(typed) or SPELLINGS.get(typed.lower())


def shown_word(command: Command) -> str:
    """How the screen spells ``command``: its first Japanese spelling (出す, 取り消す …);
    the ASCII word and the other spellings are its aliases."""
    return next((alias for alias in command.aliases if not alias.isascii()), command.word)


def shown_usage(command: Command) -> str:
    """``command``'s usage as the screen shows it: each form with the Japanese words
    (``shown_label``: 出す 赤3 黒3 | ループ 捨て札 …)."""
    if command.word in TERMINAL:
        return shown_word(command)
    return " | ".join(shown_labels(command.usage.split(" | ")))


def help_lines() -> list[str]:
    """The help: every command as the screen spells it, how it is written, what it does
    and its other spellings (the ASCII word among them)."""
    from rich.cells import cell_len

    out = ["行動（いまできるものは 行動 で全部表示。Tab で補完、↑ で前の行）:"]
    for c in COMMANDS:
        if c.word == "undo":
            out.append("端末のコマンド:")
        first = shown_word(c)
        words = [s for s in (c.word, *c.aliases) if s != first] + [
            f"{'・'.join((word, *aliases[1:]))}＝{aliases[0]}"
            for word, aliases in WORD_ALIASES.get(c.word, {}).items()]
        said = f"{c.text}　別名: {'、'.join(words)}"
        usage = shown_usage(c)
        wide = cell_len(usage)  # 赤3 is three cells wide
        if wide > USAGE_WIDTH:  # a long usage has its own line
            out += [f"  {usage}", f"  {' ' * USAGE_WIDTH}  {said}"]
        else:
            out.append(f"  {usage}{' ' * (USAGE_WIDTH - wide)}  {said}")
    return out
