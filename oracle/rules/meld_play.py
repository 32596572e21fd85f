"""Laying groups of cards onto a side's melds: where each group goes (lay_groups), which meld rules the laying
breaks (check_laid), and what it completes; plus the shape layer for the groups of an action."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from oracle.model.actions import MeldGroup
from oracle.model.cards import describe_rank, format_cards, is_wild
from oracle.model.errors import Problems
from oracle.model.fast_init import fast_init
from oracle.model.state import Cards, SideState, index_of_rank
from oracle.rules.melds import (
    MalformedMeld,
    MeldShape,
    is_canasta,
    is_proper_run,
    meld_rule_breaks,
    meld_shape,
    mixed_ranks_problem,
    open_meld_index,
)
from oracle.rules.violations import Code, Violation, violation
from oracle.ruleset.compiled import CompiledRules

# Why a group could not be laid where it was sent (Placement.problem).
NO_SUCH_MELD = "no_such_meld"  #: it names a meld number the side does not have
NO_MELD_OF_RANK = "no_meld_of_rank"  #: wild cards name a rank the side has no meld of
OTHER_RANK = "other_rank"  #: it names a meld of another rank, or a run for a group
SECOND_OF_RANK = "second_of_rank"  #: `new` where the side keeps one meld per rank and has one of it
OPEN_OF_RANK = "open_of_rank"  #: `new` while a meld of the rank is short of a canasta (melds.one_open_meld_per_rank)

# An addition to a legal meld keeps its size and naturals: these limits apply to new melds only.
NEW_MELD_ONLY = frozenset({"melds.min_size", "melds.min_naturals"})


def waived_for_addition(field: str, wilds_added: int) -> bool:
    """Whether an addition to a meld answers to the meld rule of `field` not at all: the new-meld-only limits, and
    melds.max_wilds when the addition brings no wild card (only a meld put together from two partners' melds when
    sides formed can be over that limit, and it still takes naturals: players.side_formation)."""
    return field in NEW_MELD_ONLY or (field == "melds.max_wilds" and not wilds_added)


@fast_init
@dataclass(frozen=True, slots=True)
class Placement:
    """Where one group went: a new meld, onto a meld of the side, or nowhere (no meld of its onto_rank)."""

    group: MeldGroup
    shape: MeldShape  #: the group's own shape
    target: int | None  #: index of the meld it made or joined; None when there was no meld to join
    before: MeldShape | None = None  #: the joined meld's shape before (None for a new meld)
    after: MeldShape | None = None  #: the meld's shape after (the group's own for a new meld)
    cards: Cards = ()  #: the meld's cards after
    problem: str = ""  #: why the group could not be laid (NO_SUCH_MELD, NO_MELD_OF_RANK, ...); then after is None
    melds_then: int = 0  #: the side's melds when the group was laid (those laid before it in the action included)


@dataclass
class Laid:
    """The result of laying groups: the side's melds after, and what the laying did."""

    melds: list[Cards]  #: the side's melds after laying
    placements: list[Placement] = field(default_factory=list)  #: one per group, in order
    added_to_existing: bool = False  #: a group joined a meld that was there before
    canastas_made: list[int] = field(default_factory=list)  #: indexes of melds completed (or turned mixed)
    points: int = 0  #: card points of everything laid


def validate_group_shapes(
    groups: Sequence[MeldGroup], path: str, problems: Problems, *, runs: bool = False
) -> list[MeldShape | None]:
    """The shape layer: each group must be cards of one rank (plus wilds) with no red three, or a run: natural cards
    of one suit in consecutive ranks, which some rule sets meld (the rules then judge it: RUNS_NOT_ALLOWED where
    the rule set has none), or with `runs` (a rule set with runs is among those judging) any natural cards of
    several ranks (judged by the run rules); one group per rank and per named meld in an action; a meld named by
    rank or by number, and new or named, not both.
    """
    shapes: list[MeldShape | None] = []
    seen: dict[object, int] = {}
    for i, group in enumerate(groups):
        where = f"{path}[{i}]"
        try:
            shape = meld_shape(group.cards)
        except MalformedMeld as exc:
            problems.add(where, str(exc))
            shapes.append(None)
            continue
        if shape.run and not runs and not is_proper_run(shape):
            problems.add(where, mixed_ranks_problem(group.cards))
            shapes.append(None)
            continue
        if group.new and group.onto:
            problems.add(where, "a group either starts a new meld (new) or joins a named one (onto), not both")
        if group.onto_rank is not None and group.onto:
            problems.add(where, "a group names the meld it joins by its rank or by its number (onto), not both")
        if group.onto_rank is not None and not shape.all_wild and shape.rank != group.onto_rank:
            problems.add(where, f"names {describe_rank(group.onto_rank)} but holds {describe_rank(shape.rank)}")
        rank = group.onto_rank if shape.all_wild and group.onto_rank is not None else shape.rank
        key: object = None
        if group.onto:
            key = ("onto", group.onto)
        elif not group.new and not shape.run and (not shape.all_wild or group.onto_rank is not None):
            key = -1 if shape.black_threes else rank
        if key is not None:
            if key in seen:
                what = f"meld {group.onto}" if group.onto else describe_rank(rank)
                problems.add(
                    where, f"a second group of {what} in one action (group {seen[key]}); write them as one group"
                )
            seen.setdefault(key, i)
        shapes.append(shape)
    return shapes


def lay_groups(
    rules: CompiledRules, side: SideState, groups: Sequence[tuple[MeldGroup, MeldShape]], *, melds_before_turn: int
) -> Laid:
    """Lay well-shaped groups on a side's melds (no rule is judged here: see check_laid).

    A group naming a meld (onto) joins it; a new group (new) or a run starts a meld; otherwise a group of a rank
    the side has melded joins that meld (where melds.one_meld_per_rank; with several melds of a rank allowed, the
    first not yet a canasta); a group of wild cards only joins the meld of its onto_rank (and is not laid when the
    side has none). Melds at indexes below `melds_before_turn` were on the table when the turn began.
    """
    laid = Laid(list(side.melds))
    for group, shape in groups:
        laid.points += sum(rules.card_points[c] for c in group.cards)
        target: int | None = None
        if group.onto:
            if group.onto > len(laid.melds):
                laid.placements.append(Placement(group, shape, None, problem=NO_SUCH_MELD, melds_then=len(laid.melds)))
                continue
            target = group.onto - 1
        elif group.new or shape.black_threes or shape.run:
            target = None
            if group.new and rules.melds.one_meld_per_rank and not shape.all_wild:
                existing = index_of_rank(laid.melds, shape.rank)
                if existing is not None:
                    laid.placements.append(Placement(group, shape, existing, problem=SECOND_OF_RANK))
                    continue
            if group.new and rules.melds.one_open_meld_per_rank and not shape.all_wild and not shape.run:
                existing = open_meld_index(rules, laid.melds, shape.rank)
                if existing is not None:
                    laid.placements.append(Placement(group, shape, existing, problem=OPEN_OF_RANK))
                    continue
        elif shape.all_wild:
            if group.onto_rank is not None:
                target = default_target(rules, laid.melds, group.onto_rank)
                if target is None:
                    laid.placements.append(Placement(group, shape, None, problem=NO_MELD_OF_RANK))
                    continue
            elif rules.melds.one_meld_per_rank:
                target = wild_meld_index(laid.melds)  # more wild cards join the side's meld of wild cards
        else:
            target = default_target(rules, laid.melds, shape.rank)
        if target is None:
            cards = tuple(sorted(group.cards)) if shape.run else group.cards
            laid.melds.append(cards)
            index = len(laid.melds) - 1
            laid.placements.append(Placement(group, shape, index, None, shape, cards))
            if is_canasta(shape, rules):
                laid.canastas_made.append(index)
            continue
        old = laid.melds[target]
        before = meld_shape(old)
        if not before.run and (shape.run or (not shape.all_wild and shape.rank != before.rank)):
            laid.placements.append(Placement(group, shape, target, before, problem=OTHER_RANK))
            continue
        combined = tuple(sorted(old + group.cards)) if before.run else old + group.cards
        after = meld_shape(combined)
        if target < melds_before_turn:
            laid.added_to_existing = True
        laid.melds[target] = combined
        laid.placements.append(Placement(group, shape, target, before, after, combined))
        completed = is_canasta(after, rules) and not is_canasta(before, rules)
        if (completed or _turns_mixed(rules, before, after)) and target not in laid.canastas_made:
            laid.canastas_made.append(target)
    return laid


def default_target(rules: CompiledRules, melds: Sequence[Cards], rank: int) -> int | None:
    """Index of the meld a group of `rank` joins when the action names none: the side's meld of the rank, or with
    several melds of a rank allowed (melds.one_meld_per_rank false) the first not yet a canasta; None: a new meld."""
    if rules.melds.one_meld_per_rank:
        return index_of_rank(melds, rank)
    return open_meld_index(rules, melds, rank)


def wild_meld_index(melds: Sequence[Cards]) -> int | None:
    """Index of the meld made of wild cards alone among `melds`, or None."""
    for i, meld in enumerate(melds):
        if meld and all(is_wild(card) for card in meld):
            return i
    return None


def _turns_mixed(rules: CompiledRules, before: MeldShape, after: MeldShape) -> bool:
    return not before.run and is_canasta(before, rules) and before.wilds == 0 and after.wilds > 0


def check_laid(rules: CompiledRules, laid: Laid, *, going_out: bool, last_cards: bool = True) -> list[Violation]:
    """Every meld rule the laying breaks, group by group.

    `going_out` says whether the player ends the turn with at most one card (black-three melds are legal only then);
    `last_cards` whether no card is left to discard (see melds.meld_rule_breaks).
    """
    out: list[Violation] = []
    for placed in laid.placements:
        group = placed.group
        if placed.problem:
            out.append(_placement_violation(rules, laid, placed))
            continue
        after = placed.after
        assert after is not None  # a placement without a problem has its meld
        new = placed.before is None
        before = placed.before
        if before is not None and not rules.canastas.wild_may_join_canasta and placed.shape.wilds:
            if is_canasta(before, rules) and not before.run:
                wilds = format_cards(c for c in group.cards if is_wild(c))
                number, rank = (placed.target or 0) + 1, describe_rank(before.rank)
                out.append(violation(rules, Code.WILD_ON_CANASTA, wilds=wilds, number=number, rank=rank))
        if placed.before is not None and _turns_mixed(rules, placed.before, after):
            if not rules.canastas.wild_may_join_natural:
                wilds = format_cards(c for c in group.cards if is_wild(c))
                rank = describe_rank(placed.before.rank)
                out.append(violation(rules, Code.WILD_ON_NATURAL_CANASTA, wilds=wilds, rank=rank))
        what = "new meld" if new else "meld (with the cards added)"
        for broken in meld_rule_breaks(after, rules, going_out=going_out, last_cards=last_cards):
            if not new and waived_for_addition(broken.field, placed.shape.wilds):
                continue
            out.append(broken.violation(rules, f"{what} {format_cards(placed.cards)}"))
    return out


def _placement_violation(rules: CompiledRules, laid: Laid, placed: Placement) -> Violation:
    """Why a group could not be laid where it was sent (its Placement.problem)."""
    group, cards = placed.group, format_cards(placed.group.cards)
    if placed.problem == NO_SUCH_MELD:
        count = placed.melds_then
        return violation(rules, Code.MELD_NO_SUCH_MELD, variant="number", cards=cards, number=group.onto, count=count)
    if placed.problem == NO_MELD_OF_RANK:
        rank = describe_rank(placed.shape.rank if group.onto_rank is None else group.onto_rank)
        return violation(rules, Code.MELD_NO_SUCH_MELD, cards=cards, rank=rank)
    number = (placed.target or 0) + 1
    if placed.problem == OPEN_OF_RANK:
        return violation(
            rules, Code.MELD_OPEN_OF_RANK_EXISTS, cards=cards, rank=describe_rank(placed.shape.rank), number=number
        )
    if placed.problem == SECOND_OF_RANK:
        return violation(
            rules, Code.MELD_SECOND_OF_RANK, cards=cards, rank=describe_rank(placed.shape.rank), number=number
        )
    assert placed.before is not None
    return violation(
        rules, Code.MELD_TARGET_OTHER_RANK, cards=cards, number=number, rank=describe_rank(placed.before.rank)
    )
