"""One client process of the long fuzz: makes requests from its own seed, sends them, counts the answers, keeps the
slowest, and minimises and saves every request whose answer is a finding."""

from __future__ import annotations

import heapq
import itertools
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import grpc
from google.protobuf import text_format
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import DecodeError, Message

from oracle.api.v1 import oracle_pb2
from oracle.bench.fuzz_calls import Answer, call_stream, call_unary
from oracle.bench.fuzz_minimise import Budget, minimise_bytes, minimise_list, minimise_message, signature
from oracle.bench.fuzz_mutate import Mutator, mutate_bytes
from oracle.bench.fuzz_seeds import RPCS, STREAM_RPC, Corpus, build_corpus, request_class
from oracle.ruleset.loader import default_rule_book

MODES = (("structure", 0.75), ("bytes", 0.90), ("generated", 1.0))  #: each request's kind, by cumulative share
SAVED_PER_KIND = 3  #: findings of one RPC and kind minimised and saved per worker (the rest are counted)
MINIMISE_CALLS = 400  #: calls one minimisation may make
MINIMISE_SECONDS = 120.0  #: and seconds it may take


@dataclass(frozen=True)
class Job:
    """What one worker does: where, how many requests, from which seed, within which limits."""

    worker: int
    address: str
    requests: int
    seed: int
    deadline: float  #: seconds each call may take
    seconds: float  #: the worker stops after this long, done or not
    save_dir: str | None
    records: int = 20  #: shipped records in the seed corpus
    slowest: int = 10


@dataclass
class Case:
    """One fuzzed request: its RPC, how it was made, its messages (None when made from bytes) and its bytes."""

    rpc: str
    mode: str
    payloads: list[bytes]
    messages: list[Message] | None


@dataclass(frozen=True)
class Kept:
    """A request kept for the report (a slow one, or a finding after minimisation), with how it was answered."""

    rpc: str
    code: str
    seconds: float
    mode: str
    worker: int
    index: int
    size: int  #: bytes sent (all messages of a stream)
    faults: tuple[str, ...] = ()
    original_size: int = 0  #: before minimisation
    saved: str = ""  #: the file it was saved to


@dataclass
class WorkerReport:
    """What one worker saw."""

    worker: int
    requests: int = 0
    stream_messages: int = 0
    seconds: float = 0.0
    codes: Counter[tuple[str, str]] = field(default_factory=Counter)  #: (rpc, code) -> answers
    modes: Counter[str] = field(default_factory=Counter)
    slowest: list[tuple[Kept, list[str]]] = field(default_factory=list)  #: with the messages as hex
    findings: list[Kept] = field(default_factory=list)
    finding_counts: Counter[tuple[str, str]] = field(default_factory=Counter)  #: (rpc, kind) -> requests
    stopped: str = ""  #: why the worker stopped early ("" when it sent all its requests)


def make_case(rpc: str, rnd: random.Random, corpus: Corpus, mutator: Mutator) -> Case:
    """A fuzzed request of `rpc`: a mutated valid one, a valid one with bytes mutated, or a generated one."""
    roll = rnd.random()
    mode = next(name for name, share in MODES if roll < share)
    if rpc == STREAM_RPC:
        seed = rnd.choice(corpus.streams)
        if mode == "structure":
            messages: list[Message] = list(mutator.mutate_stream(seed, rnd))
        elif mode == "generated":
            descriptor = cast(Descriptor, oracle_pb2.RefereeGameRequest.DESCRIPTOR)
            messages = [mutator.generate(descriptor, rnd) for _ in range(rnd.randint(1, 5))]
        else:
            payloads = [m.SerializeToString() for m in seed]
            for _ in range(rnd.choice((1, 1, 2, 3))):
                at = rnd.randrange(len(payloads))
                payloads[at] = mutate_bytes(payloads[at], rnd)
            return Case(rpc, mode, payloads, None)
        return Case(rpc, mode, [m.SerializeToString() for m in messages], messages)
    if mode == "generated":
        message = mutator.generate(cast(Descriptor, request_class(rpc).DESCRIPTOR), rnd)
    else:
        message = mutator.mutate(rnd.choice(corpus.unary[rpc]), rnd)
    if mode == "bytes":
        return Case(rpc, mode, [mutate_bytes(message.SerializeToString(), rnd)], None)
    return Case(rpc, mode, [message.SerializeToString()], [message])


def send(channel: grpc.Channel, case: Case, deadline: float) -> Answer:
    """Send a case and judge the answer."""
    if case.rpc == STREAM_RPC:
        return call_stream(channel, case.payloads, deadline)
    return call_unary(channel, case.rpc, case.payloads[0], deadline)


def minimise(channel: grpc.Channel, case: Case, kind: str, deadline: float) -> Case:
    """The smallest variant of a failing case found that still fails the same way."""
    budget = Budget(MINIMISE_CALLS, MINIMISE_SECONDS)

    def fails(candidate: Case) -> bool:
        return signature(send(channel, candidate, deadline).faults) == kind

    def of_messages(messages: list[Message]) -> Case:
        return Case(case.rpc, case.mode, [m.SerializeToString() for m in messages], messages)

    if case.messages is None:
        payloads = case.payloads
        if case.rpc == STREAM_RPC:
            payloads = minimise_list(payloads, lambda p: fails(Case(case.rpc, case.mode, p, None)), budget)
        else:
            payloads = [minimise_bytes(payloads[0], lambda b: fails(Case(case.rpc, case.mode, [b], None)), budget)]
        return Case(case.rpc, case.mode, payloads, None)
    messages = case.messages
    if case.rpc == STREAM_RPC:
        messages = minimise_list(messages, lambda m: fails(of_messages(m)), budget)
    for i in range(len(messages)):

        def fails_at(message: Message, i: int = i) -> bool:
            return fails(of_messages([*messages[:i], message, *messages[i + 1 :]]))

        messages[i] = minimise_message(messages[i], fails_at, budget)
    return of_messages(messages)


def as_text(rpc: str, payload: bytes) -> str | None:
    """A request's text format, or None when its bytes do not decode."""
    kind = oracle_pb2.RefereeGameRequest if rpc == STREAM_RPC else request_class(rpc)
    try:
        return text_format.MessageToString(kind.FromString(payload))
    except DecodeError:
        return None


def save(directory: Path, name: str, kept: Kept, payloads: list[bytes]) -> str:
    """Write a kept request as JSON (its answer, and its messages as hex and as text); the file's path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    record: dict[str, Any] = {
        "rpc": kept.rpc,
        "code": kept.code,
        "faults": list(kept.faults),
        "mode": kept.mode,
        "worker": kept.worker,
        "index": kept.index,
        "seconds": round(kept.seconds, 4),
        "messages_hex": [p.hex() for p in payloads],
        "messages_text": [as_text(kept.rpc, p) for p in payloads],
    }
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return str(path)


def _reachable(channel: grpc.Channel, wait: float = 5.0) -> bool:
    try:
        grpc.channel_ready_future(channel).result(timeout=wait)
    except grpc.FutureTimeoutError:
        return False
    answer = call_unary(channel, "ListRuleSets", b"", wait)
    return answer.code == grpc.StatusCode.OK


def run(job: Job, progress: Any = None) -> WorkerReport:
    """Send the job's requests (or fewer, if its time runs out or the server goes away); `progress[job.worker]`
    (a shared array, if given) counts them as they go."""
    started = time.monotonic()
    corpus = build_corpus(default_rule_book(), records=job.records)
    mutator = Mutator(corpus.donors(), corpus.words)
    rnd = random.Random(f"{job.seed}-{job.worker}")
    report = WorkerReport(job.worker)
    slow: list[tuple[float, int, Kept, list[str]]] = []
    tie = itertools.count()
    save_dir = Path(job.save_dir) if job.save_dir else None
    with grpc.insecure_channel(job.address) as channel:
        for index in range(job.requests):
            if time.monotonic() - started > job.seconds:
                report.stopped = f"time limit ({job.seconds:g} s) reached"
                break
            case = make_case(rnd.choice(RPCS), rnd, corpus, mutator)
            answer = send(channel, case, job.deadline)
            report.requests += 1
            report.stream_messages += len(case.payloads) if case.rpc == STREAM_RPC else 0
            report.codes[case.rpc, answer.code.name] += 1
            report.modes[case.mode] += 1
            if progress is not None:
                progress[job.worker] = report.requests
            size = sum(len(p) for p in case.payloads)
            kept = Kept(case.rpc, answer.code.name, answer.seconds, case.mode, job.worker, index, size, answer.faults)
            entry = (answer.seconds, next(tie), kept, [p.hex() for p in case.payloads])
            if len(slow) < job.slowest:
                heapq.heappush(slow, entry)
            elif answer.seconds > slow[0][0]:
                heapq.heapreplace(slow, entry)
            if answer.code == grpc.StatusCode.UNAVAILABLE and not _reachable(channel):
                report.stopped = f"the server stopped answering after request {index} ({case.rpc})"
                _finding(report, channel, case, kept, job, save_dir, minimised=False)
                break
            if answer.faults:
                _finding(report, channel, case, kept, job, save_dir, minimised=True)
    report.slowest = [(k, payloads) for _, _, k, payloads in sorted(slow, key=lambda e: (-e[0], e[1]))]
    report.seconds = time.monotonic() - started
    return report


def _finding(
    report: WorkerReport,
    channel: grpc.Channel,
    case: Case,
    kept: Kept,
    job: Job,
    save_dir: Path | None,
    *,
    minimised: bool,
) -> None:
    kind = signature(kept.faults) if kept.faults else f"code {kept.code}"
    report.finding_counts[case.rpc, kind] += 1
    if report.finding_counts[case.rpc, kind] > SAVED_PER_KIND:
        return
    small = minimise(channel, case, kind, job.deadline) if minimised else case
    found = replace(kept, size=sum(len(p) for p in small.payloads), original_size=kept.size)
    if save_dir is not None:
        slug = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
        name = f"{case.rpc}-{slug}-w{job.worker}-{kept.index}"
        found = replace(found, saved=save(save_dir / "findings", name, found, small.payloads))
    report.findings.append(found)


__all__ = ["Case", "Job", "Kept", "WorkerReport", "as_text", "make_case", "run", "save", "send"]
