"""A bounded fuzz of Samba's requests over a real server: the seeds (oracle.bench.fuzz_runs) are samba-4p positions
whose actions name a meld (onto, new) or combine two, under samba-4p and inline rule sets extending it; their
mutations are answered with a code a client can act on (never INTERNAL or UNKNOWN), as tests/test_fuzz_rpc.py asks
of every RPC. Deterministic: derandomised, a fixed number of examples per RPC."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import grpc
import pytest
from fuzz_strategies import assert_answered, assert_no_fault, check_requests, fuzz_channel, mutated_seeds

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_runs import add_runs_positions, names_a_meld
from oracle.bench.fuzz_seeds import Corpus, build_corpus
from oracle.model.actions import Combine
from oracle.model.errors import InvalidInputError
from oracle.rules.state_check import InvalidStateError
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_from_proto

EXAMPLES = 100  #: per RPC
RPCS = ("CheckAction", "ListLegalActions", "Adjudicate", "ValidateState")
#: A valid seed is judged, or refused by an inline rule set's field (a run where runs.min_size is 0)
ACCEPTED = (grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION)


@functools.cache
def samba_corpus() -> Corpus:
    """Every 8th position of the simulated samba-4p hand, and those whose action names a meld or combines."""
    corpus = Corpus(words=sorted(default_rule_book().ids()))
    add_runs_positions(corpus, default_rule_book(), every=8)
    return corpus


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    yield from fuzz_channel()


def test_the_seeds_hold_samba_actions_that_name_a_meld_or_combine() -> None:
    checks = check_requests(samba_corpus())
    actions = [action_from_proto(r.action) for r in checks]
    assert any(isinstance(a, Combine) for a in actions)
    groups = [r.action.meld.groups for r in checks] + [r.action.take_pile.melds for r in checks]
    assert any(g.onto for gs in groups for g in gs) and any(g.new_meld for gs in groups for g in gs)
    assert any(r.action.take_pile.onto for r in checks)
    assert sum(names_a_meld(a) for a in actions) > len(actions) // 2
    api = OracleApi(default_rule_book())
    answers = [api.CheckAction(r) for r in checks if r.rule_set.id]
    assert any(a.legal for a in answers) and any(not a.legal for a in answers)  # candidates are judged, not echoed
    houses = [r for r in checks if r.rule_set.inline.extends == "samba-4p"]

    def answer(request: oracle_pb2.CheckActionRequest) -> object:
        try:
            verdict = api.CheckAction(request)
        except (InvalidInputError, InvalidStateError):  # a run on the table or in the action where runs are off
            return "refused"
        return verdict.legal, sorted(v.code for v in verdict.violations)

    def under_samba(request: oracle_pb2.CheckActionRequest) -> oracle_pb2.CheckActionRequest:
        same = oracle_pb2.CheckActionRequest()
        same.CopyFrom(request)
        same.rule_set.CopyFrom(oracle_pb2.RuleSetRef(id="samba-4p"))
        return same

    changed = [r for r in houses if answer(r) != answer(under_samba(r))]
    assert houses and changed  # an inline rule set without combining (or runs) refuses some samba-4p allows


def test_the_whole_fuzz_corpus_holds_the_samba_seeds() -> None:
    corpus = build_corpus(default_rule_book(), records=4, every=40)
    combines = [r for r in check_requests(corpus) if r.action.HasField("combine")]
    assert any(r.rule_set.id == "samba-4p" for r in combines)
    # a combine under an inline rule set extending samba-4p: only the seeds of oracle.bench.fuzz_runs send one
    assert any(r.rule_set.inline.extends == "samba-4p" for r in combines)


@pytest.mark.parametrize("rpc", RPCS)
def test_the_samba_seeds_are_answered(channel: grpc.Channel, rpc: str) -> None:
    assert_answered(channel, rpc, samba_corpus().unary[rpc][::3], ACCEPTED)


@pytest.mark.parametrize("rpc", RPCS)
def test_mutated_samba_requests_get_no_internal_error(channel: grpc.Channel, rpc: str) -> None:
    assert_no_fault(channel, rpc, mutated_seeds(samba_corpus, rpc), EXAMPLES)
