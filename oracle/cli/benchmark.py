"""The bench verb: one benchmark that measures fairly, one row per line of issue 13's table (numbers, no verdicts)."""

from __future__ import annotations

import os

import click

from oracle.cli.support import clean_errors

# The verb imports the benchmark (grpc, the engine) only when it runs (see oracle.cli.main).


@click.command("bench")
@click.option("--states", default=1000, show_default=True, type=click.IntRange(1), help="States timed per row.")
@click.option(
    "--games", default=6, show_default=True, type=click.IntRange(1), help="Games simulated per classic rule set."
)
@click.option("--rounds", default=6, show_default=True, type=click.IntRange(1), help="Turns per server and baseline.")
@click.option("--seconds", default=1.5, show_default=True, type=click.FloatRange(0.05), help="Timed seconds per turn.")
@click.option("--inflight", default=16, show_default=True, type=click.IntRange(1), help="Unary calls in flight.")
@click.option("--starts", default=3, show_default=True, type=click.IntRange(1), help="Server starts timed per kind.")
@click.option("--verify", "with_verify", is_flag=True, help="Also time `canasta-oracle verify` (about 10 s).")
@click.option("--no-servers", is_flag=True, help="In-process rows only (no server processes).")
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(["inproc", "grpc", "http", "serving", "workers", "native", "verify"]),
    help="Measure only these parts (repeatable): inproc (the in-process rows), grpc (CheckAction and RefereeGame"
    " against the echo), http, serving (time to SERVING), workers, native (the server rows under h2load, a native"
    " load generator), verify. Default: all.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the rows and the run's context as JSON.")
@clean_errors
def bench(
    states: int,
    games: int,
    rounds: int,
    seconds: float,
    inflight: int,
    starts: int,
    with_verify: bool,
    no_servers: bool,
    only: tuple[str, ...],
    as_json: bool,
) -> None:
    """Measure the oracle: in process in thread CPU time (median, p10/p90 over states sampled from the shipped
    records, each timed once in a fresh process), and as servers (the oracle, an echo baseline giving same-sized
    answers and the client in three processes, taking turns; median of per-round ratios, server CPU from /proc).

    Prints a table (row, figure, unit, spread); progress goes to stderr. Never asserts a time.
    """
    from oracle.bench.inproc import InProcessSizes
    from oracle.bench.procs import stop_on_sigterm
    from oracle.bench.rows import as_json as rows_json
    from oracle.bench.rows import table
    from oracle.bench.serving import ServerSizes
    from oracle.bench.suite import Sizes, context, run

    sizes = Sizes(
        InProcessSizes(states=states, games=games),
        ServerSizes(rounds=rounds, seconds=seconds, inflight=inflight, starts=starts, verify=with_verify),
        with_servers=not no_servers,
        only=tuple(only),
    )
    about = context(sizes)
    start = os.getloadavg()
    with stop_on_sigterm():
        rows = run(sizes, lambda text: click.echo(f"bench: {text}", err=True))
    end = os.getloadavg()
    if as_json:
        click.echo(rows_json(rows, {**about, "load_average_at_start": start, "load_average_at_end": end}))
        return
    click.echo("\n".join(table(rows)))
    click.echo(
        f"machine: {os.cpu_count()} CPUs; load average {start[0]:.1f} at the start, {end[0]:.1f} at the end"
        f" (other processes inflate CPU times too: compare runs by the reference row); core: {about['core']};"
        f" bytecode: {about['bytecode']}"
    )
