"""Sides that form during the hand (players.side_formation LONE_HAND): one seat alone, the other two partners with
their melds put together."""

from __future__ import annotations

from collections.abc import Callable

from oracle.model.events import SidesFormed
from oracle.model.state import Cards, GameState, HandEnd, Phase, index_of_rank
from oracle.rules.melds import MalformedMeld, meld_shape
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import SideFormation


def sides_form_now(rules: CompiledRules, state: GameState) -> bool:
    """Whether a take of the pile (or a going out) by the player to move forms the sides: the rule set forms them
    during the hand and they have not formed yet."""
    return rules.side_formation == SideFormation.LONE_HAND and not state.side_of_seat


def form_sides(rules: CompiledRules, state: GameState, lone_seat: int) -> tuple[GameState, SidesFormed]:
    """`lone_seat` plays alone; the other two become one side whose melds are kept on the lower seat's entry: each
    meld of the higher seat joins the lower seat's meld of its rank, or is added beside them. Red threes and
    running totals stay on each seat's own entry. Call only when sides_form_now."""
    low, high = (seat for seat in range(rules.seats) if seat != lone_seat)
    melds = list(state.sides[low].melds)
    for meld in state.sides[high].melds:
        at = _same_rank(melds, meld)
        if at is None:
            melds.append(meld)
        else:
            melds[at] = melds[at] + meld
    sides = list(state.sides)
    sides[low] = sides[low].evolve(melds=tuple(melds))
    sides[high] = sides[high].evolve(melds=())
    side_of_seat = tuple(lone_seat if seat == lone_seat else low for seat in range(rules.seats))
    formed = state.evolve(sides=tuple(sides), side_of_seat=side_of_seat)
    return formed, SidesFormed(lone_seat, (low, high), tuple(melds))


def _same_rank(melds: list[Cards], meld: Cards) -> int | None:
    """Index of the meld among `melds` that `meld` belongs with (a natural rank's meld, or the wild-card meld)."""
    try:
        shape = meld_shape(meld)
    except MalformedMeld:
        return None
    if shape.black_threes:
        return None
    if not shape.all_wild:
        return index_of_rank(melds, shape.rank)
    for i, other in enumerate(melds):
        try:
            if meld_shape(other).all_wild:
                return i
        except MalformedMeld:
            continue
    return None


def report_formation(rules: CompiledRules, state: GameState, add: Callable[[str, str], None]) -> bool:
    """Report (path, what) through `add` where state.side_of_seat is not a formation the rule set allows; True when
    it is (empty, or one lone seat and two partners whose melds are on the lower one's entry)."""
    formed = state.side_of_seat
    if not formed:
        lone_rules = rules.side_formation == SideFormation.LONE_HAND
        if lone_rules and state.hand_end == HandEnd.WENT_OUT and state.phase == Phase.HAND_OVER:
            add(
                "side_of_seat",
                "is empty, but a player who goes out before sides form plays alone against the other two",
            )
            return False
        return True
    problem = formation_problem(rules, formed, [bool(side.melds) for side in state.sides])
    if problem is not None:
        add(*problem)
        return False
    return True


def formation_problem(rules: CompiledRules, formed: tuple[int, ...], has_melds: list[bool]) -> tuple[str, str] | None:
    """(path, what) if a non-empty side_of_seat (of a state or a table whose entries have melds per `has_melds`) is
    not a formation the rule set allows: one seat alone on its own entry, the other two on the lower one's."""
    if rules.side_formation != SideFormation.LONE_HAND:
        return "side_of_seat", f"rule set '{rules.id}' fixes sides by seat (players.side_formation); leave it empty"
    if len(formed) != rules.seats:
        return "side_of_seat", f"has {len(formed)} entries; rule set '{rules.id}' has {rules.seats} seats"
    moved = [seat for seat, entry in enumerate(formed) if entry != seat]
    low = formed[moved[0]] if len(moved) == 1 else -1
    if len(moved) != 1 or not 0 <= low < moved[0] or formed[low] != low:
        shown = ", ".join(map(str, formed))
        return (
            "side_of_seat",
            f"[{shown}] is no formation: one seat plays alone (its own entry) and the other two play for the lower"
            " of them, e.g. [0, 1, 1] when seat 0 took the pile first",
        )
    high = moved[0]
    if high < len(has_melds) and has_melds[high]:
        return f"sides[{high}].melds", f"seat {high} plays for side {low}, whose melds hold the partnership's"
    return None
