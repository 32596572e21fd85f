"""Loads spec files (RuleSet text format), resolves `extends`, validates, and keeps the rule book."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from google.protobuf import text_format

from oracle.api.v1 import ruleset_pb2
from oracle.model.lru import LRU
from oracle.ruleset.choices import merge_choices
from oracle.ruleset.compiled import CompiledRules, compile_rules
from oracle.ruleset.paths import leaf_paths, locate, set_paths
from oracle.ruleset.problems import SpecError, SpecProblem, UnknownRuleSetError
from oracle.ruleset.validate import ID_PATTERN, check_rule_set, note_for

#: A check run on every resolved rule set after validation (for example the solver lint, which lives in
#: oracle.verify and is handed in by the caller: this layer never imports it). It returns (field path, message)
#: pairs; any pair refuses the rule set.
Checker = Callable[[CompiledRules], list[tuple[str, str]]]

INLINE_CACHE_SIZE = 256  #: inline rule sets kept compiled, least recently used evicted first
_CHECKING = threading.Lock()  #: held while a checker runs (see resolve)

SOURCES_FILE = "sources.textproto"
SPEC_SUFFIX = ".textproto"


@dataclass(frozen=True)
class SpecFile:
    """One parsed spec file, before `extends` is resolved."""

    origin: str
    message: ruleset_pb2.RuleSet
    locations: dict[str, tuple[int, int]]

    def problem(self, path: str, message: str) -> SpecProblem:
        """A problem at `path`, located at the nearest written enclosing field."""
        line, column = _nearest(self.locations, path)
        return SpecProblem(self.origin, line, column, path, message)


@dataclass(frozen=True)
class LoadedRuleSet:
    """A resolved, validated rule set: the message, where it came from, and its compiled form."""

    spec: ruleset_pb2.RuleSet
    lineage: tuple[str, ...]
    rules: CompiledRules
    origins: dict[str, str] = field(repr=False, compare=False)  # leaf path -> file it was set in


def parse_spec(text: str, origin: str) -> SpecFile:
    """Parse one spec's text; unknown fields, bad types and duplicates raise SpecError with line and column."""
    message = ruleset_pb2.RuleSet()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as exc:
        line, column = exc.GetLine() or 0, exc.GetColumn() or 0
        detail = re.sub(r"^\d+:\d+ : ", "", str(exc))
        raise SpecError([SpecProblem(origin, line, column, _field_near(text, line, column), detail)]) from None
    return SpecFile(origin, message, locate(text))


def parse_sources(text: str, origin: str) -> ruleset_pb2.SourceCatalog:
    """Parse the catalogue of citable sources."""
    catalog = ruleset_pb2.SourceCatalog()
    try:
        text_format.Parse(text, catalog)
    except text_format.ParseError as exc:
        raise SpecError([SpecProblem(origin, exc.GetLine() or 0, exc.GetColumn() or 0, "", str(exc))]) from None
    ids = [s.id for s in catalog.sources]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates or not all(ids):
        raise SpecError([SpecProblem(origin, 0, 0, "sources", f"empty or duplicate source ids: {duplicates}")])
    return catalog


def resolve(
    files: dict[str, SpecFile],
    rule_set_id: str,
    sources: Iterable[str],
    checker: Checker | None = None,
    maximums: Mapping[str, int] | None = None,
) -> LoadedRuleSet:
    """Resolve `extends` for one rule set, validate the result, compile it, and run `checker` (if any) on it.

    `maximums` bounds the size numbers (validate.check_rule_set; default validate.SIZE_MAXIMUMS).
    """
    chain = _chain(files, rule_set_id)
    merged = ruleset_pb2.RuleSet()
    setter: dict[str, SpecFile] = {}
    note_origin: list[tuple[SpecFile, int]] = []
    for spec_file in reversed(chain):  # base first
        _merge_into(merged, spec_file, setter, note_origin)
    top = chain[0]
    merged.extends = ""
    problems = _uncited_overrides(chain) + _duplicate_notes(chain)
    for path, message in check_rule_set(merged, sources, maximums):
        problem = _locate_problem(path, message, top, setter, note_origin)
        if problem.origin != top.origin:
            problem = replace(
                problem, message=f"{problem.message} (in rule set '{top.message.id}', which extends this file)"
            )
        problems.append(problem)
    if problems:
        raise SpecError(problems)
    rules = compile_rules(merged)
    if checker is not None:
        with _CHECKING:  # a checker may use Z3, whose shared context is not thread-safe: one check at a time
            found = checker(rules)
        problems = [_locate_problem(path, message, top, setter, note_origin) for path, message in found]
        if problems:
            raise SpecError(problems)
    origins = {path: setter[path].origin for path in leaf_paths() if path in setter}
    return LoadedRuleSet(merged, tuple(f.message.id for f in chain), rules, origins)


def _chain(files: dict[str, SpecFile], rule_set_id: str) -> list[SpecFile]:
    chain: list[SpecFile] = []
    current = rule_set_id
    while current:
        spec_file = files[current]
        if any(f.message.id == current for f in chain):
            ids = " -> ".join([f.message.id for f in chain] + [current])
            raise SpecError([spec_file.problem("extends", f"extends forms a cycle: {ids}")])
        chain.append(spec_file)
        base = spec_file.message.extends
        if base and base not in files:
            raise SpecError(
                [spec_file.problem("extends", f"extends unknown rule set '{base}' (known: {', '.join(sorted(files))})")]
            )
        current = base
    return chain


def _merge_into(
    merged: ruleset_pb2.RuleSet,
    spec_file: SpecFile,
    setter: dict[str, SpecFile],
    note_origin: list[tuple[SpecFile, int]],
) -> None:
    """Overlay one spec on the merged result: set scalars replace, a set repeated field replaces whole."""
    child = spec_file.message
    for name in ("id", "title", "description"):
        if getattr(child, name):
            setattr(merged, name, getattr(child, name))
    for path in set_paths(child):
        section_name, _, field_name = path.partition(".")
        source_section = getattr(child, section_name)
        target_section = getattr(merged, section_name)
        if source_section.DESCRIPTOR.fields_by_name[field_name].is_repeated:
            target = getattr(target_section, field_name)
            del target[:]
            target.extend(getattr(source_section, field_name))
        else:
            setattr(target_section, field_name, getattr(source_section, field_name))
        setter[path] = spec_file
    for i, note in enumerate(child.rules):
        for k, existing in enumerate(merged.rules):
            if existing.field == note.field:
                merged.rules[k].CopyFrom(note)
                note_origin[k] = (spec_file, i)
                break
        else:
            merged.rules.append(note)
            note_origin.append((spec_file, i))
    merge_choices(merged, child)


def _duplicate_notes(chain: list[SpecFile]) -> list[SpecProblem]:
    """Two notes on one field in one file: the second would silently replace the first."""
    problems: list[SpecProblem] = []
    for spec_file in chain:
        first: dict[str, int] = {}
        for i, note in enumerate(spec_file.message.rules):
            if note.field in first:
                problems.append(
                    spec_file.problem(
                        f"rules[{i}].field",
                        f"'{note.field}' already has a note in this file (rules[{first[note.field]}])",
                    )
                )
            first.setdefault(note.field, i)
    return problems


def _uncited_overrides(chain: list[SpecFile]) -> list[SpecProblem]:
    """A variant that changes a field must cite its own reason for it (a note on the field or its section)."""
    problems: list[SpecProblem] = []
    for spec_file in chain[:-1]:  # every file that extends another
        notes = {n.field for n in spec_file.message.rules}
        for path in set_paths(spec_file.message):
            if note_for(path, notes.__contains__) is None:
                problems.append(
                    spec_file.problem(
                        path,
                        "overrides the base rule set without a rule note"
                        ' citing why (add rules { field: "' + path + '" ... })',
                    )
                )
    return problems


def _locate_problem(
    path: str, message: str, top: SpecFile, setter: dict[str, SpecFile], note_origin: list[tuple[SpecFile, int]]
) -> SpecProblem:
    match = re.match(r"rules\[(\d+)\](.*)", path)
    if match:
        spec_file, original = note_origin[int(match.group(1))]
        own = f"rules[{original}]{match.group(2)}"  # the note's index in the file it is written in
        line, column = _nearest(spec_file.locations, own)
        return SpecProblem(spec_file.origin, line, column, own, message)
    leaf = ".".join(re.sub(r"\[\d+\]", "", path).split(".")[:2])
    spec_file = setter.get(leaf, top)
    return spec_file.problem(path, message)


def _nearest(locations: dict[str, tuple[int, int]], path: str) -> tuple[int, int]:
    while path:
        if path in locations:
            return locations[path]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return 0, 0


def _field_near(text: str, line: int, column: int) -> str:
    """The dotted path of the field written nearest before (line, column), for parse errors."""
    best: tuple[int, int, str] = (0, 0, "")
    for path, (ln, col) in locate(text).items():
        if ln == line and col <= column:
            plain = re.sub(r"\[\d+\]", "", path)
            best = max(best, (col, len(plain), plain))
    return best[2]


class RuleBook:
    """Every loaded rule set by id, plus the source catalogue. Immutable once built."""

    def __init__(
        self,
        rule_sets: dict[str, LoadedRuleSet],
        sources: ruleset_pb2.SourceCatalog,
        files: dict[str, SpecFile] | None = None,
        checker: Checker | None = None,
    ) -> None:
        self._rule_sets = dict(sorted(rule_sets.items()))
        self.sources = sources
        self._files = dict(files or {})
        self.checker = checker  #: run on inline rule sets too
        self._inline: LRU[bytes, LoadedRuleSet] = LRU(INLINE_CACHE_SIZE)  #: shared by the server's worker threads

    def resolve_inline(
        self, spec: ruleset_pb2.RuleSet, origin: str = "rule_set.inline", maximums: Mapping[str, int] | None = None
    ) -> LoadedRuleSet:
        """Validate and compile a rule set carried in a request, exactly like a spec file.

        It usually `extends` a known rule set with overrides (each with its
        rule note). Problems raise SpecError whose origin is `origin` (a request
        path) and whose fields are paths inside the inline message. Results are
        cached by content, so a client that sends the same rule set with every
        request pays for validation once.
        """
        key = spec.SerializeToString(deterministic=True)
        cached = self._inline.get(key)
        if cached is not None:
            return cached
        message = ruleset_pb2.RuleSet()
        message.CopyFrom(spec)
        if not message.id:
            message.id = "inline"
        if message.id in self._files:
            raise SpecError(
                [
                    SpecProblem(
                        origin,
                        0,
                        0,
                        "id",
                        f"'{message.id}' is a known rule set; give the inline"
                        " rule set an id of its own (or none) and `extends` the known one",
                    )
                ]
            )
        files = dict(self._files)
        files[message.id] = SpecFile(origin, message, {})
        loaded = resolve(files, message.id, [s.id for s in self.sources.sources], self.checker, maximums)
        self._inline.put(key, loaded)
        return loaded

    def get(self, rule_set_id: str) -> LoadedRuleSet:
        """The rule set with this id; UnknownRuleSetError if there is none."""
        try:
            return self._rule_sets[rule_set_id]
        except KeyError:
            raise UnknownRuleSetError(rule_set_id, self._rule_sets) from None

    def ids(self) -> list[str]:
        """Every id, sorted."""
        return list(self._rule_sets)

    def spec_files(self) -> dict[str, SpecFile]:
        """The parsed spec files by id: what an inline rule set may extend (oracle.ruleset.cache stores them)."""
        return dict(self._files)

    def __iter__(self) -> Iterator[LoadedRuleSet]:
        return iter(self._rule_sets.values())

    @classmethod
    def from_texts(cls, texts: dict[str, str], sources_text: str, checker: Checker | None = None) -> RuleBook:
        """Build from file name -> text (file names are '<id>.textproto'); every problem raises SpecError."""
        catalog = parse_sources(sources_text, SOURCES_FILE)
        files: dict[str, SpecFile] = {}
        problems: list[SpecProblem] = []
        for name, text in sorted(texts.items()):
            try:
                spec_file = parse_spec(text, name)
            except SpecError as exc:
                problems.extend(exc.problems)
                continue
            expected = name.removesuffix(SPEC_SUFFIX)
            spec_id = spec_file.message.id
            if not ID_PATTERN.match(expected):
                problems.append(
                    SpecProblem(name, 0, 0, "", "spec file names are '<id>.textproto' with a lower-kebab-case id")
                )
            elif spec_id != expected:
                problems.append(spec_file.problem("id", f"id '{spec_id}' must match the file name '{expected}'"))
            else:
                files[spec_id] = spec_file
        source_ids = [s.id for s in catalog.sources]
        loaded: dict[str, LoadedRuleSet] = {}
        for spec_id in files:
            try:
                loaded[spec_id] = resolve(files, spec_id, source_ids, checker)
            except SpecError as exc:
                problems.extend(p for p in exc.problems if p not in problems)
        if problems:
            raise SpecError(problems)
        return cls(loaded, catalog, files, checker)

    @classmethod
    def from_directory(cls, directory: Path | Traversable, checker: Checker | None = None) -> RuleBook:
        """Load every '*.textproto' in a directory (sources.textproto is the source catalogue)."""
        texts = {
            entry.name: entry.read_text(encoding="utf-8")
            for entry in directory.iterdir()
            if entry.name.endswith(SPEC_SUFFIX) and entry.name != SOURCES_FILE
        }
        return cls.from_texts(texts, (directory / SOURCES_FILE).read_text(encoding="utf-8"), checker)


@functools.cache
def default_rule_book() -> RuleBook:
    """The rule sets shipped in the package (specs/ in the source tree)."""
    return RuleBook.from_directory(resources.files("oracle.specs"))


@functools.cache
def shipped_rule_set(rule_set_id: str) -> LoadedRuleSet:
    """One shipped rule set, reading only its file and those it extends (a fast start for a verb that needs one).

    It is resolved as default_rule_book() resolves it. An unknown id or any
    problem in the chain loads the whole book instead, so the error raised is
    exactly the one default_rule_book() raises.
    """
    directory = resources.files("oracle.specs")
    files: dict[str, SpecFile] = {}
    current = rule_set_id
    try:
        while current not in files:  # a base rule set extends "": current stays, the loop ends
            name = current + SPEC_SUFFIX
            if not ID_PATTERN.match(current) or not (directory / name).is_file():
                return default_rule_book().get(rule_set_id)
            spec_file = parse_spec((directory / name).read_text(encoding="utf-8"), name)
            if spec_file.message.id != current:
                return default_rule_book().get(rule_set_id)
            files[current] = spec_file
            current = spec_file.message.extends or current
        sources = parse_sources((directory / SOURCES_FILE).read_text(encoding="utf-8"), SOURCES_FILE)
        return resolve(files, rule_set_id, [s.id for s in sources.sources])
    except SpecError:
        return default_rule_book().get(rule_set_id)


__all__ = [
    "Checker",
    "LoadedRuleSet",
    "RuleBook",
    "SpecError",
    "SpecProblem",
    "UnknownRuleSetError",
    "default_rule_book",
    "parse_spec",
    "resolve",
    "shipped_rule_set",
]
