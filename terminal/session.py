"""対戦セッション — commands typed by a designer, turned into player actions.

The battle is deterministic, so ``undo`` replays every action but the last from the
start. Commands are a table of words (Japanese and ASCII) → handlers; a refusal is a
message, never a traceback.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from contract import vocabulary as vocab
from runtime.battle import Battle, Refused
from runtime.dev import DEV_SETTINGS, DEV_WORDS, LIFETIME_WORDS
from contract.vocabulary import W

#: What a player may type for a face: its spellings (未来面, 未来, future), or the
#: initial of its code (f, p) — the terminal's shorthand.
SIDE_WORDS = {word: face.code for face in vocab.FACES
              for word in (*face.spellings(), face.code[0])}
HELP = f"""\
コマンド（カッコ内は別名）
  play N        {W.region.hand}の N 番を{W.scope.play}（p, 出す）
  pen N {W.face_word.future}|{W.face_word.past}  N 番の面にペンを入れる（書き込まれる内容を先に表示）（ペン）
  tear N        N 番を破る（得る{W.variable.fray}と破却効果を先に表示）（破る）
  end           {W.scope.turn}終了を宣言（e, 終了）
  choose N…     {W.pick.choice}に答える（c, 選ぶ）
  undo          最後の操作を取り消す（u, 戻す）
  set 項目 値   開発者モード: HP / {W.variable.steps} / {W.variable.defense} [寿命] / {W.variable.fray} / {W.variable.fray}[{W.scope.stage}] / {W.variable.age} / {W.variable.seat} /
                {W.variable.enemy_hp} / {W.variable.currency} / {W.region.hand} ページid…（設定）
  help          この一覧（h, ?, ヘルプ）
  quit          終わる（q, 終わる）"""


class UsageError(Exception):
    """A command that cannot be understood (not a rule refusal)."""


@dataclass
class Outcome:
    """What one command produced, for the caller to print."""

    events: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: str | None = None
    quit: bool = False
    show: bool = True  # redraw the screen


class Session:
    """対戦セッション — one battle played by typed commands; it keeps the actions taken, so
    ``undo`` can replay all but the last from the start."""

    def __init__(self, tables, *, seed: int, enemies: list[str], deck: list[str] | None,
                 with_pages: list[str] = ()):
        self.tables = tables
        self.setup = {"seed": seed, "enemies": enemies, "deck": deck,
                      "with": list(with_pages)}
        self.history: list[tuple] = []
        self.battle = self._fresh()
        self.opening = list(self.battle.log)

    def _fresh(self) -> Battle:
        battle = Battle.new(self.tables, seed=self.setup["seed"], enemies=self.setup["enemies"],
                            deck=self.setup["deck"])
        for page in self.setup["with"]:
            _into_hand(battle, page)
        return battle

    # --------------------------------------------------------------- parsing
    def run(self, line: str) -> Outcome:
        """Carry out one command line."""
        try:
            words = shlex.split(line, comments=True)
        except ValueError as exc:
            return Outcome(refused=f"コマンドを読めません: {exc}", show=False)
        if not words:
            return Outcome(show=False)
        verb, args = words[0], words[1:]
        handler = COMMANDS.get(verb) or COMMANDS.get(verb.lower())
        if handler is None:
            return Outcome(refused=f"「{verb}」というコマンドはありません（help で一覧）", show=False)
        try:
            return handler(self, args)
        except UsageError as exc:
            return Outcome(refused=str(exc), show=False)
        except Refused as exc:
            return Outcome(refused=exc.reason, show=False)

    def _hand_uid(self, args: list[str], what: str) -> int:
        if not args:
            raise UsageError(f"{what}する{W.region.hand}の番号を書いてください（例: {what} 2）")
        try:
            index = int(args[0])
        except ValueError:
            raise UsageError(f"番号は数字で書きます: {args[0]}") from None
        hand = self.battle.hand
        if not 1 <= index <= len(hand):
            raise UsageError(f"{W.region.hand}は 1〜{len(hand)} 番です" if hand else f"{W.region.hand}がありません")
        return hand[index - 1]

    def _do(self, action: tuple) -> list:
        events = _apply(self.battle, action)
        self.history.append(action)
        return events

    # -------------------------------------------------------------- commands
    def cmd_play(self, args):
        """play N: play the page at N in the hand."""
        uid = self._hand_uid(args, "play")
        return Outcome(events=self._do(("play", uid)))

    def cmd_pen(self, args):
        """pen N 未来面|過去面: put the pen to a face of the hand's page N, first showing what
        it writes."""
        uid = self._hand_uid(args, "pen")
        if len(args) < 2 or args[1] not in SIDE_WORDS:
            raise UsageError(f"面を {W.face_word.future} か {W.face_word.past} で書いてください（例: pen 2 {W.face_word.future}）")
        side = SIDE_WORDS[args[1]]
        from .screen import pen_preview
        notes = ["ペンで書き込まれる内容: " + " ／ ".join(pen_preview(self.battle, uid, side))] \
            if self.battle.page_of(uid).pens[side] or \
            self.battle.state.pages[uid]["faces"][side]["blanked"] else []
        return Outcome(events=self._do(("pen", uid, side)), notes=notes)

    def cmd_tear(self, args):
        """tear N: tear the hand's page N (破る), first showing the 綻び and tear effects."""
        uid = self._hand_uid(args, "tear")
        from .screen import tear_preview
        notes = ["破ると: " + " ／ ".join(tear_preview(self.battle, uid))]
        return Outcome(events=self._do(("tear", uid)), notes=notes)

    def cmd_end(self, args):
        """end: declare the end of the turn (ターン終了宣言)."""
        return Outcome(events=self._do(("end",)))

    def cmd_choose(self, args):
        """choose N…: answer the pending choice (選択) with the candidates of those numbers."""
        choice = self.battle.choice
        if choice is None:
            raise UsageError("いま選ぶものはありません")
        try:
            picks = [choice["candidates"][int(a) - 1] for a in args]
        except (ValueError, IndexError):
            raise UsageError(f"候補の番号（1〜{len(choice['candidates'])}）を書いてください") \
                from None
        return Outcome(events=self._do(("choose", picks)))

    def cmd_undo(self, args):
        """undo: take back the last action by replaying the others on a fresh battle (the
        battle is deterministic)."""
        if not self.history:
            raise UsageError("取り消す操作がありません")
        kept = self.history[:-1]
        self.history = []
        self.battle = self._fresh()
        for action in kept:
            self._do(action)
        return Outcome(notes=[f"1 手戻しました（{len(kept)} 手を再生）"])

    def cmd_set(self, args):
        """set 項目 値: a developer-mode setting (開発者モード) — a number, 防御 with an optional
        lifetime, or the pages of the hand."""
        if len(args) < 2 or args[0] not in DEV_WORDS:
            shown = " / ".join(s.words[0] for s in DEV_SETTINGS.values())
            raise UsageError(f"set 項目 数 と書きます（項目: {shown}）。"
                             f"例: set {W.variable.defense} 10 {W.scope.stage} ／ set {W.region.hand} tabidachi kekkon")
        key = DEV_WORDS[args[0]]
        if key == "hand":
            value = list(args[1:])
        else:
            try:
                value = int(args[1])
            except ValueError:
                raise UsageError(f"{args[0]} には整数を書きます: {args[1]}") from None
            if DEV_SETTINGS[key].takes_lifetime and len(args) > 2:
                if args[2] not in LIFETIME_WORDS:
                    raise UsageError(f"{W.variable.defense}の寿命は " + " / ".join(LIFETIME_WORDS) + " です")
                value = (value, LIFETIME_WORDS[args[2]])
        return Outcome(events=self._do(("set", key, value)))

    def cmd_help(self, args):
        """help: the list of commands."""
        return Outcome(notes=[HELP], show=False)

    def cmd_quit(self, args):
        """quit: end the session."""
        return Outcome(quit=True, show=False)


def _into_hand(battle: Battle, page: str) -> None:
    """Developer mode: a page straight into the opening hand (from the deck if it is
    there, else a new copy); the hand keeps its size by returning its last page."""
    state = battle.state
    found = next((uid for zone in ("draw", "discard") for uid in state.zones[zone]
                  if state.pages[uid]["page"] == page), None)
    if found is None:
        found = state.new_page(page, "draw")
    state.move(found, "hand")
    state.zones["hand"].insert(0, state.zones["hand"].pop())
    if len(state.zones["hand"]) > state.param("hand_cap"):
        state.move(state.zones["hand"][-1], "draw", top=True)


#: Action kind → how the battle takes it (the history of a session is these tuples).
ACTIONS = {
    "play": lambda battle, uid: battle.play(uid),
    "pen": lambda battle, uid, side: battle.pen(uid, side),
    "tear": lambda battle, uid: battle.tear(uid),
    "end": lambda battle: battle.end_turn(),
    "choose": lambda battle, uids: battle.choose(uids),
    "set": lambda battle, key, value: battle.dev_set(**{key: value}),
}


def _apply(battle: Battle, action: tuple) -> list:
    return ACTIONS[action[0]](battle, *action[1:])


#: command word → handler. Every command has its ASCII and Japanese spellings.
COMMANDS = {}
for _words, _handler in (
        (("play", "p", "出す", W.scope.play), Session.cmd_play),
        (("pen", "ペン"), Session.cmd_pen),
        (("tear", "t", "破る"), Session.cmd_tear),
        (("end", "e", "終了"), Session.cmd_end),
        (("choose", "c", "選ぶ"), Session.cmd_choose),
        (("undo", "u", "戻す"), Session.cmd_undo),
        (("set", "設定"), Session.cmd_set),
        (("help", "h", "?", "ヘルプ"), Session.cmd_help),
        (("quit", "q", "exit", "終わる"), Session.cmd_quit)):
    for _word in _words:
        COMMANDS[_word] = _handler
