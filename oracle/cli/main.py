"""The canasta-oracle command line: serve, rules, score, minimum, check, validate (errors: clear lines, exit 2)."""

from __future__ import annotations

import asyncio
import json
import sys
from importlib import resources
from pathlib import Path

import click

from oracle.api.v1 import notation_pb2, oracle_pb2, ruleset_pb2
from oracle.cli import disputes as cli_rules
from oracle.cli import games as cli_games
from oracle.cli.support import EXIT_FAILED, CliError, clean_errors, load_book, print_json, read_message, specs_option
from oracle.model.actions import parse_action
from oracle.model.cards import NotationError, format_cards
from oracle.model.events import CanastaMade, CardsDrawn, Event, HandEnded, PileTaken, RedThreeLaid
from oracle.model.score import ScoreItem
from oracle.model.state import GameState
from oracle.rules.referee import Verdict, check_action
from oracle.rules.scoring import score_hand
from oracle.rules.state_check import validate_state
from oracle.ruleset.loader import LoadedRuleSet, RuleBook
from oracle.ruleset.paths import format_field, leaf_paths, rule_sections
from oracle.ruleset.validate import note_for
from oracle.service.convert_game import state_from_notation, verdict_to_proto
from oracle.service.convert_table import scores_to_proto, table_from_notation


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="canasta-oracle")
def main() -> None:
    """canasta-oracle: a rules referee for Canasta."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=50051,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0 picks a free one).",
)
@specs_option
@clean_errors
def serve(host: str, port: int, specs: Path | None) -> None:
    """Start the gRPC server (health SERVING once the rule sets load; stops on SIGINT/SIGTERM)."""
    from oracle.service.server import serve as run  # grpc server parts load only for this command

    book = load_book(specs, lint=True)
    asyncio.run(run(book, host, port))


@main.group()
def rules() -> None:
    """List and show rule sets."""


@rules.command("list")
@specs_option
@clean_errors
def rules_list(specs: Path | None) -> None:
    """One line per rule set: id, players, title."""
    for loaded in load_book(specs):
        spec = loaded.spec
        based = f" (extends {loaded.lineage[1]})" if len(loaded.lineage) > 1 else ""
        click.echo(
            f"{spec.id:<24} {spec.players.seats} players, sides of {spec.players.side_size}  {spec.title}{based}"
        )


@rules.command("lint")
@click.option("--rules", "rule_set_ids", default="", help="Comma-separated rule-set ids (default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@specs_option
@clean_errors
def rules_lint(rule_set_ids: str, as_json: bool, specs: Path | None) -> None:
    """The solver lint: contradictory settings (errors, exit 1) and dead ones (warnings), field by field."""
    from oracle.verify.lint import ERROR, lint

    directory = specs if specs is not None else resources.files("oracle.specs")
    book = RuleBook.from_directory(directory)  # no checker: a contradictory rule set is reported, not refused
    chosen = [book.get(i) for i in rule_set_ids.split(",") if i] if rule_set_ids else list(book)
    findings = {loaded.spec.id: lint(loaded.rules) for loaded in chosen}
    if as_json:
        click.echo(json.dumps({rid: [vars(f) for f in found] for rid, found in findings.items()}, indent=2))
    else:
        for rid, found in findings.items():
            click.echo(f"{rid}: {len(found)} finding(s)" if found else f"{rid}: clean")
            for f in found:
                click.echo(f"  {f.severity}: {f.field}: {f.message}")
    if any(f.severity == ERROR for found in findings.values() for f in found):
        raise SystemExit(EXIT_FAILED)


@rules.command("show")
@click.argument("rule_set_id")
@click.option("--json", "as_json", is_flag=True, help="Print the resolved RuleSet as proto3 JSON.")
@specs_option
@clean_errors
def rules_show(rule_set_id: str, as_json: bool, specs: Path | None) -> None:
    """Print a resolved rule set, every field with its rule and citations."""
    loaded = load_book(specs).get(rule_set_id)
    if as_json:
        print_json(loaded.spec)
        return
    click.echo("\n".join(describe_rule_set(loaded)))


def describe_rule_set(loaded: LoadedRuleSet) -> list[str]:
    """The lines `rules show` prints."""
    spec = loaded.spec
    notes = {n.field: n for n in spec.rules}
    out = [f"{spec.id}: {spec.title}", f"  {spec.description}", f"  lineage: {' <- '.join(loaded.lineage)}"]

    def note_lines(note: ruleset_pb2.RuleNote, indent: str) -> list[str]:
        lines = [f"{indent}rule: {note.text}"]
        lines += [f'{indent}cite: {c.source}, "{c.section}"' for c in note.cite]
        if note.choice:
            lines.append(f"{indent}choice: {note.choice}")
        return lines

    for section in rule_sections():
        out.append("")
        out.append(section.name)
        paths = [p for p in leaf_paths() if p.startswith(section.name + ".")]
        for path in paths:
            out.append(f"  {path.split('.')[1]} = {format_field(spec, path)}")
            if path in notes:
                out.extend(note_lines(notes[path], "      "))
        if section.name in notes:
            shared = [p.split(".")[1] for p in paths if note_for(p, notes.__contains__) == section.name]
            out.append(f"  [{', '.join(shared)}]")
            out.extend(note_lines(notes[section.name], "      "))
    return out


@main.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the file's rule_set_id).")
@click.argument("table_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the ScoreHandResponse as proto3 JSON.")
@specs_option
@clean_errors
def score(rule_set_id: str | None, table_file: Path, as_json: bool, specs: Path | None) -> None:
    """Score a finished hand (TABLE_FILE: a HandTableNotation in .json or .textproto)."""
    table_msg = read_message(table_file, notation_pb2.HandTableNotation())
    assert isinstance(table_msg, notation_pb2.HandTableNotation)
    chosen = rule_set_id or table_msg.rule_set_id
    if not chosen:
        raise CliError(f"{table_file}: no rule set: pass --rules ID or set rule_set_id in the file")
    loaded = load_book(specs).get(chosen)
    scores = score_hand(loaded.rules, table_from_notation(table_msg))
    if as_json:
        print_json(scores_to_proto(scores))
        return
    for i, (side, side_score) in enumerate(zip(table_msg.sides, scores, strict=True)):
        name = side.name or f"side {i}"
        click.echo(f"{name}")
        for line in side_score.lines:
            label = ScoreItem(line.item).name.lower().replace("_", " ")
            click.echo(f"  {line.points:>6}  {label:<28} {line.detail}")
        click.echo(f"  {side_score.total:>6}  total")
    click.echo(
        "  ".join(
            f"{(s.name or f'side {i}')}: {sc.total}"
            for i, (s, sc) in enumerate(zip(table_msg.sides, scores, strict=True))
        )
    )


def _load_state(state_file: Path, rule_set_id: str | None, specs: Path | None) -> tuple[LoadedRuleSet, GameState]:
    state_msg = read_message(state_file, notation_pb2.GameStateNotation())
    assert isinstance(state_msg, notation_pb2.GameStateNotation)
    chosen = rule_set_id or state_msg.rule_set_id
    if not chosen:
        raise CliError(f"{state_file}: no rule set: pass --rules ID or set rule_set_id in the file")
    loaded = load_book(specs).get(chosen)
    return loaded, state_from_notation(state_msg, loaded.rules)


@main.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the state file's rule_set_id).")
@click.option(
    "--state",
    "state_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GameStateNotation file (.json or .textproto).",
)
@click.option("--action", "action_text", required=True, help="The action, e.g. 'take-pile with 9H 9D'.")
@click.option("--json", "as_json", is_flag=True, help="Print the CheckActionResponse as proto3 JSON.")
@specs_option
@clean_errors
def check(rule_set_id: str | None, state_file: Path, action_text: str, as_json: bool, specs: Path | None) -> None:
    """Judge one action of the player to move. Exit 0 legal, 1 illegal, 2 error."""
    loaded, state = _load_state(state_file, rule_set_id, specs)
    try:
        action = parse_action(action_text)
    except NotationError as exc:
        raise CliError(f"action: {exc}") from None
    verdict = check_action(loaded.rules, state, action)
    if as_json:
        print_json(verdict_to_proto(verdict))
    else:
        click.echo("\n".join(describe_verdict(verdict, action_text)))
    if not verdict.legal:
        raise SystemExit(EXIT_FAILED)


def describe_verdict(verdict: Verdict, action_text: str) -> list[str]:
    """The lines `check` prints."""
    lines = [f"{'legal' if verdict.legal else 'illegal'}: {action_text}"]
    for v in verdict.violations:
        lines.append(f"  {v.code} ({v.field}): {v.explanation}")
        if v.cite:
            lines.append("    cite: " + "; ".join(f'{source}, "{section}"' for source, section in v.cite))
    for event in verdict.events:
        lines.append(f"  {describe_event(event)}")
    if verdict.next_state is not None:
        nxt = verdict.next_state
        lines.append(
            f"  next: seat {nxt.seat_to_move} to move, phase {nxt.phase.name}, stock {len(nxt.stock)},"
            f" pile {len(nxt.discard_pile)}"
        )
    return lines


def describe_event(event: Event) -> str:
    """One event in words."""
    match event:
        case CardsDrawn(seat, cards):
            return f"seat {seat} drew {format_cards(cards)}"
        case RedThreeLaid(seat, card, replaced):
            return f"seat {seat} laid red three {format_cards([card])}" + (
                " and drew a replacement" if replaced else ""
            )
        case PileTaken(seat, top, to_hand):
            return f"seat {seat} took the pile: top {format_cards([top])} melded, {len(to_hand)} card(s) to hand"
        case CanastaMade(side, cards, natural):
            return f"side {side} has a {'natural' if natural else 'mixed'} canasta: {format_cards(cards)}"
        case HandEnded(reason, _, scores):
            return f"hand over ({reason.name.lower()}): " + ", ".join(
                f"side {i} {score.total}" for i, score in enumerate(scores)
            )
    return repr(event)


@main.command()
@click.option("--rules", "rule_set_id", default=None, help="Rule-set id (default: the state file's rule_set_id).")
@click.option(
    "--state",
    "state_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GameStateNotation file (.json or .textproto).",
)
@specs_option
@clean_errors
def validate(rule_set_id: str | None, state_file: Path, specs: Path | None) -> None:
    """Report every inconsistency of a game state. Exit 0 valid, 1 inconsistent, 2 error."""
    loaded, state = _load_state(state_file, rule_set_id, specs)
    problems = validate_state(loaded.rules, state)
    if not problems:
        click.echo("valid")
        return
    click.echo("invalid:")
    for problem in problems:
        click.echo(f"  {problem}")
    raise SystemExit(EXIT_FAILED)


@main.command()
@click.option("--rules", "rule_set_id", required=True, help="Rule-set id, e.g. classic-4p.")
@click.argument("running_total", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the GetMinimumInitialMeldResponse as proto3 JSON.")
@specs_option
@clean_errors
def minimum(rule_set_id: str, running_total: int, as_json: bool, specs: Path | None) -> None:
    """Print the minimum initial meld for a side's RUNNING_TOTAL (negative totals: use -- -5)."""
    loaded = load_book(specs).get(rule_set_id)
    value, row = loaded.rules.minimum_initial_meld(running_total)
    if as_json:
        response = oracle_pb2.GetMinimumInitialMeldResponse(minimum=value)
        if row is not None:
            response.from_score = row
        print_json(response)
        return
    click.echo(str(value))


@main.command()
@click.option("--number", default=300, show_default=True, type=click.IntRange(1), help="Checks per timing.")
@click.option("--repeats", default=7, show_default=True, type=click.IntRange(1), help="Timings per case (median).")
@click.option(
    "--games",
    "games",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Also simulate this many games per classic rule set and measure replay, one RefereeGame stream"
    " and unary CheckAction against an echo service.",
)
@clean_errors
def bench(number: int, repeats: int, games: int) -> None:
    """Print microseconds per CheckAction on fixed mid-game states (median of repeats), and game throughput."""
    from oracle.bench import checks as benchmark

    click.echo("\n".join(benchmark.report(benchmark.run(number, repeats))))
    if games:
        from oracle.bench import games as bench_games

        for rule_set_id in ("classic-2p", "classic-4p"):
            click.echo("\n".join(bench_games.run(rule_set_id, games)))


main.add_command(cli_games.replay_command)
main.add_command(cli_games.simulate_command)
main.add_command(cli_games.perft_command)
main.add_command(cli_games.conformance_command)
main.add_command(cli_rules.adjudicate_command)
main.add_command(cli_rules.explain_command)


@main.command()
@click.option("--rules", "rule_set_ids", default="", help="Comma-separated rule-set ids (default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@clean_errors
def verify(rule_set_ids: str, as_json: bool) -> None:
    """Prove the rule-set properties with Z3, lint every rule set, and check the engine against the model."""
    from oracle.verify.report import verify_command_lines

    ids = [i.strip() for i in rule_set_ids.split(",") if i.strip()] or None
    lines, ok = verify_command_lines(ids, as_json)
    click.echo("\n".join(lines))
    if not ok:
        raise SystemExit(EXIT_FAILED)


if __name__ == "__main__":
    sys.exit(main())
