"""The typed view of a rule set (CompiledRules): one frozen dataclass per section, every field named and valued as
in the resolved RuleSet, the schema's enums as Python enums with the same numbers; an enum number the schema does
not define is refused when the rule set loads."""

from __future__ import annotations

import dataclasses
from enum import IntEnum

import pytest
from google.protobuf import text_format

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import SpecError, default_rule_book
from oracle.ruleset.paths import get_value, leaf_paths
from oracle.ruleset.sections import (
    SECTIONS,
    AfterLastCard,
    AskPartner,
    BlackThreeRole,
    LastRedThree,
    MustTakePile,
    RankRule,
    SideFormation,
    WildRatio,
)

BOOK = default_rule_book()
ENUMS: list[tuple[type[IntEnum], str, str]] = [
    (WildRatio, "WildRatio", "WILD_RATIO_"),
    (MustTakePile, "MustTakePile", "MUST_TAKE_PILE_"),
    (LastRedThree, "LastRedThree", "LAST_RED_THREE_"),
    (AskPartner, "AskPartner", "ASK_PARTNER_"),
    (SideFormation, "SideFormation", "SIDE_FORMATION_"),
    (AfterLastCard, "AfterLastCard", "AFTER_LAST_CARD_"),
    (BlackThreeRole, "BlackThreeRole", "BLACK_THREE_ROLE_"),
]


def _view_value(rules: CompiledRules, path: str) -> object:
    section, _, name = path.partition(".")
    if section == "players":
        return {"seats": rules.seats, "side_size": rules.side_size, "side_formation": rules.side_formation}[name]
    return getattr(getattr(rules, section), name)


def _proto_value(spec: ruleset_pb2.RuleSet, path: str) -> object:
    value = get_value(spec, path)
    if path == "initial_meld.thresholds":
        return tuple((row.from_score, row.minimum) for row in value)  # type: ignore[attr-defined]
    if path in ("runs.lowest_rank", "runs.highest_rank"):  # the view numbers a rank by its index, as below
        assert isinstance(value, int)
        return value - 2
    if path == "melds.rank_rules":  # the view numbers a rank by its index (four 2 .. ace 12), the schema by face
        return tuple(
            RankRule(
                row.rank - 2,
                row.max_wilds,
                row.wilds_in_initial_meld,
                row.canasta_bonus,
                row.unfinished_penalty,
                row.held_min,
                row.held_penalty,
                row.no_discard_on_empty_pile,
            )
            for row in value  # type: ignore[attr-defined]
        )
    if path in ("threes.count_values", "initial_meld.minimum_by_hand"):
        return tuple(value)  # type: ignore[call-overload]
    if path == "card_values.rank_values":  # (rank index, points), as melds.rank_rules
        return tuple((row.rank - 2, row.points) for row in value)  # type: ignore[attr-defined]
    return value


@pytest.mark.parametrize("rule_set_id", BOOK.ids())
def test_the_view_holds_every_rule_set_field_with_its_value(rule_set_id: str) -> None:
    loaded = BOOK.get(rule_set_id)
    for path in leaf_paths():
        assert _view_value(loaded.rules, path) == _proto_value(loaded.spec, path), path


def test_the_view_has_exactly_the_schema_sections_and_fields() -> None:
    schema = {path for path in leaf_paths() if not path.startswith("players.")}
    view = {f"{section}.{f.name}" for section, cls in SECTIONS.items() for f in dataclasses.fields(cls)}
    assert view == schema
    compiled = {f.name for f in dataclasses.fields(CompiledRules)}
    assert set(SECTIONS) <= compiled
    for section, cls in SECTIONS.items():
        assert {f.name: f.type for f in dataclasses.fields(CompiledRules)}[section] == cls.__name__


@pytest.mark.parametrize(("enum", "name", "prefix"), ENUMS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_the_enums_mirror_the_schema(enum: type[IntEnum], name: str, prefix: str) -> None:
    schema = ruleset_pb2.DESCRIPTOR.enum_types_by_name[name]
    assert {m.name: m.value for m in enum} == {v.name.removeprefix(prefix): v.number for v in schema.values}


def test_enum_fields_are_typed_enums_and_the_view_is_frozen() -> None:
    rules = BOOK.get("classic-4p").rules
    assert rules.melds.wild_ratio is WildRatio.ANY
    assert rules.going_out.ask_partner is AskPartner.OPTIONAL_BINDING
    assert rules.stock_exhaustion.must_take_pile is MustTakePile.WHEN_TOP_FITS_MELD
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.melds.max_wilds = 4  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.melds = rules.melds  # type: ignore[misc]


@pytest.mark.parametrize(
    ("override", "path", "enum"),
    [
        ("melds { wild_ratio: 7 }", "melds.wild_ratio", "WildRatio"),
        ("going_out { ask_partner: 9 }", "going_out.ask_partner", "AskPartner"),
        ("stock_exhaustion { last_red_three: 5 }", "stock_exhaustion.last_red_three", "LastRedThree"),
    ],
)
def test_an_enum_number_the_schema_does_not_define_is_refused(override: str, path: str, enum: str) -> None:
    text = (
        f'id: "bad-enum" extends: "classic-2p" {override} '
        f'rules {{ field: "{path}" text: "x" cite {{ source: "2P-RULES" section: "The deal" }} }}'
    )
    with pytest.raises(SpecError) as raised:
        BOOK.resolve_inline(text_format.Parse(text, ruleset_pb2.RuleSet()))
    [problem] = raised.value.problems
    assert problem.field == path
    assert f"no {enum} value has that number" in problem.message
