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
from oracle.rules.melds import MalformedMeld, MeldShape, is_canasta, meld_rule_breaks, meld_shape
from oracle.rules.violations import Code, Violation, violation
from oracle.ruleset.compiled import CompiledRules

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


@dataclass
class Laid:
    """The result of laying groups: the side's melds after, and what the laying did."""

    melds: list[Cards]  #: the side's melds after laying
    placements: list[Placement] = field(default_factory=list)  #: one per group, in order
    added_to_existing: bool = False  #: a group joined a meld that was there before
    canastas_made: list[int] = field(default_factory=list)  #: indexes of melds completed (or turned mixed)
    points: int = 0  #: card points of everything laid


def validate_group_shapes(groups: Sequence[MeldGroup], path: str, problems: Problems) -> list[MeldShape | None]:
    """The shape layer: each group must be cards of one rank (plus wilds) with no red three; one group per rank."""
    shapes: list[MeldShape | None] = []
    seen: dict[int, int] = {}
    for i, group in enumerate(groups):
        where = f"{path}[{i}]"
        try:
            shape = meld_shape(group.cards)
        except MalformedMeld as exc:
            problems.add(where, str(exc))
            shapes.append(None)
            continue
        if group.onto_rank is not None and not shape.all_wild and shape.rank != group.onto_rank:
            problems.add(where, f"names {describe_rank(group.onto_rank)} but holds {describe_rank(shape.rank)}")
        rank = group.onto_rank if shape.all_wild and group.onto_rank is not None else shape.rank
        if not shape.all_wild or group.onto_rank is not None:
            key = -1 if shape.black_threes else rank
            if key in seen:
                problems.add(
                    where,
                    f"a second group of {describe_rank(rank)} in one action (group {seen[key]});"
                    " write them as one group",
                )
            seen.setdefault(key, i)
        shapes.append(shape)
    return shapes


def lay_groups(
    rules: CompiledRules, side: SideState, groups: Sequence[tuple[MeldGroup, MeldShape]], *, melds_before_turn: int
) -> Laid:
    """Lay well-shaped groups on a side's melds (no rule is judged here: see check_laid).

    A group of a rank the side has melded joins that meld (where melds.one_meld_per_rank);
    a group of wild cards only joins the meld of its onto_rank (and is not laid when the
    side has none). Melds at indexes below `melds_before_turn` were on the table when
    the turn began.
    """
    laid = Laid(list(side.melds))
    for group, shape in groups:
        laid.points += sum(rules.card_points[c] for c in group.cards)
        target: int | None = None
        if shape.black_threes:
            target = None
        elif shape.all_wild:
            if group.onto_rank is not None:
                target = index_of_rank(laid.melds, group.onto_rank)
                if target is None:
                    laid.placements.append(Placement(group, shape, None))
                    continue
            elif rules.melds.one_meld_per_rank:
                target = wild_meld_index(laid.melds)  # more wild cards join the side's meld of wild cards
        elif rules.melds.one_meld_per_rank:
            target = index_of_rank(laid.melds, shape.rank)
        if target is None:
            laid.melds.append(group.cards)
            index = len(laid.melds) - 1
            laid.placements.append(Placement(group, shape, index, None, shape, group.cards))
            if is_canasta(shape, rules):
                laid.canastas_made.append(index)
            continue
        old = laid.melds[target]
        combined = old + group.cards
        before, after = meld_shape(old), meld_shape(combined)
        if target < melds_before_turn:
            laid.added_to_existing = True
        laid.melds[target] = combined
        laid.placements.append(Placement(group, shape, target, before, after, combined))
        completed = is_canasta(after, rules) and not is_canasta(before, rules)
        if (completed or _turns_mixed(rules, before, after)) and target not in laid.canastas_made:
            laid.canastas_made.append(target)
    return laid


def wild_meld_index(melds: Sequence[Cards]) -> int | None:
    """Index of the meld made of wild cards alone among `melds`, or None."""
    for i, meld in enumerate(melds):
        if meld and all(is_wild(card) for card in meld):
            return i
    return None


def _turns_mixed(rules: CompiledRules, before: MeldShape, after: MeldShape) -> bool:
    return is_canasta(before, rules) and before.wilds == 0 and after.wilds > 0


def check_laid(rules: CompiledRules, laid: Laid, *, going_out: bool, last_cards: bool = True) -> list[Violation]:
    """Every meld rule the laying breaks, group by group.

    `going_out` says whether the player ends the turn with at most one card (black-three melds are legal only then);
    `last_cards` whether no card is left to discard (see melds.meld_rule_breaks).
    """
    out: list[Violation] = []
    for placed in laid.placements:
        group = placed.group
        if placed.after is None:  # wild cards naming a rank the side has no meld of
            rank = describe_rank(placed.shape.rank if group.onto_rank is None else group.onto_rank)
            out.append(violation(rules, Code.MELD_NO_SUCH_MELD, cards=format_cards(group.cards), rank=rank))
            continue
        new = placed.before is None
        if placed.before is not None and _turns_mixed(rules, placed.before, placed.after):
            if not rules.canastas.wild_may_join_natural:
                wilds = format_cards(c for c in group.cards if is_wild(c))
                rank = describe_rank(placed.before.rank)
                out.append(violation(rules, Code.WILD_ON_NATURAL_CANASTA, wilds=wilds, rank=rank))
        what = "new meld" if new else "meld (with the cards added)"
        for broken in meld_rule_breaks(placed.after, rules, going_out=going_out, last_cards=last_cards):
            if not new and waived_for_addition(broken.field, placed.shape.wilds):
                continue
            out.append(broken.violation(rules, f"{what} {format_cards(placed.cards)}"))
    return out
