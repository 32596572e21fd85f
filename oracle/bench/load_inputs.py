"""The load test's requests: the heaviest ReplayGame and ListLegalActions the limits allow, cheap CheckAction
probes, and a mixed workload for the soak (every RPC, inline rule sets that churn the cache, error paths)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from grpc_health.v1 import health_pb2

from oracle.api.v1 import oracle_pb2, ruleset_pb2
from oracle.bench.fuzz_mutate import Mutator
from oracle.bench.fuzz_seeds import STREAM_RPC, build_corpus
from oracle.bench.states import positions, request_bytes, sample, shipped_records, stream_bytes
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.games.simulate import simulate_game
from oracle.model.cards import is_red_three
from oracle.model.state import Phase, TurnStart
from oracle.ruleset.loader import RuleBook
from oracle.service.convert_game import state_to_proto
from oracle.service.convert_record import record_to_proto
from oracle.service.limits import DEFAULT_LIMITS, Limits

SERVICE = "/oracle.api.v1.OracleService/"
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
HEALTH_REQUEST = health_pb2.HealthCheckRequest().SerializeToString()
LONG_GAME_SEED = 5  #: the simulated game behind the heaviest replay
BIG_HAND = 70  #: cards in the hand of the heaviest ListLegalActions (a 108-card deck, three other hands of 11)


@dataclass(frozen=True)
class Call:
    """One unary call as bytes: its method path and request."""

    method: str
    payload: bytes
    name: str  #: the RPC, for reports


def unary(rpc: str, request: bytes) -> Call:
    """A call of an OracleService RPC."""
    return Call(SERVICE + rpc, request, rpc)


def health_call() -> Call:
    """The standard health check of the whole server."""
    return Call(HEALTH_CHECK, HEALTH_REQUEST, "Health.Check")


def long_game_rule_set(base: str = "classic-2p") -> ruleset_pb2.RuleSet:
    """`base` with a target score no game reaches: a simulated game goes on until the record limits stop it."""
    spec = ruleset_pb2.RuleSet(id="long-game", extends=base, title="A game that does not end")
    spec.game.target_score = 2_000_000_000
    cite = ruleset_pb2.Citation(source="2P-RULES", section="Scoring a hand")
    spec.rules.add(field="game.target_score", text="A target no game reaches, for a replay at the limits.", cite=[cite])
    return spec


def heaviest_replay(book: RuleBook, limits: Limits = DEFAULT_LIMITS) -> Call:
    """A legal record as long as the limits allow (hands and actions), replayed with every action's verdict."""
    spec = long_game_rule_set()
    rules = book.resolve_inline(spec, "rule_set.inline").rules
    game = simulate_game(rules, LONG_GAME_SEED, max_hands=limits.max_record_hands)
    hands, total = [], 0
    for hand in game.record.hands:
        if total + len(hand.actions) > limits.max_record_actions or len(hand.actions) > limits.max_hand_actions:
            break
        hands.append(hand)
        total += len(hand.actions)
    record = record_to_proto(replace(game.record, hands=tuple(hands), claimed_winner=None))
    request = oracle_pb2.ReplayGameRequest(record=record, rule_set=oracle_pb2.RuleSetRef(inline=spec))
    return unary("ReplayGame", request.SerializeToString())


def heaviest_legal_actions(book: RuleBook, limits: Limits = DEFAULT_LIMITS, hand: int = BIG_HAND) -> Call:
    """A consistent classic-4p state whose player to move holds `hand` cards after drawing, asking for the most
    actions the server allows (max_actions at its ceiling): the list grows exponentially with the hand."""
    rules = book.get("classic-4p").rules
    state = deal(rules, deck_order(rules, DeckSource(seed=3)), dealer=3)
    seat = state.seats[state.seat_to_move]
    cards, stock, red_threes = list(seat.hand), list(state.stock), list[int]()
    while len(cards) < hand and stock:
        card = stock.pop()
        (red_threes if is_red_three(card) else cards).append(card)
    seats = list(state.seats)
    seats[state.seat_to_move] = replace(seat, hand=tuple(cards))
    big = replace(
        state,
        seats=tuple(seats),
        stock=tuple(red_threes + stock),
        phase=Phase.PLAY,
        turn=replace(state.turn, start=TurnStart.DREW),
    )
    request = oracle_pb2.ListLegalActionsRequest(
        rule_set=oracle_pb2.RuleSetRef(id="classic-4p"), state=state_to_proto(big), max_actions=limits.max_legal_actions
    )
    return unary("ListLegalActions", request.SerializeToString())


def check_action_calls(book: RuleBook, count: int = 200) -> list[Call]:
    """CheckAction calls on positions of the shipped records (a fixed sample)."""
    chosen, _ = sample(positions(book, shipped_records()), count)
    return [unary("CheckAction", request_bytes(p)) for p in chosen]


def _inline_variants(count: int) -> list[Call]:
    """GetRuleSet calls of `count` distinct inline rule sets (more than any cache holds)."""
    calls = []
    for n in range(count):
        spec = ruleset_pb2.RuleSet(id=f"soak-{n}", extends="classic-4p", title=f"Soak variant {n}")
        ref = oracle_pb2.RuleSetRef(inline=spec)
        calls.append(unary("GetRuleSet", oracle_pb2.GetRuleSetRequest(rule_set=ref).SerializeToString()))
    return calls


def soak_mix(book: RuleBook, seed: int = 1) -> tuple[list[Call], list[list[bytes]]]:
    """The soak's workload: unary calls of every RPC (valid ones, 1,000 distinct inline rule sets, mutated ones that
    take the error paths) in a shuffled order, and RefereeGame streams of the shipped records."""
    rnd = random.Random(seed)
    corpus = build_corpus(book, records=4, every=10)
    mutator = Mutator(corpus.donors(), corpus.words)
    calls = [unary(rpc, m.SerializeToString()) for rpc, requests in corpus.unary.items() for m in requests]
    for _ in range(1000):
        rpc = rnd.choice(sorted(corpus.unary))
        calls.append(unary(rpc, mutator.mutate(rnd.choice(corpus.unary[rpc]), rnd).SerializeToString()))
    calls += _inline_variants(1000)
    for record in shipped_records()[:4]:
        summary = oracle_pb2.ReplayGameRequest(record=record, summary_only=True)
        calls.append(unary("ReplayGame", summary.SerializeToString()))
    rnd.shuffle(calls)
    streams = [stream_bytes(r) for r in shipped_records()[::5]]
    return calls, streams


def stream_method() -> str:
    """The RefereeGame method path."""
    return SERVICE + STREAM_RPC


__all__ = [
    "HEALTH_CHECK",
    "Call",
    "check_action_calls",
    "health_call",
    "heaviest_legal_actions",
    "heaviest_replay",
    "long_game_rule_set",
    "soak_mix",
    "stream_method",
    "unary",
]
