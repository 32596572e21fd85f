"""The wire-format fast paths of the request path give exactly what the message-based conversions give (or refuse).

decode_state / decode_action read a message's bytes; encode_state / verdict_bytes write an answer's bytes. Each
is compared with the field-by-field conversion it stands in for, on the states of the shipped records and on
random messages and values (odd numbers, unknown enum values, empty lists, odd encodings).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from american_states import american_states, position
from cutthroat_states import cutthroat_hands, cutthroat_states
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from record_states import VIEW_RECORDS, record_states

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.model.actions import Action, AskPartner
from oracle.model.errors import InvalidInputError
from oracle.model.events import HandEnded, SidesFormed
from oracle.model.state import GameState, HandEnd, PartnerAnswer, Phase, SeatState, SideState, TurnStart, TurnState
from oracle.model.view import PlayerView
from oracle.rules.candidates import candidates
from oracle.rules.referee import check_action
from oracle.rules.view import judge_view, view_of
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.sections import AskPartner as AskPartnerRule
from oracle.service.api import OracleApi
from oracle.service.convert_game import (
    action_from_proto,
    action_to_proto,
    event_to_proto,
    fill_state,
    fill_state_fields,
    state_from_message,
    state_from_proto,
    state_to_proto,
    verdict_fields,
    verdict_to_proto,
)
from oracle.service.convert_view import (
    check_view_sizes,
    view_from_message,
    view_to_proto,
    view_to_proto_fields,
    view_verdict_fields,
    view_verdict_to_proto,
)
from oracle.service.referee_answer import fill_events
from oracle.service.sizes import SizeCheck, check_state
from oracle.service.sizes import check_action as check_action_sizes
from oracle.service.wire import Pieces, WireError
from oracle.service.wire_action import decode_action
from oracle.service.wire_state import decode_state, state_within
from oracle.service.wire_verdict import verdict_bytes
from oracle.service.wire_view import decode_view, view_within
from oracle.service.wire_write import encode_state, encode_view

REFUSED = (WireError, IndexError)
INT32 = st.integers(-(2**31), 2**31 - 1)
SMALL = st.one_of(st.integers(0, 130), INT32)
CARD = st.one_of(st.integers(0, 53), st.integers(0, 300), INT32)
CARDS = st.lists(CARD, max_size=12)
#: side_of_seat lists: none (fixed sides), formations and odd numbers, or longer than the fast path reads
SIDE_OF_SEAT = st.one_of(
    st.just([]),
    st.lists(st.one_of(st.integers(0, 3), SMALL), max_size=5),
    st.lists(st.integers(0, 3), min_size=60, max_size=70),
)


def _states() -> list[tuple[str, GameState]]:
    found = []
    for path in VIEW_RECORDS[:6]:
        rule_set_id, states = record_states(path)
        found += [(rule_set_id, s) for s in states[::3]]
    found += cutthroat_states(every=3)  # three players, sides formed during the hand (side_of_seat)
    found += american_states(every=5)  # no upcard, bonus cards, every three laid
    asked = [(rule_set_id, _asked(rule_set_id, state)) for rule_set_id, state in found[::7]]  # SideState.asks set
    return found + [(rule_set_id, state) for rule_set_id, state in asked if state is not None]


def _asked(rule_set_id: str, state: GameState) -> GameState | None:
    """The state with each side's questions this hand counted (1, 2, ...: as many as the side's number plus one, at
    most the rule set's limit); None where the rule set has no partner to ask (a count is then no state)."""
    going_out = default_rule_book().get(rule_set_id).rules.going_out
    if going_out.ask_partner == AskPartnerRule.NONE:
        return None
    most = going_out.ask_partner_max_per_hand or len(state.sides)
    return replace(state, sides=tuple(side.evolve(asks=min(i + 1, most)) for i, side in enumerate(state.sides)))


STATES = _states()


def _fields(state: GameState) -> game_pb2.GameState:
    msg = game_pb2.GameState()
    fill_state_fields(msg, state)
    return msg


def test_record_states_read_and_written_as_the_message_api_does() -> None:
    for _, state in STATES:
        msg = _fields(state)
        data = msg.SerializeToString()
        assert decode_state(data) == state_from_message(msg) == state
        assert game_pb2.GameState.FromString(encode_state(state)) == msg
        assert state_to_proto(state) == msg


def test_a_next_state_written_from_the_pieces_read_is_the_same_message() -> None:
    book = default_rule_book()
    rnd = random.Random(5)
    for rule_set_id, state in STATES[::4]:
        rules = book.get(rule_set_id).rules
        pieces: Pieces = {}
        read = decode_state(_fields(state).SerializeToString(), pieces)
        assert len(pieces) == len(read.seats) + len(read.sides)
        found = candidates(rules, read)
        for action in rnd.sample(found, min(3, len(found))):
            verdict = check_action(rules, read, action, validate=False)
            if verdict.next_state is None:
                continue
            expected = _fields(verdict.next_state)
            assert game_pb2.GameState.FromString(encode_state(verdict.next_state, pieces)) == expected
            response = verdict_to_proto(verdict, 100, "x", pieces)
            assert response.next_state == expected


def test_verdicts_written_as_bytes_equal_the_message_api() -> None:
    book = default_rule_book()
    rnd = random.Random(11)
    for rule_set_id, state in STATES[::3]:
        rules = book.get(rule_set_id).rules
        found = candidates(rules, state)
        for action in rnd.sample(found, min(4, len(found))):
            verdict = check_action(rules, state, action, validate=False)
            for limit in (1, 2, 100):
                expected = verdict_fields(verdict, limit)
                expected.notation = "meld 7D 7D 7S"
                got = oracle_pb2.CheckActionResponse.FromString(verdict_bytes(verdict, limit, "meld 7D 7D 7S"))
                assert got == expected
                assert got.SerializeToString() == expected.SerializeToString()


def test_the_events_of_sides_forming_and_of_a_formed_hand_ending_are_written_as_the_message_api_does() -> None:
    """The take that forms sides (SidesFormed, next state with side_of_seat) and the action that ends a formed hand
    (HandEnded whose table carries side_of_seat): the answer's bytes (from the state and from the mover's view), and
    the events written in place, are the message API's."""
    book = default_rule_book()
    seen: set[type] = set()
    for hand in cutthroat_hands():
        rules = book.get(hand.rule_set_id).rules
        for at in {hand.formed_at, len(hand.actions) - 1} - {-1}:
            verdict = check_action(rules, hand.states[at], hand.actions[at])
            assert verdict.next_state is not None
            expected = verdict_fields(verdict, 50)
            expected.notation = "take 7C 7C"
            data = verdict_bytes(verdict, 50, "take 7C 7C")
            assert data == expected.SerializeToString()
            assert oracle_pb2.CheckActionResponse.FromString(data).next_state.side_of_seat == list(
                verdict.next_state.side_of_seat
            )
            filled = oracle_pb2.CheckActionResponse()
            fill_events(filled.events, verdict.events)
            assert list(filled.events) == [event_to_proto(e) for e in verdict.events] == list(expected.events)
            view = view_of(hand.states[at], hand.states[at].seat_to_move)  # the mover's view: its events known
            answer = judge_view(rules, view, hand.actions[at])
            expected_view = view_verdict_fields(answer, 50)
            assert view_verdict_to_proto(answer, 50).SerializeToString() == expected_view.SerializeToString()
            if at == hand.formed_at:  # the pile is open to all: the mover's view knows the take's events
                assert list(expected_view.events) == list(expected.events)
            for event in verdict.events:
                seen.add(type(event))
                if isinstance(event, HandEnded) and hand.formed_at >= 0:
                    assert event.table.side_of_seat == verdict.next_state.side_of_seat
                    assert list(expected.events[-1].hand_ended.table.side_of_seat) == list(event.table.side_of_seat)
    assert {SidesFormed, HandEnded} <= seen


@st.composite
def state_messages(draw: st.DrawFn) -> game_pb2.GameState:
    """GameState messages with any numbers in their fields (unknown enum values, negative numbers, big cards)."""
    msg = game_pb2.GameState()
    for _ in range(draw(st.integers(0, 4))):
        msg.seats.add(hand=draw(CARDS), melded_before=draw(st.booleans()))
    for _ in range(draw(st.integers(0, 3))):
        side = msg.sides.add(red_threes=draw(CARDS), running_total=draw(SMALL))
        side.unable_after_yes = draw(st.integers(0, 2**32 - 1))
        side.asks = draw(st.one_of(st.integers(0, 3), st.integers(0, 2**32 - 1)))
        for cards in draw(st.lists(CARDS, max_size=4)):
            side.melds.add(cards=cards)
    msg.stock.extend(draw(CARDS))
    msg.discard_pile.extend(draw(CARDS))
    msg.pile_upcards, msg.seat_to_move, msg.went_out_seat = draw(SMALL), draw(SMALL), draw(SMALL)
    msg.phase = draw(st.one_of(st.integers(0, 7), INT32))
    msg.hand_end = draw(st.one_of(st.integers(0, 4), INT32))
    msg.went_out_concealed = draw(st.booleans())
    msg.side_of_seat.extend(draw(SIDE_OF_SEAT))
    if draw(st.booleans()):
        turn = msg.turn
        turn.start, turn.partner_answer = draw(st.one_of(st.integers(0, 3), INT32)), draw(st.integers(-2, 5))
        turn.melded, turn.added_to_existing, turn.made_canasta = draw(st.booleans()), draw(st.booleans()), False
        turn.melds_before_turn = draw(SMALL)
    return msg


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state_messages())
def test_any_state_message_is_read_as_the_message_api_reads_it_or_refused(msg: game_pb2.GameState) -> None:
    try:
        expected: GameState | None = state_from_message(msg)
    except InvalidInputError:
        expected = None
    try:
        got = decode_state(msg.SerializeToString())
    except REFUSED:
        assert state_from_proto(msg) == expected if expected is not None else True
        return
    assert got == expected
    assert state_from_proto(msg) == expected


@settings(max_examples=300, deadline=None)
@given(state_messages(), st.integers(1, 60), st.integers(1, 4))
def test_the_size_count_on_the_domain_state_is_the_size_check(msg: game_pb2.GameState, deck: int, seats: int) -> None:
    try:
        state = decode_state(msg.SerializeToString())
    except REFUSED:
        return
    check = SizeCheck(replace(OracleApi(default_rule_book()).limits, max_seats=seats))
    check_state(check, msg, "state", deck)
    assert state_within(state, deck, seats) == (not check.problems)


@settings(max_examples=300, deadline=None)
@given(state_messages())
def test_any_state_value_is_written_as_the_message_api_writes_it_or_refused(msg: game_pb2.GameState) -> None:
    try:
        state = state_from_message(msg)
    except InvalidInputError:
        return
    state = replace(state, sides=tuple(replace(s, running_total=s.running_total * 3) for s in state.sides))
    try:
        expected = _fields(state)
    except (ValueError, TypeError):
        with pytest.raises(WireError):
            encode_state(state)
        return
    try:
        data = encode_state(state)
    except WireError:
        filled = game_pb2.GameState()
        fill_state(filled, state)
        assert filled == expected
        return
    assert game_pb2.GameState.FromString(data) == expected


#: side_of_seat in each encoding the runtime reads, and the entries it reads from them
SIDE_OF_SEAT_BYTES = [
    (b"\x38\x02\x62\x03\x00\x01\x01", (0, 1, 1)),  # packed
    (b"\x38\x02\x60\x00\x60\x01\x60\x01", (0, 1, 1)),  # unpacked, one entry per field
    (b"\x62\x01\x00\x38\x02\x62\x02\x00\x02", (0, 0, 2)),  # two packed runs around another field
    (b"\x62\x01\x00\x60\x01\x62\x01\x00\x38\x01", (0, 1, 0)),  # packed, unpacked, packed
    (b"\x62\x00\x38\x01", ()),  # an empty packed run
    (b"\x62\x0b\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x38\x01", (1, -1)),  # a negative entry
    (b"\x60\x80\x01\x38\x01", (128,)),  # a two-byte varint
    (b"\x60\x80\x80\x80\x80\x10\x38\x01", (0,)),  # 2**32, read as int32
]
ODD_BYTES = [
    b"\x1a\x02\x05\x06\x1a\x01\x07\x38\x01",  # stock in two packed runs
    b"\x18\x05\x38\x01",  # stock unpacked: refused
    b"\x0a\x04\x10\x02\x10\x00\x38\x01",  # melded_before twice, the last one counts
    b"\x38\x81\x00",  # phase in a two-byte varint
    b"\x38\x01\x42\x02\x08\x01\x42\x02\x10\x01",  # turn twice (merged by the runtime): refused
    b"\x12\x06\x0a\x04\x0a\x02\x09\x0a\x38\x01",  # a meld
    b"\x12\x08\x0a\x06\x0a\x01\x09\x0a\x01\x0a\x38\x01",  # a meld in two runs
    b"\x12\x02\x0a\x00\x38\x01",  # an empty meld
    b"\x38\x02\x68\x01",  # an unknown field: refused
    *(data for data, _ in SIDE_OF_SEAT_BYTES),
    b"\x62\x41" + bytes(65) + b"\x38\x01",  # 65 entries, more than the fast path reads: refused
    b"\x62\x05\x00\x01",  # a side_of_seat length past the end: refused
    b"\x1a\x03\xc8\x01\x05\x38\x01",  # card 200 (two bytes)
    b"\x28\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x38\x01",  # pile_upcards -1
    b"\x0a\x05\x0a\x03\x05\x06",  # a length past its message: refused
    b"\x12\x02\x28\x01\x38\x01",  # a side's asks
    b"\x12\x03\x28\x81\x00\x38\x01",  # asks in a two-byte varint
    b"\x12\x04\x28\x01\x28\x02\x38\x01",  # asks twice, the last one counts
    b"\x12\x0a\x28\x81\x80\x80\x80\x10\x28\x00\x28\x03\x38\x01",  # asks past 32 bits, then set again
    b"\x12\x06\x28\x81\x80\x80\x80\x10\x38\x01",  # asks 2**32 + 1, read as uint32
]


UNREADABLE = (b"\x0a\x05\x0a\x03\x05\x06", b"\x62\x05\x00\x01")  #: bytes the runtime does not parse either


@pytest.mark.parametrize(("data", "expected"), SIDE_OF_SEAT_BYTES)
def test_side_of_seat_is_read_from_each_encoding(data: bytes, expected: tuple[int, ...]) -> None:
    assert decode_state(data).side_of_seat == expected == tuple(game_pb2.GameState.FromString(data).side_of_seat)
    view_data = data.replace(b"\x62", b"\x72").replace(b"\x60", b"\x70").replace(b"\x38", b"\x48")
    assert (
        decode_view(view_data).side_of_seat == expected == tuple(game_pb2.PlayerView.FromString(view_data).side_of_seat)
    )


def test_a_side_of_seat_longer_than_the_fast_path_reads_is_left_to_the_message_path() -> None:
    for entries in (65, 200):
        msg = game_pb2.GameState(phase=game_pb2.PHASE_DRAW, side_of_seat=[1] * entries)
        with pytest.raises(WireError):
            decode_state(msg.SerializeToString())
        assert state_from_proto(msg).side_of_seat == (1,) * entries
        view = game_pb2.PlayerView(phase=game_pb2.PHASE_DRAW, side_of_seat=[1] * entries)
        with pytest.raises(WireError):
            decode_view(view.SerializeToString())
        unpacked = b"\x48\x01" + b"\x70\x01" * entries
        with pytest.raises(WireError):
            decode_view(unpacked)


@pytest.mark.parametrize("data", ODD_BYTES)
def test_odd_encodings_are_read_exactly_or_refused(data: bytes) -> None:
    msg = game_pb2.GameState.FromString(data) if data not in UNREADABLE else None
    try:
        got = decode_state(data)
    except REFUSED:
        return
    assert msg is not None
    assert got == state_from_message(msg)


@st.composite
def action_messages(draw: st.DrawFn) -> game_pb2.Action:
    """Action messages of every kind, with any numbers in them."""
    kind = draw(st.sampled_from(["draw", "take_pile", "meld", "discard", "ask", "answer", "finish", "pick", "none"]))
    msg = game_pb2.Action()
    if kind == "draw":
        msg.draw.SetInParent()
    elif kind in ("take_pile", "meld"):
        groups = msg.take_pile.melds if kind == "take_pile" else msg.meld.groups
        if kind == "take_pile":
            getattr(msg.take_pile, "with").extend(draw(CARDS))
        else:
            msg.meld.SetInParent()
        for cards in draw(st.lists(CARDS, max_size=4)):
            groups.add(cards=cards, onto_rank=draw(st.one_of(st.just(0), CARD)))
    elif kind == "discard":
        msg.discard.card = draw(CARD)
    elif kind == "ask":
        msg.ask_partner.SetInParent()
    elif kind == "answer":
        msg.answer_partner.yes = draw(st.booleans())
    elif kind == "finish":
        msg.finish.SetInParent()
    elif kind == "pick":
        msg.pick_up_pile.SetInParent()
    return msg


@settings(max_examples=400, deadline=None)
@given(action_messages())
def test_any_action_message_is_read_as_the_message_api_reads_it_or_refused(msg: game_pb2.Action) -> None:
    try:
        expected: Action | None = action_from_proto(msg)
    except InvalidInputError:
        expected = None
    try:
        action, groups, named = decode_action(msg.SerializeToString())
    except REFUSED:
        return
    assert action == expected
    for deck in (1, 3, 108):
        check = SizeCheck(OracleApi(default_rule_book()).limits)
        check_action_sizes(check, msg, "action", deck)
        assert (groups <= deck and named <= deck) == (not check.problems)


def test_record_actions_read_from_bytes() -> None:
    book = default_rule_book()
    for rule_set_id, state in STATES[::5]:
        for action in candidates(book.get(rule_set_id).rules, state)[:20]:
            assert decode_action(action_to_proto(action).SerializeToString())[0] == action


def test_state_values_for_the_domain() -> None:
    """The decoded enums are the domain's members, not bare numbers."""
    state = decode_state(b"\x38\x02\x42\x04\x08\x02\x28\x01\x48\x01")
    assert state.phase is Phase.PLAY and state.hand_end is HandEnd.WENT_OUT
    assert state.turn == TurnState(TurnStart.TOOK_PILE, partner_answer=PartnerAnswer.PENDING)
    assert type(state.turn.melded) is bool
    assert decode_state(b"\x0a\x00\x12\x00\x38\x01").seats == (SeatState(()),)
    assert decode_state(b"\x12\x00\x38\x01").sides == (SideState(),)


@st.composite
def view_messages(draw: st.DrawFn) -> game_pb2.PlayerView:
    """PlayerView messages with any numbers in their fields (a seat that is not one of the seats, odd enums)."""
    state = draw(state_messages())
    msg = game_pb2.PlayerView(
        seat=draw(st.one_of(st.integers(-1, 5), INT32)),
        hand=draw(CARDS),
        sides=state.sides,
        stock_count=draw(st.integers(0, 2**32 - 1)),
        discard_pile=state.discard_pile,
        pile_upcards=state.pile_upcards,
        seat_to_move=state.seat_to_move,
        phase=state.phase,
        hand_end=state.hand_end,
        went_out_seat=state.went_out_seat,
        went_out_concealed=state.went_out_concealed,
        side_of_seat=state.side_of_seat,
    )
    if state.HasField("turn"):
        msg.turn.CopyFrom(state.turn)
    for _ in range(draw(st.integers(0, 5))):
        msg.seats.add(hand_count=draw(st.integers(0, 2**32 - 1)), melded_before=draw(st.booleans()))
    return msg


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view_messages(), st.integers(1, 40), st.integers(1, 4))
def test_any_view_message_is_read_and_counted_as_the_message_api_does_or_refused(
    msg: game_pb2.PlayerView, deck: int, seats: int
) -> None:
    try:
        expected: PlayerView | None = view_from_message(msg)
    except InvalidInputError:
        expected = None
    try:
        got = decode_view(msg.SerializeToString())
    except REFUSED:
        return
    assert got == expected
    check = SizeCheck(replace(OracleApi(default_rule_book()).limits, max_seats=seats))
    check_view_sizes(check, msg, "view", deck, "x")
    assert view_within(got, deck, seats) == (not check.problems)


def test_record_views_read_from_bytes() -> None:
    for _, state in STATES[::5]:
        for seat in range(len(state.seats)):
            view = view_of(state, seat)
            assert decode_view(view_to_proto(view).SerializeToString()) == view


def test_views_and_their_verdicts_written_as_bytes_equal_the_message_api() -> None:
    book = default_rule_book()
    rnd = random.Random(3)
    for rule_set_id, state in STATES[::4]:
        rules = book.get(rule_set_id).rules
        found = candidates(rules, state)
        for seat in range(len(state.seats)):
            view = view_of(state, seat)
            assert game_pb2.PlayerView.FromString(encode_view(view)) == view_to_proto_fields(view)
            pieces: Pieces = {}
            read = decode_view(view_to_proto(view).SerializeToString(), pieces)
            assert read == view and len(pieces) == len(view.sides)
            for action in rnd.sample(found, min(2, len(found))):
                answer = judge_view(rules, read, action)
                expected = view_verdict_fields(answer, 50)
                expected.notation = "draw"
                got = view_verdict_to_proto(answer, 50, "draw", pieces)
                assert got == expected
                assert got.SerializeToString() == expected.SerializeToString()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view_messages())
def test_any_view_value_is_written_as_the_message_api_writes_it_or_refused(msg: game_pb2.PlayerView) -> None:
    try:
        view = view_from_message(msg)
    except InvalidInputError:
        return
    view = replace(view, seats=tuple(replace(s, hand_count=s.hand_count * 2) for s in view.seats))
    try:
        expected = view_to_proto_fields(view)
    except (ValueError, TypeError):
        with pytest.raises(WireError):
            encode_view(view)
        return
    try:
        data = encode_view(view)
    except WireError:
        assert view_to_proto(view) == expected
        return
    assert game_pb2.PlayerView.FromString(data) == expected


def test_a_question_counted_in_the_next_state_is_written_not_copied_from_the_request() -> None:
    """The ask changes only the side's asks: its bytes read from the request (pieces) must not be copied back."""
    rules = default_rule_book().get("american-4p").rules
    state = position("9C 9D JH KD", ("QC QD QH",), asks=(0, 1))
    pieces: Pieces = {}
    read = decode_state(_fields(state).SerializeToString(), pieces)
    verdict = check_action(rules, read, AskPartner())
    assert verdict.next_state is not None and [s.asks for s in verdict.next_state.sides] == [1, 1]
    written = verdict_to_proto(verdict, 50, "ask", pieces).next_state
    assert written == _fields(verdict.next_state) and [s.asks for s in written.sides] == [1, 1]
    view_pieces: Pieces = {}
    view = decode_view(view_to_proto(view_of(read, 0)).SerializeToString(), view_pieces)
    answer = judge_view(rules, view, AskPartner())
    got = view_verdict_to_proto(answer, 50, "ask", view_pieces)
    expected = view_verdict_fields(answer, 50)
    expected.notation = "ask"
    assert got == expected and [s.asks for s in got.next_view.sides] == [1, 1]
