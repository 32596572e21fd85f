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
    meld 8H to 3                            a group joins the side's meld 3 (1-based; a run is joined so)
    meld new QH QD QS                       a group starts a new meld where the side has one of its rank
    meld 5H 6H 7H                           a run: cards of one suit in sequence (where the rule set has runs)
    take-pile to 3                          take the pile, adding its top card to the side's meld 3
    take-pile with new QH QD                the top card and a natural pair start a new meld
    combine 2 5                             put the side's melds 2 and 5 (of one rank) together
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
    onto: int = 0  #: the side's meld it joins, 1-based (0: the default target, see oracle.rules.meld_target)
    new: bool = False  #: starts a new meld even where the side has one of its rank (melds.one_meld_per_rank false)


@fast_init
@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the discard pile."""

    with_cards: Cards = ()  #: hand cards melded with the top card (empty: onto the side's meld)
    melds: tuple[MeldGroup, ...] = ()  #: other melds laid at the same time
    onto: int = 0  #: the side's meld the top card's group joins, 1-based (0: the default target)
    new: bool = False  #: the top card's group starts a new meld where the side has one of its rank


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


@fast_init
@dataclass(frozen=True, slots=True)
class Combine:
    """Put two of the side's melds of one rank together: the second joins the first (melds.combine_same_rank)."""

    first: int  #: the meld that stays, 1-based
    second: int  #: the meld whose cards join it, 1-based


Action = Draw | TakePile | PickUpPile | Meld | Discard | AskPartner | AnswerPartner | Finish | Combine


_VERBS = "draw, take-pile, pick-up-pile, meld, discard, ask, answer, finish or combine"
_KEYWORDS = (",", ":", "meld", "with", "to")
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
        while (token := self.peek()) is not None and token not in _KEYWORDS:
            cards.append(self.card())
        if not cards:
            found = f"got '{self.peek()}'" if self.peek() is not None else "the text ends"
            raise self.error(f"{what} needs at least one card, {found}", self.peek() or "")
        return tuple(cards)

    def number(self, what: str) -> int:
        """A meld number (1 or more)."""
        token = self.peek()
        if token is None or not token.isdigit() or token.startswith("0") or len(token) > 4:
            found = f"'{token}'" if token is not None else "nothing"
            raise self.error(f"{what} needs a meld number (1, 2, ...), got {found}", token or "")
        self.at += 1
        return int(token)

    def target(self, what: str) -> int:
        """[`to` N]: the meld a group joins (0 when not named)."""
        if self.peek() != "to":
            return 0
        self.at += 1
        return self.number(f"'to' in {what}")

    def new(self) -> bool:
        """[`new`]: the group starts a new meld."""
        if self.peek() != "new":
            return False
        self.at += 1
        return True

    def groups(self, where: str) -> tuple[MeldGroup, ...]:
        """group (',' group)*, a group being [RANK ':'] [new] card... [to N], each with at least one card."""
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
            new = self.new()
            cards = self.cards(f"{where} group {number}")
            onto = self.target(f"{where} group {number}")
            if new and onto:
                raise self.error(f"{where} group {number} is either 'new' or 'to N', not both")
            groups.append(MeldGroup(cards, rank, onto, new))
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
    if verb == "combine":
        first = p.number("'combine'")
        second = p.number("'combine' (two melds)")
        p.end("'combine N M' (two meld numbers)")
        return Combine(first, second)
    if verb == "take-pile":
        with_cards: Cards = ()
        melds: tuple[MeldGroup, ...] = ()
        new = False
        if p.peek() == "with":
            p.take()
            new = p.new()
            with_cards = p.cards("'take-pile with'")
        onto = p.target("'take-pile'")
        if new and onto:
            raise p.error("'take-pile with' is either 'new' or 'to N', not both")
        if p.peek() == "meld":
            p.take()
            melds = p.groups("take-pile meld")
        token = p.peek()
        if token is not None:
            raise p.error(f"after 'take-pile' expected 'with CARDS', 'to N' or 'meld GROUPS', got '{token}'", token)
        return TakePile(with_cards, melds, onto, new)
    raise p.error(f"unknown action '{verb}': expected {_VERBS}", verb, 1 + len(text) - len(text.lstrip()))


def _format_group(g: MeldGroup) -> str:
    rank = f"{RANKS[g.onto_rank]}: " if g.onto_rank is not None else ""
    return rank + ("new " if g.new else "") + format_cards(g.cards) + (f" to {g.onto}" if g.onto else "")


def _format_groups(groups: tuple[MeldGroup, ...]) -> str:
    return ", ".join(_format_group(g) for g in groups)


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
        case Combine(first, second):
            return f"combine {first} {second}"
        case TakePile(with_cards, melds, onto, new):
            text = "take-pile"
            if with_cards:
                text += f" with {'new ' if new else ''}{format_cards(with_cards)}"
            if onto:
                text += f" to {onto}"
            if melds:
                text += f" meld {_format_groups(melds)}"
            return text
    raise TypeError(f"not an action: {action!r}")


def second_step_meld(top: int, take: TakePile) -> Meld:
    """The second step of a two-step take that amounts to `take` with the pile's top card `top`: the top card's
    group first (the top card, then the hand cards melded with it), then the take's other melds."""
    return Meld((MeldGroup((top, *take.with_cards), None, take.onto, take.new), *take.melds))


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
    group = meld.groups[index]
    with_cards = list(group.cards)
    with_cards.remove(top)
    return TakePile(tuple(with_cards), meld.groups[:index] + meld.groups[index + 1 :], group.onto, group.new)
