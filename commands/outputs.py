"""出力のフォルダ — the folders jibunki writes its HTML into, each kind told by the files it
leaves there, and which kinds sit side by side in the default layout (generated/catalog,
generated/sim, generated/print) so that one re-renders or reads the other.

A command never writes over another kind's folder (a lab report written into the catalog
would take its index.html), reads a neighbour only in that layout, and re-renders one only
in the working folder's generated/: nothing outside what the user named is written (paths
stay inside what the user named).
"""

from __future__ import annotations

import os
from pathlib import Path

from commands.common import DEFAULT_GENERATED

#: Each kind of output folder, the files that tell it (all present), and its name in the
#: default layout.
KINDS = {
    "catalog": (("vocabulary.html", "pool.csv"), "catalog", "カタログ"),
    "sim": (("report.json", "index.html"), "sim", "実験室の報告"),
    "journey": (("journey-report.json", "index.html"), "journey", "旅の報告"),
    # told by none of its files: never refused into, but never written over another
    "print": ((), "print", "印刷"),
}


#: The files each kind writes into its folder, replacing what stands there.
WRITES = {
    "catalog": ("vocabulary.html", "triggers.html", "pool.csv", "index.html"),
    "sim": ("report.json", "index.html"),
    "journey": ("journey-report.json", "index.html"),
    "print": (),
}


def kind_of(folder: Path) -> str | None:
    """Which kind of output ``folder`` holds (a key of KINDS), or None."""
    for kind, (marks, _, _) in KINDS.items():
        if marks and all((folder / mark).is_file() for mark in marks):
            return kind
    return None


def refuse_other_kind(folder: Path, kind: str, *, fixed: bool = False) -> str | None:
    """Why ``kind`` must not be written into ``folder`` (it holds another kind's output),
    in Japanese, or None. ``fixed``: the command names no other folder (build), so the
    way out is to move what stands there."""
    there = kind_of(folder)
    if there == kind:
        return None
    way_out = (f"{folder} を別の場所に移すか消してください" if fixed else
               f"別のフォルダを指定してください。既定は generated/{KINDS[kind][1]}")
    if there is not None:
        return f"{folder} には{KINDS[there][2]}があります。{KINDS[kind][2]}で上書きしません（{way_out}）"
    # a file of the designer's own where this kind writes one (notes as index.html): the
    # write would replace it without a word (a link, a FIFO or a folder there the write
    # itself refuses, naming what it is)
    foreign = [name for name in WRITES[kind]
               if os.path.isfile(folder / name) and not os.path.islink(folder / name)]
    if foreign:
        return (f"{folder} には jibunki の{KINDS[kind][2]}ではない {'・'.join(foreign)} があります。"
                f"上書きしません（{way_out}）")
    return None


def inside_content(folder: Path, content: Path) -> str | None:
    """Why an output must not be written into ``folder`` — it lies in the content folder
    ``content``, among the designer's own files — in Japanese, or None."""
    try:
        here, source = folder.resolve(), content.resolve()
    except (OSError, RuntimeError):  # a loop of links: the write names it
        return None
    if here == source or here.is_relative_to(source):
        return (f"{folder} はコンテンツのフォルダ {content} の中です。書き出すものはコンテンツの"
                "外に置きます（既定は generated/ の中）")
    return None


def neighbour(folder: Path, kind: str, other: str, *, rendered: bool = False) -> Path | None:
    """The ``other`` folder beside ``folder`` (written as ``kind``) in the default
    layout — generated/sim beside generated/catalog — when ``folder`` has its layout
    name and ``other`` is there as that kind; else None. ``rendered``: the neighbour is
    to be written, not only read — then only in the working folder's generated/, whatever
    lies beside a folder named elsewhere (another project's catalog) being outside what
    the user named."""
    if folder.name != KINDS[kind][1]:
        return None
    if rendered and folder.parent.resolve() != DEFAULT_GENERATED.resolve():
        return None
    beside = folder.parent / KINDS[other][1]
    return beside if kind_of(beside) == other else None
