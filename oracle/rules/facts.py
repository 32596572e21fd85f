"""Facts the rules derive from a state under a rule set: sides and partners, why the pile is frozen, the table
to score."""

from __future__ import annotations

from oracle.model.cards import ALL_CARDS, format_card, is_black_three, is_red_three, is_wild
from oracle.model.state import GameState, HandEnd
from oracle.model.table import HandTable, SideTable, WentOut
from oracle.ruleset.compiled import CompiledRules


def side_of(rules: CompiledRules, seat: int) -> int:
    """The side a seat is dealt into: its own entry of `sides` (red threes, running total). Under fixed sides, also
    the side it plays for; under players.side_formation LONE_HAND, see playing_side."""
    return seat % rules.sides


def playing_side(rules: CompiledRules, state: GameState, seat: int) -> int:
    """The entry of `state.sides` holding the melds of the side a seat plays for now."""
    formed = state.side_of_seat
    return formed[seat] if formed else seat % rules.sides


def seats_playing_for(rules: CompiledRules, state: GameState, side: int) -> list[int]:
    """The seats that play for the side whose melds are on entry `side`, in seat order."""
    formed = state.side_of_seat
    if formed:
        return [seat for seat, entry in enumerate(formed) if entry == side]
    return rules.seats_of_side(side)


def partner_seats(rules: CompiledRules, seat: int) -> list[int]:
    """The other seats of the same side."""
    return [s for s in rules.seats_of_side(side_of(rules, seat)) if s != seat]


def pile_freezers(rules: CompiledRules, state: GameState) -> list[tuple[str, str]]:
    """Why the pile is frozen for everyone: (rule-set field, reason) pairs; empty when it is not."""
    pile_rules = rules.discard_pile
    reasons: list[tuple[str, str]] = []
    pile = state.discard_pile
    upcards = pile[: state.pile_upcards]
    discarded = pile[state.pile_upcards :]
    if pile_rules.frozen_by_upcard and not _WILD_OR_RED_THREE.isdisjoint(upcards):
        reasons.append(("discard_pile.frozen_by_upcard", "the pile started with a wild card or red three"))
    if pile_rules.frozen_by_wild and not _WILDS.isdisjoint(discarded):
        reasons.append(("discard_pile.frozen_by_wild", "a wild card was discarded into it"))
    elif pile_rules.frozen_by_wild and not pile_rules.frozen_by_upcard and not _WILDS.isdisjoint(upcards):
        reasons.append(("discard_pile.frozen_by_wild", "it holds a wild card"))
    if pile_rules.frozen_by_black_three and not _BLACK_THREES.isdisjoint(discarded):
        reasons.append(("discard_pile.frozen_by_black_three", "a black three was discarded into it"))
    return reasons


_WILDS = frozenset(c for c in ALL_CARDS if is_wild(c))
_WILD_OR_RED_THREE = frozenset(c for c in ALL_CARDS if is_wild(c) or is_red_three(c))
_BLACK_THREES = frozenset(c for c in ALL_CARDS if is_black_three(c))


def frozen_reasons_for_side(rules: CompiledRules, state: GameState, side: int) -> list[tuple[str, str]]:
    """Why the pile is frozen to one side (adds the no-initial-meld rule to pile_freezers)."""
    reasons = pile_freezers(rules, state)
    if rules.discard_pile.frozen_until_initial_meld and not state.sides[side].melds:
        reasons.append(("discard_pile.frozen_until_initial_meld", "the side has not made its initial meld"))
    return reasons


def _foot(rules: CompiledRules, foot: tuple[int, ...]) -> tuple[int, ...]:
    """A foot never taken up, as cards held at the end: without the bonus threes in it (laid only once taken up;
    never counted as held)."""
    return tuple(c for c in foot if c not in rules.bonus_threes) if rules.bonus_threes else foot


def end_table(rules: CompiledRules, state: GameState) -> HandTable:
    """The table to score once the hand is over."""
    went_out_side = -1
    if state.hand_end == HandEnd.WENT_OUT:  # the goer's own entry (the same as its side's under fixed sides)
        went_out_side = side_of(rules, state.went_out_seat)
    sides = []
    for index, side in enumerate(state.sides):
        went = WentOut.NO
        if index == went_out_side:
            went = WentOut.CONCEALED if state.went_out_concealed else WentOut.NORMAL
        # a foot never taken up counts as cards held (foot.unplayed_counts)
        feet = rules.foot.unplayed_counts
        hands = tuple(
            state.seats[s].hand + (_foot(rules, state.seats[s].foot) if feet else ())
            for s in rules.seats_of_side(index)
        )
        sides.append(SideTable(side.melds, side.red_threes, hands, went, side.unable_after_yes))
    return HandTable(tuple(sides), state.side_of_seat)


def not_laid_reason(rules: CompiledRules, card: int) -> str:
    """Why `card` cannot be among the cards a side has laid in front of it (SideState.red_threes): not a red three
    (or, where black threes are bonus cards too, not a three), or nothing is laid there because red threes are
    held in the hand (threes.red_three_held)."""
    if not rules.bonus_threes:
        return (
            f"{format_card(card)} cannot be laid in front of a side: under rule set '{rules.id}' red threes are held"
            " in the hand and nothing is laid (threes.red_three_held)"
        )
    kind = "a red three" if len(rules.bonus_threes) == 2 else "a three"
    return f"{format_card(card)} is not {kind}"
