"""Runs the gRPC server as a ServeConfig says, and stops it gracefully: health first, then a drain, then a grace."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

import grpc
from grpc_health.v1 import health_pb2_grpc

from oracle.api.v1 import oracle_pb2
from oracle.build import core_build
from oracle.ruleset.loader import RuleBook
from oracle.service.admission import Admission
from oracle.service.calls import CallLayer, LayeredInterceptor
from oracle.service.config import ServeConfig
from oracle.service.decoding import add_oracle_service
from oracle.service.health import HEALTH_SERVICE, SERVING, HealthService
from oracle.service.observability import Metrics, MetricsEndpoint, RequestLog
from oracle.service.reflection import enable_reflection
from oracle.service.security import TokenCheck, server_credentials
from oracle.service.servicer import OracleServicer
from oracle.service.signals import SignalWatcher

if TYPE_CHECKING:
    from oracle.service.http_server import HttpServer

log = logging.getLogger(__name__)
SERVICE_NAME = oracle_pb2.DESCRIPTOR.services_by_name["OracleService"].full_name


STOP_GRACE = 0.5  #: seconds the gRPC server's own stop always gets, beyond the grace period if need be


class OracleServer:
    """A started server: its health service, bound port, admission counters, metrics; `shutdown()` stops it."""

    def __init__(
        self,
        server: grpc.aio.Server,
        health: HealthService,
        port: int,
        config: ServeConfig,
        admission: Admission,
        metrics: Metrics,
        endpoint: MetricsEndpoint | None,
        log_file: TextIO | None,
        servicer: OracleServicer,
        http: HttpServer | None = None,
    ) -> None:
        self.server = server
        self.http = http  #: the HTTP port (Connect and the web page), when config.http_port is set
        self.servicer = servicer
        self.health = health
        self.port = port
        self.config = config
        self.admission = admission
        self.metrics = metrics
        self.metrics_url = endpoint.url if endpoint is not None else None
        self._endpoint = endpoint
        self._log_file = log_file

    async def shutdown(self, drain: float | None = None, grace: float | None = None) -> None:
        """Stop in three steps (defaults: the config's drain and grace seconds).

        1. Health turns NOT_SERVING at once (Watch streams are told, then ended); calls are still answered for
           `drain` seconds, so that load balancers move away.
        2. New calls are refused (UNAVAILABLE, which clients retry elsewhere); calls in flight may finish, for up
           to `grace` seconds.
        3. The gRPC server stops; calls still running then are cancelled.
        """
        loop = asyncio.get_running_loop()
        self.health.shut_down()
        drain = self.config.drain_seconds if drain is None else drain
        grace = self.config.grace_seconds if grace is None else grace
        if drain > 0:
            await asyncio.sleep(drain)
        self.admission.close()
        closing = loop.time()
        if not await self.admission.wait_quiet(grace) and self.admission.calls + self.admission.streams:
            log.warning("grace period over: cancelling the calls still in flight")
        # At least STOP_GRACE: calls that reach the server as it stops are being refused (UNAVAILABLE) and need a
        # moment to end; with no grace at all gRPC cancels them (CANCELLED, and a traceback from its own code).
        await self.server.stop(max(STOP_GRACE, grace - (loop.time() - closing)))
        if self.http is not None:
            await self.http.stop()
        self.servicer.close()
        if self._endpoint is not None:
            await asyncio.to_thread(self._endpoint.close)
        if self._log_file is not None:
            self._log_file.close()

    async def stop(self, grace: float | None = None) -> None:
        """Shut down without a drain: NOT_SERVING, then calls in flight get up to `grace` seconds."""
        await self.shutdown(drain=0, grace=grace)


async def start_server(book: RuleBook, config: ServeConfig | None = None) -> OracleServer:
    """Start serving `book` as `config` says (port 0 picks a free one); health says SERVING once started.

    Raises OSError (one line, naming the address and why) when the port cannot be bound, and ConfigError for
    unusable TLS files.
    """
    config = config or ServeConfig()
    log_file = None
    if config.log_file is not None and config.request_log:
        log_file = config.log_file.open("a", encoding="utf-8")
    endpoint: MetricsEndpoint | None = None
    servicer: OracleServicer | None = None
    http: HttpServer | None = None
    try:
        metrics = Metrics()
        admission = Admission(config.max_calls, config.max_streams)
        layers: list[CallLayer] = []
        if config.request_log:
            layers.append(RequestLog(log_file or sys.stderr))
        layers.append(metrics)
        if config.token is not None:
            layers.append(TokenCheck(config.token))
        layers.append(admission)
        server = grpc.aio.server(
            interceptors=[LayeredInterceptor(layers)],
            options=[
                ("grpc.so_reuseport", int(config.reuse_port)),
                ("grpc.max_receive_message_length", config.limits.max_message_bytes),
                # Calls that arrive faster than the event loop takes them up wait in gRPC core; past this many it
                # cancels them at once (CANCELLED, gRPC's own code) instead of letting them queue for seconds.
                ("grpc.server.max_pending_requests", config.max_pending),
                ("grpc.server.max_pending_requests_hard_limit", config.max_pending),
            ],
        )
        servicer = OracleServicer(book, config.limits, config.threads, config.long_threads)
        metrics.watch(
            "canasta_oracle_worker_queue",
            "Calls (and stream messages) waiting for a worker thread.",
            servicer.queued,
        )
        add_oracle_service(servicer, server)  # undecodable request bytes: INVALID_ARGUMENT
        health = HealthService([SERVICE_NAME])
        health_pb2_grpc.add_HealthServicer_to_server(health, server)
        if config.reflection:
            enable_reflection(server, (SERVICE_NAME, HEALTH_SERVICE))
        port = _bind(server, config)
        if config.metrics_port is not None:
            endpoint = MetricsEndpoint(
                metrics, config.host, config.metrics_port, config.tls_cert, config.tls_key, config.tls_client_ca
            )
        await server.start()
        if config.http_port is not None:  # the same servicer behind the same layers, over HTTP
            try:
                from oracle.service.http_server import start_http  # Connect and its ASGI server: ~1 s to import

                http = await start_http(servicer, health, layers, config)
            except BaseException:
                await server.stop(0)
                raise
    except BaseException:
        if servicer is not None:
            servicer.close()
        if endpoint is not None:
            endpoint.close()
        if log_file is not None:
            log_file.close()
        raise
    health.set_all(SERVING)
    servicer.warm_up()  # the rules engine loads now, in the background: SERVING does not wait for it
    return OracleServer(server, health, port, config, admission, metrics, endpoint, log_file, servicer, http)


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _bind(server: grpc.aio.Server, config: ServeConfig) -> int:
    """Add the listening port; on failure an OSError saying why in one line (gRPC's own log line is kept back)."""
    address = _address(config.host, config.port)
    credentials = server_credentials(config)
    with _stderr_captured() as captured:
        try:
            if credentials is None:
                bound = server.add_insecure_port(address)
            else:
                bound = server.add_secure_port(address, credentials)
        except RuntimeError:  # grpc raises RuntimeError("Failed to bind ...")
            bound = 0
    said = "".join(captured)
    if bound == 0:
        match = re.search(r"Error in bind for address '[^']*': ([^)\n]+)", said)
        reason = match.group(1).lower() if match else "the address cannot be bound"
        if "in use" in reason:
            reason += " (another process is listening there)"
        raise OSError(f"cannot listen on {address}: {reason}")
    if said:
        sys.stderr.write(said)
    return bound


@contextlib.contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Collect what is written to file descriptor 2 (gRPC core logs there) while the block runs (into the list)."""
    captured: list[str] = []
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to capture
        yield captured
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            captured.append(sink.read().decode("utf-8", "replace"))


def describe(config: ServeConfig) -> str:
    """One line saying how the server is served: transport, authentication, reflection, limits, the core's build."""
    transport = "plaintext"
    if config.tls:
        transport = "TLS, client certificates required" if config.tls_client_ca else "TLS"
    auth = "bearer token required" if config.token is not None else "no authentication"
    reflection = "reflection v1 and v1alpha" if config.reflection else "no reflection"
    return (
        f"{transport}; {auth}; {reflection}; at most {config.max_calls} calls and {config.max_streams} streams"
        f" at once; on SIGTERM: drain {config.drain_seconds:g} s, grace {config.grace_seconds:g} s;"
        f" core: {core_build()}"
    )


async def serve(book: RuleBook, config: ServeConfig, ready: asyncio.Event | None = None) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully; a second signal exits at once (status 128+n)."""
    running = await start_server(book, config)
    stop = asyncio.Event()
    signals = SignalWatcher(asyncio.get_running_loop(), lambda signum: stop.set())
    try:
        if running.metrics_url is not None:
            print(f"canasta-oracle: metrics on {running.metrics_url}", flush=True)
        if running.http is not None:
            print(f"canasta-oracle: HTTP (Connect, JSON) and the web page on {running.http.url}", flush=True)
        print(f"canasta-oracle: {describe(config)}", flush=True)
        where = _address(config.host, running.port)
        log.info("canasta-oracle serving %d rule sets on %s", len(book.ids()), where)
        print(f"canasta-oracle: serving {len(book.ids())} rule sets on {where}", flush=True)
        if ready is not None:
            ready.set()
        await stop.wait()
        print(
            f"canasta-oracle: stopping: health NOT_SERVING, answering for {config.drain_seconds:g} s more, then"
            f" up to {config.grace_seconds:g} s for calls in flight (a second signal exits at once)",
            flush=True,
        )
        await running.shutdown()
        print("canasta-oracle: stopped", flush=True)
    finally:
        signals.close()


__all__ = ["SERVICE_NAME", "OracleServer", "ServeConfig", "describe", "serve", "start_server"]
