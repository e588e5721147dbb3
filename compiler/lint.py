"""リント — check content files: every pass of the compiler (compiler.pipeline), no files.

``check`` reads the named files (and the context files, read only to resolve names), runs
the pipeline and returns the diagnostics of the named files with the checked model and,
when the content has no errors, its tables. Nothing here raises on content: a bad file
is a diagnostic. The examples (例) are played by the stage above (scenario/stage.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dsl.diagnostics import Diagnostic

from .pipeline import Compilation, Model, Source, run
from .read import (MAX_FILE_BYTES, MAX_LINE_CHARS, discover, display_path, prepare, read,
                   unparsed_text)
from .symbols import Symbols

__all__ = ["MAX_FILE_BYTES", "MAX_LINE_CHARS", "Result", "check", "check_text", "discover",
           "display_path", "prepare", "read", "result_of"]


@dataclass
class Result:
    """What a check found: the diagnostics of the named files, sorted, and what was built."""

    diagnostics: list[Diagnostic]
    sources: dict[str, str]  # path → text, for showing source lines
    files: int  # how many files were named
    model: Model = field(default_factory=Model)
    symbols: Symbols | None = None  # the AST of every item, by id
    tables: dict[str, dict] = field(default_factory=dict)  # literals (no errors, a balance)
    #: The whole run, for the stages above the compiler (scenario.stage).
    compilation: Compilation | None = None
    #: Filled by the examples stage (scenario.stage): scenario.run.Result of each example
    #: played; the errors (context files too) that stopped the examples of the named
    #: files from running (empty when all ran); how many examples the named files hold.
    examples: list = field(default_factory=list)
    examples_blocked: list = field(default_factory=list)
    examples_wanted: int = 0
    #: The errors (context files' too) that kept the interaction analysis (W006 …) from
    #: running over the whole content (Compilation.analysis_blocked): empty when it ran
    #: or was not asked for.
    analysis_blocked: list = field(default_factory=list)

    @property
    def errors(self) -> int:
        """How many of the diagnostics are errors (warnings not counted)."""
        return sum(d.is_error for d in self.diagnostics)

    def items_of(self, path: str, kind: type) -> list:
        """The items of type ``kind`` (an ``ast`` node class: pages, examples …) the file
        ``path`` holds as this check parsed it, in order; none when it was not parsed."""
        if self.compilation is None:
            return []
        return [item for source in self.compilation.sources
                if source.path == path and source.parsed is not None
                for item in source.parsed.file.items if isinstance(item, kind)]


def result_of(compilation: Compilation, texts: dict[str, str], named: int) -> Result:
    """The Result of a run of the pipeline."""
    return Result(compilation.shown(compilation.diagnostics), texts, named, compilation.model,
                  compilation.symbols, compilation.tables, compilation,
                  analysis_blocked=compilation.analysis_blocked)


def check(paths: list[Path], context: list[Path] = (), *, project: Path | None = None,
          fmt: str | None = None, analysis: bool = True) -> Result:
    """Check the content files under ``paths``; ``context`` files are read only to resolve
    names across files (their own diagnostics are not reported). ``project``: the content
    folder, when the run is the whole project — it must then hold a balance and the
    starting deck, and source records are relative to the folder above it. ``fmt``: also
    emit the files of that format (compile). ``analysis``: False leaves the interaction
    analysis out (its warnings with it: Compilation.analysis)."""
    diags: list[Diagnostic] = []
    named = discover(paths, diags)
    resolved = {n.resolve() for n in named}  # once: not once per context file
    extra = [p for p in discover(list(context)) if p.resolve() not in resolved]
    sources: list[Source] = []
    reported = {d.span.path for d in diags}  # unreadable folders: reported as named
    texts: dict[str, str] = {}  # for showing source lines, also of files not parsed
    for path, report in [(p, True) for p in named] + [(p, False) for p in extra]:
        shown = display_path(path)
        text, problems = read(path, shown)
        if report:
            diags.extend(problems)
            reported.add(shown)
        unparsed = unparsed_text(path, text) if problems else None
        sources.append(Source(shown, None if problems else text, report=report,
                              unparsed=unparsed))
        # shown under a diagnostic: a byte that is not UTF-8 as U+FFFD, under its caret
        shown_text = text if text is not None else unparsed
        if shown_text is not None:
            texts[shown] = shown_text
    compilation = Compilation(sources, diags, reported, fmt=fmt, analysis=analysis)
    if project is not None:
        compilation.project = str(project)
        compilation.reported.add(str(project))
        compilation.root = project.resolve().parent
    return result_of(run(compilation), texts, len(named))


def check_text(text: str, path: str = "<text>", context: dict[str, str] | None = None) -> Result:
    """Check in-memory sources (tests, editors): ``path`` is reported, ``context`` is not."""
    diags: list[Diagnostic] = []
    sources: list[Source] = []
    shown: dict[str, str] = {}
    for name, raw, report in [(path, text, True)] + [(p, t, False)
                                                    for p, t in (context or {}).items()]:
        prepared, problems = prepare(raw, name)
        if report:
            diags.extend(problems)
        sources.append(Source(name, None if problems else prepared, report=report,
                              unparsed=prepared if problems else None))
        shown[name] = prepared
    return result_of(run(Compilation(sources, diags, {path})), shown, 1)
