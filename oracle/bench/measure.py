"""The in-process measurements, each run in a fresh process (`python -m oracle.bench.measure`, a pickled job on
stdin, pickled samples on stdout): thread CPU time per state, every state timed once on objects never seen before,
so no cache of an earlier row or repeat can serve it."""

from __future__ import annotations

import gc
import os
import pickle
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from oracle.api.v1 import game_pb2, oracle_pb2
from oracle.model.state import GameState
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook, default_rule_book

T = TypeVar("T")
R = TypeVar("R")
PATCHED = "legal_actions"  #: what oracle.games.simulate calls to list the legal moves (timed in simulation)
Samples = dict[str, list[float]]


@dataclass(frozen=True)
class Job:
    """What one measuring process does: `kind` over `requests` (CheckActionRequest bytes) after `warmup` ones."""

    kind: str
    requests: list[bytes] = field(default_factory=list)
    warmup: list[bytes] = field(default_factory=list)
    #: "made" rows: for each request, the one of the decision before it, whose legal action led to its state
    before: list[bytes] = field(default_factory=list)
    games: int = 0  #: simulation: games per rule set
    rule_set_id: str = ""  #: simulation: which rule set


def _clock_overhead_ns() -> int:
    """What one empty timing costs (subtracted from every sample)."""
    now = time.thread_time_ns
    gaps = []
    for _ in range(2001):
        start = now()
        gaps.append(now() - start)
    return int(statistics.median(gaps))


def time_each(
    raw: Sequence[R], prepare: Callable[[R], T], work: Callable[[T], object], warmup: Sequence[R] = ()
) -> tuple[list[float], list[Any]]:
    """Thread CPU µs of `work(prepare(item))` for each item (prepared just before, untimed, as a server would
    have just parsed it), each timed once, the clock's own cost removed; and what each work returned.

    The warm-up items are worked first, untimed. The cyclic garbage collector is off while timing (as in
    timeit): a collection would charge one state for garbage made by all of them.
    """
    for item in warmup:
        work(prepare(item))
    overhead = _clock_overhead_ns()
    now = time.thread_time_ns
    times, results = [], []
    gc.collect()
    gc.disable()
    try:
        for item in raw:
            prepared = prepare(item)
            start = now()
            result = work(prepared)
            times.append(max(0, now() - start - overhead) / 1000)
            results.append(result)
    finally:
        gc.enable()
    return times, results


def _decoded(book: RuleBook, wire: bytes) -> tuple[CompiledRules, GameState, Any]:
    from oracle.service.convert_game import action_from_proto, state_from_proto

    request = oracle_pb2.CheckActionRequest.FromString(wire)
    return book.get(request.rule_set.id).rules, state_from_proto(request.state), action_from_proto(request.action)


def _made(book: RuleBook, pair: tuple[bytes, bytes]) -> tuple[CompiledRules, GameState, Any]:
    """A request's rule set, state and action, its state made by the oracle just now: check_action (state
    validated) of the decision before it (`pair`: the request, then that decision's), whose next state equals the
    request's state (RuntimeError if not)."""
    from oracle.rules.referee import check_action

    rules, state, action = _decoded(book, pair[0])
    verdict = check_action(*_decoded(book, pair[1]))
    if verdict.next_state != state:
        raise RuntimeError("a decision's state is not the next state of the decision before it")
    return rules, verdict.next_state, action


def read_cards(request: oracle_pb2.CheckActionRequest) -> int:
    """Read every card of a CheckActionRequest into Python ints (what any conversion must at least do)."""
    state = request.state
    count = len(list(state.stock)) + len(list(state.discard_pile))
    for seat in state.seats:
        count += len(list(seat.hand))
    for side in state.sides:
        count += len(list(side.red_threes))
        for meld in side.melds:
            count += len(list(meld.cards))
    kind = request.action.WhichOneof("kind")
    if kind is not None:
        for described, value in getattr(request.action, kind).ListFields():
            if described.is_repeated and described.message_type is not None:
                for group in value:
                    count += len(list(group.cards))
            elif described.is_repeated:
                count += len(list(value))
            else:
                count += 1
    return count


def _check_rows(job: Job, book: RuleBook) -> Samples:
    from oracle.rules.referee import check_action
    from oracle.rules.state_check import validate_state

    works: dict[str, Callable[[tuple[CompiledRules, GameState, Any]], object]] = {
        "check.validated": lambda x: check_action(x[0], x[1], x[2]),
        "check.validation": lambda x: validate_state(x[0], x[1]),
        "check.bare": lambda x: check_action(x[0], x[1], x[2], validate=False),
    }
    if job.kind == "check.repeat":  # the state was judged before: the request's state is equal, not identical

        def seen_before(wire: bytes) -> tuple[CompiledRules, GameState, Any]:
            first = _decoded(book, wire)
            check_action(first[0], first[1], first[2])
            return _decoded(book, wire)

        times, _ = time_each(job.requests, seen_before, works["check.validated"], job.warmup)
        return {"us": times}
    if job.kind == "check.made":  # the state came out of the oracle's own transition: vouched for by identity
        pairs = list(zip(job.requests, job.before, strict=True))
        times, _ = time_each(pairs, lambda pair: _made(book, pair), works["check.validated"])
        return {"us": times}
    times, _ = time_each(job.requests, lambda w: _decoded(book, w), works[job.kind], job.warmup)
    return {"us": times}


def _bytes_rows(job: Job, book: RuleBook) -> Samples:
    from oracle.service.api import OracleApi

    api = OracleApi(book)
    parse = oracle_pb2.CheckActionRequest.FromString

    def answer(wire: bytes) -> bytes:  # the servicer's work: request bytes to response bytes
        return api.CheckAction(parse(wire)).SerializeToString()

    def verdict_only(wire: bytes) -> bytes:  # the same request asking for the verdict alone
        request = parse(wire)
        request.verdict_only = True
        return request.SerializeToString()

    def asked_before(wire: bytes) -> bytes:  # the position asked about just before (the bytes again, parsed anew)
        api.CheckAction(parse(wire))
        return wire

    #: what each row does to a request before timing it (set apart from the timed answer)
    prepare: dict[str, Callable[[bytes], bytes]] = {
        "bytes.full": lambda w: w,
        "bytes.verdict": verdict_only,
        "bytes.repeat": asked_before,
    }
    if job.kind in prepare:
        times, _ = time_each(job.requests, prepare[job.kind], answer, job.warmup)
        return {"us": times}

    def floor(item: tuple[bytes, oracle_pb2.CheckActionResponse]) -> bytes:
        read_cards(parse(item[0]))
        return item[1].SerializeToString()

    answered = [(w, api.CheckAction(parse(w))) for w in [*job.warmup, *job.requests]]
    warm, measured = answered[: len(job.warmup)], answered[len(job.warmup) :]
    times, _ = time_each(measured, lambda x: x, floor, warm)
    return {"us": times}


def _legal_rows(job: Job, book: RuleBook) -> Samples:
    from oracle.games.movegen import legal_actions, legal_actions_by_referee

    works: dict[str, Callable[[tuple[CompiledRules, GameState, Any]], list[Any]]] = {
        "legal.moves": lambda x: legal_actions(x[0], x[1]),  # the direct generator, the state validated
        "legal.bare": lambda x: legal_actions(x[0], x[1], validate=False),  # the direct generator alone
        "legal.referee": lambda x: legal_actions_by_referee(x[0], x[1]),  # every candidate judged by the referee
    }
    if job.kind == "legal.made":  # the state came out of the oracle's own transition: vouched for by identity
        pairs = list(zip(job.requests, job.before, strict=True))
        times, found = time_each(pairs, lambda pair: _made(book, pair), works["legal.moves"])
    else:
        times, found = time_each(job.requests, lambda w: _decoded(book, w), works[job.kind], job.warmup)
    out: Samples = {"all": times, "draw": [], "play": [], "per_action": []}
    for wire, us, actions in zip(job.requests, times, found, strict=True):
        out["per_action"].append(us / max(1, len(actions)))
        phase = oracle_pb2.CheckActionRequest.FromString(wire).state.phase
        if phase == game_pb2.PHASE_DRAW:
            out["draw"].append(us)
        elif phase == game_pb2.PHASE_PLAY:
            out["play"].append(us)
    return out


def _candidate_rows(job: Job, book: RuleBook) -> Samples:
    from oracle.rules.candidates import candidates
    from oracle.rules.referee import check_action

    def judged(wire: bytes) -> tuple[CompiledRules, GameState, list[Any]]:
        rules, state, _ = _decoded(book, wire)
        return rules, state, candidates(rules, state)

    def judge_all(item: tuple[CompiledRules, GameState, list[Any]]) -> int:
        rules, state, found = item
        for action in found:
            check_action(rules, state, action, validate=False)
        return len(found)

    times, counts = time_each(job.requests, judged, judge_all, job.warmup)
    return {"us": [us / n for us, n in zip(times, counts, strict=True) if n]}


def _replay_rows(job: Job, book: RuleBook) -> Samples:
    from oracle.bench.states import bench_records
    from oracle.games.replay import replay
    from oracle.games.simulate import simulate_game
    from oracle.service.convert_record import record_from_proto

    records = [record_from_proto(m) for m in bench_records()]
    simulate_game(book.get(records[0].rule_set_id).rules, 999_999, max_hands=1)  # warm-up on other states
    times, _ = time_each(
        records, lambda r: (book.get(r.rule_set_id).rules, r), lambda x: replay(x[0], x[1], keep_actions=False)
    )
    actions = [float(sum(len(h.actions) for h in r.hands)) for r in records]
    return {"us": times, "actions": actions}


def _simulate_rows(job: Job, book: RuleBook) -> Samples:
    """Simulation timed as it runs (hands/s, the clock read once per hand), then the same games again with the
    legal-move calls timed (their share of that second run: timing each call costs two clock reads, which the
    first run does not pay)."""
    from oracle.games import simulate

    rules = book.get(job.rule_set_id).rules
    now = time.thread_time_ns
    in_legal = [0]
    legal_actions = getattr(simulate, PATCHED)

    def timed_legal(rules: CompiledRules, state: GameState, **options: Any) -> Any:
        start = now()
        try:
            return legal_actions(rules, state, **options)  # e.g. validate=False, as simulate asks
        finally:
            in_legal[0] += now() - start

    simulate.simulate_game(rules, 999_999, max_hands=1)  # warm-up
    hand_us: list[float] = []
    marks = [0]

    def on_hand() -> None:
        stamp = now()
        hand_us.append((stamp - marks[0]) / 1000)
        marks[0] = stamp

    gc.collect()
    gc.freeze()
    start = now()
    for seed in range(job.games):
        marks[0] = now()
        simulate.simulate_game(rules, 1_000 + seed, on_hand=on_hand)
    total = now() - start
    setattr(simulate, PATCHED, timed_legal)  # this process only
    try:
        start = now()
        for seed in range(job.games):
            simulate.simulate_game(rules, 1_000 + seed)
        timed_total = now() - start
    finally:
        setattr(simulate, PATCHED, legal_actions)
    if not in_legal[0]:  # the patch was not called: a compiled simulate calls the generator directly (oracle.build)
        return {"hand_us": hand_us, "total_us": [total / 1000], "legal_us": []}
    share = in_legal[0] / timed_total if timed_total else 0.0
    return {"hand_us": hand_us, "total_us": [total / 1000], "legal_us": [share * total / 1000]}


def reference_work(seed: int) -> int:
    """A fixed pure-Python workload (tuples, a dict, a sort) that no change to the oracle affects."""
    counts: dict[int, int] = {}
    for i in range(400):
        key = (i * 7919 + seed) % 1009
        counts[key] = counts.get(key, 0) + i
    return sum(sorted(counts.values())[:50])


def _reference_rows(job: Job, book: RuleBook) -> Samples:
    times, _ = time_each(range(len(job.requests)), lambda seed: seed, reference_work, range(20))
    return {"us": times}


def run(job: Job) -> Samples:
    """Measure one job in this process."""
    book = default_rule_book()
    family = job.kind.split(".")[0]
    runner = {
        "reference": _reference_rows,
        "check": _check_rows,
        "bytes": _bytes_rows,
        "legal": _legal_rows,
        "candidate": _candidate_rows,
        "replay": _replay_rows,
        "simulate": _simulate_rows,
    }[family]
    return runner(job, book)


def main() -> None:
    """Read a pickled Job on stdin, write pickled ("ok", samples) or ("error", text) on stdout."""
    job = pickle.loads(sys.stdin.buffer.read())
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr  # whatever the measured code prints must not corrupt the answer
    try:
        result: tuple[str, object] = ("ok", run(job))
    except Exception as exc:
        result = ("error", f"{type(exc).__name__}: {exc}")
    out.write(pickle.dumps(result))
    out.flush()


if __name__ == "__main__":
    main()
