"""Prints the in-process cost of CheckAction request bytes -> response bytes on Cutthroat positions (thread CPU).

Positions come from simulated cutthroat-3p games (fixed seeds): those whose sides have formed (side_of_seat set),
the takes that form them, and those before. Each request is timed once (oracle.bench.measure.time_each: warm-up,
garbage collector off, the clock's own cost removed); the median and p10/p90 in µs are printed per group, for the
whole call and for reading the request's state alone. Run it against another tree (PYTHONPATH=that tree) to
compare two versions. Never asserts a time.

    .venv/bin/python scripts/bench_cutthroat_bytes.py [--games 12] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics

from oracle.api.v1 import oracle_pb2
from oracle.bench.measure import time_each
from oracle.bench.rows import quantile
from oracle.bench.states import simulated_hand
from oracle.model.events import SidesFormed
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_to_proto

RULE_SET = "cutthroat-3p"


def requests(games: int) -> dict[str, list[bytes]]:
    """CheckActionRequest bytes of the first hand of `games` simulated games, by group."""
    rules = default_rule_book().get(RULE_SET).rules
    groups: dict[str, list[bytes]] = {"formed": [], "forming take": [], "before forming": []}
    for seed in range(1, games + 1):
        for state, action, verdict in simulated_hand(rules, seed):
            forming = any(isinstance(event, SidesFormed) for event in verdict.events)
            group = "formed" if state.side_of_seat else "forming take" if forming else "before forming"
            request = oracle_pb2.CheckActionRequest(
                rule_set=oracle_pb2.RuleSetRef(id=RULE_SET), state=state_to_proto(state), action=action_to_proto(action)
            )
            groups[group].append(request.SerializeToString())
    return groups


def _spread(times: list[float]) -> str:
    p10, p90 = quantile(times, 0.1), quantile(times, 0.9)  # as the bench table's rows (oracle.bench.rows)
    return f"median {statistics.median(times):7.1f} µs  p10 {p10:7.1f}  p90 {p90:7.1f}  (n={len(times)})"


def _full(book: RuleBook, wires: list[bytes]) -> list[float]:
    """µs of request bytes -> response bytes per request (a fresh OracleApi: each position read from its bytes)."""
    api, parse = OracleApi(book), oracle_pb2.CheckActionRequest.FromString
    times, _ = time_each(wires, lambda w: w, lambda w: api.CheckAction(parse(w)).SerializeToString(), wires)
    return times


def _read(book: RuleBook, wires: list[bytes]) -> list[float]:
    """µs of reading each request's state (OracleApi.state: decoded, sizes counted), none read before."""
    api, rules = OracleApi(book), book.get(RULE_SET).rules
    times, _ = time_each(wires, oracle_pb2.CheckActionRequest.FromString, lambda r: api.state(r.state, rules))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="simulated games (one hand each)")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the requests (best median shown)")
    args = parser.parse_args()
    book = default_rule_book()
    for group, wires in requests(args.games).items():
        if not wires:
            continue
        full = [_full(book, wires) for _ in range(args.repeat)]
        read = [_read(book, wires) for _ in range(args.repeat)]
        print(f"{group:15} bytes -> bytes  {_spread(min(full, key=statistics.median))}")
        print(f"{group:15} state read      {_spread(min(read, key=statistics.median))}")


if __name__ == "__main__":
    main()
