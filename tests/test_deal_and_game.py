"""The documented shuffle (reference vectors), dealing per rule set, and the game's end and tie rules."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import rules

from oracle.games.deal import deal
from oracle.games.match import DeckSource, Standing, after_hand, dealer_of_hand, deck_order
from oracle.games.shuffle import shuffled, splitmix64, uniform
from oracle.model.cards import deck, format_cards, is_red_three, is_wild, parse_cards
from oracle.model.errors import InvalidInputError
from oracle.model.state import Phase
from oracle.rules.state_check import validate_state


def test_splitmix64_reference_values() -> None:
    # The published SplitMix64 outputs for seeds 0 and 1234567: any implementation can check itself here.
    stream = splitmix64(0)
    assert [next(stream), next(stream)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    stream = splitmix64(1234567)
    assert [next(stream), next(stream)] == [6457827717110365317, 3203168211198807973]


def test_shuffle_reference_deal() -> None:
    # Seed 42 over the classic 108-card deck: the first twelve cards dealt (a fixed vector for other languages).
    order = shuffled(deck(2, 4), 42)
    assert format_cards(order[:12]) == "8H 6S KH 5H KC 3C 4C 5C 7H 6H JK 6C"
    assert Counter(order) == Counter(deck(2, 4))
    assert shuffled(deck(2, 4), 42) == order
    assert shuffled(deck(2, 4), 43) != order


def test_uniform_rejects_values_that_would_bias() -> None:
    # With n = 3, 2^64 mod 3 = 1, so the single largest value 2^64 - 1 is rejected and the next one used.
    stream = iter([(1 << 64) - 1, 7])
    assert uniform(stream, 3) == 7 % 3
    with pytest.raises(ValueError):
        uniform(iter([1]), 0)


def test_seed_must_be_unsigned_64_bit() -> None:
    with pytest.raises(ValueError):
        shuffled([1, 2, 3], -1)
    with pytest.raises(InvalidInputError) as info:
        deck_order(rules("classic-2p"), DeckSource(seed=1 << 64))
    assert info.value.problems[0].field == "deck.seed"


@pytest.mark.parametrize("rule_set_id", ["classic-2p", "classic-4p"])
@pytest.mark.parametrize("seed", range(20))
def test_dealt_state_is_consistent(rule_set_id: str, seed: int) -> None:
    r = rules(rule_set_id)
    state = deal(r, shuffled(deck(2, 4), seed), dealer=seed % r.seats)
    assert validate_state(r, state) == []
    assert all(len(s.hand) == r.spec.deal.hand_size for s in state.seats)
    assert not any(is_red_three(c) for s in state.seats for c in s.hand)
    assert state.seat_to_move == (seed % r.seats + 1) % r.seats
    assert state.phase == Phase.DRAW
    top = state.discard_pile[-1]
    if rule_set_id == "classic-4p":  # a wild or red three upcard is covered until the top is neither
        assert not (is_wild(top) or is_red_three(top))
        assert all(is_wild(c) or is_red_three(c) for c in state.discard_pile[:-1])
    else:  # 2P-GUIDE: the first upcard stays, whatever it is
        assert len(state.discard_pile) == 1
    assert state.pile_upcards == len(state.discard_pile)


def test_deal_order_and_red_three_replacement() -> None:
    # Explicit order, top first: seat 1 (left of dealer 0) gets the 1st, 3rd, ... card; seat 0 the 2nd, 4th, ...
    r = rules("classic-2p")
    head = parse_cards("3H 4C 5C 5D") + parse_cards(
        "6C 6D 7C 7D 8C 8D 9C 9D TC TD JC JD QC QD KC KD AC AD 4D 4H 5H 5S 6H 6S 7H 7S"
    )
    rest = list((Counter(deck(2, 4)) - Counter(head)).elements())
    state = deal(r, head + rest, dealer=0)
    upcard = rest[0]
    assert state.discard_pile == (upcard,)
    # seat 1 was dealt 3H first: it is laid for side 1 and replaced by the next stock card
    assert state.sides[1].red_threes == (parse_cards("3H")[0],)
    assert rest[1] in state.seats[1].hand
    assert len(state.seats[1].hand) == 15
    assert state.seats[0].hand[:2] == tuple(parse_cards("4C 5D"))


def test_deal_refuses_a_wrong_deck() -> None:
    with pytest.raises(InvalidInputError) as info:
        deal(rules("classic-2p"), deck(2, 4)[:-1])
    assert info.value.problems[0].field == "deck_order"


def test_dealer_passes_to_the_left() -> None:
    r = rules("classic-4p")
    assert [dealer_of_hand(r, 2, k) for k in range(5)] == [2, 3, 0, 1, 2]


def test_game_ends_when_a_side_reaches_the_target_and_leads() -> None:
    r = rules("classic-4p")
    standing = after_hand(r, Standing((4900, 3000)), (150, 200))
    assert standing == Standing((5050, 3200), True, 0)


def test_higher_total_wins_when_both_pass_the_target() -> None:
    # 4P-CLASSIC "Winning the game": the team that was behind can win if it ends higher.
    standing = after_hand(rules("classic-2p"), Standing((4990, 4800)), (20, 400))
    assert standing == Standing((5010, 5200), True, 1)


def test_equal_totals_past_the_target_play_another_hand() -> None:
    standing = after_hand(rules("classic-2p"), Standing((4900, 4800)), (200, 300))
    assert standing == Standing((5100, 5100), False, None)


def test_no_end_below_the_target() -> None:
    assert after_hand(rules("classic-2p"), Standing((-300, 4990)), (0, 5)) == Standing((-300, 4995))
