"""Player actions as values, and their text notation (parse and format).

Notation (one action per string; card lists as in oracle.model.cards; groups of a
meld are separated by commas):

    draw                                    draw from the stock
    take-pile                               take the pile, adding its top card to the side's meld
    take-pile with 9H 9D                    take it with hand cards melded with the top card
    take-pile with 9H 9D meld AH AD AS      ... laying other melds at the same time
    meld KH KD KS, 7S 7D 2C                 lay melds / add to the side's melds
    meld K: 2C                              a group of wild cards only names the rank it joins
    discard 5C
    ask                                     "may I go out?"
    answer yes | answer no                  the partner's answer
    finish                                  end the hand after melding on a last red three

Keywords are lower case; `parse_action(format_action(a)) == a`.
"""

from __future__ import annotations

from dataclasses import dataclass

from oracle.model.cards import RANKS, NotationError, format_cards, parse_cards

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the stock (stock empty: decline the pile, which ends the hand)."""


@dataclass(frozen=True, slots=True)
class MeldGroup:
    """Cards laid together as one meld or added to the side's meld of their rank."""

    cards: Cards  #: the hand cards
    onto_rank: int | None = None  #: rank index (0..12) a group of wild cards only joins


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the discard pile."""

    with_cards: Cards = ()  #: hand cards melded with the top card (empty: onto the side's meld)
    melds: tuple[MeldGroup, ...] = ()  #: other melds laid at the same time


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay melds and add to the side's melds."""

    groups: tuple[MeldGroup, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card, ending the turn."""

    card: int


@dataclass(frozen=True, slots=True)
class AskPartner:
    """Ask the partner "may I go out?"."""


@dataclass(frozen=True, slots=True)
class AnswerPartner:
    """The partner's answer."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Finish:
    """End the hand after melding on a last-card red three."""


Action = Draw | TakePile | Meld | Discard | AskPartner | AnswerPartner | Finish


def _parse_groups(text: str, where: str) -> tuple[MeldGroup, ...]:
    groups = []
    for number, part in enumerate(text.split(","), start=1):
        rank: int | None = None
        part = part.strip()
        head, colon, rest = part.partition(":")
        if colon:
            head = head.strip()
            if len(head) != 1 or head not in RANKS:
                raise NotationError(f"{where} group {number}: '{head}:' is not a rank (one of {' '.join(RANKS)})")
            rank, part = RANKS.index(head), rest
        try:
            cards = tuple(parse_cards(part))
        except NotationError as exc:
            raise NotationError(f"{where} group {number}: {exc}", exc.token, exc.position) from None
        if not cards:
            raise NotationError(f"{where} group {number} is empty")
        groups.append(MeldGroup(cards, rank))
    return tuple(groups)


def parse_action(text: str) -> Action:
    """Parse one action; NotationError names what is wrong."""
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("empty action: expected draw, take-pile, meld, discard, ask, answer or finish")
    verb, rest = words[0], (words[1] if len(words) > 1 else "")
    if verb in ("draw", "ask", "finish"):
        if rest:
            raise NotationError(f"'{verb}' takes nothing after it, got '{rest}'")
        return Draw() if verb == "draw" else AskPartner() if verb == "ask" else Finish()
    if verb == "discard":
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise NotationError(f"'discard' takes exactly one card, got {len(cards)}")
        return Discard(cards[0])
    if verb == "meld":
        if not rest.strip():
            raise NotationError("'meld' needs at least one group of cards")
        return Meld(_parse_groups(rest, "meld"))
    if verb == "answer":
        if rest not in ("yes", "no"):
            raise NotationError(f"'answer' takes 'yes' or 'no', got '{rest}'")
        return AnswerPartner(rest == "yes")
    if verb == "take-pile":
        with_text, melds_text = rest, ""
        if " meld " in f" {rest} ":
            with_text, _, melds_text = f" {rest} ".partition(" meld ")
        with_text = with_text.strip()
        with_cards: Cards = ()
        if with_text:
            keyword, _, cards_text = with_text.partition(" ")
            if keyword != "with":
                raise NotationError(f"after 'take-pile' expected 'with CARDS' or 'meld GROUPS', got '{with_text}'")
            with_cards = tuple(parse_cards(cards_text))
            if not with_cards:
                raise NotationError("'take-pile with' needs cards")
        melds = _parse_groups(melds_text, "take-pile meld") if melds_text.strip() else ()
        return TakePile(with_cards, melds)
    raise NotationError(f"unknown action '{verb}': expected draw, take-pile, meld, discard, ask, answer or finish")


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
