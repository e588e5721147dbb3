"""Print and play: ``print``, a PDF of the pages' and enemies' cards on sheets to cut."""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import click

from contract import vocabulary as vocab
from contract.vocabulary import W

from commands.common import (CONTENT_FOLDER, DEFAULT_CONTENT, DEFAULT_GENERATED, EXIT_CONTENT,
                             FiniteFloatRange, OutFolder, use_color, why)

#: The print's file name: the catalog beside generated/print links its cards into it.
DEFAULT_NAME = "自分紀.pdf"
DEFAULT_PDF = DEFAULT_GENERATED / "print" / DEFAULT_NAME
DEFAULT_JOURNEY_PDF = DEFAULT_GENERATED / "print" / "草案17.pdf"


def _date(value: str | None) -> str:
    """The date stamped on the cards: ``--date``, else SOURCE_DATE_EPOCH's, else today's
    (UTC), as YYYY-MM-DD."""
    import datetime
    import os
    import re

    if value is not None:
        import unicodedata

        # ２０２６－０１－０１ typed with a Japanese keyboard is the same date
        value = unicodedata.normalize("NFKC", value).replace("\u2212", "-")
        try:
            # as the help says it: fromisoformat alone also takes 20260101 and 2026-W01-1
            if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
                raise click.BadParameter(f"{value}: 日付は YYYY-MM-DD で書いてください",
                                         param_hint="--date")
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:  # written so, but no such day (2026-13-01, 2026-02-30)
            raise click.BadParameter(f"{value}: その日はありません（年は 0001〜9999、月は 01〜12、"
                                     "日はその月にある日まで）", param_hint="--date") from None
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            seconds = int(epoch)
        except ValueError:
            raise click.UsageError(f"SOURCE_DATE_EPOCH={epoch}: 秒数（整数）ではありません") \
                from None
        try:
            moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise click.UsageError(f"SOURCE_DATE_EPOCH={epoch}: 秒数が日付にできる範囲の外です"
                                   "（西暦 1〜9999 年）") from None
        return moment.date().isoformat()
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def content_digest(tables: dict) -> str:
    """The version stamped on every card: the short sha256 of the compiled tables less
    where each thing was written (``contract.tables.placeless``) — so that the same content
    prints the same 版 in a folder of any name (the tables' source paths begin with the
    content folder's) and a page moved within its file keeps it."""
    import hashlib
    from contract.tables import placeless
    from sim.store import canonical  # the JSON the lab's keys hash tables by

    return hashlib.sha256(canonical(placeless(tables))).hexdigest()[:8]


@click.command("print")
@click.option("--content", type=CONTENT_FOLDER,
              default=DEFAULT_CONTENT, show_default=True, help="コンテンツのフォルダ。")
@click.option("--journey", is_flag=True,
              help="草案17 の札（イベント 30・ロケーション 7・フラグ 5・アイテム 6・早見表）を"
                   "印刷します（既定の出力は generated/print/草案17.pdf）。")
@click.option("--setup", "setup", default=None, metavar="旅の準備",
              help="--journey で刷る旅の準備（id か名前。既定: 草案）。その準備のアイテムと"
                   "早見表を刷ります（既定の出力は generated/print/草案17-<準備の id>.pdf。名前で選んでも同じ"
                   "ファイルです）。")
@click.option("--out", type=click.Path(), default=None,
              help="書き出す PDF（フォルダがなければ作ります。/ で終わるか、あるフォルダを"
                   "指せば、そのフォルダの中に既定の名前で書きます。既定: generated/print/自分紀.pdf）。"
                   "そばに印刷の控え（.manifest.json）を置き、次の印刷で変わった札に「変更」の"
                   "印を付け、変更一覧のシートを加えます。")
@click.option("--paper", type=click.Choice(["A4", "Letter"]), default="A4", show_default=True,
              help="用紙の大きさ（縦置き、1 枚に 3×3 枚の札）。")
@click.option("--crop-mark", "crop", type=FiniteFloatRange(0, 20), default=5.0, metavar="mm",
              show_default=True, help="トンボ（裁ち線の印）の長さ（mm、余白に入るだけ）。長いトンボの"
                                      "余白は札の間の塗り足しを減らします（そう告げます）。")
@click.option("--no-backs", is_flag=True,
              help="裏のシートを入れません（既定では表の各シートの次に、長辺とじの両面印刷で"
                   "表と重なるよう左右を反転した裏面のシートが入ります）。")
@click.option("--date", "date", default=None, metavar="YYYY-MM-DD",
              help="札に刷る日付（既定: 環境変数 SOURCE_DATE_EPOCH の日付、なければ今日）。")
@click.option("--watch", is_flag=True,
              help="保存のたびに印刷し直します（jibunki watch と同じ見張り。Ctrl-C で終わります）。"
                   "「変更」の印は、見張りを始める前の印刷（なければ見張りの最初の印刷）からの変更に"
                   "付きます。")
@click.option("--tts", "tts", type=OutFolder(), default=None,
              metavar="フォルダ",
              help="PDF に加えて、同じ札を Tabletop Simulator のデッキとしてこのフォルダに書きます"
                   "（なければ作ります）。札の種類ごとに、表の画像シート（1 枚に 10×7 まで）、"
                   "裏の画像と、デッキとして読み込む保存オブジェクトの JSON。")
def print_cmd(content: Path, journey: bool, setup: str | None, out: str | None, paper: str,
              crop: float, no_backs: bool, date: str | None, watch: bool,
              tts: Path | None) -> None:
    """ページと敵の札を、切って遊べる印刷用の PDF にします。

    札はポーカーサイズ（63×88 mm）で、トンボ付き。塗り足しは外周 3 mm、札の間は用紙
    に入るだけです（既定のトンボで A4 は左右 1 mm・上下 3 mm、Letter は左右 2.4 mm・
    上下 0 mm: 0 mm は隣の札と裁ち線を共有します。刷るたびに告げます）。文はカタログと
    同じで、収まらなければ文字を小さくします。どの札にもコンテンツの版（表のハッシュ）と日付が
    入ります。前の印刷の控えがあれば、変わった札に「変更」の印を付け、変更一覧を加えます。

    終了コード:
    0 書けた
    1 コンテンツのエラーか書けなかった
    2 使い方の誤り"""
    if setup is not None and not journey:
        raise click.UsageError("--setup は --journey と使います（旅の準備を選んで刷ります）")
    if setup is not None and (not setup.strip() or any(c in setup for c in "/\\\0")
                              or setup.startswith(".")):
        raise click.BadParameter(f"{setup!r}: 旅の準備の id か名前を書いてください", param_hint="--setup")
    if out is not None and not out.strip():  # as OutFolder refuses --tts "" and catalog --out ""
        raise click.BadParameter("空のパスです。書き出す PDF を指定してください", param_hint="--out")
    default = DEFAULT_JOURNEY_PDF if journey else DEFAULT_PDF
    # A path ending in / names a folder (Path would drop the slash and write a file there),
    # and so does a folder that is there: the second print into it, as the first.
    named = out is None or out.endswith(("/", os.sep)) or Path(out).is_dir()
    out = default if out is None else Path(out) / default.name if named else Path(out)
    job = _Print(content, journey, out, paper, crop, not no_backs, _date(date), tts, setup,
                 by_setup=named and setup is not None, since={} if watch else None)
    if not watch:
        job.run()
        return
    from commands.watch import watch_loop

    def report() -> None:
        import time

        click.echo(f"── {time.strftime('%H:%M:%S')} {content}/ ──")
        try:
            # the day of this print, unless --date fixed it: a watch runs past midnight
            replace(job, date=_date(date)).run()
        except click.ClickException as exc:
            exc.show()
        except SystemExit:
            pass  # the content's errors are printed: the next save tries again
        click.echo("（保存するたびに印刷し直します。Ctrl-C で終わります）")

    watch_loop(content, 150, report)


#: The card keys whose item's source the tables keep: key prefix → the table it is in.
_LOCATED = {"page": "pages", "enemy": "enemies"}


def _item_span(card, compiled, content: Path, char: str | None = None):
    """Where the item of ``card`` is written (a dsl Span, its path as the compilation shows
    it): at ``char``'s first printed place in it when given and found, else on its
    フレーバー line when it has one, else on its first line; None for a card of no item (the
    journey's summary)."""
    from dsl.diagnostics import Span
    from dsl.parser import before_comment

    from contract.vocabulary import KEYWORDS

    found = _item_source(card, compiled, content)
    if found is None:
        return None
    path, first, lines = found
    for at, text in enumerate(lines if char is not None else ()):
        if char in before_comment(text):  # a comment is not printed: the card's words are
            col = text.index(char) + 1
            return Span(path, first + at, col, first + at, col + 1)
    flavour = KEYWORDS["flavor"][0]
    at = next((i for i, line in enumerate(lines) if line.lstrip().startswith(flavour)), 0)
    text = lines[at]
    col = len(text) - len(text.lstrip()) + 1
    # the line's first word (フレーバー, or the item's keyword): a caret under the whole of
    # a long flavour was a row of hundreds, and showed the whole line
    word = text.lstrip().split(None, 1)[0] if text.strip() else ""
    return Span(path, first + at, col, first + at, col + max(1, len(word)))


def _item_source(card, compiled, content: Path) -> tuple[str, int, list[str]] | None:
    """(the path as messages show it, the first line, the lines) of the item ``card`` was
    made from: a page's or an enemy's as its table keeps it, a journey card's (its key is
    the journey item's kind and id) read from the journey's files; None for a card of no
    item."""
    from compiler.read import display_path

    kind, _, ident = card.key.partition("/")
    table = _LOCATED.get(kind)
    if table is None:
        return _journey_source(kind, ident, compiled)
    source = compiled.tables.get(table, {}).get(table, {}).get(ident, {}).get("source")
    if not source:
        return None
    # A table's source path is relative to the content folder's parent (compiler.build);
    # the compilation's sources are keyed by the path as messages show it.
    path = display_path(content.resolve().parent / source["path"])
    return path, source["line"], source["text"].split("\n")


def _journey_source(kind: str, ident: str, compiled) -> tuple[str, int, list[str]] | None:
    """The journey item of ``kind`` and ``ident`` in the compilation's journey files (the
    journey's table keeps no source)."""
    from dsl.ast import JourneyItem
    from dsl.parser import parse

    for path, text in compiled.sources.items():
        if not path.endswith(".journey"):
            continue
        for item in parse(text, path).file.items:
            if isinstance(item, JourneyItem) and (item.kind, item.id.text) == (kind, ident):
                lines = text.split("\n")[item.span.line - 1:item.span.end_line]
                return path, item.span.line, lines
    return None


#: How every PDF begins: a file at --out that does not is someone's other work.
PDF_MAGIC = b"%PDF-"


def paper_said(paper: str, sides: int, pages: int, backs: bool) -> str:
    """The paper a print takes, in sheets a designer loads (ページ is the game's card): the
    ``sides`` faces and backs print on (two a sheet with backs), the 変更一覧 after them
    (``pages`` − ``sides`` sides: printed on both sides too with backs, the PDF being
    printed through), and the PDF's own page count."""
    sheets = sides // 2 if backs else sides
    extra = pages - sides
    listed = f"と変更一覧 {-(-extra // 2) if backs else extra} 枚" if extra > 0 else ""
    how = "両面" if backs else "片面"
    return f"{paper} 用紙 {sheets} 枚（{how}）{listed}（PDF で {pages} ページ）"


def _mm(value: float) -> str:
    """A length as the print says it: to 0.1 mm, rounded down — a bleed or a mark is never
    said longer than it is (Letter's 2.475 mm is 2.4, not 2.5)."""
    return f"{tenths(value):g} mm"


def tenths(value: float) -> float:
    """``value`` rounded down to 0.1 (a hair of float error aside: 4.19999… is 4.2)."""
    import math

    return math.floor(value * 10 + 1e-6) / 10


def layout_said(paper: str, crop: float) -> list[str]:
    """What the sheets give where it is less than asked (printing/layout.py gives the
    paper's room in order: the cards, the outer bleed, the crop marks' margins, then the
    gutters): the bleed between the cards when it is less than the outer one, the crop
    marks when the margins cut them short, and the gutters a --crop-mark longer than the
    default narrowed, with the default's — so that no one sends the sheets to be cut
    trusting a bleed they do not have."""
    from printing.layout import PAPERS, Geometry

    asked = Geometry(paper=PAPERS[paper], crop=crop)
    usual = Geometry(paper=PAPERS[paper])
    inner, marks = asked.inner_bleeds(), asked.mark_lengths()
    lines = []
    if min(inner) < asked.bleed - 1e-9:
        shared = "。0 mm の札の間は隣の札と裁ち線を共有し、一度の裁ちで両方を切ります" \
            if min(inner) < 1e-9 else ""
        lines.append(f"塗り足し: 外周 {_mm(asked.bleed)}、札の間は左右 {_mm(inner[0])}・"
                     f"上下 {_mm(inner[1])}（用紙に入るだけ{shared}）。")
    if crop > 0 and min(marks) < crop - 1e-9:
        lines.append(f"トンボ: {_mm(crop)} のうち余白に入るだけ、左右の余白に {_mm(marks[0])}・"
                     f"上下の余白に {_mm(marks[1])}。")
    before = usual.inner_bleeds()
    if any(a < u - 1e-9 for a, u in zip(inner, before)):
        lines.append(f"トンボ {_mm(crop)} の余白のぶん、札の間の塗り足しが減りました（既定の "
                     f"--crop-mark {usual.crop:g} なら左右 {_mm(before[0])}・"
                     f"上下 {_mm(before[1])}）。")
    return lines


def _refuse_foreign(out: Path) -> None:
    """A PDF is written only where a PDF (an earlier print) is, or nothing: a page file, a
    text or any other file named by mistake is not overwritten (it was, silently)."""
    from contract.kinds import CONTENT_SUFFIXES

    # a name that is no PDF's is the option written wrong: a usage error (exit 2), as
    # catalog --out refuses a file
    if out.name.endswith(CONTENT_SUFFIXES):
        raise click.BadParameter(
            f"{out} はコンテンツのファイルの名前です。PDF は書きません（.pdf の名前を指定してください）",
            param_hint="--out")
    # " .pdf": no name to see; ".pdf": a hidden file with no suffix at all
    if out.name.lower() == ".pdf" or out.suffix.lower() == ".pdf" and not out.stem.strip():
        raise click.BadParameter(f"「{out.name}」は名前のない .pdf です。名前を付けてください"
                                 "（例: 自分紀.pdf）", param_hint="--out")
    if out.suffix.lower() != ".pdf":  # x.txt got a PDF, and its manifest beside it
        raise click.BadParameter(f"{out} は .pdf の名前ではありません。PDF は .pdf の名前に書きます"
                                 f"（例: {out.with_suffix('.pdf').name}）", param_hint="--out")
    try:
        with out.open("rb") as existing:
            head = existing.read(len(PDF_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise click.ClickException(f"{out} に PDF を書けません: {why(exc)}") from None
    if head != PDF_MAGIC:
        raise click.ClickException(
            f"{out} は PDF ではないファイルです。上書きしません（別の --out を指定するか、"
            "そのファイルを消してから印刷してください）")


def _say_overflow(exc, compiled, content: Path) -> None:
    """Each card whose words do not fit (sheets.CardOverflow): an E074 at its item, with the
    source line, when the item's place is known; else one line naming the card."""
    from compiler.codes import E074

    for card in exc.cards:
        hint = OVERFLOW_HINTS.get(card.key.partition("/")[0])
        _say(E074, exc.words(card), _item_span(card, compiled, content), compiled,
             "文を短くしてください。", hint)


#: What to shorten on a card that does not fit, by the kind of item it prints (its key's
#: first part); a page's is E074's own (its faces and フレーバー). An enemy has no 面: its
#: card is mostly its 予兆 and the turns they give.
OVERFLOW_HINTS = {
    "enemy": f"{W.intent.attack}などの予兆・エスカレーション・特性を減らすか、名前やフレーバーを"
             "短くしてください（印刷は文字を最小の大きさまで小さくして収めます）",
}


#: More kinds of character than this missing from every font: the machine lacks a font of
#: the script, said once (FONTLESS_SHOWN of them named) instead of each at its card.
FONTLESS_AT, FONTLESS_SHOWN = 20, 10


def _say_unknown(cards, unknown: dict, compiled, content: Path) -> None:
    """Each character a card prints as a box (sheets.Printed.unknown): a W011 at its first
    place in the card's item, or one line naming the card."""
    from compiler.codes import W011
    from printing.cards import named

    missing = sorted({char for chars in unknown.values() for char in chars})
    if len(missing) > FONTLESS_AT:
        # a machine without a Japanese font: one line that says so, not a W011 for every
        # character of every card (thousands)
        shown = "、".join(missing[:FONTLESS_SHOWN])
        _say(W011, f"{len(missing)} 種の字（{shown} …）が、この機械のどのフォントにもありません"
                   f"（札 {len(unknown)} 枚）", None, compiled,
             "☒ で刷られます。日本語のフォントを入れてください（Debian・Ubuntu: apt-get install "
             "fonts-noto-cjk）")
        return
    for index, chars in unknown.items():
        card = cards[index]
        for char in chars:
            words = (f"札「{card.title}」（{named(card.key)}）の「{char}」（U+{ord(char):04X}）は、"
                     "この機械のどのフォントにもない字です")
            _say(W011, words, _item_span(card, compiled, content, char), compiled,
                 "☒ で刷られます。")


def _say(code, words: str, span, compiled, instead: str, hint: str | None = None) -> None:
    """One finding of the print: rendered as lint renders it, with the source line, when
    the item's place is known; else one line with the code (``instead`` ends it).
    ``hint``: the hint for this item, where the code's own does not fit it."""
    from dsl.diagnostics import SEVERITY_WORDS, render

    if span is None:
        click.echo(f"{SEVERITY_WORDS[code.severity]}[{code.code}]: {words}。{instead}", err=True)
        return
    found = code.at(span, words) if hint is None else code.at(span, words, hint=hint)
    click.echo(render(found, compiled.sources, color=use_color(sys.stderr)), err=True)
    click.echo(err=True)


def setup_suffix(compiled, setup: str | None) -> str:
    """What names a print of the set-up ``setup`` (id or 名前; None: the default) apart:
    "-" and its id (-問題点), and "" for the draft's own set-up."""
    from commands.journey import one_setup
    from contract.tables import JourneyTable
    from journey.rules import default_setup

    if setup is None:
        return ""
    table, chosen = one_setup(compiled.tables.get("journey", {}), setup)
    if isinstance(table, JourneyTable) and chosen == default_setup(table):
        return ""
    return f"-{chosen}"


def setup_named(out: Path, compiled, setup: str) -> Path:
    """``out`` (the default name) named for the set-up ``setup`` names (id or 名前) by its
    id: 草案17-問題点.pdf, and the draft's own name for 草案."""
    return out.with_name(f"{out.stem}{setup_suffix(compiled, setup)}{out.suffix}")


@dataclass(frozen=True)
class _Print:
    """One print of a content's cards (the pages and enemies, or the draft 17 set) to
    ``out``, with its manifest beside it: what ``jibunki print`` does, once or at every
    save."""

    content: Path
    journey: bool
    out: Path
    paper: str
    crop: float
    backs: bool
    date: str
    tts: Path | None = None  # a folder for the Tabletop Simulator decks, too
    setup: str | None = None  # the journey's 旅の準備 (id or 名前; None: 草案)
    #: ``out`` is the default name, to be given the set-up's id (草案17-問題点.pdf): each
    #: set-up's print and manifest its own, one file however the set-up was named.
    by_setup: bool = False
    #: While watching (``--watch``): by the manifest's path, the print each PDF of the
    #: session is marked against — the one before the session, or the session's first.
    #: Every print marks what changed since then — the sheets on the table — not since
    #: the save before (the manifest on disk always describes the PDF beside it). None:
    #: one print.
    since: dict | None = None

    def cards(self, compiled) -> tuple[list, str]:
        """The cards to print and what they are, in words."""
        if self.journey:
            from commands.journey import journey_print_cards

            # the journey's table is one of the compiled tables: the content is checked once
            cards = journey_print_cards(compiled.tables.get("journey", {}), self.setup)
            kinds = Counter(card.back for card in cards)
            return cards, "、".join(f"{kind} {n}" for kind, n in kinds.items())
        from printing.page_cards import enemy_cards, page_cards
        from runtime.tables import from_dicts

        tables = from_dicts(compiled.tables)
        return (page_cards(tables) + enemy_cards(tables),
                f"ページ {len(tables.pages)}、敵 {len(tables.enemies)}")

    def run(self) -> None:
        from contract import disk

        compiled = _compiled(self.content)
        if self.journey and not (compiled.tables.get("journey") or {}).get("setups"):
            from commands.journey import with_set_ups

            with_set_ups(None, self.content, "刷る")  # said of this content folder, as journey says it
        out = self.out if not self.by_setup else setup_named(self.out, compiled, self.setup)
        made: list = []
        try:
            # the places that cannot take the PDF or the decks are said before the long
            # rendering, not after it (and not after the PDF is written, as a failure):
            # both, when both cannot
            problems = []
            try:
                made += disk.make_folder(out.parent)
                disk.check_target(out)
                disk.check_writable(out.parent)
            except OSError as exc:
                problems.append(f"{out} に PDF を書けません: {why(exc)}")
            if self.tts is not None:
                try:
                    made += disk.make_folder(self.tts)
                    disk.check_writable(self.tts)
                except OSError as exc:
                    problems.append(f"{self.tts} に TTS のデッキを書けません: {why(exc)}")
            if problems:
                for problem in problems[:-1]:
                    click.echo(f"エラー: {problem}", err=True)
                raise click.ClickException(problems[-1])
            _refuse_foreign(out)
            self.write(compiled, out)
        except BaseException:
            disk.remove_made(made)  # nothing written: no folder left behind either
            raise

    def write(self, compiled, out: Path) -> None:
        """Render the cards and write the PDF, its manifest and the TTS decks to ``out``."""
        from contract import disk
        from printing import manifest
        from printing.sheets import CardOverflow, PrintOptions, face_pages, render, sheet_count

        cards, what = self.cards(compiled)
        kept = manifest.beside(out)
        previous = manifest.read_previous(kept)
        if not previous.ours:  # said before the rendering: no PDF is written without its manifest
            raise click.ClickException(f"{previous.warning}PDF を書きませんでした。")
        if self.since is not None and kept in self.since:  # the print the session began from
            previous = self.since[kept]
        if previous.warning:
            click.echo(previous.warning, err=True)
        # the first print marks nothing: every card would be "new"; an unreadable manifest
        # marks every card (AS_FIRST: reprinting all loses nothing)
        changes = manifest.compare(previous.manifest, cards, unread=bool(previous.warning)) \
            if previous.manifest or previous.warning else None
        marked = frozenset() if changes is None else frozenset(
            [c.key for c in changes.changed] + [key for key, _ in changes.added])
        listed = () if changes is None or not (marked or changes.removed) else (
            "変更一覧\n\n" + "\n".join(manifest.change_list(changes)),)
        version = content_digest(compiled.tables)
        options = PrintOptions(paper=self.paper, crop=self.crop, backs=self.backs,
                               version=version, date=self.date, changed=marked, extra=listed,
                               **({"game": vocab.JOURNEY_TITLE} if self.journey else {}))
        try:
            pdf, unknown, pages = render(cards, options)
        except CardOverflow as exc:
            _say_overflow(exc, compiled, self.content)
            click.echo("PDF を書きませんでした。", err=True)
            sys.exit(EXIT_CONTENT)
        _say_unknown(cards, unknown, compiled, self.content)
        record = manifest.build(cards, date=self.date, content_hash=version,
                                pages=face_pages(len(cards), options))
        try:
            if previous.ours:  # the PDF and its manifest as one set: never one without the other
                disk.write_set(out.parent, {out.name: pdf, kept.name: manifest.dumps(record)},
                               inside=out.parent)
            else:
                disk.write(out, pdf, inside=out.parent, replace=True)
        except OSError as exc:
            raise click.ClickException(f"{out} に PDF を書けません: {why(exc)}") from None
        if not previous.ours:  # a file of another's in the manifest's place: left alone
            try:
                manifest.write_manifest(kept, record, inside=out.parent, previous=previous)
            except manifest.ManifestError as exc:
                raise click.ClickException(f"印刷用 PDF {out} は書きましたが、{exc}。") from None
        if self.since is not None and kept not in self.since:
            # the session's first print is the one to mark against, or the one it began
            # from when there was one (a manifest it could not read: this print)
            self.since[kept] = previous if previous.manifest else manifest.Previous(record)
        sheets = sheet_count(len(cards), options)
        click.echo(f"印刷用 PDF: {out}")
        click.echo(f"札 {len(cards)} 枚（{what}）、{paper_said(self.paper, sheets, pages, options.backs)}"
                   + f"、版 {version}、日付 {self.date}。")
        for line in layout_said(self.paper, self.crop):
            click.echo(line)
        if changes is not None:
            click.echo(manifest.change_list(changes)[0]
                       + ("（変わった札に「変更」の印、最後のシートに変更一覧）" if listed else ""))
        self.link_catalog(compiled)
        if self.tts is not None:
            from commands.print_tts import print_tts

            # the cards as printed, without the marks of this print's changes
            # a set-up's decks named apart, as its PDF is: 問題点's items are not 草案's
            deck = f"draft17{setup_suffix(compiled, self.setup)}" if self.journey else "jibunki"
            print_tts(self.tts, cards, replace(options, changed=frozenset(), extra=()), deck)

    def link_catalog(self, compiled) -> None:
        """The catalog beside the print (generated/catalog for generated/print/自分紀.pdf),
        when there is one, rendered again so each card links to its printable face."""
        from commands.outputs import neighbour

        catalog = neighbour(self.out.parent, "print", "catalog", rendered=True)
        if self.journey or self.out.name != DEFAULT_NAME or catalog is None:
            return
        from commands.compile import write_catalog
        from runtime.tables import from_dicts

        try:
            write_catalog(from_dicts(compiled.tables), compiled, catalog)
        except OSError as exc:
            raise click.ClickException(f"{catalog} のカタログを書き直せません: {why(exc)}") from None
        click.echo(f"カタログ {catalog / 'index.html'} の札から印刷用の札へリンクしました。")


def _compiled(content: Path):
    from commands.checked import compiled_content

    return compiled_content(content, refusal="コンテンツにエラーがあるので PDF を書きませんでした。")
