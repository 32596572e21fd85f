"""The benchmark's inputs: positions of the 20 classic shipped records (a fixed-seed sample) or a simulated hand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources

from google.protobuf import json_format

from oracle.api.v1 import oracle_pb2, record_pb2
from oracle.games.deal import deal
from oracle.games.match import after_hand, dealer_of_hand, deck_order, start_standing
from oracle.games.simulate import simulate_game
from oracle.model.actions import Action
from oracle.model.events import HandEnded
from oracle.model.state import GameState
from oracle.rules.referee import Verdict, check_action
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.service.convert_game import action_to_proto, state_to_proto
from oracle.service.convert_record import record_from_proto

RECORDS_PACKAGE = "oracle.conformance.data"
SAMPLE_SEED = 20240613  #: fixed: every run measures the same states


@dataclass(frozen=True)
class Position:
    """One decision of a shipped record: the state before an action and the action taken."""

    rule_set_id: str
    state: GameState
    action: Action
    #: the decision whose legal action led to this state (None: the first of its hand)
    before: Position | None = field(default=None, compare=False, repr=False)


def shipped_records() -> list[record_pb2.GameRecord]:
    """The shipped game records (conformance/records/<rule set>/game-N.json), in a fixed order."""
    root = resources.files(RECORDS_PACKAGE) / "records"
    out = []
    for rule_set in sorted((d for d in root.iterdir() if d.is_dir()), key=lambda d: d.name):
        for name in sorted(f.name for f in rule_set.iterdir() if f.name.endswith(".json")):
            out.append(json_format.Parse((rule_set / name).read_text(encoding="utf-8"), record_pb2.GameRecord()))
    return out


#: The rule sets of the benchmark's corpus: the classic games' records, as the performance issue measured them (the
#: family's other games have rules the direct move generator does not model; their costs are scripts/bench_*.py's)
BENCH_RULE_SETS = ("classic-2p", "classic-4p")


def bench_records() -> list[record_pb2.GameRecord]:
    """The shipped records of the benchmark's rule sets (the 20 classic games), in shipped_records' order."""
    return [record for record in shipped_records() if record.rule_set_id in BENCH_RULE_SETS]


def positions(book: RuleBook, records: list[record_pb2.GameRecord]) -> list[Position]:
    """Every decision of every record (the state each recorded action was taken in)."""
    out = []
    for msg in records:
        record = record_from_proto(msg)
        rules = book.get(record.rule_set_id).rules
        standing = start_standing(rules)
        for h, hand in enumerate(record.hands):
            dealer = dealer_of_hand(rules, record.first_dealer, h)
            state = deal(rules, deck_order(rules, hand.deck), dealer=dealer, running_totals=standing.totals)
            scores: tuple[int, ...] = ()
            before: Position | None = None
            for action in hand.actions:
                before = Position(record.rule_set_id, state, action, before)
                out.append(before)
                verdict = check_action(rules, state, action, validate=False)
                if verdict.next_state is None:
                    raise RuntimeError(f"a shipped record has an illegal action: {action}")
                state = verdict.next_state
                for event in verdict.events:
                    if isinstance(event, HandEnded):
                        scores = tuple(s.total for s in event.scores)
            standing = after_hand(rules, standing, scores)
    return out


def sample(
    found: list[Position], count: int, warmup: int = 0, *, rule_set_id: str | None = None
) -> tuple[list[Position], list[Position]]:
    """`count` positions drawn with a fixed seed, and `warmup` other ones (disjoint) to warm a process up with."""
    pool = [p for p in found if rule_set_id is None or p.rule_set_id == rule_set_id]
    random.Random(SAMPLE_SEED).shuffle(pool)
    return pool[:count], pool[count : count + warmup]


def simulated_hand(rules: CompiledRules, seed: int) -> Iterator[tuple[GameState, Action, Verdict]]:
    """The first hand of the game simulated from `seed` (oracle.games.simulate): each position, the action played
    there and its verdict; an illegal action (a simulator fault) is RuntimeError."""
    game = simulate_game(rules, seed, max_hands=1)
    hand = game.record.hands[0]
    dealer = dealer_of_hand(rules, game.record.first_dealer, 0)
    state: GameState = deal(rules, deck_order(rules, hand.deck), dealer=dealer)
    for action in hand.actions:
        verdict = check_action(rules, state, action, validate=False)
        yield state, action, verdict
        if verdict.next_state is None:
            raise RuntimeError(f"a simulated hand (seed {seed}) has an illegal action: {action}")
        state = verdict.next_state


def request_bytes(position: Position) -> bytes:
    """The CheckActionRequest for a position, serialized."""
    request = oracle_pb2.CheckActionRequest(
        rule_set=oracle_pb2.RuleSetRef(id=position.rule_set_id),
        state=state_to_proto(position.state),
        action=action_to_proto(position.action),
    )
    return request.SerializeToString()


def stream_bytes(msg: record_pb2.GameRecord) -> list[bytes]:
    """The RefereeGame messages that replay a record over one stream (start, then each deal and its actions)."""
    start = oracle_pb2.RefereeStart(rule_set=oracle_pb2.RuleSetRef(id=msg.rule_set_id), first_dealer=msg.first_dealer)
    out = [oracle_pb2.RefereeGameRequest(start=start).SerializeToString()]
    for hand in msg.hands:
        dealt = oracle_pb2.RefereeDeal()
        if hand.WhichOneof("deck") == "deck_order":
            dealt.deck_order.CopyFrom(hand.deck_order)
        else:
            dealt.seed = hand.seed
        out.append(oracle_pb2.RefereeGameRequest(deal=dealt).SerializeToString())
        out.extend(oracle_pb2.RefereeGameRequest(action=a).SerializeToString() for a in hand.actions)
    return out
