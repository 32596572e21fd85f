"""The event loop only does I/O: health and cheap calls are answered while the heaviest calls run; deadlines and
cancellation stop long work and free its worker; ListLegalActions is bounded and says when it cut the list.

Timing is never asserted against a number of seconds for the answers that must be fast: the tests assert the order
of events instead (a cheap call answered while a heavy call is still running). The latencies measured are printed
(run with -s to see them).
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from importlib import resources

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from helpers import make_state
from server_harness import ServerThread
from servicer_harness import TIMEOUT, ServicerServer

from oracle.api.v1 import game_pb2, oracle_pb2, oracle_pb2_grpc
from oracle.games.deal import deal
from oracle.games.match import DeckSource, dealer_of_hand, deck_order
from oracle.games.movegen import legal_actions, legal_actions_upto
from oracle.games.replay import GameRecord, HandRecord, replay
from oracle.games.simulate import simulate_game
from oracle.model.actions import Discard, Draw
from oracle.model.cards import JOKER, format_card, is_natural, rank_of
from oracle.model.errors import InvalidInputError
from oracle.model.events import HandEnded
from oracle.model.interrupt import DeadlineExceeded, StopSignal, WorkCancelled
from oracle.model.state import GameState, Phase
from oracle.rules.referee import check_action
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_record import record_to_proto
from oracle.service.limits import DEFAULT_LIMITS, Limits
from oracle.service.workers import WorkerPool

RULE_SET = "classic-4p"
OTHERS = ["6C 6D 8S", "TC TD JS", "JD 9C 5S"]  #: the other seats' hands in the big-hand states
PILE = "5H 8D TH"


# --------------------------------------------------------------------------- heavy requests


def draw_discard_hands(rules: CompiledRules, seed: int) -> list[HandRecord]:
    """One hand per seat (so the dealer comes round again) where every player draws and discards its lowest card
    until the stock runs out: nobody melds, so no game of these hands ever ends."""
    hands = []
    for h in range(rules.seats):
        source = DeckSource(seed=seed + h)
        dealer = dealer_of_hand(rules, 0, h)
        state = deal(rules, deck_order(rules, source), dealer=dealer, running_totals=(0,) * rules.sides)
        actions = []
        while True:
            action = Draw() if state.phase == Phase.DRAW else Discard(min(state.seats[state.seat_to_move].hand))
            verdict = check_action(rules, state, action, validate=False)
            assert verdict.legal and verdict.next_state is not None, verdict.violations
            actions.append(action)
            state = verdict.next_state
            if any(isinstance(e, HandEnded) for e in verdict.events):
                break
        hands.append(HandRecord(source, tuple(actions)))
    return hands


def long_record(max_hands: int, max_actions: int) -> GameRecord:
    """A legal record of as many hands as fit both limits (the same few hands again and again)."""
    rules = default_rule_book().get(RULE_SET).rules
    block = draw_discard_hands(rules, 1000)
    hands: list[HandRecord] = []
    actions = 0
    while len(hands) < max_hands:
        hand = block[len(hands) % len(block)]
        if actions + len(hand.actions) > max_actions:
            break
        hands.append(hand)
        actions += len(hand.actions)
    return GameRecord(RULE_SET, 0, tuple(hands))


def big_hand_state(cards: int) -> GameState:
    """Seat 0 to play, no melds yet, holding `cards` cards: every joker and two first, then naturals (the
    legal-action list grows exponentially with such a hand)."""
    taken = set(" ".join([*OTHERS, PILE]).split())
    pool = [JOKER] * 4 + [c for c in range(1, 53) if rank_of(c) == 0] * 2
    pool += [c for c in range(1, 53) if is_natural(c) and format_card(c) not in taken] * 2
    hand = " ".join(format_card(c) for c in pool[:cards])
    return make_state(
        RULE_SET,
        hands=[hand, *OTHERS],
        pile=PILE,
        phase="PHASE_PLAY",
        turn={"start": "TURN_START_DREW", "meldsBeforeTurn": 0},
    )


def heaviest_replay() -> oracle_pb2.ReplayGameRequest:
    """The longest record the default limits allow, every verdict asked for."""
    record = long_record(DEFAULT_LIMITS.max_record_hands, DEFAULT_LIMITS.max_record_actions)
    return oracle_pb2.ReplayGameRequest(record=record_to_proto(record))


def heaviest_listing(cards: int = 70) -> oracle_pb2.ListLegalActionsRequest:
    """A hand with hundreds of thousands of legal actions, max_actions at the ceiling (minutes of work)."""
    return oracle_pb2.ListLegalActionsRequest(
        rule_set=oracle_pb2.RuleSetRef(id=RULE_SET),
        state=state_to_proto(big_hand_state(cards)),
        max_actions=DEFAULT_LIMITS.max_legal_actions,
    )


CHEAP = oracle_pb2.GetMinimumInitialMeldRequest(rule_set=oracle_pb2.RuleSetRef(id=RULE_SET), running_total=1600)


def wait_until(condition: Callable[[], bool], what: str, seconds: float = TIMEOUT) -> None:
    """Poll `condition` until it holds (a liveness check with a generous bound, not a timing assertion)."""
    ends = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < ends, f"still waiting after {seconds} s: {what}"
        time.sleep(0.02)


# --------------------------------------------------------------------------- the event loop stays free


@pytest.fixture(scope="module")
def served() -> Iterator[ServerThread]:
    running = ServerThread(default_rule_book())
    try:
        yield running
    finally:
        running.close()


def test_health_and_a_cheap_call_are_answered_while_the_heaviest_calls_run(served) -> None:
    channel = grpc.insecure_channel(served.address)
    stub = oracle_pb2_grpc.OracleServiceStub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    try:
        finished: dict[str, float] = {}
        replay_call = stub.ReplayGame.future(heaviest_replay(), timeout=10 * TIMEOUT)
        replay_call.add_done_callback(lambda _: finished.setdefault("replay", time.monotonic()))
        listing_call = stub.ListLegalActions.future(heaviest_listing(), timeout=10 * TIMEOUT)
        listing_call.add_done_callback(lambda _: finished.setdefault("listing", time.monotonic()))
        latencies: dict[str, list[float]] = {"health": [], "GetMinimumInitialMeld": []}
        first_round = 0.0
        for _ in range(30):
            started = time.monotonic()
            answer = health.Check(health_pb2.HealthCheckRequest(), timeout=TIMEOUT)
            latencies["health"].append(time.monotonic() - started)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
            started = time.monotonic()
            assert stub.GetMinimumInitialMeld(CHEAP, timeout=TIMEOUT).minimum > 0
            latencies["GetMinimumInitialMeld"].append(time.monotonic() - started)
            first_round = first_round or time.monotonic()
            assert not listing_call.done(), "the heaviest ListLegalActions ended while the probes ran"
        assert first_round < finished.get("replay", float("inf")), "the heaviest ReplayGame ended first"
        assert replay_call.result().report.ok  # the replay itself is not hurt by the probes
        for name, values in latencies.items():
            values.sort()
            print(
                f"\n{name} while the heaviest calls run: p50 {statistics.median(values) * 1000:.1f} ms,"
                f" p99 {values[int(0.99 * (len(values) - 1))] * 1000:.1f} ms, n={len(values)}"
            )
        listing_call.cancel()
    finally:
        channel.close()


# --------------------------------------------------------------------------- deadlines and cancellation


@pytest.fixture(scope="module")
def inside() -> Iterator[ServicerServer]:
    running = ServicerServer(Limits(max_record_hands=3000, max_record_actions=300_000))
    try:
        yield running
    finally:
        running.close()


def test_a_deadline_ends_a_long_replay_with_deadline_exceeded_and_frees_its_worker(inside) -> None:
    record = long_record(3000, 300_000)  # fifteen times the default limits: several seconds of replay at any speed
    request = oracle_pb2.ReplayGameRequest(record=record_to_proto(record), summary_only=True)
    with grpc.insecure_channel(inside.address) as channel:
        stub = oracle_pb2_grpc.OracleServiceStub(channel)
        call = stub.ReplayGame.future(request, timeout=1.0)
        wait_until(lambda: inside.servicer.long_workers.busy() == 1, "the replay starts in a worker")
        with pytest.raises(grpc.RpcError) as ended:
            call.result()
        assert ended.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        wait_until(lambda: inside.servicer.long_workers.busy() == 0, "the replay stops at the deadline")
        assert stub.GetMinimumInitialMeld(CHEAP, timeout=TIMEOUT).minimum > 0


def test_a_cancelled_listing_stops_and_frees_its_worker(inside) -> None:
    with grpc.insecure_channel(inside.address) as channel:
        call = oracle_pb2_grpc.OracleServiceStub(channel).ListLegalActions.future(heaviest_listing(), timeout=TIMEOUT)
        wait_until(lambda: inside.servicer.long_workers.busy() == 1, "the listing starts in a worker")
        call.cancel()
        wait_until(lambda: inside.servicer.long_workers.busy() == 0, "the listing stops once cancelled")
        assert call.cancelled()


def test_replay_listing_and_simulation_call_their_checkpoint_as_they_go() -> None:
    rules = default_rule_book().get(RULE_SET).rules
    record = long_record(8, 10_000)
    calls = []

    def count_then_stop() -> None:
        calls.append(1)
        if len(calls) == 200:
            raise DeadlineExceeded("stop here")

    with pytest.raises(DeadlineExceeded):
        replay(rules, record, checkpoint=count_then_stop)
    assert len(calls) == 200  # it stopped where the checkpoint said, far from the record's end
    calls.clear()
    with pytest.raises(DeadlineExceeded):
        legal_actions_upto(rules, big_hand_state(70), None, count_then_stop)
    assert len(calls) == 200
    calls.clear()
    with pytest.raises(DeadlineExceeded):
        simulate_game(rules, 7, checkpoint=count_then_stop)
    assert len(calls) == 200


def test_a_stop_signal_says_why_it_stopped() -> None:
    StopSignal.after(None)()  # no deadline, not cancelled: the work goes on
    with pytest.raises(DeadlineExceeded):
        StopSignal.after(0)()
    signal = StopSignal.after(3600)
    signal()
    signal.cancel()
    with pytest.raises(WorkCancelled):
        signal()


# --------------------------------------------------------------------------- ListLegalActions bounded


def listing(state: GameState, max_actions: int = 0) -> oracle_pb2.ListLegalActionsRequest:
    return oracle_pb2.ListLegalActionsRequest(
        rule_set=oracle_pb2.RuleSetRef(id=RULE_SET), state=state_to_proto(state), max_actions=max_actions
    )


def wire(actions: Iterable[game_pb2.Action]) -> list[bytes]:
    return [a.SerializeToString(deterministic=True) for a in actions]


def test_max_actions_truncates_and_says_so() -> None:
    state = big_hand_state(20)
    api = OracleApi(default_rule_book())
    everything = wire(action_to_proto(a) for a in legal_actions(default_rule_book().get(RULE_SET).rules, state))
    assert len(everything) > 10
    full = api.ListLegalActions(listing(state))  # max_actions 0: the default limit, far above this hand's count
    assert not full.truncated
    assert wire(full.actions) == everything and full.counts.total == len(everything)
    cut = api.ListLegalActions(listing(state, 10))
    assert cut.truncated
    assert len(cut.actions) == cut.counts.total == 10
    listed = wire(cut.actions)
    assert listed == [a for a in everything if a in listed]  # a subset, in the full list's (canonical) order
    exact = api.ListLegalActions(listing(state, len(everything)))
    assert not exact.truncated and wire(exact.actions) == everything


def test_a_huge_hand_answers_a_small_max_actions_without_listing_everything() -> None:
    answer = OracleApi(default_rule_book()).ListLegalActions(listing(big_hand_state(76), 25))
    assert answer.truncated and answer.counts.total == 25


def test_max_actions_beyond_the_ceiling_is_invalid_argument_naming_the_limit() -> None:
    api = OracleApi(default_rule_book(), Limits(max_legal_actions=50))
    with pytest.raises(InvalidInputError) as refused:
        api.ListLegalActions(listing(big_hand_state(20), 51))
    assert [(p.field, p.description) for p in refused.value.problems] == [
        ("max_actions", "51 is more than the limit of 50")
    ]


def test_a_listing_is_cut_to_fit_a_message() -> None:
    limits = Limits(max_message_bytes=64 * 1024 + 400)  # room for a few actions only
    answer = OracleApi(default_rule_book(), limits).ListLegalActions(listing(big_hand_state(20)))
    assert answer.truncated and 0 < answer.counts.total == len(answer.actions) < 63
    assert answer.ByteSize() <= limits.max_message_bytes


# --------------------------------------------------------------------------- the pool itself


def test_work_waiting_for_a_thread_is_counted_and_never_runs_once_its_caller_left() -> None:
    pool = WorkerPool(1)
    release = threading.Event()
    ran: list[str] = []

    async def scenario() -> None:
        first = asyncio.ensure_future(pool.run(lambda stop: release.wait(TIMEOUT)))
        second = asyncio.ensure_future(pool.run(lambda stop: ran.append("second")))
        while pool.busy() != 1:
            await asyncio.sleep(0.01)
        assert pool.queued() == 1
        second.cancel()
        with pytest.raises(asyncio.CancelledError):
            await second
        assert pool.queued() == 0
        release.set()
        assert await first is True

    try:
        asyncio.run(scenario())
        assert ran == []
        assert (pool.busy(), pool.queued()) == (0, 0)
    finally:
        pool.close()


def test_a_caller_leaving_cancels_the_running_work() -> None:
    pool = WorkerPool(1)
    seen: list[str] = []

    def work(stop: StopSignal) -> None:
        while True:
            try:
                stop()
            except WorkCancelled:
                seen.append("cancelled")
                raise
            time.sleep(0.01)

    async def scenario() -> None:
        task = asyncio.ensure_future(pool.run(work))
        while pool.busy() != 1:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(scenario())
        wait_until(lambda: pool.busy() == 0, "the work sees its cancellation")
        assert seen == ["cancelled"]
    finally:
        pool.close()


def test_the_inline_rule_set_lint_runs_in_a_worker_thread_not_on_the_event_loop() -> None:
    threads: list[str] = []

    def checker(rules: CompiledRules) -> list[tuple[str, str]]:
        threads.append(threading.current_thread().name)
        return []

    book = RuleBook.from_directory(resources.files("oracle.specs"), checker=checker)
    threads.clear()  # the shipped rule sets were checked while loading, on this thread
    server = ServicerServer(book=book)
    try:
        inline = oracle_pb2.RuleSetRef()
        inline.inline.extends = RULE_SET
        request = oracle_pb2.GetMinimumInitialMeldRequest(rule_set=inline, running_total=0)
        with grpc.insecure_channel(server.address) as channel:
            oracle_pb2_grpc.OracleServiceStub(channel).GetMinimumInitialMeld(request, timeout=TIMEOUT)
    finally:
        server.close()
    assert threads and all(name.startswith("oracle-worker") for name in threads)
