"""A game over several hands: decks per hand, dealer rotation, running totals, and the end and tie rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from oracle.games.shuffle import MASK, shuffled
from oracle.model.cards import deck
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class DeckSource:
    """Where a hand's deck comes from: a seed for the documented shuffle, or an explicit order (top first)."""

    seed: int | None = None
    order: tuple[int, ...] | None = None


def deck_order(rules: CompiledRules, source: DeckSource, path: str = "deck") -> list[int]:
    """The deck face down, first card on top, for a hand."""
    if source.order is not None:
        return list(source.order)
    if source.seed is None:
        raise InvalidInputError([FieldProblem(path, "give a seed or a deck order")])
    if not 0 <= source.seed <= MASK:
        raise InvalidInputError([FieldProblem(f"{path}.seed", f"{source.seed} is not an unsigned 64-bit integer")])
    return shuffled(deck(rules.deck.packs, rules.deck.jokers), source.seed)


def dealer_of_hand(rules: CompiledRules, first_dealer: int, hand_index: int) -> int:
    """The deal passes to the left (the next seat) after every hand."""
    return (first_dealer + hand_index) % rules.seats


@dataclass(frozen=True, slots=True)
class Standing:
    """Running totals after some hands, and whether the game is over."""

    totals: tuple[int, ...]
    over: bool = False
    winner: int | None = None
    #: hands scored so far (the next hand's number is one more: initial_meld.minimum_by_hand); a count, not part of
    #: what a standing is (two standings with the same totals and result are equal)
    hands_played: int = field(default=0, compare=False)


def start_standing(rules: CompiledRules) -> Standing:
    """Every side at 0."""
    return Standing(tuple(0 for _ in range(rules.sides)))


def after_hand(rules: CompiledRules, standing: Standing, hand_scores: Sequence[int]) -> Standing:
    """Add a hand's scores; the game ends when a side reaches the target and one side leads.

    The higher total wins even if both sides pass the target in the same hand.
    Equal leading totals play another hand: a fixed rule, not a rule-set field
    (4P-CLASSIC "Winning the game": "If the totals are exactly equal, play
    another deal"; the other texts do not cover a tie). Under game.hands the
    game ends after that many hands instead, whatever the totals (the target
    is not read); a tie for the lead then plays another hand too.
    """
    totals = tuple(t + s for t, s in zip(standing.totals, hand_scores, strict=True))
    played = standing.hands_played + 1
    if rules.game.hands:
        if played < rules.game.hands:
            return Standing(totals, hands_played=played)
    elif max(totals) < rules.game.target_score:
        return Standing(totals, hands_played=played)
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    if len(leaders) == 1:
        return Standing(totals, True, leaders[0], played)
    return Standing(totals, hands_played=played)  # a tie for the lead: nobody has won, another hand is played
