"""The score lines Modern American Canasta adds: rank and wild-card canasta bonuses, unfinished melds, ranks held
at the end, threes scored by how many of a colour were laid, and a side without canastas counting its melds minus."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oracle.model.cards import JOKER, describe_rank, format_cards, is_black_three, rank_of
from oracle.model.score import ScoreItem, ScoreLine
from oracle.rules.melds import MeldShape, is_canasta
from oracle.ruleset.compiled import CompiledRules


def special_canasta_line(rules: CompiledRules, shape: MeldShape, meld: Sequence[int]) -> ScoreLine | None:
    """The bonus line of a canasta this module prices (a wild-card canasta where canastas.wild_bonus is set, a
    natural canasta of a rank whose rank rule sets canasta_bonus), or None for the classic natural/mixed bonus."""
    c = rules.canastas
    if shape.all_wild:
        if not c.wild_bonus:
            return None
        jokers = sum(1 for card in meld if card == JOKER)
        if c.wild_all_twos_bonus and not jokers:
            return ScoreLine(
                ScoreItem.WILD_CANASTA, c.wild_all_twos_bonus, "canasta of twos", "canastas.wild_all_twos_bonus"
            )
        if c.wild_all_jokers_bonus and jokers == rules.deck.jokers:
            detail = f"canasta of wild cards with all {jokers} jokers"
            return ScoreLine(ScoreItem.WILD_CANASTA, c.wild_all_jokers_bonus, detail, "canastas.wild_all_jokers_bonus")
        return ScoreLine(ScoreItem.WILD_CANASTA, c.wild_bonus, "canasta of wild cards", "canastas.wild_bonus")
    rule = rules.rank_rule_at[shape.rank]
    if rule is not None and rule.canasta_bonus and not shape.wilds:
        detail = f"natural canasta of {describe_rank(shape.rank)}"
        return ScoreLine(ScoreItem.NATURAL_CANASTA, rule.canasta_bonus, detail, "melds.rank_rules")
    return None


def unfinished_lines(
    rules: CompiledRules, melds: Sequence[Sequence[int]], shapes: Sequence[MeldShape]
) -> list[ScoreLine]:
    """A penalty for each meld short of a canasta that costs points: a natural meld of a rank whose rank rule sets
    unfinished_penalty, a meld of wild cards where canastas.wild_unfinished_penalty is set."""
    out = []
    for meld, shape in zip(melds, shapes, strict=True):
        if shape.black_threes or is_canasta(shape, rules):
            continue
        if shape.all_wild:
            if rules.canastas.wild_unfinished_penalty:
                penalty = rules.canastas.wild_unfinished_penalty
                detail = f"{format_cards(meld)}: a meld of wild cards short of a canasta"
                out.append(ScoreLine(ScoreItem.UNFINISHED_MELD, -penalty, detail, "canastas.wild_unfinished_penalty"))
            continue
        rule = rules.rank_rule_at[shape.rank]
        if rule is not None and rule.unfinished_penalty and not shape.wilds:
            detail = f"{format_cards(meld)}: a natural meld of {describe_rank(shape.rank)} short of a canasta"
            out.append(ScoreLine(ScoreItem.UNFINISHED_MELD, -rule.unfinished_penalty, detail, "melds.rank_rules"))
    return out


def held_rank_lines(rules: CompiledRules, hands: Sequence[Sequence[int]], owners: Sequence[str]) -> list[ScoreLine]:
    """A rank rule's held_penalty for each player holding at least its held_min cards of the rank at the end."""
    if not rules.melds.rank_rules:
        return []
    out = []
    for hand, owner in zip(hands, owners, strict=True):
        counts = Counter(rank_of(card) for card in hand if card != JOKER)
        for rule in rules.melds.rank_rules:
            if rule.held_min and rule.held_penalty and counts[rule.rank] >= rule.held_min:
                detail = f"{owner}: {counts[rule.rank]} {describe_rank(rule.rank)} held"
                out.append(ScoreLine(ScoreItem.HELD_RANK, -rule.held_penalty, detail, "melds.rank_rules"))
    return out


def threes_by_count_lines(rules: CompiledRules, threes: Sequence[int], canastas: int) -> list[ScoreLine]:
    """threes.count_values: per colour, the value of how many threes of it the side laid, plus with at least
    threes.plus_from_canastas canastas, nothing from threes.minus_below_canastas, minus below."""
    t = rules.threes
    out = []
    for colour, cards in (
        ("red", [c for c in threes if not is_black_three(c)]),
        ("black", [c for c in threes if is_black_three(c)]),
    ):
        if not cards:
            continue
        value = t.count_values[min(len(cards), len(t.count_values)) - 1]
        if canastas < t.minus_below_canastas:
            sign, why = -1, f"minus: fewer than {t.minus_below_canastas} canasta(s)"
        elif canastas < t.plus_from_canastas:
            sign, why = 0, f"nothing: fewer than {t.plus_from_canastas} canastas"
        else:
            sign, why = 1, f"{canastas} canastas"
        detail = f"{format_cards(cards)}: {len(cards)} {colour} three(s), {value} ({why})"
        out.append(ScoreLine(ScoreItem.THREES_BY_COUNT, sign * value, detail, "threes.count_values"))
    return out


def melds_count_minus(rules: CompiledRules, shapes: Sequence[MeldShape]) -> bool:
    """card_values.table_minus_below_canastas: the side has fewer canastas than that, so its melded cards count
    minus."""
    below = rules.card_values.table_minus_below_canastas
    return bool(below) and sum(1 for shape in shapes if is_canasta(shape, rules)) < below
