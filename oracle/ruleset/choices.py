"""A rule set's choices (the points where the texts disagree or leave a rule open): merging them and checking them."""

from __future__ import annotations

import re

from oracle.api.v1 import ruleset_pb2
from oracle.ruleset.paths import all_paths

Problem = tuple[str, str]  # (field path, what is wrong)

_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _check_reading(
    reading: ruleset_pb2.Reading, where: str, sources: set[str], problems: list[Problem], *, cited: bool
) -> None:
    if not reading.text.strip():
        problems.append((f"{where}.text", "says nothing"))
    if cited and not reading.cite:
        problems.append((f"{where}.cite", "cites no source"))
    for j, cite in enumerate(reading.cite):
        if cite.source not in sources:
            problems.append(
                (f"{where}.cite[{j}].source", f"'{cite.source}' is not a known source ({', '.join(sorted(sources))})")
            )
        if not cite.section.strip():
            problems.append((f"{where}.cite[{j}].section", "names no section"))
    if reading.rule_set and not _ID.match(reading.rule_set):
        problems.append((f"{where}.rule_set", f"'{reading.rule_set}' is not a rule-set id"))


def merge_choices(merged: ruleset_pb2.RuleSet, child: ruleset_pb2.RuleSet) -> None:
    """Overlay a spec's choices on the merged rule set: a choice replaces the base's choice with the same id."""
    for choice in child.choices:
        for k, prior in enumerate(merged.choices):
            if prior.id == choice.id:
                merged.choices[k].CopyFrom(choice)
                break
        else:
            merged.choices.append(choice)


def check_choices(spec: ruleset_pb2.RuleSet, sources: set[str]) -> list[Problem]:
    """Every problem of the resolved rule set's choices: ids, kinds, both sides cited, field paths."""
    problems: list[Problem] = []
    known = all_paths()
    seen: dict[str, int] = {}
    for i, choice in enumerate(spec.choices):
        where = f"choices[{i}]"
        if not _ID.match(choice.id):
            problems.append((f"{where}.id", f"'{choice.id}' is not a choice id (lower-kebab-case)"))
        elif choice.id in seen:
            problems.append((f"{where}.id", f"'{choice.id}' is already a choice (choices[{seen[choice.id]}])"))
        seen.setdefault(choice.id, i)
        if not choice.point.strip():
            problems.append((f"{where}.point", "says nothing"))
        if not choice.why.strip():
            problems.append((f"{where}.why", "says nothing"))
        if choice.kind == ruleset_pb2.CHOICE_KIND_UNSPECIFIED:
            problems.append((f"{where}.kind", "is not set"))
        unstated = choice.kind == ruleset_pb2.CHOICE_KIND_UNSTATED
        if not choice.HasField("taken"):
            problems.append((f"{where}.taken", "is missing"))
        else:
            _check_reading(choice.taken, f"{where}.taken", sources, problems, cited=True)
        if not unstated and not choice.others:
            problems.append((f"{where}.others", "names no other reading: a choice between texts has two sides"))
        for k, other in enumerate(choice.others):
            _check_reading(other, f"{where}.others[{k}]", sources, problems, cited=not unstated)
        for k, path in enumerate(choice.fields):
            if path not in known:
                problems.append((f"{where}.fields[{k}]", f"'{path}' is not a rule-set field or section"))
    return problems


__all__ = ["check_choices", "merge_choices"]
