"""Verifying rule sets in worker processes: each score extreme once, as a task of its own, then the rule sets.

The costliest single piece of a rule set's verification is the proof of its
lowest or highest score (hand_read.extreme_side), and rule sets that agree on
the scoring fields share it. So the pool is given, first, one task per
distinct extreme (hand_read.extreme_key: the scoring fields, the side's kind,
the direction), heaviest first, and then one task per rule set, heaviest first,
each sent once the extremes it needs are known, with them (a rule set never
waits while another task is ready). At most `jobs` tasks are in flight, so a
task goes to whichever worker frees first and the two ends of the run finish
together.

Each extreme is a function of its key alone (extreme_side proves it in a Z3
context of its own), and verify_one's answers do not depend on what its
process did before, so which worker ran what, and in what order, changes no
answer: the results are the serial run's, in the order asked.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar, cast

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.verify.hand_read import ConcreteSide, extreme_key, extreme_side, seed_extremes
from oracle.verify.model import RuleModel
from oracle.verify.model_formation import lone_hand

T = TypeVar("T")

#: verify_one's signature: rule-set id, its rules, the directory for disagreement case files.
VerifyOne = Callable[[str, CompiledRules, Path | None], T]

Search = tuple[str, bool, int]  #: (a rule set that needs the extreme, partnership, sign)


@dataclass
class _Worker(Generic[T]):
    """What a worker process verifies against, set once by its initializer."""

    book: RuleBook
    case_dir: Path | None
    verify: VerifyOne[T]


_WORKER: list[_Worker[object]] = []  #: the worker's one _Worker (empty in the parent)


def _start_worker(book: RuleBook | None, case_dir: Path | None, verify: VerifyOne[object]) -> None:
    from oracle.verify.report import shipped_book  # a worker loads the shipped book itself: nothing to pickle

    _WORKER[:] = [_Worker(book or shipped_book(), case_dir, verify)]


def _extreme_task(rule_set_id: str, partnership: bool, sign: int) -> tuple[str, ConcreteSide | None]:
    spec = _WORKER[0].book.get(rule_set_id).rules.spec
    return extreme_key(spec, partnership=partnership, sign=sign), extreme_side(
        RuleModel(spec), partnership=partnership, sign=sign
    )


def _verify_task(rule_set_id: str, extremes: dict[str, ConcreteSide | None]) -> object:
    worker = _WORKER[0]
    seed_extremes(extremes)
    return worker.verify(rule_set_id, worker.book.get(rule_set_id).rules, worker.case_dir)


def weight(spec: ruleset_pb2.RuleSet) -> int:
    """A rough cost of verifying a rule set, to start the costliest first: the solver's work grows with the deck
    (the counts' ranges), and a side formed during the hand has its extremes proved twice."""
    cards = spec.deck.packs * 52 + spec.deck.jokers
    return cards * (2 if lone_hand(spec) else 1)


def _searches(ids: list[str], book: RuleBook) -> tuple[dict[str, Search], dict[str, list[str]]]:
    """Every distinct extreme the rule sets need (by key, with a rule set asking it), and each rule set's keys."""
    searches: dict[str, Search] = {}
    needs: dict[str, list[str]] = {}
    for i in ids:
        spec = book.get(i).rules.spec
        needs[i] = []
        for partnership in (False, True) if lone_hand(spec) else (False,):
            for sign in (1, -1):
                key = extreme_key(spec, partnership=partnership, sign=sign)
                searches.setdefault(key, (i, partnership, sign))
                needs[i].append(key)
    return searches, needs


def verify_in_workers(
    ids: list[str], book: RuleBook, given: RuleBook | None, case_dir: Path | None, jobs: int, verify: VerifyOne[T]
) -> list[T]:
    """verify(id, rules, case_dir) for each id, in `jobs` worker processes (the module docstring); in order.

    A worker gets the caller's book `given`, or (None) loads the shipped one itself.
    """
    searches, needs = _searches(ids, book)
    cost = {i: weight(book.get(i).rules.spec) for i in ids}
    extremes = sorted(searches, key=lambda k: (-cost[searches[k][0]], -searches[k][2], k))
    rule_sets = sorted(ids, key=lambda i: (-cost[i], i))
    found: dict[str, ConcreteSide | None] = {}
    results: dict[str, T] = {}
    with ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(given, case_dir, verify)) as pool:
        running: dict[Future[object], tuple[str, str]] = {}
        while extremes or rule_sets or running:
            while len(running) < jobs and (extremes or rule_sets):
                if extremes:
                    key = extremes.pop(0)
                    running[pool.submit(_extreme_task, *searches[key])] = ("extreme", key)
                    continue
                ready = [i for i in rule_sets if all(k in found for k in needs[i])]
                if not ready and running:
                    break  # the extremes still in flight come back first
                chosen = (ready or rule_sets)[0]
                rule_sets.remove(chosen)
                given_extremes = {k: found[k] for k in needs[chosen] if k in found}
                running[pool.submit(_verify_task, chosen, given_extremes)] = ("rule set", chosen)
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                kind, name = running.pop(future)
                if kind == "extreme":
                    key, side = cast(tuple[str, ConcreteSide | None], future.result())
                    found[key] = side
                else:
                    results[name] = cast(T, future.result())
    return [results[i] for i in ids]


__all__ = ["VerifyOne", "verify_in_workers", "weight"]
