"""Direct legal-move generation equals the referee's judgement of every candidate (legal_actions_by_referee): the
same list in the same order on every state of the shipped records and on random reachable states of every shipped
rule set (also with bigger hands, an empty stock, other running totals, the second step of a two-step take); bounded
lists keep their contract; the work grows with the actions listed, not with the candidates a referee would judge."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers import make_state
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from oracle.bench.states import positions, shipped_records
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions, legal_actions_by_referee, legal_actions_upto
from oracle.games.simulate import choose
from oracle.model.cards import JOKER, format_card, is_natural, is_red_three, rank_of
from oracle.model.state import GameState, Phase
from oracle.rules.referee import check_action
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

BOOK = default_rule_book()
RULE_SET_IDS = sorted(loaded if isinstance(loaded, str) else loaded.rules.id for loaded in BOOK)


def same(rules: CompiledRules, state: GameState) -> list[object]:
    """Assert the direct list is the referee's, exactly; return it."""
    direct = legal_actions(rules, state)
    reference = legal_actions_by_referee(rules, state)
    assert direct == reference, (
        f"{rules.id}: direct only {[a for a in direct if a not in reference][:5]},"
        f" referee only {[a for a in reference if a not in direct][:5]}"
    )
    return list(direct)


# --- the shipped records -----------------------------------------------------------------------------------------


def test_every_state_of_the_shipped_records() -> None:
    """Every record state of a rule set the direct generator models (rules.direct_movegen: for the others legal
    moves are the referee's judgement already, so the two lists are one computation)."""
    found = [p for p in positions(BOOK, shipped_records()) if BOOK.get(p.rule_set_id).rules.direct_movegen]
    assert len(found) > 5000
    for position in found:
        same(BOOK.get(position.rule_set_id).rules, position.state)


# --- random reachable states of every shipped rule set -------------------------------------------------------------


def _reachable(rules: CompiledRules, seed: int, steps: int, total: int) -> list[GameState]:
    """The states of a random game of `steps` actions (the simulation's bot choosing) from a seeded deal."""
    rng = random.Random(seed)
    order = deck_order(rules, DeckSource(seed=seed))
    state = deal(rules, order, dealer=seed % rules.seats, running_totals=(total,) * rules.sides)
    seen = [state]
    for _ in range(steps):
        if state.phase == Phase.HAND_OVER:
            break
        actions = legal_actions(rules, state)
        if not actions:
            break  # the rule books' dead end after the partner's answer (see README)
        verdict = check_action(rules, state, choose(state, actions, rng), validate=False)
        assert verdict.next_state is not None, verdict.violations
        state = verdict.next_state
        seen.append(state)
    return seen


def _bigger_hand(state: GameState, cards: int) -> GameState:
    """The mover takes `cards` more cards from the top of the stock (red threes stay there)."""
    seat = state.seat_to_move
    stock = list(state.stock)
    moved = []
    for k in range(len(stock) - 1, -1, -1):
        if len(moved) == cards:
            break
        if not is_red_three(stock[k]):
            moved.append(stock.pop(k))
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], hand=seats[seat].hand + tuple(moved))
    return replace(state, seats=tuple(seats), stock=tuple(stock))


def _stock_gone(state: GameState) -> GameState:
    """The stock moved under the discard pile (its red threes to the mover's side): the duty to take the pile."""
    reds = tuple(c for c in state.stock if is_red_three(c))
    rest = tuple(c for c in state.stock if not is_red_three(c))
    index = state.seat_to_move % len(state.sides)
    sides = list(state.sides)
    sides[index] = replace(sides[index], red_threes=sides[index].red_threes + reds)
    return replace(state, stock=(), discard_pile=rest + state.discard_pile, pile_upcards=0, sides=tuple(sides))


@settings(max_examples=50, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rule_set_id=st.sampled_from(RULE_SET_IDS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 90),
    total=st.sampled_from([0, 1500, 3000, -200]),
    extra=st.integers(0, 14),
    stock_gone=st.booleans(),
    limit=st.integers(0, 12),
)
def test_direct_equals_the_referee_on_random_reachable_states(
    rule_set_id: str, seed: int, steps: int, total: int, extra: int, stock_gone: bool, limit: int
) -> None:
    rules = BOOK.get(rule_set_id).rules
    states = _reachable(rules, seed, steps, total)
    for state in states[-12:]:
        same(rules, state)
    last = states[-1]
    assume(last.phase != Phase.HAND_OVER)
    variants = [_bigger_hand(last, extra)]
    if last.phase == Phase.DRAW:  # the first step of a two-step take made: its second steps
        variants.append(replace(variants[0], phase=Phase.MELD_PILE_TOP))
    if stock_gone and last.phase == Phase.DRAW:
        variants.append(_stock_gone(variants[0]))
    for variant in variants:
        if validate_state(rules, variant):
            continue  # a changed state this rule set refuses (the stock and hand sizes it allows)
        full = same(rules, variant)
        bounded = legal_actions_upto(rules, variant, limit)
        assert bounded.truncated == (len(full) > limit)
        assert len(bounded.actions) == min(limit, len(full))
        assert bounded.actions == [a for a in full if a in bounded.actions]  # a subset in canonical order


# --- hand-built states with many cards, and the work per action listed ---------------------------------------------


def big_hand(rule_set_id: str, cards: int, *, melds: list[str] = (), phase: str = "PHASE_PLAY") -> GameState:
    """Seat 0 holding `cards` cards (the jokers and twos first, then naturals by rank), the other seats few."""
    others = ["6C 6D 8S", "TC TD JS", "JD 9C 5S"]
    taken = set(" ".join([*others, "5H 8D TH", *melds]).split())
    pool = [JOKER] * 4 + [c for c in range(1, 53) if rank_of(c) == 0] * 2
    pool += [c for c in range(1, 53) if is_natural(c) and format_card(c) not in taken] * 2
    hand = " ".join(format_card(c) for c in pool[:cards])
    seats = BOOK.get(rule_set_id).rules.seats
    return make_state(
        rule_set_id,
        hands=[hand, *others[: seats - 1]],
        melds=[list(melds)] + [[] for _ in range(BOOK.get(rule_set_id).rules.sides - 1)],
        pile="5H 8D TH",
        phase=phase,
        turn={"start": "TURN_START_DREW", "meldsBeforeTurn": len(melds)} if phase != "PHASE_DRAW" else {},
        melded_before=[bool(melds)] + [False] * (seats - 1),
    )


@pytest.mark.parametrize("cards", [14, 18, 22])
@pytest.mark.parametrize("rule_set_id", ["classic-4p", "bicycle-4p", "2p-one-canasta"])
def test_big_hands_equal_the_referee(rule_set_id: str, cards: int) -> None:
    state = big_hand(rule_set_id, cards)
    assert len(same(BOOK.get(rule_set_id).rules, state)) > 10
    with_melds = big_hand(rule_set_id, cards, melds=["KC KD KS", "QC QD QS QH"])
    same(BOOK.get(rule_set_id).rules, with_melds)


def _work(rules: CompiledRules, state: GameState) -> tuple[int, int]:
    """(steps the generator reports through its checkpoint, actions listed)."""
    steps = [0]

    def count() -> None:
        steps[0] += 1

    listed = legal_actions_upto(rules, state, None, count).actions
    return steps[0], len(listed)


@pytest.mark.parametrize("cards", [11, 20, 30])
def test_the_work_grows_with_the_actions_listed(cards: int) -> None:
    # Each listed action costs one checkpoint call; the searches for sets of melds call it at each step. A search
    # that explored candidates to reject them would call it far more often than it lists actions.
    rules = BOOK.get("classic-4p").rules
    state = big_hand("classic-4p", cards)
    steps, actions = _work(rules, state)
    assert actions > 0
    assert steps <= 4 * actions + 50, (steps, actions)
