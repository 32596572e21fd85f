"""The rules Modern American Canasta adds to laying melds and discarding: per-rank wild limits, the five-natural
base for wilds after the initial meld, the open wild meld, dead ranks, the initial meld's make-up, restricted
discards and the unfinished melds that stop a side going out. Each is a rule-set field; the classic games set none."""

from __future__ import annotations

from collections.abc import Sequence

from oracle.model.cards import JOKER, describe_rank, format_cards, is_wild, rank_of
from oracle.model.state import Cards, GameState
from oracle.rules.context import Ctx
from oracle.rules.meld_play import Laid, Placement
from oracle.rules.melds import MalformedMeld, MeldShape, is_canasta, meld_shape
from oracle.rules.violations import Code, Violation
from oracle.ruleset.compiled import CompiledRules


def _shape(meld: Sequence[int]) -> MeldShape | None:
    try:
        return meld_shape(tuple(meld))
    except MalformedMeld:
        return None


def dead_ranks(rules: CompiledRules, state: GameState) -> dict[int, int]:
    """discard_pile.closed_rank_dead: natural rank -> the first side holding a canasta of it (empty when the rule
    set has no dead ranks)."""
    if not rules.discard_pile.closed_rank_dead:
        return {}
    dead: dict[int, int] = {}
    for index, side in enumerate(state.sides):
        for meld in side.melds:
            shape = _shape(meld)
            if shape is not None and not shape.all_wild and not shape.black_threes and is_canasta(shape, rules):
                dead.setdefault(shape.rank, index)
    return dead


def _open_wild_meld(rules: CompiledRules, melds: Sequence[Cards]) -> Cards | None:
    """The side's meld of wild cards alone while it is short of a canasta, or None."""
    for meld in melds:
        shape = _shape(meld)
        if shape is not None and shape.all_wild and not is_canasta(shape, rules):
            return meld
    return None


def check_family_laid(ctx: Ctx, laid: Laid, *, opening: bool) -> list[Violation]:
    """The per-rank wild limits, the five-natural base, the open wild meld and dead ranks, group by group.

    `opening`: the groups belong to the side's initial meld (the side had no meld when the turn began)."""
    rules = ctx.rules
    m = rules.melds
    out: list[Violation] = []
    dead = dead_ranks(rules, ctx.state)
    open_wild = _open_wild_meld(rules, laid.melds) if m.open_wild_meld_blocks_wilds else None
    for placed in laid.placements:
        after = placed.after
        if after is None or after.black_threes:
            continue
        meld = f"{'new meld' if placed.before is None else 'meld (with the cards added)'} {format_cards(placed.cards)}"
        if not after.all_wild and after.rank in dead:
            out.append(ctx.fail(Code.MELD_RANK_DEAD, rank=describe_rank(after.rank), side=dead[after.rank], meld=meld))
        out += _rank_rule_wilds(ctx, placed, after, opening=opening, meld=meld)
        adds_wilds = placed.shape.wilds > 0 and not after.all_wild
        base = m.wilds_after_opening_min_naturals
        if base and adds_wilds and not opening and after.naturals < base:
            out.append(ctx.fail(Code.MELD_WILDS_NEED_BASE, min=base, naturals=after.naturals, meld=meld))
        if open_wild is not None and adds_wilds:
            out.append(ctx.fail(Code.WILD_MELD_OPEN, wild_meld=format_cards(open_wild), meld=meld))
    return out


def _rank_rule_wilds(ctx: Ctx, placed: Placement, after: MeldShape, *, opening: bool, meld: str) -> list[Violation]:
    """MELD_TOO_MANY_WILDS by a rank rule's max_wilds (melds.rank_rules); a meld of a rank whose rule lets wilds
    into the initial meld is ordinary once it holds one (laid then), and answers to the general limit only."""
    rule = ctx.rules.rank_rule_at[after.rank] if not after.all_wild else None
    if rule is None or after.wilds <= rule.max_wilds:
        return []
    if rule.wilds_in_initial_meld and (opening or (placed.before is not None and placed.before.wilds > 0)):
        return []
    return [
        ctx.fail(
            Code.MELD_TOO_MANY_WILDS,
            field="melds.rank_rules",
            max_wilds=rule.max_wilds,
            rank=describe_rank(after.rank),
            wilds=after.wilds,
            meld=meld,
        )
    ]


def check_initial_makeup(ctx: Ctx, laid: Laid, *, top: int | None = None) -> list[Violation]:
    """initial_meld.natural_meld_required and no_mixed_canasta for the side's initial meld (`top`: the pile's top
    card when the meld takes the pile; with initial_meld.pile_top_counts false it cannot be one of the naturals)."""
    rules = ctx.rules
    im = rules.initial_meld
    out: list[Violation] = []
    if im.natural_meld_required:
        dead = dead_ranks(rules, ctx.state)
        found = False
        for placed in laid.placements:
            after = placed.after
            if placed.before is not None or after is None or after.all_wild or after.black_threes or after.wilds:
                continue
            naturals = after.naturals
            if top is not None and not im.pile_top_counts and top in placed.cards:
                naturals -= 1
            if naturals >= im.natural_meld_required and after.rank not in dead:
                found = True
                break
        if not found:
            melds = " + ".join(format_cards(p.cards) for p in laid.placements) or "nothing"
            variant = "pile" if top is not None and not im.pile_top_counts else ""
            out.append(
                ctx.fail(
                    Code.INITIAL_MELD_NEEDS_NATURAL_MELD, variant=variant, count=im.natural_meld_required, melds=melds
                )
            )
    if im.no_mixed_canasta:
        for placed in laid.placements:
            after = placed.after
            if after is not None and after.wilds and not after.all_wild and is_canasta(after, rules):
                out.append(ctx.fail(Code.INITIAL_MELD_MIXED_CANASTA, meld=format_cards(placed.cards)))
    return out


def initial_points(rules: CompiledRules, points: int, top: int) -> int:
    """The points a pile take's melds count toward the minimum: without the top card where
    initial_meld.pile_top_counts is false."""
    return points if rules.initial_meld.pile_top_counts else points - rules.card_points[top]


def _restricted(ctx: Ctx, card: int, dead: dict[int, int], *, empty_pile: bool) -> tuple[str, str] | None:
    """(field, why) if `card` may not be discarded here unless nothing else may be; None if it may."""
    rules = ctx.rules
    d = rules.discard_pile
    if is_wild(card):
        if empty_pile and d.no_wild_on_empty_pile:
            return "discard_pile.no_wild_on_empty_pile", "a wild card"
        if d.wild_discard_last_resort:
            return "discard_pile.wild_discard_last_resort", "a wild card"
        return None
    if not empty_pile:
        return None
    rank = rank_of(card)
    rule = rules.rank_rule_at[rank] if card != JOKER else None
    if rule is not None and rule.no_discard_on_empty_pile:  # reported under the rule's own section, discard_pile
        return "discard_pile", f"{describe_rank(rank)} go onto no empty pile (melds.rank_rules)"
    if rank in dead:
        return "discard_pile.closed_rank_dead", f"{describe_rank(rank)} are dead"
    return None


def check_discard_restrictions(ctx: Ctx, card: int) -> list[Violation]:
    """DISCARD_RESTRICTED: a restricted card (onto an empty pile: a rank rule's, a wild, a dead card; a wild as a
    last resort) while the hand holds a card that is not."""
    d = ctx.rules.discard_pile
    if not (d.no_wild_on_empty_pile or d.wild_discard_last_resort or d.closed_rank_dead or ctx.rules.melds.rank_rules):
        return []
    empty = not ctx.state.discard_pile
    dead = dead_ranks(ctx.rules, ctx.state) if empty else {}
    found = _restricted(ctx, card, dead, empty_pile=empty)
    if found is None:
        return []
    others = sorted({c for c in ctx.hand if _restricted(ctx, c, dead, empty_pile=empty) is None})
    if not others:
        return []
    field, why = found
    if field == "discard_pile.wild_discard_last_resort":
        return [
            ctx.fail(
                Code.DISCARD_RESTRICTED,
                variant="wild",
                field=field,
                card=format_cards([card]),
                others=format_cards(others),
            )
        ]
    return [
        ctx.fail(Code.DISCARD_RESTRICTED, field=field, card=format_cards([card]), why=why, others=format_cards(others))
    ]


def unfinished_blockers(rules: CompiledRules, melds: Sequence[Cards]) -> list[Cards]:
    """going_out.unfinished_special_meld_blocks: the melds short of a canasta that stop the side going out (a
    natural meld of a rank whose rank rule has an unfinished penalty; a meld of wild cards alone where
    canastas.wild_unfinished_penalty is set)."""
    if not rules.going_out.unfinished_special_meld_blocks:
        return []
    out = []
    for meld in melds:
        shape = _shape(meld)
        if shape is None or shape.black_threes or is_canasta(shape, rules):
            continue
        if shape.all_wild:
            if rules.canastas.wild_unfinished_penalty:
                out.append(meld)
            continue
        rule = rules.rank_rule_at[shape.rank]
        if rule is not None and rule.unfinished_penalty and not shape.wilds:
            out.append(meld)
    return out


def check_unfinished_going_out(ctx: Ctx, melds: Sequence[Cards]) -> list[Violation]:
    """GO_OUT_WITH_UNFINISHED_MELD for each meld of `melds` (the side's, as it goes out) that stops it."""
    return [
        ctx.fail(Code.GO_OUT_WITH_UNFINISHED_MELD, meld=format_cards(m)) for m in unfinished_blockers(ctx.rules, melds)
    ]


__all__ = [
    "check_discard_restrictions",
    "check_family_laid",
    "check_initial_makeup",
    "check_unfinished_going_out",
    "dead_ranks",
    "initial_points",
    "unfinished_blockers",
]
