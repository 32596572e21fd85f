"""Field sensitivity: for every RuleSet field, a change to its value in a shipped rule set that changes some case.

For each leaf of the RuleSet schema (walked recursively from the descriptor:
`initial_meld.thresholds.minimum` is a leaf of its own), the value is changed in
one shipped rule set at a time (or in the inline rule set of a case that
carries one) and that rule set's conformance cases are run again in process
against the changed rule set. The field matters when at least one case's
outcome changes. The changes tried, in order:

- a bool is flipped;
- an enum takes each of its other values (UNSPECIFIED excepted);
- a number moves by one up, then one down, then to double, half, zero, away
  by 100, and to ten and a hundred times itself (a number in a repeated
  message: in each row in turn; a list of numbers: each element in turn, and
  an empty list gains one element).

A changed rule set that the loader's validation refuses (a value out of range,
or contradicting another field) is not a rule set anyone can play, so that
change is skipped and the next is tried. The metadata of a rule set (`id`,
`extends`, `title`, `description`, the rule notes `rules` and the `choices`)
decides no outcome and is not walked. Rule sets are tried base first
(classic-2p, classic-4p), then the variants, until one shows a change.

conformance/COVERAGE.md counts a field as covered only when this shows it
matters; tests/test_field_sensitivity.py fails on a field that does not.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from oracle.api.v1 import ruleset_pb2
from oracle.conformance.cases import Case, load_cases
from oracle.conformance.reports import Sensitivity
from oracle.conformance.runner import InProcessTarget, RunOptions, run_cases
from oracle.ruleset.compiled import compile_rules
from oracle.ruleset.loader import LoadedRuleSet, RuleBook, default_rule_book
from oracle.ruleset.paths import META_FIELDS, RULE_SET
from oracle.ruleset.validate import check_rule_set

BASES = ("classic-2p", "classic-4p")  #: tried first: most cases are theirs
_SHOWN = 3  #: case ids kept per field


def schema_leaves(descriptor: Descriptor = RULE_SET, prefix: str = "") -> list[str]:
    """Every leaf field path of the RuleSet schema, recursively, without the metadata fields."""
    paths: list[str] = []
    for fd in descriptor.fields:
        if not prefix and fd.name in META_FIELDS:
            continue
        path = f"{prefix}{fd.name}"
        if fd.message_type is not None:
            paths += schema_leaves(fd.message_type, path + ".")
        else:
            paths.append(path)
    return paths


def _holders(message: Message, names: Sequence[str]) -> Iterator[Message]:
    """The messages that hold the last name of `names` (several for a repeated message on the way)."""
    if len(names) == 1:
        yield message
        return
    fd = message.DESCRIPTOR.fields_by_name[names[0]]
    value = getattr(message, names[0])
    children = list(value) if fd.is_repeated else [value]
    for child in children:
        yield from _holders(child, names[1:])


def _new_values(fd: FieldDescriptor, value: object) -> list[object]:
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return [not value]
    if fd.enum_type is not None:
        return [v.number for v in fd.enum_type.values if v.number not in (0, value)]
    assert isinstance(value, int)
    candidates = [value + 1, value - 1, value * 2, value // 2, 0, value + 100, value - 100, value * 10, value * 100]
    return list(dict.fromkeys(c for c in candidates if c != value))


def _describe(fd: FieldDescriptor, value: object) -> str:
    if fd.enum_type is not None:
        assert isinstance(value, int)
        return fd.enum_type.values_by_number[value].name
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return "true" if value else "false"
    return str(value)


def _list_mutations(
    spec: ruleset_pb2.RuleSet, names: Sequence[str], index: int, count: int, fd: FieldDescriptor
) -> Iterator[tuple[ruleset_pb2.RuleSet, str]]:
    """A repeated number (e.g. threes.count_values): each element changed in turn as a number is; an empty list
    gains one element, each candidate of a number that was 0."""
    old = list(getattr(list(_holders(spec, names))[index], names[-1]))
    row = f" (row {index})" if count > 1 else ""
    lists = [[*old[:i], new, *old[i + 1 :]] for i, value in enumerate(old) for new in _new_values(fd, value)]
    if not old:
        lists = [[new] for new in _new_values(fd, 0)]
    for values in lists:
        changed = ruleset_pb2.RuleSet()
        changed.CopyFrom(spec)
        holder = list(_holders(changed, names))[index]
        del getattr(holder, names[-1])[:]
        getattr(holder, names[-1]).extend(values)
        yield changed, f"{old} -> {values}{row}"


def mutations(spec: ruleset_pb2.RuleSet, path: str) -> Iterator[tuple[ruleset_pb2.RuleSet, str]]:
    """Copies of `spec` with the field at `path` changed one way each, and the change in words."""
    names = path.split(".")
    count = len(list(_holders(spec, names)))
    for index in range(count):
        holder = list(_holders(spec, names))[index]
        fd = cast("FieldDescriptor", holder.DESCRIPTOR.fields_by_name[names[-1]])
        if fd.is_repeated:
            yield from _list_mutations(spec, names, index, count, fd)
            continue
        old = getattr(holder, names[-1])
        for new in _new_values(fd, old):
            changed = ruleset_pb2.RuleSet()
            changed.CopyFrom(spec)
            setattr(list(_holders(changed, names))[index], names[-1], new)
            row = f" (row {index})" if count > 1 else ""
            yield changed, f"{_describe(fd, old)} -> {_describe(fd, new)}{row}"


def _outcomes(cases: list[Case], book: RuleBook) -> dict[str, str]:
    """Case id -> its outcome (status and detail) against `book`, in process; an engine exception is an outcome."""
    target = InProcessTarget(book)
    options = RunOptions(book=book)
    out: dict[str, str] = {}
    for item in cases:
        try:
            (result,) = run_cases([item], target, options)
            out[item.case.id] = f"{result.status}: {result.detail}"
        except Exception as exc:  # a crash under a changed rule set is a changed outcome, and a finding
            out[item.case.id] = f"exception: {type(exc).__name__}: {exc}"
    return out


def _with(book: RuleBook, loaded: LoadedRuleSet) -> RuleBook:
    rule_sets = {r.spec.id: r for r in book}
    rule_sets[loaded.spec.id] = loaded
    return RuleBook(rule_sets, book.sources, book.spec_files())


def _inline(item: Case, spec: ruleset_pb2.RuleSet) -> Case:
    """The case with its inline rule set replaced by `spec` (a whole rule set, extending nothing)."""
    case = type(item.case)()
    case.CopyFrom(item.case)
    case.inline_rule_set.CopyFrom(spec)
    case.inline_rule_set.id = "sensitivity-probe"
    return Case(item.suite, case)


@dataclass(frozen=True)
class _Unit:
    """A rule set to change and the cases that run under it: a shipped rule set, or one case's inline rule set."""

    name: str
    loaded: LoadedRuleSet
    cases: list[Case]

    def outcomes(self, book: RuleBook, changed: ruleset_pb2.RuleSet | None = None) -> dict[str, str]:
        """The cases' outcomes under the unit's rule set, or under `changed` in its place."""
        if changed is None:
            return _outcomes(self.cases, book)
        if self.name.startswith("inline:"):
            return _outcomes([_inline(item, changed) for item in self.cases], book)
        mutated = LoadedRuleSet(changed, self.loaded.lineage, compile_rules(changed), self.loaded.origins)
        return _outcomes(self.cases, _with(book, mutated))


def _units(cases: list[Case], book: RuleBook) -> list[_Unit]:
    order = [*[i for i in BASES if i in book.ids()], *[i for i in book.ids() if i not in BASES]]
    units = []
    for rule_set_id in order:
        own = [c for c in cases if c.case.rule_set_id == rule_set_id and not c.case.HasField("inline_rule_set")]
        if own:
            units.append(_Unit(rule_set_id, book.get(rule_set_id), own))
    for item in cases:
        if item.case.HasField("inline_rule_set"):
            loaded = book.resolve_inline(item.case.inline_rule_set, "inline_rule_set")
            units.append(_Unit(f"inline:{item.case.id}", loaded, [item]))
    return units


def field_sensitivity(cases: list[Case], book: RuleBook) -> dict[str, Sensitivity]:
    """Field path -> the first change of its value that changes a case of the changed rule set (see the module)."""
    sources = [s.id for s in book.sources.sources]
    units = _units(cases, book)
    baseline = {unit.name: unit.outcomes(book) for unit in units}
    found: dict[str, Sensitivity] = {}
    for path in schema_leaves():
        tried = 0
        for unit in units:
            for changed, change in mutations(unit.loaded.spec, path):
                if check_rule_set(changed, sources):
                    continue  # not a playable rule set
                tried += 1
                now = unit.outcomes(book, changed)
                differ = [cid for cid, outcome in now.items() if outcome != baseline[unit.name][cid]]
                if differ:
                    found[path] = Sensitivity(path, unit.name, change, tuple(differ[:_SHOWN]), len(differ))
                    break
            if path in found:
                break
        if path not in found:
            found[path] = Sensitivity(path, "", f"{tried} changes tried", (), 0)
    return found


@functools.cache
def shipped_sensitivity() -> dict[str, Sensitivity]:
    """field_sensitivity of the shipped cases and rule sets (computed once per process)."""
    return field_sensitivity(load_cases(), default_rule_book())


__all__ = ["BASES", "field_sensitivity", "mutations", "schema_leaves", "shipped_sensitivity"]
