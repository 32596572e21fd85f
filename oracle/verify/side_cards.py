"""Concrete cards for the engine-against-model cases: distinct physical cards for melds, wilds and a side's table."""

from __future__ import annotations

from collections import Counter

from oracle.model.cards import JOKER, RANK_THREE, RANK_TWO, make_card, rank_of
from oracle.model.table import SideTable, WentOut
from oracle.verify.hand_read import ConcreteSide
from oracle.verify.model import WILD_MELD, RuleModel
from oracle.verify.model_family import free_ranks, rank_rule


class Pool:
    """Hands out distinct physical cards: each suit of a rank is used as evenly as possible."""

    def __init__(self, packs: int) -> None:
        self.packs = packs
        self.used: Counter[int] = Counter()

    def take(self, rank: int, count: int, suits: tuple[int, ...] = (0, 1, 2, 3)) -> list[int]:
        cards = []
        for _ in range(count):
            card = min((make_card(rank, s) for s in suits), key=lambda c: self.used[c])
            self.used[card] += 1
            cards.append(card)
        return cards

    def free(self, rank: int) -> int:
        return 4 * self.packs - sum(n for c, n in self.used.items() if c != JOKER and rank_of(c) == rank)


def wild_cards(rm: RuleModel, pool: Pool, wilds: int) -> list[int]:
    jokers = max(wilds - rm.two_copies, min(rm.joker_copies, wilds // 2))
    return pool.take(RANK_TWO, wilds - jokers) + [JOKER] * jokers


def side_cards(rm: RuleModel, side: ConcreteSide) -> SideTable:
    pool = Pool(rm.spec.deck.packs)
    meld_cards: list[tuple[int, ...]] = []
    for rank, naturals, twos, jokers in side.melds:
        natural_cards = [] if rank == WILD_MELD else pool.take(rank, naturals)
        meld_cards.append(tuple(natural_cards + pool.take(RANK_TWO, twos) + [JOKER] * jokers))
    if side.black_meld:
        threes, twos, jokers = side.black_meld
        meld_cards.append(
            tuple(pool.take(RANK_THREE, threes, suits=(0, 3)) + pool.take(RANK_TWO, twos) + [JOKER] * jokers)
        )
    red = tuple(pool.take(RANK_THREE, side.red_threes, suits=(1, 2)) + pool.take(RANK_THREE, side.black_laid, (0, 3)))
    held: list[int] = []
    for value_class, count in side.hand.items():
        for rank in free_ranks(rm.spec, value_class):
            take = min(count, pool.free(rank))
            held += pool.take(rank, take)
            count -= take
    held += pool.take(RANK_TWO, side.hand_twos) + [JOKER] * side.hand_jokers
    held += pool.take(RANK_THREE, side.hand_black_threes, suits=(0, 3))
    held += pool.take(RANK_THREE, side.hand_red_threes, suits=(1, 2))  # threes.red_three_held
    hands = [held] + [[] for _ in range(rm.spec.players.side_size - 1)]
    for rank, count in side.hand_ranked.items():
        _deal_ranked(rm, hands, rank, pool.take(rank, count), side.holders.get(rank, 0), side.went_out > 0)
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


__all__ = ["Pool", "side_cards", "wild_cards"]
