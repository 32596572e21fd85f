"""A rule-set field's own documentation, read from the comment on it in the shipped ruleset.proto, for `explain`."""

from __future__ import annotations

import functools
import re

from oracle.api.v1 import ruleset_pb2

_PROTO = "oracle/api/v1/ruleset.proto"


@functools.cache
def _proto_text() -> str:
    from oracle.cli.protofiles import shipped_files

    return shipped_files()[_PROTO].decode()


def _comment_before(text: str, declaration: str) -> str:
    """The // lines right above the first line matching `declaration` (a regex), joined into one paragraph."""
    match = re.search(rf"((?:^[ \t]*//.*\n)+)[ \t]*{declaration}", text, re.MULTILINE)
    if match is None:
        return ""
    return " ".join(line.strip().removeprefix("//").strip() for line in match.group(1).splitlines())


def _message_body(text: str, name: str) -> str:
    """The text of `message NAME { ... }` at the top level of the file (up to its closing brace)."""
    start = re.search(rf"^message {name} \{{\n", text, re.MULTILINE)
    if start is None:
        return ""
    end = re.search(r"^\}", text[start.end() :], re.MULTILINE)
    return text[start.end() : start.end() + end.start()] if end else text[start.end() :]


def field_doc(path: str) -> str:
    """What the proto says of a rule-set field ("deal.upcard") or section ("bonus_cards"); "" if it says nothing."""
    section, _, name = path.partition(".")
    field = ruleset_pb2.RuleSet.DESCRIPTOR.fields_by_name.get(section)
    if field is None or field.message_type is None:
        return ""
    text = _proto_text()
    message = field.message_type.name
    if not name:
        return _comment_before(text, rf"message {message} \{{")
    return _comment_before(_message_body(text, message), rf"(?:optional |repeated )?[\w.]+ {name} = \d+;")
