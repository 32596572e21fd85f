"""Concrete cards for the engine-against-model cases: distinct physical cards for melds, wilds and a side's table."""

from __future__ import annotations

from oracle.model.cards import RANK_THREE
from oracle.model.table import SideTable, WentOut
from oracle.verify.deck_cards import Cards
from oracle.verify.hand_read import ConcreteSide
from oracle.verify.model import WILD_MELD, RuleModel
from oracle.verify.model_family import free_ranks, rank_rule


def wild_cards(rm: RuleModel, cards: Cards, wilds: int) -> tuple[int, ...]:
    """`wilds` wild cards from `cards`: jokers for half of them (as many as the deck has), twos for the rest."""
    jokers = max(wilds - rm.two_copies, min(rm.joker_copies, wilds // 2))
    return cards.wilds(wilds - jokers, jokers)


def side_cards(rm: RuleModel, cards: Cards, side: ConcreteSide) -> SideTable:
    """The physical cards of a side's table read from a model, taken from `cards`."""
    meld_cards: list[tuple[int, ...]] = []
    for rank, naturals, twos, jokers in side.melds:
        natural_cards = () if rank == WILD_MELD else cards.take(rank, naturals)
        meld_cards.append(natural_cards + cards.wilds(twos, jokers))
    if side.black_meld:
        threes, twos, jokers = side.black_meld
        meld_cards.append(cards.take(RANK_THREE, threes, suits=(0, 3)) + cards.wilds(twos, jokers))
    red = cards.take(RANK_THREE, side.red_threes, suits=(1, 2)) + cards.take(RANK_THREE, side.black_laid, (0, 3))
    held: list[int] = []
    for value_class, count in side.hand.items():
        for rank in free_ranks(rm.spec, value_class):
            take = min(count, cards.free(rank))
            held += cards.take(rank, take)
            count -= take
    held += cards.wilds(side.hand_twos, side.hand_jokers)
    held += cards.take(RANK_THREE, side.hand_black_threes, suits=(0, 3))
    held += cards.take(RANK_THREE, side.hand_red_threes, suits=(1, 2))  # threes.red_three_held
    hands = [held] + [[] for _ in range(rm.spec.players.side_size - 1)]
    for rank, count in side.hand_ranked.items():
        _deal_ranked(rm, hands, rank, list(cards.take(rank, count)), side.holders.get(rank, 0), side.went_out > 0)
    return SideTable(tuple(meld_cards), red, tuple(tuple(h) for h in hands), WentOut(side.went_out))


def _deal_ranked(rm: RuleModel, hands: list[list[int]], rank: int, cards: list[int], holders: int, out: bool) -> None:
    """Share a ruled rank's cards among the hands as the model counted them: `holders` players hold its rank rule's
    held_min or more, the others fewer; the last player of a side that went out holds nothing."""
    row = rank_rule(rm.spec, rank)
    need = row.held_min if row is not None and row.held_min and row.held_penalty else 0
    players = len(hands) - (1 if out and len(hands) > 1 else 0)
    for k in range(players):
        if not cards:
            return
        take = need if k < holders else max(0, need - 1) if need else len(cards)
        hands[k] += cards[:take]
        cards = cards[take:]
    hands[0 if holders or not need else players - 1] += cards


__all__ = ["side_cards", "wild_cards"]
