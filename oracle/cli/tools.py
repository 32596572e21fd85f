"""CLI tools for the oracle itself: verify (Z3 proofs and lint), conformance (the shared suite); bench: benchmark.py."""

from __future__ import annotations

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


@click.command("conformance")
@click.option(
    "--target",
    default=None,
    metavar="HOST:PORT",
    help="Run against a server of the OracleService API instead of this engine in process.",
)
@click.option(
    "--rules",
    "rule_sets",
    default="",
    help="Comma-separated rule-set ids to run (others are skipped: declare the variants your implementation supports).",
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
    help="Case ids expected to fail, one per line; one that passes fails the run.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every result as JSON.")
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
    rule_sets: str,
    junit_file: Path | None,
    xfail_file: Path | None,
    as_json: bool,
    coverage_file: Path | None,
) -> None:
    """Run the conformance suite. Exit 1 on an unexpected failure or an unexpected pass."""
    from oracle.conformance import runner

    try:
        cases = runner.load_cases()
    except runner.CaseFileError as exc:
        raise CliError(f"conformance cases: {exc}") from None
    if coverage_file is not None:
        from oracle.conformance.sensitivity import shipped_sensitivity
        from oracle.ruleset.loader import default_rule_book

        specs = [loaded.spec for loaded in default_rule_book()]
        coverage_file.write_text(runner.coverage_markdown(cases, shipped_sensitivity(), specs), encoding="utf-8")
        click.echo(f"wrote {coverage_file}")
        return
    options = runner.RunOptions(
        rule_sets=tuple(r.strip() for r in rule_sets.split(",") if r.strip()),
        expected_failures=runner.load_expected_failures(xfail_file.read_text()) if xfail_file else frozenset(),
    )
    grpc_target = runner.GrpcTarget(target) if target else None
    try:
        results = runner.run_cases(cases, grpc_target or runner.InProcessTarget(options.book), options)
    finally:
        if grpc_target is not None:
            grpc_target.close()
    if junit_file is not None:
        junit_file.write_text(runner.junit_xml(results), encoding="utf-8")
    click.echo(runner.results_json(results) if as_json else "\n".join(runner.summary_lines(results)))
    if not runner.succeeded(results):
        raise SystemExit(EXIT_FAILED)
