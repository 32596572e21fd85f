"""CLI commands for disputes: adjudicate one action under several rule sets, and explain a code or a field."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from oracle.cli.support import CliError, clean_errors, load_book, read_message, specs_option

if TYPE_CHECKING:
    from oracle.ruleset.loader import RuleBook

# Each verb imports what it needs when it runs (see oracle.cli.main).


@click.command("adjudicate")
@click.option(
    "--state",
    "state_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GameStateNotation file (.json or .textproto).",
)
@click.option("--action", "action_text", required=True, help="The action, e.g. 'take-pile with 9H JK'.")
@click.option("--rules", "rule_set_ids", default="", help="Comma-separated rule-set ids (default: all).")
@specs_option
@clean_errors
def adjudicate_command(state_file: Path, action_text: str, rule_set_ids: str, specs: Path | None) -> None:
    """Judge one action under several rule sets, side by side, with the fields that decide it."""
    from oracle.api.v1 import notation_pb2
    from oracle.games.adjudicate import adjudicate
    from oracle.model.actions import parse_action
    from oracle.model.cards import NotationError
    from oracle.service.convert_game import state_from_notation

    book = load_book(specs)
    ids = [i.strip() for i in rule_set_ids.split(",") if i.strip()] or book.ids()
    rule_sets = [book.get(i) for i in ids]
    message = read_message(state_file, notation_pb2.GameStateNotation())
    assert isinstance(message, notation_pb2.GameStateNotation)
    try:
        action = parse_action(action_text)
    except NotationError as exc:
        raise CliError(f"action: {exc}") from None
    # fill_stock fills the stock from each rule set's own deck
    result = adjudicate(rule_sets, [state_from_notation(message, loaded.rules) for loaded in rule_sets], action)
    answers = result.answers
    applicable = [(i, a) for i, a in zip(ids, answers, strict=True) if a.verdict is not None]
    width = max((len(i) for i, _ in applicable), default=8) + 2
    click.echo(f"action: {action_text}")
    click.echo(f"{'rule set':<{width}} verdict     why")
    for rule_set_id, answer in applicable:
        assert answer.verdict is not None
        if answer.verdict.legal:
            click.echo(f"{rule_set_id:<{width}} legal")
            continue
        first, *rest = answer.verdict.violations
        click.echo(f"{rule_set_id:<{width}} ILLEGAL     {first.code} ({first.field}): {first.explanation}")
        for v in rest:
            click.echo(f"{'':<{width}}             {v.code} ({v.field}): {v.explanation}")
    skipped = [a for a in answers if a.verdict is None]
    if skipped:
        click.echo(f"not applicable (the state does not fit): {', '.join(a.rule_set_id for a in skipped)}")
        if len(ids) <= 3:
            for a in skipped:
                click.echo(f"  {a.rule_set_id}: {a.not_applicable}")
    if result.deciding:
        click.echo("deciding fields:")
        for deciding in result.deciding:
            values = ", ".join(
                f"{i}={v}" for i, v, a in zip(ids, deciding.values, answers, strict=True) if a.verdict is not None
            )
            click.echo(f"  {deciding.field}: {values}")
    elif len({a.verdict.legal for _, a in applicable if a.verdict}) <= 1:
        click.echo("all applicable rule sets agree")


def explain_lines(book: RuleBook, key: str) -> list[str]:
    """What `explain` prints for a violation code or a rule-set field path."""
    from oracle.rules.violations import RULES, find_rule
    from oracle.ruleset.paths import all_paths, format_field, leaf_paths

    lines: list[str] = []
    field = key
    rule = find_rule(key)
    if rule is not None:
        lines += [f"{rule.code}: {rule.summary}", f"rule-set field: {rule.field}"]
        field = rule.field
    elif key not in all_paths():
        raise CliError(f"'{key}' is neither a violation code nor a rule-set field; codes: {', '.join(sorted(RULES))}")
    paths = [field] if field in leaf_paths() else [p for p in leaf_paths() if p.startswith(field + ".")]
    lines.append("")
    lines.append("values:")
    for path in paths:
        by_value: dict[str, list[str]] = {}
        for loaded in book:
            by_value.setdefault(format_field(loaded.spec, path), []).append(loaded.spec.id)
        shown = "; ".join(f"{value} ({', '.join(ids)})" for value, ids in by_value.items())
        lines.append(f"  {path} = {shown}")
        changed = [
            loaded.spec.id
            for loaded in book
            if len(loaded.lineage) > 1 and loaded.origins.get(path) == loaded.spec.id + ".textproto"
        ]
        if changed:
            lines.append(f"    changed by: {', '.join(changed)}")
    lines.append("")
    lines.append("the rule, as each rule set words and cites it:")
    seen: set[str] = set()
    for loaded in book:
        notes = {n.field: n for n in loaded.spec.rules}
        for path in [field, *paths]:
            note = notes.get(path) or notes.get(path.partition(".")[0])
            if note is None or note.text in seen:
                continue
            seen.add(note.text)
            lines.append(f"  [{loaded.spec.id}] {note.field}: {note.text}")
            lines.extend(f'      cite: {c.source}, "{c.section}"' for c in note.cite)
            if note.choice:
                lines.append(f"      choice: {note.choice}")
    return lines


@click.command("explain")
@click.argument("key")
@specs_option
@clean_errors
def explain_command(key: str, specs: Path | None) -> None:
    """Explain a violation code or a rule-set field: the rule, its citations, and the variants that change it."""
    click.echo("\n".join(explain_lines(load_book(specs), key)))
