"""Where a CheckAction's time goes in the servicer's work (OracleApi.CheckAction), step by step, in process.

    .venv/bin/python scripts/profile_check.py [--states N]

Each of N states sampled from the 20 classic shipped records (the bench's corpus and seed) is taken once through
the handler's steps, in its order, on objects never seen before, each step timed in thread CPU time: parse the
request bytes, look up the rule set, read the state (size checks, wire reading, building the GameState), read the
action, validate the state (the memo's miss: validation, hashing, remembering), judge and apply the action, build
the answer, serialize it. The same requests are then timed whole (OracleApi.CheckAction and serialization) in the
same process. Prints medians and means in µs; asserts nothing.
`canasta-oracle bench` gives the rows of the README's table; this gives the breakdown behind one of them.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from oracle.api.v1 import oracle_pb2
from oracle.bench.states import bench_records, positions, request_bytes, sample
from oracle.build import core_build
from oracle.games.notation import notation
from oracle.rules.referee import check_action
from oracle.rules.state_memo import MEMO
from oracle.ruleset.loader import default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import verdict_to_proto
from oracle.service.wire import Pieces

STEPS = (
    "parse the request",
    "look up the rule set",
    "read the state",
    "read the action",
    "validate the state",
    "judge and apply the action",
    "build the answer",
    "serialize the answer",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1000, help="states timed (each once); default 1000")
    states = parser.parse_args().states
    book = default_rule_book()
    measured, warm = sample(positions(book, bench_records()), states, 20)
    wires = [request_bytes(p) for p in measured]
    api = OracleApi(book)
    for p in warm:
        api.CheckAction(oracle_pb2.CheckActionRequest.FromString(request_bytes(p))).SerializeToString()
    now = time.thread_time_ns
    times: dict[str, list[float]] = {step: [] for step in STEPS}
    limit = api.limits.max_violations
    gc.collect()
    gc.disable()
    for wire in wires:
        ticks = [now()]  # a clock reading after each step (the reading itself is charged to the step before)
        request = oracle_pb2.CheckActionRequest.FromString(wire)
        ticks.append(now())
        rules = api.rule_set(request.rule_set).rules
        ticks.append(now())
        pieces: Pieces = {}
        state = api.state(request.state, rules, pieces=pieces)
        ticks.append(now())
        action = api.requested_action(request.action, request.HasField("action"), request.action_text, rules)
        ticks.append(now())
        MEMO.problems(rules, state)
        ticks.append(now())
        verdict = check_action(rules, state, action, validate=False)  # validated just before, as check_action does
        ticks.append(now())
        answer = verdict_to_proto(verdict, limit, notation(action), pieces)
        ticks.append(now())
        answer.SerializeToString()
        ticks.append(now())
        for step, before, after in zip(STEPS, ticks[:-1], ticks[1:], strict=True):
            times[step].append((after - before) / 1000)
    MEMO.clear()
    whole = []
    for wire in wires:
        start = now()
        api.CheckAction(oracle_pb2.CheckActionRequest.FromString(wire)).SerializeToString()
        whole.append((now() - start) / 1000)
    gc.enable()
    print(f"CheckAction, step by step, over {len(wires)} record states (core: {core_build()}); thread CPU µs")
    print(f"{'step':30} {'median':>8} {'mean':>8}")
    for step in STEPS:
        print(f"{step:30} {statistics.median(times[step]):8.1f} {statistics.fmean(times[step]):8.1f}")
    total = sum(statistics.fmean(times[step]) for step in STEPS)
    print(f"{'the steps added (means)':30} {'':8} {total:8.1f}")
    print(f"{'the handler whole, then':30} {statistics.median(whole):8.1f} {statistics.fmean(whole):8.1f}")


if __name__ == "__main__":
    main()
