"""Well-formedness of a hand-end table under a rule set: valid cards, copies, melds, red threes."""

from __future__ import annotations

from oracle.model.cards import ALL_CARDS, copies_allowed, count_copies, format_card, is_red_three, is_valid
from oracle.model.errors import Problems
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules.facts import not_laid_reason
from oracle.rules.formation import formation_problem
from oracle.rules.melds import (
    MalformedMeld,
    MeldShape,
    canasta_count,
    meld_rule_breaks,
    meld_shape,
    mixed_ranks_problem,
    standing_meld_problem,
)
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import AskPartner, SideFormation


def validate_table(table: HandTable, rules: CompiledRules, prefix: str = "table") -> list[list[MeldShape]]:
    """Raise InvalidInputError listing every way the table cannot have come from a hand under `rules`.

    Returns each side's meld shapes when the table is well formed.
    """
    problems = Problems()
    if len(table.sides) != rules.sides:
        problems.add(f"{prefix}.sides", f"has {len(table.sides)} sides; rule set '{rules.id}' has {rules.sides}")
    all_cards: list[tuple[str, int]] = []
    shapes: list[list[MeldShape]] = []
    went_out_sides = [i for i, s in enumerate(table.sides) if s.went_out != WentOut.NO]
    if len(went_out_sides) > 1:
        problems.add(f"{prefix}.sides", f"sides {went_out_sides} all claim to have gone out; at most one can")
    formed = table.side_of_seat
    if len(table.sides) != rules.sides:
        formed = ()  # judged as if unformed: the table's sides are reported above
    elif formed:
        problem = formation_problem(rules, formed, [bool(side.melds) for side in table.sides])
        if problem is not None:
            problems.add(f"{prefix}.{problem[0]}", problem[1])
            formed = ()
    elif rules.side_formation == SideFormation.LONE_HAND and went_out_sides:
        problems.add(
            f"{prefix}.side_of_seat",
            "is empty, but a player who goes out before sides form plays alone against the others"
            " (players.side_formation): say who played alone",
        )
    for i, side in enumerate(table.sides):
        path = f"{prefix}.sides[{i}]"
        merged = formed.count(i) > 1
        goer_melds = table.sides[formed[i]].melds if formed and side.went_out != WentOut.NO else None
        # a partnership's melds (on the lower partner's entry) end with a going out by either partner
        melds_going_out = any(table.sides[k].went_out != WentOut.NO for k, e in enumerate(formed) if e == i)
        shapes.append(
            _check_side(
                side,
                rules,
                path,
                problems,
                all_cards,
                merged=merged,
                goer_melds=goer_melds,
                melds_going_out=melds_going_out or side.went_out != WentOut.NO,
            )
        )
    _check_copies(all_cards, rules, problems)
    problems.raise_if_any()
    return shapes


def _check_side(
    side: SideTable,
    rules: CompiledRules,
    path: str,
    problems: Problems,
    all_cards: list[tuple[str, int]],
    *,
    merged: bool = False,
    goer_melds: tuple[tuple[int, ...], ...] | None = None,
    melds_going_out: bool = False,
) -> list[MeldShape]:
    """`merged`: the entry holds a partnership's melds put together when sides formed (a meld may hold up to twice
    melds.max_wilds); `goer_melds`: the melds of the side a player of this entry went out for, when they are kept
    on another entry (sides formed during the hand)."""
    going_out = side.went_out != WentOut.NO
    shapes: list[MeldShape] = []
    meld_going_out = going_out or melds_going_out
    ranks_seen: dict[int, int] = {}
    for j, meld in enumerate(side.melds):
        meld_path = f"{path}.melds[{j}]"
        if not _cards_valid(meld, meld_path, problems, all_cards):
            continue
        try:
            shape = meld_shape(meld)
        except MalformedMeld as exc:
            problems.add(meld_path, str(exc))
            continue
        if shape.run and not rules.runs.min_size:
            problems.add(meld_path, mixed_ranks_problem(meld))
            continue
        for broken in meld_rule_breaks(shape, rules, going_out=meld_going_out):
            if merged and broken.field == "melds.max_wilds" and shape.wilds <= 2 * rules.melds.max_wilds:
                continue
            problems.add(meld_path, f"{broken.why} (rule-set field {broken.field})")
        standing = standing_meld_problem(rules, shape)
        if standing is not None:
            problems.add(meld_path, standing)
        if rules.melds.one_meld_per_rank and not shape.black_threes and not shape.run and shape.rank in ranks_seen:
            problems.add(
                meld_path,
                f"a second meld of the same rank as melds[{ranks_seen[shape.rank]}]; a side has"
                " one meld per rank (rule-set field melds.one_meld_per_rank)",
            )
        ranks_seen.setdefault(shape.rank, j)
        shapes.append(shape)
    if _cards_valid(side.red_threes, f"{path}.red_threes", problems, all_cards):
        for k, card in enumerate(side.red_threes):
            if card not in rules.bonus_threes:
                problems.add(f"{path}.red_threes[{k}]", not_laid_reason(rules, card))
    if side.unable_after_yes and rules.going_out.ask_partner == AskPartner.NONE:
        problems.add(
            f"{path}.unable_after_yes",
            f"is {side.unable_after_yes}, but rule set '{rules.id}' has no partner to ask (going_out.ask_partner)",
        )
    if len(side.hands) != rules.side_size:
        problems.add(f"{path}.hands", f"has {len(side.hands)} hands; a side has {rules.side_size} player(s)")
    for k, hand in enumerate(side.hands):
        hand_path = f"{path}.hands[{k}]"
        if _cards_valid(hand, hand_path, problems, all_cards):
            for m, card in enumerate(hand):
                if card in rules.bonus_threes:
                    what = "a red three" if card in _RED else "a black three"
                    problems.add(f"{hand_path}[{m}]", f"{what} is never kept in hand: it is laid at once")
    if going_out:
        canastas = canasta_count(rules, shapes if goer_melds is None else _shapes_of(goer_melds))
        required = rules.going_out.canastas_required
        if canastas < required:
            problems.add(
                f"{path}.went_out",
                f"the side went out with {canastas} canasta(s); rule set"
                f" '{rules.id}' requires {required} (rule-set field going_out.canastas_required)",
            )
        if side.hands and all(side.hands):
            problems.add(f"{path}.went_out", "the side went out but none of its players has an empty hand")
    return shapes


_RED = frozenset(c for c in ALL_CARDS if is_red_three(c))


def _shapes_of(melds: tuple[tuple[int, ...], ...]) -> list[MeldShape]:
    """The shapes of the melds that are melds (the others are reported where they stand)."""
    shapes = []
    for meld in melds:
        if not all(is_valid(card) for card in meld):
            continue
        try:
            shapes.append(meld_shape(meld))
        except MalformedMeld:
            continue
    return shapes


def _cards_valid(cards: tuple[int, ...], path: str, problems: Problems, all_cards: list[tuple[str, int]]) -> bool:
    ok = True
    for k, card in enumerate(cards):
        if not is_valid(card):
            problems.add(f"{path}[{k}]", f"{card} is not a card (CARD_UNSPECIFIED or an unknown enum number)")
            ok = False
        else:
            all_cards.append((path, card))
    return ok


def _check_copies(all_cards: list[tuple[str, int]], rules: CompiledRules, problems: Problems) -> None:
    counts = count_copies([c for _, c in all_cards])
    for card, n in sorted(counts.items()):
        allowed = copies_allowed(card, rules.deck.packs, rules.deck.jokers)
        if n > allowed:
            where = sorted({p for p, c in all_cards if c == card})
            problems.add(
                where[-1],
                f"{n} copies of {format_card(card)} on the table; the deck of rule set"
                f" '{rules.id}' holds {allowed} (found in {', '.join(where)})",
            )
