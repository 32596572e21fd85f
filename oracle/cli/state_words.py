"""A game state for the command line: the feet an action took up, in words, and a state scored as it stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oracle.cli.support import CliError

if TYPE_CHECKING:
    from oracle.model.score import SideScore
    from oracle.model.state import GameState
    from oracle.ruleset.loader import LoadedRuleSet


def feet_taken_up(before: GameState, after: GameState | None) -> list[str]:
    """A line per seat whose foot (foot.size) the action took up: played on at once after melding the hand out, or
    from the seat's next turn after discarding its last hand card (foot.continue_after_melding_out)."""
    from oracle.model.state import Phase

    if after is None:
        return []
    lines = []
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        if old.foot and not new.foot:
            if after.phase == Phase.HAND_OVER:
                when = "the hand ended with that discard, so it counts as cards held"
            elif after.seat_to_move == seat and after.phase == Phase.PLAY:
                when = "plays on from it this turn"
            else:
                when = "plays it from the next turn"
            lines.append(f"  seat {seat} took up the foot ({len(old.foot)} cards): {when}")
    return lines


def score_state(loaded: LoadedRuleSet, state: GameState) -> tuple[list[SideScore], list[str], tuple[int, ...]]:
    """A state's table scored as it stands (rules.facts.end_table), its sides' names and GameState.side_of_seat;
    an inconsistent state is refused with its problems."""
    from oracle.rules.facts import end_table
    from oracle.rules.scoring import score_hand
    from oracle.rules.state_check import validate_state

    problems = validate_state(loaded.rules, state)
    if problems:
        raise CliError("inconsistent state: " + "; ".join(f"{p.field}: {p.description}" for p in problems[:5]))
    scores = list(score_hand(loaded.rules, end_table(loaded.rules, state)))
    return scores, [f"side {i}" for i in range(len(scores))], tuple(state.side_of_seat)
