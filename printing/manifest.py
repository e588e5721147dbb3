"""印刷の控え — the manifest a print leaves beside its PDF, and the change list against it.

Every print writes ``<name>.manifest.json`` beside ``<name>.pdf``: the format's tag and
version, the date, the content's hash, and per card (in print order) its key, its title,
the digest of everything the card shows and the digests of its parts (title, kind, each
badge by label, each section by heading, flavour, mark, the number line's top). The next print reads it back and
says which cards were added, removed or changed — and for a changed card, which part —
so a playtester reprints only those (``compare``, ``change_list``).

A previous manifest is read as untrusted input (the file may be anything that has the
name): at most ``MAX_BYTES``, UTF-8, strict JSON (no NaN, no repeated key), our format's
tag, our version, then ``manifest.schema.json`` (JSON Schema 2020-12, beside this module so
an installed jibunki has it; schemas/ holds the generated table schemas only and is not
installed), then unique keys. What fails any check is never an error of the print: the
print is what the designer asked for, and the change list is its companion. So a bad,
old or newer manifest is read as *no previous print* with one Japanese warning line, and
every card is marked — a playtester who reprints everything loses nothing. The
one refusal is on writing: a file there that is not a jibunki manifest (another tool's,
the designer's own) is never replaced (``write_manifest``).
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from contract import disk
from contract.vocabulary import W

from .cards import Card, named

__all__ = ["FORMAT", "VERSION", "MAX_BYTES", "Changes", "CardChange", "ManifestError",
           "Previous", "beside", "build", "change_list", "compare", "digest", "dumps",
           "read_previous", "write_manifest"]

#: The format's tag and version: a manifest of another tag is not ours; of another
#: version, ours but unreadable here.
FORMAT = "jibunki-print-manifest"
VERSION = 1
#: A manifest is some 400 bytes a card: 16 MiB is some 40,000 cards.
MAX_BYTES = 16 << 20
#: Hex digits of a digest: 64 bits, enough to tell two versions of one card apart.
DIGEST_HEX = 16
SCHEMA_FILE = Path(__file__).with_name("manifest.schema.json")

#: The part names of a card, in the order a change line names them, and their words.
PART_WORDS = {"title": "タイトル", "kind": "種類（裏面）", "badges": "バッジ",
              "sections": "文", "flavour": "フレーバー", "mark": f"{W.variable.year}の目盛り",
              "top": f"数直線の端（{W.variable.lifespan_cap}）"}
#: A section without heading, in a change line.
NO_HEADING = "本文"
#: Why a JSON Schema check failed, by its keyword (jsonschema's own words are English).
SCHEMA_WORDS = {
    "required": "項目がありません",
    "type": "型が違います",
    "const": "値が違います",
    "pattern": "形が違います",
    "additionalProperties": "知らない項目があります",
    "maxItems": "多すぎます",
    "minItems": "足りません",
    "maxLength": "長すぎます",
    "minLength": "短すぎます（空です）",
    "items": "余分な要素があります",
    "prefixItems": "要素の形が違います",
    "format": "ありえない日付です",  # the one format the schema names: "date"
}
#: The tail of every warning: what the print does instead.
AS_FIRST = "全カードに「変更」の印を付けます（刷り直せば何も失いません）。"
#: What becomes of a file in the manifest's place that is not one: it is never replaced, so
#: the print stops.
LEFT_ALONE = "上書きしません。ファイルを移すか、別の名前で印刷してください"


class ManifestError(Exception):
    """A manifest that cannot be written; ``str()`` is one Japanese line."""


@dataclass(frozen=True)
class Previous:
    """What a print finds beside its PDF (前回の控え): the checked manifest, or None;
    ``warning``: one Japanese line when a file was there but not read ("" otherwise);
    ``ours``: False only when a file there is not a jibunki manifest (never replaced)."""

    manifest: dict | None
    warning: str = ""
    ours: bool = True


@dataclass(frozen=True)
class CardChange:
    """One changed card: its key, its title now, and what changed in words
    (「過去面 の文が変わりました」 …), in PART_WORDS order."""

    key: str
    title: str
    what: tuple[str, ...]


@dataclass(frozen=True)
class Changes:
    """The cards of this print against the previous one (変更一覧): added and removed
    (key, title) pairs and changed cards, in print order (removed: the previous print's
    order); ``since``: the previous print's date, None when there was none."""

    added: tuple[tuple[str, str], ...]
    removed: tuple[tuple[str, str], ...]
    changed: tuple[CardChange, ...]
    since: str | None
    #: True when a previous print's manifest was there but could not be read (AS_FIRST).
    unread: bool = False


# ------------------------------------------------------------------- digests


def _hash(value) -> str:
    """The short sha256 of ``value``'s canonical JSON (keys sorted, no spaces, UTF-8)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_HEX]


#: The fields a ``Card`` gained after the manifest's first version (how a card looks: its
#: tint, its corner, its card icons). One left at its default is not in the digest, so a
#: card that does not use it keeps the digest an earlier print wrote, and a print after
#: the upgrade does not call every card changed.
LATER_FIELDS = ("tint", "corner", "card_icons")
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Card) if f.name in LATER_FIELDS}


#: What a change list says of a card whose words are the same but whose look is not.
LOOK_CHANGED = "文は同じで、見た目（色・隅の印・カードアイコン・数直線の端）が変わりました"


def digest(card: Card) -> str:
    """The digest of everything ``card`` holds: its fields as canonical JSON → sha256
    (but a ``LATER_FIELDS`` one at its default)."""
    fields = dataclasses.asdict(card)
    for name, default in _DEFAULTS.items():
        if fields[name] == default:
            del fields[name]
    return _hash(fields)


def parts(card: Card) -> dict:
    """The digest of each part a playtester can see change: badges by label and sections
    by heading as [name, digest] pairs, in the card's order."""
    found = {"kind": _hash(card.kind), "title": _hash(card.title),
             "badges": [[label, _hash(value)] for label, value in card.badges],
             "sections": [[s.heading, _hash(list(s.lines))] for s in card.sections],
             "flavour": _hash(card.flavour), "mark": _hash(card.mark)}
    if card.mark_top is not None:  # a part since the manifests of 2026-12-07: optional
        found["top"] = _hash(card.mark_top)
    return found


def build(cards, *, date: str, content_hash: str, pages: list[int] | None = None) -> dict:
    """The manifest of a print of ``cards`` (in print order) on ``date`` (YYYY-MM-DD) of
    the content whose hash is ``content_hash`` (lowercase hex); ``pages``: each card's
    page of the PDF (1-based: where the catalog links a card to its printable face)."""
    entries = [{"key": c.key, "title": c.title, "digest": digest(c), "parts": parts(c)}
               for c in cards]
    for entry, page in zip(entries, pages or ()):
        entry["page"] = page
    return {"format": FORMAT, "version": VERSION, "date": str(date),
            "content_hash": content_hash, "cards": entries}


def dumps(manifest: dict) -> str:
    """The manifest's text as written: JSON, one card a line, the same bytes for the
    same print."""
    head = {k: v for k, v in manifest.items() if k != "cards"}
    lines = [json.dumps(card, ensure_ascii=False, separators=(",", ":"))
             for card in manifest["cards"]]
    body = ",\n  ".join(lines)
    text = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    return f'{text},\n "cards": [\n  {body}\n ]\n}}\n' if lines else \
        f'{text},\n "cards": []\n}}\n'


def beside(pdf) -> Path:
    """Where the manifest of the PDF ``pdf`` lives: ``sheets.pdf`` → ``sheets.manifest.json``."""
    pdf = Path(pdf)
    return pdf.with_name(pdf.stem + ".manifest.json")


# ------------------------------------------------------------------- reading


def _inline(node, defs: dict):
    """``node`` with every local ``$ref`` replaced by its definition: the schema checks
    the same, and some 40 % faster (resolving a $ref costs more than the check it leads
    to, once a card and part)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline(defs[node["$ref"].removeprefix("#/$defs/")], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


@cache
def _validator():
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    # the schema's "format": "date" checked (2026-99-99 has the pattern, and is no date)
    return Draft202012Validator(_inline(schema, schema.get("$defs", {})),
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def _no_constant(name: str):
    raise ValueError(f"JSON にない値 {name} があります")


def _no_repeats(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("同じ名前の項目が二つあります")
    return dict(pairs)


def _schema_problem(err) -> str:
    """One schema violation in words: where (cards.3.digest) and why."""
    where = ".".join(str(p) for p in err.absolute_path) or "全体"
    why = SCHEMA_WORDS.get(err.validator, "形が違います")
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [name for name in err.validator_value if name not in err.instance]
        why = f"項目 {'・'.join(missing)} がありません"
    elif err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = set(err.schema.get("properties", {}))
        extra = sorted(str(k) for k in err.instance if k not in known)[:3]
        why = f"知らない項目 {'・'.join(extra)} があります"
    return f"{where}: {why}"


def _check(data) -> str:
    """Why ``data`` (parsed JSON) is no manifest this version reads, or ""."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "jibunki の印刷の控えではありません"
    version = data.get("version")
    if type(version) is not int:
        return "控えの版が読めません"
    if version < VERSION:
        return f"古い形式の控えです（版 {version}。この jibunki が読むのは版 {VERSION}）"
    if version > VERSION:
        return f"新しい jibunki の控えです（版 {version}。この jibunki が読むのは版 {VERSION} まで）"
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.path])
    if errors:
        return f"控えの形が正しくありません（{_schema_problem(errors[0])}）"
    seen: set[str] = set()
    for card in data["cards"]:
        if card["key"] in seen:
            return f"控えに同じキー {card['key']} のカードが二枚あります"
        seen.add(card["key"])
    return ""


def read_previous(path) -> Previous:
    """The manifest at ``path`` from the last print, checked (see the module's docstring):
    none there → ``Previous(None)``; anything wrong → ``Previous(None, warning)``."""
    def fail(why: str, ours: bool = True) -> Previous:
        then = AS_FIRST if ours else f"このファイルは{LEFT_ALONE}。"
        return Previous(None, f"前回の印刷の控え {path} を読めません: {why}。{then}", ours)

    try:
        raw = disk.read_bounded(path, MAX_BYTES)
    except disk.DiskError as exc:
        if exc.errno == errno.ENOENT:
            return Previous(None)
        # a folder, a device or a file too large to be one of ours is never replaced
        return fail(exc.strerror, ours=not isinstance(exc, (disk.NotRegular, disk.TooLarge)))
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant,
                          object_pairs_hook=_no_repeats)
    except UnicodeDecodeError:
        return fail("UTF-8 のテキストではありません", ours=False)
    except json.JSONDecodeError as exc:
        return fail(f"JSON として読めません（{exc.lineno} 行目）", ours=False)
    except ValueError as exc:  # a NaN, a repeated key (our own words)
        return fail(str(exc), ours=False)
    except RecursionError:
        return fail("入れ子が深すぎます", ours=False)
    why = _check(data)
    if why:
        return fail(why, ours=isinstance(data, dict) and data.get("format") == FORMAT)
    return Previous(data)


def write_manifest(path, manifest: dict, *, inside, previous: Previous) -> None:
    """Write ``manifest`` at ``path`` (inside the folder ``inside``), atomically, over the
    previous print's manifest — but never over a file that is not one
    (``previous.ours`` False): ManifestError then, in Japanese."""
    if not previous.ours:
        raise ManifestError(f"{path} は jibunki の印刷の控えではないので{LEFT_ALONE}")
    try:
        disk.write(path, dumps(manifest), inside=inside, replace=True)
    except disk.DiskError as exc:
        raise ManifestError(f"印刷の控え {path} を書けません: {exc.strerror}") from None


# ------------------------------------------------------------------- changes


def _named(pairs) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in pairs:
        found.setdefault(name, []).append(value)
    return found


def _named_changes(before, after, label, part: str) -> tuple[list[str], list[str], list[str]]:
    """Changed, added and removed names of a list of [name, digest] pairs, in order (the
    same pairs in another order: the ``part``'s order changed)."""
    old, new = _named(before), _named(after)
    changed = [label(n) for n in new if n in old and new[n] != old[n]]
    added = [label(n) for n in new if n not in old]
    removed = [label(n) for n in old if n not in new]
    if not (changed or added or removed) and [list(p) for p in before] != \
            [list(p) for p in after]:
        changed = [f"{PART_WORDS[part]}の順番"]
    return changed, added, removed


def _section_label(heading: str) -> str:
    return f"{heading or NO_HEADING} の文"


def _badge_label(label: str) -> str:
    return f"バッジ「{label}」"


def _what(old: dict, card: Card) -> tuple[str, ...]:
    """What changed on ``card`` against its previous entry, in words."""
    now = parts(card)
    was = old["parts"]
    changed, added, removed = [], [], []
    if now["title"] != was["title"]:
        changed.append(f"タイトル（前回「{old['title']}」）")
    if now["kind"] != was["kind"]:
        changed.append(PART_WORDS["kind"])
    for name, label in (("badges", _badge_label), ("sections", _section_label)):
        c, a, r = _named_changes(was[name], now[name], label, name)
        changed += c
        added += a
        removed += r
    for name in ("flavour", "mark"):
        if now[name] != was[name]:
            changed.append(PART_WORDS[name])
    if "top" in was and now.get("top") != was["top"]:  # an older manifest kept no top
        changed.append(PART_WORDS["top"])
    what = []
    if changed:
        what.append(f"{'・'.join(changed)}が変わりました")
    if added:
        what.append(f"{'・'.join(added)}が加わりました")
    if removed:
        what.append(f"{'・'.join(removed)}がなくなりました")
    # No part a manifest keeps changed: what did is how the card looks (the parts are
    # its words and its 銘; the look is in the digest alone).
    return tuple(what) or (LOOK_CHANGED,)


def compare(previous: dict | None, cards, unread: bool = False) -> Changes:
    """This print's ``cards`` against the ``previous`` manifest (checked, as
    ``read_previous`` gives it; None: no previous print, or one whose manifest was
    ``unread`` — every card is added). A card is changed when its digest differs; the
    words name the parts whose digests differ."""
    if previous is None:
        return Changes(tuple((c.key, c.title) for c in cards), (), (), None, unread)
    old = {entry["key"]: entry for entry in previous["cards"]}
    keys = {c.key for c in cards}
    added, changed = [], []
    for card in cards:
        entry = old.get(card.key)
        if entry is None:
            added.append((card.key, card.title))
        elif entry["digest"] != digest(card):
            changed.append(CardChange(card.key, card.title, _what(entry, card)))
    removed = tuple((e["key"], e["title"]) for e in previous["cards"] if e["key"] not in keys)
    return Changes(tuple(added), removed, tuple(changed), previous["date"])


def change_list(changes: Changes) -> list[str]:
    """The change list (変更一覧) as lines, for one page: the counts, then one line a
    card — changed, added, removed."""
    counts = (f"変更 {len(changes.changed)} 枚・追加 {len(changes.added)} 枚・"
              f"削除 {len(changes.removed)} 枚")
    head = (f"前回の印刷（{changes.since}）から: {counts}" if changes.since is not None
            else f"前回の印刷の控えを読めないので、すべて追加として: {counts}" if changes.unread
            else f"前回の印刷はありません: {counts}")
    lines = [head]
    lines += [f"{c.title}（{named(c.key)}）: {'。'.join(c.what)}" for c in changes.changed]
    added = "控えを読めないので印を付けました" if changes.unread else "新しく加わりました"
    lines += [f"{title}（{named(key)}）: {added}" for key, title in changes.added]
    lines += [f"{title}（{named(key)}）: なくなりました" for key, title in changes.removed]
    return lines
