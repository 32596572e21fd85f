"""Raw-bytes mutation fuzz over a real server (issue 12): valid requests of every RPC, serialized, with bytes flipped,
inserted, deleted, repeated or cut, sent with an identity serializer. Every answer is OK, INVALID_ARGUMENT,
FAILED_PRECONDITION or NOT_FOUND (DEADLINE_EXCEEDED for long work), never INTERNAL or UNKNOWN, and its trailers fit
a default client. Deterministic: a fixed seed (random.Random), a fixed number of requests per RPC.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import grpc
import pytest
from fuzz_strategies import CALL_TIMEOUT, corpus, fuzz_channel

from oracle.bench.fuzz_calls import UNDECODABLE, call_stream, call_unary
from oracle.bench.fuzz_mutate import mutate_bytes
from oracle.bench.fuzz_seeds import UNARY_RPCS

SEED = 20_240_612
REQUESTS = 40  #: per RPC
#: at most this many per RPC until one gets past decoding (a large seed, a long record, rarely survives a mutation)
MAX_REQUESTS = 200


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    yield from fuzz_channel()


@pytest.mark.parametrize("rpc", UNARY_RPCS)
def test_mutated_request_bytes_get_a_code_a_client_can_act_on(channel, rpc: str) -> None:
    rnd = random.Random(f"{SEED}-{rpc}")
    seeds = [m.SerializeToString() for m in corpus().unary[rpc]]
    decoded = 0
    for sent in range(MAX_REQUESTS):
        if sent >= REQUESTS and decoded:
            break
        payload = mutate_bytes(rnd.choice(seeds), rnd)
        answer = call_unary(channel, rpc, payload, CALL_TIMEOUT)
        assert not answer.faults, f"{rpc}: {answer.faults}\nrequest bytes: {payload.hex()}"
        decoded += not answer.message.startswith(UNDECODABLE)
    assert decoded, "no mutated request got past decoding: the fuzz tests only the decoder"


def test_mutated_stream_messages_get_a_code_a_client_can_act_on(channel) -> None:
    rnd = random.Random(f"{SEED}-RefereeGame")
    for _ in range(REQUESTS):
        payloads = [m.SerializeToString() for m in rnd.choice(corpus().streams)]
        for _ in range(rnd.choice((1, 1, 2, 3))):
            at = rnd.randrange(len(payloads))
            payloads[at] = mutate_bytes(payloads[at], rnd)
        answer = call_stream(channel, payloads, CALL_TIMEOUT)
        assert not answer.faults, f"RefereeGame: {answer.faults}\nmessages: {[p.hex() for p in payloads]}"


@pytest.mark.parametrize(
    ("rpc", "payload"),
    [
        ("CheckAction", b"\xff\xff\xff\xff"),  # issue 12, finding 6: got UNKNOWN naming a Python exception
        ("GetRuleSet", b"\x0a\x05\x0a\x03ab"),
        ("ReplayGame", b"\x0a\x02\x1a\x80"),
        ("ListLegalActions", b"\x18" + b"\xff" * 10),  # a varint longer than 64 bits
        ("DealHand", b"\x0a" + b"\xff" * 9 + b"\x01"),  # a length of 2^64 - 1
    ],
)
def test_known_bad_bytes_are_invalid_argument(channel, rpc: str, payload: bytes) -> None:
    answer = call_unary(channel, rpc, payload, CALL_TIMEOUT)
    assert not answer.faults, answer.faults
    assert answer.code == grpc.StatusCode.INVALID_ARGUMENT
