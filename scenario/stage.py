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
from dsl.diagnostics import Diagnostic, Note, Span
from compiler.codes import E014, W013, W019
from contract import kinds

from compiler.lint import Result, check, check_text
from compiler.pipeline import Compilation, head, internal_error
from compiler.symbols import each_with_others
from compiler.values import Ctx
from .check import check_example, run_diagnostics

__all__ = ["compile_content", "examples_of", "lint", "lint_text", "play", "run_examples"]


def examples_of(compilation: Compilation) -> tuple[list[dict], list[Diagnostic]]:
    """Every example of the run as the scenario the runner plays — with ``subject`` (the
    page or enemy it stands under) and ``report`` (whether its file was named) — and the
    diagnostics of their checks, context files' too."""
    specs: list[dict] = []
    diags: list[Diagnostic] = []
    named: dict[str, list] = {}  # title → its examples, over the whole content
    for source in compilation.sources:
        if source.parsed is None:
            continue
        subject = None  # the page or enemy an example stands under
        for item in source.parsed.file.items:
            kind = kinds.of(item)
            if kind.subject:  # contract.kinds: the items an example stands under
                subject = item
            if not isinstance(item, ast.Example) or id(item) in compilation.oversized:
                continue  # E048 said why an example over its bounds is not checked
            if item.title is not None:
                named.setdefault(item.title, []).append(item)
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
    for title, item, others in each_with_others(named):
        diags.append(W013.at(head(item.span), name=title, notes=[
            Note("同じ名前の例はここにもあります", head(other.span)) for other in others]))
    return specs, diags + _unwritten_flags(compilation, specs)


def _unwritten_flags(compilation: Compilation, specs: list[dict]) -> list[Diagnostic]:
    """W019 at each 確認 that reads a flag no 作用 of the content writes: it reads 0
    whatever the battle does (``@遺言状 == 0`` for ``@遺言`` can never fail). Only on a
    whole content without errors: an editor's partial model does not know every 作用."""
    reads = [(spec, check, term["arg"]) for spec in specs for step in spec["steps"]
             if step["kind"] == "expect" for check in step["checks"]
             for term in check["terms"] if term.get("quantity") == "flag"]
    if not reads or compilation.checked is not None or compilation.failed:
        return []
    from analysis.content import Content
    from analysis.faces import Walls

    written = Walls(Content.of_model(compilation.model)).flags
    said = f"（書かれるフラグ: {'、'.join('@' + f for f in sorted(written))}）" if written else ""
    return [W019.at(Span(spec["path"], check["line"], check["col"], check["line"],
                         check["end_col"] or check["col"] + 1), flag=flag, written=said)
            for spec, check, flag in reads if flag not in written]


def run_examples(result: Result, cache_for=None) -> Result:
    """``result`` with the examples of its named files played on its tables.

    Examples run only on content without errors (anywhere in the run): they need the
    tables. Otherwise the errors that stopped them are ``examples_blocked``.
    ``cache_for``: the paths linted, to read and keep each example's outcome in the
    example cache (scenario.excache) — an example whose outcome is there is not played
    (its Result then holds no events); None: every example is played."""
    compilation = result.compilation
    specs, found = examples_of(compilation)
    diagnostics = compilation.diagnostics + found
    wanted = [spec for spec in specs if spec["report"]]
    count = written(compilation)
    played, blocked = [], []
    if wanted:
        blocked = [d for d in diagnostics if d.is_error]
        if not blocked and not result.tables:  # no errors, so nothing lowered: no balance
            first = wanted[0]
            folder = compilation.project or "--content のフォルダ"  # not content/ by name
            blocked = [E014.at(Span(first["path"], first["line"], 1, first["line"], 2),
                               "バランスがないので例を実行できません",
                               hint=f"{folder} に バランス {{ … }} を1つ書いてください")]
    elif count:
        # every example written kept from running by an error of its own: not run, and
        # said so (lint had said 「例 7 件を実行しました（すべて成功）」 of none run)
        blocked = [d for d in diagnostics if d.is_error]
    if wanted and not blocked:
        played = _play(wanted, result.tables, diagnostics, cache_for)
        diagnostics += run_diagnostics(played)
    return replace(result, diagnostics=compilation.shown(diagnostics), examples=played,
                   examples_blocked=sorted(blocked, key=Diagnostic.sort_key),
                   # every example kept from a scenario by an error of its own is still
                   # one written and not run: counted, not said unreadable
                   examples_wanted=len(wanted) if wanted and not blocked
                   else count)


def written(compilation: Compilation) -> int:
    """The examples written in the files named (that the parser read): those an error of
    their own keeps from a scenario too, which a count of the examples not run includes."""
    return sum(isinstance(item, ast.Example) for source in compilation.sources
               if source.report and source.parsed is not None
               for item in source.parsed.file.items)


def play(specs: list[dict], literal_tables: dict) -> tuple[list, list[Diagnostic]]:
    """Each example of ``specs`` played on the literal tables, without the example cache
    (an editor's run asks for the battle itself): their Results, and the internal errors of
    those that a bug in jibunki stopped."""
    diagnostics: list[Diagnostic] = []
    return _play(specs, literal_tables, diagnostics, None), diagnostics


def _play(wanted: list[dict], literal_tables: dict, diagnostics: list, cache_for) -> list:
    """Each wanted example's Result, in order: from the example cache when it holds the
    outcome (then neither the runtime nor the battle is needed), else played."""
    from .outcome import Failure, Result as Outcome

    cache = None
    if cache_for is not None:
        from .excache import ExampleCache, spec_key

        cache = ExampleCache(cache_for, literal_tables)
    played, tables = [], None
    try:
        for spec in wanted:
            key = spec_key(spec) if cache is not None else None
            kept = cache.get(key) if cache is not None else None
            if kept is not None:
                played.append(Outcome(spec["name"], spec["path"], spec["line"],
                                      [Failure(*row) for row in kept]))
                continue
            if tables is None:
                from runtime.tables import from_dicts

                tables = from_dicts(literal_tables)
            from .run import run

            try:
                outcome = run(spec, tables)
            except Exception as exc:  # a bug in jibunki, reported at the example
                diagnostics.append(internal_error(
                    exc, Span(spec["path"], spec["line"], 1, spec["line"], 2)))
                continue
            played.append(outcome)
            if cache is not None:
                cache.put(key, outcome)
    finally:
        if cache is not None:
            cache.save()
    return played


def lint(paths: list[Path], context: list[Path] = (), *, project: Path | None = None,
         cache: bool = False) -> Result:
    """``compiler.lint.check`` of the paths, then their examples played. ``cache``: an
    example whose outcome the example cache holds is not played again (scenario.excache;
    same diagnostics, its Result without events)."""
    return run_examples(check(paths, context, project=project),
                        [*paths, *context] if cache else None)


def lint_text(text: str, path: str = "<text>", context: dict[str, str] | None = None) -> Result:
    """``compiler.lint.check_text``, then the examples of ``text`` played."""
    return run_examples(check_text(text, path, context))


def compile_content(content: Path, fmt: str = "py", *, analysis: bool = True) -> Compiled:
    """``compiler.build.compile_content`` with the examples of the content checked (not
    played): a mistake in one refuses the compile, and the catalog shows them.
    ``analysis``: False leaves the interaction analysis' warnings out (compiler.lint.check)."""
    from compiler.build import Compiled

    result = check([content], project=content, fmt=fmt, analysis=analysis)
    specs, found = examples_of(result.compilation)
    diagnostics = result.compilation.shown(result.compilation.diagnostics + found)
    if any(d.is_error for d in diagnostics):
        return Compiled(diagnostics, result.sources, checked=result.files)
    return Compiled(diagnostics, result.sources, result.compilation.files, result.tables,
                    specs, root=result.compilation.root, checked=result.files)
