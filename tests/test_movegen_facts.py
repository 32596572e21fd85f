"""What the direct generator's shortcuts rely on: meld verdicts that do not depend on the rank (its memo keys), the
one-pass lists (phase PLAY, the draw phase decided from counts) giving the general generator's list, and no action
generated twice (the full list keeps no set of what it has seen); bounded lists keep their contract."""

from __future__ import annotations

import random
from functools import partial

import pytest

from oracle.bench.states import positions, shipped_records
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.movegen import legal_actions_by_referee, legal_actions_upto, sort_key
from oracle.games.movegen_direct import iter_legal, legal_list
from oracle.games.movegen_draw import quick_draw
from oracle.games.movegen_fast import play_without_wilds
from oracle.games.simulate import choose
from oracle.model.cards import RANK_ACE, RANK_FOUR
from oracle.model.state import GameState, Phase
from oracle.rules.melds import WILD_MELD_RANK, MeldShape, meld_rule_breaks
from oracle.rules.referee import check_action
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import default_rule_book

BOOK = default_rule_book()
RULE_SET_IDS = sorted(loaded.rules.id for loaded in BOOK)


@pytest.mark.parametrize("rule_set_id", RULE_SET_IDS)
def test_meld_rules_judge_every_rank_but_black_threes_alike(rule_set_id: str) -> None:
    rules = BOOK.get(rule_set_id).rules
    for naturals in range(0, 9):
        for wilds in range(0, 13):
            for going_out in (False, True):
                for last_cards in (False, True):
                    fields = {
                        rank: sorted(
                            b.field
                            for b in meld_rule_breaks(
                                MeldShape(rank, naturals + wilds, naturals, wilds, False),
                                rules,
                                going_out=going_out,
                                last_cards=last_cards,
                            )
                        )
                        for rank in [*range(RANK_FOUR, RANK_ACE + 1), WILD_MELD_RANK]
                    }
                    assert len({tuple(f) for f in fields.values()}) == 1, (naturals, wilds, fields)


def _states(rules: CompiledRules, seed: int, steps: int) -> list[GameState]:
    rng = random.Random(seed)
    state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=seed % rules.seats)
    seen = [state]
    for _ in range(steps):
        actions = legal_list(rules, state)
        if state.phase == Phase.HAND_OVER or not actions:
            break
        verdict = check_action(rules, state, choose(state, actions, rng), validate=False)
        assert verdict.next_state is not None
        state = verdict.next_state
        seen.append(state)
    return seen


def _corpus() -> list[tuple[CompiledRules, GameState]]:
    found = [(BOOK.get(p.rule_set_id).rules, p.state) for p in positions(BOOK, shipped_records())]
    for rule_set_id in RULE_SET_IDS:
        rules = BOOK.get(rule_set_id).rules
        for seed in range(3):
            found += [(rules, s) for s in _states(rules, seed, 200)]
    return found


def test_the_one_pass_list_is_the_general_list_and_the_referees() -> None:
    fast = 0
    for rules, state in _corpus():
        if not rules.direct_movegen:
            continue  # the referee judges this rule set's candidates (CompiledRules.direct_movegen)
        listed = play_without_wilds(rules, state) if state.phase == Phase.PLAY else None
        if listed is None:
            continue
        fast += 1
        general = iter_legal(rules, state)
        assert general is not None
        assert listed == sorted(general, key=sort_key)
        if fast % 10 == 0:
            assert listed == legal_actions_by_referee(rules, state)
    assert fast > 1000


def test_the_draw_phase_decided_from_counts_is_the_general_list() -> None:
    decided = takes = 0
    for rules, state in _corpus():
        if not rules.direct_movegen:
            continue
        listed = quick_draw(rules, state) if state.phase == Phase.DRAW and state.stock else None
        if listed is None:
            continue
        decided += 1
        takes += len(listed) > 1
        general = iter_legal(rules, state)
        assert general is not None
        assert listed == sorted(general, key=sort_key)
    assert decided > 1000
    assert takes > 100


def test_no_action_is_generated_twice() -> None:
    for rules, state in _corpus():
        generated = iter_legal(rules, state)
        if generated is None:
            continue
        actions = list(generated)
        assert len(set(actions)) == len(actions), (rules.id, state)
        listed = legal_list(rules, state)
        assert listed is not None
        assert listed == sorted(actions, key=sort_key)


def test_bounded_lists_use_the_one_pass_paths_within_their_contract() -> None:
    for rules, state in _corpus()[::7]:
        full = legal_list(rules, state)
        if full is None:
            continue
        for limit in (0, 1, 3, 8, 30, 10_000):
            calls: list[None] = []
            bounded = legal_actions_upto(rules, state, limit, partial(calls.append, None), validate=False)
            assert bounded.truncated == (len(full) > limit)
            assert len(bounded.actions) == min(limit, len(full))
            assert bounded.actions == [a for a in full if a in bounded.actions]  # a subset in canonical order
            assert len(calls) >= len(bounded.actions)  # called before each action taken
