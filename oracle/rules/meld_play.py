"""Laying groups of cards onto a side's melds: where each group goes, which meld rules break, what gets completed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from oracle.model.actions import MeldGroup
from oracle.model.cards import describe_rank, format_cards, is_wild
from oracle.model.errors import Problems
from oracle.model.state import Cards, SideState, meld_index_of_rank
from oracle.rules.melds import MalformedMeld, MeldShape, is_canasta, meld_rule_breaks, meld_shape
from oracle.rules.violations import Violation, violation
from oracle.ruleset.compiled import CompiledRules

# Which violation code each meld-rule field maps to.
CODE_OF_FIELD = {
    "melds.min_size": "MELD_TOO_SMALL",
    "melds.min_naturals": "MELD_TOO_FEW_NATURALS",
    "melds.max_wilds": "MELD_TOO_MANY_WILDS",
    "melds.wild_ratio": "MELD_WILDS_OUTNUMBER_NATURALS",
    "melds.max_size": "MELD_TOO_LARGE",
    "melds.wild_only_melds": "MELD_ALL_WILD",
    "threes.black_three_meld_going_out_only": "BLACK_THREES_NOT_GOING_OUT",
    "threes.black_three_meld_min": "BLACK_THREE_MELD_SIZE",
    "threes.black_three_meld_max": "BLACK_THREE_MELD_SIZE",
    "threes.black_three_meld_wilds": "BLACK_THREE_MELD_WILDS",
}


@dataclass
class Laid:
    """The result of laying groups: the side's melds after, and what the laying did."""

    melds: list[Cards]  #: the side's melds after laying
    violations: list[Violation] = field(default_factory=list)
    added_to_existing: bool = False  #: a group joined a meld that was there before
    canastas_made: list[int] = field(default_factory=list)  #: indexes of melds completed (or turned mixed)
    points: int = 0  #: card points of everything laid


def check_group_shapes(groups: Sequence[MeldGroup], path: str, problems: Problems) -> list[MeldShape | None]:
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
    rules: CompiledRules,
    side: SideState,
    groups: Sequence[tuple[MeldGroup, MeldShape]],
    *,
    going_out: bool,
    melds_before_turn: int,
) -> Laid:
    """Lay well-shaped groups on a side's melds and collect every meld rule they break.

    A group of a rank the side has melded joins that meld (the limits then
    apply to the whole meld); a group of wild cards only joins the meld of its
    onto_rank. `going_out` says whether the player ends the turn with at most
    one card (black-three melds are legal only then). Melds at indexes below
    `melds_before_turn` were on the table when the turn began.
    """
    spec = rules.spec
    laid = Laid(list(side.melds))
    for group, shape in groups:
        laid.points += sum(rules.card_points[c] for c in group.cards)
        target: int | None = None
        if shape.black_threes:
            target = None
        elif shape.all_wild:
            if group.onto_rank is not None:
                target = meld_index_of_rank(SideState(tuple(laid.melds)), group.onto_rank)
                if target is None:
                    laid.violations.append(
                        violation(
                            rules,
                            "MELD_NO_SUCH_MELD",
                            f"{format_cards(group.cards)} cannot join the side's"
                            f" {describe_rank(group.onto_rank)}: the side has no meld of that rank",
                        )
                    )
                    continue
        elif spec.melds.one_meld_per_rank:
            target = meld_index_of_rank(SideState(tuple(laid.melds)), shape.rank)
        if target is None:
            _check_meld(rules, group.cards, shape, going_out, laid, new=True)
            laid.melds.append(group.cards)
            if is_canasta(shape, rules):
                laid.canastas_made.append(len(laid.melds) - 1)
            continue
        old = laid.melds[target]
        combined = old + group.cards
        combined_shape = meld_shape(combined)
        old_shape = meld_shape(old)
        if target < melds_before_turn:
            laid.added_to_existing = True
        if (
            is_canasta(old_shape, rules)
            and old_shape.wilds == 0
            and combined_shape.wilds > 0
            and not spec.canastas.wild_may_join_natural
        ):
            laid.violations.append(
                violation(
                    rules,
                    "WILD_ON_NATURAL_CANASTA",
                    f"{format_cards(c for c in group.cards if is_wild(c))} would"
                    f" turn the natural canasta of {describe_rank(old_shape.rank)} mixed",
                )
            )
        _check_meld(rules, combined, combined_shape, going_out, laid, new=False)
        laid.melds[target] = combined
        completed = is_canasta(combined_shape, rules) and not is_canasta(old_shape, rules)
        turned_mixed = is_canasta(old_shape, rules) and old_shape.wilds == 0 and combined_shape.wilds > 0
        if (completed or turned_mixed) and target not in laid.canastas_made:
            laid.canastas_made.append(target)
    return laid


def _check_meld(
    rules: CompiledRules, cards: Cards, shape: MeldShape, going_out: bool, laid: Laid, *, new: bool
) -> None:
    for rule_field, why in meld_rule_breaks(shape, rules, going_out=going_out):
        if not new and rule_field in ("melds.min_size", "melds.min_naturals"):
            continue  # an addition to a legal meld keeps its size and naturals
        what = "new meld" if new else "meld (with the cards added)"
        laid.violations.append(
            violation(rules, CODE_OF_FIELD[rule_field], f"{why}: {what} {format_cards(cards)}", rule_field)
        )
