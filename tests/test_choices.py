"""The choices between the rule texts: recorded in the specs, consistent across rule sets, pinned by cases, and
listed by `canasta-oracle explain RULESET`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from oracle.api.v1 import conformance_pb2, ruleset_pb2
from oracle.cli.main import main
from oracle.conformance.cases import load_cases
from oracle.ruleset.loader import RuleBook, SpecError, default_rule_book
from oracle.ruleset.paths import format_field, leaf_paths

SPECS = Path(__file__).resolve().parent.parent / "specs"
BOOK = default_rule_book()
CHOICES = [(loaded.spec.id, choice) for loaded in BOOK for choice in loaded.spec.choices]


def _explain(key: str) -> str:
    result = CliRunner().invoke(main, ["explain", key])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_points_the_audit_found_are_recorded() -> None:
    ids = {rule_set: {c.id for c in BOOK.get(rule_set).spec.choices} for rule_set in BOOK.ids()}
    assert {
        "red-three-from-pile",
        "concealed-going-out-minimum",
        "initial-meld-per-action",
        "concealed-with-final-discard",
        "empty-stock-duty",
        "melding-out-after-last-red-three",
    } <= ids["classic-2p"]
    assert {
        "frozen-pile-can-be-taken",
        "concealed-going-out-minimum",
        "concealed-bonus-conditions",
        "waiver-with-final-discard",
        "black-threes-then-discard",
        "wild-beside-frozen-pair",
        "one-question-per-turn",
    } <= ids["classic-4p"]
    assert {"frozen-pile-can-be-taken", "concealed-going-out-minimum", "concealed-bonus-conditions"} <= ids[
        "quickref-4p"
    ]
    for six in ("six-2x3", "six-3x2"):
        assert {"six-player-jokers", "six-player-hand-size", "six-player-red-threes"} <= ids[six]


@pytest.mark.parametrize(("rule_set", "choice"), CHOICES, ids=[f"{r}:{c.id}" for r, c in CHOICES])
def test_each_choice_cites_both_sides_and_its_variants_play_the_other_reading(
    rule_set: str, choice: ruleset_pb2.Choice
) -> None:
    assert choice.taken.cite
    if choice.kind != ruleset_pb2.CHOICE_KIND_UNSTATED:
        assert choice.others and all(o.cite for o in choice.others)
    spec = BOOK.get(rule_set).spec
    for other in choice.others:
        if not other.rule_set:
            continue
        theirs = {c.id: c for c in BOOK.get(other.rule_set).spec.choices}
        assert choice.id in theirs, f"{other.rule_set} does not record {choice.id}"
        assert theirs[choice.id].taken.text == other.text, f"{other.rule_set} takes another reading of {choice.id}"
        their_spec = BOOK.get(other.rule_set).spec
        paths = [p for f in choice.fields for p in leaf_paths() if p == f or p.startswith(f + ".")]
        assert paths, f"{choice.id}: a variant plays the other reading, so some field must decide it"
        assert any(format_field(spec, p) != format_field(their_spec, p) for p in paths)


def test_every_variant_playing_another_reading_has_a_case_showing_the_difference() -> None:
    cases = [c.case for c in load_cases()]
    for rule_set, choice in CHOICES:
        for other in choice.others:
            if not other.rule_set:
                continue
            showing = [
                c.id
                for c in cases
                if c.rule_set_id in (rule_set, other.rule_set) and any(f in choice.fields for f in c.fields)
            ]
            assert showing, f"{rule_set} {choice.id}: no case of {rule_set} or {other.rule_set} names its fields"


@pytest.mark.parametrize("rule_set", ["classic-2p", "classic-4p", "quickref-4p"])
def test_explain_a_rule_set_lists_every_choice_with_both_citations(rule_set: str) -> None:
    out = _explain(rule_set)
    spec = BOOK.get(rule_set).spec
    assert out.startswith(f"{rule_set}: {spec.title}\n{len(spec.choices)} points")
    blocks = out.split("\n\n")
    for choice in spec.choices:
        (block,) = [b for b in blocks if b.startswith(f"{choice.id}: {choice.point}")]
        assert f"  taken: {choice.taken.text}" in block
        for cite in [*choice.taken.cite, *(c for o in choice.others for c in o.cite)]:
            assert f'cite: {cite.source}, "{cite.section}"' in block
        for other in choice.others:
            assert f"  other: {other.text}" in block
            assert f"played by: {other.rule_set or 'no shipped rule set'}" in block


def test_explain_shows_the_value_each_rule_set_takes() -> None:
    assert "field: initial_meld.waived_for_concealed_going_out = no" in _explain("classic-2p")
    assert "field: initial_meld.waived_for_concealed_going_out = yes" in _explain("2p-concealed-waiver")
    assert "field: initial_meld.waived_for_concealed_going_out = yes" in _explain("classic-4p")
    assert "field: initial_meld.waived_for_concealed_going_out = no" in _explain("quickref-4p")


def test_explain_names_rule_sets_when_the_key_is_unknown() -> None:
    result = CliRunner().invoke(main, ["explain", "classic-3p"])
    assert result.exit_code == 2
    assert "rule sets: 2p-concealed-waiver" in result.output


def _variant(choice_text: str) -> str:
    return 'id: "probe" extends: "classic-2p" title: "probe"\n' + choice_text


@pytest.mark.parametrize(
    ("choice_text", "path", "message"),
    [
        (
            'choices { id: "x" point: "p" why: "w" kind: CHOICE_KIND_TEXTS_DISAGREE'
            ' taken { text: "t" cite { source: "2P-RULES" section: "The deal" } } }',
            ".others",
            "names no other reading",
        ),
        (
            'choices { id: "x" point: "p" why: "w" kind: CHOICE_KIND_READING taken { text: "t" }'
            ' others { text: "o" cite { source: "2P-GUIDE" section: "The deal" } } }',
            ".taken.cite",
            "cites no source",
        ),
        (
            'choices { id: "x" point: "p" why: "w" kind: CHOICE_KIND_UNSTATED'
            ' taken { text: "t" cite { source: "NOBODY" section: "s" } } }',
            ".taken.cite[0].source",
            "'NOBODY' is not a known source",
        ),
        (
            'choices { id: "x" point: "p" why: "w" kind: CHOICE_KIND_UNSTATED fields: "melds.nothing"'
            ' taken { text: "t" cite { source: "2P-RULES" section: "The deal" } } }',
            ".fields[0]",
            "'melds.nothing' is not a rule-set field",
        ),
        (
            'choices { id: "x" point: "p" why: "w" taken { text: "t" cite { source: "2P-RULES" section: "s" } } }',
            ".kind",
            "is not set",
        ),
    ],
)
def test_a_one_sided_or_uncited_choice_is_refused(choice_text: str, path: str, message: str) -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in SPECS.glob("classic-2p.textproto")}
    texts["probe.textproto"] = _variant(choice_text)
    with pytest.raises(SpecError) as raised:
        RuleBook.from_texts(texts, (SPECS / "sources.textproto").read_text(encoding="utf-8"))
    path = f"choices[{len(BOOK.get('classic-2p').spec.choices)}]{path}"  # the probe's choice comes after the base's
    assert any(p.field == path and message in p.message for p in raised.value.problems), raised.value.problems


def test_a_variant_choice_replaces_the_base_choice_with_the_same_id() -> None:
    base = {c.id: c for c in BOOK.get("classic-2p").spec.choices}
    variant = {c.id: c for c in BOOK.get("2p-pile-red-three-replaced").spec.choices}
    assert list(variant) == list(base)
    assert variant["red-three-from-pile"].taken.text == base["red-three-from-pile"].others[0].text


CHOICE_CASES = [c.case for c in load_cases() if c.suite == "choices" and c.case.WhichOneof("input") == "check"]


@pytest.mark.parametrize("case", CHOICE_CASES, ids=[c.id for c in CHOICE_CASES])
def test_the_move_generator_lists_what_the_referee_allows_in_each_choice_position(
    case: conformance_pb2.ConformanceCase,
) -> None:
    # The position of each choices.* case, under the case's rule set and every rule set a choice names for the
    # other reading of its fields: legal-move generation (direct) equals the referee judging every candidate.
    from oracle.games.movegen import legal_actions, legal_actions_by_referee
    from oracle.service.convert_game import state_from_notation

    names = {case.rule_set_id} | {
        o.rule_set
        for _, choice in CHOICES
        if set(choice.fields) & set(case.fields)
        for o in choice.others
        if o.rule_set and BOOK.get(o.rule_set).rules.seats == BOOK.get(case.rule_set_id).rules.seats
    }
    from oracle.rules.state_check import validate_state

    for name in sorted(names):
        rules = BOOK.get(name).rules
        state = state_from_notation(case.check.state, rules)
        if name != case.rule_set_id and validate_state(rules, state):
            continue  # a position the other reading never reaches (a final-melds phase where the hand ends at once)
        assert legal_actions(rules, state) == legal_actions_by_referee(rules, state), name
