"""Prints the in-process cost of CheckAction and ListLegalActions (request bytes -> response bytes, thread CPU) on
american-4p positions (or those of the rule sets named with --rules: samba-4p, hand-and-foot-4p, ...) beside
classic-4p ones.

american-4p's legal moves are the canonical candidate space judged by the referee (rules.direct_movegen is false),
classic-4p's come from the direct move generator; this shows what that costs. Positions are every decision of the
first hand of simulated games (fixed seeds), grouped by phase, and dealt hands grown to 20, 30 and 40 cards
from the stock (the player to move having drawn). Each request is timed once on a fresh OracleApi
(oracle.bench.measure.time_each: warm-up, garbage collector off, the clock's own cost removed); the median and
p10/p90 in µs are printed, and the median number of legal actions listed. Never asserts a time.

    .venv/bin/python scripts/bench_american.py [--games 6] [--repeat 3] [--rules samba-4p,hand-and-foot-4p]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from dataclasses import replace

from google.protobuf.message import Message

from oracle.api.v1 import oracle_pb2
from oracle.bench.measure import time_each
from oracle.bench.rows import quantile
from oracle.bench.states import simulated_hand
from oracle.games.deal import deal
from oracle.games.match import DeckSource, deck_order
from oracle.model.cards import RANK_THREE, rank_of
from oracle.model.state import Phase, SeatState, TurnStart, TurnState
from oracle.ruleset.loader import RuleBook, default_rule_book
from oracle.service.api import OracleApi
from oracle.service.convert_game import action_to_proto, state_to_proto

RULE_SETS = ("american-4p", "classic-4p")
Wires = dict[str, list[bytes]]


def requests(rule_set_id: str, games: int) -> tuple[Wires, Wires]:
    """CheckActionRequest and ListLegalActionsRequest bytes of every decision of the first hand of `games`
    simulated games, by phase."""
    rules = default_rule_book().get(rule_set_id).rules
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    checks: Wires = {}
    lists: Wires = {}
    for seed in range(1, games + 1):
        for state, action, _ in simulated_hand(rules, seed):
            phase = "draw" if state.phase == Phase.DRAW else "play" if state.phase == Phase.PLAY else "other"
            msg = state_to_proto(state)
            check = oracle_pb2.CheckActionRequest(rule_set=ref, state=msg, action=action_to_proto(action))
            checks.setdefault(phase, []).append(check.SerializeToString())
            listing = oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=msg)
            lists.setdefault(phase, []).append(listing.SerializeToString())
    return checks, lists


def large_hands(rule_set_id: str, sizes: tuple[int, ...], deals: int) -> Wires:
    """ListLegalActionsRequest bytes of dealt hands grown to each of `sizes` cards from the stock (no threes: they
    would have been laid), the player to move having drawn, by size."""
    rules = default_rule_book().get(rule_set_id).rules
    ref = oracle_pb2.RuleSetRef(id=rule_set_id)
    out: Wires = {}
    for seed in range(1, deals + 1):
        state = deal(rules, deck_order(rules, DeckSource(seed=seed)), dealer=0)
        seat = state.seat_to_move
        for size in sizes:
            hand = list(state.seats[seat].hand)
            stock = list(state.stock)
            kept = []
            while len(hand) < size and stock:
                card = stock.pop()
                (kept if rank_of(card) == RANK_THREE else hand).append(card)
            seats = list(state.seats)
            seats[seat] = SeatState(tuple(hand), False, state.seats[seat].foot)
            grown = replace(
                state,
                seats=tuple(seats),
                stock=tuple(stock + kept[::-1]),
                phase=Phase.PLAY,
                turn=TurnState(TurnStart.DREW),
            )
            msg = oracle_pb2.ListLegalActionsRequest(rule_set=ref, state=state_to_proto(grown))
            out.setdefault(f"{size:2} cards", []).append(msg.SerializeToString())
    return out


def _spread(times: list[float]) -> str:
    p10, p90 = quantile(times, 0.1), quantile(times, 0.9)  # as the bench table's rows (oracle.bench.rows)
    return (
        f"median {statistics.median(times):9.1f} µs  p10 {p10:9.1f}  p90 {p90:9.1f}  max {max(times):9.1f}"
        f"  (n={len(times)})"
    )


def _timed(
    book: RuleBook, wires: list[bytes], parse: Callable[[bytes], Message], rpc: str
) -> tuple[list[float], list[bytes]]:
    """µs of request bytes -> response bytes per request on a fresh OracleApi, and the responses."""
    api = OracleApi(book)
    call = getattr(api, rpc)
    return time_each(wires, lambda w: w, lambda w: call(parse(w)).SerializeToString(), wires[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="simulated games per rule set (one hand each)")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the requests (best median shown)")
    parser.add_argument("--rules", default=RULE_SETS[0], help="rule sets to time beside classic-4p (comma-separated)")
    args = parser.parse_args()
    book = default_rule_book()
    medians: dict[tuple[str, str, str], float] = {}
    asked = [r for r in args.rules.split(",") if r and r != "classic-4p"]
    for rule_set_id in (*asked, "classic-4p"):
        checks, lists = requests(rule_set_id, args.games)
        grown = large_hands(rule_set_id, (20, 30, 40), args.games)
        for rpc, groups, parse in (
            ("CheckAction", checks, oracle_pb2.CheckActionRequest.FromString),
            ("ListLegalActions", lists, oracle_pb2.ListLegalActionsRequest.FromString),
            ("ListLegalActions", grown, oracle_pb2.ListLegalActionsRequest.FromString),
        ):
            for phase, wires in sorted(groups.items()):
                runs = [_timed(book, wires, parse, rpc) for _ in range(args.repeat)]
                best, answers = min(runs, key=lambda run: statistics.median(run[0]))
                medians[rule_set_id, rpc, phase] = statistics.median(best)
                extra = ""
                if rpc == "ListLegalActions":
                    counts = [len(oracle_pb2.ListLegalActionsResponse.FromString(a).actions) for a in answers]
                    extra = f"  actions median {statistics.median(counts):.0f} max {max(counts)}"
                print(f"{rule_set_id:12} {rpc:16} {phase:8} {_spread(best)}{extra}")
    for rule_set_id in asked:
        for rpc in ("CheckAction", "ListLegalActions"):
            for phase in ("draw", "play", "20 cards", "30 cards", "40 cards"):
                theirs, classic = medians.get((rule_set_id, rpc, phase)), medians.get(("classic-4p", rpc, phase))
                if theirs and classic:
                    print(f"{rule_set_id} / classic-4p  {rpc:16} {phase:8} median x{theirs / classic:.1f}")


if __name__ == "__main__":
    main()
