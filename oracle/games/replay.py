"""Replays a game record hand by hand: judges every action, scores each hand, and compares the record's claims."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from oracle.games.deal import deal
from oracle.games.match import DeckSource, Standing, after_hand, dealer_of_hand, deck_order, start_standing
from oracle.model.actions import Action, AnswerPartner, format_action
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.events import Event, HandEnded
from oracle.model.interrupt import Checkpoint
from oracle.model.score import SideScore
from oracle.model.state import HandEnd, Phase
from oracle.rules.facts import partner_seats
from oracle.rules.referee import check_action, validate_action_shape
from oracle.rules.violations import Violation
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record."""

    deck: DeckSource
    actions: tuple[Action, ...]
    claimed_scores: tuple[int, ...] = ()
    claimed_totals: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game."""

    rule_set_id: str
    first_dealer: int
    hands: tuple[HandRecord, ...]
    claimed_winner: int | None = None


@dataclass(frozen=True, slots=True)
class ActionReport:
    """One judged action."""

    hand: int
    index: int
    seat: int
    notation: str
    legal: bool
    violations: tuple[Violation, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class HandReport:
    """One hand as replayed."""

    hand: int
    end: HandEnd
    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A claim that differs from our computation."""

    hand: int
    side: int
    what: str
    claimed: int
    computed: int


@dataclass
class ReplayReport:
    """Everything a replay found."""

    actions: list[ActionReport] = field(default_factory=list)
    first_illegal: ActionReport | None = None
    hands: list[HandReport] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    standing: Standing | None = None
    judged: int = 0  #: actions judged (kept in `actions` only when asked)

    @property
    def ok(self) -> bool:
        """No illegal action, no differing claim, no problem with the record."""
        return self.first_illegal is None and not self.mismatches and not self.problems


def check_record_shape(rules: CompiledRules, record: GameRecord) -> None:
    """INVALID_ARGUMENT for what no replay can use: a bad dealer, malformed actions, claims of the wrong length."""
    problems: list[FieldProblem] = []
    if not 0 <= record.first_dealer < rules.seats:
        problems.append(FieldProblem("record.first_dealer", f"{record.first_dealer} is not a seat"))
    for h, hand in enumerate(record.hands):
        for name, claims in (("claimed_scores", hand.claimed_scores), ("claimed_totals", hand.claimed_totals)):
            if claims and len(claims) != rules.sides:
                problems.append(
                    FieldProblem(
                        f"record.hands[{h}].{name}", f"has {len(claims)} entries; the rule set has {rules.sides} sides"
                    )
                )
        for i, action in enumerate(hand.actions):
            try:
                validate_action_shape(action, f"record.hands[{h}].actions[{i}]")
            except InvalidInputError as exc:
                problems.extend(exc.problems)
    if record.claimed_winner is not None and not 0 <= record.claimed_winner < rules.sides:
        problems.append(FieldProblem("record.claimed_winner", f"{record.claimed_winner} is not a side"))
    if problems:
        raise InvalidInputError(problems)


def replay(
    rules: CompiledRules,
    record: GameRecord,
    *,
    keep_actions: bool = True,
    validate: bool = False,
    progress: Callable[[int], None] | None = None,
    checkpoint: Checkpoint | None = None,
) -> ReplayReport:
    """Replay `record` under `rules`; stops at the first illegal action or unusable hand.

    With `validate`, every state is also checked for consistency before its
    action is judged (card conservation and the rest): slower, for tests.
    `checkpoint` is called before each hand and each action; what it raises
    (a WorkStopped past a deadline, say) ends the replay.
    """
    check_record_shape(rules, record)
    report = ReplayReport()
    standing = start_standing(rules)
    for h, hand in enumerate(record.hands):
        if standing.over:
            report.problems.append(f"hand {h}: the game was already over after hand {h - 1}")
            break
        if checkpoint is not None:
            checkpoint()
        dealer = dealer_of_hand(rules, record.first_dealer, h)
        state = deal(
            rules,
            deck_order(rules, hand.deck, f"record.hands[{h}].deck"),
            dealer=dealer,
            running_totals=standing.totals,
        )
        ended: HandEnded | None = None
        for i, action in enumerate(hand.actions):
            if state.phase == Phase.HAND_OVER:
                report.problems.append(f"hand {h}: {len(hand.actions) - i} action(s) after the hand ended")
                break
            if checkpoint is not None:
                checkpoint()
            seat = state.seat_to_move
            if isinstance(action, AnswerPartner):
                seat = (partner_seats(rules, seat) or [seat])[0]
            verdict = check_action(rules, state, action, validate=validate)
            entry = ActionReport(h, i, seat, format_action(action), verdict.legal, verdict.violations, verdict.events)
            report.judged += 1
            if keep_actions:
                report.actions.append(entry)
            if progress is not None:
                progress(1)
            if not verdict.legal:
                report.first_illegal = entry
                report.standing = standing
                return report
            assert verdict.next_state is not None
            state = verdict.next_state
            ended = next((e for e in verdict.events if isinstance(e, HandEnded)), ended)
        if ended is None:
            report.problems.append(f"hand {h}: the record stops before the hand ends")
            break
        scores = tuple(s.total for s in ended.scores)
        standing = after_hand(rules, standing, scores)
        report.hands.append(HandReport(h, ended.reason, ended.scores, standing.totals))
        _compare(report, h, "hand score", hand.claimed_scores, scores)
        _compare(report, h, "running total", hand.claimed_totals, standing.totals)
    report.standing = standing
    if record.claimed_winner is not None:
        if not standing.over:
            report.problems.append(f"the record claims side {record.claimed_winner} won, but the game is not over")
        elif standing.winner != record.claimed_winner:
            report.mismatches.append(
                Mismatch(
                    len(report.hands) - 1, record.claimed_winner, "winner", record.claimed_winner, standing.winner or 0
                )
            )
    return report


def _compare(report: ReplayReport, hand: int, what: str, claimed: tuple[int, ...], computed: tuple[int, ...]) -> None:
    for side, (c, ours) in enumerate(zip(claimed, computed, strict=False)):
        if c != ours:
            report.mismatches.append(Mismatch(hand, side, what, c, ours))
