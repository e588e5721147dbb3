"""診断コードの記述子 — the descriptor every diagnostic code is, and the codes of syntax and
files that the parser reports (E000–E005), and of a file over a size bound (E048, dsl.size).

The compiler defines the rest of the codes (``compiler/codes.py``) in the same registry,
so that each code is defined once, with its severity, title and templates, whichever
layer reports it. A pass reports through the descriptor, never a bare code string::

    E002.at(span, f"ここでは使えない文字「{shown}」です", hint=…)
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import ERROR, WARNING, Diagnostic, Note, Span

__all__ = ["Code", "CODES", "define", "ERROR", "WARNING"]


@dataclass(frozen=True, slots=True)
class Code:
    """One diagnostic code: its severity, its title, and optionally the templates of its
    message and hint (``str.format`` fields, filled from the keywords of ``at``)."""

    code: str
    severity: str
    title: str
    message: str = ""
    hint: str = ""

    def at(self, span: Span, message: str | None = None, *, hint: str | None = None,
           notes: "list[Note] | tuple[Note, ...] | None" = None,
           replacements: "tuple[str, ...] | list[str]" = (), **fields) -> Diagnostic:
        """The diagnostic of this code at ``span``.

        ``message`` and ``hint``, when given, are used as written; otherwise the code's
        templates are filled from ``fields``. A missing hint points at the explanation.
        ``replacements``: what may be written instead of the span (Diagnostic)."""
        if message is None:
            if not self.message:
                raise TypeError(f"{self.code} has no message template: pass the message")
            message = self.message.format(**fields)
        if hint is None:
            hint = self.hint.format(**fields)
        return Diagnostic(self.code, self.severity, message, span, hint, tuple(notes or ()),
                          tuple(replacements))


CODES: dict[str, Code] = {}


def define(code: str, severity: str, title: str, message: str = "", hint: str = "") -> Code:
    """Register a code's descriptor in CODES and return it; a code defined twice is a
    ValueError (each code is defined once, whichever layer reports it)."""
    if code in CODES:
        raise ValueError(f"{code} is defined twice")
    CODES[code] = descriptor = Code(code, severity, title, message, hint)
    return descriptor


# syntax and files (dsl/)
E000 = define("E000", ERROR, "内部エラー（jibunki のバグ）")
E001 = define("E001", ERROR, "ここに書けない語がある")
E002 = define("E002", ERROR, "使えない文字がある")
E003 = define("E003", ERROR, "定義が閉じていない")
E004 = define("E004", ERROR, "ファイルを読めない（UTF-8 ではない・バイナリ・大きすぎる）")
E005 = define("E005", ERROR, "括弧の入れ子が深すぎる")
#: A name is shown on one line (the battle's screen, --with and --page, the catalog, a card):
#: a line break splits it there, a tab has no fixed width. Noted by the transformer, which
#: sees the name decoded.
W016 = define("W016", WARNING, "名前に改行・タブがある",
              message="名前「{name}」に{what}があります",
              hint="名前は1行で書きます。\\n や \\t を消してください")
# a file over a bound of its size (dsl.size; compiler.limits reports the other bounds)
E048 = define("E048", ERROR, "上限を超えた大きさ",
              message="{what}が上限を超えています（{count:,}{unit}。上限は {bound:,}{unit}）")
