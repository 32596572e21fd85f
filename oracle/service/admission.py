"""Admission control: at most so many unary calls in progress and streams open (beyond: RESOURCE_EXHAUSTED at
once), and none at all once the server is closing (UNAVAILABLE); health is exempt."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

import grpc

from oracle.service.calls import Call
from oracle.service.health import HEALTH_SERVICE

EXEMPT = frozenset({HEALTH_SERVICE})  #: health must answer however busy the server is
QUIET_SECONDS = 0.1  #: after close: how long no admitted call may start or end before the server counts as quiet
POLL_SECONDS = 0.02


class Admission:
    """A call layer that bounds concurrent unary calls (`max_calls`) and open streams (`max_streams`).

    A call past its bound is refused before any work with RESOURCE_EXHAUSTED (which clients may retry) and a
    message naming the limit. After `close()` every new call is refused with UNAVAILABLE, and `wait_quiet` tells
    when the calls already admitted have all ended. Health calls are neither counted nor refused.
    """

    def __init__(self, max_calls: int, max_streams: int) -> None:
        self.max_calls = max_calls
        self.max_streams = max_streams
        self.calls = 0  #: unary calls in progress
        self.streams = 0  #: streams open
        self.closed = False
        #: time.monotonic() when a call last started or ended (not the loop's time: asyncio.get_running_loop asks the
        #: system for the process id at each call, twice per call here)
        self._last_activity = 0.0

    def admit(self, call: Call) -> Awaitable[None] | None:
        """Count the call in, or refuse it (the abort to await) when the server is closing or the call's kind is at
        its limit."""
        if call.service in EXEMPT:
            return None
        if self.closed:
            return call.context.abort(
                grpc.StatusCode.UNAVAILABLE, "the server is shutting down: send the call to another server"
            )
        if call.streaming:
            if self.streams >= self.max_streams:
                return call.context.abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"server busy: {self.streams} streams open, the limit (--max-streams {self.max_streams});"
                    " retry later",
                )
            self.streams += 1
        else:
            if self.calls >= self.max_calls:
                return call.context.abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"server busy: {self.calls} calls in progress, the limit (--max-calls {self.max_calls});"
                    " retry later",
                )
            self.calls += 1
        # Only admitted calls count as activity: calls refused while closing must not hold the server open (under
        # steady load they never stop coming, and the whole grace period would pass before the server stops).
        self._last_activity = time.monotonic()
        return None

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """Count the call out."""
        if call.service in EXEMPT:
            return
        if call.streaming:
            self.streams -= 1
        else:
            self.calls -= 1
        self._last_activity = time.monotonic()

    def close(self) -> None:
        """Refuse every call from now on (UNAVAILABLE); those admitted carry on."""
        self.closed = True

    async def wait_quiet(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds until every admitted call has ended and for QUIET_SECONDS none has started
        or ended (calls admitted just before `close` have reached the servicer by then); whether that happened in
        time. Calls refused meanwhile do not count: the server's stop, given a grace of its own, lets them get
        their UNAVAILABLE."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if self.calls == 0 and self.streams == 0 and now - self._last_activity >= QUIET_SECONDS:
                return True
            if now >= deadline:
                return False
            await asyncio.sleep(min(POLL_SECONDS, deadline - now))


__all__ = ["EXEMPT", "Admission"]
