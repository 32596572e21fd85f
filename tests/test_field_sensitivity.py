"""Every field of the RuleSet schema changes some conformance outcome when its value changes (field sensitivity).

How a field is changed, and which fields are metadata and not walked (ids,
titles, descriptions, the rule notes and the choices, which decide no outcome),
is documented in oracle/conformance/sensitivity.py. The sensitivity is computed
once per test process (about five seconds of CPU) and COVERAGE.md is generated
from the same computation.
"""

from __future__ import annotations

from oracle.api.v1 import ruleset_pb2
from oracle.conformance.sensitivity import mutations, schema_leaves, shipped_sensitivity
from oracle.ruleset.loader import default_rule_book


def test_every_rule_set_field_changes_some_case_outcome() -> None:
    # no field is excused: a field that no outcome depends on is removed from the schema (its number reserved)
    found = shipped_sensitivity()
    assert set(found) == set(schema_leaves())
    nothing_depends_on = sorted(path for path, s in found.items() if not s.matters)
    assert nothing_depends_on == [], f"changing these fields changes no conformance case: {nothing_depends_on}"


def test_no_enum_field_has_a_single_value() -> None:
    # an enum with one value besides UNSPECIFIED has nothing to change to, so nothing could depend on it
    # (deal.first_player and game.tie were such fields: proto/oracle/api/v1/ruleset.proto reserves them)
    for path in schema_leaves():
        descriptor = ruleset_pb2.RuleSet.DESCRIPTOR
        *sections, name = path.split(".")
        for section in sections:
            message_type = descriptor.fields_by_name[section].message_type
            assert message_type is not None
            descriptor = message_type
        fd = descriptor.fields_by_name[name]
        if fd.enum_type is not None:
            assert len([v for v in fd.enum_type.values if v.number]) >= 2, path


def test_the_walk_reaches_nested_fields_and_skips_only_metadata() -> None:
    leaves = schema_leaves()
    assert "initial_meld.thresholds.minimum" in leaves
    assert "initial_meld.thresholds.from_score" in leaves
    assert "melds.max_wilds" in leaves
    assert not [p for p in leaves if p.split(".")[0] in {"id", "extends", "title", "description", "rules", "choices"}]
    # every scalar of every section is a leaf
    rule_set = ruleset_pb2.RuleSet.DESCRIPTOR
    sections = [f for f in rule_set.fields if f.message_type is not None and f.name not in ("rules", "choices")]
    for section in sections:
        assert section.message_type is not None
        for fd in section.message_type.fields:
            if fd.message_type is None:
                assert f"{section.name}.{fd.name}" in leaves


def test_a_change_names_what_it_changed_and_leaves_the_original_alone() -> None:
    spec = default_rule_book().get("classic-2p").spec
    before = spec.SerializeToString(deterministic=True)
    changes = dict((text, changed) for changed, text in mutations(spec, "going_out.discard_optional"))
    assert list(changes) == ["true -> false"]
    assert changes["true -> false"].going_out.discard_optional is False
    rows = [text for _, text in mutations(spec, "initial_meld.thresholds.minimum")]
    assert "50 -> 51 (row 0)" in rows and "120 -> 121 (row 2)" in rows
    assert spec.SerializeToString(deterministic=True) == before


def test_a_field_the_engine_ignores_is_reported() -> None:
    # a case list with no case for classic-4p's black-three cover rule: nothing can show that field matters
    from oracle.conformance.cases import load_cases
    from oracle.conformance.sensitivity import field_sensitivity

    cases = [c for c in load_cases() if c.case.rule_set_id == "classic-2p" and c.case.id.startswith("meld.")]
    found = field_sensitivity(cases, default_rule_book())
    assert not found["deal.upcard_cover_black_three"].matters
    assert found["melds.max_wilds"].matters or found["melds.min_naturals"].matters
