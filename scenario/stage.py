"""例の段 — the stage above the compiler: the examples (例) of a run, checked and played.

The compiler checks the content and builds its tables (compiler.pipeline); this stage
reads what it built — the parsed 例 blocks, the symbols, the tables — checks each example
into a scenario (scenario.check), and plays those of the named files on the tables
(scenario.run). A failing expectation is an E044 at its place; examples that could not
run are said not to have run (``examples_blocked``), never counted as passing.

``lint`` / ``lint_text`` are the compiler's ``check`` / ``check_text`` with the examples
played; ``compile_content`` is the compiler's, with the examples checked (their mistakes
refuse the compile) and kept for the catalog.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from dsl import ast
from dsl.diagnostics import Diagnostic, Span
from compiler.codes import E014

from compiler.build import Compiled
from compiler.lint import Result, check, check_text
from compiler.pipeline import Compilation, head, internal_error
from compiler.values import Ctx
from .check import check_example, run_diagnostics

__all__ = ["compile_content", "examples_of", "lint", "lint_text", "run_examples"]


def examples_of(compilation: Compilation) -> tuple[list[dict], list[Diagnostic]]:
    """Every example of the run as the scenario the runner plays — with ``subject`` (the
    page or enemy it stands under) and ``report`` (whether its file was named) — and the
    diagnostics of their checks, context files' too."""
    specs: list[dict] = []
    diags: list[Diagnostic] = []
    for source in compilation.sources:
        if source.parsed is None:
            continue
        subject = None  # the page or enemy an example stands under
        for item in source.parsed.file.items:
            if isinstance(item, (ast.Page, ast.Enemy)):
                subject = item
            if not isinstance(item, ast.Example) or id(item) in compilation.oversized:
                continue  # E048 said why an example over its bounds is not checked
            enemy = subject.id.text if isinstance(subject, ast.Enemy) else None
            try:
                spec = check_example(item, Ctx(diags, compilation.symbols), enemy)
            except Exception as exc:  # a bug in jibunki, reported where it struck
                diags.append(internal_error(exc, head(item.span)))
                continue
            if spec is not None:
                spec["subject"] = subject.id.text if subject is not None else None
                spec["report"] = source.report
                specs.append(spec)
    return specs, diags


def run_examples(result: Result) -> Result:
    """``result`` with the examples of its named files played on its tables.

    Examples run only on content without errors (anywhere in the run): they need the
    tables. Otherwise the errors that stopped them are ``examples_blocked``."""
    from runtime.tables import from_dicts

    from .run import run

    compilation = result.compilation
    specs, found = examples_of(compilation)
    diagnostics = compilation.diagnostics + found
    wanted = [spec for spec in specs if spec["report"]]
    played, blocked = [], []
    if wanted:
        blocked = [d for d in diagnostics if d.is_error]
        if not blocked and not result.tables:  # no errors, so nothing lowered: no balance
            first = wanted[0]
            blocked = [E014.at(Span(first["path"], first["line"], 1, first["line"], 2), "バランスがないので例を実行できません", hint="content/ に バランス { … } を1つ書いてください")]
    if wanted and not blocked:
        tables = from_dicts(result.tables)
        for spec in wanted:
            try:
                played.append(run(spec, tables))
            except Exception as exc:  # a bug in jibunki, reported at the example
                diagnostics.append(internal_error(
                    exc, Span(spec["path"], spec["line"], 1, spec["line"], 2)))
        diagnostics += run_diagnostics(played)
    return replace(result, diagnostics=compilation.shown(diagnostics), examples=played,
                   examples_blocked=sorted(blocked, key=Diagnostic.sort_key),
                   examples_wanted=len(wanted))


def lint(paths: list[Path], context: list[Path] = (), *, project: Path | None = None) -> Result:
    """``compiler.lint.check`` of the paths, then their examples played."""
    return run_examples(check(paths, context, project=project))


def lint_text(text: str, path: str = "<text>", context: dict[str, str] | None = None) -> Result:
    """``compiler.lint.check_text``, then the examples of ``text`` played."""
    return run_examples(check_text(text, path, context))


def compile_content(content: Path, fmt: str = "py") -> Compiled:
    """``compiler.build.compile_content`` with the examples of the content checked (not
    played): a mistake in one refuses the compile, and the catalog shows them."""
    result = check([content], project=content, fmt=fmt)
    specs, found = examples_of(result.compilation)
    diagnostics = result.compilation.shown(result.compilation.diagnostics + found)
    if any(d.is_error for d in diagnostics):
        return Compiled(diagnostics, result.sources)
    return Compiled(diagnostics, result.sources, result.compilation.files, result.tables,
                    specs)
