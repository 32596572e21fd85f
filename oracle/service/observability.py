"""What the server tells operators: a JSON request log (one line per call) and Prometheus metrics over HTTP."""

from __future__ import annotations

import bisect
import datetime
import itertools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import grpc

from oracle.service.calls import Call

if TYPE_CHECKING:  # prometheus_client is imported when metrics are served or read (see Metrics)
    from wsgiref.simple_server import WSGIServer

    from prometheus_client import CollectorRegistry
    from prometheus_client.metrics_core import Metric

log = logging.getLogger(__name__)
_json_string: Callable[[str], str] = json.encoder.encode_basestring_ascii
"""A string as json.dumps writes it (quoted, escaped, ASCII only)."""


def _json_value(value: object) -> str:
    return _json_string(value) if isinstance(value, str) else json.dumps(value)


LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class RequestLog:
    """A call layer writing one JSON line per finished call: method, code, duration, sizes, peer; never a payload.

    The line is what json.dumps gives for the record, written without building the record (strings encoded as
    json.dumps encodes them; the time's date and whole seconds formatted once per second).
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._failed = False
        self._second = -1  #: the Unix second `_stamp` writes
        self._stamp = ""  #: that second in UTC, "YYYY-MM-DDTHH:MM:SS"

    def admit(self, call: Call) -> None:
        """Nothing to check."""

    def _now(self) -> str:
        """Now in UTC as datetime.now(UTC).isoformat(timespec="milliseconds") writes it (microseconds rounded as
        datetime rounds them, then cut to milliseconds)."""
        now = time.time()
        second = int(now)
        micro = round((now - second) * 1e6)
        if micro >= 1_000_000:
            second, micro = second + 1, micro - 1_000_000
        if second != self._second:
            self._second = second
            self._stamp = datetime.datetime.fromtimestamp(second, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._stamp}.{micro // 1000:03d}+00:00"

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Write the call's line (a failing log is reported once and never fails the call)."""
        took = round((time.monotonic() - call.started) * 1000, 3)
        line = (
            f'{{"time": "{self._now()}", "method": {_json_string(call.method)}, "code": {_json_string(code.name)},'
            f' "duration_ms": {took!r}, "request_bytes": {call.request_bytes},'
            f' "response_bytes": {call.response_bytes}, "requests": {call.requests},'
            f' "responses": {call.responses}, "peer": {_json_value(call.peer)}}}\n'
        )
        try:
            self._stream.write(line)
            self._stream.flush()
        except (OSError, ValueError) as exc:  # ValueError: the stream was closed
            if not self._failed:
                self._failed = True
                log.warning("request log: cannot write (%s); further failures are not reported", exc)


class Metrics:
    """A call layer counting calls by method and code, timing them, and gauging calls in flight.

    Each server has its own registry (`registry`), exposed by MetricsEndpoint. Other parts add gauges with `watch`
    (for example the depth of a worker pool's queue). The counts are kept here, in plain dictionaries, and read by
    the registry at each scrape: prometheus_client (and the HTTP server it imports) loads only when a registry is
    asked for, so a server without --metrics-port comes up without it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  #: the counts change on the event loop and are read by the scraping thread
        self._in_flight: dict[tuple[str, str], int] = {}
        self._calls: dict[tuple[str, str, str], int] = {}
        #: (service, method) -> the calls per bucket of LATENCY_BUCKETS (the last: above them all) and their sum
        self._latency: dict[tuple[str, str], tuple[list[int], list[float]]] = {}
        self._watched: list[tuple[str, str, Callable[[], float]]] = []
        self._registry: CollectorRegistry | None = None

    @property
    def registry(self) -> CollectorRegistry:
        """The Prometheus registry of this server's metrics (made, and prometheus_client imported, when first asked
        for)."""
        if self._registry is None:
            from prometheus_client import CollectorRegistry

            registry = CollectorRegistry()
            registry.register(_Collector(self))
            self._registry = registry
        return self._registry

    def watch(self, name: str, documentation: str, read: Callable[[], float]) -> None:
        """Add a gauge `name` whose value is `read()` at each scrape (the hook for a worker pool's queue depth)."""
        with self._lock:
            self._watched.append((name, documentation, read))

    def admit(self, call: Call) -> None:
        """Count the call as in flight."""
        key = (call.service, call.name)
        with self._lock:
            self._in_flight[key] = self._in_flight.get(key, 0) + 1

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Count the call and its code; observe its duration."""
        took = time.monotonic() - call.started
        key = (call.service, call.name)
        counted = (call.service, call.name, code.name)
        bucket = bisect.bisect_left(LATENCY_BUCKETS, took)  # the first bucket whose bound is >= took
        with self._lock:
            self._in_flight[key] -= 1
            self._calls[counted] = self._calls.get(counted, 0) + 1
            latency = self._latency.get(key)
            if latency is None:
                latency = self._latency[key] = ([0] * (len(LATENCY_BUCKETS) + 1), [0.0])
            latency[0][bucket] += 1
            latency[1][0] += took

    def families(self) -> list[Metric]:
        """The metric families of this moment (what a scrape reads)."""
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

        with self._lock:
            in_flight = dict(self._in_flight)
            calls = dict(self._calls)
            latency = {key: (list(buckets), total[0]) for key, (buckets, total) in self._latency.items()}
            watched = list(self._watched)
        labels = ["service", "method"]
        flying = GaugeMetricFamily(CALLS_IN_FLIGHT[0], CALLS_IN_FLIGHT[1], labels=labels)
        for key, value in in_flight.items():
            flying.add_metric(list(key), value)
        counted = CounterMetricFamily(CALLS[0], CALLS[1], labels=[*labels, "code"])
        for counted_key, value in calls.items():
            counted.add_metric(list(counted_key), value)
        timed = HistogramMetricFamily(DURATION[0], DURATION[1], labels=labels)
        bounds = [*(repr(b) for b in LATENCY_BUCKETS), "+Inf"]  # as prometheus_client writes them
        for key, (buckets, total) in latency.items():
            cumulative = list(itertools.accumulate(buckets))
            timed.add_metric(list(key), list(zip(bounds, cumulative, strict=True)), total)
        gauges: list[Metric] = [
            GaugeMetricFamily(name, documentation, value=read()) for name, documentation, read in watched
        ]
        return [counted, timed, flying, *gauges]


CALLS = ("canasta_oracle_calls", "Calls finished, by method and status code.")
DURATION = ("canasta_oracle_call_duration_seconds", "Time from a call's arrival to its end, by method.")
CALLS_IN_FLIGHT = ("canasta_oracle_calls_in_flight", "Calls in progress (streams: open), by method.")


class _Collector:
    """What the registry asks at each scrape: the Metrics' families."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterable[Metric]:
        return self._metrics.families()


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
        from prometheus_client import start_http_server

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
