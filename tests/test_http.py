"""`serve --http-port` as a process: the README's curl examples run as written, answers as over gRPC, the page."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent
README_HOST = "localhost:8080"  #: the address the README's examples use
START_TIMEOUT = 60.0
CALL_TIMEOUT = 10.0
HTTP_LINE = re.compile(r"^canasta-oracle: HTTP .* on http://127\.0\.0\.1:(\d+)/$")
GRPC_LINE = re.compile(r"^canasta-oracle: serving \d+ rule sets on 127\.0\.0\.1:(\d+)$")
STATUS_LINE = re.compile(r"^HTTP \d{3}$")


@dataclass(frozen=True)
class Server:
    """A running `canasta-oracle serve --http-port 0`: its gRPC and HTTP ports."""

    grpc_port: int
    http_port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("serve") / "out.txt"
    args = [sys.executable, "-m", "oracle.cli.main", "serve", "--port", "0", "--http-port", "0", "--workers", "1"]
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        ports: dict[str, int] = {}
        while len(ports) < 2:
            assert proc.poll() is None, f"serve exited with {proc.returncode}: {log.read_text()}"
            assert time.monotonic() < deadline, f"serve did not start: {log.read_text()}"
            for line in log.read_text().splitlines():
                for name, pattern in (("http", HTTP_LINE), ("grpc", GRPC_LINE)):
                    if match := pattern.match(line):
                        ports[name] = int(match.group(1))
            time.sleep(0.1)
        yield Server(ports["grpc"], ports["http"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@dataclass(frozen=True)
class Example:
    """One `$ curl ...` line of the README and the answer shown under it."""

    command: str
    shown: str


def readme_examples() -> list[Example]:
    """Every console block of README.md whose first line is `$ curl`: the command and the output shown."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        first, _, rest = block.partition("\n")
        if first.startswith("$ curl "):
            examples.append(Example(first.removeprefix("$ "), rest.strip()))
    return examples


EXAMPLES = readme_examples()


def _split_status(output: str) -> tuple[str, str | None]:
    """The JSON part of an answer and its `HTTP nnn` line (from curl -w), if it ends with one."""
    body, _, last = output.strip().rpartition("\n")
    if STATUS_LINE.match(last):
        return body, last
    return output.strip(), None


def contained(shown: Any, actual: Any) -> bool:
    """Whether the README's (possibly shortened) answer is part of the real one: every key shown has a value that
    is contained in the real value; the items of a list shown are real items, in their order; scalars are equal."""
    if isinstance(shown, dict):
        return isinstance(actual, dict) and all(k in actual and contained(v, actual[k]) for k, v in shown.items())
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return False
        position = 0
        for item in shown:
            while position < len(actual) and not contained(item, actual[position]):
                position += 1
            if position == len(actual):
                return False
            position += 1
        return True
    return bool(shown == actual)


def test_the_readme_shows_each_kind_of_call() -> None:
    methods = {re.search(r"OracleService/(\w+)", e.command).group(1) for e in EXAMPLES}  # type: ignore[union-attr]
    assert {"CheckAction", "ScoreHand", "ListRuleSets"} <= methods
    assert any(_split_status(e.shown)[1] == "HTTP 400" for e in EXAMPLES), "no error example"
    assert all(README_HOST in e.command for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.command.split("OracleService/")[1].split()[0])
def test_readme_curl_example_answers_as_shown(example: Example, server: Server) -> None:
    assert shutil.which("curl"), "curl is needed to run the README's examples (.ci/run installs it)"
    command = example.command.replace(README_HOST, f"127.0.0.1:{server.http_port}")
    # As a reader's shell runs it (the examples pipe curl into python3 -m json.tool); any failing part fails.
    shell = ["bash", "-o", "pipefail", "-c", command]
    done = subprocess.run(shell, cwd=ROOT, capture_output=True, text=True, timeout=CALL_TIMEOUT, check=True)
    shown_body, shown_status = _split_status(example.shown)
    body, status = _split_status(done.stdout)
    assert status == shown_status
    actual = json.loads(body)
    assert contained(json.loads(shown_body), actual), f"README shows:\n{shown_body}\nthe server answers:\n{body}"


def _post(server: Server, method: str, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{server.url}/oracle.api.v1.OracleService/{method}", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=CALL_TIMEOUT) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(
    ("method", "path"),
    [("CheckAction", "examples/http/check-action.json"), ("ScoreHand", "examples/http/score-hand.json")],
)
def test_http_answers_what_grpc_answers(method: str, path: str, server: Server) -> None:
    body = (ROOT / path).read_bytes()
    status, answer = _post(server, method, body)
    assert status == 200
    request_type = getattr(oracle_pb2, f"{method}Request")
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        response = getattr(stub, method)(json_format.Parse(body, request_type()), timeout=CALL_TIMEOUT)
    assert answer == json.loads(json_format.MessageToJson(response))


def test_the_page_is_served_at_the_root(server: Server) -> None:
    with urllib.request.urlopen(f"{server.url}/", timeout=CALL_TIMEOUT) as answer:
        assert answer.status == 200
        assert answer.headers["content-type"].startswith("text/html")
        assert b"<html" in answer.read().lower()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{server.url}/no-such-file.js", timeout=CALL_TIMEOUT)
    assert missing.value.code == 404


def test_worker_processes_share_the_http_port(tmp_path: Path) -> None:
    """serve --workers 2 (the container's default is one per processor): both ports shared, every call answered."""
    log = tmp_path / "out.txt"
    args = [sys.executable, "-m", "oracle.cli.main", "serve", "--port", "0", "--http-port", "0", "--workers", "2"]
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not (found := re.search(r"HTTP .* on http://127\.0\.0\.1:(\d+)/", log.read_text())):
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        server = Server(0, int(found.group(1)))
        body = b'{"ruleSet": {"id": "classic-4p"}, "runningTotal": 1600}'
        answers = [_post(server, "GetMinimumInitialMeld", body) for _ in range(8)]
        assert answers == [(200, {"minimum": 90, "fromScore": 1500})] * 8
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0, log.read_text()
