"""旅の端末 — draft 17 played in the terminal: the screen, the narration, the loop.

The screen is plain text (designer text printed as written, never as markup): the seven
days with their pawns and events (nearest the location first, with their key icons),
the hand, the items, the letters, the flag cards, and what the next action decides with
the actions it allows. Commands are the action labels of journey.notation, plus undo
(the draft invites rewinding: 「思考実験について」), actions, cards, help and quit, each
with Japanese aliases (journey.screen.commands).

Three modes, like ``jibunki battle``: at the keyboard (the screen redrawn in place after
every action, what it did under it; the line editor of terminal.prompt, with the commands
of journey.screen.commands and Tab completion from journey.screen.complete); a script
(every command echoed with what it did, then the final screen and the result — the same
seed and script always print the same text); and ``--events``, the event stream as JSON
lines. The exit status says how the game ended: EXIT_WON, EXIT_LOST, EXIT_UNFINISHED.
"""

from __future__ import annotations

import re

from contract import vocabulary as vocab
from contract.linebreak import clipped, columns, line_spans, shown
from contract.vocabulary import W
from terminal.script import (EXIT_LOST, EXIT_STOPPED, EXIT_UNFINISHED, EXIT_WON,  # noqa: F401
                             commands, emit, exit_code)

from .. import Journey, JourneyError
from ..actions import Resolve
from ..notation import action_labels, read, shown_labels
from ..rules import Rules, UnknownAction, UnreadableLine
from .commands import command_word, help_lines

#: The words this screen shares with the battle's (the vocabulary's, written once there).
HAND, DISCARD, PLAY, LOST = (W.region.hand, W.region.discard, W.scope.play, W.quantity.lost)
#: The draft's own word for a turn (spec 004 says 手番 only; the battle's is ターン).
TURN = "手番"
#: How many of the legal actions the screen lists (all of them: ``actions``).
SHOWN_ACTIONS = 12
#: What the next action decides, by phase.
PHASE_WORDS = {
    "play": f"{HAND}から1枚{PLAY}し、動く黒いポーンを選ぶ",
    "mill": f"ループで引いたカードを{DISCARD}にするか、テントで山の下へ戻すか",
    "moment": "レターやアイテムを使うか、次へ進む（進む）",
    "effect": "イベント効果を選ぶ（イベントフェイズ）",
    "return": f"山の下へ戻す{HAND}を選ぶ",
    "resolve": "物語を1つ解決するか、手番を終える（解決フェイズ）",
    "won": "ゲームクリア", "lost": LOST,
}
#: What a moment comes before, by the step it opens on.
MOMENT_WORDS = {"refill": f"{HAND}補充の前", "events": "イベントフェイズの前",
                "effects": "次のイベント効果の前", "end": "終了フェイズの前"}
#: Why a script stops at a line (the battle's words, terminal/session.py).
STOP_UNKNOWN = "知らない行動なので"
STOP_EXTRA_COMMAND = "コマンドに余分な語があったので"
LOSS_WORDS = {"refill_empty": f"{HAND}補充で山が尽きていた", "loop_empty": "ループで山が尽きていた"}
class Game:
    """One game in the terminal: the ``Journey`` played (contract.game.Game: actions as
    values, applied by the game itself), the games before each action (for undo), and
    the events of the deal. The screen reads the journey through that interface only
    (its view, pending, actions and result, and the rules' static tables)."""

    def __init__(self, journey: Journey):
        self.journey = journey
        self.opening = list(journey.opening)
        self.history: list[Journey] = []
        #: The cards each action of ``history`` took from the deck and showed (``_undo``).
        self.seen: list[list[str]] = []
        #: Why a script stops at the line just run (None: it goes on), as the battle's
        #: Outcome.stop.
        self.stop: str | None = None

    @classmethod
    def deal(cls, rules, seed: int, items=None) -> "Game":
        """A new game of ``rules`` dealt for ``seed`` (``Journey.new``)."""
        return cls(Journey.new(rules, seed, items))

    def run(self, line: str) -> tuple[list[str], list[dict], bool]:
        """(lines to print, events, quit?) of one command line: one of the terminal's own
        commands (screen.commands.TERMINAL, any spelling), else an action. Never raises
        on input."""
        self.stop = None
        words = line.split()
        own = _OWN.get(command_word(words[0])) if words else None
        if own is not None:
            if len(words) > 1:  # 「undo 3」: never one undo said as three
                self.stop = STOP_EXTRA_COMMAND
                return [f"× {words[0]} には何も付けません（余分な「{' '.join(words[1:])}」）"], [], False
            return own(self)
        if self.journey.result is not None:
            return ["× ゲームは終わっています（取り消す で戻れます）"], [], False
        try:
            action = read(self.journey, line)
        except UnknownAction as exc:
            self.stop = STOP_UNKNOWN
            return [f"× {exc}"], [], False
        except UnreadableLine as exc:
            self.stop = exc.why
            return [f"× {exc}"], [], False
        except JourneyError as exc:
            return [f"× {exc}"], [], False
        before = self.journey.copy()
        events = self.journey.apply(action)
        self.history.append(before)
        self.seen.append(revealed(self.journey, events))
        return narrate(before, events), events, False

    def _quit(self):
        return [], [], True

    def _help(self):
        return help_lines(), [], False

    def _actions(self):
        return [f"  {lab}" for lab in shown_labels(action_labels(self.journey))] or \
            ["（できる行動はありません）"], [], False

    def _cards(self):
        return card_texts(self.journey), [], False

    def _undo(self):
        if not self.history:
            return ["× 戻せる手がありません"], [], False
        drawn = self.seen[-1]
        if drawn:
            # The draft invites rewinding the pawns (◎思考実験について), not the deck: the
            # cards drawn were seen, and a game taken back before them is played knowing
            # the order of the deck.
            return [f"× この手で山から {' '.join(drawn)} を引いたので、戻せません（引いたカードを"
                    "知ったまま戻ると、山の順を知って遊ぶことになります。同じ --seed で始め直せます）"
                    ], [], False
        self.journey = self.history.pop()
        self.seen.pop()
        return ["一手戻しました"], [{"event": "undo"}], False


#: The events of a card taken from the deck and shown: drawn into the hand (a refill, 黄,
#: ラジオ), or drawn by a loop to be milled.
REVEALING = ("draw", "mill")


def revealed(journey: Journey, events: list[dict]) -> list[str]:
    """The cards of the deck an action showed: those its events drew or milled, and a
    loop's card waiting for the テント's choice (the screen shows it before any event
    does: taken back then, the play would be chosen again knowing the deck's top)."""
    cards = [e["card"] for e in events if e.get("event") in REVEALING]
    pending = journey.view()["pending"]
    if pending is not None and pending["kind"] == "mill":
        cards.append(pending["source"])
    return cards


#: The terminal's own commands, by their ASCII word (screen.commands.TERMINAL).
_OWN = {"quit": Game._quit, "help": Game._help, "actions": Game._actions,
        "cards": Game._cards, "undo": Game._undo}


def exit_status(journey: Journey) -> int:
    """0 won, 1 lost, 3 not finished."""
    return exit_code(journey.view()["phase"])


# ------------------------------------------------------------------ the screen


def screen(journey: Journey, *, compact: bool = False) -> list[str]:
    """The whole table as plain lines (``compact``: the flag cards on one line, for a
    terminal too short for them and what the last action did)."""
    return [line.rstrip() for line in _screen(journey, compact)]


def _screen(journey: Journey, compact: bool = False) -> list[str]:
    r, v = journey.rules, journey.view()
    out = [f"旅の準備 {r.setup_name}  {TURN} {v['turn']}  山 {v['deck']}  "
           f"{DISCARD} {len(v['discard'])}  レター {v['letters']}"]
    if v["open_top"]:
        out[0] += f"  山の上: {_card(r, v['top']) if v['top'] is not None else '—'}"
    out.append("日 ロケーション   枠  ポーン  イベント（ロケーションに近い順）  ○ 白 ● 黒")
    for day, name in enumerate(v["days"], 1):  # the view's days are 1-based
        pawns = "○" * (v["white"] == day) + "●" * v["blacks"].count(day)
        cap, events = v["capacity"][day - 1], v["stacks"][day - 1]
        stack = " ".join(_card(r, c) for c in events)
        slots = f"{len(events)}/{cap}" if cap else " —"
        out.append(f"{day}  {name}{'　' * max(0, 6 - len(name))} {slots:>4}  {pawns:<4}  {stack}")
    out.append(f"{HAND}: " + " ".join(_card(r, c) for c in v["hand"]))
    if v["items"]:
        out.append("アイテム: " + "  ".join(_item(r, item) for item in v["items"]))
    flags = []
    for suit, code in enumerate(r.suits):
        done = "［解決済み］" if code in v["resolved"] else ""
        effect = vocab.lookup("journey_effect", r.suit_effects[suit]).ja
        flags.append(f"{r.suit_word(suit)} {effect}{done}" if compact
                     else f"フラグ {r.suit_word(suit)} {r.flag_names[suit]}（{effect}）{done}")
    out += ["フラグ: " + " / ".join(flags)] if compact else flags
    if v["lantern"]:
        lit = "・".join(r.suit_word(s) for s, code in enumerate(r.suits) if code in v["lantern"])
        out.append(f"ランタン: {lit}は手番終了まで未解決として扱う")
    out.append(f"次: {PHASE_WORDS[v['phase']]}" + _pending(journey, v))
    if v["phase"] == "lost":
        out[-1] += f"（{LOSS_WORDS.get(v['reason'], v['reason'])}）"
    known = shown_labels(action_labels(journey))
    if known:
        shown = known[:SHOWN_ACTIONS]
        more = f" …ほか {len(known) - len(shown)}（行動）" if len(known) > len(shown) else ""
        out.append("できる行動: " + " / ".join(shown) + more)
    return out


def card_texts(journey: Journey) -> list[str]:
    """The flag cards', the carried items' and the letters' texts, as written, and the
    discard pile face up (at the table it is open: アドベンチャーメモリー and カメラ choose
    from it, and the deck is whatever is not there)."""
    r = journey.rules
    view = journey.view()
    out = [f"フラグ {r.suit_word(s)} {r.flag_names[s]}: {r.flag_texts[s]}" for s in range(len(r.suits))]
    carried = [r.items[item["id"]] for item in view["items"]]
    out += [f"アイテム {it.name}: {it.text}" for it in carried]
    out += [f"レター {r.letter_effects[code]}: {text}" for code, text in sorted(r.letter_texts.items())]
    discard = [_card(r, card) for card in sorted(view["discard"], key=r.card_ids.index)]
    out.append(f"{DISCARD}（{len(discard)} 枚）: " + (" ".join(discard) or "なし"))
    return out


def _card(r: Rules, card: str) -> str:
    """An event card by its id, with its key icon (白2(花))."""
    return f"{card}({r.keys[r.key_of[r.card_ids.index(card)]]})"


def _item(r: Rules, item: dict) -> str:
    """A carried item of the view, with whether it can be used."""
    card = r.items[item["id"]]
    # 未使用, not 使用可: whether it can be used now is the rules' (an action it offers)
    status = "常に有効" if card.passive else "未使用" if item["ready"] else "使用済み"
    return f"{card.name}（{status}）"


def _pending(journey: Journey, v: dict) -> str:
    """What the choice the game waits for is about (the view's pending or moment)."""
    r, phase = journey.rules, v["phase"]
    source = v["pending"]["source"] if v["pending"] else None
    if phase == "effect":
        suit = r.suits.index(source)
        return f" — {r.suit_word(suit)}: {r.flag_names[suit]}"
    if phase == "moment":
        return f" — {MOMENT_WORDS[v['moment']]}"
    if phase == "return":
        return f" — あと {source} 枚"
    if phase == "mill":
        return f" — 引いたカード: {_card(r, source)}"
    if phase == "resolve":
        ready = [a.suit for a in journey.actions() if isinstance(a, Resolve)]
        return " — 解決できる物語: " + ("、".join(r.suit_word(s) for s in ready) or "なし")
    return ""


# ------------------------------------------------------------------ narration


def narrate(before: Journey, events: list[dict]) -> list[str]:
    """The events of one action as lines (days 1-based, as the events say them), told
    in the words of the game ``before`` it (its rules' names)."""
    r = before.rules
    suit_word = {code: r.suit_word(i) for i, code in enumerate(r.suits)}
    out = []
    for e in events:
        kind = e["event"]
        if kind == "deal":
            # by its name, as the board's head says it; its id (what --setup takes) beside
            named = r.setup_name if e["setup"] == r.setup_name else f"{r.setup_name}（{e['setup']}）"
            out.append(f"旅の準備 {named}、シード {e['seed']}: " + " → ".join(e["days"]))
            # by the names the set-up gives them (問題点's ids are 問題点のランタン …)
            names = [r.items[i].name if i in r.items else i for i in e["items"]]
            out.append("  アイテム: " + ("、".join(names) or "なし")
                       + f"  {HAND}: " + " ".join(e["hand"]))
        elif kind == "play":
            loop = "（ループ）" if e["loop"] else ""
            out.append(f"{e['card']} を{PLAY}: 白いポーン {e['white'][0]} → {e['white'][1]} 日目{loop}")
        elif kind == "black":
            out.append(f"  黒いポーン {e['from']} → {e['to']} 日目")
        elif kind == "mill":
            where = "山の下へ" if e["to"] == "bottom" else f"{DISCARD}に"
            out.append(f"  ループ: 山の上の {e['card']} を{where}")
        elif kind == "place":
            if e.get("to") == "discard":  # 【７日目】, or any day with no room (枠 0)
                out.append(f"  {e['card']} は {e['day']} 日目に置く枠がないので{DISCARD}へ")
            else:
                out.append(f"  {e['card']} を {e['day']} 日目に配置")
        elif kind == "overflow":
            out.append(f"  あふれた {e['card']} を{DISCARD}に（{e['day']} 日目）")
        elif kind == "effect":
            out.append(f"  {suit_word[e['suit']]}の効果: " + {
                "none": "何も起きない", "skipped": "使わない"}.get(e["effect"], _effect_words(e)))
        elif kind == "draw":
            out.append(f"  {e['card']} を引く")
        elif kind == "return":
            out.append(f"  {e['card']} を山の下へ")
        elif kind == "resolve":
            out.append(f"物語「{e['story']}」を解決: レターを1個得る")
        elif kind == "letter":
            out.append("レター: ロケーションメモリー" if e["effect"] == "location_memory"
                       else f"レター: アドベンチャーメモリー（{_onto_deck(e.get('cards', []))}）")
        elif kind == "item":
            said = ITEM_WORDS.get(e["effect"])
            out.append(f"アイテム {e['item']} を使う" + (f": {said(e, suit_word)}" if said else ""))
        elif kind == "turn":
            out.append(f"── {TURN} {e['turn']} ──")
        elif kind == "won":
            parts = e["parts"]
            out.append(f"ゲームクリア！ スコア {e['score']}（山 {parts['deck']}・レター {parts['letters']}"
                       f"・キーアイコン {parts['keys']}・費用 {parts['cost']}）")
        elif kind == "lost":
            out.append(f"{LOST}: {LOSS_WORDS.get(e['reason'], e['reason'])}")
    return out


def _onto_deck(cards: list[str]) -> str:
    """Cards put on the deck one after another, said from the top down: the last put is
    the next drawn."""
    top = cards[::-1]
    if len(top) <= 1:
        return f"{''.join(top)} を山の上へ"
    return f"{top[0]} を山のいちばん上へ、その下に {'、'.join(top[1:])}"


#: What an item did, by its effect (the events journey/effects.py records); ラジオ's draws
#: are told by their own events.
ITEM_WORDS = {
    "unresolve": lambda e, suit_word: (f"{suit_word[e['suit']]}を{TURN}終了まで未解決として扱う"
                                       "（イベント効果が使える）"),
    "advance_white": lambda e, suit_word: (f"白いポーン {e['white'][0]} → {e['white'][1]} 日目"
                                           + ("（ループ）" if e["loop"] else "")),
    "swap_in": lambda e, suit_word: (f"{e['day']} 日目の {e['out']} を{DISCARD}に、"
                                     f"{HAND}の {e['in']} を同じ位置に"),
}


def _effect_words(e: dict) -> str:
    if "swap" in e:
        (d1, p1), (d2, p2) = e["swap"]
        return f"{d1} 日目の {p1} 枚目と {d2} 日目の {p2} 枚目を交換"
    if "item" in e:
        return f"{e['item']} を縦置きに戻す"
    return {"nudge_black": "黒いポーンを1つ動かす", "call_black": "黒いポーンを呼び寄せる",
            "draw_return": "1枚引いて1枚を山の下へ"}.get(e["effect"], e["effect"])


# ------------------------------------------------------------------ the modes


def play(rules, *, seed: int, items=None, lines=None, as_events: bool = False,
         keyboard=None, write=print) -> int:
    """Play a game: at the keyboard when ``lines`` is None (``keyboard`` reads lines:
    ``read()``, ``bind(game)``; without one, ``input``), else the script's lines
    (``as_events``: JSON lines). The exit status."""
    game = Game.deal(rules, seed, items)
    # a script's line, echoed or quoted by a refusal, may hold an escape or a NUL: shown
    # as "�", as the battle's script shows it, never acted on by the terminal
    write = (lambda text, out=write: out(shown(text)))
    if as_events:
        return _events_mode(game, lines or ())
    if lines is None:
        return _keyboard(game, keyboard or _InputKeyboard())
    for line in narrate(game.journey, game.opening):
        write(line)
    for line in screen(game.journey):
        write(line)
    for number, line in commands(lines):
        write(f"> {clipped(line)}")
        said, _, quit_ = game.run(line)
        for out in said:
            write(out if not out.startswith("×") else f"{out}（{number} 行目）")
        if game.stop:
            write(f"スクリプトをここで止めました（{game.stop}）")
            break
        if quit_:
            break
    write("── 最後の盤面 ──")
    for line in screen(game.journey):
        write(line)
    write(_result(game.journey))
    return EXIT_STOPPED if game.stop else exit_status(game.journey)


# ------------------------------------------------------------------ at the keyboard

#: Lines kept for the prompt below the screen.
PROMPT_LINES = 1
#: Told after the deal, under the first screen.
FIRST_WORDS = "ヘルプ でコマンド一覧（Tab で補完、↑ で前の行）"


def frame(journey: Journey, told: list[str], width: int, height: int) -> list[str] | None:
    """What the terminal shows after an action: the screen and, under it, what was typed
    and what it did — the flag cards on one line when the whole does not fit
    ``width`` × ``height`` with the prompt; None when it does not fit even so."""
    from rich.cells import cell_len

    def rows(lines: list[str]) -> int:  # wide characters take two cells; long lines wrap
        return sum(max(1, -(-cell_len(line) // max(1, width))) for line in lines)

    for compact in (False, True):
        drawn = fold(screen(journey, compact=compact), width) + told
        if rows(drawn) + PROMPT_LINES <= height:
            return drawn
    return None


def tight(journey: Journey, told: list[str]) -> list[str]:
    """The screen for a terminal too small for ``frame``: compact, without the columns'
    titles, and its first line — the turn, the deck (an empty one loses), the discard and
    the letters — moved under ``told``, just above the prompt, where the terminal's scroll
    cannot take it away (at 50×20 it was always scrolled off)."""
    head, _titles, *rest = screen(journey, compact=True)
    return [*rest, *told, head]


class _InputKeyboard:
    """Lines read by ``input`` (no history, no completion)."""

    def bind(self, game) -> None:
        pass

    def read(self) -> str:
        return input("> ")


def _keyboard(game: Game, keyboard) -> int:
    """The game at a terminal: the screen redrawn in place after every action, what the
    action did under it; what does not fit under the screen (help, cards) is printed
    below it and the next action redraws."""
    from rich.console import Console

    console = Console(highlight=False)
    paint = painter(game.journey.rules)
    keyboard.bind(game)
    _draw(console, game.journey, [*narrate(game.journey, game.opening), FIRST_WORDS], acted=True,
          paint=paint)
    while True:
        try:
            line = keyboard.read()
        except (EOFError, KeyboardInterrupt):
            break
        if not line.strip():
            continue  # an empty line does nothing
        moves = len(game.history)  # an action adds a game before it, undo takes one back
        said, _, quit_ = game.run(line)
        if quit_:
            break
        _draw(console, game.journey, [f"> {clipped(line.strip())}", *said],
              acted=len(game.history) != moves, paint=paint)
    _say(console, [_result(game.journey)], paint)
    return exit_status(game.journey)


def _draw(console, journey: Journey, told: list[str], *, acted: bool, paint=None) -> None:
    """Clear the terminal and draw the screen with ``told`` under it. When they do not fit
    together, the terminal scrolls: after an action (``acted``), the new screen is drawn
    and ``told`` under it whole; else (help, cards) ``told`` is printed below what is
    shown, which is still the game as it stands."""
    width, height = console.size
    drawn = frame(journey, fold(told, width), width, height)
    if drawn is None and not acted:
        # printed below: the line typed is still on screen just above, not echoed again
        _say(console, told[1:] if told and told[0].startswith("> ") else told, paint)
        return
    console.clear()
    _say(console, drawn or tight(journey, fold(told, width)), paint)


def _say(console, lines: list[str], paint=None) -> None:
    """Plain lines: designer text is printed as written, never read as markup; with
    ``paint`` (``painter``), each card's label in its suit's colour where the terminal
    shows colours (a pipe, or NO_COLOR, gets the same characters uncoloured)."""
    folded = fold([shown(line) for line in lines], console.size[0])
    if paint is None or console.color_system is None:
        console.file.write("".join(line + "\n" for line in folded))
        console.file.flush()
        return
    for line in folded:
        console.print(paint(line), soft_wrap=True, highlight=False)


#: The colour each suit's cards are shown in at the keyboard, by suit code: draft 17's
#: suits are colours, and its author would have its play cards read by colour first
#: (「色をベースにして」; the print frames them in the same five, printing.cards.TINTS).
#: 白 is the terminal's own colour, bold: white would vanish on a light background.
SUIT_STYLES = {"red": "bold red", "green": "bold green", "blue": "bold blue",
               "yellow": "bold yellow", "white": "bold"}


def painter(rules: Rules):
    """The function that gives a screen line as a rich ``Text`` (never markup) whose
    event cards — 赤4 in an action, 赤4(月) on the board — are in their suits' colours."""
    from rich.text import Text

    style = {card: SUIT_STYLES.get(rules.suits[rules.suit_of[c]], "bold")
             for c, card in enumerate(rules.card_ids)}
    # the longest first, and no digit after: 白1 is not the head of a 白12
    names = "|".join(re.escape(card) for card in sorted(style, key=len, reverse=True))
    label = re.compile(rf"({names})(?!\d)(?:\([^()\s]*\))?")

    def paint(line: str) -> Text:
        text = Text(line)
        for found in label.finditer(line):
            text.stylize(style[found.group(1)], found.start(), found.end())
        return text
    return paint


#: A list's head, on a line of its own: 「できる行動: 」, 「フラグ: 」 before items separated
#: by " / ".
_LIST = re.compile(r"[^ /]+: (?=.* / )")
#: Where a line's second column begins: two spaces or more after its first words (the
#: help's descriptions).
_SECOND_COLUMN = re.compile(r"\S {2,}(?=\S)")
#: What separates the items of a list line: a break falls after one where it can.
_ITEMS = " / "


def fold(lines: list[str], width: int) -> list[str]:
    """``lines`` as the terminal shows them ``width`` columns wide: a longer line broken
    as Japanese is (contract/linebreak.py) rather than wherever the terminal ends — a
    list (「できる行動: play 白1 黒1 / item 地図」) between its items, so that no action
    or card is cut in two — its following lines under its second column (the help's
    descriptions, a list's items) when that begins in the left half, else under its own
    indent."""
    out = []
    for line in lines:
        if columns(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        lead = line[:len(line) - len(body)]
        gap = (_LIST.match(body) if not lead else None) or _SECOND_COLUMN.search(body)
        hang = len(lead)
        if gap is not None and columns(lead + body[:gap.end()]) <= width // 2:
            hang = columns(lead + body[:gap.end()])
        pieces = [body]
        if not lead and gap is not None and hang > 0 and gap.re is _LIST:
            # a list: its items packed line by line, the first beside its head
            pieces = _packed(body[gap.end():].split(_ITEMS), width - hang,
                             width - columns(body[:gap.end()]))
            pieces[0] = (body[:gap.end()] + pieces[0]).rstrip()
        for number, piece in enumerate(pieces):
            first = len(lead) if number == 0 else hang
            spans = line_spans(piece, width, first, hang)
            out += [(lead if number == 0 and i == 0 else " " * hang) + piece[a:b]
                    for i, (a, b) in enumerate(spans)]
    return out


def _packed(items: list[str], width: int, first: int) -> list[str]:
    """The items of a list joined by " / " into lines of at most ``width`` columns (the
    first ``first``: beside the list's head), each line but the last closed by its " /"
    (where it fits); the first line is left empty when not even the first item fits
    beside the head, and an item longer than a line is a line of its own (broken as
    Japanese is by ``fold``)."""
    end = _ITEMS.rstrip()  # what closes a line, room kept for it on every line
    lines = [""]
    for item in items:
        whole = first if len(lines) == 1 else width
        joined = f"{lines[-1]}{_ITEMS}{item}" if lines[-1] else item
        if columns(joined) + columns(end) <= whole:
            lines[-1] = joined
            continue
        # closed by its separator — or, when its item fills it, by the break alone
        if lines[-1] and columns(lines[-1] + end) <= whole:
            lines[-1] += end
        lines.append(item)
    return lines


def _events_mode(game: Game, lines) -> int:
    for event in game.opening:
        emit(event)
    for number, line in commands(lines):
        emit({"event": "command", "line": line})
        said, events, quit_ = game.run(line)
        if said and said[0].startswith("×"):
            emit({"event": "refused", "line": number, "reason": said[0][2:]})
        for event in events:
            emit(event)
        if game.stop:
            emit({"event": "stopped", "line": number, "reason": game.stop})
            return EXIT_STOPPED
        if quit_:
            break
    return exit_status(game.journey)


def _result(journey: Journey) -> str:
    result = journey.result
    if result is None:
        return f"結果: 途中（{TURN} {journey.view()['turn']}）"
    if result["outcome"] == "won":
        return f"結果: クリア（{TURN} {result['turn']}、スコア {result['score']}）"
    return f"結果: {LOST}（{TURN} {result['turn']}、{LOSS_WORDS.get(result['reason'], result['reason'])}）"

