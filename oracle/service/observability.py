"""What the server tells operators: a JSON request log (one line per call) and Prometheus metrics over HTTP."""

from __future__ import annotations

import datetime
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO
from wsgiref.simple_server import WSGIServer

import grpc
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from oracle.service.calls import Call

log = logging.getLogger(__name__)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class RequestLog:
    """A call layer writing one JSON line per finished call: method, code, duration, sizes, peer; never a payload."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._failed = False

    async def admit(self, call: Call) -> None:
        """Nothing to check."""

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Write the call's line (a failing log is reported once and never fails the call)."""
        record = {
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
            "method": call.method,
            "code": code.name,
            "duration_ms": round((time.monotonic() - call.started) * 1000, 3),
            "request_bytes": call.request_bytes,
            "response_bytes": call.response_bytes,
            "requests": call.requests,
            "responses": call.responses,
            "peer": call.peer,
        }
        try:
            self._stream.write(json.dumps(record) + "\n")
            self._stream.flush()
        except (OSError, ValueError) as exc:  # ValueError: the stream was closed
            if not self._failed:
                self._failed = True
                log.warning("request log: cannot write (%s); further failures are not reported", exc)


class Metrics:
    """A call layer counting calls by method and code, timing them, and gauging calls in flight.

    Each server has its own registry (`registry`), exposed by `serve_http`. Other parts add gauges with `watch`
    (for example the depth of a worker pool's queue).
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        labels = ("service", "method")
        self.calls = Counter(
            "canasta_oracle_calls", "Calls finished, by method and status code.", (*labels, "code"),
            registry=self.registry,
        )  # fmt: skip
        self.latency = Histogram(
            "canasta_oracle_call_duration_seconds", "Time from a call's arrival to its end, by method.", labels,
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.in_flight = Gauge(
            "canasta_oracle_calls_in_flight", "Calls in progress (streams: open), by method.", labels,
            registry=self.registry,
        )  # fmt: skip

    def watch(self, name: str, documentation: str, read: Callable[[], float]) -> None:
        """Add a gauge `name` whose value is `read()` at each scrape (the hook for a worker pool's queue depth)."""
        Gauge(name, documentation, registry=self.registry).set_function(read)

    async def admit(self, call: Call) -> None:
        """Count the call as in flight."""
        self.in_flight.labels(call.service, call.name).inc()

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Count the call and its code; observe its duration."""
        self.in_flight.labels(call.service, call.name).dec()
        self.calls.labels(call.service, call.name, code.name).inc()
        self.latency.labels(call.service, call.name).observe(time.monotonic() - call.started)


class MetricsEndpoint:
    """`GET /metrics` (Prometheus text format) on host:port, served by a daemon thread until `close`; over HTTPS
    with the server's certificate when it serves TLS, and asking for a client certificate under mutual TLS."""

    def __init__(
        self,
        metrics: Metrics,
        host: str,
        port: int,
        tls_cert: Path | None = None,
        tls_key: Path | None = None,
        client_ca: Path | None = None,
    ) -> None:
        tls = tls_cert is not None and tls_key is not None
        try:
            self._server: WSGIServer
            self._server, self._thread = start_http_server(
                port,
                addr=host,
                registry=metrics.registry,
                certfile=str(tls_cert) if tls else None,
                keyfile=str(tls_key) if tls else None,
                client_cafile=str(client_ca) if tls and client_ca is not None else None,
                client_auth_required=tls and client_ca is not None,
            )
        except OSError as exc:
            raise OSError(f"cannot serve metrics on {_address(host, port)}: {exc.strerror or exc}") from None
        self.port: int = self._server.server_port
        self.url = f"{'https' if tls else 'http'}://{_address(host, self.port)}/metrics"

    def close(self) -> None:
        """Stop answering and release the port (waits up to half a second for the serving thread)."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


__all__ = ["LATENCY_BUCKETS", "Metrics", "MetricsEndpoint", "RequestLog"]
