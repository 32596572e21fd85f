"""Lint rules for melds and canastas: none can be legal, limits that never bite, canastas unlike the books'."""

from __future__ import annotations

import z3

from oracle.verify.lint_base import ERROR, WARNING, Linter, field_of, meld_rules, phrase
from oracle.verify.model import NATURAL_RANKS, Clause, MeldCounts, meld_counts, rank_value_field


def melds_and_canastas(lt: Linter) -> bool:
    """Errors when no meld or no canasta can be legal; True when both are possible."""
    rm = lt.rm
    m = meld_counts("meld")
    has_natural = [m.naturals >= 1, m.wilds >= 0]
    core = lt.core("no-legal-meld", meld_rules(lt, m), has_natural)
    if core is not None:
        lt.add(
            "no-legal-meld",
            ERROR,
            field_of(core, "melds.min_size"),
            f"no meld of a natural rank can ever be legal: {phrase(core)}",
        )
        return False
    size = Clause("canastas.min_size", f"a canasta needs at least {rm.canasta_size} cards", rm.is_canasta(m))
    core = lt.core("no-canasta", [*meld_rules(lt, m), size], has_natural)
    if core is not None:
        lt.add(
            "no-canasta",
            ERROR,
            field_of(core, "canastas.min_size"),
            f"no canasta can ever be completed: {phrase(core)}",
        )
        return False
    natural = Clause("canastas.natural_bonus", "a natural canasta has no wild card", m.wilds == 0)
    core = lt.core("natural-canasta-impossible", [*meld_rules(lt, m), size, natural], has_natural)
    if core is not None:
        lt.add(
            "natural-canasta-impossible",
            WARNING,
            "canastas.natural_bonus",
            f"canastas.natural_bonus can never be earned, as no natural canasta is possible:"
            f" {phrase([c for c in core if c is not natural] or core)}",
        )
    mixed = Clause("canastas.mixed_bonus", "a mixed canasta holds a wild card", m.wilds >= 1)
    core = lt.core("mixed-canasta-impossible", [*meld_rules(lt, m), size, mixed], has_natural)
    w = meld_counts("wild_only")
    wild_canasta = lt.witness("mixed-canasta-impossible", [rm.legal_wild_meld(w), rm.is_canasta(w), rm.in_deck(w)])
    if core is not None and wild_canasta is None:
        lt.add(
            "mixed-canasta-impossible",
            WARNING,
            "canastas.mixed_bonus",
            f"canastas.mixed_bonus can never be earned, as no canasta can hold a wild card:"
            f" {phrase([c for c in core if c is not mixed] or core)}",
        )
    return True


def limits_dead(lt: Linter) -> None:
    """Warnings for meld limits that can never bite or never be reached."""
    rm, s = lt.rm, lt.rm.spec.melds
    m = meld_counts("meld")
    has_natural = [m.naturals >= 1, m.wilds >= 0]
    if s.max_wilds > 0:
        exact = Clause("melds.max_wilds", f"it would hold exactly {s.max_wilds} wild cards", m.wilds == s.max_wilds)
        core = lt.core("max-wilds-unreachable", [*meld_rules(lt, m), exact], has_natural)
        if core is not None:
            rest = [c for c in core if c is not exact] or core
            lt.add(
                "max-wilds-unreachable",
                WARNING,
                "melds.max_wilds",
                f"melds.max_wilds {s.max_wilds} can never be reached: {phrase(rest)}",
            )
    ratio = [c for c in rm.natural_meld_clauses(m) if c.field == "melds.wild_ratio"]
    if ratio:
        broken = Clause("melds.wild_ratio", "a meld would break the wild ratio", z3.Not(ratio[0].expr))
        core = lt.core("wild-ratio-dead", [*meld_rules(lt, m, skip="melds.wild_ratio"), broken], has_natural)
        if core is not None:
            rest = [c for c in core if c is not broken] or core
            lt.add(
                "wild-ratio-dead",
                WARNING,
                "melds.wild_ratio",
                f"melds.wild_ratio never applies, as every meld the other limits allow already meets it:"
                f" {phrase(rest)}",
            )
    if s.max_size:
        over = Clause("melds.max_size", f"a meld would have more than {s.max_size} cards", m.size > s.max_size)
        core = lt.core("max-size-dead", [*meld_rules(lt, m, skip="melds.max_size"), over], has_natural)
        if core is not None:
            rest = [c for c in core if c is not over] or core
            lt.add(
                "max-size-dead",
                WARNING,
                "melds.max_size",
                f"melds.max_size {s.max_size} never applies, as no meld can grow past it: {phrase(rest)}",
            )
    if s.wild_only_melds:
        w = meld_counts("wild_only")
        core = lt.core("wild-only-dead", rm.wild_meld_clauses(w) + rm.deck_clauses(w), [w.naturals == 0, w.wilds >= 1])
        if core is not None:
            lt.add(
                "wild-only-dead",
                WARNING,
                "melds.wild_only_melds",
                f"melds.wild_only_melds never applies, as no meld of wild cards alone can be legal: {phrase(core)}",
            )


def canasta_quality(lt: Linter) -> None:
    """Canastas unlike every rule book's: mostly wild (an error: the books define a canasta as mostly natural), or a
    natural one not worth more (a warning)."""
    rm, c = lt.rm, lt.rm.spec.canastas
    m = meld_counts("canasta")
    canasta = [rm.legal_natural_meld(m), rm.is_canasta(m), rm.in_deck(m)]
    found = lt.witness("canasta-mostly-wild", [*canasta, m.wilds >= m.naturals])
    if found is not None:
        n = found.eval(m.naturals).as_long()
        while (
            n > 1
            and (fewer := lt.witness("canasta-mostly-wild", [*canasta, m.wilds >= m.naturals, m.naturals == n - 1]))
            is not None
        ):
            found, n = fewer, n - 1  # report the canasta with the fewest naturals
        w = found.eval(m.wilds).as_long()
        lt.add(
            "canasta-mostly-wild",
            ERROR,
            "melds.max_wilds",
            f"a canasta may hold {w} wild cards and only {n} naturals (melds.max_wilds"
            f" {rm.spec.melds.max_wilds}, canastas.min_size {rm.canasta_size}, melds.min_naturals"
            f" {rm.spec.melds.min_naturals}); every rule book's canasta has more naturals than wild cards",
        )
    natural, mixed = meld_counts("natural"), meld_counts("mixed")
    pair = [
        rm.legal_natural_meld(natural),
        rm.is_natural_canasta(natural),
        rm.in_deck(natural),
        rm.legal_natural_meld(mixed),
        rm.is_canasta(mixed),
        mixed.wilds >= 1,
        rm.in_deck(mixed),
        mixed.size == natural.size,
    ]
    for rank in {rank_value_field(r): r for r in NATURAL_RANKS}.values():
        value = z3.IntVal(rm.rank_value(rank))
        nat = rm.meld_points(natural, value) + rm.canasta_bonus(natural)
        mix = rm.meld_points(mixed, value) + rm.canasta_bonus(mixed)
        found = lt.witness("natural-canasta-not-better", [*pair, nat <= mix])
        if found is not None:
            size, wilds = found.eval(natural.size).as_long(), found.eval(mixed.wilds).as_long()
            lt.add(
                "natural-canasta-not-better",
                WARNING,
                "canastas.natural_bonus",
                f"a natural canasta of {size} cards worth {rm.rank_value(rank)} each"
                f" ({rank_value_field(rank)}) scores {found.eval(nat)}, no more than the {found.eval(mix)} of a"
                f" mixed one of the same size with {wilds} wild card(s) (canastas.natural_bonus"
                f" {c.natural_bonus}, canastas.mixed_bonus {c.mixed_bonus}, card_values)",
            )
            return


def wild_joins_natural(lt: Linter) -> None:
    """A warning when canastas.wild_may_join_natural is set but no natural canasta can take a wild card."""
    rm = lt.rm
    if not rm.spec.canastas.wild_may_join_natural:
        return
    n = z3.Int("naturals")
    grown = MeldCounts(n, z3.IntVal(1), z3.IntVal(0))
    natural = Clause(
        "canastas.min_size", f"a natural canasta has at least {rm.canasta_size} cards", n >= rm.canasta_size
    )
    core = lt.core("wild-join-dead", [*rm.natural_meld_clauses(grown), *rm.deck_clauses(grown), natural], [n >= 1])
    if core is not None:
        lt.add(
            "wild-join-dead",
            WARNING,
            "canastas.wild_may_join_natural",
            f"canastas.wild_may_join_natural never applies, as no natural canasta can take a wild card and stay"
            f" legal: {phrase(core)}",
        )
