"""Lint rules for the Modern American Canasta fields: threes by count, rank rules, the rule of five, the initial
meld's natural meld and bonus cards, where a combination is contradictory or can never apply."""

from __future__ import annotations

import z3

from oracle.verify import model_family as fam
from oracle.verify.lint_base import ERROR, WARNING, Linter, field_of, meld_rules, phrase
from oracle.verify.model import Clause, meld_counts


def threes_by_count(lt: Linter) -> None:
    """threes.count_values: bands out of order, values that fall, entries no count reaches, thresholds unused."""
    t, rm = lt.rm.spec.threes, lt.rm
    if not t.count_values:
        if t.minus_below_canastas or t.plus_from_canastas:
            lt.add(
                "count-values-bands",
                WARNING,
                "threes.count_values",
                f"threes.minus_below_canastas {t.minus_below_canastas} and plus_from_canastas"
                f" {t.plus_from_canastas} never apply: threes.count_values is empty, so threes score per red three",
            )
        return
    if t.minus_below_canastas > t.plus_from_canastas:
        lt.add(
            "count-values-bands",
            WARNING,
            "threes.plus_from_canastas",
            f"threes.minus_below_canastas {t.minus_below_canastas} is above threes.plus_from_canastas"
            f" {t.plus_from_canastas}: no canasta count scores the threes as nothing, and the threes of a side with"
            f" {t.plus_from_canastas} to {t.minus_below_canastas - 1} canastas count minus, not plus",
        )
    values = list(t.count_values)
    falls = [i for i in range(1, len(values)) if values[i] < values[i - 1]]
    if falls or values[0] < 0:
        where = f"count {falls[0] + 1} is worth {values[falls[0]]}" if falls else f"one three is worth {values[0]}"
        lt.add(
            "count-values-fall",
            WARNING,
            "threes.count_values",
            f"threes.count_values {values} is not a rising list of points ({where}): a further three of a colour"
            " would lower a side's plus score or raise its minus one",
        )
    copies = max(rm.red_three_copies, rm.black_three_copies if fam.black_threes_bonus(rm.spec) else 0)
    if len(values) > copies:
        lt.add(
            "count-values-dead",
            WARNING,
            "threes.count_values",
            f"threes.count_values has {len(values)} entries but the deck holds {copies} threes of a colour"
            f" (deck.packs {rm.spec.deck.packs}): the entries past {copies} never apply",
        )


def rank_rules(lt: Linter) -> None:
    """A rank rule whose wild limit never bites, or whose held penalty can never apply."""
    rm, spec = lt.rm, lt.rm.spec
    for rank in fam.ruled_ranks(spec):
        row = fam.rank_rule(spec, rank)
        assert row is not None
        where = f"melds.rank_rules (rank {row.rank})"
        m = meld_counts(f"rank[{rank}]")
        over = Clause(
            where, f"a meld of rank {row.rank} would hold more than {row.max_wilds} wild cards", m.wilds > row.max_wilds
        )
        core = lt.core("rank-rule-wilds-dead", [*meld_rules(lt, m), over], [m.naturals >= 1, m.wilds >= 0])
        if core is not None:
            lt.add(
                "rank-rule-wilds-dead",
                WARNING,
                "melds.rank_rules",
                f"{where}: max_wilds {row.max_wilds} never applies, as the general rules already keep every meld"
                f" within it: {phrase([c for c in core if c is not over] or core)}",
            )
        if bool(row.held_min) != bool(row.held_penalty):
            lt.add(
                "rank-rule-held-dead",
                WARNING,
                "melds.rank_rules",
                f"{where}: held_min {row.held_min} and held_penalty {row.held_penalty} must be set together;"
                " with one of them 0 no player is ever charged for holding the rank",
            )
        elif row.held_min > rm.rank_copies:
            lt.add(
                "rank-rule-held-dead",
                WARNING,
                "melds.rank_rules",
                f"{where}: held_min {row.held_min} is more than the deck's {rm.rank_copies} cards of the rank"
                f" (deck.packs {spec.deck.packs}), so held_penalty {row.held_penalty} never applies",
            )


def rule_of_five(lt: Linter) -> None:
    """melds.wilds_after_opening_min_naturals that no meld with a wild card can meet, or that every meld meets."""
    s = lt.rm.spec.melds
    base = s.wilds_after_opening_min_naturals
    if not base:
        return
    m = meld_counts("after_opening")
    joined = [
        Clause("melds.wilds_after_opening_min_naturals", f"it holds at least {base} naturals", m.naturals >= base),
        Clause("melds.wilds_after_opening_min_naturals", "a wild card joins it", m.wilds >= 1),
    ]
    core = lt.core("rule-of-five-dead", [*meld_rules(lt, m), *joined], [m.naturals >= 1])
    if core is not None:
        lt.add(
            "rule-of-five-dead",
            WARNING,
            field_of(core, "melds.wilds_after_opening_min_naturals"),
            f"after the side's initial meld no wild card can ever join a meld of a natural rank: {phrase(core)}",
        )
    elif base <= s.min_naturals:
        lt.add(
            "rule-of-five-dead",
            WARNING,
            "melds.wilds_after_opening_min_naturals",
            f"melds.wilds_after_opening_min_naturals {base} never applies: every meld already holds"
            f" melds.min_naturals {s.min_naturals} naturals",
        )


def natural_meld_required(lt: Linter) -> None:
    """An error when no meld of initial_meld.natural_meld_required naturals and no wild card can be legal."""
    rm = lt.rm
    req = rm.spec.initial_meld.natural_meld_required
    if not req:
        return
    m = meld_counts("natural_meld")
    wanted = [
        Clause(
            "initial_meld.natural_meld_required", f"the initial meld needs a meld of {req} naturals", m.naturals >= req
        ),
        Clause("initial_meld.natural_meld_required", "with no wild card", m.wilds == 0),
    ]
    held = rm.spec.deal.hand_size + rm.spec.turn.draw_count
    hand = Clause("deal.hand_size", f"a turn holds {held} cards with one to discard", m.size <= held - 1)
    core = lt.core("natural-meld-impossible", [*meld_rules(lt, m), *wanted, hand], [m.naturals >= 1])
    if core is not None:
        lt.add(
            "natural-meld-impossible",
            ERROR,
            "initial_meld.natural_meld_required",
            f"no side can ever make its initial meld, as the natural meld it needs can never be laid: {phrase(core)}",
        )


def bonus_cards(lt: Linter) -> None:
    """Bonus cards a stock above bonus_cards.none_when_stock_at_most cannot hold, or that the deal never leaves."""
    spec = lt.rm.spec
    b = spec.bonus_cards
    owed = max(b.first_side, b.later_side)
    if not owed:
        return
    stock = z3.Int("stock")
    short = lt.witness("bonus-cards-stock", [stock > b.none_when_stock_at_most, stock < owed, stock >= 0])
    if short is not None:
        lt.add(
            "bonus-cards-stock",
            ERROR,
            "bonus_cards.none_when_stock_at_most",
            f"a stock of {short.eval(stock)} card(s) is above bonus_cards.none_when_stock_at_most"
            f" {b.none_when_stock_at_most} but cannot give the {owed} bonus cards owed (first_side {b.first_side},"
            f" later_side {b.later_side})",
        )
    left = 52 * spec.deck.packs + spec.deck.jokers - spec.players.seats * spec.deal.hand_size - int(spec.deal.upcard)
    if left <= b.none_when_stock_at_most:
        lt.add(
            "bonus-cards-stock",
            WARNING,
            "bonus_cards.none_when_stock_at_most",
            f"the deal leaves {left} stock cards, no more than bonus_cards.none_when_stock_at_most"
            f" {b.none_when_stock_at_most}: no bonus card is ever drawn",
        )


__all__ = ["bonus_cards", "natural_meld_required", "rank_rules", "rule_of_five", "threes_by_count"]
