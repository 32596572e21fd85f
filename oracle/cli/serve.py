"""`canasta-oracle serve`: every serving option (each also an environment variable) into a ServeConfig, then serve."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import click

from oracle.cli.support import CliError, clean_errors, load_book

# oracle.service.config.ServeConfig's defaults, repeated here so that `canasta-oracle --help` imports no service
# module (tests/test_serving.py checks that the two agree).
DEFAULTS = SimpleNamespace(
    host="127.0.0.1",
    port=50051,
    reflection=True,
    reuse_port=False,
    max_calls=100,
    max_streams=100,
    max_pending=100,
    threads=4,
    long_threads=2,
    drain_seconds=2.0,
    grace_seconds=10.0,
    request_log=True,
    workers=None,
)
TOKEN_ENV = "CANASTA_ORACLE_TOKEN"  #: the bearer token itself (as oracle.service.config.TOKEN_ENV)
FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
F = TypeVar("F", bound=Callable[..., Any])


def env(name: str) -> str:
    """The environment variable of an option: CANASTA_ORACLE_<NAME>."""
    return f"CANASTA_ORACLE_{name}"


def env_option(*decls: str, var: str, **options: Any) -> Callable[[F], F]:
    """click.option whose value may also come from CANASTA_ORACLE_<var>, shown in --help."""
    return click.option(*decls, envvar=env(var), show_envvar=True, **options)


@click.command(
    epilog=f"Every option can also be set by its environment variable (shown with it); the bearer token itself"
    f" by {TOKEN_ENV}.",
)
@env_option(
    "--host",
    var="HOST",
    default=DEFAULTS.host,
    show_default=True,
    help="Address to listen on.",
)
@env_option(
    "--port",
    var="PORT",
    default=DEFAULTS.port,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0 picks a free one).",
)
@env_option(
    "--specs",
    var="SPECS",
    default=None,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Load rule sets from this directory instead of the shipped ones.",
)
@env_option(
    "--tls-cert",
    var="TLS_CERT",
    type=FILE,
    help="PEM certificate chain: serve TLS (with --tls-key).",
)
@env_option("--tls-key", var="TLS_KEY", type=FILE, help="PEM private key of --tls-cert.")
@env_option(
    "--tls-client-ca",
    var="TLS_CLIENT_CA",
    type=FILE,
    help="PEM CA certificates: mutual TLS, every client must present a certificate they signed.",
)
@env_option(
    "--token-file",
    var="TOKEN_FILE",
    type=FILE,
    help="File holding the bearer token that every call but health must send as the metadata"
    f" 'authorization: Bearer <token>' (or give the token itself in {TOKEN_ENV}).",
)
@env_option(
    "--reflection/--no-reflection",
    var="REFLECTION",
    default=DEFAULTS.reflection,
    show_default=True,
    help="Serve gRPC server reflection (grpc.reflection.v1 and v1alpha).",
)
@env_option(
    "--reuse-port",
    var="REUSE_PORT",
    is_flag=True,
    default=DEFAULTS.reuse_port,
    help="Let several servers share the port (SO_REUSEPORT); without it a busy port is an error.",
)
@env_option(
    "--max-calls",
    var="MAX_CALLS",
    default=DEFAULTS.max_calls,
    show_default=True,
    type=click.IntRange(1),
    help="Unary calls in progress at once; more are refused with RESOURCE_EXHAUSTED.",
)
@env_option(
    "--max-streams",
    var="MAX_STREAMS",
    default=DEFAULTS.max_streams,
    show_default=True,
    type=click.IntRange(1),
    help="Streams open at once; more are refused with RESOURCE_EXHAUSTED.",
)
@env_option(
    "--max-pending",
    var="MAX_PENDING",
    default=DEFAULTS.max_pending,
    show_default=True,
    type=click.IntRange(1),
    help="Calls arriving faster than the server takes them up that gRPC holds; past this many it cancels new calls"
    " at once (CANCELLED, gRPC's own code) rather than queueing them.",
)
@env_option(
    "--threads",
    var="THREADS",
    default=DEFAULTS.threads,
    show_default=True,
    type=click.IntRange(1),
    help="Worker threads for ordinary calls (per process).",
)
@env_option(
    "--long-threads",
    var="LONG_THREADS",
    default=DEFAULTS.long_threads,
    show_default=True,
    type=click.IntRange(1),
    help="Worker threads for ReplayGame and ListLegalActions, whose work grows with the request (per process).",
)
@env_option(
    "--drain-seconds",
    var="DRAIN_SECONDS",
    default=DEFAULTS.drain_seconds,
    show_default=True,
    type=click.FloatRange(0),
    help="After SIGTERM or SIGINT: health says NOT_SERVING while calls are still answered, this long.",
)
@env_option(
    "--grace-seconds",
    var="GRACE_SECONDS",
    default=DEFAULTS.grace_seconds,
    show_default=True,
    type=click.FloatRange(0),
    help="Then new calls are refused and calls in flight may finish, for up to this long.",
)
@env_option(
    "--request-log/--no-request-log",
    var="REQUEST_LOG",
    default=DEFAULTS.request_log,
    show_default=True,
    help="Log one JSON line per call: method, code, duration, sizes, peer (never a payload).",
)
@env_option(
    "--log-file",
    var="LOG_FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the request log to this file instead of stderr.",
)
@env_option(
    "--metrics-port",
    var="METRICS_PORT",
    type=click.IntRange(0, 65535),
    default=None,
    help="Serve Prometheus metrics at http://HOST:PORT/metrics (default off; 0: a free port). With --workers N"
    " above 1, worker i (from 0) serves its own on PORT+i (0: each on a free port); each URL is printed.",
)
@env_option(
    "--http-port",
    var="HTTP_PORT",
    type=click.IntRange(0, 65535),
    default=None,
    help="Also serve every call over HTTP on this port (default off; 0: a free one), in the Connect protocol:"
    " POST /oracle.api.v1.OracleService/<Method> with a JSON body (the protobuf JSON mapping), with the same limits,"
    " bearer token, TLS and metrics as gRPC; and the web page at /.",
)
@env_option(
    "--workers",
    var="WORKERS",
    type=click.IntRange(1),
    default=DEFAULTS.workers,
    help="Server processes, each with its own event loop and worker threads, sharing the port by SO_REUSEPORT"
    " (only this mode turns it on; a port someone listens on is still refused). They are forked once the rule"
    " sets are loaded; signals go to the parent, which stops them all together. Default: one per available"
    " processor; 1: this process serves alone.",
)
@env_option(
    "--limit",
    "limits",
    var="LIMITS",
    multiple=True,
    metavar="NAME=VALUE",
    help="Change one limit of the README's limits table (repeatable; the env var takes space-separated"
    " settings), e.g. --limit max_record_hands=1000.",
)
@clean_errors
def serve(
    host: str,
    port: int,
    specs: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_client_ca: Path | None,
    token_file: Path | None,
    reflection: bool,
    reuse_port: bool,
    max_calls: int,
    max_streams: int,
    max_pending: int,
    threads: int,
    long_threads: int,
    drain_seconds: float,
    grace_seconds: float,
    request_log: bool,
    log_file: Path | None,
    metrics_port: int | None,
    http_port: int | None,
    workers: int | None,
    limits: tuple[str, ...],
) -> None:
    """Start the gRPC server (health SERVING once the rule sets load).

    SIGTERM or SIGINT: health turns NOT_SERVING, calls are answered for the drain period, then calls in flight
    finish within the grace period; a second signal exits at once.

    With --workers N above 1 (the default where several processors are available) the same happens in N processes
    on one port: the parent forwards the signals, and exits 0 once every worker has drained, or 1 if one died.
    """
    import asyncio

    from oracle.service.config import ConfigError, ServeConfig, load_token, parse_limits

    try:
        config = ServeConfig(
            host=host,
            port=port,
            tls_cert=tls_cert,
            tls_key=tls_key,
            tls_client_ca=tls_client_ca,
            token=load_token(token_file, os.environ.get(TOKEN_ENV)),
            reflection=reflection,
            reuse_port=reuse_port,
            max_calls=max_calls,
            max_streams=max_streams,
            max_pending=max_pending,
            threads=threads,
            long_threads=long_threads,
            drain_seconds=drain_seconds,
            grace_seconds=grace_seconds,
            request_log=request_log,
            log_file=log_file,
            metrics_port=metrics_port,
            http_port=http_port,
            workers=workers,
            limits=parse_limits(limits),
        )
        book = load_book(specs, lint=True)
        from oracle.service.server import serve as run  # grpc loads only for this verb

        if config.workers == 1:  # one process: no multiprocessing to import
            asyncio.run(run(book, config))
            return
        from oracle.service.multiproc import serve_workers, worker_count

        count = worker_count(config)
        if count == 1:
            asyncio.run(run(book, config))
        else:
            status = serve_workers(book, config, count)
            if status:
                raise SystemExit(status)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    except KeyboardInterrupt:  # SIGINT before serving began (while the rule sets load): no traceback
        click.echo("canasta-oracle: interrupted before serving", err=True)
        raise SystemExit(128 + signal.SIGINT) from None


__all__ = ["serve"]
