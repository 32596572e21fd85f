"""Cards and the text notation for cards and card lists.

A card is an ``int`` equal to its ``oracle.api.v1.Card`` enum number, so card
lists convert to and from the wire without a lookup:

* rank-suit cards are ``1 + 4 * rank_index + suit_index`` with rank_index
  ``2=0, 3=1, ..., T=8, J=9, Q=10, K=11, A=12`` and suit_index ``C=0, D=1, H=2, S=3``;
* the joker is 53.

Notation: a card is two characters, rank then suit: ranks ``2 3 4 5 6 7 8 9 T
J Q K A``, suits ``C D H S`` (upper case), and ``JK`` for the joker. A card list
is cards separated by white space: ``KH QS TC 2D JK``. The empty string is the
empty list. Parsing is strict: ``10H``, ``kh`` or ``K♥`` are errors that name the
token and its position; ``parse_cards(format_cards(x)) == x`` for every list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKER = 53
ALL_CARDS: tuple[int, ...] = tuple(range(1, 54))

# Rank indexes of the special ranks.
RANK_TWO = 0
RANK_THREE = 1
RANK_FOUR = 2
RANK_SEVEN = 5
RANK_EIGHT = 6
RANK_QUEEN = 10
RANK_KING = 11
RANK_ACE = 12
RANK_JOKER = 13

RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
    "joker",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
    "jokers",
)


class NotationError(ValueError):
    """A card or card list that does not follow the notation."""

    def __init__(self, message: str, token: str = "", position: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.token = token
        #: 1-based index of the bad token in the list (0 when not a token error).
        self.position = position
        #: 1-based character position in the text parsed (action notation; 0 when not known).
        self.column = column


def make_card(rank_index: int, suit_index: int) -> int:
    """The card of a rank index (0..12) and suit index (0..3)."""
    return 1 + 4 * rank_index + suit_index


def rank_of(card: int) -> int:
    """Rank index of a card: 0..12 for 2..A, RANK_JOKER for the joker."""
    return RANK_JOKER if card == JOKER else (card - 1) >> 2


def suit_of(card: int) -> int:
    """Suit index 0..3 (C D H S); -1 for the joker."""
    return -1 if card == JOKER else (card - 1) & 3


def is_wild(card: int) -> bool:
    """Jokers and twos are wild."""
    return card == JOKER or card <= 4


def is_red_three(card: int) -> bool:
    """3D and 3H."""
    return card in (6, 7)


def is_black_three(card: int) -> bool:
    """3C and 3S."""
    return card in (5, 8)


def is_natural(card: int) -> bool:
    """Fours up to aces: the cards melds are built from."""
    return 9 <= card <= 52


def is_valid(card: int) -> bool:
    """A card number the notation and the wire know."""
    return 1 <= card <= 53


def _card_text(card: int) -> str:
    return "JK" if card == JOKER else RANKS[rank_of(card)] + SUITS[suit_of(card)]


_TEXT: dict[int, str] = {c: _card_text(c) for c in ALL_CARDS}  #: each card's notation, written once


def format_card(card: int) -> str:
    """Two-character notation of one card."""
    text = _TEXT.get(card)
    if text is None:
        raise ValueError(f"{card} is not a card number (1..53)")
    return text


_BY_TOKEN: dict[str, int] = {text: c for c, text in _TEXT.items()}


def parse_card(token: str) -> int:
    """Parse one card token."""
    card = _BY_TOKEN.get(token)
    if card is None:
        raise NotationError(_explain_bad_token(token, 1), token, 1)
    return card


def format_cards(cards: Iterable[int]) -> str:
    """Notation of a card list, cards separated by single spaces."""
    items = cards if isinstance(cards, list | tuple) else list(cards)
    try:
        return " ".join([_TEXT[c] for c in items])
    except (KeyError, TypeError):  # a number that is no card (or not a number): the error format_card raises
        return " ".join(format_card(c) for c in items)


def parse_cards(text: str) -> list[int]:
    """Parse a white-space separated card list; a bad token raises NotationError naming it."""
    cards: list[int] = []
    for position, token in enumerate(text.split(), start=1):
        card = _BY_TOKEN.get(token)
        if card is None:
            raise NotationError(_explain_bad_token(token, position), token, position)
        cards.append(card)
    return cards


def _explain_bad_token(token: str, position: int) -> str:
    return f"card {position}: {card_token_problem(token)}"


def card_token_problem(token: str) -> str:
    """Why a token is not a card (the token is not one), e.g. "'10H' is not a card: ... (ten is T, e.g. TH)"."""
    if len(token) != 2:
        hint = " (ten is T, e.g. TH)" if token.startswith("10") else ""
        return f"'{token}' is not a card: a card is two characters, rank then suit{hint}"
    rank, suit = token[0], token[1]
    if rank.upper() in RANKS and suit.upper() in SUITS and token != token.upper():
        return f"'{token}' is not a card: write it in upper case ('{token.upper()}')"
    if rank not in RANKS:
        return f"'{token}' is not a card: rank '{rank}' is not one of {' '.join(RANKS)} (or JK)"
    return f"'{token}' is not a card: suit '{suit}' is not one of {' '.join(SUITS)}"


def describe_rank(rank_index: int, plural: bool = True) -> str:
    """English name of a rank, e.g. 'kings'."""
    return (RANK_PLURALS if plural else RANK_NAMES)[rank_index]


def deck(packs: int, jokers: int) -> list[int]:
    """A full deck in a fixed order: each pack 2C..AS, then the jokers."""
    return [c for _ in range(packs) for c in range(1, 53)] + [JOKER] * jokers


def copies_allowed(card: int, packs: int, jokers: int) -> int:
    """How many copies of a card a deck of `packs` packs and `jokers` jokers holds."""
    return jokers if card == JOKER else packs


def count_copies(cards: Sequence[int]) -> dict[int, int]:
    """Number of copies of each card in a list."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return counts
