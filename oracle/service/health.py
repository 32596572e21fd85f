"""The gRPC health service; on shutdown every service turns NOT_SERVING and open Watch streams say so, then end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
Status = int  #: a health_pb2.HealthCheckResponse.ServingStatus value
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
SERVICE_UNKNOWN = health_pb2.HealthCheckResponse.SERVICE_UNKNOWN


class HealthService(health_pb2_grpc.HealthServicer):
    """grpc.health.v1.Health for a fixed set of service names ("" is the whole server), NOT_SERVING until set.

    After `shut_down()` every name is NOT_SERVING for good, and each Watch stream ends (status OK) once it has sent
    that, so that watchers do not hold the server's grace period.
    """

    def __init__(self, services: Iterable[str]) -> None:
        self._status: dict[str, Status] = dict.fromkeys(["", *services], NOT_SERVING)
        self._changed = asyncio.Event()
        self._shut_down = False

    def status(self, service: str) -> Status | None:
        """The status of `service`, or None for a name this server does not know."""
        return self._status.get(service)

    def set_all(self, status: Status) -> None:
        """Set every service's status (ignored after shut_down)."""
        if self._shut_down:
            return
        for service in self._status:
            self._status[service] = status
        self._notify()

    def shut_down(self) -> None:
        """Every service NOT_SERVING from now on; Watch streams send that and end."""
        for service in self._status:
            self._status[service] = NOT_SERVING
        self._shut_down = True
        self._notify()

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def Check(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> health_pb2.HealthCheckResponse:
        """The status of one service; NOT_FOUND for a name this server does not know."""
        status = self._status.get(request.service)
        if status is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no service named {request.service[:200]!r}")
        return health_pb2.HealthCheckResponse(status=status)

    async def Watch(
        self, request: health_pb2.HealthCheckRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[health_pb2.HealthCheckResponse]:
        """The status now and at every change (SERVICE_UNKNOWN for an unknown name); ends after shutdown."""
        last: Status | None = None
        while True:
            changed = self._changed  # taken before reading, so a change while sending is not missed
            status = self._status.get(request.service, SERVICE_UNKNOWN)
            if status != last:
                yield health_pb2.HealthCheckResponse(status=status)
                last = status
                continue  # read again: the status may have changed while the answer was being sent
            if self._shut_down:
                return
            await changed.wait()


__all__ = ["HEALTH_SERVICE", "NOT_SERVING", "SERVING", "HealthService"]
