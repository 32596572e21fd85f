"""Verifying rule sets in worker processes: each score extreme once, as a task of its own, then the rule sets.

The costliest single piece of a rule set's verification is the proof of its
lowest or highest score (hand_read.extreme_side), and rule sets that agree on
the scoring fields share it. So the pool is given, first, one task per
distinct pair of extremes (lowest and highest: hand_read.extreme_key, the
scoring fields and the side's kind), heaviest first (a search whose rule set is near an earlier one's waits
for it, to find the answers shared inside a search, which a search takes and hands back like a rule set's
task), and then one task per rule set, heaviest
first, except that a rule set differing from a heavier one in a few fields
(a house rule and its base game: NEAR_FIELDS) waits for that one's result. A rule-set task is sent once the
extremes it needs are known, with them, and with every answer the workers
have shared so far that its worker does not keep (footprint.shared: the proofs
and boundary searches of rule sets agreeing on every field they read), so a
worker need not prove again what the other proved. Each worker is a process of
its own, given one task at a time as it frees, so no task waits while another
is ready and both finish together; a freed worker takes the first ready rule
set whose side tables (hand.side_hand, built once per process) it has already
built, if there is one, instead of building them a second time in the other
worker.

Each extreme is a function of its key alone (extreme_side proves it in a Z3
context of its own), each shared answer a function of its footprint alone,
and verify_one's answers do not depend on what its process did before, so
which worker ran what, and in what order, changes no answer: the results are
the serial run's, in the order asked.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar, cast

from google.protobuf.message import Message

from oracle.ruleset.compiled import CompiledRules
from oracle.ruleset.loader import RuleBook
from oracle.verify.footprint import Footprint, Kept, adopt, kept_after, kept_keys
from oracle.verify.hand_read import ConcreteSide, extreme_key, extreme_side, known_extremes, seed_extremes
from oracle.verify.model import RuleModel
from oracle.verify.model_formation import lone_hand

T = TypeVar("T")

#: verify_one's signature: rule-set id, its rules, the directory for disagreement case files.
VerifyOne = Callable[[str, CompiledRules, Path | None], T]

Search = tuple[str, bool]  #: (a rule set that needs the pair of extremes, partnership)


@dataclass
class _Worker(Generic[T]):
    """What a worker process verifies against, set once by its initializer."""

    book: RuleBook
    case_dir: Path | None
    verify: VerifyOne[T]


_WORKER: list[_Worker[object]] = []  #: the worker's one _Worker (empty in the parent)


def _start_worker(
    book: RuleBook | None, load: Callable[[], RuleBook], case_dir: Path | None, verify: VerifyOne[object]
) -> None:
    _keep_freed_memory()
    _WORKER[:] = [_Worker(book or load(), case_dir, verify)]  # load: the shipped book, read by the worker itself


#: glibc's mallopt parameters (malloc.h) and the values a worker sets: blocks up to 32 MB (the most glibc takes)
#: come from the heap, and up to 1 GB freed at its top stays there.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_TRIM_AT, _MMAP_FROM = 1 << 30, 32 << 20


def _keep_freed_memory() -> None:
    """Keep the memory Z3 frees in the worker's heap for its next context (glibc only; elsewhere nothing).

    Each proof runs in a Z3 context of its own, and a context allocates and frees blocks of megabytes. By default
    glibc maps such blocks afresh and returns them to the system when freed, so each context pays for zeroed pages
    again: about 2 s of system time over the shipped rule sets, against 0.6 s with the blocks kept. The worker
    exits at the end of the run, returning everything.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc: its own allocator's defaults
        return
    mallopt(_M_MMAP_THRESHOLD, _MMAP_FROM)
    mallopt(_M_TRIM_THRESHOLD, _TRIM_AT)


def _extreme_task(rule_set_id: str, partnership: bool, answers: Kept) -> tuple[dict[str, ConcreteSide | None], Kept]:
    spec = _WORKER[0].book.get(rule_set_id).rules.spec
    adopt(answers)  # the shared answers inside the search (hand_split's rank tables) another search found
    before = kept_keys()
    extreme_side(RuleModel(spec), partnership=partnership)  # the lowest and the highest, together
    found = known_extremes()
    keys = [extreme_key(spec, partnership=partnership, sign=sign) for sign in (-1, 1)]
    return {key: found[key] for key in keys}, kept_after(before)


def _verify_task(rule_set_id: str, extremes: dict[str, ConcreteSide | None], answers: Kept) -> tuple[object, Kept]:
    worker = _WORKER[0]
    seed_extremes(extremes)
    adopt(answers)
    before = kept_keys()  # the parent has these (it sent them, or this worker sent them back before)
    return worker.verify(rule_set_id, worker.book.get(rule_set_id).rules, worker.case_dir), kept_after(before)


def weight(rules: CompiledRules) -> int:
    """A rough cost of verifying a rule set, to start the costliest first: the solver's work grows with the deck
    (the counts' ranges), and a side formed during the hand has its extremes proved twice."""
    return rules.deck_size * (2 if lone_hand(rules.spec) else 1)


def _searches(ids: list[str], book: RuleBook) -> tuple[dict[str, Search], dict[str, list[str]]]:
    """Every distinct pair of extremes the rule sets need (by the highest's key, with a rule set asking it), and
    each rule set's keys of them."""
    searches: dict[str, Search] = {}
    needs: dict[str, list[str]] = {}
    for i in ids:
        spec = book.get(i).rules.spec
        needs[i] = []
        for partnership in (False, True) if lone_hand(spec) else (False,):
            key = extreme_key(spec, partnership=partnership, sign=1)
            searches.setdefault(key, (i, partnership))
            needs[i].append(key)
    return searches, needs


#: A rule set differing from a heavier one in at most this many fields waits for it, to find most of its proofs
#: shared (the shipped house rules differ from their base game in one to five fields; unrelated games in dozens).
NEAR_FIELDS = 6


def _leaves(message: Message, prefix: str = "") -> dict[str, object]:
    """Every set field of a message by dotted path (a repeated field as the tuple of its elements)."""
    found: dict[str, object] = {}
    for field, value in message.ListFields():
        path = prefix + field.name
        if isinstance(value, Message):
            found |= _leaves(value, path + ".")
        elif isinstance(value, (int, float, str, bytes)):
            found[path] = value
        else:
            found[path] = tuple(v.SerializeToString(deterministic=True) if isinstance(v, Message) else v for v in value)
    return found


#: Fields that most proofs and boundary searches read: a rule set differing from the one it waits for in more of
#: them shares less, so it is sent first among those waiting.
BROAD = ("melds.", "canastas.", "card_values.", "threes.", "going_out.", "deck.")


def _followed(order: list[str], book: RuleBook) -> dict[str, tuple[str, int]]:
    """For each rule set of `order` that differs in at most NEAR_FIELDS rule fields from an earlier one that
    follows none, the nearest such (the first of the nearest), and how many of the fields differing are BROAD: it
    goes after that one, whose shared answers it then finds. Only one step: a chain of rule sets each waiting for
    the last would leave a worker idle."""
    # the rule fields are those of the sub-messages (melds.min_size, ...); the top level names and describes
    leaves = {i: {k: v for k, v in _leaves(book.get(i).rules.spec).items() if "." in k} for i in order}
    after: dict[str, tuple[str, int]] = {}
    for n, i in enumerate(order):
        near = [
            ([k for k in leaves[i].keys() | leaves[j].keys() if leaves[i].get(k) != leaves[j].get(k)], j)
            for j in order[:n]
            if j not in after
        ]
        differing, nearest = min(near, default=([""] * (NEAR_FIELDS + 1), ""), key=lambda d: len(d[0]))
        if len(differing) <= NEAR_FIELDS:
            after[i] = (nearest, sum(k.startswith(BROAD) for k in differing))
    return after


def _search_leads(extremes: list[str], searches: dict[str, Search], book: RuleBook) -> dict[str, list[str]]:
    """For each search of `extremes` (in their order), the searches it waits for: those of the rule set its own
    rule set follows (_followed: at most NEAR_FIELDS fields apart), whose shared answers inside a search (the
    Hand and Foot sets' rank tables, hand_split) it then finds, instead of both workers proving them at once."""
    searched = list(dict.fromkeys(searches[k][0] for k in extremes))
    lead = {i: first for i, (first, _) in _followed(searched, book).items()}
    return {k: [j for j in extremes if searches[j][0] == lead.get(searches[k][0])] for k in extremes}


class _Answers:
    """The footprint answers the workers have sent back, and which of them each worker keeps: a worker is handed
    only those it does not keep (it computed them, or was handed them before), not every answer again."""

    def __init__(self, jobs: int) -> None:
        self.shared: dict[tuple[str, Footprint], object] = {}
        self.kept_by: list[set[tuple[str, Footprint]]] = [set() for _ in range(jobs)]

    def for_worker(self, worker: int) -> Kept:
        """The answers to hand the worker with its next task (it keeps them from then on)."""
        new = [
            (name, fp, answer) for (name, fp), answer in self.shared.items() if (name, fp) not in self.kept_by[worker]
        ]
        self.kept_by[worker].update((name, fp) for name, fp, _ in new)
        return new

    def returned(self, worker: int, answers: Kept) -> None:
        """The answers a worker sent back (kept since its task began): shared with the others from now on."""
        self.shared.update(((name, fp), answer) for name, fp, answer in answers)
        self.kept_by[worker].update((name, fp) for name, fp, _ in answers)


def _choose(candidates: list[str], held: set[str], needs: dict[str, list[str]]) -> str:
    """The first candidate rule set whose side tables the worker has built (`held`: the extremes' keys of the
    searches and rule sets it ran), which then copies them instead of building them again; else the first."""
    return next((i for i in candidates if held.issuperset(needs[i])), candidates[0])


def verify_in_workers(
    ids: list[str],
    book: RuleBook,
    given: RuleBook | None,
    load: Callable[[], RuleBook],
    case_dir: Path | None,
    jobs: int,
    verify: VerifyOne[T],
) -> list[T]:
    """verify(id, rules, case_dir) for each id, in `jobs` worker processes (the module docstring); in order.

    A worker gets the caller's book `given`, or (None) calls `load` for the shipped one: nothing to pickle.
    """
    searches, needs = _searches(ids, book)
    cost = {i: weight(book.get(i).rules) for i in ids}
    extremes = sorted(searches, key=lambda k: (-cost[searches[k][0]], k))
    waits_for = _search_leads(extremes, searches, book)
    order = sorted(ids, key=lambda i: (-cost[i], i))
    followed = _followed(order, book)
    after = {i: lead for i, (lead, _) in followed.items()}
    rule_sets = sorted(ids, key=lambda i: (i in after, -cost[i], -followed.get(i, ("", 0))[1], i))
    given_sides: dict[str, ConcreteSide | None] = {}  #: every extreme known, by extreme_key (a pair: both its keys)
    results: dict[str, T] = {}
    answers = _Answers(jobs)
    held: list[set[str]] = [set() for _ in range(jobs)]  #: the extreme keys whose side tables each worker built
    with contextlib.ExitStack() as stack:
        pools = [
            stack.enter_context(
                ProcessPoolExecutor(1, initializer=_start_worker, initargs=(given, load, case_dir, verify))
            )
            for _ in range(jobs)
        ]
        running: dict[Future[object], tuple[str, str, int]] = {}
        while extremes or rule_sets or running:
            for worker in sorted(set(range(jobs)) - {w for _, _, w in running.values()}):
                ready_searches = [k for k in extremes if all(lead in given_sides for lead in waits_for[k])]
                if ready_searches or (extremes and not running):
                    key = (ready_searches or extremes)[0]
                    extremes.remove(key)
                    running[pools[worker].submit(_extreme_task, *searches[key], answers.for_worker(worker))] = (
                        "extreme",
                        key,
                        worker,
                    )
                    held[worker].add(key)
                    continue
                ready = [
                    i for i in rule_sets if all(k in given_sides for k in needs[i]) and after.get(i, i) in (i, *results)
                ]
                if not (ready or (rule_sets and not running)):
                    continue  # the extremes and leads still in flight come back first
                chosen = _choose(ready or rule_sets, held[worker], needs)
                rule_sets.remove(chosen)
                handed = answers.for_worker(worker)
                running[pools[worker].submit(_verify_task, chosen, dict(given_sides), handed)] = (
                    "rule set",
                    chosen,
                    worker,
                )
                held[worker].update(needs[chosen])
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                kind, name, worker = running.pop(future)
                found, kept = cast(tuple[object, Kept], future.result())
                if kind == "extreme":  # the pair is known: its sides go to the rule sets that need them
                    given_sides.update(cast(dict[str, ConcreteSide | None], found))
                else:
                    results[name] = cast(T, found)
                answers.returned(worker, kept)
    return [results[i] for i in ids]


__all__ = ["VerifyOne", "verify_in_workers", "weight"]
