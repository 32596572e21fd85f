"""Load from h2load, nghttp2's native HTTP/2 load generator, speaking gRPC's framing: runs it and checks each answer.

The Python client of the other server rows spends about as much CPU per call as
the server it loads, on the same cores, so it cannot show what the servers do
with the machine to themselves (serve --workers 2 on 2 cores, say). h2load is
C: a few tens of µs of CPU per call. It sends one request body again and again
(a gRPC request is a POST of length-prefixed messages with `te: trailers`; a
whole recorded game is one stream's body), and it counts HTTP statuses, not gRPC
ones: a failed gRPC call is still HTTP 200. So every run here counts the answer
bytes too, which must be exactly the recorded answers' bytes for each call (a
failed call answers with trailers only, no message), and a run that differs is
an error, never a figure.
"""

from __future__ import annotations

import re
import resource
import shutil
import struct
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import grpc

PROGRAM = "h2load"
INSTALL = "h2load is not installed (Debian: apt-get install nghttp2-client)"
HEADERS = ("content-type: application/grpc", "te: trailers")
TIMEOUT = 600.0  #: seconds one h2load run may take at most


@dataclass(frozen=True)
class Load:
    """One h2load run: what it did and what it cost itself."""

    calls: int  #: requests that succeeded (each one unary call or one whole stream)
    seconds: float  #: the run's wall time, as h2load measured it
    answer_bytes: int  #: the bytes of the answers' DATA frames (gRPC messages with their 5-byte prefixes)
    client_cpu: float  #: h2load's own CPU seconds (user and system)

    @property
    def rate(self) -> float:
        """Calls (or streams) per second."""
        return self.calls / self.seconds if self.seconds > 0 else 0.0


def available() -> bool:
    """Whether h2load is on the PATH."""
    return shutil.which(PROGRAM) is not None


def frame(messages: Sequence[bytes]) -> bytes:
    """The messages as a gRPC body: each one after a 0 (not compressed) and its length, 4 bytes big-endian."""
    return b"".join(b"\x00" + struct.pack(">I", len(m)) + m for m in messages)


_FINISHED = re.compile(r"finished in ([\d.]+)(ms|s|us),")
_REQUESTS = re.compile(
    r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout"
)
_DATA = re.compile(r"\((\d+)\) data")
_UNIT = {"s": 1.0, "ms": 1e-3, "us": 1e-6}


def parse(output: str) -> tuple[int, float, int]:
    """(calls succeeded, wall seconds, answer bytes) from h2load's report; RuntimeError for a run with a failed,
    errored or timed-out request, or a report this does not read."""
    finished, requests, data = _FINISHED.search(output), _REQUESTS.search(output), _DATA.search(output)
    if finished is None or requests is None or data is None:
        raise RuntimeError(f"h2load's report is not as expected: {output[-800:]}")
    total, _, done, succeeded, failed, errored, timeout = (int(n) for n in requests.groups())
    if failed or errored or timeout or succeeded != done or done != total:
        raise RuntimeError(
            f"h2load: {total} requests, {succeeded} succeeded, {failed} failed, {errored} errored, {timeout} timed out"
        )
    return succeeded, float(finished.group(1)) * _UNIT[finished.group(2)], int(data.group(1))


def run(
    port: int,
    method: str,
    body: Path,
    calls: int,
    *,
    answer_bytes: int,
    connections: int,
    headers: Sequence[str] = (),
) -> Load:
    """`calls` requests of `body` to `method` on 127.0.0.1:port over `connections` connections, one request at a
    time on each; RuntimeError when a call failed or any answer is not `answer_bytes` long (framed)."""
    command = [PROGRAM, "-n", str(calls), "-c", str(connections), "-m", "1", "-t", "1", "-d", str(body)]
    for header in (*HEADERS, *headers):
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{port}{method}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = done.stdout.decode("utf-8", "replace")
    if done.returncode != 0:
        raise RuntimeError(f"h2load exited {done.returncode}: {done.stderr.decode('utf-8', 'replace')[-800:]}")
    succeeded, seconds, data = parse(output)
    if data != succeeded * answer_bytes:
        raise RuntimeError(
            f"{method}: {data} answer bytes for {succeeded} calls, not {answer_bytes} each: some calls failed"
            " (a gRPC error is an HTTP 200 with no message)"
        )
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Load(succeeded, seconds, data, cpu)


def unary_answer(port: int, method: str, request: bytes) -> bytes:
    """The server's answer to one unary call (grpc.RpcError if it fails)."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(method)
        answer: bytes = call(request, timeout=60)
        return answer


def stream_answers(
    port: int, method: str, messages: Sequence[bytes], metadata: Sequence[tuple[str, str]]
) -> list[bytes]:
    """The server's answers on one stream that sends `messages` (grpc.RpcError if it fails)."""
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        call: grpc.StreamStreamMultiCallable[bytes, bytes] = channel.stream_stream(method)
        return list(call(iter(messages), metadata=tuple(metadata), timeout=600))


def framed_size(answers: Sequence[bytes]) -> int:
    """The bytes the answers take on the wire as gRPC messages (each with its 5-byte prefix)."""
    return sum(5 + len(a) for a in answers)


__all__ = ["INSTALL", "Load", "available", "frame", "framed_size", "parse", "run", "stream_answers", "unary_answer"]
