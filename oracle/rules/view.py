"""Judging from one player's view: the view checked against the deck, the hidden cards placed anywhere they could
be, and what the view cannot decide named as unknown instead of guessed.

The rules read, of the cards a view hides, only how many there are: the legality of an action of the player to
move depends on that player's hand, the table, the pile and the stock's count (draw.py, play.py, going_out.py read
nothing else). So a view is judged on a completed state, the hidden cards dealt into the other hands and the
stock in deck order (red threes to the stock, the only place one can hide); what a verdict or a score says about
hidden cards (which cards a draw brings, the cards left in other hands at the hand's end) is withheld and listed
as unknown.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from oracle.model.actions import Action, AnswerPartner
from oracle.model.cards import copies_allowed, deck, format_card, is_valid
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.events import CardsDrawn, Event, HandEnded, RedThreeLaid
from oracle.model.score import ScoreItem, SideScore
from oracle.model.state import GameState, Phase, SeatState
from oracle.model.view import PlayerView, SeatView, Unknown
from oracle.rules.facts import end_table, seats_playing_for
from oracle.rules.referee import Verdict, check_action, validate_action_in
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import InvalidStateError, validate_state
from oracle.ruleset.compiled import CompiledRules


def _visible(view: PlayerView) -> list[int]:
    cards = list(view.hand) + list(view.discard_pile)
    for side in view.sides:
        cards += [c for meld in side.melds for c in meld] + list(side.red_threes)
    return cards


def view_problems(rules: CompiledRules, view: PlayerView, prefix: str = "view") -> list[FieldProblem]:
    """What makes a view impossible under `rules`: seats and sides, the viewer's count, cards the deck does not
    hold, counts that do not add up to the deck."""
    problems: list[FieldProblem] = []

    def add(path: str, what: str) -> None:
        problems.append(FieldProblem(f"{prefix}.{path}" if path else prefix, what))

    if len(view.seats) != rules.seats:
        add("seats", f"has {len(view.seats)} entries; rule set '{rules.id}' has {rules.seats} seats")
    if len(view.sides) != rules.sides:
        add("sides", f"has {len(view.sides)} entries; rule set '{rules.id}' has {rules.sides} sides")
    if not 0 <= view.seat < rules.seats:
        add("seat", f"{view.seat} is not a seat (0..{rules.seats - 1})")
    elif len(view.seats) == rules.seats and view.seats[view.seat].hand_count != len(view.hand):
        count = view.seats[view.seat].hand_count
        add(f"seats[{view.seat}].hand_count", f"is {count} but the viewer's hand holds {len(view.hand)} cards")
    for i, seat in enumerate(view.seats):
        if seat.hand_count < 0:
            add(f"seats[{i}].hand_count", f"{seat.hand_count} is negative")
        if seat.foot_count < 0:
            add(f"seats[{i}].foot_count", f"{seat.foot_count} is negative")
    if view.stock_count < 0:
        add("stock_count", f"{view.stock_count} is negative")
    visible = _visible(view)
    bad = sorted({c for c in visible if not is_valid(c)})
    if bad:
        add("", f"{', '.join(map(str, bad))} {'is not a card' if len(bad) == 1 else 'are not cards'}")
        return problems
    packs, jokers = rules.deck.packs, rules.deck.jokers
    for card, have in sorted(Counter(visible).items()):
        if have > copies_allowed(card, packs, jokers):
            add("", f"{have} {format_card(card)} in view; the deck holds {copies_allowed(card, packs, jokers)}")
    others = sum(s.hand_count for i, s in enumerate(view.seats) if i != view.seat)
    feet = sum(s.foot_count for s in view.seats)
    total = len(visible) + others + feet + view.stock_count
    if total != rules.deck_size and not problems:
        in_feet = f" + {feet} in the feet" if feet else ""
        add(
            "",
            f"the cards do not add up to the deck: {len(visible)} in view + {others} in the other hands{in_feet}"
            f" + {view.stock_count} in the stock = {total}, not {rules.deck_size}",
        )
    return problems


_SEAT_HAND = re.compile(r"^(?P<prefix>\w+)\.seats\[(?P<seat>\d+)\]\.hand")


def _view_path(view: PlayerView, path: str) -> str:
    """A completed state's problem path as the view's field ("view.stock" -> "view.stock_count", ...)."""
    path = re.sub(r"^(\w+)\.stock\b", r"\1.stock_count", path)
    match = _SEAT_HAND.match(path)
    if match:
        seat = int(match.group("seat"))
        field = "hand" if seat == view.seat else f"seats[{seat}].hand_count"
        path = f"{match.group('prefix')}.{field}{path[match.end() :]}"
    return path


def complete(rules: CompiledRules, view: PlayerView, prefix: str = "view") -> GameState:
    """A state the view could be of: InvalidInputError for an impossible view, InvalidStateError for one that
    contradicts the rules (paths under `prefix`)."""
    problems = view_problems(rules, view, prefix)
    if problems:
        raise InvalidInputError(problems)
    hidden = Counter(deck(rules.deck.packs, rules.deck.jokers))
    hidden.subtract(_visible(view))
    bonus = rules.bonus_threes  # red threes (and black ones where they are bonus cards) are never held
    order = sorted(hidden.elements(), key=bonus.__contains__, reverse=True)  # bonus threes first: to the stock
    stock, rest = order[: view.stock_count], order[view.stock_count :]
    if any(c in bonus for c in rest):
        what = "red threes" if len(bonus) == 2 else "threes"
        raise InvalidStateError(
            [FieldProblem(f"{prefix}.stock_count", f"more {what} are unseen than the stock could hold")]
        )
    seats = []
    for i, seat in enumerate(view.seats):
        if i == view.seat:
            hand = view.hand
        else:
            hand, rest = tuple(rest[: seat.hand_count]), rest[seat.hand_count :]
        foot, rest = tuple(rest[: seat.foot_count]), rest[seat.foot_count :]  # every foot is hidden
        seats.append(SeatState(tuple(hand), seat.melded_before, foot))
    state = GameState(
        tuple(seats),
        view.sides,
        tuple(stock),
        view.discard_pile,
        view.pile_upcards,
        view.seat_to_move,
        view.phase,
        view.turn,
        view.hand_end,
        view.went_out_seat,
        view.went_out_concealed,
        view.side_of_seat,
        view.hand_number,
    )
    state_problems = validate_state(rules, state, prefix)
    if state_problems:
        raise InvalidStateError([FieldProblem(_view_path(view, p.field), p.description) for p in state_problems])
    return state


def view_of(state: GameState, seat: int) -> PlayerView:
    """What `seat` sees of a state."""
    return PlayerView(
        seat,
        state.seats[seat].hand,
        tuple(SeatView(len(s.hand), s.melded_before, len(s.foot)) for s in state.seats),
        state.sides,
        len(state.stock),
        state.discard_pile,
        state.pile_upcards,
        state.seat_to_move,
        state.phase,
        state.turn,
        state.hand_end,
        state.went_out_seat,
        state.went_out_concealed,
        state.side_of_seat,
        state.hand_number,
    )


def acting_seat_seen(view: PlayerView, action: Action | None = None) -> bool:
    """Whether the view shows what the rules read to judge `action` (None: every action of the phase): the
    mover's hand; an answer to "may I go out?" reads no hand."""
    if view.seat == view.seat_to_move:
        return True
    return isinstance(action, AnswerPartner) if action is not None else view.phase == Phase.AWAIT_ANSWER


@dataclass(frozen=True, slots=True)
class ViewVerdict:
    """A verdict from a view: legal and violations when judged, events and the viewer's next view when known."""

    judged: bool  #: legal and violations are the rules' answer (False: the acting hand is hidden)
    legal: bool
    verdict: Verdict | None  #: the verdict on the completed state (violations; events only when known)
    events_known: bool
    next_view: PlayerView | None  #: the viewer's view after a legal action, when no hidden card decides it
    unknowns: tuple[Unknown, ...]

    def alone(self) -> ViewVerdict:
        """The verdict without the next view, nor a word on the next state (CheckAction's verdict_only)."""
        kept = tuple(u for u in self.unknowns if u.field != "next_state")
        verdict = None if self.verdict is None else self.verdict.alone()
        return ViewVerdict(self.judged, self.legal, verdict, self.events_known, None, kept)


def _hidden_in(events: tuple[Event, ...]) -> str:
    """Why events depend on hidden cards ('' when they do not)."""
    for event in events:
        if isinstance(event, CardsDrawn) or (isinstance(event, RedThreeLaid) and event.replaced):
            return "the cards drawn from the stock are hidden"
        if isinstance(event, HandEnded):
            return "the hand's end scores the cards left in the other hands, which are hidden"
    return ""


def judge_view(rules: CompiledRules, view: PlayerView, action: Action, *, runs: bool | None = None) -> ViewVerdict:
    """Judge `action` from a view: legality when the view shows the hand it depends on; events and the next view
    when no hidden card decides them; the rest listed as unknown. `runs` as for check_action."""
    state = complete(rules, view)
    shaped_as_runs = rules.runs.min_size > 0 if runs is None else runs
    if not acting_seat_seen(view, action):
        validate_action_in(state, action, runs=shaped_as_runs)  # malformed whatever the hidden cards: refused
        why = f"the action is seat {view.seat_to_move}'s and this view (seat {view.seat}) does not show that hand"
        return ViewVerdict(
            False, False, None, False, None, (Unknown("legal", why), Unknown("events", why), Unknown("next_state", why))
        )
    verdict = check_action(rules, state, action, validate=False, runs=shaped_as_runs)
    if not verdict.legal:
        return ViewVerdict(True, False, verdict, True, None, ())
    hidden = _hidden_in(verdict.events)
    mover = view.seat_to_move
    if (
        not hidden
        and verdict.next_state is not None
        and state.seats[mover].foot != verdict.next_state.seats[mover].foot
    ):
        hidden = "the foot taken up is hidden"
    if hidden:
        return ViewVerdict(True, True, verdict, False, None, (Unknown("events", hidden), Unknown("next_state", hidden)))
    assert verdict.next_state is not None
    why = "a view answers with the viewer's next view (next_view), not the full state"
    return ViewVerdict(True, True, verdict, True, view_of(verdict.next_state, view.seat), (Unknown("next_state", why),))


def score_view(rules: CompiledRules, view: PlayerView) -> tuple[list[SideScore], list[Unknown]]:
    """The scores of a finished hand from a view: every line but the cards left in hidden hands (their sides'
    totals are the sums of the known lines, and listed as unknown)."""
    if view.phase != Phase.HAND_OVER:
        raise InvalidInputError([FieldProblem("view.phase", f"is {view.phase.name}: a hand is scored once it is over")])
    state = complete(rules, view)
    scores = score_hand(rules, end_table(rules, state))
    out: list[SideScore] = []
    unknowns: list[Unknown] = []
    for index, score in enumerate(scores):
        formed = state.side_of_seat
        seats = iter(seats_playing_for(rules, state, formed[index]) if formed else rules.seats_of_side(index))
        lines = []
        hidden: list[str] = []
        hidden_owners: list[str] = []  # the line prefixes ("player 2: ") of the hands the view hides
        for line in score.lines:
            if line.item == ScoreItem.CARDS_IN_HAND:
                seat = next(seats)
                feet = view.seats[seat].foot_count if rules.foot.unplayed_counts else 0  # every foot is hidden
                count = view.seats[seat].hand_count + feet
                if (seat != view.seat and count) or feet:
                    hidden.append(f"seat {seat}'s {count} cards")
                    hidden_owners.append(line.detail.split(":", 1)[0] + ":")
                    continue
            lines.append(line)
        # a rank held at the end (melds.rank_rules) is known only for the hands the view shows
        lines = [
            line
            for line in lines
            if line.item != ScoreItem.HELD_RANK or not line.detail.startswith(tuple(hidden_owners))
        ]
        out.append(SideScore(tuple(lines)))
        if hidden:
            reason = f"the known lines only: {' and '.join(hidden)} left in hand are hidden"
            unknowns.append(Unknown(f"sides[{index}].total", reason))
    return out, unknowns


__all__ = ["ViewVerdict", "acting_seat_seen", "complete", "judge_view", "score_view", "view_of"]
