"""Reading a client stream with an idle timeout, and ending a stream so the client reads the intended status.

Ending a bidirectional stream while the client is still writing is racy in
some client libraries: grpc's asyncio client reports INTERNAL instead of the
server's status when one of its writes is in flight as the stream closes
(grpc issue 36066), whether the server aborts or returns. So `end_stream`
does not abort: it records the final status on the context, then reads and
drops what the client still sends until the client half-closes, goes quiet
for a moment (it is waiting for an answer, so no write is in flight) or a
short drain window passes, and only then lets the handler return. A client
that stops writing within the window always reads the intended code; one
that keeps writing for longer may still meet its library's bug.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import grpc
from google.rpc import status_pb2
from grpc_status import rpc_status

Request = TypeVar("Request")
Context = grpc.aio.ServicerContext[Any, Any]

DRAIN_SECONDS = 5.0  #: longest time a stream's end waits for the client to stop writing
QUIET_SECONDS = 0.5
"""A client silent this long is waiting for an answer, not writing, so the stream may end: long enough that a
client still writing on a loaded machine is not taken for one that stopped, and the delay an error on a stream
adds for a client that waits for each answer."""


class IdleTimeout(Exception):
    """The client sent nothing for longer than the stream's idle limit."""


class _IdleWatch:
    """One stream task's idle timer, moved lazily: each wait for a message notes when it began, and the timer, when
    it fires, cancels the task only if the wait going on began `idle` seconds before its own time (re-arming itself
    for that wait's deadline otherwise). A message costs a clock read, not a timer set and cancelled; the task is
    cancelled exactly as asyncio.timeout would have (same moment, same uncancel bookkeeping)."""

    __slots__ = ("_handle", "_loop", "_task", "_when", "began", "cancelling", "fired", "idle", "waiting")

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self._task = weakref.ref(task)
        self._loop = task.get_loop()
        self._handle: asyncio.TimerHandle | None = None
        self._when = 0.0
        self.began = 0.0
        self.idle = 0.0
        self.waiting = False
        self.fired = False
        self.cancelling = 0

    def begin(self, task: asyncio.Task[Any], idle: float) -> None:
        """A wait for a message begins now; `idle` seconds of it time the task out."""
        self.began = self._loop.time()
        self.idle = idle
        self.cancelling = task.cancelling()
        self.waiting = True
        deadline = self.began + idle
        if self._handle is None:
            self._arm(deadline)
        elif self._when > deadline:  # a shorter limit than the timer's wait had: the timer comes forward
            self._handle.cancel()
            self._arm(deadline)

    def _arm(self, when: float) -> None:
        self._when = when
        self._handle = self._loop.call_at(when, self._due)

    def _due(self) -> None:
        self._handle = None
        if not self.waiting:
            return  # the next wait arms the timer again
        deadline = self.began + self.idle
        if deadline > self._when:
            self._arm(deadline)  # the wait going on began later than the one this timer was set for
            return
        task = self._task()
        if task is not None:
            self.fired = True
            task.cancel()

    def end(self) -> bool:
        """The wait is over; whether the timer cancelled the task and no one else did (it timed out)."""
        self.waiting = False
        if not self.fired:
            return False
        self.fired = False
        task = self._task()
        return task is not None and task.uncancel() <= self.cancelling

    def close(self) -> None:
        """No more waits: drop the timer."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


_WATCHES: weakref.WeakKeyDictionary[asyncio.Task[Any], _IdleWatch] = weakref.WeakKeyDictionary()
"""The idle watch of each stream task waiting in next_request (gone with its task)."""


async def next_request(requests: AsyncIterator[Request], idle_seconds: float) -> Request | None:
    """The client's next message; None once it half-closed; IdleTimeout after `idle_seconds` of silence."""
    task = asyncio.current_task()
    if task is None or not idle_seconds > 0:
        return await _next_request_timed(requests, idle_seconds)
    watch = _WATCHES.get(task)
    if watch is None:
        watch = _WATCHES[task] = _IdleWatch(task)
    watch.begin(task, idle_seconds)
    try:
        return await anext(requests)
    except StopAsyncIteration:
        _forget(task)
        return None
    except asyncio.CancelledError:
        timed_out = watch.end()
        _forget(task)  # the stream ends either way
        if timed_out:
            raise IdleTimeout(f"no message for {idle_seconds:g} s") from None
        raise
    finally:
        watch.end()


async def _next_request_timed(requests: AsyncIterator[Request], idle_seconds: float) -> Request | None:
    """next_request with a timer of its own (outside a task, or a limit that is already past)."""
    try:
        async with asyncio.timeout(idle_seconds):
            return await anext(requests)
    except StopAsyncIteration:
        return None
    except TimeoutError:
        raise IdleTimeout(f"no message for {idle_seconds:g} s") from None


def _forget(task: asyncio.Task[Any] | None) -> None:
    """The stream task waits for no more messages: its idle timer goes."""
    if task is not None:
        watch = _WATCHES.pop(task, None)
        if watch is not None:
            watch.close()


def set_final_status(context: Context, status: status_pb2.Status) -> None:
    """Record `status` (code, message and its google.rpc details) as the call's final status, without aborting."""
    final = rpc_status.to_status(status)
    context.set_code(final.code)
    context.set_details(final.details)
    context.set_trailing_metadata(final.trailing_metadata)


async def drain(requests: AsyncIterator[Any], window: float = DRAIN_SECONDS, quiet: float = QUIET_SECONDS) -> int:
    """Read and drop the client's messages until it half-closes, is silent for `quiet` s, or `window` s pass.

    Returns how many messages were dropped.
    """
    dropped = 0
    loop = asyncio.get_running_loop()
    ends = loop.time() + window
    while (left := ends - loop.time()) > 0:
        try:
            await asyncio.wait_for(anext(requests), min(quiet, left))
        except (StopAsyncIteration, TimeoutError):
            break
        dropped += 1
    return dropped


async def end_stream(
    context: Context, status: status_pb2.Status, requests: AsyncIterator[Any], *, client_may_write: bool = True
) -> None:
    """End a stream with `status` so a client that is still writing reads it (see the module docstring).

    The handler returns right after this. With `client_may_write` False (the
    client has been silent, e.g. past its idle limit) there is nothing to drain.
    """
    _forget(asyncio.current_task())
    set_final_status(context, status)
    if client_may_write:
        await drain(requests)


__all__ = ["DRAIN_SECONDS", "QUIET_SECONDS", "IdleTimeout", "drain", "end_stream", "next_request", "set_final_status"]
