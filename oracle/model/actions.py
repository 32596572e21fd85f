"""Player actions as values, and their text notation (parse and format).

Notation (one action per string; card lists as in oracle.model.cards; groups of a
meld are separated by commas):

    draw                                    draw from the stock
    take-pile                               take the pile, adding its top card to the side's meld
    take-pile with 9H 9D                    take it with hand cards melded with the top card
    take-pile with 9H 9D meld AH AD AS      ... laying other melds at the same time
    pick-up-pile                            the first step of a two-step take: the next action melds the top card
    meld KH KD KS, 7S 7D 2C                 lay melds / add to the side's melds
    meld K: 2C                              a group of wild cards only names the rank it joins
    discard 5C
    ask                                     "may I go out?"
    answer yes | answer no                  the partner's answer
    finish                                  end the hand after melding on a last red three

Keywords are lower case; `parse_action(format_action(a)) == a`. Parsing is strict: an empty group (a trailing
`meld` or ',') and anything after a complete action are refused, and a NotationError says where (its `column`,
1-based, in the text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oracle.model.cards import ALL_CARDS, RANKS, NotationError, card_token_problem, format_cards
from oracle.model.fast_init import fast_init

Cards = tuple[int, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock (stock empty: decline the pile, which ends the hand)."""


@fast_init
@dataclass(frozen=True, slots=True)
class MeldGroup:
    """Cards laid together as one meld or added to the side's meld of their rank."""

    cards: Cards  #: the hand cards
    onto_rank: int | None = None  #: rank index (0..12) a group of wild cards only joins


@fast_init
@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the discard pile."""

    with_cards: Cards = ()  #: hand cards melded with the top card (empty: onto the side's meld)
    melds: tuple[MeldGroup, ...] = ()  #: other melds laid at the same time


@fast_init
@dataclass(frozen=True, slots=True)
class PickUpPile:
    """The first step of a two-step take of the pile: the next action melds the pile's top card (see
    oracle.rules.two_step)."""


@fast_init
@dataclass(frozen=True, slots=True)
class Meld:
    """Lay melds and add to the side's melds."""

    groups: tuple[MeldGroup, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card, ending the turn."""

    card: int


@fast_init
@dataclass(frozen=True, slots=True)
class AskPartner:
    """Ask the partner "may I go out?"."""


@fast_init
@dataclass(frozen=True, slots=True)
class AnswerPartner:
    """The partner's answer."""

    yes: bool


@fast_init
@dataclass(frozen=True, slots=True)
class Finish:
    """End the hand after melding on a last-card red three."""


Action = Draw | TakePile | PickUpPile | Meld | Discard | AskPartner | AnswerPartner | Finish


_VERBS = "draw, take-pile, pick-up-pile, meld, discard, ask, answer or finish"
_TOKEN = re.compile(r",|:|[^\s,:]+")


class _Parser:
    """A cursor over the tokens of one action's text (words, ',' and ':'), each with its 1-based column."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else None

    def column(self) -> int:
        """Column of the next token, or just past the end of the text."""
        return self.tokens[self.at][1] if self.at < len(self.tokens) else len(self.text.rstrip()) + 1

    def error(self, message: str, token: str = "", column: int = 0) -> NotationError:
        column = column or self.column()
        return NotationError(f"at character {column}: {message}", token, 0, column)

    def take(self) -> str:
        token = self.peek()
        assert token is not None
        self.at += 1
        return token

    def end(self, after: str) -> None:
        token = self.peek()
        if token is not None:
            raise self.error(f"unexpected '{token}' after {after}", token)

    def card(self) -> int:
        token, column = self.tokens[self.at]
        card = _CARD_BY_TOKEN.get(token)
        if card is None:
            raise self.error(card_token_problem(token), token, column)
        self.at += 1
        return card

    def cards(self, what: str) -> Cards:
        """One or more cards up to the next keyword, ',' or the end."""
        cards = []
        while (token := self.peek()) is not None and token not in (",", ":", "meld", "with"):
            cards.append(self.card())
        if not cards:
            found = f"got '{self.peek()}'" if self.peek() is not None else "the text ends"
            raise self.error(f"{what} needs at least one card, {found}", self.peek() or "")
        return tuple(cards)

    def groups(self, where: str) -> tuple[MeldGroup, ...]:
        """group (',' group)*, a group being [RANK ':'] card..., each with at least one card."""
        groups: list[MeldGroup] = []
        while True:
            number = len(groups) + 1
            rank: int | None = None
            if self.at + 1 < len(self.tokens) and self.tokens[self.at + 1][0] == ":":
                head, column = self.tokens[self.at]
                if len(head) != 1 or head not in RANKS:
                    raise self.error(f"'{head}:' is not a rank (one of {' '.join(RANKS)})", head, column)
                rank = RANKS.index(head)
                self.at += 2
            groups.append(MeldGroup(self.cards(f"{where} group {number}"), rank))
            if self.peek() != ",":
                return tuple(groups)
            self.at += 1


_CARD_BY_TOKEN = {format_cards([c]): c for c in ALL_CARDS}


def parse_action(text: str) -> Action:
    """Parse one action; NotationError names what is wrong and where (its `column`, 1-based, in `text`)."""
    p = _Parser(text)
    verb = p.peek()
    if verb is None:
        raise p.error(f"empty action: expected {_VERBS}")
    p.take()
    simple: dict[str, Action] = {"draw": Draw(), "ask": AskPartner(), "finish": Finish(), "pick-up-pile": PickUpPile()}
    if verb in simple:
        p.end(f"'{verb}' (it takes nothing more)")
        return simple[verb]
    if verb == "discard":
        if p.peek() is None:
            raise p.error("'discard' needs a card")
        card = p.card()
        p.end("'discard CARD' (one card)")
        return Discard(card)
    if verb == "answer":
        word = p.peek()
        if word not in ("yes", "no"):
            raise p.error(f"'answer' takes 'yes' or 'no', got {f'{word!r}' if word else 'nothing'}", word or "")
        p.take()
        p.end(f"'answer {word}'")
        return AnswerPartner(word == "yes")
    if verb == "meld":
        groups = p.groups("meld")
        p.end("the last group (one 'meld' per action; separate its groups with ',')")
        return Meld(groups)
    if verb == "take-pile":
        with_cards: Cards = ()
        melds: tuple[MeldGroup, ...] = ()
        if p.peek() == "with":
            p.take()
            with_cards = p.cards("'take-pile with'")
        if p.peek() == "meld":
            p.take()
            melds = p.groups("take-pile meld")
        token = p.peek()
        if token is not None:
            raise p.error(f"after 'take-pile' expected 'with CARDS' or 'meld GROUPS', got '{token}'", token)
        return TakePile(with_cards, melds)
    raise p.error(f"unknown action '{verb}': expected {_VERBS}", verb, 1 + len(text) - len(text.lstrip()))


def _format_groups(groups: tuple[MeldGroup, ...]) -> str:
    return ", ".join(
        (f"{RANKS[g.onto_rank]}: " if g.onto_rank is not None else "") + format_cards(g.cards) for g in groups
    )


def format_action(action: Action) -> str:
    """The notation of an action."""
    match action:
        case Draw():
            return "draw"
        case AskPartner():
            return "ask"
        case Finish():
            return "finish"
        case PickUpPile():
            return "pick-up-pile"
        case Discard(card):
            return f"discard {format_cards([card])}"
        case AnswerPartner(yes):
            return f"answer {'yes' if yes else 'no'}"
        case Meld(groups):
            return f"meld {_format_groups(groups)}"
        case TakePile(with_cards, melds):
            text = "take-pile"
            if with_cards:
                text += f" with {format_cards(with_cards)}"
            if melds:
                text += f" meld {_format_groups(melds)}"
            return text
    raise TypeError(f"not an action: {action!r}")


def second_step_meld(top: int, take: TakePile) -> Meld:
    """The second step of a two-step take that amounts to `take` with the pile's top card `top`: the top card's
    group first (the top card, then the hand cards melded with it), then the take's other melds."""
    return Meld((MeldGroup((top, *take.with_cards)), *take.melds))


def top_group_index(top: int, meld: Meld) -> int | None:
    """Index of the first group of a second-step meld that holds the pile's top card, or None."""
    return next((i for i, group in enumerate(meld.groups) if top in group.cards), None)


def take_of_second_step(top: int, meld: Meld) -> TakePile | None:
    """The TakePile a second-step meld amounts to: the first group holding the top card gives the cards melded
    with it (that group without one copy of the top card), the other groups the other melds; None when no group
    holds the top card."""
    index = top_group_index(top, meld)
    if index is None:
        return None
    with_cards = list(meld.groups[index].cards)
    with_cards.remove(top)
    return TakePile(tuple(with_cards), meld.groups[:index] + meld.groups[index + 1 :])
