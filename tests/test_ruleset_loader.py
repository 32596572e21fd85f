"""Loading rule-set specs: the shipped book, and every kind of broken spec reported with file, line and field."""

from __future__ import annotations

from importlib import resources

import pytest
from google.protobuf import text_format

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.loader import RuleBook, SpecError, SpecProblem
from oracle.ruleset.paths import MAY_BE_EMPTY, has_value, leaf_paths, rule_sections
from oracle.ruleset.validate import note_for

SPECS = resources.files("oracle.specs")
CLASSIC_4P = (SPECS / "classic-4p.textproto").read_text(encoding="utf-8")
SOURCES = (SPECS / "sources.textproto").read_text(encoding="utf-8")
BASE_FILE = "classic-4p.textproto"
VARIANT_FILE = "my-variant.textproto"


# --- helpers ---------------------------------------------------------------------------------------------------


def altered(text: str, old: str, new: str) -> str:
    """`text` with the single occurrence of `old` replaced (fails loudly if the original text changed)."""
    assert text.count(old) == 1, f"expected exactly one {old!r} in the spec"
    return text.replace(old, new)


def line_of(text: str, fragment: str) -> int:
    """1-based line on which the single occurrence of `fragment` starts."""
    assert text.count(fragment) == 1, f"expected exactly one {fragment!r} in the spec"
    return text[: text.index(fragment)].count("\n") + 1


def column_of(text: str, fragment: str) -> int:
    """1-based column at which the single occurrence of `fragment` starts."""
    assert text.count(fragment) == 1, f"expected exactly one {fragment!r} in the spec"
    start = text.index(fragment)
    return start - text.rfind("\n", 0, start)


def parsed(text: str) -> ruleset_pb2.RuleSet:
    return text_format.Parse(text, ruleset_pb2.RuleSet())


def note_index(text: str, field: str) -> int:
    """Index in `rules` of the note whose field is `field`."""
    return next(i for i, note in enumerate(parsed(text).rules) if note.field == field)


def problems_of(texts: dict[str, str]) -> list[SpecProblem]:
    with pytest.raises(SpecError) as info:
        RuleBook.from_texts(texts, SOURCES)
    assert info.value.problems, "a SpecError must list at least one problem"
    return info.value.problems


def only_problem(texts: dict[str, str]) -> SpecProblem:
    problems = problems_of(texts)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def problem_for(problems: list[SpecProblem], field: str) -> SpecProblem:
    matching = [p for p in problems if p.field == field]
    assert len(matching) == 1, f"one problem on {field!r} expected in:\n" + "\n".join(map(str, problems))
    return matching[0]


def variant(override: str, *, note_field: str | None, extends: str = "classic-4p") -> str:
    """A variant spec of classic-4p with one override and (optionally) a rule note for it."""
    text = f'id: "my-variant"\nextends: "{extends}"\ntitle: "My variant"\n{override}\n'
    if note_field is not None:
        text += (
            "rules {\n"
            f'  field: "{note_field}"\n'
            '  text: "Thirteen cards each."\n'
            '  cite { source: "2P-RULES" section: "The deal" }\n'
            "}\n"
        )
    return text


# --- the shipped rule book ---------------------------------------------------------------------------------------


def test_shipped_rule_book_loads_complete_and_cited():
    book = RuleBook.from_directory(SPECS)
    known_sources = {s.id for s in book.sources.sources}

    assert {"classic-2p", "classic-4p"} <= set(book.ids())
    for loaded in book:
        spec = loaded.spec
        assert loaded.lineage[0] == spec.id and loaded.lineage[-1] in ("classic-2p", "classic-4p")
        notes = {note.field: note for note in spec.rules}
        for path in leaf_paths():
            assert has_value(spec, path) or path in MAY_BE_EMPTY, f"{spec.id}: {path} is not set"
            covering = note_for(path, notes.__contains__)
            assert covering is not None, f"{spec.id}: {path} has no rule note"
            cites = notes[covering].cite
            assert cites, f"{spec.id}: the note on {covering} cites nothing"
            assert {c.source for c in cites} <= known_sources, f"{spec.id}: {covering} cites an unknown source"


def test_unaltered_copy_loads_from_texts():
    book = RuleBook.from_texts({BASE_FILE: CLASSIC_4P}, SOURCES)

    assert book.ids() == ["classic-4p"]
    assert book.get("classic-4p").spec.deal.hand_size == 11


# --- text that does not parse -------------------------------------------------------------------------------------


def test_unknown_field_is_reported_at_its_line():
    text = altered(CLASSIC_4P, "  max_wilds: 3\n", "  max_wilds: 3\n  max_wild: 3\n")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.field) == (BASE_FILE, "melds.max_wild")
    assert (problem.line, problem.column) == (line_of(text, "max_wild: 3"), column_of(text, "max_wild: 3"))
    assert '"max_wild"' in problem.message


def test_wrong_type_is_reported_at_its_line():
    text = altered(CLASSIC_4P, "  min_size: 3\n", '  min_size: "three"\n')

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (BASE_FILE, line_of(text, '"three"'), "melds.min_size")
    assert "three" in problem.message


def test_field_given_twice_is_reported_at_the_second_one():
    text = altered(CLASSIC_4P, "  hand_size: 11\n", "  hand_size: 11\n  hand_size: 12\n")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line) == (BASE_FILE, line_of(text, "hand_size: 12"))
    assert "multiple" in problem.message and "hand_size" in problem.message


def test_field_given_twice_names_the_field():
    text = altered(CLASSIC_4P, "  hand_size: 11\n", "  hand_size: 11\n  hand_size: 12\n")

    problem = only_problem({BASE_FILE: text})

    assert problem.field == "deal.hand_size"


def test_parse_error_in_one_line_block_names_the_field_at_the_error():
    text = altered(CLASSIC_4P, "two: 20 ace: 20", 'two: 20 ace: "twenty"')

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line) == (BASE_FILE, line_of(text, '"twenty"'))
    assert problem.field == "card_values.ace"


# --- missing and unspecified values --------------------------------------------------------------------------------


def test_missing_value_is_reported_at_its_enclosing_block():
    text = altered(CLASSIC_4P, "  hand_size: 11\n", "")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (BASE_FILE, line_of(text, "deal {"), "deal.hand_size")
    assert "not set" in problem.message


def test_enum_left_unspecified_is_refused():
    text = altered(CLASSIC_4P, "last_red_three: LAST_RED_THREE_ENDS_HAND", "last_red_three: LAST_RED_THREE_UNSPECIFIED")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "LAST_RED_THREE_UNSPECIFIED"),
        "stock_exhaustion.last_red_three",
    )
    assert "LAST_RED_THREE_UNSPECIFIED" in problem.message


# --- inconsistent values ------------------------------------------------------------------------------------------


def test_canasta_smaller_than_minimum_meld():
    text = altered(CLASSIC_4P, "canastas { min_size: 7", "canastas { min_size: 2")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "min_size: 2"),
        "canastas.min_size",
    )


def test_thresholds_out_of_order():
    text = altered(CLASSIC_4P, "from_score: 3000", "from_score: 1000")
    row = [t.from_score for t in parsed(text).initial_meld.thresholds].index(1000)

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "from_score: 1000"),
        f"initial_meld.thresholds[{row}].from_score",
    )
    assert "ascending" in problem.message


def test_initial_meld_minimum_falling_as_totals_rise():
    text = altered(CLASSIC_4P, "from_score: 3000 minimum: 120", "from_score: 3000 minimum: 80")
    row = [t.minimum for t in parsed(text).initial_meld.thresholds].index(80)

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "minimum: 80"),
        f"initial_meld.thresholds[{row}].minimum",
    )


def test_more_naturals_than_the_minimum_meld_size():
    text = altered(CLASSIC_4P, "  min_naturals: 2\n", "  min_naturals: 4\n")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "min_naturals: 4"),
        "melds.min_naturals",
    )


def test_side_size_not_dividing_seats():
    text = altered(
        CLASSIC_4P, "players { seats: 4 side_size: 2 side_formation", "players { seats: 5 side_size: 2 side_formation"
    )

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (BASE_FILE, line_of(text, "seats: 5"), "players.side_size")
    assert problem.column == column_of(text, "side_size: 2")
    assert "do not divide" in problem.message


# --- rule notes ---------------------------------------------------------------------------------------------------


def test_note_naming_an_unknown_field():
    text = altered(CLASSIC_4P, 'field: "deal.hand_size"', 'field: "deal.hand_sizes"')
    k = note_index(text, "deal.hand_sizes")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, '"deal.hand_sizes"'),
        f"rules[{k}].field",
    )
    assert "deal.hand_sizes" in problem.message


def test_citation_of_an_unknown_source():
    text = altered(CLASSIC_4P, 'source: "HOYLE"', 'source: "HOYLES"')
    k = note_index(text, "melds.wild_ratio")
    j = [c.source for c in parsed(text).rules[k].cite].index("HOYLES")

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, '"HOYLES"'),
        f"rules[{k}].cite[{j}].source",
    )
    assert "HOYLES" in problem.message


def test_leaf_without_a_covering_note():
    # Narrow the note on the whole 'deck' section to one of its two fields: 'deck.jokers' is left uncovered.
    text = altered(CLASSIC_4P, 'field: "deck"', 'field: "deck.packs"')

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, "jokers: 4"),
        "deck.jokers",
    )
    assert "no rule note" in problem.message


def test_two_notes_on_one_field_are_refused():
    extra = 'rules {\n  field: "deck"\n  text: "Again."\n  cite { source: "4P-CLASSIC" section: "The cards" }\n}\n'
    text = CLASSIC_4P + extra
    k = len(parsed(text).rules) - 1

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (
        BASE_FILE,
        line_of(text, 'text: "Again."') - 1,
        f"rules[{k}].field",
    )


# --- extends ------------------------------------------------------------------------------------------------------


def test_variant_overrides_one_field_and_inherits_the_rest():
    variant_text = variant("deal { hand_size: 13 }", note_field="deal.hand_size")

    book = RuleBook.from_texts({BASE_FILE: CLASSIC_4P, VARIANT_FILE: variant_text}, SOURCES)

    base, mine = book.get("classic-4p"), book.get("my-variant")
    assert book.ids() == ["classic-4p", "my-variant"]
    assert mine.lineage == ("my-variant", "classic-4p")
    assert (mine.spec.id, mine.spec.extends, mine.spec.title) == ("my-variant", "", "My variant")
    assert mine.spec.deal.hand_size == 13
    expected = ruleset_pb2.RuleSet()
    expected.CopyFrom(base.spec)
    expected.deal.hand_size = 13
    for section in rule_sections():
        assert getattr(mine.spec, section.name) == getattr(expected, section.name), section.name
    assert mine.origins["deal.hand_size"] == VARIANT_FILE
    assert {origin for path, origin in mine.origins.items() if path != "deal.hand_size"} == {BASE_FILE}


def test_variant_keeps_the_base_notes_except_the_one_it_replaces():
    variant_text = variant("deal { hand_size: 13 }", note_field="deal.hand_size")

    book = RuleBook.from_texts({BASE_FILE: CLASSIC_4P, VARIANT_FILE: variant_text}, SOURCES)

    base_notes = {n.field: n for n in book.get("classic-4p").spec.rules}
    mine_notes = {n.field: n for n in book.get("my-variant").spec.rules}
    assert len(book.get("my-variant").spec.rules) == len(base_notes)
    assert mine_notes.keys() == base_notes.keys()
    assert mine_notes["deal.hand_size"] == parsed(variant_text).rules[0]
    assert mine_notes["deal.hand_size"] != base_notes["deal.hand_size"]
    for field, note in base_notes.items():
        if field != "deal.hand_size":
            assert mine_notes[field] == note, field


def test_variant_override_without_a_note_is_refused():
    variant_text = variant("deal { hand_size: 13 }", note_field=None)

    problem = only_problem({BASE_FILE: CLASSIC_4P, VARIANT_FILE: variant_text})

    assert (problem.origin, problem.line, problem.field) == (
        VARIANT_FILE,
        line_of(variant_text, "hand_size: 13"),
        "deal.hand_size",
    )
    assert "without a rule note" in problem.message


def test_extends_of_an_unknown_id():
    variant_text = variant("deal { hand_size: 13 }", note_field="deal.hand_size", extends="classic-9p")

    problem = only_problem({BASE_FILE: CLASSIC_4P, VARIANT_FILE: variant_text})

    assert (problem.origin, problem.line, problem.field) == (VARIANT_FILE, line_of(variant_text, "extends:"), "extends")
    assert "classic-9p" in problem.message


def test_extends_cycle():
    a_text = 'id: "a"\nextends: "b"\ntitle: "A"\n'
    b_text = 'id: "b"\ntitle: "B"\nextends: "a"\n'

    problems = problems_of({BASE_FILE: CLASSIC_4P, "a.textproto": a_text, "b.textproto": b_text})

    assert len(problems) == 2, "\n".join(map(str, problems))
    by_origin = {p.origin: p for p in problems}
    assert by_origin.keys() == {"a.textproto", "b.textproto"}
    for origin, text in (("a.textproto", a_text), ("b.textproto", b_text)):
        problem = by_origin[origin]
        assert (problem.line, problem.field) == (line_of(text, "extends:"), "extends")
        assert "cycle" in problem.message


# --- file names and many problems ---------------------------------------------------------------------------------


def test_id_must_match_the_file_name():
    text = altered(CLASSIC_4P, 'id: "classic-4p"', 'id: "classic-four"')

    problem = only_problem({BASE_FILE: text})

    assert (problem.origin, problem.line, problem.field) == (BASE_FILE, line_of(text, 'id: "classic-four"'), "id")
    assert "classic-four" in problem.message and "classic-4p" in problem.message


def test_several_problems_in_one_spec_are_all_reported():
    text = altered(CLASSIC_4P, "  hand_size: 11\n", "")
    text = altered(
        text, "must_take_pile: MUST_TAKE_PILE_WHEN_TOP_FITS_MELD", "must_take_pile: MUST_TAKE_PILE_UNSPECIFIED"
    )
    text = altered(text, 'source: "HOYLE"', 'source: "HOYLES"')
    k = note_index(text, "melds.wild_ratio")
    j = [c.source for c in parsed(text).rules[k].cite].index("HOYLES")

    problems = problems_of({BASE_FILE: text})

    expected = {
        "deal.hand_size": line_of(text, "deal {"),
        "stock_exhaustion.must_take_pile": line_of(text, "MUST_TAKE_PILE_UNSPECIFIED"),
        f"rules[{k}].cite[{j}].source": line_of(text, '"HOYLES"'),
    }
    assert {p.field for p in problems} == expected.keys()
    for field, line in expected.items():
        problem = problem_for(problems, field)
        assert (problem.origin, problem.line) == (BASE_FILE, line), field


def test_problems_in_several_files_are_all_reported():
    broken_base = altered(CLASSIC_4P, "  hand_size: 11\n", '  hand_size: "eleven"\n')
    other = variant("deal { hand_size: 13 }", note_field=None, extends="classic-9p")

    problems = problems_of({BASE_FILE: broken_base, VARIANT_FILE: other})

    assert {(p.origin, p.field) for p in problems} == {(BASE_FILE, "deal.hand_size"), (VARIANT_FILE, "extends")}
    assert problem_for(problems, "deal.hand_size").line == line_of(broken_base, '"eleven"')
    assert problem_for(problems, "extends").line == line_of(other, "extends:")
