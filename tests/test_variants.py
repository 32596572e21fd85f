"""Variants as data: the shipped rule sets, inline rule sets over gRPC, Adjudicate across rule books, explain."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from click.testing import CliRunner
from google.protobuf import json_format, text_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from helpers import make_state
from server_harness import RPC_TIMEOUT, oracle_stub

from oracle.api.v1 import notation_pb2, oracle_pb2, oracle_pb2_grpc, ruleset_pb2
from oracle.cli.main import main
from oracle.games.adjudicate import adjudicate
from oracle.model.actions import parse_action
from oracle.ruleset.loader import default_rule_book
from oracle.service.convert_game import action_to_proto, state_from_notation, state_to_proto

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "black-three-under-top-4p.json"
ONE_CANASTA = """
extends: "classic-2p"
title: "Two players, one canasta to go out"
going_out { canastas_required: 1 }
rules {
  field: "going_out.canastas_required"
  text: "One canasta is enough to go out."
  cite { source: "2P-GUIDE" section: "Frequently asked questions" }
  choice: "A house rule 2P-GUIDE mentions; the standard game needs two."
}
"""


@pytest.fixture(scope="module")
def stub() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    with oracle_stub() as connected:
        yield connected


def test_at_least_ten_rule_sets_load_and_every_variant_extends_a_classic_one() -> None:
    book = default_rule_book()
    assert len(book.ids()) >= 10
    for loaded in book:
        assert loaded.lineage[-1] in ("classic-2p", "classic-4p"), loaded.lineage


SPEC_FILES = sorted((ROOT / "specs").glob("*.textproto"))
VARIANT_FILES = [p for p in SPEC_FILES if "\nextends:" in p.read_text(encoding="utf-8")]
METADATA = {"id", "extends", "title", "description", "rules", "choices"}


def test_the_variant_files_are_found() -> None:
    assert len(VARIANT_FILES) >= 10
    assert {p.name for p in SPEC_FILES} - {p.name for p in VARIANT_FILES} == {
        "classic-2p.textproto",
        "classic-4p.textproto",
        "sources.textproto",
    }


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_every_override_in_a_variant_file_has_its_own_cited_note_and_takes_effect(path: Path) -> None:
    # Read from the file's own text, not from the loader's merged rule set (whose notes include the base's).
    written = text_format.Parse(path.read_text(encoding="utf-8"), ruleset_pb2.RuleSet())
    notes = {note.field: note for note in written.rules}
    overrides = [
        (f"{section.name}.{leaf.name}", value)
        for section, message in written.ListFields()
        if section.name not in METADATA
        for leaf, value in message.ListFields()
    ]
    assert overrides, f"{path.name} extends {written.extends} but changes nothing"
    loaded = default_rule_book().get(written.id)
    for field_path, value in overrides:
        section_name, _, leaf_name = field_path.partition(".")
        note = notes.get(field_path) or notes.get(section_name)
        assert note is not None, f"{path.name}: {field_path} is overridden without a rule note in this file"
        assert note.text and note.cite, f"{path.name}: the note on {note.field} needs its text and a citation"
        in_effect = getattr(getattr(loaded.spec, section_name), leaf_name)
        assert in_effect == value, f"{written.id}: {field_path} is {in_effect}, the file says {value}"


def _example_state(rule_set_id: str):
    msg = json_format.Parse(EXAMPLE.read_text(), notation_pb2.GameStateNotation())
    return state_from_notation(msg, default_rule_book().get(rule_set_id).rules)


def test_black_three_under_the_top_adjudicates_legal_classic_illegal_bicycle() -> None:
    # pile 6S 3S 9H (a black three discarded under the top nine); seat 0 offers 9D and the joker
    book = default_rule_book()
    result = adjudicate(
        [book.get("classic-4p"), book.get("bicycle-4p")],
        _example_state("classic-4p"),
        parse_action("take-pile with 9D JK"),
    )
    classic, bicycle = result.answers
    assert classic.verdict is not None and classic.verdict.legal
    assert bicycle.verdict is not None and not bicycle.verdict.legal
    assert [(v.code, v.field) for v in bicycle.verdict.violations] == [
        ("PILE_FROZEN_NEEDS_NATURAL_PAIR", "discard_pile.frozen_by_black_three")
    ]
    assert [(d.field, d.values) for d in result.deciding] == [("discard_pile.frozen_by_black_three", ("no", "yes"))]


def test_adjudicate_over_grpc_defaults_to_every_rule_set(stub) -> None:
    request = oracle_pb2.AdjudicateRequest(
        state=state_to_proto(_example_state("classic-4p")), action=action_to_proto(parse_action("take-pile with 9D JK"))
    )
    response = stub.Adjudicate(request, timeout=RPC_TIMEOUT)
    by_id = {v.rule_set_id: v for v in response.verdicts}
    assert set(by_id) == set(default_rule_book().ids())
    assert by_id["classic-4p"].verdict.legal and not by_id["bicycle-4p"].verdict.legal
    assert not by_id["classic-2p"].applicable and "4 seats" in by_id["classic-2p"].not_applicable
    assert "discard_pile.frozen_by_black_three" in [d.field for d in response.deciding_fields]


def test_adjudicate_cli_prints_a_side_by_side_table() -> None:
    result = CliRunner().invoke(
        main,
        ["adjudicate", "--state", str(EXAMPLE), "--action", "take-pile with 9D JK", "--rules", "classic-4p,bicycle-4p"],
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2].split() == ["classic-4p", "legal"]
    assert lines[3].split()[:3] == ["bicycle-4p", "ILLEGAL", "PILE_FROZEN_NEEDS_NATURAL_PAIR"]
    assert lines[-1] == "  discard_pile.frozen_by_black_three: classic-4p=no, bicycle-4p=yes"


def _inline(text: str) -> oracle_pb2.RuleSetRef:
    return oracle_pb2.RuleSetRef(inline=text_format.Parse(text, ruleset_pb2.RuleSet()))


def test_a_malformed_inline_rule_set_is_refused_with_the_field_path(stub) -> None:
    broken = ONE_CANASTA.replace(
        "going_out { canastas_required: 1 }", "going_out { canastas_required: 1 }\nmelds { min_naturals: 4 }"
    )
    request = oracle_pb2.GetMinimumInitialMeldRequest(rule_set=_inline(broken), running_total=0)
    with pytest.raises(grpc.RpcError) as info:
        stub.GetMinimumInitialMeld(request, timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    detail = error_details_pb2.BadRequest()
    rpc_status.from_call(info.value).details[0].Unpack(detail)
    fields = {v.field: v.description for v in detail.field_violations}
    # an override without its own rule note, and more minimum naturals than the meld size
    assert "rule_set.inline.melds.min_naturals" in fields
    assert any("cannot fit a meld" in d for d in fields.values())


def test_an_inline_one_canasta_rule_set_changes_the_going_out_verdict(stub) -> None:
    # seat 0 holds QH QD QS after drawing, with one canasta of kings: melding the queens goes out
    state = make_state(
        "classic-2p",
        hands=["QH QD QS", "4C 4D 5C"],
        melds=[["KH KD KS KC KH KD KS"], []],
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW", "meldsBeforeTurn": 1},
        melded_before=[True, False],
    )
    action = action_to_proto(parse_action("meld QH QD QS"))
    classic = stub.CheckAction(
        oracle_pb2.CheckActionRequest(
            rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), state=state_to_proto(state), action=action
        ),
        timeout=RPC_TIMEOUT,
    )
    assert "GO_OUT_WITHOUT_CANASTAS" in [v.code for v in classic.violations]
    inline = stub.CheckAction(
        oracle_pb2.CheckActionRequest(rule_set=_inline(ONE_CANASTA), state=state_to_proto(state), action=action),
        timeout=RPC_TIMEOUT,
    )
    assert inline.legal
    assert inline.events[-1].hand_ended.reason == 1  # HAND_END_WENT_OUT


def test_an_inline_rule_set_may_not_reuse_a_known_id(stub) -> None:
    request = oracle_pb2.GetRuleSetRequest(rule_set=_inline('id: "classic-4p"\n' + ONE_CANASTA))
    with pytest.raises(grpc.RpcError) as info:
        stub.GetRuleSet(request, timeout=RPC_TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "rule_set.inline.id" in info.value.details()


def test_explain_a_code_names_the_rule_its_citations_and_the_variants_that_change_it() -> None:
    result = CliRunner().invoke(main, ["explain", "PILE_ONE_CARD_WITH_ONE_CARD"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("PILE_ONE_CARD_WITH_ONE_CARD: A player holding one card may not take a pile of one card.")
    assert "discard_pile.one_card_hand_no_one_card_pile = no (" in out
    assert "    changed by: bicycle-4p" in out
    assert "cite: BICYCLE" in out


def test_explain_a_field_lists_values_across_rule_sets() -> None:
    result = CliRunner().invoke(main, ["explain", "going_out.canastas_required"])
    assert result.exit_code == 0
    line = next(x for x in result.stdout.splitlines() if x.startswith("  going_out.canastas_required = "))
    assert "1 (" in line and "2 (" in line
