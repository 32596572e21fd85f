"""The rule model of what sides formed during a hand add: merged melds, per-seat scores, and the end of the stock.

Under players.side_formation LONE_HAND the first player to take the pile
plays alone and the other two become partners whose melds are put together.
Stated over counts, as model.py states the rest:

* merging: two legal melds of one rank, one per partner, become one meld of
  their summed counts; such a meld meets every natural-meld rule except that
  it may hold up to twice melds.max_wilds wild cards (the limit of two legal
  melds), and cards join an existing meld under the usual rules except that
  naturals alone may join one already past melds.max_wilds;
* a formed table: the lone hand is a side of one (hand.side_hand "lone"); the
  partnership is a side whose melds, canastas, going out and cards in hand
  (both partners') are shared (hand.side_hand "partnership", with no
  empty-hand rule for going out: the other partner still holds cards), while
  each partner keeps his own red threes (the partnership side's red-three
  count is the lower partner's; `high_red` the higher one's);
* each seat's score: the lone hand's is his side's total; a partner's is the
  partnership's items with his own red-three score (threes.* applied to his
  own count, negated when the partnership has no meld);
* the stock over one turn: a turn that starts in the draw phase with `stock`
  cards draws turn.draw_count (the hand ends when fewer remain and
  turn.short_stock_draws_remaining is off) or takes the pile, replaces the
  red threes it lays from the stock, and ends the hand by going out, by a
  last-card red three, or, under stock_exhaustion.after_last_card
  ENDS_AFTER_DISCARD, by a discard with the stock empty; otherwise the next
  player is to draw from what is left.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify.hand import SideHand, side_hand
from oracle.verify.model import RANK_CLASSES, Clause, Cond, Expr, MeldCounts, RuleModel


def lone_hand(spec: ruleset_pb2.RuleSet) -> bool:
    """Whether sides form during the hand (players.side_formation LONE_HAND)."""
    return bool(spec.players.side_formation == ruleset_pb2.SIDE_FORMATION_LONE_HAND)


def ends_after_discard(spec: ruleset_pb2.RuleSet) -> bool:
    """Whether the discard after the last stock card ends the hand (stock_exhaustion.after_last_card)."""
    return bool(spec.stock_exhaustion.after_last_card == ruleset_pb2.AFTER_LAST_CARD_ENDS_AFTER_DISCARD)


# ----- merging the partners' melds ---------------------------------------------------------------------------


def merged_wild_limit(rm: RuleModel) -> int:
    """The most wild cards a meld put together from two partners' melds may hold: two legal melds' worth."""
    return 2 * rm.spec.melds.max_wilds


def merged(a: MeldCounts, b: MeldCounts) -> MeldCounts:
    """The meld two melds of one rank become when put together: every card of both."""
    return MeldCounts(a.naturals + b.naturals, a.wilds + b.wilds, a.jokers + b.jokers)


def merged_meld_clauses(rm: RuleModel, m: MeldCounts) -> list[Clause]:
    """The natural-meld rules a merged meld meets: melds.max_wilds is replaced by merged_wild_limit."""
    limit = merged_wild_limit(rm)
    clauses = [c for c in rm.natural_meld_clauses(m) if c.field != "melds.max_wilds"]
    clauses.append(
        Clause("players.side_formation", f"a merged meld holds at most {limit} wild cards", m.wilds <= limit)
    )
    return clauses


def legal_merged_meld(rm: RuleModel, m: MeldCounts) -> Cond:
    """A meld of a natural rank that may stand on a partnership's side after the merge."""
    return z3.And(m.naturals >= 1, m.wilds >= 0, *[c.expr for c in merged_meld_clauses(rm, m)])


def join_legal(rm: RuleModel, before: MeldCounts, naturals: Expr, wilds: Expr) -> Cond:
    """Adding `naturals` and `wilds` to an existing meld (merged or not) is legal: the grown meld meets the usual
    rules, except that naturals alone may join a meld already past melds.max_wilds (it stays a legal merged meld),
    and a wild card joins a natural canasta only under canastas.wild_may_join_natural."""
    after = MeldCounts(before.naturals + naturals, before.wilds + wilds, before.jokers)
    onto_natural_canasta = z3.And(wilds >= 1, rm.is_natural_canasta(before))
    return z3.And(
        z3.If(wilds == 0, legal_merged_meld(rm, after), rm.legal_natural_meld(after)),
        z3.Implies(onto_natural_canasta, z3.BoolVal(rm.spec.canastas.wild_may_join_natural)),
    )


# ----- a formed table and each seat's score ------------------------------------------------------------------


@dataclass(frozen=True)
class FormedTable:
    """The end-of-hand table once sides formed: a lone hand, a partnership, and the higher partner's red threes."""

    lone: SideHand
    partnership: SideHand  #: red_threes is the lower partner's
    high_red: Expr  #: red threes the higher partner laid
    constraints: tuple[Cond, ...]


def formed_table(rm: RuleModel) -> FormedTable:
    """Terms for a formed table (see the module docstring), within one deck; built once per model."""
    cached = rm.memo.get("formed_table")
    if isinstance(cached, FormedTable):
        return cached
    lone = side_hand(rm, "lone")
    pair = side_hand(rm, "partnership", partnership=True)
    high_red = z3.Int("partnership.high_red_threes")
    cons = [*lone.constraints, *pair.constraints, high_red >= 0]
    cons += shared_deck(rm, lone, pair)
    cons.append(lone.red_threes + pair.red_threes + high_red <= rm.red_three_copies)
    cons.append(z3.Not(z3.And(lone.went_out >= 1, pair.went_out >= 1)))  # one player goes out
    built = FormedTable(lone, pair, high_red, tuple(cons))
    rm.memo["formed_table"] = built
    return built


def shared_deck(rm: RuleModel, a: SideHand, b: SideHand) -> list[Cond]:
    """Two sides' cards together fit in the deck, rank by rank (naturals per value class in hand)."""
    cons: list[Cond] = []
    for value_class, ranks in RANK_CLASSES.items():
        melded = [s.counts.naturals for side in (a, b) for s in side.slots if s.rank in ranks]
        held = [a.hand_naturals[value_class], b.hand_naturals[value_class]]
        cons.append(z3.Sum(melded + held) <= rm.rank_copies * len(ranks))
        for rank in ranks:
            cons.append(
                z3.Sum([s.counts.naturals for side in (a, b) for s in side.slots if s.rank == rank]) <= rm.rank_copies
            )
    cons += [
        a.melded_twos + a.hand_twos + b.melded_twos + b.hand_twos <= rm.two_copies,
        a.melded_jokers + a.hand_jokers + b.melded_jokers + b.hand_jokers <= rm.joker_copies,
        a.black.naturals + a.hand_black_threes + b.black.naturals + b.hand_black_threes <= rm.black_three_copies,
    ]
    return cons


def own_red_score(rm: RuleModel, table: FormedTable, high: bool) -> Expr:
    """A partner's own red-three score: threes.* on his own count, with the partnership's meld deciding the sign."""
    count = table.high_red if high else table.partnership.red_threes
    return rm.red_three_score(count, rm.red_threes_count(table.partnership.has_meld, table.partnership.canastas))


def shared_items(table: FormedTable) -> Expr:
    """The partnership's items both partners score: melded cards, canastas, going out, both hands' cards."""
    i = table.partnership.items
    return i["melded"] + i["canastas"] + i["going_out"] + i["in_hand"]


def seat_scores(rm: RuleModel, table: FormedTable) -> tuple[Expr, Expr, Expr]:
    """(lone hand, lower partner, higher partner) hand scores under the model."""
    return (
        table.lone.total,
        shared_items(table) + own_red_score(rm, table, high=False),
        shared_items(table) + own_red_score(rm, table, high=True),
    )


def partner_hand_points(table: FormedTable) -> Expr:
    """Points of the cards the partners hold (as a positive number)."""
    return -table.partnership.items["in_hand"]


# ----- the stock over one turn -------------------------------------------------------------------------------


@dataclass(frozen=True)
class StockTurn:
    """One turn's effect on the stock as counts: it starts in the draw phase with `before` cards."""

    before: Expr
    after: Expr  #: cards left when the turn ends
    reds: Expr  #: red threes laid and replaced from the stock
    took_pile: Cond  #: the turn took the pile instead of drawing
    went_out: Cond
    last_red: Cond  #: the last stock card drawn was a red three
    over_at_draw: Cond  #: the draw itself ends the hand (too few cards to draw)
    over: Cond  #: the turn ends the hand
    constraints: tuple[Cond, ...]


def deal_stock(rm: RuleModel, upcards: Expr) -> Expr:
    """The stock when the first player is to draw: the deck less the hands dealt and `upcards` turned up."""
    s = rm.spec
    deck = 13 * rm.rank_copies + rm.joker_copies  # 52 cards a pack: 13 ranks of 4 x packs, and the jokers
    return deck - s.players.seats * s.deal.hand_size - upcards


def upcard_bounds(rm: RuleModel, upcards: Expr) -> Cond:
    """The deal turns at least one upcard and at most one more per wild card and three (each may be covered)."""
    return z3.And(upcards >= 1, upcards <= 1 + rm.wild_copies + rm.red_three_copies + rm.black_three_copies)


def stock_turn(rm: RuleModel, name: str = "turn") -> StockTurn:
    """A turn from the draw phase to the next draw phase or the end of the hand (see the module docstring)."""
    s = rm.spec
    before, after, reds = z3.Ints(f"{name}.stock_before {name}.stock_after {name}.red_threes_replaced")
    took_pile, went_out, last_red = z3.Bools(f"{name}.took_pile {name}.went_out {name}.last_card_red_three")
    count = s.turn.draw_count
    short = before < count
    drawn = z3.If(short, before, count)
    cannot_draw = z3.And(short, z3.BoolVal(not s.turn.short_stock_draws_remaining))
    left = z3.If(took_pile, before, before - drawn) - reds
    cons = [
        before >= 1,
        reds >= 0,
        after == left,
        after >= 0,
        z3.Implies(last_red, z3.And(z3.Not(took_pile), after == 0)),
    ]
    discard_ends = z3.And(after == 0, z3.BoolVal(ends_after_discard(s)))
    at_draw = z3.And(z3.Not(took_pile), cannot_draw)
    over = z3.Or(at_draw, went_out, last_red, discard_ends)
    return StockTurn(before, after, reds, took_pile, went_out, last_red, at_draw, over, tuple(cons))


__all__ = [
    "FormedTable",
    "StockTurn",
    "deal_stock",
    "ends_after_discard",
    "formed_table",
    "join_legal",
    "legal_merged_meld",
    "lone_hand",
    "merged",
    "merged_meld_clauses",
    "merged_wild_limit",
    "partner_hand_points",
    "seat_scores",
    "shared_deck",
    "shared_items",
    "stock_turn",
    "upcard_bounds",
]
