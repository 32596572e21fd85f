"""`canasta-oracle health`: ask a server's gRPC health service whether it serves (a container's HEALTHCHECK)."""

from __future__ import annotations

from pathlib import Path

import click

from oracle.cli.serve import DEFAULTS, FILE, env_option
from oracle.cli.support import CliError, clean_errors


@click.command()
@env_option(
    "--host",
    var="HEALTH_HOST",
    default=DEFAULTS.host,
    show_default=True,
    help="The server's address (inside a container: 127.0.0.1 even when serving on 0.0.0.0).",
)
@env_option(
    "--port",
    var="PORT",
    default=DEFAULTS.port,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="The server's gRPC port (the same variable as serve's, so a container checks the port it serves).",
)
@env_option(
    "--tls-ca",
    var="HEALTH_TLS_CA",
    type=FILE,
    help="Speak TLS, trusting the server certificates this PEM CA bundle signed (default: plaintext).",
)
@env_option(
    "--tls-cert",
    var="HEALTH_TLS_CERT",
    type=FILE,
    help="With --tls-ca: this PEM client certificate, for a server that requires one (mutual TLS; needs --tls-key).",
)
@env_option(
    "--tls-key",
    var="HEALTH_TLS_KEY",
    type=FILE,
    help="The PEM private key of --tls-cert.",
)
@env_option(
    "--tls-server-name",
    var="HEALTH_TLS_SERVER_NAME",
    help="With --tls-ca: the name the server's certificate must carry, when it does not name --host"
    " (e.g. the container's public name while asking 127.0.0.1).",
)
@click.option(
    "--service",
    default="",
    show_default=True,
    help="The service to ask about ('' is the server as a whole; or oracle.api.v1.OracleService).",
)
@click.option(
    "--timeout",
    default=3.0,
    show_default=True,
    type=click.FloatRange(0, min_open=True),
    help="Seconds to wait for the answer.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"target", "status": the ServingStatus name or null, "error": {"code", "message"} when there is no'
    " answer} instead of a line (the exit status is the same).",
)
@clean_errors
def health(
    host: str,
    port: int,
    tls_ca: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_server_name: str | None,
    service: str,
    timeout: float,
    as_json: bool,
) -> None:
    """Ask a server's gRPC health service whether it is serving: exit 0 if SERVING, else 1 (a container HEALTHCHECK).

    Prints the status, or why there is none (not listening, a timeout, an unknown service).
    """
    import json

    import grpc
    from grpc_health.v1 import health_pb2

    target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if tls_ca is None:
        if tls_cert is not None or tls_key is not None or tls_server_name is not None:
            raise CliError("--tls-cert, --tls-key and --tls-server-name need --tls-ca (the health check speaks TLS)")
        channel = grpc.insecure_channel(target)
    else:
        if (tls_cert is None) != (tls_key is None):
            raise CliError("--tls-cert and --tls-key go together: give both or neither")
        credentials = grpc.ssl_channel_credentials(
            tls_ca.read_bytes(),
            tls_key.read_bytes() if tls_key is not None else None,
            tls_cert.read_bytes() if tls_cert is not None else None,
        )
        options = [("grpc.ssl_target_name_override", tls_server_name)] if tls_server_name else []
        channel = grpc.secure_channel(target, credentials, options=options)
    with channel:
        check = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        try:
            answer = check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            detail = exc.details() if isinstance(exc, grpc.Call) else str(exc)
            if as_json:
                error = {"code": getattr(code, "name", "error"), "message": detail}
                click.echo(json.dumps({"target": target, "status": None, "error": error}))
            else:
                click.echo(f"{target}: no health answer ({getattr(code, 'name', 'error')}: {detail})", err=True)
            raise SystemExit(1) from None
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)
    click.echo(json.dumps({"target": target, "status": status}) if as_json else f"{target}: {status}")
    if answer.status != health_pb2.HealthCheckResponse.SERVING:
        raise SystemExit(1)


__all__ = ["health"]
