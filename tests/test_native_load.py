"""h2load as the benchmark's native load generator: its report is read exactly, a gRPC failure (an HTTP 200 with no
message) is never counted as a call, and a real run against a live oracle counts each call it asked for."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracle.bench import native_load
from oracle.bench.procs import Server, wait_serving
from oracle.bench.serving import CHECK_METHOD, oracle_serve
from oracle.bench.states import bench_records, positions, request_bytes, sample
from oracle.ruleset.loader import default_rule_book

REPORT = """finished in 897.06ms, 2229.51 req/s, 574.17KB/s
requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout
status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx
traffic: 515.06KB (527426) total, 7.03KB (7200) headers (space savings 95.56%), 396.48KB (406000) data
"""


def test_a_report_gives_the_calls_the_seconds_and_the_answer_bytes() -> None:
    assert native_load.parse(REPORT) == (2000, pytest.approx(0.89706), 406000)
    assert native_load.parse(REPORT.replace("897.06ms", "2.5s"))[1] == pytest.approx(2.5)


@pytest.mark.parametrize(
    "counts",
    [
        "2000 total, 2000 started, 2000 done, 1999 succeeded, 1 failed, 0 errored, 0 timeout",
        "2000 total, 2000 started, 2000 done, 1999 succeeded, 0 failed, 1 errored, 0 timeout",
        "2000 total, 2000 started, 1999 done, 1999 succeeded, 0 failed, 0 errored, 1 timeout",
    ],
)
def test_a_run_with_a_failed_request_is_an_error_not_a_figure(counts: str) -> None:
    with pytest.raises(RuntimeError, match="h2load: 2000 requests"):
        native_load.parse(
            REPORT.replace(
                "2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored, 0 timeout", counts
            )
        )
    with pytest.raises(RuntimeError, match="not as expected"):
        native_load.parse("h2load: could not connect")


def test_messages_are_framed_as_grpc_sends_them() -> None:
    body = native_load.frame([b"ab", b""])
    assert body == b"\x00" + struct.pack(">I", 2) + b"ab" + b"\x00\x00\x00\x00\x00"
    assert native_load.framed_size([b"ab", b""]) == len(body)


@pytest.fixture(scope="module")
def oracle_port() -> Iterator[int]:
    assert native_load.available(), native_load.INSTALL  # scripts/test-setup installs it
    with Server(oracle_serve(1)) as server:
        wait_serving(server.port)
        yield server.port


@pytest.fixture(scope="module")
def request_body(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Path]:
    measured, _ = sample(positions(default_rule_book(), bench_records()), 1)
    request = request_bytes(measured[0])
    body = tmp_path_factory.mktemp("h2load") / "check.grpc"
    body.write_bytes(native_load.frame([request]))
    return request, body


@pytest.mark.slow
def test_h2load_counts_every_call_and_its_answer(oracle_port: int, request_body: tuple[bytes, Path]) -> None:
    request, body = request_body
    answer = native_load.unary_answer(oracle_port, CHECK_METHOD, request)
    assert answer  # a CheckActionResponse: the answer h2load's calls must each get
    load = native_load.run(
        oracle_port, CHECK_METHOD, body, 40, answer_bytes=native_load.framed_size([answer]), connections=4
    )
    assert load.calls == 40 and load.answer_bytes == 40 * (5 + len(answer))
    assert load.seconds > 0 and load.rate > 0 and load.client_cpu >= 0


@pytest.mark.slow
def test_a_call_that_fails_in_grpc_fails_the_run(oracle_port: int, request_body: tuple[bytes, Path]) -> None:
    _, body = request_body
    # an unknown method is UNIMPLEMENTED: HTTP 200 with the status in its trailers, which h2load counts as a success
    with pytest.raises(RuntimeError, match="some calls failed"):
        native_load.run(
            oracle_port, "/oracle.api.v1.OracleService/NoSuchMethod", body, 8, answer_bytes=10, connections=2
        )
    # the right method but an answer of another size (another position's answer) fails it too
    with pytest.raises(RuntimeError, match="some calls failed"):
        native_load.run(oracle_port, CHECK_METHOD, body, 8, answer_bytes=7, connections=2)
