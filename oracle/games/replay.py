"""Replays a game record hand by hand: judges every action, compares checkpoints and claims, scores each hand."""

from __future__ import annotations

from collections.abc import Callable

from oracle.games.claims import ClaimedState, adopt, differences
from oracle.games.deal import deal
from oracle.games.match import Standing, after_hand, deck_order, start_standing
from oracle.games.notation import notation
from oracle.games.record import GameRecord, HandRecord, check_record_shape, shaped_actions
from oracle.games.replay_report import (
    CHECKPOINT,
    HAND_SCORE,
    ILLEGAL,
    RUNNING_TOTAL,
    WINNER,
    ActionReport,
    Disagreement,
    HandReport,
    Mismatch,
    ReplayReport,
)
from oracle.model.actions import Action, AnswerPartner
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.events import Event, HandEnded
from oracle.model.interrupt import Checkpoint
from oracle.model.state import GameState, Phase
from oracle.rules.context import make_ctx
from oracle.rules.facts import partner_seats
from oracle.rules.referee import apply_action, check_action, verdict_of_shaped_action
from oracle.rules.state_check import validate_state
from oracle.rules.violations import Violation
from oracle.ruleset.compiled import CompiledRules

__all__ = [
    "CHECKPOINT",
    "HAND_SCORE",
    "ILLEGAL",
    "RUNNING_TOTAL",
    "WINNER",
    "ActionReport",
    "Disagreement",
    "GameRecord",
    "HandRecord",
    "HandReport",
    "Mismatch",
    "ReplayReport",
    "check_record_shape",
    "replay",
]


def _force(rules: CompiledRules, state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]] | None:
    """`action` applied although illegal, if its cards allow it and the result is a consistent state; else None."""
    try:
        applied = apply_action(make_ctx(rules, state), action)
    except (ValueError, IndexError, KeyError, TypeError, AssertionError):  # its cards are not where it says
        return None
    if validate_state(rules, applied.next_state):
        return None
    return applied.next_state, applied.events


class _Run:
    """The replay of one record: the report and what carries from one action and hand to the next."""

    def __init__(
        self,
        rules: CompiledRules,
        *,
        judge_all: bool,
        keep_actions: bool,
        validate: bool,
        progress: Callable[[int], None] | None,
        checkpoint: Checkpoint | None,
    ) -> None:
        self.rules = rules
        self.judge_all = judge_all
        self.keep_actions = keep_actions
        self.validate = validate
        self.progress = progress
        self.checkpoint = checkpoint
        self.report = ReplayReport()
        self.standing = start_standing(rules)
        self.uncertain = False
        self.stopped = False

    def disagree(
        self,
        where: tuple[int, int, int],
        kind: str,
        what: str,
        claimed: object,
        computed: object,
        violations: tuple[Violation, ...] = (),
    ) -> None:
        """Record a disagreement at (hand, index, seat)."""
        hand, index, seat = where
        self.report.disagreements.append(
            Disagreement(hand, index, seat, kind, what, str(claimed), str(computed), violations, self.uncertain)
        )

    def begin_totals(self, h: int, hand: HandRecord) -> None:
        """Take the hand's starting totals from the record when it gives them (reporting a difference)."""
        given = hand.starting_totals
        if given is None and hand.start is not None:
            given = tuple(side.running_total for side in hand.start.sides)
        if given is None:
            return
        if h > 0 and given != self.standing.totals:
            for side, (claimed, ours) in enumerate(zip(given, self.standing.totals, strict=True)):
                if claimed != ours:
                    self.disagree((h, -1, side), RUNNING_TOTAL, "starting_totals", claimed, ours)
        self.standing = Standing(tuple(given), hands_played=self.standing.hands_played)
        self.uncertain = False

    def at_checkpoint(self, h: int, claim: ClaimedState, state: GameState) -> GameState:
        """Compare a checkpoint with our state, report each difference, and go on from the claimed state."""
        diffs = differences(state, claim)
        for d in diffs:
            self.disagree((h, claim.after, state.seat_to_move), CHECKPOINT, d.field, d.claimed, d.computed)
        if diffs and not self.judge_all:
            self.stopped = True
            return state
        if not diffs and not self.uncertain:
            return state
        adopted, problems = adopt(self.rules, state, claim)
        if adopted is None:
            self.report.problems.append(
                f"hand {h}: the checkpoint after action {claim.after} is not a consistent state,"
                f" so the replay goes on from its own: {'; '.join(str(p) for p in problems[:3])}"
            )
            self.uncertain = self.uncertain or bool(diffs)
            return state
        self.uncertain = (self.uncertain or bool(diffs)) and not claim.complete(self.rules)
        return adopted

    def seat_of(self, action: Action, state: GameState) -> int:
        """The seat an action is reported for: the partner who answers, else the player to move."""
        seat = state.seat_to_move
        if isinstance(action, AnswerPartner):
            seat = (partner_seats(self.rules, seat) or [seat])[0]
        return seat

    def judge(
        self, h: int, i: int, action: Action, state: GameState, shaped: bool, *, checked: bool = False
    ) -> tuple[GameState, tuple[Event, ...]]:
        """Judge one action; the next state (forced past an illegal action with judge_all) and its events.
        `shaped`: the record's shape check found the action well shaped as a whole (see shaped_actions);
        `checked`: the checkpoint was called for this action already."""
        if self.checkpoint is not None and not checked:
            self.checkpoint()
        if shaped and not self.validate and state.phase != Phase.MELD_PILE_TOP:
            verdict = verdict_of_shaped_action(self.rules, state, action)
        else:
            try:
                verdict = check_action(self.rules, state, action, validate=self.validate)
            except InvalidInputError as exc:  # malformed in this state only: a second step's other groups
                path = f"record.hands[{h}].actions[{i}]"
                raise InvalidInputError(
                    [FieldProblem(path + p.field.removeprefix("action"), p.description) for p in exc.problems]
                ) from None
        report = self.report
        report.judged += 1
        if self.uncertain:
            report.uncertain += 1
        if self.keep_actions or not verdict.legal:  # the entry (its notation) only when it is kept or reported
            entry = ActionReport(
                h,
                i,
                self.seat_of(action, state),
                notation(action),
                verdict.legal,
                verdict.violations,
                verdict.events,
                self.uncertain,
            )
            if self.keep_actions:
                report.actions.append(entry)
        if self.progress is not None:
            self.progress(1)
        if verdict.legal:
            assert verdict.next_state is not None
            return verdict.next_state, verdict.events
        self.disagree((h, i, entry.seat), ILLEGAL, entry.notation, "legal", "illegal", verdict.violations)
        if report.first_illegal is None:
            report.first_illegal = entry
        if not self.judge_all:
            self.stopped = True
            return state, ()
        self.uncertain = True
        forced = _force(self.rules, state, action)
        return forced if forced is not None else (state, ())

    def play_hand(self, h: int, hand: HandRecord, state: GameState, shaped: list[bool]) -> HandEnded | None:
        """Every action and checkpoint of one hand; the hand's end, if it ended."""
        claims = list(hand.checkpoints)
        actions = hand.actions
        count = len(actions)
        ended: HandEnded | None = None
        hand_over = Phase.HAND_OVER
        for i in range(count + 1):
            while claims and claims[0].after == i:
                state = self.at_checkpoint(h, claims.pop(0), state)
                if self.stopped:
                    return None
            if i == count:
                break
            if state.phase == hand_over:
                self.report.problems.append(f"hand {h}: {count - i} action(s) after the hand ended")
                break
            state, events = self.judge(h, i, actions[i], state, shaped[i])
            if self.stopped:
                return None
            for event in events:
                if isinstance(event, HandEnded):
                    ended = event
                    break
        return ended

    def end_hand(self, h: int, hand: HandRecord, ended: HandEnded) -> None:
        """Score the hand, compare the claims, and (judge_all) go on from the record's totals when they differ."""
        scores = tuple(s.total for s in ended.scores)
        self.standing = after_hand(self.rules, self.standing, scores)
        self.report.hands.append(HandReport(h, ended.reason, ended.scores, self.standing.totals))
        self._compare(h, HAND_SCORE, hand.claimed_scores, scores)
        self._compare(h, RUNNING_TOTAL, hand.claimed_totals, self.standing.totals)
        if hand.claimed_totals and (self.uncertain or hand.claimed_totals != self.standing.totals) and self.judge_all:
            restart = Standing(start_standing(self.rules).totals, hands_played=h)
            self.standing = after_hand(self.rules, restart, hand.claimed_totals)
            self.uncertain = False

    def _compare(self, h: int, what: str, claimed: tuple[int, ...], computed: tuple[int, ...]) -> None:
        for side, (c, ours) in enumerate(zip(claimed, computed, strict=False)):
            if c != ours:
                self.report.mismatches.append(Mismatch(h, side, what, c, ours))
                self.disagree((h, -1, side), what, f"side {side}", c, ours)

    def end_game(self, record: GameRecord) -> None:
        """The claimed winner against the game's end."""
        standing = self.standing
        if record.claimed_winner is None:
            return
        if not standing.over:
            self.report.problems.append(f"the record claims side {record.claimed_winner} won, but the game is not over")
        elif standing.winner != record.claimed_winner:
            winner = standing.winner or 0
            self.report.mismatches.append(
                Mismatch(len(self.report.hands) - 1, record.claimed_winner, WINNER, record.claimed_winner, winner)
            )
            where = (len(self.report.hands) - 1, -1, record.claimed_winner)
            self.disagree(where, WINNER, "winner", record.claimed_winner, winner)


def replay(
    rules: CompiledRules,
    record: GameRecord,
    *,
    judge_all: bool = False,
    keep_actions: bool = True,
    validate: bool = False,
    progress: Callable[[int], None] | None = None,
    checkpoint: Checkpoint | None = None,
) -> ReplayReport:
    """Replay `record` under `rules`.

    By default the replay stops at the first illegal action or differing
    checkpoint. With `judge_all` it judges every action: after an illegal one
    it goes on from the record's next checkpoint, or from the action applied as
    far as its cards allow, marking what follows uncertain until a complete
    checkpoint (or the record's totals after the hand) confirms the state.
    With `validate`, every state is also checked for consistency before its
    action is judged (slower, for tests). `checkpoint` is called before each
    hand and each action; what it raises (a WorkStopped past a deadline, say)
    ends the replay.
    """
    shaped = shaped_actions(rules, record)
    run = _Run(
        rules,
        judge_all=judge_all,
        keep_actions=keep_actions,
        validate=validate,
        progress=progress,
        checkpoint=checkpoint,
    )
    dealer = record.first_dealer
    for h, hand in enumerate(record.hands):
        if h > 0:
            dealer = (dealer + 1) % rules.seats
        if hand.dealer is not None:
            dealer = hand.dealer
        if run.standing.over:
            run.report.problems.append(f"hand {h}: the game was already over after hand {h - 1}")
            break
        if checkpoint is not None:
            checkpoint()
        run.begin_totals(h, hand)
        state = hand.start
        if state is None:
            order = deck_order(rules, hand.deck, f"record.hands[{h}].deck")
            state = deal(rules, order, dealer=dealer, running_totals=run.standing.totals, hand_number=h + 1)
        ended = run.play_hand(h, hand, state, shaped[h])
        if run.stopped:
            run.report.standing = run.standing
            return run.report
        if ended is None:
            run.report.problems.append(f"hand {h}: the record stops before the hand ends")
            break
        run.end_hand(h, hand, ended)
    run.report.standing = run.standing
    run.end_game(record)
    return run.report
