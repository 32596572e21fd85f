"""Converts game states, actions, verdicts and events between API messages (and notation forms) and domain values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from enum import IntEnum
from typing import Any, TypeVar, cast

from oracle.api.v1 import cards_pb2, game_pb2, notation_pb2, oracle_pb2
from oracle.model.actions import (
    Action,
    AnswerPartner,
    AskPartner,
    Combine,
    Discard,
    Draw,
    Finish,
    Meld,
    MeldGroup,
    PickUpPile,
    TakePile,
)
from oracle.model.cards import JOKER, NotationError, deck, is_valid, parse_cards, rank_of
from oracle.model.errors import Problems
from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, PileTaken, RedThreeLaid, SidesFormed
from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, SeatState, SideState, TurnStart, TurnState
from oracle.rules.referee import Verdict
from oracle.ruleset.compiled import CompiledRules
from oracle.service.bounded import bounded_violations
from oracle.service.convert_table import scores_to_proto, table_to_proto
from oracle.service.limits import DEFAULT_LIMITS
from oracle.service.wire import Pieces
from oracle.service.wire_state import decode_state
from oracle.service.wire_verdict import verdict_bytes
from oracle.service.wire_write import encode_state

E = TypeVar("E", bound=IntEnum)


def _enum(kind: type[E], value: int, path: str, problems: Problems, *, allow_zero: bool = True) -> E:
    try:
        result = kind(value)
    except ValueError:
        problems.add(path, f"{value} is not a {kind.__name__} value")
        return next(iter(kind))
    if not allow_zero and value == 0:
        problems.add(path, f"is not set (choose a {kind.__name__})")
    return result


def _wire(cards: Iterable[int]) -> list[cards_pb2.Card]:
    """Card numbers as the generated stubs type them (at run time a Card is its number)."""
    return cast("list[cards_pb2.Card]", list(cards))


def _turn(msg: game_pb2.TurnState, path: str, problems: Problems) -> TurnState:
    return TurnState(
        start=_enum(TurnStart, msg.start, f"{path}.start", problems),
        melded=msg.melded,
        added_to_existing=msg.added_to_existing,
        made_canasta=msg.made_canasta,
        partner_answer=_enum(PartnerAnswer, msg.partner_answer, f"{path}.partner_answer", problems),
        melds_before_turn=msg.melds_before_turn,
    )


def _state_from(
    msg: Any,  # a GameState or a GameStateNotation: the same fields, cards read through `cards`
    prefix: str,
    cards: Callable[[Any, str], tuple[int, ...]],
    problems: Problems,
) -> GameState:
    return GameState(
        seats=tuple(
            SeatState(
                cards(s.hand, f"{prefix}.seats[{i}].hand"), s.melded_before, cards(s.foot, f"{prefix}.seats[{i}].foot")
            )
            for i, s in enumerate(msg.seats)
        ),
        sides=tuple(
            SideState(
                tuple(cards(m, f"{prefix}.sides[{i}].melds[{j}]") for j, m in enumerate(s.melds)),
                cards(s.red_threes, f"{prefix}.sides[{i}].red_threes"),
                s.running_total,
                s.unable_after_yes,
                s.asks,
            )
            for i, s in enumerate(msg.sides)
        ),
        stock=cards(msg.stock, f"{prefix}.stock"),
        discard_pile=cards(msg.discard_pile, f"{prefix}.discard_pile"),
        pile_upcards=msg.pile_upcards,
        seat_to_move=msg.seat_to_move,
        phase=_enum(Phase, msg.phase, f"{prefix}.phase", problems, allow_zero=False) if msg.phase else Phase.DRAW,
        turn=_turn(msg.turn, f"{prefix}.turn", problems),
        hand_end=_enum(HandEnd, msg.hand_end, f"{prefix}.hand_end", problems),
        went_out_seat=msg.went_out_seat,
        went_out_concealed=msg.went_out_concealed,
        side_of_seat=tuple(msg.side_of_seat),
        hand_number=msg.hand_number or 1,
    )


def state_from_proto(msg: game_pb2.GameState, prefix: str = "state") -> GameState:
    """The domain state of a GameState message (PHASE_UNSPECIFIED is refused).

    The request path of every card list is not built here: card numbers are not judged until validate_state,
    which names them. (This is the hot path of every request that carries a state: read from the message's
    bytes by decode_state, and through the message only when those bytes are unusual or wrong.)
    """
    try:
        return decode_state(msg.SerializeToString())
    except (ValueError, IndexError):
        return state_from_message(msg, prefix)


def side_from_message(msg: game_pb2.SideState) -> SideState:
    """The domain side of a SideState message, field by field (card numbers are judged by the state check)."""
    return SideState(
        tuple(tuple(m.cards) for m in msg.melds),
        tuple(msg.red_threes),
        msg.running_total,
        msg.unable_after_yes,
        msg.asks,
    )


def state_from_message(msg: game_pb2.GameState, prefix: str = "state") -> GameState:
    """state_from_proto through the message API, field by field (every problem named with its path)."""
    problems = Problems()
    if msg.phase == 0:
        problems.add(f"{prefix}.phase", "is PHASE_UNSPECIFIED: say where in the turn the player to move is")
    state = GameState(
        seats=tuple(SeatState(tuple(s.hand), s.melded_before, tuple(s.foot)) for s in msg.seats),
        sides=tuple(side_from_message(s) for s in msg.sides),
        stock=tuple(msg.stock),
        discard_pile=tuple(msg.discard_pile),
        pile_upcards=msg.pile_upcards,
        seat_to_move=msg.seat_to_move,
        phase=_enum(Phase, msg.phase, f"{prefix}.phase", problems, allow_zero=False) if msg.phase else Phase.DRAW,
        turn=_turn(msg.turn, f"{prefix}.turn", problems),
        hand_end=_enum(HandEnd, msg.hand_end, f"{prefix}.hand_end", problems),
        went_out_seat=msg.went_out_seat,
        went_out_concealed=msg.went_out_concealed,
        side_of_seat=tuple(msg.side_of_seat),
        hand_number=msg.hand_number or 1,
    )
    problems.raise_if_any()
    return state


def state_from_notation(msg: notation_pb2.GameStateNotation, rules: CompiledRules, prefix: str = "state") -> GameState:
    """The domain state of a GameStateNotation; bad card tokens are reported with their paths.

    With fill_stock, the cards the state does not place go below `stock`, in deck order.
    """
    problems = Problems()
    if msg.phase == 0:
        problems.add(f"{prefix}.phase", "is PHASE_UNSPECIFIED: say where in the turn the player to move is")

    def cards(value: object, path: str) -> tuple[int, ...]:
        try:
            return tuple(parse_cards(str(value)))
        except NotationError as exc:
            problems.add(path, str(exc))
            return ()

    state = _state_from(msg, prefix, cards, problems)
    problems.raise_if_any()
    if msg.fill_stock:
        placed = Counter(c for seat in state.seats for c in (*seat.hand, *seat.foot))
        placed.update(c for side in state.sides for meld in side.melds for c in meld)
        placed.update(c for side in state.sides for c in side.red_threes)
        placed.update(state.stock)
        placed.update(state.discard_pile)
        rest = []
        for card in deck(rules.spec.deck.packs, rules.spec.deck.jokers):
            if placed[card] > 0:
                placed[card] -= 1
            else:
                rest.append(card)
        state = replace(state, stock=tuple(rest) + state.stock)
    return state


def state_to_proto(state: GameState) -> game_pb2.GameState:
    """The GameState message of a domain state."""
    msg = game_pb2.GameState()
    fill_state(msg, state)
    return msg


def fill_state(msg: game_pb2.GameState, state: GameState) -> None:
    """Write a domain state into an empty GameState message in place (no copy of a message built apart)."""
    try:
        data = encode_state(state)
    except (ValueError, TypeError):
        fill_state_fields(msg, state)
    else:
        msg.MergeFromString(data)


def fill_state_fields(msg: game_pb2.GameState, state: GameState) -> None:
    """fill_state through the message API, field by field (raising as the runtime does for a value out of range)."""
    msg.stock.extend(_wire(state.stock))
    msg.discard_pile.extend(_wire(state.discard_pile))
    msg.pile_upcards = state.pile_upcards
    msg.seat_to_move = state.seat_to_move
    msg.phase = cast(game_pb2.Phase, int(state.phase))
    msg.hand_end = cast(game_pb2.HandEnd, int(state.hand_end))
    msg.went_out_seat = state.went_out_seat
    msg.went_out_concealed = state.went_out_concealed
    msg.side_of_seat.extend(state.side_of_seat)
    msg.hand_number = 0 if state.hand_number == 1 else state.hand_number  # 0 (absent) reads as the first hand
    turn, into = state.turn, msg.turn
    into.start = cast(game_pb2.TurnStart, int(turn.start))
    into.melded = turn.melded
    into.added_to_existing = turn.added_to_existing
    into.made_canasta = turn.made_canasta
    into.partner_answer = cast(game_pb2.PartnerAnswer, int(turn.partner_answer))
    into.melds_before_turn = turn.melds_before_turn
    for seat in state.seats:
        msg.seats.add(hand=seat.hand, melded_before=seat.melded_before, foot=seat.foot)
    for side in state.sides:
        entry = msg.sides.add(
            red_threes=side.red_threes,
            running_total=side.running_total,
            unable_after_yes=side.unable_after_yes,
            asks=side.asks,
        )
        for meld in side.melds:
            entry.melds.add(cards=meld)


def _group(msg: game_pb2.MeldGroup, path: str, problems: Problems) -> MeldGroup:
    onto: int | None = None
    if msg.onto_rank:
        if msg.onto_rank == JOKER:  # no meld has the joker's rank (an all-wild meld is named by no card)
            problems.add(f"{path}.onto_rank", "CARD_JK names no rank: name a card of the meld's rank (CARD_KH: kings)")
        elif is_valid(msg.onto_rank):
            onto = rank_of(msg.onto_rank)
        else:
            problems.add(f"{path}.onto_rank", f"{msg.onto_rank} is not a card")
    return MeldGroup(tuple(msg.cards), onto, msg.onto, msg.new_meld)


def action_from_proto(msg: game_pb2.Action, prefix: str = "action") -> Action:
    """The domain action of an Action message; an empty oneof is INVALID_ARGUMENT."""
    problems = Problems()
    kind = msg.WhichOneof("kind")
    action: Action | None = None
    if kind == "draw":
        action = Draw()
    elif kind == "take_pile":
        melds = tuple(_group(m, f"{prefix}.take_pile.melds[{i}]", problems) for i, m in enumerate(msg.take_pile.melds))
        take = msg.take_pile
        action = TakePile(tuple(getattr(take, "with")), melds, take.onto, take.new_meld)
    elif kind == "meld":
        action = Meld(tuple(_group(g, f"{prefix}.meld.groups[{i}]", problems) for i, g in enumerate(msg.meld.groups)))
    elif kind == "discard":
        action = Discard(msg.discard.card)
    elif kind == "ask_partner":
        action = AskPartner()
    elif kind == "answer_partner":
        action = AnswerPartner(msg.answer_partner.yes)
    elif kind == "finish":
        action = Finish()
    elif kind == "pick_up_pile":
        action = PickUpPile()
    elif kind == "combine":
        action = Combine(msg.combine.first, msg.combine.second)
    else:
        problems.add(
            f"{prefix}.kind",
            "no action given: set one of draw, take_pile, pick_up_pile, meld, discard, ask_partner,"
            " answer_partner, finish, combine",
        )
    problems.raise_if_any()
    assert action is not None
    return action


def _group_to_proto(group: MeldGroup) -> game_pb2.MeldGroup:
    msg = game_pb2.MeldGroup(cards=_wire(group.cards), onto=group.onto, new_meld=group.new)
    if group.onto_rank is not None:
        msg.onto_rank = _wire([1 + 4 * group.onto_rank])[0]  # the clubs card names the rank
    return msg


def action_to_proto(action: Action) -> game_pb2.Action:
    """The Action message of a domain action."""
    match action:
        case Draw():
            return game_pb2.Action(draw=game_pb2.DrawAction())
        case TakePile(with_cards, melds, onto, new):
            take = game_pb2.TakePileAction(melds=[_group_to_proto(g) for g in melds], onto=onto, new_meld=new)
            getattr(take, "with").extend(with_cards)
            return game_pb2.Action(take_pile=take)
        case Meld(groups):
            return game_pb2.Action(meld=game_pb2.MeldAction(groups=[_group_to_proto(g) for g in groups]))
        case Discard(card):
            return game_pb2.Action(discard=game_pb2.DiscardAction(card=_wire([card])[0]))
        case AskPartner():
            return game_pb2.Action(ask_partner=game_pb2.AskPartnerAction())
        case AnswerPartner(yes):
            return game_pb2.Action(answer_partner=game_pb2.AnswerPartnerAction(yes=yes))
        case Finish():
            return game_pb2.Action(finish=game_pb2.FinishAction())
        case PickUpPile():
            return game_pb2.Action(pick_up_pile=game_pb2.PickUpPileAction())
        case Combine(first, second):
            return game_pb2.Action(combine=game_pb2.CombineMeldsAction(first=first, second=second))
    raise TypeError(f"not an action: {action!r}")


def event_to_proto(event: Event) -> game_pb2.Event:
    """The Event message of a domain event."""
    match event:
        case CardsDrawn(seat, cards):
            return game_pb2.Event(cards_drawn=game_pb2.CardsDrawn(seat=seat, cards=_wire(cards)))
        case RedThreeLaid(seat, card, replaced):
            return game_pb2.Event(
                red_three_laid=game_pb2.RedThreeLaid(seat=seat, card=_wire([card])[0], replaced=replaced)
            )
        case PileTaken(seat, top, to_hand):
            return game_pb2.Event(pile_taken=game_pb2.PileTaken(seat=seat, top=_wire([top])[0], to_hand=_wire(to_hand)))
        case CanastaMade(side, cards, natural):
            return game_pb2.Event(canasta_made=game_pb2.CanastaMade(side=side, cards=_wire(cards), natural=natural))
        case SidesFormed(lone, partners, melds):
            formed = game_pb2.SidesFormed(lone_seat=lone, partners=partners)
            for meld in melds:
                formed.melds.add(cards=_wire(meld))
            return game_pb2.Event(sides_formed=formed)
        case HandEnded(reason, table, scores):
            return game_pb2.Event(
                hand_ended=game_pb2.HandEnded(
                    reason=cast(game_pb2.HandEnd, int(reason)),
                    table=table_to_proto(table),
                    scores=scores_to_proto(scores).sides,
                )
            )
    raise TypeError(f"not an event: {event!r}")


def verdict_to_proto(
    verdict: Verdict,
    max_violations: int = DEFAULT_LIMITS.max_violations,
    notation: str = "",
    pieces: Pieces | None = None,
) -> oracle_pb2.CheckActionResponse:
    """The CheckActionResponse of a verdict (at most `max_violations` violations: see bounded_violations), with
    `notation` when given. Written as bytes and parsed once (verdict_bytes, copying the bytes of the seats and sides
    in `pieces`, read from the request); through the message API field by field only for a value the bytes do
    not carry."""
    try:
        return oracle_pb2.CheckActionResponse.FromString(verdict_bytes(verdict, max_violations, notation, pieces))
    except (ValueError, TypeError):
        response = verdict_fields(verdict, max_violations)
        if notation:
            response.notation = notation
        return response


def verdict_fields(
    verdict: Verdict, max_violations: int = DEFAULT_LIMITS.max_violations
) -> oracle_pb2.CheckActionResponse:
    """verdict_to_proto through the message API, field by field."""
    response = oracle_pb2.CheckActionResponse(legal=verdict.legal)
    for v in bounded_violations(verdict.violations, max_violations):
        entry = response.violations.add(code=v.code, field=v.field, explanation=v.explanation)
        for source, section in v.cite:
            entry.cite.add(source=source, section=section)
    response.events.extend(event_to_proto(e) for e in verdict.events)
    if verdict.next_state is not None:
        fill_state_fields(response.next_state, verdict.next_state)
    return response
