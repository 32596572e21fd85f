"""Lint rules for sides formed during the hand and the end of the stock: merged melds past a cap, a dead duty."""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.verify.lint_base import ERROR, WARNING, Linter
from oracle.verify.model import meld_counts
from oracle.verify.model_formation import lone_hand, merged, stock_turn


def merged_over_max_size(lt: Linter) -> None:
    """An error when, under players.side_formation LONE_HAND, two partners' legal melds of one rank put together
    pass melds.max_size: forming the sides would make a meld the rules refuse."""
    rm = lt.rm
    cap = rm.spec.melds.max_size
    if not lone_hand(rm.spec) or not cap:
        return
    low, high = meld_counts("low_partner_meld"), meld_counts("high_partner_meld")
    both = merged(low, high)
    found = lt.witness(
        "merged-meld-over-max-size",
        [rm.legal_natural_meld(low), rm.legal_natural_meld(high), rm.in_deck(both), both.size > cap],
    )
    if found is not None:
        a, b = found.eval(low.size).as_long(), found.eval(high.size).as_long()
        lt.add(
            "merged-meld-over-max-size",
            ERROR,
            "melds.max_size",
            f"two partners' melds of one rank, of {a} and {b} cards, become one meld of {a + b} cards when sides form"
            f" (players.side_formation LONE_HAND), more than melds.max_size {cap} allows",
        )


def must_take_dead(lt: Linter) -> None:
    """A warning when stock_exhaustion.must_take_pile can never apply: it is a duty of a player to draw from an
    empty stock, and no turn leaves the next player one (stock_exhaustion.after_last_card ENDS_AFTER_DISCARD)."""
    rm = lt.rm
    duty = rm.spec.stock_exhaustion.must_take_pile
    if duty in (ruleset_pb2.MUST_TAKE_PILE_NEVER, ruleset_pb2.MUST_TAKE_PILE_UNSPECIFIED):
        return
    turn = stock_turn(rm, "lint_turn")
    if lt.witness("must-take-dead", [*turn.constraints, z3.Not(turn.over), turn.after == 0]) is None:
        lt.add(
            "must-take-dead",
            WARNING,
            "stock_exhaustion.must_take_pile",
            f"stock_exhaustion.must_take_pile {ruleset_pb2.MustTakePile.Name(duty)} never applies: it binds a player"
            " to draw from an empty stock, and under stock_exhaustion.after_last_card ENDS_AFTER_DISCARD the"
            " discard that leaves the stock empty ends the hand",
        )
