"""Layers around every call: one server interceptor runs each layer's admit before the handler and finish after."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc

Context = grpc.aio.ServicerContext[Any, Any]


@dataclass
class Call:
    """One call as the layers see it: which method, how much came and went (sizes in bytes), when it began."""

    method: str  #: the full gRPC method, "/package.Service/Method"
    streaming: bool  #: requests or responses (or both) stream
    context: Context
    started: float = field(default_factory=time.monotonic)
    peer: str = field(init=False)  #: the client's address (read at once: a cancelled call no longer knows it)
    requests: int = 0
    request_bytes: int = 0
    responses: int = 0
    response_bytes: int = 0

    def __post_init__(self) -> None:
        self.peer = self.context.peer()

    @property
    def service(self) -> str:
        """The full service name, e.g. "oracle.api.v1.OracleService"."""
        return self.method.lstrip("/").partition("/")[0]

    @property
    def name(self) -> str:
        """The method's own name, e.g. "CheckAction"."""
        return self.method.rpartition("/")[2]

    def received(self, message: object) -> None:
        """Count one request message."""
        self.requests += 1
        self.request_bytes += _size(message)

    def sent(self, message: object) -> None:
        """Count one response message."""
        self.responses += 1
        self.response_bytes += _size(message)


def _size(message: object) -> int:
    byte_size = getattr(message, "ByteSize", None)  # a protobuf message: its serialized size
    return int(byte_size()) if callable(byte_size) else 0


class CallLayer(Protocol):
    """One concern around every call (authentication, admission control, logging, metrics)."""

    async def admit(self, call: Call) -> None:
        """Let the call in (return), or end it now with `await call.context.abort(...)`."""

    def finish(self, call: Call, code: grpc.StatusCode) -> None:
        """The call this layer admitted has ended with `code` (never raises)."""


def final_code(context: Context, error: BaseException | None) -> grpc.StatusCode:
    """The status a finished handler gave its call: the one set by abort, else from how it ended."""
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code
    if error is None and not context.cancelled():
        return grpc.StatusCode.OK
    if error is None or isinstance(error, asyncio.CancelledError | GeneratorExit):
        remaining = context.time_remaining()
        expired = remaining is not None and remaining <= 0
        return grpc.StatusCode.DEADLINE_EXCEEDED if expired else grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN  # what gRPC answers for an exception a handler let out


class LayeredInterceptor(grpc.aio.ServerInterceptor):
    """Wraps every method handler so that `layers` admit each call in order and finish it in reverse.

    A layer that aborts in admit ends the call: the layers before it still see it finish, those after never see it.
    Handlers may be coroutines or async generators (as grpc.aio calls them); sizes count protobuf messages.
    """

    def __init__(self, layers: Sequence[CallLayer]) -> None:
        self._layers = tuple(layers)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        handler = await continuation(handler_call_details)
        if handler is None or not self._layers:
            return handler
        return self._wrap(handler, handler_call_details.method)

    @contextlib.asynccontextmanager
    async def _around(self, call: Call) -> AsyncIterator[None]:
        admitted: list[CallLayer] = []
        error: BaseException | None = None
        try:
            for layer in self._layers:
                await layer.admit(call)
                admitted.append(layer)
            yield
        except BaseException as exc:
            error = exc
            raise
        finally:
            code = final_code(call.context, error)
            for layer in reversed(admitted):
                layer.finish(call, code)

    def _wrap(self, handler: grpc.RpcMethodHandler[Any, Any], method: str) -> grpc.RpcMethodHandler[Any, Any]:
        streaming = handler.request_streaming or handler.response_streaming
        parts = {
            "request_deserializer": handler.request_deserializer,
            "response_serializer": handler.response_serializer,
        }
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(self._unary(handler.unary_unary, method, False), **parts)
        if handler.stream_unary is not None:
            return grpc.stream_unary_rpc_method_handler(self._unary(handler.stream_unary, method, True), **parts)
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(self._stream(handler.unary_stream, method, False), **parts)
        if handler.stream_stream is not None:
            return grpc.stream_stream_rpc_method_handler(self._stream(handler.stream_stream, method, True), **parts)
        raise TypeError(f"{method}: a method handler without behaviour (streaming={streaming})")

    def _requests(self, request: Any, call: Call, streamed: bool) -> Any:
        """The request (counted), or the request stream wrapped so that each message is counted as it is read."""
        if not streamed:
            call.received(request)
            return request

        async def counted() -> AsyncIterator[Any]:
            async for message in request:
                call.received(message)
                yield message

        return counted()

    def _unary(self, behaviour: Callable[..., Any], method: str, streamed: bool) -> Callable[..., Any]:
        async def unary(request: Any, context: Context) -> Any:
            call = Call(method, streamed, context)
            requests = self._requests(request, call, streamed)
            async with self._around(call):
                response = behaviour(requests, context)
                if inspect.isawaitable(response):
                    response = await response
                call.sent(response)
            return response

        return unary

    def _stream(self, behaviour: Callable[..., Any], method: str, streamed: bool) -> Callable[..., Any]:
        if not inspect.isasyncgenfunction(behaviour):
            return self._writer_stream(behaviour, method, streamed)

        async def stream(request: Any, context: Context) -> AsyncIterator[Any]:
            call = Call(method, True, context)
            responses = behaviour(self._requests(request, call, streamed), context)
            async with self._around(call), contextlib.aclosing(responses):
                async for response in responses:
                    call.sent(response)
                    yield response

        return stream

    def _writer_stream(self, behaviour: Callable[..., Any], method: str, streamed: bool) -> Callable[..., Any]:
        """A streaming handler that writes with context.write (its responses are not counted) or is a generator."""

        async def stream(request: Any, context: Context) -> None:
            call = Call(method, True, context)
            requests = self._requests(request, call, streamed)
            async with self._around(call):
                result = behaviour(requests, context)
                if inspect.isawaitable(result):
                    await result
                elif isinstance(result, Iterable):
                    for response in result:
                        call.sent(response)
                        await context.write(response)

        return stream


__all__ = ["Call", "CallLayer", "Context", "LayeredInterceptor", "final_code"]
