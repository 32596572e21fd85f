"""How the server is served: every serving option with its default (ServeConfig), checked when it is made."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from oracle.service.limits import DEFAULT_LIMITS, Limits

TOKEN_ENV = "CANASTA_ORACLE_TOKEN"  #: the bearer token itself (the alternative to --token-file)


class ConfigError(ValueError):
    """A serving option is missing, out of range or inconsistent with another; the message names the option."""


@dataclass(frozen=True)
class ServeConfig:
    """Every serving option, with its default; `start_server` and `canasta-oracle serve` share it.

    Sizes and times are checked on creation (ConfigError names the option); files are read when the server starts.
    """

    host: str = "127.0.0.1"
    port: int = 50051  #: 0 picks a free port
    tls_cert: Path | None = None  #: PEM certificate chain: serve TLS (needs tls_key)
    tls_key: Path | None = None  #: PEM private key of tls_cert
    tls_client_ca: Path | None = None  #: PEM CA bundle: mutual TLS, every client must show a certificate it signed
    token: str | None = field(default=None, repr=False)  #: bearer token every call but health must carry
    reflection: bool = True  #: serve grpc.reflection.v1 and v1alpha
    reuse_port: bool = False  #: SO_REUSEPORT: let several servers share the port (off: a busy port is an error)
    max_calls: int = 100  #: unary calls in progress at once; more get RESOURCE_EXHAUSTED
    max_streams: int = 100  #: streams open at once; more get RESOURCE_EXHAUSTED
    max_pending: int = 100  #: calls gRPC core holds before the server takes them up; more are cancelled at once
    threads: int = 4  #: worker threads for ordinary calls
    long_threads: int = 2  #: worker threads for ReplayGame and ListLegalActions, whose work grows with the request
    drain_seconds: float = 2.0  #: after SIGTERM: health NOT_SERVING, calls still answered, for this long
    grace_seconds: float = 10.0  #: then: no new calls, calls in flight may finish for this long
    request_log: bool = True  #: one JSON line per call
    log_file: Path | None = None  #: where the request log goes (None: stderr)
    metrics_port: int | None = None  #: Prometheus metrics over HTTP on host:metrics_port (None: off; 0: a free port)
    http_port: int | None = None  #: the Connect protocol (HTTP/JSON) and the web page on host:http_port (0: free)
    workers: int | None = None  #: `serve` processes sharing the port (None: one per processor; start_server is one)
    limits: Limits = DEFAULT_LIMITS  #: what a request and an answer may hold (`--limit NAME=VALUE`)

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ConfigError("; ".join(problems))

    @property
    def tls(self) -> bool:
        """Whether the server speaks TLS."""
        return self.tls_cert is not None


def _problems(config: ServeConfig) -> list[str]:
    problems: list[str] = []
    if not config.host:
        problems.append("--host is empty")
    ports = (("--port", config.port), ("--metrics-port", config.metrics_port), ("--http-port", config.http_port))
    for name, port in ports:
        if port is not None and not 0 <= port <= 65535:
            problems.append(f"{name} {port} is not a port number (0 to 65535)")
    if config.metrics_port and config.metrics_port == config.port:
        problems.append(f"--metrics-port {config.metrics_port} is the serving port")
    if config.http_port and config.http_port in (config.port, config.metrics_port):
        which = "the serving port" if config.http_port == config.port else "the --metrics-port"
        problems.append(f"--http-port {config.http_port} is {which}")
    if (config.tls_cert is None) != (config.tls_key is None):
        problems.append("--tls-cert and --tls-key go together: give both or neither")
    if config.tls_client_ca is not None and config.tls_cert is None:
        problems.append("--tls-client-ca (mutual TLS) needs --tls-cert and --tls-key")
    counts = (
        ("--max-calls", config.max_calls),
        ("--max-streams", config.max_streams),
        ("--max-pending", config.max_pending),
        ("--threads", config.threads),
        ("--long-threads", config.long_threads),
        ("--workers", config.workers),
    )
    for name, count in counts:
        if count is not None and count < 1:
            problems.append(f"{name} {count} must be at least 1")
    for name, seconds in (("--drain-seconds", config.drain_seconds), ("--grace-seconds", config.grace_seconds)):
        if not seconds >= 0:  # also refuses NaN
            problems.append(f"{name} {seconds} must be 0 or more")
    if config.token is not None:
        problems.extend(token_problems(config.token))
    if config.log_file is not None and not config.request_log:
        problems.append("--log-file is given but the request log is off (--no-request-log)")
    return problems


def token_problems(token: str) -> list[str]:
    """Why `token` cannot be a bearer token (it must travel as a gRPC metadata value), if it cannot."""
    if not token:
        return ["the bearer token is empty"]
    if not all("!" <= c <= "~" for c in token):
        return ["the bearer token must be printable ASCII without spaces"]
    return []


def load_token(token_file: Path | None, from_env: str | None) -> str | None:
    """The bearer token from --token-file (surrounding whitespace dropped) or from the environment, or None."""
    if token_file is not None and from_env is not None:
        raise ConfigError(f"give the bearer token by --token-file or by {TOKEN_ENV}, not both")
    if token_file is None:
        return from_env
    try:
        token = token_file.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        raise ConfigError(f"--token-file {token_file} is not UTF-8 text") from None
    if not token:
        raise ConfigError(f"--token-file {token_file} is empty")
    return token


__all__ = ["TOKEN_ENV", "ConfigError", "ServeConfig", "load_token", "token_problems"]


def parse_limits(items: Iterable[str], base: Limits = DEFAULT_LIMITS) -> Limits:
    """`NAME=VALUE` settings over `base` (NAME a field of Limits, VALUE a whole number >= 1); ConfigError otherwise."""
    names = {f.name for f in fields(Limits)}
    changes: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in names:
            raise ConfigError(f"--limit {item!r}: expected NAME=VALUE with NAME one of {', '.join(sorted(names))}")
        try:
            number = int(value.strip().replace("_", ""))
        except ValueError:
            raise ConfigError(f"--limit {item!r}: the value must be a whole number") from None
        if number < 1:
            raise ConfigError(f"--limit {item!r}: the value must be at least 1")
        changes[name] = number
    return replace(base, **changes)
