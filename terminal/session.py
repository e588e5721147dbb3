"""対戦セッション — commands typed by a designer, turned into player actions.

The battle is deterministic, so ``undo`` replays every action but the last from the
start. Each command that acts makes one action value (contract.game: ``end`` makes
``EndTurn()``) and hands it to the battle's one dispatcher, ``Battle.apply``; the
session's history is those values. Commands are a table of words (Japanese and ASCII) →
handlers; a refusal is a
message (naming the page, for a play, a pen or a tear), never a traceback. Pages are
named by their hand number, id or display name.

At the keyboard, ``confirm(preview lines) → bool`` is asked before a pen or a tear (a
script has none: it shows the preview and acts). ``save``/``load`` write and read a
position (runtime.save); ``record`` writes the session as a 例 (terminal.record);
``where`` names the file and line that define a hand page.

Files go through contract.disk: ``save``/``record`` write only regular files inside the
working folder, never through a link or over a device or a FIFO, and over an existing
file only when ``overwrite(path) → bool`` says so (``--force``; a question at the
keyboard; a script has none: the write is refused and the script stops). ``load`` reads
a regular file of at most the save's own size limit, without blocking.
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from contract import disk, linebreak
from contract import vocabulary as vocab
from contract.game import Choose, DevSet, EndTurn, Pen, Play, Tear
from contract.kinds import CONTENT_SUFFIXES
from runtime.battle import Battle, Refused
from runtime.dev import DEV_SETTINGS, DEV_WORDS, LIFETIME_WORDS
from runtime.playing import condition_refusal
from runtime.save import MAX_SAVE_CHARS, SaveError, from_json, read as read_save, to_json
from contract.vocabulary import W

from . import lookup, record

#: shlex's complaints about a command line (English) → what the player reads.
QUOTING = {
    "No closing quotation": "引用符が閉じていません",
    "No escaped character": "行末の \\ の後に文字がありません",
}
#: What a player may type for a face: its spellings (未来面, 未来, future), or the
#: initial of its code (f, p) — the terminal's shorthand.
SIDE_WORDS = {word: face.code for face in vocab.FACES
              for word in (*face.spellings(), face.code[0])}
HELP = f"""\
コマンド（カッコ内は別名）
  play N            {W.region.hand}の N 番を{W.scope.play}（p, 出す）
  pen N {W.face_word.future}|{W.face_word.past}   N 番の面にペンを入れる（書かれる内容を先に表示）（ペン）
  tear N            N 番を破る（得る{W.variable.fray}と破却効果を先に表示）（破る）
  end               {W.scope.turn}終了を宣言（e, 終了）
  choose N…         {W.pick.choice}に答える（c, 選ぶ）
  undo              最後の操作を取り消す（u, 戻す）
  save ファイル     この局面をファイルに保存（セーブ）
  load ファイル     保存した局面から続ける（ロード）
  record ファイル   ここまでを例（.scenario）に書く（記録）
                    jibunki test で確かめる。作業フォルダの中にだけ書く
                    （save も。上書きは jibunki battle --force）
  where N           N 番のページを定義しているファイルと行（どこ）
  set 項目 値       開発者モード（設定）: HP / {W.variable.steps} / {W.variable.defense} [寿命] /
                    {W.variable.fray}（={W.variable.fray}[{W.scope.run}]） / {W.variable.fray}[{W.scope.stage}] / {W.variable.age} / {W.variable.seat} /
                    {W.variable.enemy_hp} / {W.variable.currency} / {W.region.hand} ページ…
  log               直前の操作で起きたことを数の出どころまで表示（l, ログ）
  hand              {W.region.hand}の全ページを詳しく表示（小さな端末で省いた分も）（{W.region.hand}）
  board             場の作用と値をすべて表示（場）
  help              この一覧（h, ?, ヘルプ）
  quit              終わる（q, 終わる）"""


class UsageError(Exception):
    """A command that cannot be understood (not a rule refusal); ``stop`` says why a
    script must not go on from it (see ``Outcome.stop``), None when it may."""

    def __init__(self, message: str, stop: str | None = None):
        super().__init__(message)
        self.stop = stop


@dataclass
class Outcome:
    """What one command produced, for the caller to print."""

    events: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refused: str | None = None
    quit: bool = False
    show: bool = True  # redraw the screen
    below: bool = False  # printed whole under the screen, however long (log, help)
    #: A part of the screen printed alone and whole under it (terminal.screen
    #: WHOLE_PARTS: hand, board), or None.
    part: str | None = None
    #: Why a script must not go on from here (None: it may): the line did not do what the
    #: lines after it rely on — a file it meant to write is not written (STOP_UNWRITTEN), a
    #: save it meant to continue from is not read (STOP_UNREAD), a command is unknown
    #: (STOP_UNKNOWN), has words past its end (STOP_EXTRA) or cannot be read at all — an
    #: unclosed quote (STOP_UNREADABLE). A keyboard session goes on: the player sees the
    #: refusal.
    stop: str | None = None


STOP_UNWRITTEN = "ファイルを書けなかったので"
STOP_UNREAD = "セーブを読み込めなかったので"
STOP_UNKNOWN = "知らないコマンドなので"
STOP_EXTRA = "コマンドに余分な語があったので"
STOP_UNREADABLE = "コマンドを読めなかったので"


class Session:
    """対戦セッション — one battle played by typed commands; it keeps the actions taken, so
    ``undo`` can replay all but the last from the start."""

    def __init__(self, tables, *, seed: int, enemies: list[str], deck: list[str] | None,
                 with_pages: list[str] = (), confirm=None, hint=None):
        self.tables = tables
        self.setup = {"seed": seed, "enemies": enemies, "deck": deck,
                      "with": list(with_pages)}
        self.confirm = confirm  # preview lines → go ahead? (None: always)
        #: an existing file at a save's or record's path → replace it? (None: never)
        self.overwrite = None
        self.hint = hint or (lambda word, candidates: "")  # did-you-mean for names
        self.origin: str | None = None  # the save the session continues from (load)
        self.history: list = []  # the action values applied, in order
        self.battle = self._fresh()
        self.opening = list(self.battle.log)
        self.last_events = list(self.opening)  # what the last action did, for ``log``
        self.opening_hand_ids = [self.battle.page_id(uid) for uid in self.battle.hand]

    def fresh_battle(self) -> Battle:
        """The battle as the session started it (or as loaded), before any action."""
        if self.origin is not None:
            return from_json(self.tables, self.origin)
        battle = Battle.new(self.tables, seed=self.setup["seed"], enemies=self.setup["enemies"],
                            deck=self.setup["deck"])
        for page in self.setup["with"]:
            battle.dev_into_hand(page)
        return battle

    def _fresh(self) -> Battle:
        battle = self.fresh_battle()
        #: 与えたダメージ[ラン] when the session's battle was made (or loaded)
        self._dealt_before = battle.state.counter("run", "damage_dealt")
        return battle

    @property
    def dealt(self) -> Counter:
        """Damage dealt in this session by page id — a continuing 作用 counts for the page
        that set it, on whichever play or turn it hits (Battle.dealt_by_page) — and under None
        what no page dealt (an enemy's trait, a reward)."""
        battle = self.battle
        by = Counter(battle.dealt_by_page())
        by[None] = (battle.state.counter("run", "damage_dealt") - self._dealt_before
                    - sum(by.values()))
        return by

    # --------------------------------------------------------------- parsing
    def run(self, line: str) -> Outcome:
        """Carry out one command line."""
        try:
            words = _split(line)
        except ValueError as exc:
            why = QUOTING.get(str(exc), "引用符か \\ の使い方が違います")
            return Outcome(refused=f"コマンドを読めません: {why}", show=False, stop=STOP_UNREADABLE)
        if not words:
            return Outcome(show=False)
        verb, args = words[0], words[1:]
        handler = COMMANDS.get(verb) or COMMANDS.get(verb.lower())
        if handler is None:
            hint = self.hint(verb, list(COMMANDS))
            return Outcome(refused=f"「{linebreak.clipped(verb)}」というコマンドはありません（help で一覧）"
                                   + (f"。{hint}" if hint else ""), show=False, stop=STOP_UNKNOWN)
        most = ARITY.get(handler)
        if most is not None and len(args) > most:
            # 「play 6 7」 meant two plays, or a typo: never half of it done in silence
            extra = linebreak.clipped(" ".join(args[most:]))
            takes = f" {most} 語まで書きます" if most else "何も付けません"
            return Outcome(refused=f"{verb} には{takes}（余分な「{extra}」）。"
                                   f"1 行に 1 つのコマンドを書きます", show=False, stop=STOP_EXTRA)
        try:
            return handler(self, args)
        except UsageError as exc:
            return Outcome(refused=str(exc), show=False, stop=exc.stop)
        except Refused as exc:
            return Outcome(refused=exc.reason, show=False)

    def _hand_uid(self, args: list[str], what: str) -> int:
        if not args:
            raise UsageError(f"{what} には{W.region.hand}の番号かページ名を書きます（例: {what} 2）")
        hand = self.battle.hand
        try:
            index = int(args[0])
        except ValueError:
            named = [uid for uid in hand if args[0] in (
                self.battle.page_id(uid), self.battle.page_of(uid).name)]
            if named:
                return named[0]
            if not _too_long(args[0]):  # digits past int()'s limit are a number all the same
                raise UsageError(f"番号は数字で書きます（または{W.region.hand}のページ名）: "
                                 f"{linebreak.clipped(args[0])}") from None
            index = 0
        if not 1 <= index <= len(hand):
            raise UsageError(f"{W.region.hand}は 1〜{len(hand)} 番です" if hand else f"{W.region.hand}がありません")
        return hand[index - 1]

    def _do(self, action) -> list:
        try:
            return self._act(action)
        except Refused as exc:
            raise self._refusal(action, exc) from None

    def _refused_before_asking(self, action) -> None:
        """Refused, as ``_do`` says it, when ``action`` would be refused now — tried on a
        copy of the battle before a pen's or a tear's preview asks y/n, so that the
        player is never asked to confirm what cannot happen (no pens left this stage)."""
        try:
            self.battle.copy().apply(action)
        except Refused as exc:
            raise self._refusal(action, exc) from None

    def _refusal(self, action, exc: Refused) -> Refused:
        said = REFUSED.get(type(action))
        if said is None:
            return exc
        # A refusal of a page's action names the page: the hand has many rows.
        return Refused(said(self.battle, action) + ": " + exc.reason
                       + self._conditions_named(action, exc.reason))

    def _conditions_named(self, action, reason: str) -> str:
        """The 条件 of the face a play was refused for, in the catalog's words
        (「（条件: このプレイで座を跨がない）」): the refusal says only which face."""
        if type(action) is not Play:
            return ""
        from catalog.phrasing import condition_text

        for side in self.battle.sides_for(action.uid):
            body = self.battle.face_body(action.uid, side)
            if body is not None and body.conditions and reason == condition_refusal(side):
                said = "、".join(condition_text(c) for c in body.conditions)
                return f"（{vocab.KEYWORDS['cond'][0]}: {said}）"
        return ""

    def _act(self, action) -> list:
        events = self.battle.apply(action)
        self.last_events = list(events)
        self.history.append(action)
        return events

    # -------------------------------------------------------------- commands
    def cmd_play(self, args):
        """play N: play the page at N in the hand."""
        uid = self._hand_uid(args, "play")
        return Outcome(events=self._do(Play(uid)))

    def cmd_pen(self, args):
        """pen N 未来面|過去面: put the pen to a face of the hand's page N, first showing what
        it writes."""
        uid = self._hand_uid(args, "pen")
        if len(args) < 2 or args[1] not in SIDE_WORDS:
            raise UsageError(f"面を {W.face_word.future} か {W.face_word.past} で書いてください（例: pen 2 {W.face_word.future}）")
        side = SIDE_WORDS[args[1]]
        from .screen import pen_fray_text, pen_preview
        notes = ["ペンで書き込まれる内容: " + " ／ ".join(pen_preview(self.battle, uid, side)),
                 pen_fray_text(self.battle)] \
            if self.battle.page_of(uid).pens[side] or \
            self.battle.face(uid, side)["blanked"] else []
        if self.confirm is not None and notes:
            self._refused_before_asking(Pen(uid, side))
            if not self.confirm(notes):
                return Outcome(notes=["やめました"], show=False)
            notes = []  # shown with the question
        return Outcome(events=self._do(Pen(uid, side)), notes=notes)

    def cmd_tear(self, args):
        """tear N: tear the hand's page N (破る), first showing the 綻び and tear effects."""
        uid = self._hand_uid(args, "tear")
        from .screen import tear_preview
        notes = ["破ると: " + " ／ ".join(tear_preview(self.battle, uid))]
        if self.confirm is not None:
            self._refused_before_asking(Tear(uid))
            if not self.confirm(notes):
                return Outcome(notes=["やめました"], show=False)
            notes = []
        return Outcome(events=self._do(Tear(uid)), notes=notes)

    def cmd_end(self, args):
        """end: declare the end of the turn (ターン終了宣言)."""
        return Outcome(events=self._do(EndTurn()))

    def cmd_choose(self, args):
        """choose N…: answer the pending choice (選択) with the candidates of those numbers."""
        choice = self.battle.pending
        if choice is None:
            raise UsageError("いま選ぶものはありません")
        count = len(choice.candidates)
        try:
            numbers = [int(a) for a in args]
        except ValueError:
            numbers = [0]
        # 1-based, and only those: a 0 or a negative number would index from the end.
        if not all(1 <= n <= count for n in numbers):
            raise UsageError(f"候補の番号（1〜{count}）を書いてください")
        picks = [choice.candidates[n - 1] for n in numbers]
        return Outcome(events=self._do(Choose(tuple(picks))))

    def cmd_undo(self, args):
        """undo: take back the last action by replaying the others on a fresh battle (the
        battle is deterministic)."""
        if not self.history:
            raise UsageError("取り消す操作がありません")
        kept = self.history[:-1]
        self.history = []
        self.battle = self._fresh()
        # log: what the action now last did (the start's events when none is left)
        self.last_events = list(self.battle.log)
        for action in kept:
            self._do(action)
        return Outcome(notes=[f"1 手戻しました（{len(kept)} 手を再生）"])

    def cmd_set(self, args):
        """set 項目 値: a developer-mode setting (開発者モード) — a number, 防御 with an optional
        lifetime, or the pages of the hand."""
        if len(args) < 2 or args[0] not in DEV_WORDS:
            shown = " / ".join(s.words[0] for s in DEV_SETTINGS.values())
            raise UsageError(f"set 項目 数 と書きます（項目: {shown}）。"
                             f"例: set {W.variable.defense} 10 {W.scope.stage} ／ set {W.region.hand} 旅立ちの朝 銀婚式")
        key = DEV_WORDS[args[0]]
        if key == "hand":
            try:
                value = [lookup.page_id(self.tables, word, self.hint) for word in args[1:]]
            except lookup.UnknownName as exc:
                raise UsageError(str(exc)) from None
        else:
            try:
                value = int(args[1])
            except ValueError:
                raise UsageError(f"{args[0]} の値が大きすぎます: {linebreak.clipped(args[1])}"
                                 if _too_long(args[1]) else
                                 f"{args[0]} には整数を書きます: {linebreak.clipped(args[1])}") \
                    from None
            most = 3 if DEV_SETTINGS[key].takes_lifetime else 2
            if len(args) > most:
                raise UsageError(f"set {args[0]} に余分な「{' '.join(args[most:])}」があります"
                                 f"（例: set {args[0]} 10）", STOP_EXTRA)
            if DEV_SETTINGS[key].takes_lifetime and len(args) > 2:
                if args[2] not in LIFETIME_WORDS:
                    raise UsageError(f"{W.variable.defense}の寿命は " + " / ".join(LIFETIME_WORDS) + " です")
                value = (value, LIFETIME_WORDS[args[2]])
        return Outcome(events=self._do(DevSet(((key, value),))))

    def cmd_save(self, args):
        """save FILE: the position as a save (runtime.save JSON) in the user's own file."""
        path = _path(args, "save")
        if path.name.endswith(CONTENT_SUFFIXES):  # a page file is not overwritten with JSON
            return Outcome(refused=f"{path} はコンテンツのファイルの名前です。保存しません"
                                   "（.json などの名前を指定してください）",
                           show=False, stop=STOP_UNWRITTEN)
        return self._write(path, to_json(self.battle), [f"保存しました: {path}"],
                           "に保存できません")

    def cmd_load(self, args):
        """load FILE: continue from a saved position (undo goes back to it, not further)."""
        path = _path(args, "load")
        try:
            # utf-8-sig: a save opened and kept by an editor that writes a BOM still loads
            text = disk.read_bounded(path, MAX_SAVE_CHARS).decode("utf-8-sig")
        except disk.DiskError as exc:
            return _unread(f"{path} を読めません: {exc.strerror}")
        except UnicodeDecodeError:
            return _unread(f"{path} を読めません: UTF-8 のテキストではありません")
        try:
            _, changed = read_save(self.tables, text)
        except SaveError as exc:
            return _unread(f"{path}: {exc}")
        self.origin, self.history = text, []
        self.battle = self._fresh()
        self.last_events = list(self.battle.log)  # log: nothing of before the load
        notes = [f"読み込みました: {path}（undo はここまで）"]
        if changed:
            notes.append(f"セーブの後にコンテンツが変わっています: {'、'.join(changed)}"
                         "（いまの表で続けます。セーブに入っている値はセーブのときのままです）")
        return Outcome(notes=notes)

    def cmd_record(self, args):
        """record FILE: the session so far as a 例 (a .scenario file) that jibunki test
        checks — written only when the example replays this session exactly
        (terminal.record); otherwise nothing is written and the reason is said."""
        path = _path(args, "record")
        if self.origin is not None:
            raise UsageError("load した局面からは例を書けません（例は最初から再生します）",
                             STOP_UNWRITTEN)
        text, why = record.scenario_text(self)
        if text is None:
            return Outcome(refused=f"{path} に例を書きませんでした（そのまま再生できる例になりません）: {why}",
                           show=False, stop=STOP_UNWRITTEN)
        return self._write(path, text, [f"例を書きました: {path}（jibunki test {path} で確かめられます）"],
                           "に書けません")

    def _write(self, path: Path, text: str, notes: list[str], failed: str) -> Outcome:
        """``text`` as the file ``path`` inside the working folder (contract.disk.write);
        an existing file is replaced only when ``overwrite`` says so. A write that does not
        happen is refused and stops a script."""
        try:
            try:
                disk.write(path, text, inside=Path.cwd(), replace=False)
            except disk.Exists:
                if self.overwrite is None:
                    return Outcome(refused=f"{path} はもうあります。上書きしません"
                                           "（上書きするなら jibunki battle --force）",
                                   show=False, stop=STOP_UNWRITTEN)
                if not self.overwrite(path):
                    return Outcome(notes=[f"やめました（{path} はそのままです）"], show=False)
                disk.write(path, text, inside=Path.cwd(), replace=True)
        except OSError as exc:
            return Outcome(refused=f"{path} {failed}: {disk.reason(exc)}", show=False, stop=STOP_UNWRITTEN)
        return Outcome(notes=notes, show=False)

    def cmd_where(self, args):
        """where N: the file and line that define hand page N."""
        uid = self._hand_uid(args, "where")
        page = self.battle.page_id(uid)
        return Outcome(notes=[f"{self.battle.page_of(uid).name}（{page}）: "
                              f"{record.where(self.tables, page)}"], show=False)

    def cmd_log(self, args):
        """log: everything the last action did, each number with how it came about (the
        screen shows only the last lines when they do not fit)."""
        return Outcome(events=list(self.last_events), show=False, below=True)

    def cmd_hand(self, args):
        """hand: the whole hand, every page in full detail (a small terminal's screen shows
        only the first pages, or one line each)."""
        return Outcome(show=False, below=True, part="hand")

    def cmd_board(self, args):
        """board: the whole board (場), every 作用 and value in force (a small terminal's
        screen shows only the first)."""
        return Outcome(show=False, below=True, part="board")

    def cmd_help(self, args):
        """help: the list of commands."""
        return Outcome(notes=[HELP], show=False)

    def cmd_quit(self, args):
        """quit: end the session."""
        return Outcome(quit=True, show=False)


def _split(line: str) -> list[str]:
    """The words of a command line as ``shlex.split`` (comments too) reads them, split at
    the ideographic space as well: a Japanese IME types 「出す　５」 (quoted, a space of
    either kind stays in the word)."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace += "\u3000"
    lexer.whitespace_split = True
    return list(lexer)


def _unread(why: str) -> Outcome:
    """A load that read nothing: refused, the session as it was, and a script stopped (the
    lines after it were written for the saved position)."""
    return Outcome(refused=why, show=False, stop=STOP_UNREAD)


def _too_long(text: str) -> bool:
    """Is ``text`` — which ``int`` refused — an integer all the same, one sign and digits
    past int()'s limit (sys.get_int_max_str_digits)? (--5 and +-3 are no integers.)"""
    import re

    return re.fullmatch(r"[+-]?[0-9]+", text) is not None


def _path(args: list[str], what: str) -> Path:
    """The one file a ``load``, ``save`` or ``record`` names. A line that names none, or
    more than one, stops a script as a file not read or not written would: the lines
    after it were written for that file."""
    example = f"{what} battle.{'scenario' if what == 'record' else 'json'}"
    stop = STOP_UNREAD if what == "load" else STOP_UNWRITTEN
    if not args or not args[0].strip():  # save "": Path("") is "." — said as no name
        raise UsageError(f"ファイルを書いてください（例: {example}）", stop)
    if len(args) > 1:  # a name with a space, unquoted: never half of it
        raise UsageError(f"ファイルは 1 つだけ書きます（{len(args)} 語あります）。空白を含む名前は"
                         f"引用符で囲みます（例: {what} \"{' '.join(args)}\"）", stop)
    return Path(args[0]).expanduser()


def _name(battle: Battle, uid: int) -> str:
    return battle.page_of(uid).name


#: Action class on one page → how its refusal begins (the page named, then the reason).
REFUSED = {
    Play: lambda battle, a: f"「{_name(battle, a.uid)}」は{W.scope.play}できません",
    Pen: lambda battle, a: f"「{_name(battle, a.uid)}」にペンを入れられません",
    Tear: lambda battle, a: f"「{_name(battle, a.uid)}」は破れません",
}


#: command word → handler. Every command has its ASCII and Japanese spellings.
COMMANDS = {}
for _words, _handler in (
        (("play", "p", "出す", W.scope.play), Session.cmd_play),
        (("pen", "ペン"), Session.cmd_pen),
        (("tear", "t", "破る"), Session.cmd_tear),
        (("end", "e", "終了"), Session.cmd_end),
        (("choose", "c", "選ぶ"), Session.cmd_choose),
        (("undo", "u", "戻す"), Session.cmd_undo),
        (("save", "セーブ"), Session.cmd_save),
        (("load", "ロード"), Session.cmd_load),
        (("record", "記録"), Session.cmd_record),
        (("where", "どこ"), Session.cmd_where),
        (("set", "設定"), Session.cmd_set),
        (("log", "l", "ログ"), Session.cmd_log),
        (("hand", W.region.hand), Session.cmd_hand),
        (("board", "場"), Session.cmd_board),
        (("help", "h", "?", "ヘルプ"), Session.cmd_help),
        (("quit", "q", "exit", "終わる"), Session.cmd_quit)):
    for _word in _words:
        COMMANDS[_word] = _handler

#: The most words a command takes after it (the others: as many as they say — choose's
#: candidates, set's pages — or one file, which ``_path`` checks).
ARITY = {Session.cmd_play: 1, Session.cmd_pen: 2, Session.cmd_tear: 1, Session.cmd_end: 0,
         Session.cmd_undo: 0, Session.cmd_where: 1, Session.cmd_log: 0, Session.cmd_help: 0,
         Session.cmd_hand: 0, Session.cmd_board: 0,
         Session.cmd_quit: 0}
