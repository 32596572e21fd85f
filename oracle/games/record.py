"""A game record as domain values (hands, their decks or explicit deals, actions, checkpoints, claims) and its
shape check."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.games.claims import ClaimedState, check_claim_shape
from oracle.games.match import DeckSource
from oracle.model.actions import Action, AnswerPartner, AskPartner, Discard, Draw, Finish, Meld, PickUpPile, TakePile
from oracle.model.cards import is_valid
from oracle.model.errors import FieldProblem, InvalidInputError
from oracle.model.state import GameState, Phase
from oracle.rules.referee import validate_action_shape
from oracle.rules.state_check import validate_state
from oracle.ruleset.compiled import CompiledRules


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record."""

    deck: DeckSource
    actions: tuple[Action, ...]
    claimed_scores: tuple[int, ...] = ()
    claimed_totals: tuple[int, ...] = ()
    dealer: int | None = None  #: None: the dealer of the hand before, plus one
    starting_totals: tuple[int, ...] | None = None  #: None: the totals after the hands before
    start: GameState | None = None  #: an explicit deal (or a later state): the hand starts here, not from `deck`
    checkpoints: tuple[ClaimedState, ...] = ()  #: in the order of their `after`


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game."""

    rule_set_id: str
    first_dealer: int
    hands: tuple[HandRecord, ...]
    claimed_winner: int | None = None


_SHAPELESS = frozenset({Draw, PickUpPile, AskPartner, AnswerPartner, Finish})
"""Actions the shape layer has nothing to check in (validate_action_shape passes them whatever their fields)."""


def _nothing_to_shape(action: Action) -> bool:
    """Whether validate_action_shape surely finds nothing in `action`: an action without cards, a discard of a card,
    a pile taken with cards and no melds (what it checks of these: that each card is one)."""
    if type(action) in _SHAPELESS:
        return True
    if isinstance(action, Discard):
        return is_valid(action.card)
    if isinstance(action, TakePile) and not action.melds:
        return all(map(is_valid, action.with_cards)) and not (action.onto and action.new)
    return False


def _action_problems(action: Action, path: str, *, two_step: bool, runs: bool) -> tuple[list[FieldProblem], bool]:
    """What makes `action` malformed whatever the state, and whether it is well shaped as a whole (the shape layer
    passes it with no top-card group: the referee's own shape check of it would find nothing).

    A meld that may be the second step of a two-step take (`two_step`: a pick-up-pile came before it in the hand)
    is judged as the take when one of its groups holds the pile's top card, which only the replay knows; so it is
    refused here only when no choice of that group would shape it (the replay checks the group that does hold it,
    as the referee does)."""
    if _nothing_to_shape(action):
        return [], True
    tops: list[int | None] = [None]
    if two_step and isinstance(action, Meld):
        tops += range(len(action.groups))
    first: list[FieldProblem] = []
    for top_group in tops:
        try:
            validate_action_shape(action, path, top_group=top_group, runs=runs)
        except InvalidInputError as exc:
            first = first or exc.problems
            continue
        return [], top_group is None
    return first, False


def _hand_problems(rules: CompiledRules, h: int, hand: HandRecord, shaped: list[bool]) -> list[FieldProblem]:
    """The hand's problems; `shaped` gets, per action, whether it is well shaped as a whole."""
    problems: list[FieldProblem] = []
    path = f"record.hands[{h}]"
    for name, claims in (
        ("claimed_scores", hand.claimed_scores),
        ("claimed_totals", hand.claimed_totals),
        ("starting_totals", hand.starting_totals or ()),
    ):
        if claims and len(claims) != rules.sides:
            problems.append(
                FieldProblem(f"{path}.{name}", f"has {len(claims)} entries; the rule set has {rules.sides} sides")
            )
    if hand.dealer is not None and not 0 <= hand.dealer < rules.seats:
        problems.append(FieldProblem(f"{path}.dealer", f"{hand.dealer} is not a seat (0..{rules.seats - 1})"))
    if hand.start is not None:
        problems.extend(validate_state(rules, hand.start, f"{path}.start"))
    if hand.start is not None and hand.starting_totals is not None:
        given = tuple(side.running_total for side in hand.start.sides)
        if given != hand.starting_totals:
            problems.append(
                FieldProblem(
                    f"{path}.starting_totals",
                    f"{list(hand.starting_totals)} differ from the running totals of start {list(given)}",
                )
            )
    two_step = hand.start is not None and hand.start.phase == Phase.MELD_PILE_TOP
    for i, action in enumerate(hand.actions):
        two_step = two_step or isinstance(action, PickUpPile)
        if _nothing_to_shape(action):
            shaped.append(True)  # the common case: no path written, no shape layer called
            continue
        found, whole = _action_problems(action, f"{path}.actions[{i}]", two_step=two_step, runs=rules.runs.min_size > 0)
        problems.extend(found)
        shaped.append(whole)
    last = 0
    for k, claim in enumerate(hand.checkpoints):
        problems.extend(check_claim_shape(rules, claim, len(hand.actions), f"{path}.checkpoints[{k}]"))
        if claim.after < last:
            problems.append(
                FieldProblem(f"{path}.checkpoints[{k}].after", f"{claim.after} comes before the checkpoint above")
            )
        last = max(last, claim.after)
    return problems


def check_record_shape(rules: CompiledRules, record: GameRecord) -> None:
    """INVALID_ARGUMENT for what no replay can use: a bad dealer, malformed actions, claims of the wrong length,
    checkpoints naming seats or sides that do not exist or out of order."""
    shaped_actions(rules, record)


def shaped_actions(rules: CompiledRules, record: GameRecord) -> list[list[bool]]:
    """check_record_shape, and per hand, per action, whether the action is well shaped as a whole (a meld that is
    well shaped only as the second step of a two-step take is not): the referee's shape check of such an action
    finds nothing, so a replay need not repeat it."""
    problems: list[FieldProblem] = []
    shaped: list[list[bool]] = []
    if not 0 <= record.first_dealer < rules.seats:
        problems.append(FieldProblem("record.first_dealer", f"{record.first_dealer} is not a seat"))
    for h, hand in enumerate(record.hands):
        shaped.append([])
        problems.extend(_hand_problems(rules, h, hand, shaped[-1]))
    if record.claimed_winner is not None and not 0 <= record.claimed_winner < rules.sides:
        problems.append(FieldProblem("record.claimed_winner", f"{record.claimed_winner} is not a side"))
    if problems:
        raise InvalidInputError(problems)
    return shaped
