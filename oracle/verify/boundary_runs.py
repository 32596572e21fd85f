"""Engine against model on Samba's runs, the pile's top card onto a run (runs.*) and combining two melds of a rank.

* run: a run of one suit from runs.lowest_rank of each size from runs.min_size - 1 to runs.max_size + 1 (or
  canasta_size + 1 without a cap), and a run with a gap, one of two suits and one holding a wild card; expected:
  model_runs.legal_run and is_run_canasta; the engine: oracle.rules.melds.meld_rule_breaks and is_canasta;
* pile-run: the side holds a run from runs.lowest_rank of each size from runs.min_size to runs.max_size, and a
  player takes the pile whose top card is the next card of the run, alone or with the following card from the
  hand; expected: whether model_runs.take_onto_run refuses it (the pile not frozen); the engine: whether the
  referee names a run or pile-onto-run code (frozen-pile codes aside).

* combine: the side holds two melds of kings, (3 naturals, a wild cards) and (3 naturals, b wild cards), a and b
  within melds.max_wilds, with a + b around it, and puts them together (Combine 1 2); expected: whether the
  combined meld is illegal (RuleModel.legal_natural_meld_at); the engine: COMBINE_BREAKS_MELD.

A rule set without runs (runs.min_size 0) has no run case, one without melds.combine_same_rank (or with
melds.one_meld_per_rank) no combine case.
"""

from __future__ import annotations

import z3

from oracle.model.actions import Combine, TakePile
from oracle.model.cards import RANK_KING, RANK_TWO, format_cards, is_black_three, is_wild
from oracle.rules import melds
from oracle.rules.facts import frozen_reasons_for_side
from oracle.ruleset.compiled import CompiledRules
from oracle.verify import model_runs as mr
from oracle.verify.boundary_play import STOCK, _case, _codes, verdict_codes
from oracle.verify.cases import Case
from oracle.verify.deck_cards import Cards, seat_hands, whole_state
from oracle.verify.model import RuleModel, fixed_meld
from oracle.verify.terms import NATURAL_RANKS, simplifies_true


def _counts(ranks: list[int], suits: int = 1, wilds: int = 0) -> mr.RunCounts:
    return mr.RunCounts({r: z3.IntVal(ranks.count(r)) for r in NATURAL_RANKS}, z3.IntVal(suits), z3.IntVal(wilds))


def _run_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    r, spec = rules.runs, rm.spec
    top = r.max_size or r.canasta_size
    shapes: list[tuple[str, list[int], int, int]] = []  # slug, ranks, suits (1 or 2), wilds
    for size in range(max(1, r.min_size - 1), top + 2):
        ranks = list(range(r.lowest_rank, r.lowest_rank + size))
        if ranks[-1] <= NATURAL_RANKS[-1] and size >= 2:
            shapes.append((f"size{size}", ranks, 1, 0))
    base = list(range(r.lowest_rank, r.lowest_rank + r.min_size))
    if base and base[-1] + 1 <= NATURAL_RANKS[-1]:
        shapes.append(("gap", [*base[:-1], base[-1] + 1], 1, 0))
    shapes += [("two-suits", base, 2, 0), ("wild", base, 1, 1)]
    # the model's answers, built once over a run's counts and given each shape's numbers (z3.substitute), where
    # building them again for each shape was most of these cases' time
    counts = mr.run_counts("run")
    legal = mr.legal_run(spec, counts)
    answers = {"legal": legal, "canasta": z3.And(legal, mr.is_run_canasta(spec, counts))}
    cases = []
    for slug, ranks, suits, wilds in shapes:
        cards = Cards(rules)
        laid = [cards.take(k, 1, suits=((1 if suits == 2 and i == 0 else 0),))[0] for i, k in enumerate(ranks)]
        laid += list(cards.take(RANK_TWO, wilds))
        run = _counts(ranks, suits, wilds)
        numbers = [(counts.cards[r], run.cards[r]) for r in NATURAL_RANKS]
        numbers += [(counts.suits, run.suits), (counts.wilds, run.wilds)]
        expected: dict[str, object] = {k: simplifies_true(z3.substitute(t, *numbers)) for k, t in answers.items()}
        shape = melds.meld_shape(laid)
        breaks = [b.field for b in melds.meld_rule_breaks(shape, rules, going_out=False)]
        engine = {"legal": not breaks, "canasta": not breaks and melds.is_canasta(shape, rules), "breaks": breaks}
        cases.append(
            Case(
                f"{rm.id}-run-{slug}",
                f"a run {format_cards(laid)}: legal, a canasta",
                rm.id,
                "run",
                {"cards": format_cards(laid), "goingOut": False},
                expected,
                engine,
            )
        )
    return cases


def _unfrozen_take(
    rules: CompiledRules,
    cards: Cards,
    side_melds: list[list[tuple[int, ...]]],
    action: TakePile,
    hand: tuple[int, ...],
    top: int,
) -> dict[str, object]:
    """The violation codes the referee names for seat 0's take `action` holding `hand` (+ fillers), on a pile with
    no wild card and no black three (those go to the stock) under `top`: a pile that is not frozen."""
    state = whole_state(cards, seat_hands(rules, cards, 0, hand), side_melds, STOCK)
    freezers = [c for c in state.discard_pile if is_wild(c) or is_black_three(c)]
    kept = tuple(c for c in state.discard_pile if not (is_wild(c) or is_black_three(c)))
    state = state.evolve(stock=state.stock + tuple(freezers), discard_pile=(*kept, top), seat_to_move=0)
    frozen = frozen_reasons_for_side(rules, state, 0)
    if frozen:
        return {"error": f"the position's pile is frozen: {frozen}"}
    return verdict_codes(rules, state, action)


def _pile_run_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    r, spec = rules.runs, rm.spec
    cases = []
    for size in range(r.min_size, (r.max_size or r.canasta_size) + 1):
        for hand_cards in (0, 1):
            ranks = list(range(r.lowest_rank, r.lowest_rank + size))
            if ranks[-1] + 1 + hand_cards > NATURAL_RANKS[-1]:
                continue
            cards = Cards(rules)
            run = tuple(cards.take(k, 1, suits=(0,))[0] for k in ranks)
            top = cards.take(ranks[-1] + 1, 1, suits=(0,))[0]
            extra = tuple(cards.take(ranks[-1] + 2, 1, suits=(0,))) if hand_cards else ()
            side_melds: list[list[tuple[int, ...]]] = [[run]] + [[] for _ in range(rules.sides - 1)]
            answer = _unfrozen_take(rules, cards, side_melds, TakePile(with_cards=extra, onto=1), extra, top)
            take = mr.take_onto_run(spec, _counts(ranks), ranks[-1] + 1, z3.IntVal(hand_cards), z3.BoolVal(False))
            cases.append(
                _refused_case(
                    rm,
                    f"pile-run{size}-hand{hand_cards}",
                    f"the pile's top card onto the side's run of {size} with {hand_cards} hand card(s): refused",
                    take,
                    answer,
                )
            )
    return cases


def _refused_case(rm: RuleModel, slug: str, what: str, take: z3.BoolRef, answer: dict[str, object]) -> Case:
    """A take of the pile onto a run: refused where the model's `take` does not hold; the engine: any code."""
    codes = answer.get("codes")
    engine = {"refused": bool(codes) if isinstance(codes, list) else answer, **answer}
    return Case(
        f"{rm.id}-play-{slug}", what, rm.id, "play", {"slug": slug}, {"refused": not simplifies_true(take)}, engine
    )


def _frozen_pile_run_case(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """The top card alone onto the side's smallest run, the pile frozen by the wild cards in it."""
    r = rules.runs
    ranks = list(range(r.lowest_rank, r.lowest_rank + r.min_size))
    if ranks[-1] + 1 > NATURAL_RANKS[-1]:
        return []
    cards = Cards(rules)
    run = tuple(cards.take(k, 1, suits=(0,))[0] for k in ranks)
    top = cards.take(ranks[-1] + 1, 1, suits=(0,))[0]
    side_melds: list[list[tuple[int, ...]]] = [[run]] + [[] for _ in range(rules.sides - 1)]
    answer = _codes(rules, cards, side_melds, 0, TakePile(onto=1), (), top=top)
    take = mr.take_onto_run(rm.spec, _counts(ranks), ranks[-1] + 1, z3.IntVal(0), z3.BoolVal(True))
    what = f"the pile's top card alone onto the side's run of {len(ranks)}, the pile frozen: refused"
    return [_refused_case(rm, f"pile-run{len(ranks)}-frozen", what, take, answer)]


def _combine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    spec = rm.spec
    if spec.melds.one_meld_per_rank or not spec.melds.combine_same_rank or rm.rank_copies < 6:
        return []
    top = spec.melds.max_wilds
    pairs = sorted({(a, b) for a in range(top + 1) for b in range(a, top + 1) if top - 1 <= a + b <= top + 1})
    cases = []
    for first, second in pairs:
        if first + second > rm.wild_copies:
            continue
        cards = Cards(rules)
        one = cards.take(RANK_KING, 3) + cards.wilds(first, 0)
        two = cards.take(RANK_KING, 3) + cards.wilds(second, 0)
        side_melds: list[list[tuple[int, ...]]] = [[one, two]] + [[] for _ in range(rules.sides - 1)]
        answer = _codes(rules, cards, side_melds, 0, Combine(1, 2), ())
        legal = rm.legal_natural_meld_at(fixed_meld(6, first + second), RANK_KING)
        what = (
            f"two melds of kings, 3 naturals with {first} and with {second} wild card(s), put together: the"
            " result breaks a meld rule"
        )
        breaks = not simplifies_true(legal)
        cases.append(
            _case(rm, f"combine-w{first}-w{second}", what, breaks, "breaksMeld", answer, "COMBINE_BREAKS_MELD")
        )
    return cases


def run_engine_cases(rm: RuleModel, rules: CompiledRules) -> list[Case]:
    """Every run, pile-onto-run and combine case of the rule set (none without runs or combining)."""
    runs: list[Case] = []
    if rules.runs.min_size:
        runs = _run_cases(rm, rules) + _pile_run_cases(rm, rules) + _frozen_pile_run_case(rm, rules)
    return runs + _combine_cases(rm, rules)


__all__ = ["run_engine_cases"]
