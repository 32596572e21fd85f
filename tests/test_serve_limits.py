"""The limits table is configurable when serving: `--limit NAME=VALUE` (and CANASTA_ORACLE_LIMITS) reach the server."""

from __future__ import annotations

from dataclasses import replace

import grpc
import pytest
from click.testing import CliRunner
from server_harness import QUIET, ServerThread

from oracle.api.v1 import oracle_pb2, oracle_pb2_grpc
from oracle.cli.main import main
from oracle.ruleset.loader import default_rule_book
from oracle.service.config import ConfigError, parse_limits
from oracle.service.limits import DEFAULT_LIMITS


def test_limit_settings_change_only_the_named_limits() -> None:
    limits = parse_limits(["max_rule_sets=2", "max-record-hands=1_000"])
    assert (limits.max_rule_sets, limits.max_record_hands) == (2, 1000)
    assert replace(limits, max_rule_sets=DEFAULT_LIMITS.max_rule_sets, max_record_hands=200) == DEFAULT_LIMITS


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("max_rule_set=2", "NAME one of"),
        ("max_rule_sets", "NAME=VALUE"),
        ("max_rule_sets=two", "whole number"),
        ("max_rule_sets=0", "at least 1"),
    ],
)
def test_a_bad_limit_setting_is_refused_naming_it(item: str, words: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_limits([item])
    assert item in str(refused.value) and words in str(refused.value)


def test_serve_refuses_a_bad_limit_before_loading_anything() -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--limit", "max_nothing=3"])
    assert result.exit_code == 2
    assert "max_nothing" in result.output


def test_a_served_limit_is_the_one_given() -> None:
    config = replace(QUIET, limits=parse_limits(["max_rule_sets=1"]))
    server = ServerThread(default_rule_book(), config)
    try:
        with grpc.insecure_channel(server.address) as channel:
            stub = oracle_pb2_grpc.OracleServiceStub(channel)
            refs = [oracle_pb2.RuleSetRef(id="classic-4p"), oracle_pb2.RuleSetRef(id="bicycle-4p")]
            with pytest.raises(grpc.RpcError) as refused:
                stub.Adjudicate(oracle_pb2.AdjudicateRequest(rule_sets=refs), timeout=30)
    finally:
        server.close()
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "rule_sets" in (refused.value.details() or "") and "1" in (refused.value.details() or "")
