"""What every action handler shares: the judging context, the outcome type, and the state changes they reuse."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from oracle.model.cards import format_cards, is_red_three
from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, RedThreeLaid
from oracle.model.state import Cards, GameState, HandEnd, PartnerAnswer, Phase, SeatState, SideState, TurnState
from oracle.rules.facts import end_table, side_of
from oracle.rules.melds import meld_shape
from oracle.rules.scoring import score_hand
from oracle.rules.violations import Violation, violation
from oracle.ruleset.compiled import CompiledRules


@dataclass
class Outcome:
    """A handler's answer: the violations, or (when there are none) the next state and what happened."""

    violations: list[Violation] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    next_state: GameState | None = None


@dataclass(frozen=True, slots=True)
class Ctx:
    """The rules, the state and the facts about the player to move that every check needs."""

    rules: CompiledRules
    state: GameState
    seat: int
    side_index: int

    @property
    def side(self) -> SideState:
        """The mover's side."""
        return self.state.sides[self.side_index]

    @property
    def hand(self) -> Cards:
        """The mover's hand."""
        return self.state.seats[self.seat].hand

    def fail(self, code: str, explanation: str, field_path: str | None = None) -> Violation:
        """A violation of `code` under these rules."""
        return violation(self.rules, code, explanation, field_path)


def make_ctx(rules: CompiledRules, state: GameState) -> Ctx:
    """The context for judging an action of the player to move."""
    return Ctx(rules, state, state.seat_to_move, side_of(rules, state.seat_to_move))


def missing_from_hand(hand: Cards, cards: Iterable[int]) -> list[int]:
    """The cards (with multiplicity) that the hand does not hold."""
    available = Counter(hand)
    missing = []
    for card in cards:
        if available[card] > 0:
            available[card] -= 1
        else:
            missing.append(card)
    return missing


def check_in_hand(ctx: Ctx, cards: Iterable[int], out: list[Violation]) -> bool:
    """Add CARDS_NOT_IN_HAND if the mover lacks any of `cards`; True when all are held."""
    missing = missing_from_hand(ctx.hand, cards)
    if missing:
        out.append(
            ctx.fail(
                "CARDS_NOT_IN_HAND",
                f"seat {ctx.seat} does not hold {format_cards(missing)}"
                f" (hand: {format_cards(sorted(ctx.hand)) or 'empty'})",
            )
        )
    return not missing


def remove_cards(hand: Cards, cards: Iterable[int]) -> Cards:
    """The hand without `cards` (each removed once; the caller has checked they are held)."""
    remaining = list(hand)
    for card in cards:
        remaining.remove(card)
    return tuple(remaining)


def with_seat(state: GameState, seat: int, seat_state: SeatState) -> tuple[SeatState, ...]:
    """The seats with one replaced."""
    return (*state.seats[:seat], seat_state, *state.seats[seat + 1 :])


def with_side(state: GameState, index: int, side: SideState) -> tuple[SideState, ...]:
    """The sides with one replaced."""
    return (*state.sides[:index], side, *state.sides[index + 1 :])


@dataclass
class Drawn:
    """The result of drawing from the stock with red threes laid and replaced."""

    hand: Cards
    stock: Cards
    red_threes: Cards
    events: list[Event]
    last_card_red_three: bool  #: the card that emptied the stock was a red three


def draw_from_stock(rules: CompiledRules, seat: int, hand: Cards, stock: Cards, count: int) -> Drawn:
    """Draw `count` cards (top first); each red three is laid and, per the rule set, replaced from the stock."""
    stock_list = list(stock)
    new_hand = list(hand)
    reds: list[int] = []
    events: list[Event] = []
    drawn: list[int] = []
    last_red = False
    pending = count
    while pending and stock_list:
        card = stock_list.pop()
        pending -= 1
        emptied = not stock_list
        if is_red_three(card):
            replaced = rules.spec.threes.red_three_replaced and bool(stock_list)
            reds.append(card)
            events.append(RedThreeLaid(seat, card, replaced))
            if replaced:
                pending += 1
            last_red = emptied
        else:
            drawn.append(card)
            new_hand.append(card)
            last_red = False
    if drawn:
        events.insert(0, CardsDrawn(seat, tuple(drawn)))
    return Drawn(tuple(new_hand), tuple(stock_list), tuple(reds), events, last_red)


def canasta_events(side_index: int, melds: list[Cards], indexes: list[int]) -> list[Event]:
    """CanastaMade events for the melds at `indexes`."""
    return [CanastaMade(side_index, melds[i], meld_shape(melds[i]).wilds == 0) for i in indexes]


def end_hand(
    rules: CompiledRules, state: GameState, reason: HandEnd, *, went_out_seat: int = 0, concealed: bool = False
) -> tuple[GameState, HandEnded]:
    """The state with the hand over, and the HandEnded event with the scores."""
    over = replace(
        state,
        phase=Phase.HAND_OVER,
        turn=TurnState(),
        hand_end=reason,
        went_out_seat=went_out_seat if reason == HandEnd.WENT_OUT else 0,
        went_out_concealed=concealed and reason == HandEnd.WENT_OUT,
    )
    table = end_table(rules, over)
    return over, HandEnded(reason, table, tuple(score_hand(rules, table)))


def check_keep(ctx: Ctx, hand_after: int, canastas: int, out: list[Violation]) -> None:
    """The keep-cards rule when the side lacks its canastas."""
    keep = ctx.rules.spec.going_out.min_hand_after_meld_without_canastas
    required = ctx.rules.spec.going_out.canastas_required
    if canastas < required and hand_after < keep:
        out.append(
            ctx.fail(
                "MUST_KEEP_CARDS",
                f"the side has {canastas} of the {required} canasta(s) needed to go"
                f" out, so at least {keep} cards must stay in hand after melding, not {hand_after}",
            )
        )


def going_out_checks(ctx: Ctx, canastas: int, out: list[Violation]) -> None:
    """Rules for a player about to have no cards: canastas, and the partner's answer."""
    required = ctx.rules.spec.going_out.canastas_required
    if canastas < required:
        out.append(
            ctx.fail("GO_OUT_WITHOUT_CANASTAS", f"going out needs {required} canasta(s); the side has {canastas}")
        )
    if ctx.state.turn.partner_answer == PartnerAnswer.NO:
        out.append(ctx.fail("GO_OUT_PARTNER_SAID_NO", "the partner answered no to 'may I go out?' this turn"))


def is_concealed(ctx: Ctx, turn: TurnState) -> bool:
    """Going out now is concealed: nothing melded before this turn, nothing added to older melds, a canasta made."""
    return not ctx.state.seats[ctx.seat].melded_before and not turn.added_to_existing and turn.made_canasta


def finish_melding(ctx: Ctx, next_state: GameState, turn: TurnState, events: list[Event]) -> Outcome:
    """The outcome of a legal meld or pile take: the hand ends if the mover has no card left (went out)."""
    if next_state.seats[ctx.seat].hand:
        return Outcome(events=events, next_state=next_state)
    over, ended = end_hand(
        ctx.rules, next_state, HandEnd.WENT_OUT, went_out_seat=ctx.seat, concealed=is_concealed(ctx, turn)
    )
    return Outcome(events=[*events, ended], next_state=over)
