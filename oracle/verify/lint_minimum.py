"""Lint rules for the initial-meld table: threshold rows that never apply and minimums no meld can meet.

Both take time linear in the table's rows, so a table of thousands of rows
lints about as fast as the rule books' three:

* The row in force for a running total is the last row whose from_score is
  at most the total (RuleModel.row_of). So row i is in force exactly for the
  totals from its from_score up to, but not including, the lowest from_score
  of the rows after it, and only totals below game.target_score start a hand.
  One pass from the last row back keeps that lowest from_score; comparing
  each row with it needs no solver query.
* Whether a minimum can be met is monotone in the minimum (melds worth m
  points meet every lower minimum), so the solver is asked about the table's
  distinct minimums by bisection: a few queries, however long the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oracle.verify.lint_base import ERROR, WARNING, Linter


def dead_rows(thresholds: Sequence[tuple[int, int]], target: int) -> list[bool]:
    """For each (from_score, minimum) row, whether no running total below `target` has it in force."""
    dead = [False] * len(thresholds)
    bound = target  #: totals from here up are never in force for the rows before: a later row or the game end
    for i in reversed(range(len(thresholds))):
        from_score = thresholds[i][0]
        dead[i] = from_score >= bound
        bound = min(bound, from_score)
    return dead


def first_true(values: Sequence[int], holds: Callable[[int], bool]) -> int:
    """The index of the first value for which `holds` is true (len(values) if none), asking O(log n) times.

    `holds` must be false for a prefix of `values` and true for the rest.
    """
    low, high = 0, len(values)
    while low < high:
        middle = (low + high) // 2
        if holds(values[middle]):
            high = middle
        else:
            low = middle + 1
    return low


def initial_meld(lt: Linter) -> None:
    """Warnings for threshold rows that never apply; errors or warnings for minimums that cannot be met."""
    rm, target = lt.rm, lt.rm.spec.game.target_score
    rows = [("initial_meld.minimum_below_table", rm.spec.initial_meld.minimum_below_table)]
    for i, ((from_score, minimum), dead) in enumerate(
        zip(rm.thresholds, dead_rows(rm.thresholds, target), strict=True)
    ):
        if dead:
            why = (
                f"the game ends when a side reaches game.target_score {target}, so no hand starts with a running"
                f" total of {from_score} or more"
                if from_score >= target
                else "a later row starts no later"
            )
            lt.add(
                "threshold-row-dead",
                WARNING,
                f"initial_meld.thresholds[{i}].from_score",
                f"initial_meld.thresholds[{i}].from_score {from_score} never applies, so its minimum of {minimum}"
                f" is never asked: {why}",
            )
        else:
            rows.append((f"initial_meld.thresholds[{i}].minimum", minimum))
    melds = lt.melds
    turn_ok = rm.first_turn_meld_ok(melds)

    def first_turn(minimum: int) -> bool:
        return lt.holds_with("minimum-unreachable-first-turn", turn_ok, melds.points >= minimum)

    def whole_deck(minimum: int) -> bool:
        return lt.holds_with("minimum-unreachable", melds.points >= minimum)

    values = sorted({minimum for _, minimum in rows}, reverse=True)
    with lt.given(melds.constraints):  # asserted once for every question below, each asked under assumptions
        met = first_true(values, first_turn)  # values[met:] can be met in a first turn
        deck = first_true(values[:met], whole_deck)  # values[deck:met] by melds from the whole deck only
    unmet, never = set(values[:met]), set(values[:deck])
    held = rm.spec.deal.hand_size + rm.spec.turn.draw_count
    for field, minimum in sorted(rows, key=lambda row: -row[1]):
        if minimum not in unmet:
            return  # the highest minimum that applies can be met, so every lower one can
        if minimum in never:
            lt.add(
                "minimum-unreachable",
                ERROR,
                field,
                f"a minimum initial meld of {minimum} points can never be met: no set of legal melds from the"
                " whole deck is worth that much",
            )
        else:
            lt.add(
                "minimum-unreachable-first-turn",
                WARNING,
                field,
                f"a minimum initial meld of {minimum} points cannot be met from one turn's {held} cards"
                f" (deal.hand_size {rm.spec.deal.hand_size} + turn.draw_count {rm.spec.turn.draw_count}) while"
                " ending the turn legally",
            )
