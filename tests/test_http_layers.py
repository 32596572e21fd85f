"""Over HTTP, the same layers as over gRPC: bearer token, limits, admission, error codes and details, metrics, TLS,
health, and RefereeGame as a Connect stream over HTTP/2."""

from __future__ import annotations

import asyncio
import base64
import json
import ssl
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from certs import Authority
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.rpc import error_details_pb2
from pyqwest import Client, HTTPTransport, HTTPVersion
from server_harness import QUIET, ServerThread

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.api.v1.oracle_connect import OracleServiceClient
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.config import ConfigError, ServeConfig
from oracle.service.limits import DEFAULT_LIMITS

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "http-token-0123456789"
TIMEOUT = 10.0
SERVICE = "oracle.api.v1.OracleService"
MINIMUM = {"ruleSet": {"id": "classic-4p"}, "runningTotal": 1600}


@pytest.fixture(scope="module")
def book() -> RuleBook:
    return default_rule_book()


@pytest.fixture
def start(book: RuleBook) -> Iterator[Any]:
    servers: list[ServerThread] = []

    def run(**changes: Any) -> ServerThread:
        running = ServerThread(book, replace(QUIET, http_port=0, **changes))
        servers.append(running)
        return running

    try:
        yield run
    finally:
        for running in servers:
            running.close(grace=0)


def _url(running: ServerThread, scheme: str = "http") -> str:
    assert running.server.http is not None
    return f"{scheme}://127.0.0.1:{running.server.http.port}"


def post(
    url: str, path: str, body: Any, headers: dict[str, str] | None = None, context: ssl.SSLContext | None = None
) -> tuple[int, dict[str, Any]]:
    """POST a JSON body (bytes as given, anything else JSON-encoded); the HTTP status and the JSON answer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{url}/{path}", data=data, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT, context=context) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def bad_request(answer: dict[str, Any]) -> error_details_pb2.BadRequest:
    """The google.rpc.BadRequest detail of a Connect error (base64 without padding, as Connect sends it)."""
    (detail,) = [d for d in answer["details"] if d["type"] == "google.rpc.BadRequest"]
    value = detail["value"]
    return error_details_pb2.BadRequest.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))


def test_the_bearer_token_is_required_but_not_for_health(start: Any) -> None:
    url = _url(start(token=TOKEN))
    path = f"{SERVICE}/GetMinimumInitialMeld"
    status, answer = post(url, path, MINIMUM)
    assert (status, answer["code"]) == (401, "unauthenticated")
    assert "missing bearer token" in answer["message"]
    status, answer = post(url, path, MINIMUM, {"Authorization": "Bearer wrong-token"})
    assert (status, answer["code"], answer["message"]) == (401, "unauthenticated", "wrong bearer token")
    status, answer = post(url, path, MINIMUM, {"Authorization": f"Bearer {TOKEN}"})
    assert (status, answer) == (200, {"minimum": 90, "fromScore": 1500})
    status, answer = post(url, "grpc.health.v1.Health/Check", {})
    assert (status, answer) == (200, {"status": "SERVING"})


def test_an_unknown_rule_set_is_not_found_with_its_details(start: Any) -> None:
    status, answer = post(_url(start()), f"{SERVICE}/GetMinimumInitialMeld", {"ruleSet": {"id": "no-such-rules"}})
    assert (status, answer["code"]) == (404, "not_found")
    assert answer["message"].startswith("unknown rule set 'no-such-rules'")
    (detail,) = answer["details"]
    assert detail["type"] == "google.rpc.ResourceInfo"


def test_a_malformed_request_names_the_field_in_a_bad_request_detail(start: Any) -> None:
    table = {"sides": [{"melds": [{"cards": ["CARD_KH", "CARD_QD", "CARD_KS"]}], "hands": [{}]}, {"hands": [{}]}]}
    status, answer = post(_url(start()), f"{SERVICE}/ScoreHand", {"ruleSet": {"id": "classic-2p"}, "table": table})
    assert (status, answer["code"]) == (400, "invalid_argument")
    (violation,) = bad_request(answer).field_violations
    assert violation.field == "table.sides[0].melds[0]"
    assert "different ranks" in violation.description


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"ruleSet": {"id": "classic-4p"}, "runingTotal": 1}', 'no field named "runingTotal"'),
        (b'{"ruleSet": ', "request JSON does not parse"),
        (b'{"runningTotal": "many"}', "runningTotal"),
    ],
    ids=["unknown-field", "truncated", "wrong-type"],
)
def test_json_that_does_not_parse_is_invalid_argument_naming_the_message(start: Any, body: bytes, says: str) -> None:
    status, answer = post(_url(start()), f"{SERVICE}/GetMinimumInitialMeld", body)
    assert (status, answer["code"]) == (400, "invalid_argument")
    assert "oracle.api.v1.GetMinimumInitialMeldRequest" in answer["message"]
    assert says in answer["message"]
    assert bad_request(answer).field_violations[0].description == answer["message"]


def test_a_request_past_max_message_bytes_is_resource_exhausted(start: Any) -> None:
    url = _url(start(limits=replace(DEFAULT_LIMITS, max_message_bytes=200)))
    status, answer = post(url, f"{SERVICE}/GetMinimumInitialMeld", {**MINIMUM, "ruleSet": {"id": "x" * 300}})
    assert (status, answer["code"]) == (429, "resource_exhausted")
    status, answer = post(url, f"{SERVICE}/GetMinimumInitialMeld", MINIMUM)
    assert status == 200


def test_a_request_limit_is_invalid_argument_naming_field_value_and_limit(start: Any) -> None:
    url = _url(start(limits=replace(DEFAULT_LIMITS, max_rule_sets=2)))
    request = json.loads((ROOT / "examples/http/check-action.json").read_text())
    body = {"ruleSets": [{"id": "classic-4p"}] * 3, "state": request["state"], "action": request["action"]}
    status, answer = post(url, f"{SERVICE}/Adjudicate", body)
    assert (status, answer["code"]) == (400, "invalid_argument")
    (violation,) = bad_request(answer).field_violations
    assert violation.field == "rule_sets"
    assert "the limit is 2" in violation.description


def test_admission_control_refuses_past_max_calls(start: Any) -> None:
    running = start(max_calls=1)
    running.server.admission.calls = 1  # one call in progress (as admission counts it)
    try:
        status, answer = post(_url(running), f"{SERVICE}/GetMinimumInitialMeld", MINIMUM)
    finally:
        running.server.admission.calls = 0
    assert (status, answer["code"]) == (429, "resource_exhausted")
    assert "--max-calls 1" in answer["message"]
    assert post(_url(running), f"{SERVICE}/GetMinimumInitialMeld", MINIMUM)[0] == 200


def test_http_calls_are_counted_in_the_same_metrics(start: Any) -> None:
    running = start(metrics_port=0)
    post(_url(running), f"{SERVICE}/GetMinimumInitialMeld", MINIMUM)
    post(_url(running), f"{SERVICE}/GetMinimumInitialMeld", {"ruleSet": {"id": "nope"}})
    assert running.server.metrics_url is not None
    with urllib.request.urlopen(running.server.metrics_url, timeout=TIMEOUT) as answer:
        text = answer.read().decode()
    counted = (
        'canasta_oracle_calls_total{code="%s",method="GetMinimumInitialMeld",service="oracle.api.v1.OracleService"}'
    )
    assert f"{counted % 'OK'} 1.0" in text
    assert f"{counted % 'NOT_FOUND'} 1.0" in text


def test_mutual_tls_over_https(start: Any, tmp_path: Path) -> None:
    ca = Authority("canasta-oracle HTTP test CA")
    cert, key = ca.issue("server", server=True).write(tmp_path, "server")
    client_cert, client_key = ca.issue("client", server=False).write(tmp_path, "client")
    (tmp_path / "ca.crt").write_bytes(ca.pem)
    url = _url(start(tls_cert=cert, tls_key=key, tls_client_ca=tmp_path / "ca.crt"), "https")
    trusting = ssl.create_default_context(cafile=tmp_path / "ca.crt")
    with pytest.raises((ssl.SSLError, urllib.error.URLError, ConnectionError)):
        post(url, f"{SERVICE}/GetMinimumInitialMeld", MINIMUM, context=trusting)
    trusting.load_cert_chain(client_cert, client_key)
    assert post(url, f"{SERVICE}/GetMinimumInitialMeld", MINIMUM, context=trusting)[0] == 200
    with pytest.raises(urllib.error.URLError):
        post(url, f"{SERVICE}/GetMinimumInitialMeld", MINIMUM, context=ssl.create_default_context())


def test_the_http_port_must_differ_from_the_others() -> None:
    with pytest.raises(ConfigError, match="--http-port 50051 is the serving port"):
        ServeConfig(port=50051, http_port=50051)
    with pytest.raises(ConfigError, match="--http-port 9000 is the --metrics-port"):
        ServeConfig(port=50051, metrics_port=9000, http_port=9000)


def _start_message() -> oracle_pb2.RefereeGameRequest:
    return oracle_pb2.RefereeGameRequest(
        start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), full_state=True)
    )


def _client(running: ServerThread, version: HTTPVersion = HTTPVersion.HTTP2) -> OracleServiceClient:
    return OracleServiceClient(_url(running), http_client=Client(HTTPTransport(http_version=version)))


@pytest.mark.parametrize("version", [HTTPVersion.HTTP2, HTTPVersion.HTTP1], ids=["http2", "http1.1"])
def test_referee_game_streams_one_answer_per_message(start: Any, version: HTTPVersion) -> None:
    """Full duplex: each message is sent only after the answer to the one before (over HTTP/1.1 too, with
    this server and a client that streams its request body)."""
    running = start()
    messages = [
        _start_message(),
        oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=1)),
        oracle_pb2.RefereeGameRequest(action=game_pb2.Action(draw=game_pb2.DrawAction())),
    ]

    async def play() -> list[oracle_pb2.RefereeGameResponse]:
        answered = asyncio.Event()

        async def requests() -> AsyncIterator[oracle_pb2.RefereeGameRequest]:
            for message in messages:  # each message only after the answer to the one before: a live exchange
                answered.clear()
                yield message
                await asyncio.wait_for(answered.wait(), TIMEOUT)

        answers = []
        async for answer in _client(running, version).referee_game(requests()):
            answers.append(answer)
            answered.set()
        return answers

    answers = asyncio.run(asyncio.wait_for(play(), 3 * TIMEOUT))
    assert [a.verdict.legal for a in answers] == [True, True, True]
    assert len(answers[1].state.seats) == 2
    assert answers[2].verdict.events[0].WhichOneof("kind") == "cards_drawn"  # the draw was judged and applied


def test_referee_game_ends_with_the_grpc_status_as_a_connect_error(start: Any) -> None:
    running = start()

    async def play() -> None:
        async def requests() -> AsyncIterator[oracle_pb2.RefereeGameRequest]:
            yield _start_message()
            yield oracle_pb2.RefereeGameRequest()  # no kind: INVALID_ARGUMENT, as over gRPC

        async for _ in _client(running).referee_game(requests()):
            pass

    with pytest.raises(ConnectError) as error:
        asyncio.run(asyncio.wait_for(play(), 3 * TIMEOUT))
    assert error.value.code == Code.INVALID_ARGUMENT
    assert "empty message" in error.value.message


def test_a_request_that_cannot_be_a_call_is_told_why(start: Any) -> None:
    url = f"{_url(start())}/{SERVICE}/ListRuleSets"
    form = urllib.request.Request(url, data=b"{}", headers={"Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(form, timeout=TIMEOUT)  # curl -d without -H sends this content type
    assert refused.value.code == 415
    assert refused.value.headers["accept-post"] == "application/json, application/proto"
    assert "Content-Type must be application/json" in refused.value.read().decode()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=TIMEOUT)
    assert (refused.value.code, refused.value.headers["allow"]) == (405, "POST")
    assert "calls are POST requests" in refused.value.read().decode()
    unknown = urllib.request.Request(f"{url}s", data=b"{}", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(unknown, timeout=TIMEOUT)  # ListRuleSetss
    assert refused.value.code == 404
    said = refused.value.read().decode()
    assert "has no method 'ListRuleSetss'" in said and "ListRuleSets, GetRuleSet" in said


def test_connect_timeout_ms_is_the_calls_deadline(start: Any) -> None:
    url = _url(start())
    record = json.loads((ROOT / "conformance/records/classic-4p/game-0.json").read_text())
    status, answer = post(url, f"{SERVICE}/ReplayGame", {"record": record}, {"Connect-Timeout-Ms": "1"})
    assert answer["code"] == "deadline_exceeded", (status, answer)
    status, answer = post(url, f"{SERVICE}/ReplayGame", {"record": record, "summaryOnly": True})
    assert status == 200, answer


def test_referee_game_streams_over_tls_by_alpn(start: Any, tmp_path: Path) -> None:
    ca = Authority("canasta-oracle HTTP/2 test CA")
    cert, key = ca.issue("server", server=True).write(tmp_path, "server")
    running = start(tls_cert=cert, tls_key=key)
    client = OracleServiceClient(_url(running, "https"), http_client=Client(HTTPTransport(tls_ca_cert=ca.pem)))

    async def play() -> list[oracle_pb2.RefereeGameResponse]:
        async def requests() -> AsyncIterator[oracle_pb2.RefereeGameRequest]:
            yield _start_message()
            yield oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=2))

        return [answer async for answer in client.referee_game(requests())]

    answers = asyncio.run(asyncio.wait_for(play(), 3 * TIMEOUT))
    assert [a.verdict.legal for a in answers] == [True, True]
    assert len(answers[1].state.seats) == 2
