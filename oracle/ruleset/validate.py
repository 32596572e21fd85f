"""Checks a resolved RuleSet for missing, out-of-range and inconsistent values and for uncited fields."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

from google.protobuf.descriptor import FieldDescriptor

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.choices import check_choices
from oracle.ruleset.paths import MAY_BE_EMPTY, all_paths, field_at, get_value, has_value, leaf_paths

ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

Problem = tuple[str, str]  # (field path, what is wrong)

# Lowest value each integer field may take (fields not listed: 0).
_MINIMUMS: dict[str, int] = {
    "players.seats": 2,
    "players.side_size": 1,
    "deck.packs": 1,
    "deal.hand_size": 1,
    "turn.draw_count": 1,
    "melds.min_size": 1,
    "melds.min_naturals": 1,
    "canastas.min_size": 1,
    "threes.black_three_meld_min": 1,
    "game.target_score": 1,
}

#: Highest value of the rule-set numbers that size what the engine builds: the deck (a list of 52 x packs + jokers
#: cards, and every card list in a request is at most that long), the seats and sides of every state, and the
#: minimum table read on every initial meld. Checked before anything is built from them; the service may pass
#: its own (oracle.service.limits.Limits). 'initial_meld.thresholds' bounds the number of rows.
SIZE_MAXIMUMS: Mapping[str, int] = MappingProxyType(
    {
        "players.seats": 12,
        "players.side_size": 12,
        "deck.packs": 12,
        "deck.jokers": 48,
        "initial_meld.thresholds": 32,
    }
)

#: Highest points a card or a bonus may be worth: with at most 672 cards (12 packs and 48 jokers) a hand's
#: score then stays far inside the 32-bit integers the answers carry (so no total can overflow).
POINT_MAXIMUMS: Mapping[str, int] = MappingProxyType(
    {
        **{f"card_values.{name}": 1_000 for name in ("joker", "two", "ace", "eight_to_king", "four_to_seven")},
        "card_values.black_three": 1_000,
        "canastas.natural_bonus": 10_000,
        "canastas.mixed_bonus": 10_000,
        "threes.red_three_bonus": 10_000,
        "threes.all_red_threes_bonus": 10_000,
        "going_out.bonus": 10_000,
        "going_out.concealed_bonus": 10_000,
        "going_out.cannot_go_out_after_yes_penalty": 10_000,
        "canastas.wild_bonus": 10_000,
        "canastas.wild_all_twos_bonus": 10_000,
        "canastas.wild_all_jokers_bonus": 10_000,
        "canastas.wild_unfinished_penalty": 10_000,
        "bonus_cards.first_side": 30,
        "bonus_cards.later_side": 30,
        "bonus_cards.none_when_stock_at_most": 672,
        "going_out.ask_partner_max_per_hand": 100,
        "initial_meld.natural_meld_required": 48,
        "melds.wilds_after_opening_min_naturals": 48,
        "card_values.table_minus_below_canastas": 100,
        "threes.minus_below_canastas": 100,
        "threes.plus_from_canastas": 100,
        "card_values.red_three": 1_000,
        "foot.size": 30,
        "game.hands": 20,
        "going_out.natural_canastas_required": 100,
        "going_out.mixed_canastas_required": 100,
    }
)

#: The most rows of threes.count_values and melds.rank_rules, and the highest points in either.
MAX_RULE_ROWS = 48
MAX_ROW_POINTS = 10_000


def check_rule_set(
    spec: ruleset_pb2.RuleSet, sources: Iterable[str], maximums: Mapping[str, int] | None = None
) -> list[Problem]:
    """Every problem of a resolved rule set; an empty list means it is usable.

    `maximums` bounds the size numbers (default SIZE_MAXIMUMS). The consistency checks, which divide by and
    multiply these numbers, run only when every number is present and in range.
    """
    problems: list[Problem] = []
    if not ID_PATTERN.match(spec.id):
        problems.append(("id", f"'{spec.id}' is not a rule-set id (lower-kebab-case, e.g. 'classic-2p')"))
    if not spec.title.strip():
        problems.append(("title", "is missing"))
    missing = _check_presence(spec, problems)
    before_ranges = len(problems)
    _check_ranges(spec, missing, problems)
    problems += numbers_over_maximum(spec, SIZE_MAXIMUMS if maximums is None else maximums)
    if not missing and len(problems) == before_ranges:
        _check_consistency(spec, problems)
    _check_notes(spec, set(sources), problems)
    problems += check_choices(spec, set(sources))
    return problems


def _check_presence(spec: ruleset_pb2.RuleSet, problems: list[Problem]) -> set[str]:
    missing: set[str] = set()
    for path in leaf_paths():
        field = field_at(path)
        if not has_value(spec, path) and path not in MAY_BE_EMPTY:
            missing.add(path)
            what = "needs at least one row" if field.is_repeated else "is not set"
            problems.append((path, f"{what}: every rule-set field needs a value (here or in the base)"))
        elif field.enum_type is not None and get_value(spec, path) == 0:
            missing.add(path)
            problems.append((path, f"is {field.enum_type.values_by_number[0].name}: choose a value"))
        elif field.enum_type is not None and get_value(spec, path) not in field.enum_type.values_by_number:
            missing.add(path)
            names = ", ".join(v.name for v in field.enum_type.values if v.number)
            value, enum = get_value(spec, path), field.enum_type.name
            problems.append((path, f"is {value}: no {enum} value has that number (one of {names})"))
    for i, row in enumerate(spec.initial_meld.thresholds):
        for name in ("from_score", "minimum"):
            if not row.HasField(name):
                missing.add("initial_meld.thresholds")
                problems.append((f"initial_meld.thresholds[{i}].{name}", "is not set"))
    return missing


def _check_ranges(spec: ruleset_pb2.RuleSet, missing: set[str], problems: list[Problem]) -> None:
    for path in leaf_paths():
        field = field_at(path)
        if path in missing or field.type != FieldDescriptor.TYPE_INT32:
            continue
        if field.is_repeated:
            continue  # thresholds, count_values: checked row by row
        low = _MINIMUMS.get(path, 0)
        value = get_value(spec, path)
        assert isinstance(value, int)
        if value < low:
            problems.append((path, f"is {value}; it must be at least {low}"))
    for i, row in enumerate(spec.initial_meld.thresholds):
        if row.HasField("minimum") and row.minimum < 0:
            problems.append((f"initial_meld.thresholds[{i}].minimum", f"is {row.minimum}; it must be at least 0"))


def numbers_over_maximum(spec: ruleset_pb2.RuleSet, maximums: Mapping[str, int]) -> list[Problem]:
    """The set numbers of a (possibly partial) rule set above `maximums` or POINT_MAXIMUMS, and a minimum table
    with more rows than maximums['initial_meld.thresholds']; cheap (no list is built), so it runs first."""
    problems: list[Problem] = []
    for path, high in (*maximums.items(), *POINT_MAXIMUMS.items()):
        if path == "initial_meld.thresholds":
            rows = len(spec.initial_meld.thresholds)
            if rows > high:
                problems.append((path, f"has {rows} rows; the limit is {high}"))
        elif has_value(spec, path):
            value = get_value(spec, path)
            assert isinstance(value, int)
            if value > high:
                problems.append((path, f"is {value}; the limit is {high}"))
    return problems


def _check_consistency(spec: ruleset_pb2.RuleSet, problems: list[Problem]) -> None:
    def bad(condition: bool, path: str, message: str) -> None:
        if condition:
            problems.append((path, message))

    p, d, m, c = spec.players, spec.deck, spec.melds, spec.canastas
    bad(
        p.seats % p.side_size != 0, "players.side_size", f"{p.side_size} players per side do not divide {p.seats} seats"
    )
    bad(
        p.seats // max(p.side_size, 1) < 2,
        "players.side_size",
        f"{p.seats} seats in sides of {p.side_size} leave fewer than two sides",
    )
    deck_size = 52 * d.packs + d.jokers
    bad(
        p.seats * spec.deal.hand_size + 1 > deck_size,
        "deal.hand_size",
        f"{p.seats} hands of {spec.deal.hand_size} and an upcard need more than the {deck_size} cards of the deck",
    )
    bad(
        spec.foot.size > 0 and p.seats * (spec.deal.hand_size + spec.foot.size) + 1 > deck_size,
        "foot.size",
        f"{p.seats} hands of {spec.deal.hand_size}, {p.seats} feet of {spec.foot.size} and an upcard need more than"
        f" the {deck_size} cards of the deck",
    )
    bad(
        m.min_naturals > m.min_size,
        "melds.min_naturals",
        f"{m.min_naturals} naturals cannot fit a meld whose minimum size is {m.min_size}",
    )
    bad(
        c.min_size < m.min_size,
        "canastas.min_size",
        f"a canasta of {c.min_size} cards is smaller than the minimum meld of {m.min_size}",
    )
    bad(
        m.max_size != 0 and m.max_size < c.min_size,
        "melds.max_size",
        f"melds capped at {m.max_size} cards can never reach the canasta size {c.min_size}",
    )
    bad(
        m.max_size != 0 and m.max_size < m.min_size,
        "melds.max_size",
        f"melds capped at {m.max_size} cards are smaller than the minimum meld of {m.min_size}",
    )
    natural_copies = 4 * d.packs  # copies of one natural rank in the deck
    bad(
        m.min_naturals > natural_copies,
        "melds.min_naturals",
        f"the deck holds only {natural_copies} cards of each rank",
    )
    t = spec.threes
    bad(
        t.black_three_meld_min > t.black_three_meld_max > 0,  # a maximum of 0: black threes are never melded
        "threes.black_three_meld_min",
        f"black-three melds of at least {t.black_three_meld_min} and at most {t.black_three_meld_max} cards",
    )
    bad(
        t.black_three_meld_max > 2 * d.packs,
        "threes.black_three_meld_max",
        f"the deck holds only {2 * d.packs} black threes",
    )
    bad(
        spec.going_out.ask_partner == ruleset_pb2.ASK_PARTNER_OPTIONAL_BINDING and p.side_size < 2,
        "going_out.ask_partner",
        "asking a partner needs sides of two or more players",
    )
    bad(
        p.side_formation == ruleset_pb2.SIDE_FORMATION_LONE_HAND and (p.seats != 3 or p.side_size != 1),
        "players.side_formation",
        f"a lone hand against a partnership needs 3 seats in sides of 1, not {p.seats} in sides of {p.side_size}",
    )
    g = spec.going_out
    bad(
        g.canastas_required > 0 and g.min_hand_after_meld_without_canastas < 2,
        "going_out.min_hand_after_meld_without_canastas",
        f"{g.min_hand_after_meld_without_canastas} lets a player without the {g.canastas_required} canasta(s) meld"
        " down to one card that cannot be discarded without going out, leaving no legal play; it must be at least 2",
    )
    bad(
        g.cannot_go_out_after_yes_penalty > 0 and g.ask_partner == ruleset_pb2.ASK_PARTNER_NONE,
        "going_out.cannot_go_out_after_yes_penalty",
        f"a penalty of {g.cannot_go_out_after_yes_penalty} for a 'yes' the player cannot use needs a partner to ask"
        " (going_out.ask_partner is ASK_PARTNER_NONE)",
    )
    bad(
        t.all_red_threes_negative_without_meld and not t.red_threes_negative_without_meld,
        "threes.all_red_threes_negative_without_meld",
        "turns the bonus for all the red threes against a side with no meld, but"
        " threes.red_threes_negative_without_meld is false: red threes never count against a side",
    )
    bad(
        spec.discard_pile.take_limit == 1,
        "discard_pile.take_limit",
        "a take limit of 1 card leaves nothing but the top card; use 0 for the whole pile or 2 or more",
    )
    _check_thresholds(spec.initial_meld, problems)
    _check_hand_and_foot(spec, problems)
    bad(
        m.one_open_meld_per_rank and m.one_meld_per_rank,
        "melds.one_open_meld_per_rank",
        "limits the open melds of a rank, but melds.one_meld_per_rank already allows one meld of a rank",
    )
    _check_rule_rows(spec, problems)
    b = spec.bonus_cards
    bad(
        (b.first_side + b.later_side) > 0
        and 52 * d.packs + d.jokers < p.seats * spec.deal.hand_size + b.first_side + b.later_side,
        "bonus_cards.first_side",
        "the deck cannot hold the hands and the bonus cards",
    )
    tr = spec.threes
    bad(
        bool(tr.count_values) and tr.plus_from_canastas < tr.minus_below_canastas,
        "threes.plus_from_canastas",
        f"{tr.plus_from_canastas} is below threes.minus_below_canastas {tr.minus_below_canastas}: a side would score"
        " its threes minus and plus at once",
    )


_Ranked = TypeVar("_Ranked", ruleset_pb2.RankRule, ruleset_pb2.RankValue)


def _check_point_rows(path: str, values: Sequence[int], problems: list[Problem]) -> None:
    """A list of points (at `path`): at most MAX_RULE_ROWS rows, each 0 to MAX_ROW_POINTS."""
    if len(values) > MAX_RULE_ROWS:
        problems.append((path, f"has {len(values)} rows; the limit is {MAX_RULE_ROWS}"))
    for i, value in enumerate(values[:MAX_RULE_ROWS]):
        if not 0 <= value <= MAX_ROW_POINTS:
            problems.append((f"{path}[{i}]", f"is {value}; it must be 0 to {MAX_ROW_POINTS}"))


def _ranked_rows(path: str, rows: Sequence[_Ranked], problems: list[Problem]) -> Iterator[tuple[str, _Ranked]]:
    """A table of rows by rank (at `path`): at most MAX_RULE_ROWS rows, each naming a natural rank no earlier row
    named; yields each row within the limit with its path (after its rank's check, before the next row's) for the
    caller's checks of its other fields, so that a row's problems stand together."""
    if len(rows) > MAX_RULE_ROWS:
        problems.append((path, f"has {len(rows)} rows; the limit is {MAX_RULE_ROWS}"))
    seen: dict[int, int] = {}
    for i, row in enumerate(rows[:MAX_RULE_ROWS]):
        at = f"{path}[{i}]"
        if row.rank not in ruleset_pb2.NaturalRank.values() or row.rank == 0:
            problems.append(
                (f"{at}.rank", f"is {row.rank}: name a natural rank (NATURAL_RANK_FOUR to NATURAL_RANK_ACE)")
            )
        elif row.rank in seen:
            problems.append((f"{at}.rank", f"repeats the rank of {path}[{seen[row.rank]}]"))
        seen.setdefault(row.rank, i)
        yield at, row


def _check_hand_and_foot(spec: ruleset_pb2.RuleSet, problems: list[Problem]) -> None:
    """The Hand and Foot fields: kind quotas against canastas_required, the by-hand minimums, the per-rank card
    values, and the fields that need a foot or a partner."""
    g = spec.going_out
    quotas = g.natural_canastas_required + g.mixed_canastas_required
    if quotas and quotas != g.canastas_required:
        problems.append(
            (
                "going_out.canastas_required",
                f"is {g.canastas_required}, but the kind quotas (natural_canastas_required"
                f" {g.natural_canastas_required}, mixed_canastas_required {g.mixed_canastas_required}) add up to"
                f" {quotas}: with quotas it must be their sum",
            )
        )
    if g.partner_foot_required and spec.foot.size == 0:
        problems.append(("going_out.partner_foot_required", "needs a foot (foot.size is 0)"))
    if g.ask_partner == ruleset_pb2.ASK_PARTNER_REQUIRED_BINDING and spec.players.side_size < 2:
        problems.append(("going_out.ask_partner", "asking a partner needs sides of two or more players"))
    _check_point_rows("initial_meld.minimum_by_hand", spec.initial_meld.minimum_by_hand, problems)
    for at, row in _ranked_rows("card_values.rank_values", spec.card_values.rank_values, problems):
        if not 0 <= row.points <= 1_000:
            problems.append((f"{at}.points", f"is {row.points}; it must be 0 to 1000"))


def _check_rule_rows(spec: ruleset_pb2.RuleSet, problems: list[Problem]) -> None:
    """threes.count_values and melds.rank_rules row by row: sizes, ranks, points."""
    _check_point_rows("threes.count_values", spec.threes.count_values, problems)
    for at, row in _ranked_rows("melds.rank_rules", spec.melds.rank_rules, problems):
        for name in ("max_wilds", "held_min"):
            if not 0 <= getattr(row, name) <= MAX_RULE_ROWS:
                problems.append((f"{at}.{name}", f"is {getattr(row, name)}; it must be 0 to {MAX_RULE_ROWS}"))
        for name in ("canasta_bonus", "unfinished_penalty", "held_penalty"):
            if not 0 <= getattr(row, name) <= MAX_ROW_POINTS:
                problems.append((f"{at}.{name}", f"is {getattr(row, name)}; it must be 0 to {MAX_ROW_POINTS}"))


def _check_thresholds(im: ruleset_pb2.InitialMeld, problems: list[Problem]) -> None:
    previous_from: int | None = None
    previous_min = im.minimum_below_table
    for i, row in enumerate(im.thresholds):
        if previous_from is not None and row.from_score <= previous_from:
            problems.append(
                (
                    f"initial_meld.thresholds[{i}].from_score",
                    f"{row.from_score} does not come after {previous_from}: rows must be in ascending"
                    " order of from_score",
                )
            )
        if row.minimum < previous_min:
            problems.append(
                (
                    f"initial_meld.thresholds[{i}].minimum",
                    f"{row.minimum} is lower than the {previous_min} of the row before: the minimum"
                    " must not fall as the running total rises",
                )
            )
        previous_from, previous_min = row.from_score, row.minimum


def _check_notes(spec: ruleset_pb2.RuleSet, sources: set[str], problems: list[Problem]) -> None:
    known = all_paths()
    covered: dict[str, int] = {}
    for i, note in enumerate(spec.rules):
        where = f"rules[{i}]"
        if note.field not in known:
            problems.append((f"{where}.field", f"'{note.field}' is not a rule-set field or section"))
            continue
        if note.field in covered:
            problems.append((f"{where}.field", f"'{note.field}' already has a note (rules[{covered[note.field]}])"))
        covered[note.field] = i
        if not note.text.strip():
            problems.append((f"{where}.text", f"the note on '{note.field}' says nothing"))
        if not note.cite:
            problems.append((f"{where}.cite", f"the note on '{note.field}' cites no source"))
        for j, cite in enumerate(note.cite):
            if cite.source not in sources:
                problems.append(
                    (
                        f"{where}.cite[{j}].source",
                        f"'{cite.source}' is not a known source ({', '.join(sorted(sources))})",
                    )
                )
            if not cite.section.strip():
                problems.append((f"{where}.cite[{j}].section", "names no section"))
    for path in leaf_paths():
        if note_for(path, covered.__contains__) is None:
            problems.append((path, "has no rule note: add rules { field: ... cite { ... } } for it or its section"))


def note_for(path: str, has_note: Callable[[str], bool]) -> str | None:
    """The path whose note covers `path`: the path itself, else its section; None if neither."""
    if has_note(path):
        return path
    section = path.partition(".")[0]
    return section if has_note(section) else None
