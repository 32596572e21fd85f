"""Hypothesis strategies shared by the fuzz tests: mutated and generated requests of every RPC, and a fuzz server.

The requests come from oracle.bench.fuzz_mutate (the long fuzz's own
mutator) with hypothesis driving its random choices (st.randoms), so a
failure shrinks to fewer, simpler mutations; the seeds are valid requests of
a small corpus built from the shipped records, conformance cases and specs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Any

import grpc
from google.protobuf import text_format
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_harness import ServerThread

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_calls import call_unary
from oracle.bench.fuzz_mutate import Mutator
from oracle.bench.fuzz_seeds import Corpus, build_corpus, request_class
from oracle.ruleset.loader import default_rule_book

CALL_TIMEOUT = 30.0  #: seconds a fuzzed call may take (generous: the machine may be busy; none comes near)


def fuzz_settings(max_examples: int) -> settings:
    """Deterministic (derandomised, no example database), a fixed number of examples, no time limits."""
    return settings(
        derandomize=True,
        database=None,
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@functools.cache
def corpus() -> Corpus:
    """The seed corpus: 4 shipped records (2 per rule set), every 40th decision, a tenth of the conformance cases."""
    return build_corpus(default_rule_book(), records=4, every=40)


@functools.cache
def mutator() -> Mutator:
    """The mutator over the corpus's sub-messages and known words."""
    return Mutator(corpus().donors(), corpus().words)


def _made(rpc: str, mode: int, index: int, rnd: Any) -> Message:
    seeds = corpus().unary[rpc]
    if mode == 0:  # one in ten: a message generated from the descriptor alone
        return mutator().generate(request_class(rpc).DESCRIPTOR, rnd)
    return mutator().mutate(seeds[index % len(seeds)], rnd)


def requests(rpc: str) -> st.SearchStrategy[Message]:
    """Requests of a unary RPC: mutations of a valid one (nine in ten) or generated from the descriptor."""
    return st.builds(
        functools.partial(_made, rpc),
        st.integers(0, 9),
        st.integers(0, len(corpus().unary[rpc]) - 1),
        st.randoms(use_true_random=False, note_method_calls=False),
    )


def _stream(index: int, rnd: Any) -> list[oracle_pb2.RefereeGameRequest]:
    seeds = corpus().streams
    return mutator().mutate_stream(seeds[index % len(seeds)], rnd)


def streams() -> st.SearchStrategy[list[oracle_pb2.RefereeGameRequest]]:
    """RefereeGame streams: a valid game's messages mutated, dropped, repeated, swapped, added or cut."""
    return st.builds(
        _stream,
        st.integers(0, len(corpus().streams) - 1),
        st.randoms(use_true_random=False, note_method_calls=False),
    )


@functools.cache
def mutator_of(corpus: Callable[[], Corpus]) -> Mutator:
    """The mutator over the sub-messages and known words of a game's own seed corpus (a cached function)."""
    return Mutator(corpus().donors(), corpus().words)


def mutated_seeds(corpus: Callable[[], Corpus], rpc: str) -> st.SearchStrategy[Message]:
    """Mutations of the requests of `rpc` in a game's own seed corpus (a cached function, built when a request is
    first drawn)."""

    def made(index: int, rnd: Any) -> Message:
        seeds = corpus().unary[rpc]
        return mutator_of(corpus).mutate(seeds[index % len(seeds)], rnd)

    return st.builds(
        made,
        st.integers(0, len(corpus().unary[rpc]) - 1),
        st.randoms(use_true_random=False, note_method_calls=False),
    )


def check_requests(corpus: Corpus) -> list[oracle_pb2.CheckActionRequest]:
    """The corpus's CheckAction requests."""
    return [r for r in corpus.unary["CheckAction"] if isinstance(r, oracle_pb2.CheckActionRequest)]


def assert_answered(
    channel: grpc.Channel, rpc: str, requests: Sequence[Message], accepted: Collection[grpc.StatusCode]
) -> None:
    """Each request of `rpc` is answered without a fault and with a status code of `accepted`."""
    for request in requests:
        answer = call_unary(channel, rpc, request.SerializeToString(), CALL_TIMEOUT)
        assert not answer.faults and answer.code in accepted, (answer, shown(request))


def assert_no_fault(channel: grpc.Channel, rpc: str, requests: st.SearchStrategy[Message], examples: int) -> None:
    """`examples` requests of `rpc` drawn from `requests` (fuzz_settings) are each answered without a fault: no
    INTERNAL or UNKNOWN status, no broken answer."""

    @fuzz_settings(examples)
    @given(request=requests)
    def fuzzed(request: Message) -> None:
        answer = call_unary(channel, rpc, request.SerializeToString(), CALL_TIMEOUT)
        assert not answer.faults, f"{rpc}: {answer.faults}\n{shown(request)}"

    fuzzed()


def parse(rpc: str, text: str) -> Message:
    """A request of `rpc` from its text format (for @example)."""
    return text_format.Parse(text, request_class(rpc)())


def fuzz_channel() -> Iterator[grpc.Channel]:
    """A default client channel to a real server of the shipped rule sets (for a module-scoped fixture)."""
    server = ServerThread(default_rule_book())
    channel = grpc.insecure_channel(server.address)
    try:
        yield channel
    finally:
        channel.close()
        server.close()


def shown(request: Message | list[Message]) -> str:
    """A request as text for an assertion message (cut to 3,000 characters)."""
    if isinstance(request, list):
        text = "\n---\n".join(text_format.MessageToString(m) for m in request)
    else:
        text = text_format.MessageToString(request)
    return text if len(text) <= 3000 else text[:3000] + "..."
