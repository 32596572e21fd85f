"""Every limit of the Limits table: a request just within it is served, one just beyond it is INVALID_ARGUMENT whose
field violation names the field, the value and the limit, before any work is done on it (issue 12, "Limits")."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from server_harness import RPC_TIMEOUT, ServerThread

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc, record_pb2, ruleset_pb2, scoring_pb2
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.ruleset.loader import default_rule_book
from oracle.ruleset.validate import POINT_MAXIMUMS, SIZE_MAXIMUMS
from oracle.service.api import OracleApi
from oracle.service.convert_game import state_to_proto
from oracle.service.decoding import add_oracle_service
from oracle.service.limits import DEFAULT_LIMITS, Limits
from oracle.service.servicer import OracleServicer

CLASSIC_DECK = 108  # classic-4p and classic-2p: two packs and four jokers


def api(**limits: int) -> OracleApi:
    return OracleApi(default_rule_book(), Limits(**limits))


def refusal(work: Callable[[], object]) -> list[FieldProblem]:
    """The problems of the InvalidInputError `work` raises."""
    with pytest.raises(InvalidInputError) as info:
        work()
    return info.value.problems


def assert_over(problems: list[FieldProblem], field: str, value: int, limit: int) -> None:
    """One of `problems` is at `field` and names the value and the limit."""
    at_field = [p for p in problems if p.field == field]
    assert at_field, f"no problem at {field}: {problems}"
    assert any(f"{value}" in p.description and f"the limit is {limit}" in p.description for p in at_field), at_field


def not_over_a_limit(work: Callable[[], object]) -> None:
    """`work` succeeds, or fails for a reason other than a limit."""
    try:
        work()
    except InvalidInputError as exc:
        assert not [p for p in exc.problems if "the limit is" in p.description], exc.problems


def inline(text_sections: dict[str, Any], notes: int = 0) -> oracle_pb2.RuleSetRef:
    """classic-4p with `text_sections` overridden (each with its cited note), plus `notes` more notes."""
    spec = ruleset_pb2.RuleSet(extends="classic-4p", **text_sections)
    for name in text_sections:
        spec.rules.add(field=name, text="A house rule.", cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="x")])
    for field in ["deal", "turn", "game", "canastas", "melds"][:notes]:
        spec.rules.add(field=field, text="As classic.", cite=[ruleset_pb2.Citation(source="4P-CLASSIC", section="x")])
    return oracle_pb2.RuleSetRef(inline=spec)


def get(ref: oracle_pb2.RuleSetRef, service: OracleApi | None = None) -> Callable[[], object]:
    return lambda: (service or api()).GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=ref))


def dealt(rule_set_id: str = "classic-4p") -> game_pb2.GameState:
    rules = default_rule_book().get(rule_set_id).rules
    return state_to_proto(deal(rules, deck_order(rules, DeckSource(seed=7)), dealer=0))


def check(state: game_pb2.GameState, action: game_pb2.Action | None = None) -> oracle_pb2.CheckActionRequest:
    return oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"),
        state=state,
        action=action or game_pb2.Action(draw=game_pb2.DrawAction()),
    )


# --------------------------------------------------------------------------- the table itself


def test_the_defaults_are_the_rule_set_maxima_and_every_limit_is_positive() -> None:
    assert dict(DEFAULT_LIMITS.rule_set_maximums()) == dict(SIZE_MAXIMUMS)
    assert DEFAULT_LIMITS.largest_deck == 52 * 12 + 48
    with pytest.raises(ValueError, match="max_packs"):
        Limits(max_packs=0)


# --------------------------------------------------------------------------- rule-set numbers


@pytest.mark.parametrize(
    ("section", "field", "limit"),
    [
        ("deck", "packs", SIZE_MAXIMUMS["deck.packs"]),
        ("deck", "jokers", SIZE_MAXIMUMS["deck.jokers"]),
        ("card_values", "joker", POINT_MAXIMUMS["card_values.joker"]),
        ("canastas", "natural_bonus", POINT_MAXIMUMS["canastas.natural_bonus"]),
        ("going_out", "bonus", POINT_MAXIMUMS["going_out.bonus"]),
    ],
)
def test_a_rule_set_number_at_its_maximum_is_served_and_one_above_is_refused(
    section: str, field: str, limit: int
) -> None:
    at = get(inline({section: {field: limit}}))
    at()  # served: a valid rule set
    problems = refusal(get(inline({section: {field: limit + 1}})))
    assert_over(problems, f"rule_set.inline.{section}.{field}", limit + 1, limit)


def test_a_million_packs_is_refused_before_a_deck_is_built() -> None:
    problems = refusal(get(inline({"deck": {"packs": 1_000_000}})))
    assert problems == [FieldProblem("rule_set.inline.deck.packs", "is 1000000; the limit is 12")]


def test_seats_and_side_size_limits() -> None:
    twelve = {"players": {"seats": 12, "side_size": 2}, "deck": {"packs": 3, "jokers": 6}}
    get(inline(twelve))()  # twelve players in six pairs, three packs: served
    problems = refusal(get(inline({**twelve, "players": {"seats": 13, "side_size": 1}})))
    assert_over(problems, "rule_set.inline.players.seats", 13, 12)
    problems = refusal(get(inline({"players": {"seats": 4, "side_size": 13}})))
    assert_over(problems, "rule_set.inline.players.side_size", 13, 12)


def test_threshold_rows_limit() -> None:
    def rows(n: int) -> dict[str, Any]:
        return {"initial_meld": {"thresholds": [{"from_score": 100 * k, "minimum": 50 + k} for k in range(n)]}}

    limit = SIZE_MAXIMUMS["initial_meld.thresholds"]
    get(inline(rows(limit)))()
    assert_over(refusal(get(inline(rows(limit + 1)))), "rule_set.inline.initial_meld.thresholds", limit + 1, limit)


def test_a_configured_limit_applies_to_the_merged_rule_set_too() -> None:
    small = api(max_packs=2)
    get(inline({"deck": {"packs": 2}}), small)()
    assert_over(refusal(get(inline({"deck": {"packs": 3}}), small)), "rule_set.inline.deck.packs", 3, 2)
    # A higher configured limit lets the loader accept what the default would refuse.
    get(inline({"deck": {"packs": 13}}), api(max_packs=13))()


# --------------------------------------------------------------------------- notes, citations, ids and texts


def test_rule_notes_and_citations_limits() -> None:
    three_notes = inline({"deck": {"jokers": 4}}, notes=2)
    get(three_notes, api(max_rule_notes=3))()
    assert_over(refusal(get(three_notes, api(max_rule_notes=2))), "rule_set.inline.rules", 3, 2)
    cited = inline({"deck": {"jokers": 4}})
    cited.inline.rules[0].cite.add(source="PAGAT", section="y")
    get(cited, api(max_citations=2))()
    assert_over(refusal(get(cited, api(max_citations=1))), "rule_set.inline.rules[0].cite", 2, 1)


def test_id_and_text_lengths() -> None:
    limit = DEFAULT_LIMITS.max_id_chars
    service = api()
    with pytest.raises(Exception) as unknown:  # an id just within the limit is looked up (and not found)
        service.GetRuleSet(oracle_pb2.GetRuleSetRequest(rule_set=oracle_pb2.RuleSetRef(id="x" * limit)))
    assert type(unknown.value).__name__ == "UnknownRuleSetError"
    long_id = oracle_pb2.RuleSetRef(id="x" * (limit + 1))
    assert_over(refusal(get(long_id)), "rule_set.id", limit + 1, limit)
    text = DEFAULT_LIMITS.max_text_chars
    titled = inline({"deck": {"jokers": 4}})
    titled.inline.title = "t" * text
    not_over_a_limit(get(titled))
    titled.inline.title = "t" * (text + 1)
    assert_over(refusal(get(titled)), "rule_set.inline.title", text + 1, text)
    titled.inline.title = ""
    titled.inline.rules[0].cite[0].source = "s" * (limit + 1)
    assert_over(refusal(get(titled)), "rule_set.inline.rules[0].cite[0].source", limit + 1, limit)


# --------------------------------------------------------------------------- states, actions, tables, deals


def test_a_hand_as_long_as_the_deck_is_judged_and_one_card_longer_is_refused() -> None:
    state = dealt()
    del state.seats[0].hand[:]
    state.seats[0].hand.extend([9] * CLASSIC_DECK)
    not_over_a_limit(
        lambda: api().ValidateState(oracle_pb2.ValidateStateRequest(rule_set=check(state).rule_set, state=state))
    )
    state.seats[0].hand.append(9)
    problems = refusal(lambda: api().CheckAction(check(state)))
    assert_over(problems, "state.seats[0].hand", CLASSIC_DECK + 1, CLASSIC_DECK)


def test_four_million_red_threes_are_refused_by_length() -> None:
    state = dealt()
    state.seats[0].hand.extend([6] * 4_000_000)
    problems = refusal(lambda: api().CheckAction(check(state)))
    assert_over(problems, "state.seats[0].hand", 4_000_011, CLASSIC_DECK)


def test_seats_sides_melds_and_the_whole_state() -> None:
    limit = DEFAULT_LIMITS.max_seats
    state = dealt()
    for _ in range(limit + 1 - len(state.seats)):
        state.seats.add()
    assert_over(refusal(lambda: api().CheckAction(check(state))), "state.seats", limit + 1, limit)
    state = dealt()
    for _ in range(CLASSIC_DECK + 1):
        state.sides[1].melds.add()
    assert_over(
        refusal(lambda: api().CheckAction(check(state))), "state.sides[1].melds", CLASSIC_DECK + 1, CLASSIC_DECK
    )
    state = dealt()  # 108 cards, and two melds of 100: each list within the deck, 308 cards in all
    state.sides[0].melds.add(cards=[9] * 100)
    state.sides[1].melds.add(cards=[10] * 100)
    assert_over(refusal(lambda: api().CheckAction(check(state))), "state", 308, 2 * CLASSIC_DECK)


def test_an_action_names_at_most_the_deck() -> None:
    meld = game_pb2.Action(meld=game_pb2.MeldAction(groups=[game_pb2.MeldGroup(cards=[9] * CLASSIC_DECK)]))
    not_over_a_limit(lambda: api().CheckAction(check(dealt(), meld)))
    meld.meld.groups.add(cards=[10])
    assert_over(refusal(lambda: api().CheckAction(check(dealt(), meld))), "action", CLASSIC_DECK + 1, CLASSIC_DECK)


def test_score_hand_table_sizes() -> None:
    table = scoring_pb2.HandTable()
    side = table.sides.add()
    side.hands.add(cards=[9] * CLASSIC_DECK)
    table.sides.add()
    request = oracle_pb2.ScoreHandRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), table=table)
    not_over_a_limit(lambda: api().ScoreHand(request))
    request.table.sides[0].hands[0].cards.append(9)  # the request holds a copy of the table
    assert_over(refusal(lambda: api().ScoreHand(request)), "table.sides[0].hands[0]", CLASSIC_DECK + 1, CLASSIC_DECK)


def test_deal_hand_deck_order_and_running_totals() -> None:
    request = oracle_pb2.DealHandRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), seed=3)
    request.running_totals.extend([0, 0])
    api().DealHand(request)
    request.running_totals.append(0)
    assert_over(refusal(lambda: api().DealHand(request)), "running_totals", 3, 2)
    ordered = oracle_pb2.DealHandRequest(rule_set=oracle_pb2.RuleSetRef(id="classic-4p"))
    ordered.deck_order.cards.extend([9] * (CLASSIC_DECK + 1))
    assert_over(refusal(lambda: api().DealHand(ordered)), "deck_order", CLASSIC_DECK + 1, CLASSIC_DECK)


def test_adjudicate_rule_sets_limit() -> None:
    def request(n: int) -> oracle_pb2.AdjudicateRequest:
        refs = [oracle_pb2.RuleSetRef(id="classic-4p")] * n
        return oracle_pb2.AdjudicateRequest(state=dealt(), action=check(dealt()).action, rule_sets=refs)

    api(max_rule_sets=2).Adjudicate(request(2))
    assert_over(refusal(lambda: api(max_rule_sets=2).Adjudicate(request(3))), "rule_sets", 3, 2)


# --------------------------------------------------------------------------- records


def record(hands: int, actions: int) -> oracle_pb2.ReplayGameRequest:
    msg = record_pb2.GameRecord(rule_set_id="classic-2p")
    for _ in range(hands):
        msg.hands.add(seed=1, actions=[game_pb2.Action(draw=game_pb2.DrawAction())] * actions)
    return oracle_pb2.ReplayGameRequest(record=msg)


@pytest.mark.parametrize(
    ("limits", "within", "beyond", "field", "value", "limit"),
    [
        ({"max_record_hands": 2}, (2, 1), (3, 1), "record.hands", 3, 2),
        ({"max_hand_actions": 2}, (1, 2), (1, 3), "record.hands[0].actions", 3, 2),
        ({"max_record_actions": 4}, (2, 2), (3, 2), "record.hands", 6, 4),
    ],
)
def test_record_limits(
    limits: dict[str, int], within: tuple[int, int], beyond: tuple[int, int], field: str, value: int, limit: int
) -> None:
    service = api(**limits)
    not_over_a_limit(lambda: service.ReplayGame(record(*within)))
    assert_over(refusal(lambda: service.ReplayGame(record(*beyond))), field, value, limit)


def test_a_record_id_is_bounded_like_any_id() -> None:
    request = record(1, 1)
    request.record.rule_set_id = "r" * (DEFAULT_LIMITS.max_id_chars + 1)
    limit = DEFAULT_LIMITS.max_id_chars
    assert_over(refusal(lambda: api().ReplayGame(request)), "record.rule_set_id", limit + 1, limit)


# --------------------------------------------------------------------------- over the wire: stream length, message size


class LimitedServer:
    """The oracle service alone, with its own Limits, on a free port (a loop in a daemon thread)."""

    def __init__(self, limits: Limits) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

        async def start() -> tuple[grpc.aio.Server, int]:
            server = grpc.aio.server()
            add_oracle_service(OracleServicer(default_rule_book(), limits), server)
            port = server.add_insecure_port("127.0.0.1:0")
            await server.start()
            return server, port

        self.server, port = asyncio.run_coroutine_threadsafe(start(), self.loop).result(RPC_TIMEOUT)
        self.address = f"127.0.0.1:{port}"

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(0), self.loop).result(RPC_TIMEOUT)
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture(scope="module")
def limited() -> Iterator[oracle_pb2_grpc.OracleServiceStub]:
    server = LimitedServer(Limits(max_stream_messages=3))
    channel = grpc.insecure_channel(server.address)
    try:
        yield oracle_pb2_grpc.OracleServiceStub(channel)
    finally:
        channel.close()
        server.close()


def test_a_stream_ends_with_invalid_argument_after_its_message_limit(limited) -> None:
    start = oracle_pb2.RefereeGameRequest(
        start=oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id="classic-2p"), first_dealer=0)
    )
    deal_message = oracle_pb2.RefereeGameRequest(deal=oracle_pb2.RefereeDeal(seed=1))
    draw = oracle_pb2.RefereeGameRequest(action=game_pb2.Action(draw=game_pb2.DrawAction()))
    answers = list(limited.RefereeGame(iter([start, deal_message, draw]), timeout=RPC_TIMEOUT))
    assert len(answers) == 3
    received = []
    with pytest.raises(grpc.RpcError) as info:
        for answer in limited.RefereeGame(iter([start, deal_message, draw, draw]), timeout=RPC_TIMEOUT):
            received.append(answer)
    assert len(received) == 3
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "message 4: the limit is 3 per stream" in info.value.details()


def test_a_request_past_the_message_size_is_refused_by_the_transport() -> None:
    server = ServerThread(default_rule_book())
    channel = grpc.insecure_channel(server.address)
    try:
        call = channel.unary_unary(
            "/oracle.api.v1.OracleService/GetRuleSet", request_serializer=None, response_deserializer=None
        )
        size = DEFAULT_LIMITS.max_message_bytes

        def request_of(total: int) -> bytes:  # a GetRuleSetRequest whose rule-set id makes it `total` bytes long
            ref = oracle_pb2.RuleSetRef(id="x" * (total - 10))
            data = oracle_pb2.GetRuleSetRequest(rule_set=ref).SerializeToString()
            ref.id = "x" * (total - 10 - (len(data) - total))
            return oracle_pb2.GetRuleSetRequest(rule_set=ref).SerializeToString()

        within, beyond = request_of(size), request_of(size + 1)
        assert (len(within), len(beyond)) == (size, size + 1)
        with pytest.raises(grpc.RpcError) as read:  # read, decoded and refused by the id limit
            call(within, timeout=RPC_TIMEOUT)
        assert read.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert f"the limit is {DEFAULT_LIMITS.max_id_chars}" in read.value.details()
        with pytest.raises(grpc.RpcError) as refused:  # gRPC refuses it unread
            call(beyond, timeout=RPC_TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        channel.close()
        server.close()
