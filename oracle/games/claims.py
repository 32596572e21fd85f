"""A record's checkpoints: the recording implementation's claimed state, compared with ours and adopted."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from oracle.model.cards import format_cards
from oracle.model.errors import FieldProblem
from oracle.model.state import Cards, GameState, Phase, TurnStart, TurnState
from oracle.rules.facts import playing_side
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class ClaimedState:
    """What a record says the state is after `after` actions of a hand; None (or absent entries) is not claimed."""

    after: int
    hands: tuple[tuple[int, Cards], ...] = ()  #: (seat, hand)
    melds: tuple[tuple[int, tuple[Cards, ...]], ...] = ()  #: (side, its melds)
    red_threes: tuple[tuple[int, Cards], ...] = ()  #: (side, red threes)
    stock: Cards | None = None  #: bottom to top
    stock_count: int | None = None
    discard_pile: Cards | None = None  #: bottom to top
    seat_to_move: int | None = None
    phase: Phase | None = None
    side_of_seat: tuple[int, ...] | None = None  #: the sides formed (GameState.side_of_seat); () not formed yet

    def complete(self, rules: CompiledRules) -> bool:
        """Whether the claim gives every card's place and the turn: the state can be taken from it whole."""
        return (
            {s for s, _ in self.hands} == set(range(rules.seats))
            and {s for s, _ in self.melds} == set(range(rules.sides))
            and {s for s, _ in self.red_threes} == set(range(rules.sides))
            and self.stock is not None
            and self.discard_pile is not None
            and self.seat_to_move is not None
            and self.phase is not None
        )


@dataclass(frozen=True, slots=True)
class Difference:
    """One field where the claim and our state differ, both written out."""

    field: str
    claimed: str
    computed: str


def _melds_text(melds: tuple[Cards, ...]) -> str:
    return ", ".join(format_cards(m) for m in melds)


def _same_melds(a: tuple[Cards, ...], b: tuple[Cards, ...]) -> bool:
    return sorted(sorted(m) for m in a) == sorted(sorted(m) for m in b)


def differences(state: GameState, claim: ClaimedState) -> list[Difference]:
    """Every claimed field that differs from `state` (hands and melds compared as sets, stock and pile in order)."""
    found: list[Difference] = []
    for seat, hand in claim.hands:
        ours = state.seats[seat].hand
        if Counter(hand) != Counter(ours):
            found.append(Difference(f"hands[{seat}]", format_cards(sorted(hand)), format_cards(sorted(ours))))
    for side, melds in claim.melds:
        if not _same_melds(melds, state.sides[side].melds):
            found.append(Difference(f"melds[{side}]", _melds_text(melds), _melds_text(state.sides[side].melds)))
    for side, reds in claim.red_threes:
        if Counter(reds) != Counter(state.sides[side].red_threes):
            found.append(
                Difference(f"red_threes[{side}]", format_cards(reds), format_cards(state.sides[side].red_threes))
            )
    if claim.stock is not None and claim.stock != state.stock:
        found.append(Difference("stock", format_cards(claim.stock), format_cards(state.stock)))
    if claim.stock_count is not None and claim.stock_count != len(state.stock):
        found.append(Difference("stock_count", str(claim.stock_count), str(len(state.stock))))
    if claim.discard_pile is not None and claim.discard_pile != state.discard_pile:
        found.append(Difference("discard_pile", format_cards(claim.discard_pile), format_cards(state.discard_pile)))
    if claim.seat_to_move is not None and claim.seat_to_move != state.seat_to_move:
        found.append(Difference("seat_to_move", str(claim.seat_to_move), str(state.seat_to_move)))
    if claim.phase is not None and claim.phase != state.phase:
        found.append(Difference("phase", claim.phase.name, state.phase.name))
    if claim.side_of_seat is not None and claim.side_of_seat != state.side_of_seat:
        found.append(Difference("side_of_seat", _sides_text(claim.side_of_seat), _sides_text(state.side_of_seat)))
    return found


def _sides_text(side_of_seat: tuple[int, ...]) -> str:
    return f"[{', '.join(map(str, side_of_seat))}]" if side_of_seat else "not formed"


def _restock(rules: CompiledRules, state: GameState) -> Cards:
    """Our stock, less the cards the claim placed elsewhere, plus the cards nowhere else (at the bottom)."""
    placed: Counter[int] = Counter(state.discard_pile)
    for seat in state.seats:
        placed.update(seat.hand)
    for side in state.sides:
        placed.update(side.red_threes)
        for meld in side.melds:
            placed.update(meld)
    free = Counter(rules.deck_counts)
    free.subtract(placed)
    kept: list[int] = []
    for card in state.stock:
        if free[card] > 0:
            kept.append(card)
            free[card] -= 1
    missing = sorted(card for card, n in free.items() for _ in range(max(n, 0)))
    return tuple(missing) + tuple(kept)


def adopt(rules: CompiledRules, state: GameState, claim: ClaimedState) -> tuple[GameState | None, list[FieldProblem]]:
    """`state` with the claimed fields in place of ours, or None and why, if the result is inconsistent.

    An unclaimed stock keeps our order, less the cards the claim puts elsewhere,
    with cards the claim took from elsewhere at its bottom. A claimed change of
    seat or phase starts that turn afresh.
    """
    seats = list(state.seats)
    for seat, hand in claim.hands:
        seats[seat] = replace(seats[seat], hand=hand)
    sides = list(state.sides)
    for side, melds in claim.melds:
        if not _same_melds(melds, sides[side].melds):
            sides[side] = replace(sides[side], melds=melds)
    for side, reds in claim.red_threes:
        sides[side] = replace(sides[side], red_threes=reds)
    result = replace(state, seats=tuple(seats), sides=tuple(sides))
    if claim.side_of_seat is not None:
        result = replace(result, side_of_seat=claim.side_of_seat)
    if claim.discard_pile is not None:
        result = replace(result, discard_pile=claim.discard_pile)
    result = replace(result, stock=claim.stock if claim.stock is not None else _restock(rules, result))
    mover = claim.seat_to_move if claim.seat_to_move is not None else state.seat_to_move
    phase = claim.phase if claim.phase is not None else state.phase
    if (mover, phase) != (state.seat_to_move, state.phase):
        melds_now = len(result.sides[playing_side(rules, result, mover)].melds) if 0 <= mover < rules.seats else 0
        start = TurnStart.NONE if phase == Phase.DRAW else TurnStart.DREW
        result = replace(result, seat_to_move=mover, phase=phase, turn=TurnState(start, melds_before_turn=melds_now))
    turn = result.turn
    melds_now = len(result.sides[playing_side(rules, result, result.seat_to_move)].melds)
    if turn.melds_before_turn > melds_now:
        result = replace(result, turn=replace(turn, melds_before_turn=melds_now))
    problems = validate_state(rules, result, "checkpoint")
    return (None, problems) if problems else (result, [])


def check_claim_shape(rules: CompiledRules, claim: ClaimedState, actions: int, path: str) -> list[FieldProblem]:
    """What makes a checkpoint unusable whatever the state: seats or sides that do not exist, a bad `after`."""
    problems: list[FieldProblem] = []
    if not 0 <= claim.after <= actions:
        problems.append(FieldProblem(f"{path}.after", f"{claim.after} is not between 0 and {actions} (the actions)"))
    for name, entries, limit, what in (
        ("hands", claim.hands, rules.seats, "seat"),
        ("melds", claim.melds, rules.sides, "side"),
        ("red_threes", claim.red_threes, rules.sides, "side"),
    ):
        seen: set[int] = set()
        for k, (index, _) in enumerate(entries):
            if not 0 <= index < limit:
                problems.append(FieldProblem(f"{path}.{name}[{k}].index", f"{index} is not a {what}"))
            elif index in seen:
                problems.append(FieldProblem(f"{path}.{name}[{k}].index", f"{what} {index} is claimed twice"))
            seen.add(index)
    if claim.seat_to_move is not None and not 0 <= claim.seat_to_move < rules.seats:
        problems.append(FieldProblem(f"{path}.seat_to_move", f"{claim.seat_to_move} is not a seat"))
    if claim.stock_count is not None and claim.stock_count < 0:
        problems.append(FieldProblem(f"{path}.stock_count", f"{claim.stock_count} is negative"))
    return problems
