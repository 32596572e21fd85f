"""Scores a finished hand per side, item by item, under a rule set."""

from __future__ import annotations

from oracle.model.cards import describe_rank, format_cards
from oracle.model.score import ScoreItem, ScoreLine, SideScore
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.rules.melds import MeldShape, canasta_count, is_canasta
from oracle.rules.scoring_family import (
    held_rank_lines,
    melds_count_minus,
    special_canasta_line,
    threes_by_count_lines,
    unfinished_lines,
)
from oracle.rules.table_check import validate_table
from oracle.ruleset.compiled import CompiledRules


def score_hand(rules: CompiledRules, table: HandTable) -> list[SideScore]:
    """Score every side (every entry of the table); InvalidInputError if the table could not have come from a hand
    under `rules`.

    With sides formed during the hand (table.side_of_seat), each partner's score is the partnership's items (its
    melds, both partners' hands, its going out) plus or minus the partner's own red threes."""
    shapes = validate_table(table, rules)
    formed = table.side_of_seat
    if not formed:
        return [_score_side(rules, side, side_shapes) for side, side_shapes in zip(table.sides, shapes, strict=True)]
    scores = []
    for index, side in enumerate(table.sides):
        lead = formed[index]
        group = [table.sides[k] for k, entry in enumerate(formed) if entry == lead]
        went_out = max((member.went_out for member in group), default=WentOut.NO)
        pooled = SideTable(
            table.sides[lead].melds,
            side.red_threes,
            tuple(member.hands[0] for member in group),
            went_out,
            sum(member.unable_after_yes for member in group),
        )
        seats = [k for k, entry in enumerate(formed) if entry == lead]
        scores.append(_score_side(rules, pooled, shapes[lead], seats if len(seats) > 1 else None))
    return scores


def _score_side(
    rules: CompiledRules, side: SideTable, shapes: list[MeldShape], seats: list[int] | None = None
) -> SideScore:
    """The lines of one side's score; `seats` names the hands' owners (a partnership formed during the hand)."""
    points = rules.card_points
    lines: list[ScoreLine] = []
    minus = melds_count_minus(rules, shapes)  # card_values.table_minus_below_canastas
    for meld, shape in zip(side.melds, shapes, strict=True):
        name = _meld_name(shape)
        value = sum(points[c] for c in meld)
        lines.append(
            ScoreLine(
                ScoreItem.MELDED_CARDS,
                -value if minus else value,
                f"{format_cards(meld)} ({len(meld)} {name}{', minus: too few canastas' if minus else ''})",
                "card_values.table_minus_below_canastas" if minus else "card_values",
            )
        )
    for meld, shape in zip(side.melds, shapes, strict=True):
        if not is_canasta(shape, rules):
            continue
        special = special_canasta_line(rules, shape, meld) if rules.family_scoring else None
        if special is not None:
            lines.append(special)
        elif shape.run:
            lines.append(
                ScoreLine(
                    ScoreItem.RUN_CANASTA,
                    rules.runs.canasta_bonus,
                    f"run canasta {format_cards(meld)}",
                    "runs.canasta_bonus",
                )
            )
        elif shape.wilds == 0:
            lines.append(
                ScoreLine(
                    ScoreItem.NATURAL_CANASTA,
                    rules.canastas.natural_bonus,
                    f"natural canasta of {describe_rank(shape.rank)}",
                    "canastas.natural_bonus",
                )
            )
        else:
            lines.append(
                ScoreLine(
                    ScoreItem.MIXED_CANASTA,
                    rules.canastas.mixed_bonus,
                    f"mixed canasta of {describe_rank(shape.rank)} ({shape.wilds} wild)",
                    "canastas.mixed_bonus",
                )
            )
    if rules.family_scoring:
        lines.extend(unfinished_lines(rules, side.melds, shapes))
    if rules.threes.count_values:
        lines.extend(threes_by_count_lines(rules, side.red_threes, canasta_count(rules, shapes)))
    else:
        lines.extend(_red_three_lines(rules, side, canasta_count(rules, shapes)))
    if side.went_out == WentOut.NORMAL:
        lines.append(ScoreLine(ScoreItem.GOING_OUT, rules.going_out.bonus, "went out", "going_out.bonus"))
    elif side.went_out == WentOut.CONCEALED:
        lines.append(
            ScoreLine(
                ScoreItem.GOING_OUT_CONCEALED,
                rules.going_out.concealed_bonus,
                "went out concealed",
                "going_out.concealed_bonus",
            )
        )
    if side.unable_after_yes:
        times = side.unable_after_yes
        lines.append(
            ScoreLine(
                ScoreItem.CANNOT_GO_OUT_AFTER_YES,
                -times * rules.going_out.cannot_go_out_after_yes_penalty,
                f"told 'yes' to 'may I go out?' and could not go out ({times} time{'s' if times > 1 else ''})",
                "going_out.cannot_go_out_after_yes_penalty",
            )
        )
    owners = [f"player {k + 1}" if seats is None else f"seat {seats[k]}" for k in range(len(side.hands))]
    for owner, hand in zip(owners, side.hands, strict=True):
        detail = f"{owner}: " + (format_cards(hand) if hand else "no cards")
        lines.append(ScoreLine(ScoreItem.CARDS_IN_HAND, -sum(points[c] for c in hand), detail, "card_values"))
    lines.extend(held_rank_lines(rules, side.hands, owners))
    return SideScore(tuple(lines))


def _meld_name(shape: MeldShape) -> str:
    if shape.run:
        return "cards in sequence"
    return "black threes" if shape.black_threes else ("wild cards" if shape.all_wild else describe_rank(shape.rank))


def _red_three_lines(rules: CompiledRules, side: SideTable, canastas: int) -> list[ScoreLine]:
    t = rules.threes
    count = len(side.red_threes)
    if not count:
        return []
    in_deck = 2 * rules.deck.packs
    each = count * t.red_three_bonus
    extra = t.all_red_threes_bonus - each if count == in_deck else 0
    cards = format_cards(side.red_threes)
    needed = t.canastas_for_red_threes
    if needed and canastas < needed:
        why, field = f"{canastas} canasta(s) of the {needed} needed", "threes.canastas_for_red_threes"
    elif not needed and not side.melds and t.red_threes_negative_without_meld:
        why, field = "no meld", "threes.red_threes_negative_without_meld"
    else:
        why = ""
    if why:
        lines = [ScoreLine(ScoreItem.RED_THREES_WITHOUT_MELD, -each, f"{cards}: {count} red three(s) and {why}", field)]
        if extra and t.all_red_threes_negative_without_meld:
            lines.append(
                ScoreLine(
                    ScoreItem.ALL_RED_THREES_WITHOUT_MELD,
                    -extra,
                    f"all {in_deck} red threes and {why}",
                    "threes.all_red_threes_negative_without_meld",
                )
            )
        return lines
    lines = [ScoreLine(ScoreItem.RED_THREES, each, f"{cards}: {count} red three(s)", "threes.red_three_bonus")]
    if extra:
        lines.append(
            ScoreLine(
                ScoreItem.ALL_RED_THREES,
                extra,
                f"all {in_deck} red threes together make {t.all_red_threes_bonus}",
                "threes.all_red_threes_bonus",
            )
        )
    return lines
