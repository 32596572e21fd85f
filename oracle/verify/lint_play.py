"""Lint rules for play: taking the discard pile, red and black threes, and going out."""

from __future__ import annotations

import z3

from oracle.verify.lint_base import ERROR, WARNING, Linter, field_of, phrase
from oracle.verify.model import Clause, MeldCounts, meld_counts


def pile(lt: Linter) -> None:
    """An error when a frozen pile can never be taken; a warning when natural-and-wild can never apply."""
    rm = lt.rm
    k, w = z3.Int("naturals_from_hand"), z3.Int("wilds_from_hand")
    group = MeldCounts(k + 1, w, z3.IntVal(0))
    deck = [
        Clause("deck.packs", f"the deck holds {rm.rank_copies} cards of each natural rank", k + 1 <= rm.rank_copies),
        Clause("deck", f"the deck holds {rm.wild_copies} wild cards", w <= rm.wild_copies),
    ]
    pair = Clause(
        "discard_pile", "a frozen pile is taken only with two naturals of the top card's rank from the hand", k >= 2
    )
    core = lt.core("frozen-pile-untakeable", [*rm.natural_meld_clauses(group), *deck, pair], [k >= 0, w >= 0])
    if core is not None:
        lt.add(
            "frozen-pile-untakeable",
            ERROR,
            field_of(core, "discard_pile"),
            f"a frozen pile can never be taken, as the top card and the naturals from the hand never make a legal"
            f" meld: {phrase(core)}",
        )
    if rm.spec.discard_pile.unfrozen_natural_and_wild:
        one = Clause(
            "discard_pile.unfrozen_natural_and_wild",
            "one natural and at least one wild from the hand go with the top card",
            z3.And(k == 1, w >= 1),
        )
        core = lt.core("natural-and-wild-dead", [*rm.natural_meld_clauses(group), *deck, one], [k >= 0, w >= 0])
        if core is not None:
            rest = [c for c in core if c is not one] or core
            lt.add(
                "natural-and-wild-dead",
                WARNING,
                "discard_pile.unfrozen_natural_and_wild",
                f"discard_pile.unfrozen_natural_and_wild never applies, as the top card with one natural and"
                f" wild cards is never a legal meld: {phrase(rest)}",
            )


def threes(lt: Linter) -> None:
    """Warnings for red-three bonuses that fall and black-three melds that cannot be or reach canasta size."""
    rm, t = lt.rm, lt.rm.spec.threes
    r = z3.Int("red_threes")
    # threes.red_three_held: no red three is laid, so the bonuses for laid red threes never score
    found = (
        None
        if t.red_three_held
        else lt.witness(
            "red-three-bonus-falls",
            [
                r >= 0,
                r + 1 <= rm.red_three_copies,
                rm.red_three_score(r + 1, z3.BoolVal(True)) <= rm.red_three_score(r, z3.BoolVal(True)),
            ],
        )
    )
    if found is not None:
        count = found.eval(r).as_long()
        lt.add(
            "red-three-bonus-falls",
            WARNING,
            "threes.all_red_threes_bonus",
            f"a side's score does not rise from {count} to {count + 1} red threes (threes.red_three_bonus"
            f" {t.red_three_bonus}, threes.all_red_threes_bonus {t.all_red_threes_bonus} for all"
            f" {rm.red_three_copies})",
        )
    b = meld_counts("black_meld")
    # threes.black_three_meld_max 0 means "black threes are never melded" (a rule, not a contradiction)
    core = (
        None
        if not t.black_three_meld_max
        else lt.core(
            "black-three-meld-impossible", rm.black_meld_clauses(b, z3.BoolVal(True)), [b.naturals >= 1, b.wilds >= 0]
        )
    )
    if core is not None:
        lt.add(
            "black-three-meld-impossible",
            WARNING,
            field_of(core, "threes.black_three_meld_min"),
            f"no black-three meld can ever be legal: {phrase(core)}",
        )
        return
    found = lt.witness(
        "black-three-meld-canasta-size",
        [rm.legal_black_meld(b, z3.BoolVal(True)), rm.is_canasta(b), b.wilds <= rm.wild_copies],
    )
    if found is not None:
        lt.add(
            "black-three-meld-canasta-size",
            WARNING,
            "threes.black_three_meld_max",
            f"a black-three meld of {found.eval(b.size)} cards reaches canastas.min_size {rm.canasta_size},"
            " yet black threes never make a canasta",
        )


def going_out(lt: Linter, canastas_possible: bool) -> None:
    """Errors when nobody can go out or a player is stranded; a warning for a concealed bonus below the plain one."""
    rm, g = lt.rm, lt.rm.spec.going_out
    if canastas_possible and rm.required > 0:
        melds = lt.melds
        if lt.witness("cannot-go-out", [*melds.constraints, melds.canastas >= rm.required]) is None:
            lt.add(
                "cannot-go-out",
                ERROR,
                "going_out.canastas_required",
                f"nobody can ever go out: going_out.canastas_required asks for {rm.required} canastas, more than"
                f" the deck's cards can make at once under the meld rules (canastas.min_size {rm.canasta_size},"
                f" melds.max_wilds {rm.spec.melds.max_wilds}, melds.one_meld_per_rank"
                f" {str(rm.spec.melds.one_meld_per_rank).lower()})",
            )
    after, canastas = z3.Int("cards_after_melding"), z3.Int("canastas")
    found = lt.witness(
        "keep-strands-player", [canastas >= 0, canastas < rm.required, rm.turn_end_ok(after, canastas), after < 2]
    )
    if found is not None:
        lt.add(
            "keep-strands-player",
            ERROR,
            "going_out.min_hand_after_meld_without_canastas",
            f"a player without the side's {rm.required} canasta(s) may meld down to {found.eval(after)} card(s)"
            f" (going_out.min_hand_after_meld_without_canastas {g.min_hand_after_meld_without_canastas}) and"
            " then cannot discard without going out: no legal play is left",
        )
    if (
        lt.witness("concealed-bonus-below-plain", [rm.going_out_bonus(z3.IntVal(2)) < rm.going_out_bonus(z3.IntVal(1))])
        is not None
    ):
        lt.add(
            "concealed-bonus-below-plain",
            WARNING,
            "going_out.concealed_bonus",
            f"going out concealed earns {g.concealed_bonus} (going_out.concealed_bonus), less than the"
            f" {g.bonus} of going out normally (going_out.bonus)",
        )
