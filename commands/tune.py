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
    ``apply_edit``, write the confirmed edits. Exit 1 when an item could not be brought
    inside its 目標."""
    from contract import disk
    from commands import tune_source
    from sim import tune
    from sim.backends import BackendError

    try:
        source = tune_source.Content(content)
        subjects = []
        for item in ids:
            kind = "page" if item in tables.pages else "enemy"
            subjects.append(tune.subject_of(source.literal, kind, item))
        if every:
            named = {s.id for s in subjects}
            subjects += [tune.subject_of(source.literal, kind, item)
                         for kind, table in (("page", tables.pages), ("enemy", tables.enemies))
                         for item in sorted(table)
                         if table[item].target is not None and item not in named]
            if not subjects:
                example = tune.band(tune.Subject("page", "", "", -0.05, 0.05))
                raise tune.TuneError(f"目標 を書いたページも敵もありません（例: ページに「{example}」）")
    except tune.TuneError as exc:
        raise click.UsageError(str(exc)) from None
    missed = False
    answers = []
    # the JSON document is the whole of stdout: the text's lines are not printed
    say = click.echo if fmt == "text" else (lambda *_: None)
    started = time.monotonic()
    try:
        runner, meter = tune.open_meter(source, settings, tables, workers=workers,
                                        backend=backend, address=address)
        with runner:
            for subject in subjects:
                path, item = source.item_source(subject.kind, subject.id)
                cands = tune_source.candidates(item, source.texts[path], path)
                outcome = tune.tune(source, meter, subject, cands, pairs)
                if every and outcome.already:
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
                            # was read: each edit is measured alone.
                            say(f"  {written}:{cand.line} に書き込みました。")
                            answer["written"] = str(written)
                    else:
                        say("  --apply を付けると書き込みます。")
                elif not outcome.already:
                    missed = True
                say()
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None
    if fmt == "json":
        import json

        click.echo(json.dumps({"format": tune.FORMAT, "subjects": answers,
                               "battles": meter.battles}, ensure_ascii=False, indent=2))
    click.echo(f"調整: {len(subjects)} 件、{meter.battles:,} 戦、"
               f"{time.monotonic() - started:.0f} 秒", err=True)
    if missed:
        sys.exit(EXIT_CONTENT)
