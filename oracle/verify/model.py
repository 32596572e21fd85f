"""Compiles a rule set into Z3 terms over card counts: melds, canastas, points, the minimum, the pile, going out.

This is the executable specification the engine is checked against. It reads
only the RuleSet message (never the engine's code or CompiledRules' derived
tables) and states each rule over counts:

* a meld is (naturals, wilds, jokers among the wilds) of one natural rank, or
  of wild cards only; a black-three meld is (black threes, wilds);
* the deck holds 4 x packs cards of each natural rank and of twos, `jokers`
  jokers, 2 x packs black threes and 2 x packs red threes;
* legality: a meld with a natural needs melds.min_size cards, melds.min_naturals
  naturals, at most melds.max_wilds wilds, the melds.wild_ratio and at most
  melds.max_size cards (0: no cap); a wild-only meld needs melds.wild_only_melds,
  min_size and max_size (max_wilds and the ratio speak of wilds *beside*
  naturals); a black-three meld needs black_three_meld_min..max black threes,
  no wild unless black_three_meld_wilds, and going out when
  black_three_meld_going_out_only;
* a canasta is a meld of canastas.min_size cards or more (never black threes),
  natural with no wild; its bonus is natural_bonus or mixed_bonus;
* a side's hand score is melded card points + canasta bonuses + the red-three
  score + the going-out bonus - the points of cards left in hand;
* the minimum initial meld is the last threshold row whose from_score is at
  most the running total, else minimum_below_table;
* taking the pile: the top card is a natural; a frozen pile needs two naturals
  of its rank from the hand (and no wilds unless frozen_take_wilds); an unfrozen one also allows one natural with
  wilds (unfrozen_natural_and_wild) or the top card alone onto the side's meld
  (unfrozen_onto_existing_meld); the top card's new group must be a legal meld;
* going out: a turn may end with no card only with going_out.canastas_required
  canastas; without them at least min_hand_after_meld_without_canastas cards
  stay after melding.

The vocabulary (meld counts, labelled clauses, ranks by value class) is in
terms and is re-exported here. Rule-set numbers enter the terms as constants,
so each solver query is about one rule set. Counts are integers bounded by the deck, never by the play that
would lead to them (a hand holding most of the deck counts as possible).
"""

from __future__ import annotations

import z3

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import model_family, model_foot
from oracle.verify.kept_terms import built_once
from oracle.verify.meld_set import MeldSet, build_meld_set
from oracle.verify.model_numbers import SpecNumbers
from oracle.verify.terms import (
    NATURAL_RANKS,
    RANK_CLASSES,
    WILD_MELD,
    Clause,
    Cond,
    Expr,
    MeldCounts,
    field_value,
    fixed_meld,
    meld_counts,
    rank_value_field,
    spec_of,
)


class RuleModel(SpecNumbers):
    """One rule set's rules as Z3 terms over counts (see the module docstring for the semantics)."""

    def __init__(self, rules: CompiledRules | ruleset_pb2.RuleSet) -> None:
        self.spec = spec_of(rules)
        self.memo: dict[str, object] = {}  #: bigger terms built once per model (side hands, meld sets), by name

    # ----- melds -----------------------------------------------------------------------------------------

    def deck_clauses(self, m: MeldCounts) -> list[Clause]:
        """The deck's copies bound one meld's counts."""
        return [
            Clause(
                "deck.packs",
                f"the deck holds {self.rank_copies} cards of each natural rank",
                z3.And(m.naturals >= 0, m.naturals <= self.rank_copies),
            ),
            Clause(
                "deck.packs", f"the deck holds {self.two_copies} twos", z3.And(m.twos >= 0, m.twos <= self.two_copies)
            ),
            Clause(
                "deck.jokers",
                f"the deck holds {self.joker_copies} jokers",
                z3.And(m.jokers >= 0, m.jokers <= self.joker_copies),
            ),
        ]

    def in_deck(self, m: MeldCounts) -> Cond:
        """The meld's counts fit in the deck."""
        return z3.And([c.expr for c in self.deck_clauses(m)])

    def natural_meld_clauses(self, m: MeldCounts) -> list[Clause]:
        """The rules a meld holding at least one natural must follow."""
        s = self.spec.melds
        clauses = [
            Clause("melds.min_size", f"a meld needs at least {s.min_size} cards", m.size >= s.min_size),
            Clause(
                "melds.min_naturals",
                f"a meld needs at least {s.min_naturals} natural cards",
                m.naturals >= s.min_naturals,
            ),
            Clause("melds.max_wilds", f"a meld holds at most {s.max_wilds} wild cards", m.wilds <= s.max_wilds),
        ]
        if s.wild_ratio == ruleset_pb2.WILD_RATIO_AT_MOST_NATURALS:
            clauses.append(Clause("melds.wild_ratio", "wild cards may not outnumber naturals", m.wilds <= m.naturals))
        elif s.wild_ratio == ruleset_pb2.WILD_RATIO_FEWER_THAN_NATURALS:
            clauses.append(Clause("melds.wild_ratio", "naturals must outnumber wild cards", m.wilds < m.naturals))
        if s.max_size:
            clauses.append(Clause("melds.max_size", f"a meld holds at most {s.max_size} cards", m.size <= s.max_size))
        return clauses

    def wild_meld_clauses(self, m: MeldCounts) -> list[Clause]:
        """The rules a meld of wild cards only must follow."""
        s = self.spec.melds
        clauses = [
            Clause(
                "melds.wild_only_melds",
                "wild cards alone may make a meld" if s.wild_only_melds else "wild cards alone cannot make a meld",
                z3.BoolVal(s.wild_only_melds),
            ),
            Clause("melds.min_size", f"a meld needs at least {s.min_size} cards", m.size >= s.min_size),
        ]
        if s.max_size:
            clauses.append(Clause("melds.max_size", f"a meld holds at most {s.max_size} cards", m.size <= s.max_size))
        return clauses

    def legal_natural_meld(self, m: MeldCounts) -> Cond:
        """A legal meld of a natural rank (at least one natural)."""
        return z3.And(m.naturals >= 1, m.wilds >= 0, *[c.expr for c in self.natural_meld_clauses(m)])

    def legal_natural_meld_at(self, m: MeldCounts, rank: int, initial: Cond | bool = False) -> Cond:
        """A legal meld of `rank`: legal_natural_meld and the rank rule's wild limit (`initial`: laid in the side's
        initial meld)."""
        return z3.And(self.legal_natural_meld(m), model_family.rank_wilds_ok(self.spec, m, rank, initial))

    def legal_wild_meld(self, m: MeldCounts) -> Cond:
        """A legal meld of wild cards only."""
        return z3.And(m.naturals == 0, m.wilds >= 1, *[c.expr for c in self.wild_meld_clauses(m)])

    def legal_meld(self, m: MeldCounts) -> Cond:
        """A legal meld (not of black threes)."""
        return z3.Or(self.legal_natural_meld(m), self.legal_wild_meld(m))

    def black_meld_clauses(self, m: MeldCounts, going_out: Cond) -> list[Clause]:
        """The rules a meld of black threes (m.naturals of them) must follow."""
        t = self.spec.threes
        clauses = [
            Clause(
                "threes.black_three_meld_min",
                f"a black-three meld needs at least {t.black_three_meld_min} black threes",
                m.naturals >= t.black_three_meld_min,
            ),
            Clause(
                "threes.black_three_meld_max",
                f"a black-three meld holds at most {t.black_three_meld_max} black threes",
                m.naturals <= t.black_three_meld_max,
            ),
            Clause(
                "deck.packs",
                f"the deck holds {self.black_three_copies} black threes",
                m.naturals <= self.black_three_copies,
            ),
        ]
        if not t.black_three_meld_wilds:
            clauses.append(
                Clause("threes.black_three_meld_wilds", "no wild card may go in a black-three meld", m.wilds == 0)
            )
        if t.black_three_meld_going_out_only:
            clauses.append(
                Clause(
                    "threes.black_three_meld_going_out_only", "black threes are melded only when going out", going_out
                )
            )
        return clauses

    def legal_black_meld(self, m: MeldCounts, going_out: Cond) -> Cond:
        """A legal meld of black threes."""
        return z3.And(m.naturals >= 1, m.wilds >= 0, *[c.expr for c in self.black_meld_clauses(m, going_out)])

    # ----- canastas and points ---------------------------------------------------------------------------

    def is_canasta(self, m: MeldCounts) -> Cond:
        """A meld (not of black threes) of at least canastas.min_size cards."""
        return m.size >= self.canasta_size

    def is_natural_canasta(self, m: MeldCounts) -> Cond:
        """A canasta with no wild card."""
        return z3.And(self.is_canasta(m), m.wilds == 0)

    def canasta_bonus(self, m: MeldCounts, rank: int | None = None, jokers: Expr | None = None) -> Expr:
        """The canasta bonus a meld earns: natural_bonus (a rank rule's canasta_bonus for `rank`), mixed_bonus, or
        for a meld of wild cards alone (`rank` WILD_MELD, holding `jokers` jokers) the wild-card bonuses; or 0."""
        c = self.spec.canastas
        if rank == WILD_MELD:
            bonus = model_family.wild_canasta_bonus(
                self.spec, m.jokers if jokers is None else jokers, self.joker_copies
            )
            return z3.If(self.is_canasta(m), bonus, 0)
        natural = model_family.natural_canasta_bonus(self.spec, rank)
        return z3.If(self.is_canasta(m), z3.If(m.wilds == 0, natural, c.mixed_bonus), 0)

    def rank_value(self, rank: int) -> int:
        """Points of one card of a natural rank (card_values.rank_values where it prices the rank)."""
        priced = model_foot.rank_points(self.spec, rank)
        return self.class_value(rank_value_field(rank)) if priced is None else priced

    def class_value(self, value_class: str) -> int:
        """Points of one card of a value class (a card_values field)."""
        return int(getattr(self.spec.card_values, value_class))

    def natural_value_choice(self, value: Expr) -> Cond:
        """`value` is the point value of some natural rank."""
        return z3.Or([value == self.rank_value(r) for r in NATURAL_RANKS])

    def wild_points(self, m: MeldCounts) -> Expr:
        """Points of a meld's wild cards."""
        v = self.spec.card_values
        return m.twos * v.two + m.jokers * v.joker

    def meld_points(self, m: MeldCounts, rank: int | Expr) -> Expr:
        """Card points of a meld of a natural rank (an int rank index, or an Expr holding the rank's value)."""
        per = self.rank_value(rank) if isinstance(rank, int) else rank
        return m.naturals * per + self.wild_points(m)

    def red_threes_count(self, has_meld: Cond, canastas: Expr) -> Cond:
        """A side's red threes count for it: it has threes.canastas_for_red_threes canastas, or (that field 0) a
        meld."""
        needed = self.spec.threes.canastas_for_red_threes
        return canastas >= needed if needed else has_meld

    def red_threes_can_be_negative(self) -> bool:
        """Red threes count against a side whose red threes do not count for it (red_threes_count false)."""
        t = self.spec.threes
        return t.canastas_for_red_threes > 0 or t.red_threes_negative_without_meld

    def red_three_score(self, count: Expr, counted: Cond) -> Expr:
        """The red-three score of a side with `count` red threes; `counted`: they count for it (red_threes_count)."""
        t = self.spec.threes
        base = z3.If(count == self.red_three_copies, t.all_red_threes_bonus, count * t.red_three_bonus)
        # not counted: each one negated, and the whole set's bonus too where all_red_threes_negative_without_meld
        lost = base if t.all_red_threes_negative_without_meld else count * t.red_three_bonus
        return z3.If(counted, base, -lost) if self.red_threes_can_be_negative() else base

    def going_out_bonus(self, went_out: Expr) -> Expr:
        """The going-out bonus: went_out 0 = no, 1 = normally, 2 = concealed."""
        g = self.spec.going_out
        return z3.If(went_out == 2, g.concealed_bonus, z3.If(went_out == 1, g.bonus, 0))

    # ----- the minimum initial meld ----------------------------------------------------------------------

    def minimum(self, running_total: Expr) -> Expr:
        """The minimum initial meld for a running total."""
        result: Expr = z3.IntVal(self.spec.initial_meld.minimum_below_table)
        for from_score, minimum in self.thresholds:
            result = z3.If(running_total >= from_score, minimum, result)
        return result

    def row_of(self, running_total: Expr) -> Expr:
        """The threshold row in force for a running total (-1: below the table)."""
        result: Expr = z3.IntVal(-1)
        for index, (from_score, _) in enumerate(self.thresholds):
            result = z3.If(running_total >= from_score, index, result)
        return result

    # ----- the pile and going out ------------------------------------------------------------------------

    def take_pile(self, frozen: Cond, naturals: Expr, wilds: Expr, onto_meld: Cond, dead: Cond | bool = False) -> Cond:
        """A natural top card may be taken with `naturals` and `wilds` from the hand (or alone onto a meld); `dead`:
        either side has a canasta of its rank (discard_pile.closed_rank_dead then closes the pile)."""
        p = self.spec.discard_pile
        alone = z3.And(naturals == 0, wilds == 0, onto_meld)
        unfrozen = z3.Or(
            naturals >= 2,
            z3.And(naturals == 1, wilds >= 1, z3.BoolVal(p.unfrozen_natural_and_wild)),
            z3.And(alone, z3.BoolVal(p.unfrozen_onto_existing_meld)),
        )
        group = MeldCounts(naturals + 1, wilds, z3.IntVal(0))
        return z3.And(
            z3.Not(model_family.rank_dead(self.spec, z3.BoolVal(dead) if isinstance(dead, bool) else dead)),
            naturals >= 0,
            wilds >= 0,
            naturals + 1 <= self.rank_copies,
            z3.If(frozen, z3.And(naturals >= 2, z3.Or(wilds == 0, z3.BoolVal(p.frozen_take_wilds))), unfrozen),
            z3.Or(alone, self.legal_meld(group)),
        )

    def turn_end_ok(self, cards_after: Expr, canastas: Expr) -> Cond:
        """Melding may leave `cards_after` cards in hand with `canastas` canastas on the side."""
        keep = self.spec.going_out.min_hand_after_meld_without_canastas
        return z3.And(
            cards_after >= 0,
            z3.Or(canastas >= self.required, cards_after >= keep),
            z3.Implies(cards_after == 0, canastas >= self.required),
        )

    def discard_ok(self, cards_before: Expr, canastas: Expr) -> Cond:
        """A player holding `cards_before` may discard one (going out if it is the last)."""
        return z3.And(cards_before >= 1, z3.Implies(cards_before == 1, canastas >= self.required))

    # ----- several melds at once -------------------------------------------------------------------------

    def melds_at_once(self, name: str) -> MeldSet:
        """Melds a side may hold at once, one per natural rank (plus a wild-only meld if allowed), with points.

        Used for the initial meld and for "enough canastas to go out". Which
        wild sits in which meld does not matter, so twos and jokers are
        counted for all melds together; ranks of one value class are ordered
        by naturals melded (symmetry breaking). Built once per name.
        """
        cached = self.memo.get(f"melds_at_once:{name}")
        if isinstance(cached, MeldSet):
            return cached
        # built once per process for the values of the fields it reads, then copied (kept_terms): building them
        # through z3's Python wrapper was most of the cost of the lint's and the properties' meld sets
        built = built_once(f"melds_at_once:{name}", self.spec, lambda spec: build_meld_set(RuleModel(spec), name))
        self.memo[f"melds_at_once:{name}"] = built
        return built

    def first_turn_meld_ok(self, melds: MeldSet) -> Cond:
        """The melds can be laid from one turn's cards (deal.hand_size + turn.draw_count) and the turn ended.

        After melding, the player either has no card left (going out), or
        discards one, keeping what the keep rule and going out allow.
        """
        held = self.spec.deal.hand_size + self.spec.turn.draw_count
        after = held - melds.cards
        b = self.spec.bonus_cards
        # bonus_cards.keep_only_discard: a player owed bonus cards (an initial meld from the hand, the stock still
        # full at the first turn) need keep only the card he discards
        owed = b.keep_only_discard and (b.first_side or b.later_side)
        return z3.And(
            after >= 0,
            after >= 1 if owed else self.turn_end_ok(after, melds.canastas),
            z3.Or(after == 0, self.discard_ok(after, melds.canastas)),
        )


__all__ = [
    "NATURAL_RANKS",
    "RANK_CLASSES",
    "WILD_MELD",
    "Clause",
    "Cond",
    "Expr",
    "MeldCounts",
    "MeldSet",
    "RuleModel",
    "field_value",
    "fixed_meld",
    "meld_counts",
    "rank_value_field",
    "spec_of",
]
