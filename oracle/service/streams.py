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


async def next_request(requests: AsyncIterator[Request], idle_seconds: float) -> Request | None:
    """The client's next message; None once it half-closed; IdleTimeout after `idle_seconds` of silence."""
    try:
        async with asyncio.timeout(idle_seconds):  # a timer on this task: no task per message, as wait_for makes
            return await anext(requests)
    except StopAsyncIteration:
        return None
    except TimeoutError:
        raise IdleTimeout(f"no message for {idle_seconds:g} s") from None


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
    set_final_status(context, status)
    if client_may_write:
        await drain(requests)


__all__ = ["DRAIN_SECONDS", "QUIET_SECONDS", "IdleTimeout", "drain", "end_stream", "next_request", "set_final_status"]
