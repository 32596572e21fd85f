"""The proofs of the Modern American Canasta properties: threes by count, rank rules, the rule of five, the initial
meld's natural meld, bonus cards (see properties.PROPERTIES for each one's sentence)."""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_family as fam
from oracle.verify.model import MeldSet, RuleModel, fixed_meld, meld_counts
from oracle.verify.proving import Outcome, all_of, exists, meld_shown, prove

# ----- when a property applies -------------------------------------------------------------------------------


def no_count_values(spec: ruleset_pb2.RuleSet) -> str:
    """Why the threes-by-count property does not apply ("" when it does)."""
    return "" if spec.threes.count_values else "threes.count_values is empty: threes score per red three"


def no_rank_rules(spec: ruleset_pb2.RuleSet) -> str:
    """Why the rank-rule property does not apply."""
    return "" if spec.melds.rank_rules else "melds.rank_rules is empty: every rank follows the general meld limits"


def no_rule_of_five(spec: ruleset_pb2.RuleSet) -> str:
    """Why the rule-of-five property does not apply."""
    if spec.melds.wilds_after_opening_min_naturals:
        return ""
    return "melds.wilds_after_opening_min_naturals is 0: a wild card joins a meld after the opening as before it"


def no_natural_meld_required(spec: ruleset_pb2.RuleSet) -> str:
    """Why the natural-meld property does not apply."""
    if spec.initial_meld.natural_meld_required:
        return ""
    return "initial_meld.natural_meld_required is 0: the initial meld needs no natural meld"


def no_dead_ranks(spec: ruleset_pb2.RuleSet) -> str:
    """Why the dead-rank property does not apply."""
    return (
        "" if spec.discard_pile.closed_rank_dead else "discard_pile.closed_rank_dead is false: no rank is ever closed"
    )


def no_bonus_cards(spec: ruleset_pb2.RuleSet) -> str:
    """Why the bonus-cards property does not apply."""
    b = spec.bonus_cards
    return "" if b.first_side or b.later_side else "bonus_cards.first_side and later_side are 0: no bonus cards"


# ----- the initial meld's make-up ----------------------------------------------------------------------------


def initial_makeup(rm: RuleModel, melds: MeldSet) -> list[z3.BoolRef]:
    """initial_meld.natural_meld_required (one meld of that many naturals and no wild card) and no_mixed_canasta."""
    im = rm.spec.initial_meld
    cons = []
    naturals = [m for rank, m in melds.melds if rank >= 0]
    if im.natural_meld_required:
        cons.append(z3.Or([z3.And(m.naturals >= im.natural_meld_required, m.wilds == 0) for m in naturals]))
    if im.no_mixed_canasta:
        cons += [z3.Not(z3.And(rm.is_canasta(m), m.wilds >= 1)) for m in naturals]
    return cons


# ----- properties --------------------------------------------------------------------------------------------


def threes_by_count(rm: RuleModel) -> Outcome:
    n, canastas = z3.Int("threes_of_a_colour"), z3.Int("canastas")
    t, spec = rm.spec.threes, rm.spec
    copies = max(rm.red_three_copies, rm.black_three_copies)
    value, more = fam.count_value(spec, n), fam.count_value(spec, n + 1)
    score = fam.threes_by_count(spec, n, z3.IntVal(0), canastas)
    shown = [n, canastas, ("score", score)]
    return all_of(
        [
            ("monotone", prove(z3.And(more >= value, value >= 0), [n >= 0, n + 1 <= copies], [n, ("value", value)])),
            ("plus", prove(score > 0, [n >= 1, n <= copies, canastas >= t.plus_from_canastas], shown)),
            (
                "nothing",
                prove(
                    score == 0,
                    [n >= 0, n <= copies, canastas >= t.minus_below_canastas, canastas < t.plus_from_canastas],
                    shown,
                ),
            ),
            ("minus", prove(score < 0, [n >= 1, n <= copies, canastas >= 0, canastas < t.minus_below_canastas], shown)),
        ]
    )


def rank_rule_wilds(rm: RuleModel) -> Outcome:
    outcomes = []
    for rank in fam.ruled_ranks(rm.spec):
        row = fam.rank_rule(rm.spec, rank)
        assert row is not None
        m = meld_counts(f"rank[{rank}]")
        later = row.max_wilds
        initial = rm.spec.melds.max_wilds if row.wilds_in_initial_meld else row.max_wilds
        for label, limit, opening in (("after the initial meld", later, False), ("in the initial meld", initial, True)):
            legal = [rm.legal_natural_meld_at(m, rank, opening), rm.in_deck(m)]
            outcomes.append(
                (f"rank {row.rank} {label}: at most {limit}", prove(m.wilds <= limit, legal, meld_shown(m)))
            )
            outcomes.append(
                (
                    f"rank {row.rank} {label}: {limit} reached",
                    exists(z3.And(*legal, m.wilds == limit), meld_shown(m), f"no legal meld holds {limit} wild cards"),
                )
            )
    return all_of(outcomes)


def rule_of_five(rm: RuleModel) -> Outcome:
    base, s = rm.spec.melds.wilds_after_opening_min_naturals, rm.spec.melds
    m = fixed_meld(base, 1)
    joined = prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m)), show=[("naturals", m.naturals)])
    grown = meld_counts("grown")
    may_join = z3.And(rm.legal_natural_meld(grown), rm.in_deck(grown), grown.wilds >= 1, grown.naturals >= base)
    limit = s.max_size or rm.canasta_size
    return all_of(
        [
            (f"{base} naturals and a wild card make a legal meld", joined),
            (
                "such a meld can still reach a canasta",
                exists(z3.And(may_join, grown.size >= rm.canasta_size, grown.size <= limit), meld_shown(grown), "none"),
            ),
        ]
    )


def natural_meld_required(rm: RuleModel) -> Outcome:
    req, spec = rm.spec.initial_meld.natural_meld_required, rm.spec
    m = fixed_meld(req)
    melds = rm.melds_at_once("natural_initial")
    only = z3.And(
        *melds.constraints,
        *initial_makeup(rm, melds),
        rm.first_turn_meld_ok(melds),
        melds.cards == req,
    )
    return all_of(
        [
            (
                f"{req} naturals and no wild card make a legal meld",
                prove(z3.And(rm.legal_natural_meld(m), rm.in_deck(m))),
            ),
            (
                "laid alone from one turn's hand cards",
                exists(
                    only,
                    [("cards", melds.cards), ("points", melds.points)],
                    f"{req} naturals do not fit one turn's {spec.deal.hand_size} + {spec.turn.draw_count} cards",
                ),
            ),
        ]
    )


def dead_rank_reachable(rm: RuleModel) -> Outcome:
    m, s = meld_counts("canasta"), rm.spec.melds
    need = max(3, s.min_naturals, s.min_size)  # a pair under the top card, or a new meld of naturals
    ranks = fam.representative_ranks(rm.spec)
    canasta = z3.Or([rm.legal_natural_meld_at(m, rank, True) for rank in ranks])
    return exists(
        z3.And(canasta, rm.is_canasta(m), rm.in_deck(m), m.naturals + need <= rm.rank_copies),
        [*meld_shown(m), ("naturals_left", rm.rank_copies - m.naturals)],
        f"every canasta takes more than {rm.rank_copies - need} of the {rm.rank_copies} naturals of its rank, so no"
        f" other side can ever meld {need} of them or take the pile with them",
    )


def bonus_cards_fit(rm: RuleModel) -> Outcome:
    b, spec = rm.spec.bonus_cards, rm.spec
    stock = z3.Int("stock")
    owed = max(b.first_side, b.later_side)
    dealt = spec.players.seats * spec.deal.hand_size + (1 if spec.deal.upcard else 0)
    deck = 52 * spec.deck.packs + spec.deck.jokers
    return all_of(
        [
            (
                "a draw of bonus cards fits the stock",
                prove(stock >= owed, [stock > b.none_when_stock_at_most], [stock]),
            ),
            (
                "the deal leaves a stock they can come from",
                prove(
                    z3.IntVal(deck - dealt) > b.none_when_stock_at_most,
                    show=[("stock_after_deal", z3.IntVal(deck - dealt))],
                ),
            ),
        ]
    )


__all__ = [
    "bonus_cards_fit",
    "dead_rank_reachable",
    "initial_makeup",
    "natural_meld_required",
    "no_bonus_cards",
    "no_count_values",
    "no_dead_ranks",
    "no_natural_meld_required",
    "no_rank_rules",
    "no_rule_of_five",
    "rank_rule_wilds",
    "rule_of_five",
    "threes_by_count",
]
