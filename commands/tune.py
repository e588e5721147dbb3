"""``jibunki sim --tune``: the smallest one-number edit that brings a page or an enemy inside
its 目標 (sim/tune.py), said as a diff of the source line and written with ``--apply``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from commands.common import EXIT_CONTENT


def run_tune(content: Path, tables, ids, every: bool, apply_edit: bool, settings, pairs: int,
             workers: int, backend: str, address, fmt: str = "text") -> None:
    """Tune the named items (or, with ``every``, each with a 目標), print each answer (with
    ``fmt`` "json": one JSON document, sim/tune.py ``to_dict`` per item) and, with
    ``apply_edit``, write the confirmed edits; when more than one was written, measure
    them again together on the content as written (``remeasure``). Exit 1 when an item
    could not be brought inside its 目標, or fell out of it once the edits were together."""
    from contract import disk
    from commands import tune_source
    from sim import tune
    from sim.backends import BackendError

    try:
        source = tune_source.Content(content)
        def capped(kind: str, item: str) -> str | None:
            return tune.beyond_cap(tables, item) if kind == "page" else None

        subjects = []
        for item in dict.fromkeys(ids):
            kind = "page" if item in tables.pages else "enemy"
            why = capped(kind, item)
            if why is not None:  # the content's state, not the command line's: exit 1
                raise click.ClickException(why)
            subjects.append(tune.subject_of(source.literal, kind, item))
        unmeasured = []  # --tune-all's 目標 a cap leaves unchecked: said, and no pass
        if every:
            named = {s.id for s in subjects}
            for kind, table in (("page", tables.pages), ("enemy", tables.enemies)):
                for item in sorted(table):
                    if table[item].target is None or item in named:
                        continue
                    why = capped(kind, item)
                    if why is not None:
                        unmeasured.append(why)
                    else:
                        subjects.append(tune.subject_of(source.literal, kind, item))
            if not subjects and unmeasured:
                raise click.ClickException("。".join(unmeasured))
            if not subjects:
                raise tune.TuneError("目標 を書いたページも敵もありません"
                                     f"（例: ページに「{tune.example_target('page')}」）")
    except tune.TuneError as exc:
        raise click.UsageError(str(exc)) from None
    missed = False
    inside = 0  # --tune-all's items found inside their 目標: measured, not shown
    answers = []
    written_subjects = []
    # the JSON document is the whole of stdout: the text's lines are not printed
    say = click.echo if fmt == "text" else (lambda *_: None)
    started = time.monotonic()
    # what fails already is not the edit's doing (examples_after tells the two apart)
    failing_before = failing_examples(content) if apply_edit else []
    try:
        runner, meter = tune.open_meter(source, settings, tables, workers=workers,
                                        backend=backend, address=address)
        with runner:
            for subject in subjects:
                path, item = source.item_source(subject.kind, subject.id)
                cands = tune_source.candidates(item, source.texts[path], path)
                outcome = tune.tune(source, meter, subject, cands, pairs)
                if every and outcome.already:
                    inside += 1
                    continue
                unit = "組" if subject.kind == "page" else "戦"
                for line in tune.lines_of(outcome, pairs, unit):
                    say(line)
                answers.append(answer := tune.to_dict(outcome, pairs))
                if outcome.chosen is not None:
                    cand, value = outcome.chosen.candidate, outcome.chosen.found.value
                    if apply_edit:
                        try:
                            written = tune_source.apply(source, cand, value)
                        except (tune.TuneError, disk.DiskError) as exc:
                            click.echo(f"  書き込めませんでした: {exc}", err=True)
                            answer["write_error"] = str(exc)
                            missed = True
                        else:
                            # The next items are still measured on the content as it
                            # was read: each edit is searched alone, and the edits
                            # written are measured together at the end (remeasure).
                            say(f"  {written}:{cand.line} に書き込みました。")
                            answer["written"] = str(written)
                            written_subjects.append(subject)
                    else:
                        say("  --apply を付けると書き込みます。")
                elif not outcome.already:
                    missed = True
                say()
        document = {"format": tune.FORMAT, "subjects": answers}
        battles = meter.battles
        if len(written_subjects) > 1:
            document["together"] = together = remeasure(
                content, written_subjects, settings, workers, backend, address, say, fmt)
            battles += together.get("battles", 0)
            missed = missed or "error" in together or bool(together["interact"])
        if written_subjects:
            document["examples_failed"] = failed = examples_after(content, failing_before)
            missed = missed or bool(failed)
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        import json

        click.echo(json.dumps({**document, "battles": battles}, ensure_ascii=False, indent=2))
    unshown = f"（うち {inside} 件は目標の内側なので省きました）" if inside else ""
    click.echo(f"調整: {len(subjects)} 件{unshown}、{battles:,} 戦、"
               f"{time.monotonic() - started:.0f} 秒", err=True)
    for why in unmeasured:
        click.echo(why, err=True)
    if missed or unmeasured:
        sys.exit(EXIT_CONTENT)


def failing_examples(content: Path) -> list[str]:
    """The examples (例) of ``content`` that fail now, "path:line name" each (as the JSON
    gives them); a content whose examples cannot run is one line saying so."""
    from commands.checked import check_content

    result = check_content(content)
    failed = [f"{run.path}:{run.line} {run.name}" for run in result.examples if not run.passed]
    if result.examples_blocked:
        failed.append(f"{result.examples_blocked[0].span.path}: 例を実行できませんでした")
    return failed


def examples_after(content: Path, before: list[str]) -> list[str]:
    """The examples (例) of ``content`` that fail once the edits are written and passed
    before (``before``: those failing then), said on stderr: an example that pinned the
    number the tune changed now fails, and the designer decides whether the example or
    the edit is right — the content is not left failing ``jibunki test`` without a word.
    Those that failed already are said apart: the edit is not to blame for them."""
    after = failing_examples(content)
    new = [line for line in after if line not in before]
    old = [line for line in after if line in before]
    if new:
        click.echo(f"書き込んだあと、例が {len(new)} 件失敗しています（jibunki test で確かめ、"
                   "例の期待か書き込んだ数を直してください）:", err=True)
        for line in new:
            click.echo(f"  {line}", err=True)
    if old:
        click.echo(f"書き込む前から失敗していた例が {len(old)} 件あります（この書き換えとは"
                   "関係ありません）:", err=True)
        for line in old:
            click.echo(f"  {line}", err=True)
    return new


def remeasure(content: Path, subjects: list, settings, workers: int, backend: str, address,
              say, fmt: str) -> dict:
    """まとめて測り直し: the content read and compiled again with every edit written, each
    written item confirmed on it (sim/tune.py ``together``) and said; the JSON part of it
    (``together_dict``), or {"error": message} when the content as written cannot be
    measured (it was compiled before each write, so this should not happen)."""
    from commands import tune_source
    from contract import disk
    from runtime.tables import from_dicts
    from sim import tune

    try:
        source = tune_source.Content(content)
        again = [tune.subject_of(source.literal, s.kind, s.id) for s in subjects]
    except (tune.TuneError, disk.DiskError) as exc:
        message = (f"まとめて測り直せませんでした: 書き込んだあとのコンテンツを読めません"
                   f"（{exc}）。jibunki lint {content} で確かめてください")
        click.echo(message, err=True)
        return {"error": message}
    runner, meter = tune.open_meter(source, settings, from_dicts(source.literal),
                                    workers=workers, backend=backend, address=address)
    with runner:
        together = tune.together(meter, again)
    lines = tune.lines_together(together)
    for line in lines:
        say(line)
    if fmt != "text" and together.fallen:
        # stdout is the JSON document alone: the reason for the exit code goes to stderr
        for line in lines[-2:]:
            click.echo(line.strip(), err=True)
    return tune.together_dict(together)
