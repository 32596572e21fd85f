"""Field paths of the RuleSet schema, and where each path stands in a spec file's text."""

from __future__ import annotations

from collections.abc import Iterator

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from oracle.api.v1 import ruleset_pb2

# Top-level RuleSet fields that are metadata, not rules.
META_FIELDS = frozenset({"id", "extends", "title", "description", "rules", "choices"})

RULE_SET: Descriptor = ruleset_pb2.DESCRIPTOR.message_types_by_name["RuleSet"]  #: the RuleSet message's descriptor


def rule_sections(descriptor: Descriptor = RULE_SET) -> list[FieldDescriptor]:
    """The RuleSet's rule submessages (players, deck, ...), in declaration order."""
    return [f for f in descriptor.fields if f.name not in META_FIELDS]


def section_type(section: FieldDescriptor) -> Descriptor:
    """The message type of a rule section (KeyError if `section` is not a submessage field)."""
    if section.message_type is None:
        raise KeyError(f"{section.name} is not a rule section")
    return section.message_type


def leaf_paths() -> list[str]:
    """Every rule field path: 'melds.max_wilds', ..., and 'initial_meld.thresholds' as one leaf."""
    paths: list[str] = []
    for section in rule_sections():
        for field in section_type(section).fields:
            paths.append(f"{section.name}.{field.name}")
    return paths


def all_paths() -> set[str]:
    """Every path a RuleNote may cover: the sections and their fields."""
    return {s.name for s in rule_sections()} | set(leaf_paths())


def field_at(path: str) -> FieldDescriptor:
    """The descriptor of a 'section.field' path (KeyError if there is none)."""
    section_name, _, field_name = path.partition(".")
    section = RULE_SET.fields_by_name[section_name]
    if not field_name:
        return section
    return section_type(section).fields_by_name[field_name]


def get_value(rule_set: ruleset_pb2.RuleSet, path: str) -> object:
    """The value at a 'section.field' path."""
    section_name, _, field_name = path.partition(".")
    return getattr(getattr(rule_set, section_name), field_name)


def format_field(rule_set: ruleset_pb2.RuleSet, path: str) -> str:
    """A leaf's value in words: enum names, yes/no, numbers, threshold rows."""
    value = get_value(rule_set, path)
    field = field_at(path)
    if path == "initial_meld.thresholds":
        return "; ".join(f"from {row.from_score}: {row.minimum}" for row in value)  # type: ignore[attr-defined]
    if path == "melds.rank_rules":
        return "; ".join(_rank_rule_text(row) for row in value) or "none"  # type: ignore[attr-defined]
    if path == "card_values.rank_values":
        return (
            "; ".join(
                f"{ruleset_pb2.NaturalRank.Name(row.rank).removeprefix('NATURAL_RANK_').lower()} {row.points}"
                for row in value  # type: ignore[attr-defined]
            )
            or "none"
        )
    if field.is_repeated:
        return ", ".join(str(v) for v in value) or "none"  # type: ignore[attr-defined]
    if field.enum_type is not None:
        return field.enum_type.values_by_number[value].name  # type: ignore[index]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _rank_rule_text(row: ruleset_pb2.RankRule) -> str:
    """One rank rule in words: its rank and the values it sets."""
    rank = ruleset_pb2.NaturalRank.Name(row.rank).removeprefix("NATURAL_RANK_").lower()
    parts = [f"max_wilds {row.max_wilds}"]
    if row.wilds_in_initial_meld:
        parts.append("wilds in the initial meld")
    for name in ("canasta_bonus", "unfinished_penalty", "held_min", "held_penalty"):
        if getattr(row, name):
            parts.append(f"{name} {getattr(row, name)}")
    if row.no_discard_on_empty_pile:
        parts.append("not discarded onto an empty pile")
    return f"{rank}: " + ", ".join(parts)


#: Repeated rule fields that may be left empty (no such rule); a variant cannot empty a base's list.
MAY_BE_EMPTY = frozenset(
    {"melds.rank_rules", "threes.count_values", "card_values.rank_values", "initial_meld.minimum_by_hand"}
)


def has_value(rule_set: ruleset_pb2.RuleSet, path: str) -> bool:
    """Whether the leaf at a path is set (a repeated leaf: non-empty)."""
    section_name, _, field_name = path.partition(".")
    section: Message = getattr(rule_set, section_name)
    field = section.DESCRIPTOR.fields_by_name[field_name]
    if field.is_repeated:
        return len(getattr(section, field_name)) > 0
    return section.HasField(field_name)


def set_paths(rule_set: ruleset_pb2.RuleSet) -> Iterator[str]:
    """The rule leaf paths a (possibly partial) spec sets."""
    for section in rule_sections():
        if not rule_set.HasField(section.name):
            continue
        for path in (f"{section.name}.{f.name}" for f in section_type(section).fields):
            if has_value(rule_set, path):
                yield path


def locate(text: str) -> dict[str, tuple[int, int]]:
    """Map each field path in a text-format spec to its (line, column), both 1-based.

    A path is recorded both plain and indexed per occurrence, so either
    'initial_meld.thresholds[1].minimum' or 'deal.hand_size' (the same as
    'deal[0].hand_size[0]') finds its line. The first occurrence wins. Only the
    subset of text format the specs use is understood: names, ':' values,
    '{ }' or '< >' blocks, '[ ]' lists, strings and '#' comments.
    """
    tokens = list(_tokens(text))
    found: dict[str, tuple[int, int]] = {}
    _walk_block(tokens, 0, [""], found)
    return found


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    line, line_start, i, n = 1, 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, line_start, i = line + 1, i + 1, i + 1
        elif ch.isspace():
            i += 1
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] not in (ch, "\n"):
                j += 2 if text[j] == "\\" else 1
            yield '"', line, i - line_start + 1
            i = j + 1
        elif ch in ":{}<>[],;":
            yield ch, line, i - line_start + 1
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in ":{}<>[],;#\"'":
                j += 1
            yield text[i:j], line, i - line_start + 1
            i = j


def _walk_block(
    tokens: list[tuple[str, int, int]], i: int, prefixes: list[str], found: dict[str, tuple[int, int]]
) -> int:
    """Walk statements until a closing brace (returned index points past it) or the end."""
    seen: dict[str, int] = {}
    while i < len(tokens):
        tok, line, col = tokens[i]
        if tok in "}>":
            return i + 1
        if tok in ",;":
            i += 1
            continue
        name = tok
        i += 1
        if i < len(tokens) and tokens[i][0] == ":":
            i += 1
        index = seen.get(name, 0)
        seen[name] = index + 1
        keys = [f"{p}{name}[{index}]" for p in prefixes] + ([f"{p}{name}" for p in prefixes] if index == 0 else [])
        for key in keys:
            found.setdefault(key, (line, col))
        if i < len(tokens) and tokens[i][0] == "[":
            i += 1
            element = 0
            while i < len(tokens) and tokens[i][0] != "]":
                if tokens[i][0] in "{<":
                    sub = [f"{p}{name}[{index + element}]." for p in prefixes]
                    i = _walk_block(tokens, i + 1, sub, found)
                    element += 1
                else:
                    i += 1
            i += 1
        elif i < len(tokens) and tokens[i][0] in "{<":
            i = _walk_block(tokens, i + 1, [k + "." for k in keys], found)
        else:
            i += 1  # the scalar value
            while i < len(tokens) and tokens[i][0] == '"' and tokens[i - 1][0] == '"':
                i += 1
    return i
