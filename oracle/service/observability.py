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

    async def admit(self, call: Call) -> None:
        """Count the call as in flight."""
        key = (call.service, call.name)
        with self._lock:
            self._in_flight[key] = self._in_flight.get(key, 0) + 1

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Count the call and its code; observe its duration."""
        key = (call.service, call.name)
        took = time.monotonic() - call.started
        with self._lock:
            self._in_flight[key] -= 1
            counted = (call.service, call.name, code.name)
            self._calls[counted] = self._calls.get(counted, 0) + 1
            buckets, total = self._latency.setdefault(key, ([0] * (len(LATENCY_BUCKETS) + 1), [0.0]))
            buckets[bisect.bisect_left(LATENCY_BUCKETS, took)] += 1  # the first bucket whose bound is >= took
            total[0] += took

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
