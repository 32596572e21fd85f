"""Card numbers, the text notation for cards and card lists, card predicates and the deck."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.model.cards import (
    ALL_CARDS,
    JOKER,
    NotationError,
    deck,
    format_card,
    format_cards,
    is_black_three,
    is_natural,
    is_red_three,
    is_wild,
    make_card,
    parse_card,
    parse_cards,
)

# Expected notation of every card number, built from the enum layout described in
# oracle/model/cards.py (1 + 4 * rank_index + suit_index; joker 53) independently of the module.
EXPECTED_TOKENS = {
    1 + 4 * r + s: rank + suit for r, rank in enumerate("23456789TJQKA") for s, suit in enumerate("CDHS")
}
EXPECTED_TOKENS[53] = "JK"

valid_cards = st.integers(min_value=1, max_value=53)


@settings(derandomize=True, max_examples=200)
@given(st.lists(valid_cards, max_size=40))
def test_parse_of_format_is_identity(cards: list[int]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_there_are_53_cards() -> None:
    assert ALL_CARDS == tuple(range(1, 54))
    assert len(EXPECTED_TOKENS) == 53


@pytest.mark.parametrize("card", ALL_CARDS)
def test_every_card_round_trips(card: int) -> None:
    token = format_card(card)
    assert token == EXPECTED_TOKENS[card]
    assert parse_card(token) == card
    assert parse_cards(token) == [card]
    assert format_cards([card]) == token


def test_known_cards() -> None:
    assert parse_cards("2C 3D TH AS JK") == [1, 6, 35, 52, JOKER]
    assert make_card(11, 2) == parse_card("KH")
    assert parse_cards("") == []
    assert format_cards([]) == ""
    # Any white space separates; formatting uses single spaces.
    assert parse_cards("  KH\tQS\n TC ") == [parse_card("KH"), parse_card("QS"), parse_card("TC")]
    assert format_cards(parse_cards("KH\tQS\n TC")) == "KH QS TC"


@pytest.mark.parametrize("bad", ["10H", "kh", "XH", "KX", "K"])
@pytest.mark.parametrize("position", [1, 2, 4])
def test_bad_token_names_token_and_position(bad: str, position: int) -> None:
    good = ["KH", "QS", "TC", "JK", "2D"]
    tokens = [*good[: position - 1], bad, *good[position - 1 :]]
    with pytest.raises(NotationError) as info:
        parse_cards(" ".join(tokens))
    err = info.value
    assert err.position == position
    assert err.token == bad
    assert f"'{bad}'" in str(err)
    assert f"card {position}" in str(err)


def test_first_bad_token_is_reported() -> None:
    with pytest.raises(NotationError) as info:
        parse_cards("KH kh 10H")
    assert info.value.position == 2
    assert info.value.token == "kh"


@pytest.mark.parametrize(
    ("bad", "hint"),
    [
        ("10H", "TH"),  # ten is written T
        ("kh", "KH"),  # upper case
        ("XH", "rank 'X'"),
        ("KX", "suit 'X'"),
        ("K", "two characters"),
    ],
)
def test_bad_token_message_explains(bad: str, hint: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(bad)
    assert hint in str(info.value)


@pytest.mark.parametrize("bad", ["10H", "kh", "XH", "KX", "K", "", "JKR"])
def test_parse_card_rejects_bad_token(bad: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(bad)
    assert info.value.token == bad
    assert info.value.position == 1


@pytest.mark.parametrize("card", [0, 54, -1, 99])
def test_format_card_rejects_non_cards(card: int) -> None:
    with pytest.raises(ValueError, match="not a card"):
        format_card(card)


@pytest.mark.parametrize("card", ALL_CARDS)
def test_predicates(card: int) -> None:
    token = EXPECTED_TOKENS[card]
    rank = token[0]
    joker = token == "JK"
    assert is_wild(card) == (joker or rank == "2")
    assert is_red_three(card) == (token in ("3D", "3H"))
    assert is_black_three(card) == (token in ("3C", "3S"))
    assert is_natural(card) == (not joker and rank in "456789TJQKA")


def test_predicate_counts() -> None:
    assert sum(map(is_wild, ALL_CARDS)) == 5  # four twos and the joker
    assert [format_card(c) for c in ALL_CARDS if is_red_three(c)] == ["3D", "3H"]
    assert [format_card(c) for c in ALL_CARDS if is_black_three(c)] == ["3C", "3S"]
    assert sum(map(is_natural, ALL_CARDS)) == 44  # 11 ranks, 4 suits
    # Every card is exactly one of wild, red three, black three, natural.
    for c in ALL_CARDS:
        assert [is_wild(c), is_red_three(c), is_black_three(c), is_natural(c)].count(True) == 1


def test_classic_deck() -> None:
    cards = deck(2, 4)
    assert len(cards) == 108
    counts = Counter(cards)
    assert set(counts) == set(ALL_CARDS)
    for card in range(1, 53):
        assert counts[card] == 2, format_card(card)
    assert counts[JOKER] == 4


def test_deck_other_sizes() -> None:
    assert Counter(deck(3, 6)) == Counter({**{c: 3 for c in range(1, 53)}, JOKER: 6})
    assert deck(1, 0) == list(range(1, 53))
