"""CLI tools for the oracle itself: verify (Z3 proofs and lint), conformance (the shared suite); bench: benchmark.py."""

from __future__ import annotations

import json
from pathlib import Path

import click

from oracle.cli.support import EXIT_FAILED, CliError, clean_errors

# Each verb imports what it needs when it runs (see oracle.cli.main).


@click.command()
@click.option("--rules", "rule_set_ids", default="", help="Comma-separated rule-set ids (default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Verify rule sets in this many processes (default: the number of processors).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Prove everything again instead of reading rule sets that verified cleanly before (same rule set, same code)"
    " from the cache ($CANASTA_ORACLE_CACHE, default ~/.cache/canasta-oracle).",
)
@clean_errors
def verify(rule_set_ids: str, as_json: bool, jobs: int | None, no_cache: bool) -> None:
    """Prove the rule-set properties with Z3, lint every rule set, and check the engine against the model."""
    from oracle.verify.report import default_jobs, verify_command_lines

    ids = [i.strip() for i in rule_set_ids.split(",") if i.strip()] or None
    lines, ok = verify_command_lines(ids, as_json, jobs=jobs or default_jobs(), use_cache=not no_cache)
    click.echo("\n".join(lines))
    if not ok:
        raise SystemExit(EXIT_FAILED)


CONFORMANCE_EXIT_STATUSES = (
    "Exit status: 0 every case passed (or failed as listed in --expected-failures); 1 a case failed that is not"
    " listed, or a listed case now passes (remove it from the list); 2 the run was refused before it started: an"
    " unknown rule-set id in --rules, an id in --expected-failures that is no case's, a --specs problem, a bad"
    " case file, or a --target that cannot be reached within --connect-timeout (or stops answering)."
)


@click.command("conformance", epilog=CONFORMANCE_EXIT_STATUSES)
@click.option(
    "--target",
    default=None,
    metavar="HOST:PORT",
    help="Run against a server of the OracleService API instead of this engine in process.",
)
@click.option(
    "--connect-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait for --target to accept a connection before refusing the run (exit 2).",
)
@click.option(
    "--rules",
    "rule_sets",
    default="",
    help="Comma-separated rule-set ids to run (others are skipped: declare the variants your implementation"
    " supports). An id that no case uses is refused.",
)
@click.option(
    "--specs",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Add the rule sets in this directory (RuleSet text-format files, which may extend shipped ones; an optional"
    " sources.textproto adds sources) to the shipped rule book.",
)
@click.option(
    "--specs-only",
    is_flag=True,
    help="Use only the rule sets of --specs DIR (with its own sources.textproto) instead of adding them to the shipped"
    " book: a shipped id defined there replaces the shipped rule set.",
)
@click.option(
    "--junit-xml",
    "junit_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write JUnit XML here.",
)
@click.option(
    "--expected-failures",
    "xfail_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Case ids expected to fail, one per line ('#' comments); one that passes fails the run (exit 1), an id that"
    " is no case's or is listed twice refuses it (exit 2).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print every result as JSON: a list of {"id", "suite", "ruleSetId", "status", "detail"}, status one of pass,'
    ' fail, skip, xfail, xpass (with --coverage: {"wrote": FILE}).',
)
@click.option(
    "--coverage",
    "coverage_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the coverage table (codes and fields to cases) as Markdown and exit.",
)
@clean_errors
def conformance_command(
    target: str | None,
    connect_timeout: float,
    rule_sets: str,
    specs: Path | None,
    specs_only: bool,
    junit_file: Path | None,
    xfail_file: Path | None,
    as_json: bool,
    coverage_file: Path | None,
) -> None:
    """Run the conformance suite. Exit 1 on an unexpected failure or an unexpected pass, 2 if the run is refused."""
    from oracle.conformance import runner, selection

    try:
        cases = runner.load_cases()
    except runner.CaseFileError as exc:
        raise CliError(f"conformance cases: {exc}") from None
    if coverage_file is not None:
        from oracle.conformance.sensitivity import shipped_sensitivity
        from oracle.ruleset.loader import default_rule_book

        shipped = [loaded.spec for loaded in default_rule_book()]
        coverage_file.write_text(runner.coverage_markdown(cases, shipped_sensitivity(), shipped), encoding="utf-8")
        click.echo(json.dumps({"wrote": str(coverage_file)}) if as_json else f"wrote {coverage_file}")
        return
    problems: list[str] = []  # every reason to refuse the run, not only the first
    expected: frozenset[str] = frozenset()
    chosen: tuple[str, ...] = ()
    try:
        chosen = selection.check_rule_set_ids((r.strip() for r in rule_sets.split(",") if r.strip()), cases)
    except selection.RunRefused as exc:
        problems += exc.problems
    if xfail_file is not None:
        try:
            listed = selection.parse_expected_failures(xfail_file.read_text(encoding="utf-8"), str(xfail_file))
            expected = selection.check_expected_failures(listed, cases, str(xfail_file))
        except selection.RunRefused as exc:
            problems += exc.problems
    try:
        book = selection.rule_book(specs, specs_only)
    except selection.RunRefused as exc:
        problems += exc.problems
    if problems:
        raise CliError("\n".join(problems))
    options = runner.RunOptions(rule_sets=chosen, expected_failures=expected, book=book)
    grpc_target = runner.GrpcTarget(target, connect_timeout=connect_timeout) if target else None
    try:
        if grpc_target is not None:
            grpc_target.connect()
        results = runner.run_cases(cases, grpc_target or runner.InProcessTarget(options.book), options)
    except runner.TargetUnreachable as exc:
        raise CliError(str(exc)) from None
    finally:
        if grpc_target is not None:
            grpc_target.close()
    if junit_file is not None:
        junit_file.write_text(runner.junit_xml(results), encoding="utf-8")
    click.echo(runner.results_json(results) if as_json else "\n".join(runner.summary_lines(results)))
    stale = [r.case.case.id for r in results if r.status == "xpass"]
    if stale and not as_json:
        click.echo(f"These cases are listed in {xfail_file} but now pass; remove them from the list:")
        click.echo("\n".join(f"  {case_id}" for case_id in stale))
    if not runner.succeeded(results):
        raise SystemExit(EXIT_FAILED)
