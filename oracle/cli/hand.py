"""CLI verbs on one hand or one game state: score, minimum, check and validate (exit 1: illegal or inconsistent)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from oracle.cli.support import (
    EXIT_FAILED,
    CliError,
    clean_errors,
    load_rule_set,
    parse_message,
    print_json,
    read_message,
    read_text,
    specs_option,
)

if TYPE_CHECKING:
    from oracle.model.actions import Action
    from oracle.model.events import Event
    from oracle.model.state import GameState
    from oracle.model.view import PlayerView
    from oracle.rules.referee import Verdict
    from oracle.rules.view import ViewVerdict
    from oracle.ruleset.loader import LoadedRuleSet

# Each verb imports the engine it needs when it runs (see oracle.cli.main): `minimum` never loads the referee.


@click.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the file's rule_set_id).")
@click.argument("table_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the ScoreHandResponse as proto3 JSON.")
@specs_option
@clean_errors
def score(rule_set_id: str | None, table_file: Path, as_json: bool, specs: Path | None) -> None:
    """Score a finished hand (TABLE_FILE: a HandTableNotation, or a GameStateNotation as it stands, in .json or
    .textproto). A state's hands, and a foot not yet taken up where foot.unplayed_counts, count as cards held."""
    from oracle.api.v1 import notation_pb2
    from oracle.cli.state_words import score_state
    from oracle.cli.words import item_words
    from oracle.rules.scoring import score_hand
    from oracle.service.convert_table import scores_to_proto, table_from_notation

    text = read_text(table_file)
    try:
        table_msg = parse_message(table_file, text, notation_pb2.HandTableNotation())
    except CliError as table_error:
        try:
            parse_message(table_file, text, notation_pb2.GameStateNotation())
        except CliError:
            raise CliError(
                f"{table_error.format_message()} (the file is neither a HandTableNotation nor a GameStateNotation)"
            ) from None
        loaded, state = _load_state(table_file, rule_set_id, specs)
        scores, names, formed = score_state(loaded, state)
    else:
        assert isinstance(table_msg, notation_pb2.HandTableNotation)
        chosen = rule_set_id or table_msg.rule_set_id
        if not chosen:
            raise CliError(f"{table_file}: no rule set: pass --rules ID or set rule_set_id in the file")
        loaded = load_rule_set(specs, chosen)
        scores = score_hand(loaded.rules, table_from_notation(table_msg))
        names = [side.name or f"side {i}" for i, side in enumerate(table_msg.sides)]
        formed = tuple(table_msg.side_of_seat)
    if as_json:
        print_json(scores_to_proto(scores))
        return
    for i, (name, side_score) in enumerate(zip(names, scores, strict=True)):
        click.echo(f"{name}{seat_note(formed, i)}")
        for line in side_score.lines:
            label = item_words(line.item)
            click.echo(f"  {line.points:>6}  {label:<28} {line.detail}")
        click.echo(f"  {side_score.total:>6}  total")
    click.echo("  ".join(f"{name}: {sc.total}" for name, sc in zip(names, scores, strict=True)))


def seat_note(side_of_seat: tuple[int, ...], seat: int) -> str:
    """After sides formed (players.side_formation LONE_HAND): " (seat N alone)" or " (seat N, partner of seat M)" for
    a seat's score column; empty when sides are fixed."""
    if not side_of_seat or seat >= len(side_of_seat):
        return ""
    partners = [s for s, entry in enumerate(side_of_seat) if entry == side_of_seat[seat] and s != seat]
    if not partners:
        return f" (seat {seat} alone)"
    return f" (seat {seat}, partner of seat {' and '.join(str(s) for s in partners)})"


def _load_state(state_file: Path, rule_set_id: str | None, specs: Path | None) -> tuple[LoadedRuleSet, GameState]:
    """The state of a GameStateNotation file, or of a DealHand answer (DealHandResponse) or a GameState message as
    the API writes them (card enums), e.g. grpcurl's output; those name no rule set, so --rules is needed."""
    from oracle.api.v1 import game_pb2, notation_pb2, oracle_pb2
    from oracle.service.convert_game import state_from_notation, state_from_proto

    text = read_text(state_file)
    try:
        state_msg = parse_message(state_file, text, notation_pb2.GameStateNotation())
    except CliError as notation_error:
        for kind, message in (
            ("a DealHand answer", oracle_pb2.DealHandResponse()),
            ("a GameState", game_pb2.GameState()),
        ):
            try:
                parsed = parse_message(state_file, text, message)
            except CliError:
                continue
            if not rule_set_id:
                raise CliError(f"{state_file}: {kind} names no rule set: pass --rules ID") from None
            state = parsed.state if isinstance(parsed, oracle_pb2.DealHandResponse) else parsed
            assert isinstance(state, game_pb2.GameState)
            loaded = load_rule_set(specs, rule_set_id)
            return loaded, state_from_proto(state, "state")
        raise CliError(
            f"{notation_error.format_message()} (the file is neither a GameStateNotation nor, with card enums,"
            " a DealHand answer or a GameState)"
        ) from None
    assert isinstance(state_msg, notation_pb2.GameStateNotation)
    chosen = rule_set_id or state_msg.rule_set_id
    if not chosen:
        raise CliError(f"{state_file}: no rule set: pass --rules ID or set rule_set_id in the file")
    loaded = load_rule_set(specs, chosen)
    return loaded, state_from_notation(state_msg, loaded.rules)


def load_view(view_file: Path, rule_set_id: str | None, specs: Path | None) -> tuple[LoadedRuleSet, PlayerView]:
    """The player's view of a PlayerView file (proto3 JSON or text format, card enums as the API writes them); a
    view names no rule set, so --rules is needed."""
    from oracle.api.v1 import game_pb2
    from oracle.service.convert_view import view_from_proto

    message = read_message(view_file, game_pb2.PlayerView())
    assert isinstance(message, game_pb2.PlayerView)
    if not rule_set_id:
        raise CliError(f"{view_file}: a PlayerView names no rule set: pass --rules ID")
    return load_rule_set(specs, rule_set_id), view_from_proto(message, "view")


def state_or_view(state_file: Path | None, view_file: Path | None) -> None:
    """Refuse a command line that gives both --state and --view, or neither."""
    if (state_file is None) == (view_file is None):
        raise CliError("pass --state FILE or --view FILE" + (", not both" if state_file else ""))


def parse_action_option(action_text: str) -> Action:
    """The --action text as an action (a parse error names --action and the position)."""
    from oracle.model.actions import parse_action
    from oracle.model.cards import NotationError

    try:
        return parse_action(action_text)
    except NotationError as exc:
        raise CliError(f"action: {exc}") from None


STATE_HELP = "A GameStateNotation file (.json or .textproto), or a DealHand answer or GameState as the API writes it."
VIEW_HELP = (
    "Instead of --state: a PlayerView (one player's view: .json or .textproto, cards as the API writes them, e.g."
    " CARD_9H); needs --rules. What the view cannot decide is printed as unknown."
)


@click.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the state file's rule_set_id).")
@click.option("--state", "state_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), help=STATE_HELP)
@click.option("--view", "view_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), help=VIEW_HELP)
@click.option("--action", "action_text", required=True, help="The action, e.g. 'take-pile with 9H 9D'.")
@click.option("--json", "as_json", is_flag=True, help="Print the CheckActionResponse as proto3 JSON.")
@specs_option
@clean_errors
def check(
    rule_set_id: str | None,
    state_file: Path | None,
    view_file: Path | None,
    action_text: str,
    as_json: bool,
    specs: Path | None,
) -> None:
    """Judge one action of the player to move. From a state or a player's view (--view). Exit 0 legal, 1 illegal
    (or, from a view that hides the acting hand, not judged), 2 error."""
    from oracle.model.actions import format_action
    from oracle.rules.referee import check_action
    from oracle.service.convert_game import verdict_to_proto

    state_or_view(state_file, view_file)
    if view_file is not None:
        _check_view(view_file, rule_set_id, specs, action_text, as_json)
        return
    assert state_file is not None
    loaded, state = _load_state(state_file, rule_set_id, specs)
    action = parse_action_option(action_text)
    verdict = check_action(loaded.rules, state, action)
    if as_json:
        response = verdict_to_proto(verdict)
        response.notation = format_action(action)
        print_json(response)
    else:
        from oracle.cli.state_words import feet_taken_up

        click.echo("\n".join([*describe_verdict(verdict, action_text), *feet_taken_up(state, verdict.next_state)]))
    if not verdict.legal:
        raise SystemExit(EXIT_FAILED)


def _check_view(view_file: Path, rule_set_id: str | None, specs: Path | None, action_text: str, as_json: bool) -> None:
    """`check --view`: the verdict from a player's view, with what the view cannot decide."""
    from oracle.model.actions import format_action
    from oracle.rules.view import judge_view
    from oracle.service.convert_view import view_verdict_to_proto
    from oracle.service.limits import DEFAULT_LIMITS

    loaded, view = load_view(view_file, rule_set_id, specs)
    action = parse_action_option(action_text)
    answer = judge_view(loaded.rules, view, action)
    if as_json:
        response = view_verdict_to_proto(answer, DEFAULT_LIMITS.max_violations)
        response.notation = format_action(action)
        print_json(response)
    else:
        click.echo("\n".join(describe_view_verdict(answer, action_text)))
    if not answer.legal:
        raise SystemExit(EXIT_FAILED)


def describe_view_verdict(answer: ViewVerdict, action_text: str) -> list[str]:
    """The lines `check --view` prints: the verdict as far as the view shows it, then each unknown."""
    if answer.verdict is None:
        lines = [f"unknown: {action_text}"]
    else:
        shown = answer.verdict if answer.events_known else replace(answer.verdict, events=())
        lines = describe_verdict(replace(shown, next_state=None), action_text)
    if answer.next_view is not None:
        nxt = answer.next_view
        lines.append(
            f"  next (seat {nxt.seat}'s view): seat {nxt.seat_to_move} to move, phase {nxt.phase.name},"
            f" stock {nxt.stock_count}, pile {len(nxt.discard_pile)}"
        )
    lines += [f"  unknown {u.field}: {u.reason}" for u in answer.unknowns]
    return lines


def describe_verdict(verdict: Verdict, action_text: str) -> list[str]:
    """The lines `check` prints."""
    lines = [f"{'legal' if verdict.legal else 'illegal'}: {action_text}"]
    for v in verdict.violations:
        lines.append(f"  {v.code} ({v.field}): {v.explanation}")
        if v.cite:
            lines.append("    cite: " + "; ".join(f'{source}, "{section}"' for source, section in v.cite))
    from oracle.model.events import CardsDrawn

    discard = action_text.split()[:1] == ["discard"]
    for event in verdict.events:
        # cards drawn after a discard: the bonus cards of the side's initial meld (or a three's replacement among them)
        bonus = (
            " (bonus cards for the side's initial meld: bonus_cards)"
            if discard and isinstance(event, CardsDrawn)
            else ""
        )
        lines.append(f"  {describe_event(event)}{bonus}")
        lines.extend(f"    {line}" for line in score_item_lines(event))
    if verdict.next_state is not None:
        nxt = verdict.next_state
        lines.append(
            f"  next: seat {nxt.seat_to_move} to move, phase {nxt.phase.name}, stock {len(nxt.stock)},"
            f" pile {len(nxt.discard_pile)}"
        )
    return lines


def score_item_lines(event: Event) -> list[str]:
    """After a HandEnded event: each side's score items in words, e.g. "side 0: melded cards 120, wild-card canasta
    2000, unfinished meld -2500"; no lines for any other event."""
    from oracle.cli.words import score_summary
    from oracle.model.events import HandEnded

    if not isinstance(event, HandEnded):
        return []
    return [f"side {i}: {score_summary(score.lines)}" for i, score in enumerate(event.scores)]


def describe_event(event: Event) -> str:
    """One event in words."""
    from oracle.model.cards import format_cards, is_red_three
    from oracle.model.events import CanastaMade, CardsDrawn, HandEnded, PileTaken, RedThreeLaid, SidesFormed

    match event:
        case CardsDrawn(seat, cards):
            return f"seat {seat} drew {format_cards(cards)}"
        case RedThreeLaid(seat, card, replaced):
            colour = "red" if is_red_three(card) else "black"  # black: threes.black_three_role BONUS
            return f"seat {seat} laid {colour} three {format_cards([card])}" + (
                " and drew a replacement" if replaced else ""
            )
        case PileTaken(seat, top, to_hand):
            return f"seat {seat} took the pile: top {format_cards([top])} melded, {len(to_hand)} card(s) to hand"
        case CanastaMade(side, cards, natural):
            return f"side {side} has a {'natural' if natural else 'mixed'} canasta: {format_cards(cards)}"
        case SidesFormed(lone, (first, second), melds):
            together = ", ".join(format_cards(meld) for meld in melds) or "none"
            return f"sides formed: seat {lone} alone; seats {first} and {second} partners; melds {together}"
        case HandEnded(reason, table, scores):
            return f"hand over ({reason.name.lower()}): " + ", ".join(
                f"side {i}{seat_note(table.side_of_seat, i)} {score.total}" for i, score in enumerate(scores)
            )
    return repr(event)


@click.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the state file's rule_set_id).")
@click.option(
    "--state",
    "state_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GameStateNotation file (.json or .textproto), or a DealHand answer or GameState as the API writes it.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the ValidateStateResponse as proto3 JSON: valid, and problems, each with field and description.",
)
@specs_option
@clean_errors
def validate(rule_set_id: str | None, state_file: Path, as_json: bool, specs: Path | None) -> None:
    """Report every inconsistency of a game state. Exit 0 valid, 1 inconsistent, 2 error."""
    from oracle.rules.state_check import validate_state

    loaded, state = _load_state(state_file, rule_set_id, specs)
    problems = validate_state(loaded.rules, state)
    if as_json:
        from oracle.api.v1 import oracle_pb2

        response = oracle_pb2.ValidateStateResponse(valid=not problems)
        for problem in problems:
            response.problems.add(field=problem.field, description=problem.description)
        print_json(response)
        if problems:
            raise SystemExit(EXIT_FAILED)
        return
    if not problems:
        click.echo("valid")
        return
    click.echo("invalid:")
    for problem in problems:
        click.echo(f"  {problem}")
    raise SystemExit(EXIT_FAILED)


@click.command()
@click.option("--rules", "rule_set_id", required=True, help="Rule-set id, e.g. classic-4p.")
@click.argument("running_total", type=int)
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=1, help="The hand's number in the game.")
@click.option("--json", "as_json", is_flag=True, help="Print the GetMinimumInitialMeldResponse as proto3 JSON.")
@specs_option
@clean_errors
def minimum(rule_set_id: str, running_total: int, hand_number: int, as_json: bool, specs: Path | None) -> None:
    """Print the minimum initial meld for a side's RUNNING_TOTAL (negative totals: use -- -5). Where the rule set
    sets it by the hand's number (initial_meld.minimum_by_hand), --hand N gives it and the total is not read."""
    loaded = load_rule_set(specs, rule_set_id)
    value, row, entry = loaded.rules.minimum_for(running_total, hand_number)
    if as_json:  # the GetMinimumInitialMeld answer, field for field
        from oracle.api.v1 import oracle_pb2

        response = oracle_pb2.GetMinimumInitialMeldResponse(minimum=value)
        if row is not None:
            response.from_score = row
        if entry is not None:
            response.by_hand = entry
        print_json(response)
        return
    click.echo(str(value))
