"""Hand and Foot in the rule model: priced ranks, held red threes, open books, book quotas, minimum by hand, the foot.

Each function reads only the RuleSet message:

* card_values.rank_values prices single natural ranks apart from their band
  (priced ranks are counted one by one in a side's hand, never with their band);
* threes.red_three_held keeps red threes in the hand (or foot): never laid, each
  left at the end costing card_values.red_three;
* melds.one_open_meld_per_rank with melds.max_size: of a side's books of one
  rank, at most one is short of max_size (open);
* going_out.natural_canastas_required / mixed_canastas_required: going out
  needs that many natural and mixed canastas;
* initial_meld.minimum_by_hand: entry i is the minimum of hand i + 1, the last
  entry for every later hand;
* foot.size: a seat's foot as counts over one turn (foot_turn): an emptied hand
  takes the foot up at once when melding empties it under
  foot.continue_after_melding_out, else after the discard that empties it.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import rank_index
from oracle.verify.terms import Cond, Expr, MeldCounts


def priced_ranks(spec: ruleset_pb2.RuleSet) -> tuple[int, ...]:
    """The rank indexes card_values.rank_values prices apart from their band, in order."""
    return tuple(rank_index(row.rank) for row in spec.card_values.rank_values)


def rank_points(spec: ruleset_pb2.RuleSet, rank: int) -> int | None:
    """A priced rank's points (card_values.rank_values), or None where its band prices it."""
    for row in spec.card_values.rank_values:
        if rank_index(row.rank) == rank:
            return int(row.points)
    return None


def red_threes_held(spec: ruleset_pb2.RuleSet) -> bool:
    """Red threes stay in the hand and cost card_values.red_three each (threes.red_three_held)."""
    return bool(spec.threes.red_three_held)


def open_books(spec: ruleset_pb2.RuleSet, books: list[tuple[Cond, MeldCounts]]) -> list[Cond]:
    """Under melds.one_open_meld_per_rank (with melds.max_size) at most one of a rank's books (present, counts) is
    open, short of max_size; elsewhere nothing."""
    m = spec.melds
    if not (m.one_open_meld_per_rank and m.max_size) or len(books) < 2:
        return []
    return [z3.Sum([z3.If(z3.And(p, c.size < m.max_size), 1, 0) for p, c in books]) <= 1]


def has_quotas(spec: ruleset_pb2.RuleSet) -> bool:
    """Going out asks for natural and mixed canastas by kind."""
    g = spec.going_out
    return bool(g.natural_canastas_required or g.mixed_canastas_required)


def books_ok(spec: ruleset_pb2.RuleSet, natural: Expr, mixed: Expr) -> Cond:
    """A side with `natural` natural and `mixed` mixed canastas has the kind quotas going out asks (True without)."""
    g = spec.going_out
    return z3.And(natural >= g.natural_canastas_required, mixed >= g.mixed_canastas_required)


def minimum_for_hand(spec: ruleset_pb2.RuleSet, hand_number: int) -> int:
    """The minimum initial meld in the game's `hand_number`th hand (1-based) under initial_meld.minimum_by_hand."""
    by_hand = list(spec.initial_meld.minimum_by_hand)
    return by_hand[min(max(hand_number, 1), len(by_hand)) - 1]


@dataclass(frozen=True)
class FootTurn:
    """One turn of a seat with a foot, as counts (foot_turn): before, the cards moved, and after."""

    hand: Expr  #: cards in hand before the turn
    foot: Expr  #: cards in the foot before the turn (0: taken up)
    table: Expr  #: cards on the side's table before
    stock: Expr  #: cards in the stock before
    pile: Expr  #: cards in the discard pile before
    others: Expr  #: cards held by the other seats (hands and feet), unchanged by the turn
    drawn: Expr  #: cards drawn
    melded: Expr  #: cards melded from the hand
    discards: Cond  #: the turn ends with a discard
    canastas: Expr  #: the side's canastas after melding
    hand_after: Expr
    foot_after: Expr
    table_after: Expr
    stock_after: Expr
    pile_after: Expr
    went_out: Cond  #: the hand ends by this seat going out
    constraints: tuple[Cond, ...]

    def cards(self, after: bool) -> Expr:
        """Every card of the deck, counted where it is before (or after) the turn."""
        if after:
            return (
                self.hand_after + self.foot_after + self.table_after + self.stock_after + self.pile_after + self.others
            )
        return self.hand + self.foot + self.table + self.stock + self.pile + self.others


def foot_turn(spec: ruleset_pb2.RuleSet, required: int, name: str = "turn") -> FootTurn:
    """A drawing turn of a seat under foot.size: draw turn.draw_count, meld, then discard or not.

    An empty hand with the foot waiting takes the foot up: after melding under
    foot.continue_after_melding_out (play goes on), otherwise melding may not
    empty the hand and the discard that empties it takes the foot up. Without
    a waiting foot the going-out rules apply (`required` canastas; the keep
    rule going_out.min_hand_after_meld_without_canastas), and a turn ending
    with no card goes out.
    """
    f = spec.foot
    size, draw = f.size, spec.turn.draw_count
    keep = spec.going_out.min_hand_after_meld_without_canastas
    v = {k: z3.Int(f"{name}.{k}") for k in ("hand", "foot", "table", "stock", "pile", "others", "melded", "canastas")}
    discards = z3.Bool(f"{name}.discards")
    hand, foot, melded, canastas = v["hand"], v["foot"], v["melded"], v["canastas"]
    waiting = foot >= 1
    drawn = z3.If(v["stock"] >= draw, z3.IntVal(draw), v["stock"])
    after_meld = hand + drawn - melded
    take_up_now = z3.And(waiting, after_meld == 0, z3.BoolVal(f.continue_after_melding_out))
    held = z3.If(take_up_now, foot, after_meld)  # the hand once melding is done (the foot taken up if emptied)
    foot_mid = z3.If(take_up_now, 0, foot)
    left = held - z3.If(discards, 1, 0)
    take_up_late = z3.And(foot_mid >= 1, left == 0)
    cons: list[Cond] = [
        hand >= 1,
        z3.Or(foot == 0, foot == size),
        *(v[k] >= 0 for k in ("table", "stock", "pile", "others", "melded", "canastas")),
        melded <= hand + drawn,
        z3.Implies(z3.And(waiting, after_meld == 0), z3.BoolVal(f.continue_after_melding_out)),
        z3.Implies(discards, held >= 1),
        # no foot waiting: the going-out rules of the classic game decide how far a player may meld and discard
        z3.Implies(
            foot_mid == 0,
            z3.And(
                z3.Or(canastas >= required, held >= keep, z3.And(held == 0, canastas >= required)),
                z3.Implies(left == 0, canastas >= required),
            ),
        ),
        z3.Implies(z3.Not(z3.BoolVal(spec.going_out.discard_optional)), z3.Or(discards, left >= 1, foot_mid >= 1)),
    ]
    return FootTurn(
        hand=hand,
        foot=foot,
        table=v["table"],
        stock=v["stock"],
        pile=v["pile"],
        others=v["others"],
        drawn=drawn,
        melded=melded,
        discards=discards,
        canastas=canastas,
        hand_after=z3.If(take_up_late, foot_mid, left),
        foot_after=z3.If(take_up_late, 0, foot_mid),
        table_after=v["table"] + melded,
        stock_after=v["stock"] - drawn,
        pile_after=v["pile"] + z3.If(discards, 1, 0),
        went_out=z3.And(left == 0, foot_mid == 0),
        constraints=tuple(cons),
    )


__all__ = [
    "FootTurn",
    "books_ok",
    "foot_turn",
    "has_quotas",
    "minimum_for_hand",
    "open_books",
    "priced_ranks",
    "rank_points",
    "red_threes_held",
]
