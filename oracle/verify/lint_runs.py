"""Lint rules for the Samba fields: runs settings that are dead or contradictory, combining that never applies, and
red threes that need more canastas than the deck can make."""

from __future__ import annotations

from oracle.api.v1 import ruleset_pb2
from oracle.verify import model_runs as mr
from oracle.verify.lint_base import ERROR, WARNING, Linter

#: runs fields whose zero value means "nothing" and which only mean something when runs.min_size is set (the rank
#: range and runs.canasta_size always hold a value: the loader asks for them, and the classic bases state 4..A, 7)
_RUN_FIELDS = ("max_size", "canasta_bonus", "pile_top_alone")


def runs(lt: Linter) -> None:
    """runs.* set while runs are off; a run canasta above the cap, a range upside down, a canasta that cannot fit."""
    r = lt.rm.spec.runs
    if not r.min_size:
        set_fields = [f"runs.{name}" for name in _RUN_FIELDS if getattr(r, name)]
        if set_fields:
            lt.add(
                "runs-dead",
                WARNING,
                set_fields[0],
                f"{', '.join(set_fields)} never apply: runs.min_size is 0, so no run is ever laid",
            )
        return
    low, high = r.lowest_rank, r.highest_rank
    if low > high:
        lt.add(
            "run-range-empty",
            ERROR,
            "runs.lowest_rank",
            f"runs.lowest_rank {ruleset_pb2.NaturalRank.Name(low)} is above runs.highest_rank"
            f" {ruleset_pb2.NaturalRank.Name(high)}: no rank may go in a run, so no run is legal",
        )
    if r.max_size and r.canasta_size > r.max_size:
        lt.add(
            "run-canasta-over-cap",
            ERROR,
            "runs.canasta_size",
            f"runs.canasta_size {r.canasta_size} is above runs.max_size {r.max_size}: no run can grow into a canasta",
        )
    run = mr.run_counts("lint_run")
    fits = [mr.legal_run(lt.rm.spec, run), run.size == r.canasta_size]
    if low <= high and lt.witness("run-canasta-cannot-fit", fits) is None:
        span = high - low + 1
        lt.add(
            "run-canasta-cannot-fit",
            ERROR,
            "runs.canasta_size",
            f"no legal run holds runs.canasta_size {r.canasta_size} cards: runs.lowest_rank .. runs.highest_rank"
            f" hold {span} rank(s), one card each, between runs.min_size {r.min_size} and runs.max_size"
            f" {r.max_size or 'no cap'}",
        )


def combine_dead(lt: Linter) -> None:
    """melds.combine_same_rank set where a side never holds two melds of a rank."""
    m = lt.rm.spec.melds
    if m.combine_same_rank and m.one_meld_per_rank:
        lt.add(
            "combine-dead",
            WARNING,
            "melds.combine_same_rank",
            "melds.combine_same_rank never applies: melds.one_meld_per_rank is true, so a side never holds two"
            " melds of a rank to combine",
        )


def red_three_canastas(lt: Linter) -> None:
    """threes.canastas_for_red_threes above the canastas one side can hold at once within the deck."""
    needed = lt.rm.spec.threes.canastas_for_red_threes
    if not needed:
        return
    most = lt.melds
    reachable = [*most.constraints, most.canastas + _run_canastas_most(lt) >= needed]
    if lt.witness("red-threes-canastas-unreachable", reachable) is not None:
        return
    lt.add(
        "red-threes-canastas-unreachable",
        ERROR,
        "threes.canastas_for_red_threes",
        f"threes.canastas_for_red_threes {needed} is more canastas than a side can hold within the deck: its red"
        " threes could never count for it",
    )


def _run_canastas_most(lt: Linter) -> int:
    """The run canastas a side may hold at once beside its other melds (an upper bound: each suit's cards of the
    run range, one per rank, in every pack)."""
    r = lt.rm.spec.runs
    if not r.min_size or not r.canasta_size or r.lowest_rank > r.highest_rank:
        return 0
    per_pack = (r.highest_rank - r.lowest_rank + 1) // r.canasta_size
    return 4 * lt.rm.spec.deck.packs * per_pack


__all__ = ["combine_dead", "red_three_canastas", "runs"]
