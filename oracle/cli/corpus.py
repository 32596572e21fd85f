"""The corpus run of `canasta-oracle replay PATH...`: picks where it runs, shows progress, prints and writes the
reports."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from oracle.cli.support import CliError


def run_corpus(
    files: list[str],
    *,
    judge_all: bool,
    converters: tuple[str, ...],
    specs: Path | None,
    cluster: str | None,
    workers: int | None,
    in_process: bool,
    json_report: Path | None,
    junit: Path | None,
) -> bool:
    """Replay every file, print the summary table, write the reports asked for; whether all was well.

    Where it runs: on the cluster at `cluster`; else in this process when asked, or when there are fewer than
    IN_PROCESS_BELOW files (a local cluster takes seconds to start) and no worker count was given; else on a
    local Dask cluster of `workers` processes (default one per processor).
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from oracle.service.corpus import IN_PROCESS_BELOW, Options, run_in_process, run_on_cluster
    from oracle.service.corpus_report import json_report as make_json
    from oracle.service.corpus_report import junit_report, summarise, table

    if not files:
        raise CliError("no record files found")
    if cluster and in_process:
        raise CliError("--cluster and --in-process exclude each other")
    if specs is not None:
        from oracle.cli.support import load_book

        load_book(specs)  # a bad rule-set directory is one error here, not one per game on the workers
    options = Options(judge_all, converters, str(specs) if specs is not None else None)
    local = not cluster and (in_process or (workers is None and len(files) < IN_PROCESS_BELOW))
    if cluster:
        where = f"on the Dask cluster at {cluster}"
    elif local:
        why = "asked" if in_process else f"fewer than {IN_PROCESS_BELOW} files"
        where = f"in this process ({why})"
    else:
        where = f"on a local Dask cluster of {workers or os.cpu_count() or 1} worker processes"
    click.echo(f"replaying {len(files)} file(s) {where}", err=True)
    columns = (TextColumn("replaying"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("files", total=len(files))

        def advance(n: int) -> None:
            bar.advance(task, n)

        if local:
            results = run_in_process(files, options, advance)
        else:
            results = run_on_cluster(files, options, address=cluster, workers=workers, progress=advance)
    summary = summarise(results)
    click.echo("\n".join(table(summary, results)))
    if json_report is not None:
        json_report.write_text(make_json(summary, results), encoding="utf-8")
        click.echo(f"JSON report: {json_report}", err=True)
    if junit is not None:
        junit.write_text(junit_report(summary, results), encoding="utf-8")
        click.echo(f"JUnit report: {junit}", err=True)
    return summary.ok
