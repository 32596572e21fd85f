"""Bounded answers: problems grouped and capped, callers' values cut short, and error trailers kept under a size."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from oracle.model.errors import FieldProblem
from oracle.rules.violations import Violation
from oracle.service.limits import DEFAULT_LIMITS, Limits

ELLIPSIS = "..."
_FIELD_CHARS = 200  #: longest field path kept in a detail (paths are built by the service; this is a safety net)
_DESCRIPTION_CHARS = 400  #: longest description kept in a detail
_MESSAGE_CHARS = 600  #: longest status message (it travels twice: as grpc-message and inside the details)
_PER_ENTRY = 32  #: HTTP/2 counts 32 bytes per header on top of its name and value (RFC 7541, 4.1)
_TRAILING_INDEX = re.compile(r"\[\d+\]$")


def shorten(text: str, limit: int = DEFAULT_LIMITS.max_value_chars) -> str:
    """`text` if it has at most `limit` characters, else its start and '...' (`limit` characters in all)."""
    if len(text) <= limit:
        return text
    return text[: max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


@dataclass(frozen=True)
class Grouped:
    """Problems reported together: the first one and how many there were (1: a single problem)."""

    first: FieldProblem
    count: int
    list_path: str  #: the list the problems are in ('' when all have the same field)

    def problem(self) -> FieldProblem:
        """The group as one problem: the first one's field, its description saying how many more there are."""
        description = shorten(self.first.description, _DESCRIPTION_CHARS)
        if self.count > 1 and self.list_path:
            description += f" (and {self.count - 1} more like it in {self.list_path})"
        elif self.count > 1:
            description += f" ({self.count} times)"
        return FieldProblem(shorten(self.first.field, _FIELD_CHARS), description)


def group_problems(problems: Sequence[FieldProblem]) -> list[Grouped]:
    """Identical problems once, with a count; problems with one description at different indexes of one list (for
    example one per bad card of a hand) under the first one's field. Order: each group where it first appears."""
    groups: dict[tuple[str, str], list[FieldProblem]] = {}
    for problem in problems:
        key = (_TRAILING_INDEX.sub("[]", problem.field), problem.description)
        groups.setdefault(key, []).append(problem)
    result = []
    for members in groups.values():
        first = members[0]
        same_field = all(m.field == first.field for m in members)
        list_path = "" if same_field else _TRAILING_INDEX.sub("", first.field)
        result.append(Grouped(first, len(members), list_path))
    return result


def listed_problems(problems: Sequence[FieldProblem], limit: int) -> list[FieldProblem]:
    """At most `limit` problems for an answer: grouped, and when more groups remain the last entry says how many
    problems are not listed (under the first problem's top-level field, e.g. 'state')."""
    groups = group_problems(problems)
    if len(groups) <= limit:
        return [g.problem() for g in groups]
    shown = groups[: max(limit - 1, 0)]
    rest = len(problems) - sum(g.count for g in shown)
    root = re.split(r"[.\[]", problems[0].field, maxsplit=1)[0]
    return [g.problem() for g in shown] + [FieldProblem(root, f"and {rest} more problems not listed")]


def bounded_violations(violations: Sequence[Violation], limit: int) -> list[Violation]:
    """At most `limit` violations for a verdict. Within the limit nothing changes; beyond it, violations of one code
    at one field are grouped (the first one says how many more), and if still too many, the last one listed says
    how many are not."""
    if len(violations) <= limit:
        return list(violations)
    groups: dict[tuple[str, str], list[Violation]] = {}
    for violation in violations:
        groups.setdefault((violation.code, violation.field), []).append(violation)
    grouped = [
        replace(members[0], explanation=f"{members[0].explanation} (and {len(members) - 1} more like it)")
        if len(members) > 1
        else members[0]
        for members in groups.values()
    ]
    if len(grouped) <= limit:
        return grouped
    rest = sum(len(members) for members in list(groups.values())[limit:])
    last = grouped[limit - 1]
    return [*grouped[: limit - 1], replace(last, explanation=f"{last.explanation} (and {rest} more not listed)")]


def trailer_bytes(status: status_pb2.Status) -> int:
    """The size of the trailers gRPC sends for `status`: grpc-status, grpc-message (percent-encoded) and
    grpc-status-details-bin (base64), each with the 32 bytes HTTP/2 adds per header."""
    message = status.message.encode("utf-8")
    encoded_message = sum(1 if 0x20 <= b <= 0x7E and b != 0x25 else 3 for b in message)
    details = len(base64.b64encode(status.SerializeToString()).rstrip(b"="))
    names = len("grpc-status") + len("grpc-message") + len("grpc-status-details-bin")
    return names + 3 * _PER_ENTRY + 2 + encoded_message + details  # grpc-status itself: at most 2 digits


def bounded_status(
    code: int,
    lead: str,
    problems: Sequence[FieldProblem],
    detail_of: Callable[[list[FieldProblem]], Message],
    limits: Limits = DEFAULT_LIMITS,
) -> status_pb2.Status:
    """A status listing `problems` grouped, at most limits.max_problems of them, within limits.max_status_bytes.

    `lead` opens the message; `detail_of` makes the detail (BadRequest, PreconditionFailure) of the listed
    problems. When some are left out the message says how many.
    """
    groups = group_problems(problems)
    listed = [g.problem() for g in groups[: limits.max_problems]]
    while True:
        left_out = len(problems) - sum(g.count for g in groups[: len(listed)])
        status = status_pb2.Status(code=code, message=_message(lead, listed, left_out))
        status.details.add().Pack(detail_of(listed))
        if trailer_bytes(status) <= limits.max_status_bytes or len(listed) <= 1:
            return status
        listed = listed[: max(1, len(listed) * 3 // 4)]


def _message(lead: str, listed: list[FieldProblem], left_out: int) -> str:
    tail = f" (and {left_out} more problem{'s' if left_out != 1 else ''} not listed)" if left_out else ""
    text = lead + "; ".join(str(p) for p in listed)
    return shorten(text, _MESSAGE_CHARS - len(tail)) + tail


def bad_request(problems: list[FieldProblem]) -> error_details_pb2.BadRequest:
    """A google.rpc.BadRequest naming each field."""
    detail = error_details_pb2.BadRequest()
    for problem in problems:
        detail.field_violations.add(field=problem.field, description=problem.description)
    return detail


def precondition_failure(problems: list[FieldProblem]) -> error_details_pb2.PreconditionFailure:
    """A google.rpc.PreconditionFailure with one STATE violation per problem."""
    detail = error_details_pb2.PreconditionFailure()
    for problem in problems:
        detail.violations.add(type="STATE", subject=problem.field, description=problem.description)
    return detail


def fit_status(status: status_pb2.Status, limits: Limits = DEFAULT_LIMITS) -> status_pb2.Status:
    """`status` with its message cut short if its trailers would pass limits.max_status_bytes (a last guard for
    statuses built elsewhere; their details are kept when they fit and dropped when they do not)."""
    if trailer_bytes(status) <= limits.max_status_bytes:
        return status
    fitted = status_pb2.Status(code=status.code, message=shorten(status.message, _MESSAGE_CHARS))
    fitted.details.extend(status.details)
    if trailer_bytes(fitted) > limits.max_status_bytes:
        del fitted.details[:]
    return fitted


__all__ = [
    "ELLIPSIS",
    "Grouped",
    "bad_request",
    "bounded_status",
    "bounded_violations",
    "fit_status",
    "group_problems",
    "listed_problems",
    "precondition_failure",
    "shorten",
    "trailer_bytes",
]
