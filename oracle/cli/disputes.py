"""CLI commands for disputes: adjudicate one action under several rule sets; explain a code, a field or a rule set."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from oracle.cli.support import EXIT_FAILED, CliError, clean_errors, load_book, print_json, read_message, specs_option

if TYPE_CHECKING:
    from oracle.api.v1 import ruleset_pb2
    from oracle.ruleset.loader import RuleBook

# Each verb imports what it needs when it runs (see oracle.cli.main).


@click.command("adjudicate")
@click.option(
    "--state",
    "state_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A GameStateNotation file (.json or .textproto).",
)
@click.option(
    "--view",
    "view_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Instead of --state: a PlayerView (one player's view: .json or .textproto, cards as the API writes them,"
    " e.g. CARD_9H). What the view cannot decide is printed as unknown.",
)
@click.option("--action", "action_text", required=True, help="The action, e.g. 'take-pile with 9H JK'.")
@click.option(
    "--rules",
    "rule_set_ids",
    default="",
    help="Comma-separated rule-set ids (default: all, the three-player ones too). A rule set the position does not"
    " fit (another number of seats, sides or cards) is listed as not applicable, with the reason.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the AdjudicateResponse as proto3 JSON: verdicts (ruleSetId, applicable, notApplicable, verdict)"
    " and decidingFields (field, values).",
)
@specs_option
@clean_errors
def adjudicate_command(
    state_file: Path | None,
    view_file: Path | None,
    action_text: str,
    rule_set_ids: str,
    as_json: bool,
    specs: Path | None,
) -> None:
    """Judge one action under several rule sets, side by side, with the fields that decide it."""
    from oracle.api.v1 import game_pb2, notation_pb2
    from oracle.cli.hand import parse_action_option, state_or_view
    from oracle.games.adjudicate import adjudicate
    from oracle.model.actions import format_action
    from oracle.service.convert_game import state_from_notation
    from oracle.service.convert_view import view_from_proto

    state_or_view(state_file, view_file)
    book = load_book(specs)
    ids = [i.strip() for i in rule_set_ids.split(",") if i.strip()] or book.ids()
    rule_sets = [book.get(i) for i in ids]
    action = parse_action_option(action_text)
    if view_file is not None:
        view = read_message(view_file, game_pb2.PlayerView())
        assert isinstance(view, game_pb2.PlayerView)
        seats = len(view.seats)
        result = adjudicate(rule_sets, view_from_proto(view, "view"), action)
    else:
        assert state_file is not None
        message = read_message(state_file, notation_pb2.GameStateNotation())
        assert isinstance(message, notation_pb2.GameStateNotation)
        seats = len(message.seats)
        # fill_stock fills the stock from each rule set's own deck
        result = adjudicate(rule_sets, [state_from_notation(message, loaded.rules) for loaded in rule_sets], action)
    answers = result.answers
    if as_json:
        from oracle.service.convert_adjudication import adjudication_to_proto
        from oracle.service.limits import DEFAULT_LIMITS

        print_json(adjudication_to_proto(result, format_action(action), DEFAULT_LIMITS))
        return
    applicable = [(i, a) for i, a in zip(ids, answers, strict=True) if a.applicable]
    width = max((len(i) for i, _ in applicable), default=8) + 2
    click.echo(f"action: {action_text}")
    click.echo(f"{'rule set':<{width}} verdict     why")
    for rule_set_id, answer in applicable:
        if answer.verdict is None:
            click.echo(f"{rule_set_id:<{width}} unknown")
        elif answer.verdict.legal:
            click.echo(f"{rule_set_id:<{width}} legal")
        else:
            first, *rest = answer.verdict.violations
            click.echo(f"{rule_set_id:<{width}} ILLEGAL     {first.code} ({first.field}): {first.explanation}")
            for v in rest:
                click.echo(f"{'':<{width}}             {v.code} ({v.field}): {v.explanation}")
        for unknown in answer.view.unknowns if answer.view else ():
            click.echo(f"{'':<{width}}             unknown {unknown.field}: {unknown.reason}")
    skipped = [a for a in answers if not a.applicable]
    if skipped:
        given = "view" if view_file is not None else "state"
        click.echo(f"not applicable (the {given} does not fit): {', '.join(a.rule_set_id for a in skipped)}")
        if len(ids) <= 3:
            for a in skipped:
                click.echo(f"  {a.rule_set_id}: {a.not_applicable}")
    if not applicable:
        given = "view" if view_file is not None else "state"
        fitting = [loaded.spec.id for loaded in book if loaded.spec.players.seats == seats]
        hint = f"rule sets of {seats} seats: {', '.join(fitting)}" if fitting else f"no rule set has {seats} seats"
        click.echo(f"no rule set judged it: the {given} has {seats} seat(s) and fits none of those asked ({hint})")
        raise SystemExit(EXIT_FAILED)
    if result.deciding:
        from oracle.cli.words import field_words  # the rank rules and count values in words

        click.echo("deciding fields:")
        for deciding in result.deciding:
            values = ", ".join(
                f"{i}={field_words(loaded.spec, deciding.field)}"
                for i, loaded, a in zip(ids, rule_sets, answers, strict=True)
                if a.verdict is not None
            )
            click.echo(f"  {deciding.field}: {values}")
    elif len({a.verdict.legal for _, a in applicable if a.verdict}) <= 1 and all(a.verdict for _, a in applicable):
        click.echo("all applicable rule sets agree")


_KINDS = {1: "the texts disagree", 2: "two readings of the texts", 3: "no text states it: the project's choice"}


def _cite_lines(indent: str, cites: Iterable[ruleset_pb2.Citation]) -> list[str]:
    return [f'{indent}cite: {c.source}, "{c.section}"' for c in cites]


def choice_lines(book: RuleBook, rule_set_id: str) -> list[str]:
    """What `explain RULESET` prints: every point where the texts disagree or are silent, and the rule set's way."""
    from oracle.ruleset.paths import format_field, leaf_paths

    loaded = book.get(rule_set_id)
    spec = loaded.spec
    lines = [
        f"{spec.id}: {spec.title}",
        f"{len(spec.choices)} points where the texts disagree, allow two readings, or say nothing:",
    ]
    chosen: set[str] = set()
    for choice in spec.choices:
        lines += ["", f"{choice.id}: {choice.point}", f"  kind: {_KINDS.get(choice.kind, '?')}"]
        for path in choice.fields:
            shown = [p for p in leaf_paths() if p == path or p.startswith(path + ".")]
            lines += [f"  field: {p} = {format_field(spec, p)}" for p in shown]
            chosen.update(shown)
        if not choice.fields:
            lines.append("  field: none (the engine has one behaviour; see why)")
        lines.append(f"  taken: {choice.taken.text}")
        lines += _cite_lines("    ", choice.taken.cite)
        for other in choice.others:
            lines.append(f"  other: {other.text}")
            lines += _cite_lines("    ", other.cite)
            lines.append(f"    played by: {other.rule_set or 'no shipped rule set'}")
        if not choice.others:
            lines.append("  other: no text states another rule")
        lines.append(f"  why: {choice.why}")
    notes = [n for n in spec.rules if n.choice and not any(p in chosen for p in _covered(n.field))]
    if notes:
        lines += ["", "rule notes that record a choice of their own:"]
        for note in notes:
            lines += ["", f"{note.field}: {note.text}", *_cite_lines("  ", note.cite), f"  choice: {note.choice}"]
    return lines


def _covered(field: str) -> list[str]:
    from oracle.ruleset.paths import leaf_paths

    return [p for p in leaf_paths() if p == field or p.startswith(field + ".")]


def _values(book: RuleBook, path: str, *, words: bool = False) -> dict[str, list[str]]:
    """A field's value (as written in a spec file; `words`: the rank rules and count values in words, as `explain`
    prints them) -> the rule sets that have it."""
    from oracle.cli.words import field_words
    from oracle.ruleset.paths import format_field

    written = field_words if words else format_field
    by_value: dict[str, list[str]] = {}
    for loaded in book:
        by_value.setdefault(written(loaded.spec, path), []).append(loaded.spec.id)
    return by_value


def _changed_by(book: RuleBook, path: str) -> list[str]:
    """The rule sets that set a field in their own file, changing what they extend."""
    return [
        loaded.spec.id
        for loaded in book
        if len(loaded.lineage) > 1 and loaded.origins.get(path) == loaded.spec.id + ".textproto"
    ]


def _notes(book: RuleBook, paths: list[str]) -> list[tuple[str, ruleset_pb2.RuleNote]]:
    """(rule set, note) for the notes that word the rule of these paths, each text once."""
    seen: set[str] = set()
    found = []
    for loaded in book:
        notes = {n.field: n for n in loaded.spec.rules}
        for path in paths:
            note = notes.get(path) or notes.get(path.partition(".")[0])
            if note is None or note.text in seen:
                continue
            seen.add(note.text)
            found.append((loaded.spec.id, note))
    return found


def _explained(book: RuleBook, key: str) -> tuple[str, list[str]]:
    """The rule-set field a code or field key names and its leaf paths; CliError for an unknown key."""
    from oracle.rules.violations import RULES, find_rule
    from oracle.ruleset.paths import all_paths, leaf_paths

    rule = find_rule(key)
    field = rule.field if rule is not None else key
    if rule is None and key not in all_paths():
        raise CliError(
            f"'{key}' is neither a violation code, a rule-set field nor a rule set; rule sets: {', '.join(book.ids())};"
            f" codes: {', '.join(sorted(RULES))}"
        )
    return field, [field] if field in leaf_paths() else [p for p in leaf_paths() if p.startswith(field + ".")]


def explain_lines(book: RuleBook, key: str) -> list[str]:
    """What `explain` prints for a violation code, a rule-set field path, or a rule-set id (its choices)."""
    from oracle.rules.violations import find_rule

    if key in book.ids():
        return choice_lines(book, key)
    lines: list[str] = []
    field, paths = _explained(book, key)
    rule = find_rule(key)
    if rule is not None:
        lines += [f"{rule.code}: {rule.summary}", f"rule-set field: {rule.field}"]
    else:
        from oracle.cli.fielddoc import field_doc  # the field's (or section's) comment in ruleset.proto

        doc = field_doc(key)
        if doc:
            lines.append(f"{key}: {doc}")
    lines.append("")
    lines.append("values:")
    for path in paths:
        shown = "; ".join(f"{value} ({', '.join(ids)})" for value, ids in _values(book, path, words=True).items())
        lines.append(f"  {path} = {shown}")
        changed = _changed_by(book, path)
        if changed:
            lines.append(f"    changed by: {', '.join(changed)}")
    lines.append("")
    lines.append("the rule, as each rule set words and cites it:")
    for rule_set_id, note in _notes(book, [field, *paths]):
        lines.append(f"  [{rule_set_id}] {note.field}: {note.text}")
        lines.extend(f'      cite: {c.source}, "{c.section}"' for c in note.cite)
        if note.choice:
            lines.append(f"      choice: {note.choice}")
    return lines


def explain_json(book: RuleBook, key: str) -> dict[str, Any]:
    """What `explain --json` prints (the shape is in the command's help)."""
    from google.protobuf import json_format

    from oracle.rules.violations import find_rule

    if key in book.ids():
        spec = book.get(key).spec
        choices = [json_format.MessageToDict(choice) for choice in spec.choices]
        return {"kind": "ruleSet", "key": key, "title": spec.title, "choices": choices}
    field, paths = _explained(book, key)
    rule = find_rule(key)
    answer: dict[str, Any] = {"kind": "code" if rule is not None else "field", "key": key, "field": field}
    if rule is not None:
        answer["summary"] = rule.summary
    answer["values"] = [
        {"path": path, "byValue": _values(book, path), "changedBy": _changed_by(book, path)} for path in paths
    ]
    answer["notes"] = [
        {"ruleSet": rule_set_id, **json_format.MessageToDict(note)}
        for rule_set_id, note in _notes(book, [field, *paths])
    ]
    return answer


@click.command("explain")
@click.argument("key")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print {"kind": "code" or "field", "key", "field", "summary" (codes), "values": [{"path", "byValue":'
    ' {value: [rule sets]}, "changedBy"}], "notes": [{"ruleSet", "field", "text", "cite", "choice"}]}; for a rule'
    ' set, {"kind": "ruleSet", "key", "title", "choices": [Choice as proto3 JSON]}.',
)
@specs_option
@clean_errors
def explain_command(key: str, as_json: bool, specs: Path | None) -> None:
    """Explain a violation code or a rule-set field (the rule, its citations, and the variants that change it), or a
    rule set (every point where the texts disagree or are silent, which way it goes, and both sides' citations)."""
    if as_json:
        import json

        click.echo(json.dumps(explain_json(load_book(specs), key), indent=2))
        return
    click.echo("\n".join(explain_lines(load_book(specs), key)))
