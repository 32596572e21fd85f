"""Whole positions for engine-against-model cases: the deck's cards handed out so that every card is somewhere."""

from __future__ import annotations

from collections import Counter

from oracle.model.cards import JOKER, RANK_TWO, make_card
from oracle.model.state import GameState, SeatState, SideState
from oracle.ruleset.compiled import CompiledRules
from oracle.verify.model import NATURAL_RANKS


class Cards:
    """The deck's cards still to place: take a rank's cards suit by suit; what is left fills the stock or pile."""

    def __init__(self, rules: CompiledRules) -> None:
        self.left: Counter[int] = Counter(rules.deck_counts)
        self.bonus = rules.bonus_threes  #: threes laid at once (red ones; black ones too as black_three_role BONUS)

    def take(self, rank: int, count: int, suits: tuple[int, ...] = (0, 1, 2, 3)) -> tuple[int, ...]:
        """`count` cards of a rank (RANK_TWO for twos), from the suit with most copies left; ValueError if short."""
        out = []
        for _ in range(count):
            card = max((make_card(rank, s) for s in suits), key=lambda c: self.left[c])
            if not self.left[card]:
                raise ValueError(f"no card of rank {rank} left")
            self.left[card] -= 1
            out.append(card)
        return tuple(out)

    def wilds(self, twos: int, jokers: int) -> tuple[int, ...]:
        """`twos` twos and `jokers` jokers."""
        if self.left[JOKER] < jokers:
            raise ValueError("no joker left")
        self.left[JOKER] -= jokers
        return self.take(RANK_TWO, twos) + (JOKER,) * jokers

    def free(self, rank: int) -> int:
        """Cards of a rank not placed yet."""
        return sum(self.left[make_card(rank, s)] for s in range(4))

    def plain(self, count: int, avoid: set[int]) -> tuple[int, ...]:
        """`count` natural cards of ranks not in `avoid`, fewest ranks first."""
        out: list[int] = []
        for rank in reversed(NATURAL_RANKS):
            if rank in avoid:
                continue
            while len(out) < count and self.free(rank):
                out += self.take(rank, 1)
        return tuple(out)

    def rest(self) -> tuple[int, ...]:
        """Every card not placed yet (the threes laid as bonus cards apart), in card order."""
        return tuple(sorted(c for c, n in self.left.items() for _ in range(n) if c not in self.bonus))

    def red_threes(self) -> tuple[int, ...]:
        """The threes laid as bonus cards (red ones, black ones too under BONUS) not placed yet."""
        return tuple(c for c, n in sorted(self.left.items()) for _ in range(n) if c in self.bonus)


def seat_hands(rules: CompiledRules, cards: Cards, mover: int, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Each seat's hand: `hand` and three plain fillers for `mover`, three plain cards for every other seat."""
    return [hand + cards.plain(3, set()) if seat == mover else cards.plain(3, set()) for seat in range(rules.seats)]


def whole_state(
    cards: Cards, seats: list[tuple[int, ...]], melds: list[list[tuple[int, ...]]], stock: int
) -> GameState:
    """A state holding every card: the given hands and melds (per entry), `stock` cards in the stock, the other
    cards in the discard pile (one on it at least) and the bonus threes on entry 0."""
    rest = cards.rest()
    stock_cards, pile = rest[:stock], rest[stock:]
    sides = [SideState(melds=tuple(m)) for m in melds]
    sides[0] = sides[0].evolve(red_threes=cards.red_threes())
    seat_states = tuple(SeatState(hand, melded_before=bool(melds[i % len(melds)])) for i, hand in enumerate(seats))
    return GameState(seats=seat_states, sides=tuple(sides), stock=stock_cards, discard_pile=pile)
