"""Modern American Canasta (american-4p) positions for the service tests: simulated hands (fixed seeds) and
positions written in card notation for one rule each (sevens, an empty pile, bonus cards, the ask limit)."""

from __future__ import annotations

import functools

from helpers import Hand, four_seat_position, make_state, simulated_hand

from oracle.model.state import GameState

RULE_SET = "american-4p"
SEEDS = (1, 2, 3, 4)  #: one simulated hand per seed
#: The other three seats' hands in the written positions: any cards, none a three (every three is laid at once).
OTHERS = ("4D 5H 6S", "8D 9H TS", "JD QS KC")


@functools.cache
def american_hands() -> tuple[Hand, ...]:
    """The first hand of a simulated american-4p game per seed of SEEDS."""
    return tuple(simulated_hand(RULE_SET, seed) for seed in SEEDS)


def american_states(every: int = 1) -> list[tuple[str, GameState]]:
    """Every `every`-th state of the simulated hands, with the rule-set id."""
    return [(RULE_SET, state) for hand in american_hands() for state in hand.states[::every]]


def american(hand: str, melds: tuple[str, ...] = (), opp: tuple[str, ...] = (), **kw: object) -> GameState:
    """An american-4p state with seat 0 to move (seat 2 the partner); every card not placed is in the stock."""
    return make_state(
        "american-4p",
        hands=[hand, "6C 8D", "6D 8C", "6H 8H"],
        melds=[list(melds), list(opp)],
        **kw,  # type: ignore[arg-type]
    )


def position(
    hand: str,
    melds: tuple[str, ...] = (),
    *,
    melded_before: bool | None = None,
    stock: str = "4C 5C 6C 8C",
    pile: str = "9D",
    asks: tuple[int, int] = (0, 0),
    opponents: tuple[str, ...] = (),
) -> GameState:
    """Seat 0 to move in the play phase of a turn begun by drawing, holding `hand`; side 0 has `melds` (all there when
    the turn began) and side 1 `opponents`; `stock` lies on top of the cards the position does not place (its last
    card is drawn first); `asks` are the sides' questions this hand."""
    return four_seat_position(
        RULE_SET,
        hand,
        melds,
        others=OTHERS,
        opponents=opponents,
        pile=pile,
        stock=stock,
        melded_before=melded_before,
        asks=asks,
    )


__all__ = ["OTHERS", "RULE_SET", "SEEDS", "american", "american_hands", "american_states", "position"]
