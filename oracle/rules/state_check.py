"""Checks a game state for every inconsistency at once: card conservation, melds, red threes, turn fields."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from oracle.model.cards import ALL_CARDS, format_card, is_red_three, is_valid
from oracle.model.errors import FieldProblem
from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, TurnStart, TurnState
from oracle.rules import rules_memo
from oracle.rules.facts import not_laid_reason, playing_side
from oracle.rules.foot import report_feet
from oracle.rules.formation import report_formation
from oracle.rules.melds import (
    MalformedMeld,
    count_canastas,
    meld_rule_breaks,
    meld_shape,
    mixed_ranks_problem,
    plain_ranks,
    standing_meld_problem,
)
from oracle.rules.turn_check import report_turn_history
from oracle.rules.upcards import is_covered_kind, must_cover
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.sections import AskPartner, LastRedThree

Add = Callable[[str, str], None]  # (path under the state, what is wrong)


class InvalidStateError(ValueError):
    """A state the rules cannot judge; `problems` lists every inconsistency with its field path."""

    def __init__(self, problems: list[FieldProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


def validate_state(rules: CompiledRules, state: GameState, prefix: str = "state") -> list[FieldProblem]:
    """Every way the state contradicts the rule set or itself; empty when it is consistent."""
    problems: list[FieldProblem] = []

    def add(path: str, what: str) -> None:
        problems.append(FieldProblem(f"{prefix}.{path}" if path else prefix, what))

    if len(state.seats) != rules.seats:
        add("seats", f"has {len(state.seats)} seats; rule set '{rules.id}' has {rules.seats}")
    if len(state.sides) != rules.sides:
        add("sides", f"has {len(state.sides)} sides; rule set '{rules.id}' has {rules.sides}")
    if _cards_conserved(rules, state):
        reds = rules.bonus_threes  # red threes, and black ones where threes.black_three_role is BONUS
        for i, seat in enumerate(state.seats):
            if reds.isdisjoint(seat.hand):
                continue
            for k, card in enumerate(seat.hand):
                if card in reds:
                    add(
                        f"seats[{i}].hand[{k}]",
                        f"{format_card(card)} is {_bonus_three(card)}: it is laid at once, never held",
                    )
        for i, side in enumerate(state.sides):
            if reds.issuperset(side.red_threes):
                continue
            for k, card in enumerate(side.red_threes):
                if card not in reds:
                    add(f"sides[{i}].red_threes[{k}]", not_laid_reason(rules, card))
        pile, first = state.discard_pile, max(state.pile_upcards, 0)
        if not reds.isdisjoint(pile[first:]):
            for k in range(first, len(pile)):
                if pile[k] in reds:
                    what = _bonus_three(pile[k])
                    add(
                        f"discard_pile[{k}]",
                        f"{format_card(pile[k])} is {what} above the upcards: {what[2:]}s are never discarded",
                    )
    else:
        _locate_card_problems(rules, state, add)
    if len(state.seats) == rules.seats and len(state.sides) == rules.sides:
        if not report_formation(rules, state, add):
            state = state.evolve(side_of_seat=())  # judged further as if unformed; the problem is reported
        _check_melds(rules, state, add)
        _check_turn(rules, state, add)
        report_feet(rules, state, add)
    return problems


def _bonus_three(card: int) -> str:
    """'a red three', or for a black three laid as a bonus card (threes.black_three_role BONUS) 'a black three'."""
    return "a red three" if is_red_three(card) else "a black three"


_EMPTY_TURN = TurnState()


def _cards_conserved(rules: CompiledRules, state: GameState) -> bool:
    """Fast path: every card of the deck exactly once per copy, and no unknown card number."""
    cards = [*state.stock, *state.discard_pile]
    for seat in state.seats:
        cards += seat.hand
        cards += seat.foot
    for side in state.sides:
        cards += side.red_threes
        for meld in side.melds:
            cards += meld
    if len(cards) != rules.deck_size:
        return False
    cards.sort()
    return tuple(cards) == rules.sorted_deck


def _locate_card_problems(rules: CompiledRules, state: GameState, add: Add) -> None:
    """The slow path: name every bad card number, misplaced red three and over- or under-counted card."""
    located: list[tuple[str, int]] = []

    def cards_at(path: str, cards: tuple[int, ...]) -> None:
        for k, card in enumerate(cards):
            if is_valid(card):
                located.append((path, card))
            else:
                add(f"{path}[{k}]", f"{card} is not a card")

    for i, seat in enumerate(state.seats):
        cards_at(f"seats[{i}].hand", seat.hand)
        cards_at(f"seats[{i}].foot", seat.foot)
        for k, card in enumerate(seat.hand):
            if card in rules.bonus_threes:
                add(
                    f"seats[{i}].hand[{k}]",
                    f"{format_card(card)} is {_bonus_three(card)}: it is laid at once, never held",
                )
    for i, side in enumerate(state.sides):
        for j, meld in enumerate(side.melds):
            cards_at(f"sides[{i}].melds[{j}]", meld)
        cards_at(f"sides[{i}].red_threes", side.red_threes)
        for k, card in enumerate(side.red_threes):
            if is_valid(card) and card not in rules.bonus_threes:
                add(f"sides[{i}].red_threes[{k}]", not_laid_reason(rules, card))
    cards_at("stock", state.stock)
    cards_at("discard_pile", state.discard_pile)
    for k, card in enumerate(state.discard_pile):
        if card in rules.bonus_threes and k >= state.pile_upcards:
            what = _bonus_three(card)
            add(
                f"discard_pile[{k}]",
                f"{format_card(card)} is {what} above the upcards: {what[2:]}s are never discarded",
            )
    _check_conservation(rules, located, add)


def _check_conservation(rules: CompiledRules, located: list[tuple[str, int]], add: Add) -> None:
    counts = Counter(card for _, card in located)
    for card in ALL_CARDS:
        expected = rules.copies_of(card)
        have = counts.get(card, 0)
        if have > expected:
            places = sorted({p for p, c in located if c == card})
            # The stock and the pile hold the cards nobody shows: a surplus copy is named where a player put it.
            shown = [p for p in places if p not in ("stock", "discard_pile")]
            at = (shown or places)[-1]
            add(at, f"{have} copies of {format_card(card)}; the deck holds {expected} (in {', '.join(places)})")
        elif have < expected:
            add(
                "",
                f"{expected - have} {format_card(card)} missing: every card of the deck must be"
                " somewhere (hands, melds, red threes, stock or pile)",
            )


_CARDS = frozenset(ALL_CARDS)


def _check_melds(rules: CompiledRules, state: GameState, add: Add) -> None:
    goer_known = state.hand_end == HandEnd.WENT_OUT and 0 <= state.went_out_seat < rules.seats
    over_side = playing_side(rules, state, state.went_out_seat) if goer_known else -1
    # A black-three meld may stand on the mover's side while the mover holds at most the one card to discard.
    closing_side = (
        playing_side(rules, state, state.seat_to_move)
        if state.phase in (Phase.PLAY, Phase.AWAIT_ANSWER)
        and 0 <= state.seat_to_move < rules.seats
        and len(state.seats[state.seat_to_move].hand) <= 1
        else -1
    )
    memo = rules_memo.table(rules, "side_melds")
    formed = state.side_of_seat
    for i, side in enumerate(state.sides):
        going_out = i in (over_side, closing_side)
        merged = formed.count(i) > 1  # a partnership formed during the hand: its melds were put together
        key = (side.melds, going_out, merged)
        try:
            found = memo.get(key)
        except TypeError:  # a meld built by hand as a list: judged, not remembered
            found = _side_meld_problems(rules, side.melds, going_out, merged)
        if found is None:
            found = memo[key] = _side_meld_problems(rules, side.melds, going_out, merged)
        for j, what in found:
            add(f"sides[{i}].melds[{j}]", what)


def _plain_melds(rules: CompiledRules, melds: tuple[tuple[int, ...], ...]) -> bool:
    """Every meld is plain (melds.plain_ranks) and, where the rule set has one meld per rank, no rank twice: the
    common case, decided without shaping each meld."""
    for meld in melds:
        if not _CARDS.issuperset(meld):
            return False
    ranks = plain_ranks(rules, melds)
    return ranks is not None and (len(set(ranks)) == len(ranks) or not rules.melds.one_meld_per_rank)


def _side_meld_problems(
    rules: CompiledRules, melds: tuple[tuple[int, ...], ...], going_out: bool, merged: bool = False
) -> tuple[tuple[int, str], ...]:
    """What is wrong with one side's melds (meld index, reason), in order; the same melds judge alike under the
    same rules, so the result is remembered per rule set (a hand's melds come back in every state of it).

    `merged`: the melds of two partners were put together when sides formed (players.side_formation), so a meld
    may hold up to twice melds.max_wilds (two legal melds of one rank made one)."""
    if _plain_melds(rules, melds):
        return ()
    out: list[tuple[int, str]] = []
    ranks: dict[int, int] = {}
    for j, meld in enumerate(melds):
        if not _CARDS.issuperset(meld):  # a bad card number, reported where it is
            continue
        try:
            shape = meld_shape(tuple(meld))  # tuple() of a tuple is the tuple itself; a tuple's shape is remembered
        except MalformedMeld as exc:
            out.append((j, str(exc)))
            continue
        if shape.run and not rules.runs.min_size:
            out.append((j, mixed_ranks_problem(meld)))
            continue
        for broken in meld_rule_breaks(shape, rules, going_out=going_out):
            if merged and broken.field == "melds.max_wilds" and shape.wilds <= 2 * rules.melds.max_wilds:
                continue
            out.append((j, f"{broken.why} (rule-set field {broken.field})"))
        standing = standing_meld_problem(rules, shape)
        if standing is not None:
            out.append((j, standing))
        if rules.melds.one_meld_per_rank and not shape.black_threes and not shape.run:
            if shape.rank in ranks:
                out.append((j, f"a second meld of one rank (melds[{ranks[shape.rank]}]); a side has one per rank"))
            ranks.setdefault(shape.rank, j)
    return tuple(out)


# Enum members as module constants: reading Phase.PLAY costs a slow class-attribute lookup on every use.
_DRAW, _PLAY, _AWAIT, _FINAL, _OVER, _PILE_TOP = (
    Phase.DRAW,
    Phase.PLAY,
    Phase.AWAIT_ANSWER,
    Phase.FINAL_MELDS,
    Phase.HAND_OVER,
    Phase.MELD_PILE_TOP,
)
_NO_END, _WENT_OUT = HandEnd.NONE, HandEnd.WENT_OUT
_NOT_STARTED, _TOOK_PILE = TurnStart.NONE, TurnStart.TOOK_PILE
_NO_ANSWER, _PENDING = PartnerAnswer.NONE, PartnerAnswer.PENDING


def _check_turn(rules: CompiledRules, state: GameState, add: Add) -> None:
    a = add
    turn, phase, hand_end = state.turn, state.phase, state.hand_end
    if not 0 <= state.seat_to_move < rules.seats:
        a("seat_to_move", f"{state.seat_to_move} is not a seat (0..{rules.seats - 1})")
        return
    if not 0 <= state.pile_upcards <= len(state.discard_pile):
        a("pile_upcards", f"{state.pile_upcards} upcards but the pile holds {len(state.discard_pile)} cards")
    elif state.pile_upcards and not rules.deal.upcard:
        a("pile_upcards", f"is {state.pile_upcards}, but rule set '{rules.id}' turns no upcard (deal.upcard)")
    elif state.pile_upcards:
        upcards = state.discard_pile[: state.pile_upcards]
        if all(is_valid(card) for card in upcards):  # a bad card number is reported where it is
            _check_upcards(rules, upcards, a)
    mover_side = state.sides[playing_side(rules, state, state.seat_to_move)]
    empty_turn = turn == _EMPTY_TURN
    if phase == _OVER:
        if hand_end == _NO_END:
            a("hand_end", "the hand is over but no reason is given")
        if not empty_turn:
            a("turn", "the hand is over; turn fields must be empty")
    else:
        if hand_end != _NO_END:
            a("hand_end", f"is {hand_end.name} but the phase is {phase.name}")
        for i, seat in enumerate(state.seats):
            if not seat.hand:
                a(f"seats[{i}].hand", "is empty but the hand is not over (an empty hand means the player went out)")
    if (phase == _DRAW or phase == _PILE_TOP) and not empty_turn:
        a("turn", "the player has not drawn yet, so nothing can have happened this turn")
    if phase == _PILE_TOP and not state.discard_pile:
        a("phase", "MELD_PILE_TOP follows the first step of taking the pile, but the pile is empty")
    if (phase == _PLAY or phase == _AWAIT or phase == _FINAL) and turn.start == _NOT_STARTED:
        a("turn.start", f"phase {phase.name} comes after drawing or taking the pile")
    if (phase == _AWAIT) != (turn.partner_answer == _PENDING):
        a("turn.partner_answer", f"is {turn.partner_answer.name} in phase {phase.name}")
    if turn.partner_answer != _NO_ANSWER and rules.going_out.ask_partner == AskPartner.NONE:
        a("turn.partner_answer", f"rule set '{rules.id}' has no partner to ask")
    if phase == _FINAL:
        if state.stock:
            a("phase", "FINAL_MELDS follows a last-card red three, but the stock is not empty")
        if rules.stock_exhaustion.last_red_three != LastRedThree.MAY_MELD_THEN_ENDS:
            a("phase", f"rule set '{rules.id}' ends the hand at once on a last-card red three")
    if turn.melds_before_turn > len(mover_side.melds) or turn.melds_before_turn < 0:
        a("turn.melds_before_turn", f"{turn.melds_before_turn}, but the side has {len(mover_side.melds)} melds")
    report_turn_history(rules, state, a)
    if not empty_turn:
        if (turn.melded or turn.start == _TOOK_PILE or turn.added_to_existing) and not mover_side.melds:
            a("turn", "the player melded this turn but the side has no melds")
        if turn.made_canasta and not count_canastas(rules, _valid_melds(mover_side.melds)):
            a("turn.made_canasta", "the side has no canasta")
    for side in state.sides:
        if not side.melds:
            for i, seat in enumerate(state.seats):
                if seat.melded_before and not state.sides[playing_side(rules, state, i)].melds:
                    a(f"seats[{i}].melded_before", "the player melded earlier but the side has no melds")
            break
    if hand_end == _WENT_OUT:
        if not 0 <= state.went_out_seat < rules.seats:
            a("went_out_seat", f"{state.went_out_seat} is not a seat")
            return
        if state.seats[state.went_out_seat].hand:
            a("went_out_seat", f"seat {state.went_out_seat} went out but still holds cards")
        side = state.sides[playing_side(rules, state, state.went_out_seat)]
        required = rules.going_out.canastas_required
        if count_canastas(rules, _valid_melds(side.melds)) < required:
            a("went_out_seat", f"the side went out without the {required} canasta(s) required")
    elif state.went_out_concealed:
        a("went_out_concealed", "set but nobody went out")


def _valid_melds(melds: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The melds whose card numbers are all cards (the others are reported card by card, never shaped)."""
    return [meld for meld in melds if _CARDS.issuperset(meld)]


def _check_upcards(rules: CompiledRules, upcards: tuple[int, ...], add: Add) -> None:
    """The cards turned up at the deal follow deal.upcard_cover_*: each covered card is one the rule set covers,
    covering stops at the first card it does not cover (or after one card when covering does not repeat)."""
    if not upcards:
        return
    if rules.deal.upcard_reject_to_stock and len(upcards) > 1:
        add(
            "pile_upcards",
            f"{len(upcards)} upcards, but rule set '{rules.id}' puts a rejected upcard back into the stock"
            " (deal.upcard_reject_to_stock): one card is turned up",
        )
        return
    for i, card in enumerate(upcards[:-1]):
        if not is_covered_kind(rules, card):
            add(
                "pile_upcards",
                f"upcard {i + 1} ({format_card(card)}) is covered, but rule set '{rules.id}' does not"
                " cover such a first upcard (deal.upcard_cover_*)",
            )
            return
        if not must_cover(rules, upcards[: i + 1]):  # a covered kind, so covering stopped: it does not repeat
            add(
                "pile_upcards",
                f"{len(upcards)} upcards, but rule set '{rules.id}' covers the first upcard only once"
                " (deal.upcard_cover_repeats)",
            )
            return
    if must_cover(rules, upcards):
        add(
            "pile_upcards",
            f"the last upcard {format_card(upcards[-1])} should have been covered under rule set"
            f" '{rules.id}' (deal.upcard_cover_*)",
        )
