"""CLI verbs on the rule book: `rules list`, `rules show` (every field with its rule and citations), `rules lint`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from oracle.cli.support import EXIT_FAILED, clean_errors, load_book, load_rule_set, print_json, specs_option

if TYPE_CHECKING:
    from oracle.api.v1 import ruleset_pb2
    from oracle.ruleset.loader import LoadedRuleSet

# Each verb imports what it needs when it runs (see oracle.cli.main).


@click.group()
def rules() -> None:
    """List and show rule sets."""


@rules.command("list")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the ListRuleSetsResponse as proto3 JSON: ruleSets, each with id, title, extends, seats, sideSize.",
)
@specs_option
@clean_errors
def rules_list(as_json: bool, specs: Path | None) -> None:
    """One line per rule set: id, players, title."""
    if as_json:
        from oracle.api.v1 import oracle_pb2
        from oracle.service.api import OracleApi

        print_json(OracleApi(load_book(specs)).ListRuleSets(oracle_pb2.ListRuleSetsRequest()))
        return
    from oracle.api.v1.ruleset_pb2 import SIDE_FORMATION_LONE_HAND

    for loaded in load_book(specs):
        spec = loaded.spec
        based = f" (extends {loaded.lineage[1]})" if len(loaded.lineage) > 1 else ""
        # players.side_formation LONE_HAND: the sides of one last until the pile is first taken
        formed = " until one takes the pile" if spec.players.side_formation == SIDE_FORMATION_LONE_HAND else ""
        sides = f"{spec.players.seats} players, sides of {spec.players.side_size}{formed}"
        click.echo(f"{spec.id:<24} {sides}  {spec.title}{based}")


@rules.command("lint")
@click.option("--rules", "rule_set_ids", default="", help="Comma-separated rule-set ids (default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@specs_option
@clean_errors
def rules_lint(rule_set_ids: str, as_json: bool, specs: Path | None) -> None:
    """The solver lint: contradictory settings (errors, exit 1) and dead ones (warnings), field by field."""
    import json
    from importlib import resources

    from oracle.ruleset.loader import RuleBook
    from oracle.verify.lint import ERROR, LintBudgetExceeded, LintFinding, lint

    directory = specs if specs is not None else resources.files("oracle.specs")
    book = RuleBook.from_directory(directory)  # no checker: a contradictory rule set is reported, not refused
    chosen = [book.get(i) for i in rule_set_ids.split(",") if i] if rule_set_ids else list(book)
    findings: dict[str, list[LintFinding]] = {}
    for loaded in chosen:
        try:
            findings[loaded.spec.id] = lint(loaded.rules)
        except LintBudgetExceeded as exc:  # not checked is not passed: an error naming the rule and the limit
            findings[loaded.spec.id] = [LintFinding(exc.field, f"could not be checked: {exc}", ERROR, exc.rule)]
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
    loaded = load_rule_set(specs, rule_set_id)
    if as_json:
        print_json(loaded.spec)
        return
    click.echo("\n".join(describe_rule_set(loaded)))


def describe_rule_set(loaded: LoadedRuleSet) -> list[str]:
    """The lines `rules show` prints."""
    from oracle.cli.words import field_words, rank_rule_words
    from oracle.ruleset.paths import leaf_paths, rule_sections
    from oracle.ruleset.validate import note_for

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
            if path == "melds.rank_rules" and spec.melds.rank_rules:  # one rank to a line
                out.append("  rank_rules =")
                out.extend(f"      {rank_rule_words(row)}" for row in spec.melds.rank_rules)
            else:
                out.append(f"  {path.split('.')[1]} = {field_words(spec, path)}")
            if path in notes:
                out.extend(note_lines(notes[path], "      "))
        if section.name in notes:
            shared = [p.split(".")[1] for p in paths if note_for(p, notes.__contains__) == section.name]
            out.append(f"  [{', '.join(shared)}]")
            out.extend(note_lines(notes[section.name], "      "))
    return out
